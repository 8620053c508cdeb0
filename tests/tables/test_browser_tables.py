"""Playing through the pages in headless Chromium, against a real Daphne and a real Celery worker
with beat (tests/tables/conftest.py, ``live_site``): two players in two browser contexts create
and join a Jakaro and a Hand table and see each other's moves live; one match against a bot is
played through the page to its result (its first turns tapped, the rest by time-outs), with not
one console error, script error or CSP violation on the way. Screenshots (phone size) go to
test-artifacts/."""

from __future__ import annotations

import json

import pytest
from django.test import Client

import games
from games.models import Majlis, Match, Table
from tests.support.console import Console
from tests.support.pages import pool_for
from tests.support.shots import screenshot
from tests.support.tables import quiet_the_tables
from tests.tables.helpers import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WAIT = 30_000  # ms: a state frame after a move comes in well under a second here
# How often a page checks a test's wait_for_function condition. Playwright's default checks it
# on every animation frame, which keeps the page drawing frames at 60 a second for as long as a
# test waits: a good part of Chromium's time in the suite. Every 20 ms is as prompt for a test.
POLL_MS = 20


@pytest.fixture
def majlis():
    majlis = Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})[0]
    yield majlis
    # Stop every match the test left going, so the Celery worker is not moving a bot or playing a
    # time-out while the database is flushed for the next test; and let Daphne finish the
    # disconnects of the closed pages (each locks its seat row), or the flush's TRUNCATE and
    # those row locks deadlock.
    quiet_the_tables()


def player(django_user_model, name: str, display: str, lang: str = "ar"):
    return django_user_model.objects.create_user(
        name, password="x-Long-pass-123", display_name=display, language=lang
    )


def open_as(chromium, base: str, user, lang: str = "ar", **options):
    """A browser context signed in as ``user`` (its session cookie), phone-sized and asking for
    reduced motion unless ``options`` (Playwright's context options: a viewport, touch,
    bypass_csp, reduced_motion…) say otherwise."""
    client = Client()
    client.force_login(user)
    # Reduced motion unless a test asks for it: Playwright waits for an element to stop moving
    # before it taps it, so every animated move cost a test its length in waiting.
    defaults = {"viewport": PHONE, "locale": lang, "reduced_motion": "reduce"}
    # A page kept from an earlier test when one is free (tests/support/pages.py): blank, no
    # cookies, no storage; the context's close() gives it back.
    context, page = pool_for(chromium).open_page(base, **{**defaults, **options})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    page.set_default_timeout(WAIT)
    return context, page


def wait_live(page) -> None:
    page.wait_for_selector("#table-conn.on")


def seq_of(page) -> int:
    return int(page.locator("#table-live").get_attribute("data-seq"))


def wait_seq(page, seq: int) -> None:
    page.wait_for_function(
        "s => +document.getElementById('table-live').dataset.seq >= s", arg=seq, polling=POLL_MS
    )


def wait_my_turn_or_end(page, after: int) -> None:
    page.wait_for_function(
        """a => { const l = document.getElementById('table-live');
                  return l && (l.dataset.status !== 'playing' ||
                               (l.dataset.yourTurn === '1' && +l.dataset.seq >= a)); }""",
        arg=after,
        polling=POLL_MS,
    )


def open_sheet(page, sheet_id: str):
    """Open one of the table's sheets from its dock (static/js/sheets.js), unless it is open
    already; its locator."""
    if not page.locator(f"#{sheet_id}").evaluate("d => d.open"):
        page.get_by_test_id(f"dock-{sheet_id}").click()
        page.wait_for_function(
            "id => document.getElementById(id)?.open", arg=sheet_id, polling=POLL_MS
        )
    return page.locator(f"#{sheet_id}")


def close_sheet(page, sheet_id: str) -> None:
    page.locator(f"#{sheet_id}").get_by_test_id("sheet-close").click()


def create_table(page, base: str, **fields) -> str:
    """Fill the majlis's create form; return the new table's id (from the page it opens).
    Without a ``seat`` the creator sits nowhere yet (the test sits with ``sit``); with one,
    the table page sits them there itself."""
    page.goto(base + "/majlis/")
    fields.setdefault("seat", "")
    if not page.get_by_test_id("create").evaluate("d => d.open"):
        page.get_by_test_id("start-table").click()
    form = page.get_by_test_id("create-form")
    for name, value in fields.items():
        if isinstance(value, bool):
            form.locator(f"[name={name}]").set_checked(value)
        else:
            form.locator(f"[name={name}]").select_option(str(value))
    page.get_by_test_id("create-submit").click()
    page.wait_for_url("**/majlis/t/**")
    wait_live(page)
    return page.locator("#table").get_attribute("data-table")


def sit(page, seat: int) -> None:
    page.get_by_test_id(f"sit-{seat}").click()
    # The table says whose page it is (a Hand table in play lists its players in its own row).
    page.wait_for_selector(f"#table-live[data-you-seat='{seat}']")


def play_jakaro_as_the_bot(page, match: Match, on_turn=None, turns_at_most: int = 0) -> int:
    """Tap every one of the page's Jakaro turns to the end of ``match`` (or its first
    ``turns_at_most``), each time the move the bot would choose for that seat (quicker to the
    end than the first button); returns how many turns were tapped. ``on_turn(seq, turns)``
    runs before each tap (a test's own checks)."""
    engine = games.get("jakaro")
    seat = int(page.locator("#table-live").get_attribute("data-you-seat"))
    turns = after = 0
    while not turns_at_most or turns < turns_at_most:
        # A frame lost on the way is repaired by the page's idle check (docs/protocol.md).
        wait_my_turn_or_end(page, after)
        live = page.locator("#table-live")
        if live.get_attribute("data-status") != "playing":
            return turns
        seq = int(live.get_attribute("data-seq"))
        match.refresh_from_db()
        if on_turn is not None:
            on_turn(seq, turns)
        choice = engine.bot_action(engine.view(engine.from_json(match.snapshot), seat))
        # The moves as a list, in their sheet (which a move sent from it closes).
        open_sheet(page, "jk-sheet-moves").locator(f".moves button[data-action='{choice}']").click()
        turns += 1
        after = seq + 1
    return turns


# Test-side watch over the majlis page's lobby socket: its first frame (the hello) comes once the
# server has put the socket in the lobby's group, so from then on it hears every table change.
LOBBY_WATCH = """(() => {
  const Native = window.WebSocket;
  window.__lobbyHeard = false;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (String(args[0]).endsWith("/ws/majlis/")) {
        this.addEventListener("message", () => { window.__lobbyHeard = true; }, {once: true});
      }
    }
  };
})();"""


def kept_seeds(page) -> list[dict]:
    return json.loads(page.evaluate("localStorage.getItem('sahrat.seeds.v1') || '[]'"))


def test_two_players_create_join_and_see_each_others_moves(
    live_site, chromium, majlis, django_user_model
):
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ali = player(django_user_model, "ali", "Ali", lang="en")
    ctx_a, a = open_as(chromium, base, sara)
    ctx_b, b = open_as(chromium, base, ali, "en")
    try:
        # Ali watches the majlis; Sara's new table appears there without a reload.
        b.add_init_script(LOBBY_WATCH)
        b.goto(base + "/majlis/")
        assert b.locator("html").get_attribute("dir") == "ltr"
        # The lobby socket is in its group.
        b.wait_for_function("() => window.__lobbyHeard", polling=POLL_MS)
        jakaro_id = create_table(a, base, game="jakaro", players=2)
        assert a.locator("html").get_attribute("dir") == "rtl"
        commitment = a.get_by_test_id("commitment").inner_text().strip()
        sit(a, 0)
        row = b.locator(f"#tables [data-table='{jakaro_id}']")
        row.get_by_text("سارة").wait_for()  # and then her seat, again without a reload
        assert "two players" in row.inner_text()
        screenshot(a, "table-waiting-ar.png", full_page=True)
        screenshot(b, "majlis-en.png", full_page=True)

        # The seed was made in Sara's browser for the commitment she was shown.
        seeds = kept_seeds(a)
        assert seeds[-1]["commitment"] == commitment and seeds[-1]["seat"] == 0
        assert len(seeds[-1]["seed"]) == 32
        match = Match.objects.get(table__public_id=jakaro_id)
        assert match.seeds.get(seat=0).seed == seeds[-1]["seed"]

        row.locator("a").click()
        b.wait_for_url(f"**/majlis/t/{jakaro_id}/")
        wait_live(b)
        sit(b, 1)
        for page in (a, b):
            page.wait_for_selector("#table-live[data-status='playing']")
        # Four turns, each played by whoever's turn it is, seen live by the other.
        pages, names = {0: a, 1: b}, {0: "سارة", 1: "Ali"}
        for _ in range(4):
            seq = seq_of(a)
            wait_seq(b, seq)
            mover = 0 if a.locator("#table-live[data-your-turn]").count() else 1
            other = 1 - mover
            open_sheet(pages[mover], "jk-sheet-moves").locator(".moves button.move").first.click()
            wait_seq(pages[other], seq + 1)
            wait_seq(pages[mover], seq + 1)
            assert names[mover] in pages[other].get_by_test_id("last-move").inner_text()
        screenshot(a, "table-jakaro-ar.png", full_page=True)
        screenshot(b, "table-jakaro-en.png", full_page=True)

        # Chat: one tap on a quick phrase reaches the other seat, whose closed chat sheet counts
        # it on the dock and shows it a moment over the table.
        open_sheet(a, "sheet-chat").locator(".quick .chip").first.click()
        b.get_by_test_id("chat-toast").get_by_text("السلام عليكم").wait_for()
        assert b.get_by_test_id("chat-unread").inner_text() == "1"
        chat = open_sheet(b, "sheet-chat").get_by_test_id("chat-log")
        chat.get_by_text("السلام عليكم").wait_for()
        assert b.get_by_test_id("chat-unread").is_hidden()
        close_sheet(a, "sheet-chat")
        close_sheet(b, "sheet-chat")

        # Hand, two players: the starter throws (select a card, one tap), the other draws and
        # throws; a move out of turn is refused in words beside the cards.
        hand_id = create_table(b, base, game="hand", players=2, variant="plain", table="easy")
        sit(b, 0)
        a.goto(f"{base}/majlis/t/{hand_id}/")
        wait_live(a)
        sit(a, 1)
        for page in (a, b):
            page.wait_for_selector("#table-live[data-status='playing']")
        pages, names = {1: a, 0: b}, {1: "سارة", 0: "Ali"}
        starter = 1 if a.locator("#table-live[data-your-turn]").count() else 0
        other = 1 - starter
        seq = seq_of(pages[starter])
        # The first card (hands are sorted, jokers last: a joker may not be thrown).
        first = pages[starter].locator("#my-cards [data-card]").first
        thrown = first.get_attribute("data-card")
        first.click()
        pages[starter].get_by_test_id("throw").click()
        wait_seq(pages[other], seq + 1)
        fire = pages[other].get_by_test_id("fire").locator("[data-card]")
        assert fire.get_attribute("data-card") == thrown

        # Out of turn: the page offers no draw; a frame sent anyway is refused in words.
        assert pages[starter].get_by_test_id("draw-stock").count() == 0
        pages[starter].evaluate(
            """s => document.dispatchEvent(new CustomEvent('sahrat:send',
                   {detail: {type: 'move', seq: s, action: 'draw stock'}}))""",
            seq + 1,
        )
        error = pages[starter].get_by_test_id("table-error")
        error.wait_for()
        assert error.inner_text().strip()  # "not your turn", in the player's language

        pages[other].get_by_test_id("draw-stock").click()
        wait_seq(pages[starter], seq + 2)
        wait_seq(pages[other], seq + 2)
        card = pages[other].locator("#my-cards [data-card]").first
        card.click()
        pages[other].get_by_test_id("throw").click()
        wait_seq(pages[starter], seq + 3)
        assert pages[starter].locator("#table-live[data-your-turn]").count() == 1
        screenshot(a, "table-hand-ar.png", full_page=True)
        screenshot(b, "table-hand-en.png", full_page=True)
        assert Table.objects.get(public_id=hand_id).status == "playing"
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_whole_match_against_a_bot_through_the_page(
    live_site, chromium, majlis, django_user_model
):
    base = live_site
    nora = player(django_user_model, "nora", "نورة")
    ctx, page = open_as(chromium, base, nora)
    console = Console(page)  # not one console error, script error or CSP violation on the way
    try:
        table_id = create_table(page, base, game="jakaro", players=2)
        sit(page, 0)
        page.get_by_test_id("bot-1").click()
        page.wait_for_selector("#table-live[data-status='playing']")
        match = Match.objects.get(table__public_id=table_id, number=1)

        def check(seq: int, turns: int) -> None:
            assert match.seq == seq
            if turns == 3:
                screenshot(page, "bot-match-ar.png", full_page=True)

        # A dozen turns tapped, then time-outs and the bot play the rest while the page shows
        # every frame to the end (a whole match tapped through the board is
        # tests/tables/test_jakaro_board_browser.py's).
        turns = play_jakaro_as_the_bot(page, match, on_turn=check, turns_at_most=12)
        match = play_out(match)
        assert match.status == Match.Status.FINISHED and turns > 10
        result = page.get_by_test_id("result")
        result.wait_for()
        page.get_by_test_id("jakaro-end").wait_for()
        problems = console.problems()
        assert problems == [], (len(problems), problems[:3])
        assert page.get_by_test_id("secret").first.inner_text().strip() == match.secret
        screenshot(page, "bot-match-result-ar.png", full_page=True)

        # Ready for the next one: a fresh seed for the next match's commitment, kept here too.
        nxt = Match.objects.get(table__public_id=table_id, number=2)
        page.get_by_test_id("ready").click()
        page.wait_for_selector(f"#table-live[data-match='{nxt.public_id}'][data-status='playing']")
        kept = {e["match"]: e for e in kept_seeds(page)}
        assert kept[match.public_id]["commitment"] == match.commitment
        assert kept[nxt.public_id]["commitment"] == nxt.commitment
        # Kept under the seat the player holds now: the deal moved on, from seat 0 to seat 1.
        assert kept[nxt.public_id]["seat"] == 1
        assert nxt.seeds.get(seat=1).seed == kept[nxt.public_id]["seed"]
    finally:
        ctx.close()
