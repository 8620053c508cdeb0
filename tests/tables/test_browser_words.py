"""The words a player reads, in headless Chromium at 390×844 in Arabic, against a real Daphne and
Celery worker: counts in Arabic's plural forms with one digit style
(the profile's choice, the countdown included), dates day-first with the month's name and no
microseconds, two bots at one table told apart, the replay in words, and the Verify page saying
«مطابق» where the browser agrees. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest

from games.models import MatchAction
from tests.support.shots import screenshot
from tests.tables.test_browser_tables import (
    POLL_MS,
    create_table,
    majlis,  # noqa: F401 - the fixture that stops leftover matches after the test
    open_as,
    player,
    sit,
    wait_live,
)
from tests.verify.conftest import play_match
from wallet import services as wallet_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARABIC_MONTHS = "يناير|فبراير|مارس|أبريل|إبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر"
# «١ ديسمبر ٢٠٢٦، ٦:١٢ م»: day first, the month's name, the year, then the time.
ARABIC_DATE = re.compile(rf"^[٠-٩]{{1,2}} ({ARABIC_MONTHS}) [٠-٩]{{4}}، [٠-٩]{{1,2}}:[٠-٩]{{2}}")
RAW_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}\.\d+|[٠-٩]{4}-")


def set_balance(user, staff, target: int, step: list[int]) -> None:
    """Move a wallet to ``target`` coins with one staff adjustment (through the ledger)."""
    now = wallet_services.balance_of(user)
    if now == target:
        return
    step[0] += 1
    wallet_services.adjust(
        staff=staff,
        user=user,
        amount=abs(now - target),
        debit=now > target,
        reason="test",
        key=f"words-{user.pk}-{step[0]}",
    )


def test_the_wallet_counts_coins_in_every_arabic_plural_form_with_day_first_dates(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    huda = player(django_user_model, "huda", "هدى")
    staff = django_user_model.objects.create_user("boss", password="x-Long-pass-123", is_staff=True)
    wallet_services.grant_starter(user=huda)
    ctx, page = open_as(chromium, base, huda)
    step = [0]
    try:
        # Each of Arabic's forms: 100 and 11 (singular noun), 10 and 3 (plural), 2 (dual), 1.
        for coins, words in (
            (100, "الرصيد: ١٠٠ عملة"),
            (11, "الرصيد: ١١ عملة"),
            (10, "الرصيد: ١٠ عملات"),
            (3, "الرصيد: ٣ عملات"),
            (2, "الرصيد: عملتان"),
            (1, "الرصيد: عملة واحدة"),
        ):
            set_balance(huda, staff, coins, step)
            page.goto(f"{base}/wallet/")
            assert page.get_by_test_id("balance").inner_text().strip() == words
        screenshot(page, "words-wallet-ar.png", full_page=True)
        # Every line of the history: a date a player reads, never a raw timestamp.
        times = page.locator("[data-testid='transfer'] time").all_inner_texts()
        assert len(times) == step[0] + 1  # the starter grant and each adjustment
        for text in times:
            assert ARABIC_DATE.match(text.strip()), text
            assert not RAW_TIMESTAMP.search(text), text
        amounts = page.locator("[data-testid='transfer'] .amount").all_inner_texts()
        assert all(re.fullmatch(r"[+-]?[٠-٩]+", a.strip()) for a in amounts), amounts
    finally:
        ctx.close()


def test_the_digit_style_chosen_in_the_profile_applies_to_the_table_and_its_countdown(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ctx, page = open_as(chromium, base, sara)
    try:
        table_id = create_table(page, base, game="jakaro", players=2)
        sit(page, 0)
        page.get_by_test_id("bot-1").click()
        page.wait_for_selector("#table-live[data-status='playing']")

        def choose(style: str) -> None:
            page.goto(f"{base}/accounts/profile/")
            page.locator(f"input[name='digits'][value='{style}']").check()
            page.locator("form.form button[type='submit']").click()
            page.wait_for_url("**/accounts/profile/")
            page.goto(f"{base}/majlis/t/{table_id}/")
            wait_live(page)
            # The turn's countdown, written by the page's script every quarter second.
            page.wait_for_selector("#table-live[data-your-turn='1']")
            page.wait_for_function(
                "() => { const c = document.querySelector('#table-live .table-head .countdown');"
                " return c && c.textContent.trim().length > 0; }",
                polling=POLL_MS,
            )

        def shown() -> dict[str, str]:
            return {
                "countdown": page.locator("#table-live .table-head .countdown").inner_text(),
                "seat": page.locator("#table-live .seat[data-seat='0'] .seat-no").inner_text(),
                "cards": page.get_by_test_id("seat-count-0").inner_text(),
                "square": page.locator(".jk-nums text").nth(5).text_content() or "",
            }

        choose("latn")
        western = shown()
        screenshot(page, "words-digits-western-ar.png", full_page=True)
        assert page.locator("body").get_attribute("data-digits") == "latn"
        assert re.fullmatch(r"[0-9]+", western["countdown"].strip()), western
        assert western["seat"].strip() == "1" and western["square"].strip() == "5", western
        assert re.fullmatch(r"[0-9]+ ورقات", western["cards"].strip()), western  # 4 or 5 cards

        choose("arab")
        arabic = shown()
        screenshot(page, "words-digits-arabic-ar.png", full_page=True)
        assert page.locator("body").get_attribute("data-digits") == "arab"
        assert re.fullmatch(r"[٠-٩]+", arabic["countdown"].strip()), arabic
        assert arabic["seat"].strip() == "١" and arabic["square"].strip() == "٥", arabic
        assert re.fullmatch(r"[٠-٩]+ ورقات", arabic["cards"].strip()), arabic
    finally:
        ctx.close()


def test_two_bots_at_one_free_table_have_different_names(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    ali = player(django_user_model, "ali", "علي")
    ctx, page = open_as(chromium, base, ali)
    try:
        create_table(page, base, game="jakaro", players=4)
        sit(page, 0)
        for seat in (1, 2):
            page.get_by_test_id(f"bot-{seat}").click()
            page.wait_for_selector(f"#table-live .seat[data-seat='{seat}'] .seat-name.bot")
        names = [
            page.locator(f"#table-live .seat[data-seat='{seat}'] .seat-name").inner_text()
            for seat in (1, 2)
        ]
        screenshot(page, "words-two-bots-ar.png", full_page=True)
        assert names[0] != names[1], names
        assert names == ["لاعب آلي ١ (عادي)", "لاعب آلي ٢ (عادي)"], names  # no quotes (issue 57)
    finally:
        ctx.close()


def test_the_replay_speaks_words_not_engine_notation(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
    creator,
    users,
):
    base = live_site
    match = play_match(creator, users, "hand", {"players": 2, "rounds": 1})
    draw = MatchAction.objects.filter(match=match, action="draw stock").order_by("seq").first()
    assert draw is not None
    ctx, page = open_as(chromium, base, users[0])
    try:
        # The replay at the first «draw stock»: in words, not the engine's notation.
        page.goto(f"{base}/verify/m/{match.public_id}/replay/?step={draw.seq}")
        said = page.get_by_test_id("replay-action").inner_text()
        assert "اسحب من الكومة" in said, said
        assert "draw stock" not in page.get_by_test_id("replay-step").inner_text()
        assert page.get_by_test_id("replay-words").inner_text().strip() == "اسحب من الكومة"
        screenshot(page, "words-replay-ar.png", full_page=True)
    finally:
        ctx.close()


def test_the_verify_page_says_matches_as_agrees(
    live_site,
    chromium,
    majlis,  # noqa: F811
    creator,
    users,
):
    base = live_site
    match = play_match(creator, users, "hand", {"players": 2, "rounds": 1})
    ctx, page = open_as(chromium, base, users[0])
    try:
        # The Verify page: every event the browser recomputed says «مطابق».
        page.goto(f"{base}/verify/m/{match.public_id}/")
        page.wait_for_selector("#browser-summary[data-verdict='ok']", timeout=60_000)
        marks = page.locator(".event .browser-status").all_inner_texts()
        assert marks and all(m.strip() == "✓ مطابق" for m in marks), marks
        assert "المباريات" not in " ".join(marks)
    finally:
        ctx.close()


def test_the_verify_page_dates_are_day_first_without_microseconds(
    live_site,
    chromium,
    majlis,  # noqa: F811
    creator,
    users,
):
    base = live_site
    match = play_match(creator, users, "hand", {"players": 2, "rounds": 1})
    ctx, page = open_as(chromium, base, users[0])
    try:
        page.goto(f"{base}/verify/m/{match.public_id}/")
        # Its dates: day first, the month's name, seconds but never microseconds.
        fixed = page.locator(".facts time").first.inner_text().strip()
        seed_at = page.locator(".verify-seeds time").first.inner_text().strip()
        for text in (fixed, seed_at):
            assert ARABIC_DATE.match(text), text
            assert not RAW_TIMESTAMP.search(text), text
        page.goto(f"{base}/verify/")
        listed = page.locator(f"tr[data-match='{match.public_id}'] time").inner_text().strip()
        assert ARABIC_DATE.match(listed) and not RAW_TIMESTAMP.search(listed), listed
        screenshot(page, "words-verify-log-ar.png", full_page=True)
    finally:
        ctx.close()


def arabic_cards(n: int) -> str:
    """The Arabic words for n cards, by the catalogue's plural rule (the expected text)."""
    shown = str(n).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    if n == 1:
        return "ورقة واحدة"
    if n == 2:
        return "ورقتان"
    if 3 <= n % 100 <= 10:
        return f"{shown} ورقات"
    return f"{shown} ورقة"


def test_a_hand_table_counts_cards_in_arabic_plural_forms(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    mona = player(django_user_model, "mona", "منى")
    ctx, page = open_as(chromium, base, mona)
    try:
        create_table(page, base, game="hand", players=2)
        sit(page, 0)
        page.get_by_test_id("bot-1").click()
        page.wait_for_selector("#table-live[data-status='playing']")
        page.wait_for_selector(".hand-players li[data-seat='1'] .backs")
        backs = page.locator(".hand-players li[data-seat='1'] .backs")
        shown = backs.locator("b").inner_text().strip()
        n = int(shown.translate(str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")))
        assert re.fullmatch(r"[٠-٩]+", shown), shown
        assert backs.get_attribute("aria-label") == arabic_cards(n)
        stock = page.get_by_test_id("stock").inner_text().strip()
        left = int(
            re.search(r"[٠-٩]+", stock).group().translate(str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789"))
        )
        assert stock == f"الكومة: {arabic_cards(left)}.", stock
        screenshot(page, "words-hand-counts-ar.png", full_page=True)
    finally:
        ctx.close()
