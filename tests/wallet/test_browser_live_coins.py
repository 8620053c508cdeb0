"""The thin bar's coins follow the ledger live, and the end screen says what each seat won or
paid (issue 57, item 8), in Chromium in Arabic at 360×740 and 390×844: two players sit at a
two-player Jakaro coin table (the stakes leave their bars at once), each makes a move of their
own, time-outs play the rest; without a reload the winner's bar shows the payout and both end
screens say «ربح ٤٠ عملة» / «خسارة ٥٠ عملة» from the settlement."""

from __future__ import annotations

import re

import pytest

from games.models import Match
from tests.support.shots import screenshot
from tests.tables.test_browser_tables import (  # the table tests' page helpers
    POLL_MS,
    create_table,
    majlis,  # noqa: F401 - the fixture that stops leftover matches after the test
    open_as,
    player,
    sit,
    wait_live,
)
from tests.wallet.test_live_coins import STAKE, _own_moves_then_time_outs
from wallet import services as wallet_services
from wallet.models import Transfer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")


def _bar(page) -> int:
    """The number the bar shows (its words for a screen reader follow it)."""
    text = page.get_by_test_id("bar-coins").inner_text().translate(WESTERN)
    return int(re.findall(r"\d+", text)[0])


def _wait_bar(page, coins: int) -> None:
    arabic = str(coins).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    page.wait_for_function(
        "n => (document.getElementById('bar-coins')?.textContent || '').includes(n)",
        arg=arabic,
        polling=POLL_MS,
    )


def test_the_bar_follows_the_ledger_and_the_end_screen_says_who_won_what(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    huda = player(django_user_model, "huda", "هدى")
    omar = player(django_user_model, "omar", "عمر")
    for user in (huda, omar):
        wallet_services.grant_starter(user=user)  # what sign-up gives
    start = wallet_services.balance_of(huda)
    ctx_a, a = open_as(chromium, base, huda, viewport={"width": 360, "height": 740})
    ctx_b, b = open_as(chromium, base, omar, viewport={"width": 390, "height": 844})
    try:
        table_id = create_table(a, base, game="jakaro", players=2, stake=STAKE)
        sit(a, 0)
        b.goto(f"{base}/majlis/t/{table_id}/")
        wait_live(b)
        for page in (a, b):
            assert _bar(page) == start
            page.evaluate("() => { window.sahratNoReload = true; }")  # gone on a reload
        sit(b, 1)
        for page in (a, b):  # the match starts: the stakes leave the wallets, the bars follow
            _wait_bar(page, start - STAKE)
        match = Match.objects.get(table__public_id=table_id, number=1)
        match = _own_moves_then_time_outs(match, [huda, omar])
        assert match.status == Match.Status.FINISHED
        payout = Transfer.objects.get(match=match, kind=Transfer.Kind.PAYOUT)
        winner_page = a if payout.dest.user_id == huda.pk else b
        loser_page = b if winner_page is a else a
        won = payout.amount - STAKE
        _wait_bar(winner_page, start - STAKE + payout.amount)
        assert _bar(loser_page) == start - STAKE
        for page in (a, b):
            page.get_by_test_id("result-coins").first.wait_for()
            assert page.evaluate("() => window.sahratNoReload === true")  # no reload
        winner_said = winner_page.get_by_test_id("result").inner_text()
        loser_said = loser_page.get_by_test_id("result").inner_text()
        for said in (winner_said, loser_said):  # both pages say both seats' coins
            text = said.translate(WESTERN)
            assert f"ربح {won} عملة" in text, said
            assert f"خسارة {STAKE} عملة" in text, said
        # The places are said in words («المركز الأول»): the list draws no marker of its own,
        # which was a Western «1.» before each Arabic line.
        markers = a.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=result] ol'))"
            ".listStyleType"
        )
        assert markers == "none", markers
        screenshot(a, "coins-end-ar-360.png")
        screenshot(b, "coins-end-ar-390.png")
    finally:
        ctx_a.close()
        ctx_b.close()
