"""A whole match of each game played through the table page, in headless Chromium against a
real Daphne and Celery worker, with not one console error, script error or CSP violation on the
way (issue 18, item 12): every live update swaps server-made HTML into the page, and the page's
own policy (style-src 'self', script-src 'self') must hold for all of it."""

from __future__ import annotations

import pytest

from games.models import Match
from tests.support.shots import screenshot
from tests.tables.helpers import make_table
from tests.tables.test_browser_tables import (
    majlis,  # noqa: F401 - the fixture that stops leftover matches after the test
    open_as,
    play_jakaro_as_the_bot,
    player,
    seq_of,
    sit,
    wait_live,
    wait_seq,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every CSP violation the page meets, as the browser reports it to the page itself (the console
# says it too, in words that change between Chromium versions).
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  {directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample,
   source: e.sourceFile + ':' + e.lineNumber}));
"""


class Console:
    """Collects a page's console errors and uncaught script errors."""

    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.add_init_script(WATCH_CSP)

    def _console(self, msg) -> None:
        if msg.type == "error":
            self.errors.append(f"console: {msg.text} @ {msg.location}")

    def problems(self) -> list:
        return self.errors + self.page.evaluate("window.__csp || []")


def hand_match_against_a_bot(page, base: str, user) -> Match:
    """One round (the create form always makes five), every turn tapped in the page, as
    tests/tables/test_hand_table.py plays it."""
    table = make_table(user, "hand", {"players": 2, "table": "easy", "rounds": 1})
    page.goto(f"{base}/majlis/t/{table.public_id}/")
    wait_live(page)
    sit(page, 0)
    page.get_by_test_id("bot-1").click()
    page.wait_for_selector("#table-live[data-status='playing']")
    while True:
        page.wait_for_function(
            """() => { const l = document.getElementById('table-live');
                 return l.dataset.status !== 'playing' || (l.dataset.yourTurn === '1' &&
                   !document.getElementById('hand-game').classList.contains('is-pending')); }"""
        )
        if page.locator("#table-live").get_attribute("data-status") != "playing":
            break
        seq = seq_of(page)
        if page.get_by_test_id("draw-stock").count():
            page.get_by_test_id("draw-stock").click()
        elif page.get_by_test_id("hint-throw").count():
            page.get_by_test_id("hint-throw").click()
        else:  # a round's first turn with no hint: throw the first card that is no joker
            page.locator("#my-cards [data-card]:not([data-card^='JK'])").first.click()
            page.get_by_test_id("throw").click()
        wait_seq(page, seq + 1)
    page.get_by_test_id("result").wait_for()
    return Match.objects.get(table=table, number=1)


def jakaro_match_against_a_bot(page, base: str, user) -> Match:
    table = make_table(user, "jakaro", {"players": 2})
    page.goto(f"{base}/majlis/t/{table.public_id}/")
    wait_live(page)
    sit(page, 0)
    page.get_by_test_id("bot-1").click()
    page.wait_for_selector("#table-live[data-status='playing']")
    match = Match.objects.get(table=table, number=1)
    play_jakaro_as_the_bot(page, match)
    page.get_by_test_id("jakaro-end").wait_for()
    return match


@pytest.mark.parametrize("game", ["hand", "jakaro"])
def test_a_whole_match_without_a_console_error_or_csp_violation(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
    game,
):
    base = live_site
    user = player(django_user_model, f"clean_{game}", "سلمى")
    ctx, page = open_as(chromium, base, user)
    console = Console(page)
    try:
        play = hand_match_against_a_bot if game == "hand" else jakaro_match_against_a_bot
        match = play(page, base, user)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        screenshot(page, f"console-clean-{game}.png", full_page=True)
        page.wait_for_timeout(300)  # the end screen's own scripts have run
        problems = console.problems()
        assert problems == [], (len(problems), problems[:3])
    finally:
        ctx.close()
