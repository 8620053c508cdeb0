"""Two players play a two-player Jakaro coin match through the pages, in two browser contexts
(bots never sit at a coin table), against a real Daphne and Celery worker: the first turns
tapped, the rest played by time-outs, the result on both tables; then each one's wallet page
shows the stake, the winnings and the table fee. Screenshots (phone size) go to
test-artifacts/."""

from __future__ import annotations

import re

import pytest

import games
from games.models import Match, MatchAction
from tests.support.shots import screenshot
from tests.tables.helpers import play_out
from tests.tables.test_browser_tables import (  # the table tests' page helpers
    POLL_MS,
    create_table,
    majlis,  # noqa: F401 - the fixture that stops leftover matches after the test
    open_as,
    open_sheet,
    player,
    sit,
    wait_live,
    wait_my_turn_or_end,
)
from wallet import services as wallet_services
from wallet.models import Account, Transfer

TAPPED_TURNS = 12
WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_play_a_coin_match_and_their_wallets_show_payout_and_fee(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    huda = player(django_user_model, "huda", "هدى")
    omar = player(django_user_model, "omar", "Omar", lang="en")
    for user in (huda, omar):
        wallet_services.grant_starter(user=user)  # what sign-up gives
    ctx_a, a = open_as(chromium, base, huda)
    ctx_b, b = open_as(chromium, base, omar, lang="en")
    engine = games.get("jakaro")
    try:
        table_id = create_table(a, base, game="jakaro", players=2, stake=50)
        assert "طاولة عملات" in a.get_by_test_id("pot").inner_text()
        assert a.get_by_test_id("bot-1").count() == 0  # no bot button at a coin table
        sit(a, 0)
        b.goto(f"{base}/majlis/t/{table_id}/")
        wait_live(b)
        assert "Pot: 100 coins" in b.get_by_test_id("pot").inner_text()
        sit(b, 1)
        for page in (a, b):
            page.wait_for_selector("#table-live[data-status='playing']")
        match = Match.objects.get(table__public_id=table_id, number=1)
        assert Account.objects.get(match=match).balance == 100  # both stakes in escrow
        pages = {0: a, 1: b}
        # The first dozen turns tapped, each on the page whose turn it is; time-outs play the
        # rest (a whole match tapped through the page is tests/tables/test_browser_tables.py's).
        turns = 0
        while turns < TAPPED_TURNS:
            match.refresh_from_db()
            if match.status != Match.Status.PLAYING:
                break
            state = engine.from_json(match.snapshot)
            seat = engine.to_move(state)
            page = pages[seat]
            wait_my_turn_or_end(page, match.seq)
            live = page.locator("#table-live")
            if live.get_attribute("data-status") != "playing":
                break
            choice = engine.bot_action(engine.view(state, seat))
            moves = open_sheet(page, "jk-sheet-moves")  # the moves as a list, in their sheet
            moves.locator(f".moves button[data-action='{choice}']").click()
            # The move shows (the seq moves on), or the match is over and the table waits for
            # the next one.
            page.wait_for_function(
                """s => { const l = document.getElementById('table-live');
                          return l.dataset.status !== 'playing' || +l.dataset.seq > s; }""",
                arg=match.seq,
                polling=POLL_MS,
            )
            turns += 1
        # The rest is nobody's taps: the pages need not draw each of its frames, and come back
        # to the table once it is over.
        for page in (a, b):
            page.goto("about:blank")
        match = play_out(match)
        assert match.actions.filter(by=MatchAction.By.PLAYER).count() == turns
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and turns > 10
        for page in (a, b):
            page.goto(f"{base}/majlis/t/{table_id}/")
            page.get_by_test_id("result").wait_for()
        winner_seat = next(int(s) for s, share in match.outcome["shares"].items() if share != "0")
        winner, loser = (huda, omar) if winner_seat == 0 else (omar, huda)
        assert wallet_services.balance_of(winner) == 500 - 50 + 90
        assert wallet_services.balance_of(loser) == 450
        assert wallet_services.house_account().balance == 10

        # Each player's wallet page: the balance, the stake, the winnings (for the winner), the
        # pot and the table fee, with the match linked to its Verify page.
        for user, page in ((huda, a), (omar, b)):
            page.goto(f"{base}/wallet/")
            # Numbers in the viewer's digits (Arabic-Indic for Huda): read them as 0-9.
            text = page.get_by_test_id("history").inner_text().translate(WESTERN)
            balance = page.get_by_test_id("balance").inner_text().translate(WESTERN)
            rows = page.get_by_test_id("transfer")
            kinds = [rows.nth(i).get_attribute("data-kind") for i in range(rows.count())]
            if user == winner:
                assert kinds == ["payout", "stake", "grant"]
                assert "+90" in text
                assert "540" in balance
            else:
                assert kinds == ["stake", "grant"]
                assert "450" in balance
            assert "-50" in text
            fee = page.get_by_test_id("pot-fee").first.inner_text().translate(WESTERN)
            numbers = re.findall(r"\d+", fee)
            assert numbers == ["100", "10"], fee  # pot 100, table fee 10
            link = page.get_by_test_id("verify-link").first.get_attribute("href")
            assert link == f"/verify/m/{match.public_id}/"
        screenshot(a, "wallet-ar.png", full_page=True)
        screenshot(b, "wallet-en.png", full_page=True)
        assert Transfer.objects.filter(match=match, kind=Transfer.Kind.FEE).get().amount == 10
    finally:
        ctx_a.close()
        ctx_b.close()
