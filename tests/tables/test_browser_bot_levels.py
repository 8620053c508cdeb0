"""In Chromium, in Arabic at phone size: a player creates a free Jakaro table with strong bots
from the majlis's form, seats a bot, reads its strength at the seat («لاعب آلي (قوي)»), and the
strong bot answers her moves from the page."""

from __future__ import annotations

import pytest

from games.models import Match, Seat
from tests.support.shots import screenshot
from tests.tables.test_browser_tables import (  # noqa: F401
    create_table,
    majlis,
    open_as,
    play_jakaro_as_the_bot,
    player,
    sit,
    wait_seq,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_of_strong_bots_from_the_create_form(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    huda = player(django_user_model, "huda_b", "هدى")
    ctx, page = open_as(chromium, base, huda)
    try:
        table_id = create_table(page, base, game="jakaro", players=2, bot_level="strong")
        sit(page, 0)
        page.get_by_test_id("bot-1").click()
        page.wait_for_selector("#table-live[data-status='playing']")
        assert Seat.objects.get(table__public_id=table_id, number=1).bot_level == "strong"
        assert "لاعب آلي (قوي)" in page.locator("#table-live").inner_text()
        # The seats' strip fits the phone's width: no hidden part to scroll to.
        fits = "() => { const s = document.querySelector('#table-live .seats'); " + (
            "return s.scrollWidth <= s.clientWidth; }"
        )
        assert page.evaluate(fits)
        screenshot(page, "bot-strong-seat-ar.png")
        # Two of her turns tapped: the strong bot answered each in between.
        match = Match.objects.get(table__public_id=table_id, number=1)
        assert play_jakaro_as_the_bot(page, match, turns_at_most=2) == 2
        match.refresh_from_db()
        wait_seq(page, match.seq)
        assert match.actions.filter(by="bot").exists()
    finally:
        ctx.close()
