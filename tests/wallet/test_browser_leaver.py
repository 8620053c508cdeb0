"""The coin leaver's whole story, from both seats, in two browser contexts against a real Daphne
and the live site's Celery worker with beat: Huda's page goes, Omar sees her seat
kept with a labelled countdown; she comes back in time and is warned; she goes again past the
keeping, her seat is given up and, Omar being the only other person, the match ends at once,
won by him (issue 57: never played out against her time-outs); she comes back and is told she
left and that her stake stays in the pot; the result names her, marked as left, and her wallet's
stake line says she left that match. Screenshots go to test-artifacts/."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db.models import F
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import games
from games.models import Match, MatchAction, Seat
from tests.conftest import LIVE_CLOCKS
from tests.support.shots import screenshot
from tests.tables.helpers import make_table
from tests.tables.test_browser_tables import (  # the table tests' page helpers
    POLL_MS,
    WAIT,
    close_sheet,
    majlis,  # noqa: F401 - the fixture that stops leftover matches after the test
    open_as,
    open_sheet,
    player,
    sit,
    wait_live,
)
from wallet import services as wallet_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The live site's seat-keeping (tests/conftest.py LIVE_CLOCKS): long enough to come back in on a
# loaded machine; the test passes its seconds at once when it waits it out.
KEEP_S = float(LIVE_CLOCKS["SEAT_KEEP_SECONDS"])


def wait_for(check, seconds: float = 60, what: str = "") -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting for {what}")


def stalled(page, match: Match, seen: int, choice: str) -> str:
    """What the page and the database show when Omar's turn did not come back after his move:
    the page's seq, turn and error line, and the match's seq, deadline, countdown and last
    actions (the test failed so once under load; this says which side stopped)."""
    live = page.locator("#table-live")
    error = page.locator("#table-error").all_inner_texts()
    match.refresh_from_db()
    last = list(match.actions.order_by("-seq").values_list("seq", "seat", "by", "action")[:4])
    return (
        f"after move {choice!r} at page seq {seen}: page seq {live.get_attribute('data-seq')}, "
        f"your turn {live.get_attribute('data-your-turn')}, status "
        f"{live.get_attribute('data-status')}, error {error}; "
        f"match seq {match.seq}, status {match.status}, deadline {match.deadline}, "
        f"timer_at {match.timer_at}, last actions {last}"
    )


def move_once(page, match: Match, seat: int) -> None:
    """The seat's player waits for their turn and taps the move the bot would choose (a move of
    their own: a match nobody played is aborted, issue 57)."""
    engine = games.get("jakaro")
    page.wait_for_selector("#table-live[data-your-turn='1']")
    seen = int(page.locator("#table-live").get_attribute("data-seq"))
    match.refresh_from_db()
    choice = engine.bot_action(engine.view(engine.from_json(match.snapshot), seat))
    open_sheet(page, "jk-sheet-moves").locator(f".moves button[data-action='{choice}']").click()
    try:
        page.wait_for_function(
            "s => +document.getElementById('table-live').dataset.seq > s", arg=seen, polling=POLL_MS
        )
    except PlaywrightTimeout as exc:  # say where the move stopped
        raise AssertionError(stalled(page, match, seen, choice)) from exc


def reopen(context, url: str):
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(url)
    wait_live(page)
    return page


def test_a_coin_player_away_past_the_keeping_is_told_named_and_played_for_at_once(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    host = player(django_user_model, "host", "المضيف")
    huda = player(django_user_model, "huda", "هدى")
    omar = player(django_user_model, "omar", "Omar", lang="en")
    for user in (huda, omar):
        wallet_services.grant_starter(user=user)
    table = make_table(host, "jakaro", {"players": 2}, stake=50)
    url = f"{base}/majlis/t/{table.public_id}/"
    ctx_a, a = open_as(chromium, base, huda)
    ctx_b, b = open_as(chromium, base, omar, lang="en")
    try:
        for page in (a, b):
            page.goto(url)
            wait_live(page)
        sit(a, 0)
        sit(b, 1)
        for page in (a, b):
            page.wait_for_selector("#table-live[data-status='playing']")
        match = Match.objects.get(table=table, number=1)
        # The turn's countdown says what it counts.
        assert "turn" in b.get_by_test_id("turn-clock").inner_text()
        move_once(a, match, 0)  # Huda plays her first turn
        # "Leave the match" asks first and says what it costs at a coin table (not confirmed).
        forfeit = open_sheet(b, "sheet-more").get_by_test_id("forfeit")
        forfeit.locator("summary").click()
        cost = forfeit.inner_text()
        assert "50 coins stays in the pot" in cost
        assert b.get_by_test_id("forfeit-confirm").is_visible()
        forfeit.locator("summary").click()
        close_sheet(b, "sheet-more")

        # Huda's page goes: Omar sees her seat kept, with its own labelled countdown.
        a.close()
        away = b.get_by_test_id("away-0")
        away.wait_for()
        assert "away, seat kept" in away.inner_text()
        screenshot(b, "leaver-kept-en.png", full_page=True)

        # She comes back before the keeping ends: her page warns her what staying away costs.
        a = reopen(ctx_a, url)
        a.get_by_test_id("back-notice").wait_for()
        assert "يبقى رهانك في الجائزة" in a.get_by_test_id("back-notice").inner_text()
        assert not Seat.objects.get(table=table, number=0).left
        screenshot(a, "leaver-warned-ar.png", full_page=True)

        # She goes again and stays away past the keeping: her seat is given up. The keeping's
        # seconds pass at once (her seat's away time moved back by them, as in
        # tests/tables/helpers.py advance_until): it is the beat sweeper that gives it up.
        a.close()
        away_seat = Seat.objects.filter(
            table=table, number=0, connected=0, away_since__isnull=False
        )
        wait_for(away_seat.exists, what="seat 0 away")
        away_seat.update(away_since=F("away_since") - timedelta(seconds=KEEP_S))
        # (Given up, it ends the match at once: the seat is emptied as the table reopens.)
        ended = Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED)
        wait_for(ended.exists, what="seat 0 given up, the match ended")
        match.refresh_from_db()
        assert [(r["seat"], r["why"]) for r in match.leavers] == [(0, "away")]
        # Omar was the only other person: the match ends at once, won by him, with nothing
        # played for her seat after she left (issue 57).
        b.get_by_test_id("forfeit-won").wait_for()
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.end_reason == "forfeit"
        assert match.actions.filter(seat=0, by=MatchAction.By.PLAYER).exists()  # her move
        assert "هدى (left the match)" in b.get_by_test_id("result").inner_text()
        assert "Omar" in b.get_by_test_id("result").inner_text()
        screenshot(b, "leaver-result-en.png", full_page=True)

        # She comes back: told she left and that her stake stays in the pot; no leave control.
        a = reopen(ctx_a, url)
        told = a.get_by_test_id("you-left")
        told.wait_for()
        assert "٥٠ عملة" in told.inner_text()  # her page counts in Arabic-Indic digits
        assert not open_sheet(a, "sheet-more").get_by_test_id("forfeit").is_visible()
        close_sheet(a, "sheet-more")
        assert "هدى (غادر المباراة)" in a.get_by_test_id("result").inner_text()
        screenshot(a, "leaver-told-ar.png", full_page=True)

        # Her wallet: the stake line names the match and says she left it; the pot went to Omar.
        a.goto(f"{base}/wallet/")
        line = a.get_by_test_id("left-line")
        assert line.count() == 1
        assert "جاكارو" in line.inner_text()
        assert "-٥٠" in a.get_by_test_id("history").inner_text()
        assert wallet_services.balance_of(huda) == 450
        assert wallet_services.balance_of(omar) == 540
        screenshot(a, "leaver-wallet-ar.png", full_page=True)
        b.goto(f"{base}/wallet/")
        assert b.get_by_test_id("left-line").count() == 0
    finally:
        ctx_a.close()
        ctx_b.close()


def test_leaving_from_the_table_asks_first_then_gives_the_seat_up_like_the_keeping_does(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    host = player(django_user_model, "host", "المضيف")
    huda = player(django_user_model, "huda", "هدى")
    omar = player(django_user_model, "omar", "Omar", lang="en")
    for user in (huda, omar):
        wallet_services.grant_starter(user=user)
    table = make_table(host, "jakaro", {"players": 2}, stake=10)
    url = f"{base}/majlis/t/{table.public_id}/"
    ctx_a, a = open_as(chromium, base, huda)
    ctx_b, b = open_as(chromium, base, omar, lang="en")
    try:
        for page in (a, b):
            page.goto(url)
            wait_live(page)
        sit(a, 0)
        sit(b, 1)
        for page in (a, b):
            page.wait_for_selector("#table-live[data-status='playing']")
        match = Match.objects.get(table=table, number=1)
        move_once(a, match, 0)  # Huda plays her first turn
        # Nothing is sent until the confirmation's own button is pressed.
        forfeit = open_sheet(b, "sheet-more").get_by_test_id("forfeit")
        forfeit.locator("summary").click()
        assert "10 coins stays in the pot" in forfeit.inner_text()
        assert not Seat.objects.get(table=table, number=1).left
        b.get_by_test_id("forfeit-confirm").click()  # which closes the sheet
        b.get_by_test_id("you-left").wait_for()
        assert not open_sheet(b, "sheet-more").get_by_test_id("forfeit").is_visible()
        close_sheet(b, "sheet-more")
        # Huda was the only other person: she wins at once (issue 57), both pages say so.
        a.get_by_test_id("forfeit-won").wait_for()
        assert "Omar (غادر المباراة)" in a.get_by_test_id("result").inner_text()
        b.get_by_test_id("forfeit-won").wait_for()
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.end_reason == "forfeit"
        assert [(r["seat"], r["why"]) for r in match.leavers] == [(1, "forfeit")]
        assert wallet_services.balance_of(huda) == 500 - 10 + 18  # pot 20, fee 2
        assert wallet_services.balance_of(omar) == 490
        screenshot(b, "forfeit-en.png", full_page=True)
        screenshot(a, "forfeit-won-ar.png", full_page=True)
    finally:
        ctx_a.close()
        ctx_b.close()
