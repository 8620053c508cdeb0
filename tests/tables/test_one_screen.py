"""The table is one screen, in headless Chromium against the live site: seated at a
match of either game, or watching one, at four phone screens (three held upright, one sideways)
and in both languages, the page does not scroll, and every control a turn needs is inside the
screen; what is not needed every turn opens from the dock as a sheet and closes again.

Four people sit through the services (a four-seat table is the fullest screen: three others round
the table); the page of the one whose turn it is is measured, then a fifth user's, who watches."""

from __future__ import annotations

import pytest
from django.utils import timezone

import games
from games import selectors, services
from games.models import Match, Seat
from tests.support.shots import ARTIFACTS, screenshot
from tests.tables import test_browser_tables
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_browser_tables import open_as, open_sheet, player, wait_live, wait_seq

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

majlis = test_browser_tables.majlis  # the same fixture: it stops the matches a test leaves

VIEWPORTS = [(390, 844), (360, 740), (412, 915), (844, 390)]

# What a seated player needs during a turn, by game (CSS selectors; each must be on screen).
TURN_CONTROLS = {
    "hand": {
        "status": ".table-status",
        "players": "[data-testid=hand-players] .hp",  # every seat round the felt
        "stock": "[data-testid=stock]",
        "fire": "[data-testid=fire]",
        "melds": "[data-testid=melds]",
        "?draw": "[data-testid^=draw-]",  # not on the first turn (15 cards, a throw)
        "cards": "#my-cards .pc",
        "sort": "[data-testid^=sort-]",
        "dock": ".dock-button",
    },
    "jakaro": {
        "status": ".table-status",
        "board": "[data-testid=board]",
        "hint": "[data-testid=jk-hint]",
        "cards": ".jk-hand .jk-card",
        "dock": ".dock-button",
    },
}
WATCHED = {
    "hand": ("status", "players", "stock", "fire", "melds", "dock"),
    "jakaro": ("status", "board", "dock"),
}

MEASURE = """sel => {
  const vw = innerWidth, vh = innerHeight, out = [], missing = [];
  for (const [name, css] of Object.entries(sel)) {
    const els = [...document.querySelectorAll(css)].filter(e => e.getClientRects().length);
    if (!els.length && !name.startsWith('?')) missing.push(name);
    for (const e of els) {
      const r = e.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
        out.push(`${name} ${e.dataset.testid || e.dataset.card || ''} ` +
                 [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
    }
  }
  return {scroll: document.scrollingElement.scrollHeight, vh, outside: out, missing};
}"""


# Every element a finger can tap, as drawn on the screen now (closed sheets and menus are not
# drawn): each one's own box is what receives the tap. The board's drawn marbles and squares are
# not taps themselves: the invisible hit circles over them (.jk-hit) are.
TAPPABLE = (
    "button, a[href], summary, select, input:not([type=hidden]), label.check, [data-action],"
    " [data-drop], .jk-hit"
)
HITS = """css => {
  const small = [];
  for (const e of document.querySelectorAll(css)) {
    if (!e.checkVisibility()) continue; // a closed menu's or sheet's items are not drawn
    const r = e.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue;
    if (r.width < 43.5 || r.height < 43.5)
      small.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ` +
                 `${e.dataset.testid || e.dataset.card || e.textContent.trim().slice(0, 20)} ` +
                 `${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return small;
}"""


# Where the Hand's seats sit on the screen: each place's centre x (and the top's and bottom's
# y), or null without a Hand felt. The next seat after the viewer's is on the right, whatever the
# page's direction (the rules: play goes to the right).
PLACES = """() => {
  const one = (p) => document.querySelector(`#hand-game .hp-${p}`)?.getBoundingClientRect();
  const [l, r, t, b] = ['left', 'right', 'top', 'bottom'].map(one);
  if (!b || !l || !r || !t) return null;
  const x = (q) => q.left + q.width / 2;
  const viewer = +(document.querySelector('#table-live').dataset.youSeat ?? 0);
  const next = document.querySelector(`#hand-game .hp[data-seat="${(viewer + 1) % 4}"]`);
  if (!next.classList.contains('hp-right')) return {wrong: 'the next seat is not on the right'};
  return {left: x(l), right: x(r), bottom: x(b), top: t.top + t.height / 2,
          bottom_y: b.top + b.height / 2};
}"""


def seated_match(django_user_model, game: str) -> tuple[Match, list]:
    users = [player(django_user_model, f"{game}_p{i}", f"لاعب {i + 1}") for i in range(4)]
    table = make_table(users[0], game, {"players": 4})
    seat_humans(table, users)
    # Everyone away with their seat kept (the fullest seat a screen shows: the countdown of the
    # seat-keeping in words); the page opened takes its own seat back.
    Seat.objects.filter(table=table).update(connected=0, away_since=timezone.now())
    return Match.objects.get(table=table, status=Match.Status.PLAYING), users


def check_screens(page, base: str, match: Match, user, controls: dict, label: str) -> None:
    """At every viewport, in Arabic then English: no page scroll, every control on screen."""
    url = f"{base}/majlis/t/{match.table.public_id}/"
    for lang in ("ar", "en"):
        type(user).objects.filter(pk=user.pk).update(language=lang)
        for width, height in VIEWPORTS:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url)
            wait_live(page)
            got = page.evaluate(MEASURE, controls)
            screenshot(page, f"one-screen-{label}-{lang}-{width}x{height}.png")
            where = f"{label} {lang} {width}x{height}"
            if got["missing"] or got["scroll"] > height or got["outside"]:
                # Kept whatever the screenshot setting: what the failure below looked like.
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"failed-{label}-{lang}-{width}x{height}.png"))
            assert got["missing"] == [], (where, got)
            assert got["scroll"] <= height, (where, got)
            assert got["outside"] == [], (where, got)
            places = page.evaluate(PLACES)
            if places:  # the Hand's players round the felt: play goes to the right, any language
                assert places["right"] > places["bottom"] > places["left"], (where, places)
                assert places["top"] < places["bottom_y"], (where, places)
            small = page.evaluate(HITS, TAPPABLE)
            assert small == [], f"{where}: {small}"


def your_turn_moment(page, url: str) -> None:
    """The turn's coming is marked (the table outlined, "Your turn" a moment, then gone), and
    its last five seconds show large over the table. The clock is brought near its end in the
    page (its deadline moved to 4.5 s after the server's now): the display is what is tested.
    The page's timers run on Playwright's clock, moved on by the test: "a moment" (1.6 s from the
    page's load) is over before the socket is live on a loaded machine otherwise."""
    page.clock.install()
    page.goto(url)
    wait_live(page)
    toast = page.get_by_test_id("turn-toast")
    assert toast.is_visible()
    screenshot(page, f"your-turn-{page.viewport_size['width']}.png")
    assert "turn-now" in page.locator("#table").get_attribute("class")
    page.clock.run_for(2000)
    toast.wait_for(state="hidden")
    assert "turn-now" not in page.locator("#table").get_attribute("class")
    assert page.get_by_test_id("turn-late").is_hidden()
    page.evaluate(
        """() => { const c = document.querySelector('#table-live .table-head .countdown');
                 c.dataset.deadline = new Date(Date.parse(c.dataset.now) + 4500).toISOString(); }"""
    )
    page.clock.run_for(1000)
    late = page.get_by_test_id("turn-late")
    late.wait_for()
    shown = late.inner_text().translate(str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789"))
    assert shown in {"1", "2", "3", "4", "5"}
    assert "turn-late" in page.locator("#table").get_attribute("class")
    screenshot(page, f"turn-late-{page.viewport_size['width']}.png")


def test_the_your_turn_moment_ends_when_the_turn_passes(
    live_site, chromium, majlis, django_user_model
):
    """A player who plays within the moment (or whose match ends in it) is not told "Your turn"
    after the turn has gone: the page's clock is held still, so only the turn's passing can
    hide the toast."""
    users = [player(django_user_model, f"quick_{i}", f"لاعب {i + 1}") for i in range(2)]
    table = make_table(users[0], "hand", {"players": 2})
    seat_humans(table, users)
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    ctx, page = open_as(chromium, live_site, users[0])
    try:
        page.clock.install()
        page.goto(f"{live_site}/majlis/t/{table.public_id}/")
        wait_live(page)
        toast = page.get_by_test_id("turn-toast")
        assert toast.is_visible()  # seat 0 starts: its turn has come
        hand = games.get("hand").view(selectors.load_state(match), 0)["hand"]
        card = next(c for c in hand if not c.startswith("JK"))
        services.match_play(
            user=users[0], table_id=table.public_id, seq=match.seq, action=f"throw {card}"
        )
        wait_seq(page, match.seq + 1)
        assert page.locator("#table-live").get_attribute("data-your-turn") != "1"
        assert toast.is_hidden()
        assert "turn-now" not in page.locator("#table").get_attribute("class")
    finally:
        ctx.close()


def your_page(chromium, base: str, match: Match, users):
    """The page of the player whose turn it is."""
    for user in users:
        ctx, page = open_as(chromium, base, user)
        page.goto(f"{base}/majlis/t/{match.table.public_id}/")
        wait_live(page)
        if page.locator("#table-live[data-your-turn]").count():
            return ctx, page, user
        ctx.close()
    raise AssertionError("nobody's turn")


@pytest.mark.parametrize("game", ["hand", "jakaro"])
def test_a_seated_player_and_a_watcher_see_the_whole_table_on_one_screen(
    live_site, chromium, majlis, django_user_model, game
):
    match, users = seated_match(django_user_model, game)
    ctx, page, you = your_page(chromium, live_site, match, users)
    try:
        check_screens(page, live_site, match, you, TURN_CONTROLS[game], f"{game}-seated")
        open_sheet(page, "sheet-chat")  # a player writes in the chat
        assert page.get_by_test_id("chat-form").is_visible()
        assert page.get_by_test_id("chat-watching").is_hidden()
        your_turn_moment(page, f"{live_site}/majlis/t/{match.table.public_id}/")
    finally:
        ctx.close()

    watcher = player(django_user_model, f"{game}_watch", "مشاهد")
    ctx, page = open_as(chromium, live_site, watcher)
    try:
        controls = {k: v for k, v in TURN_CONTROLS[game].items() if k in WATCHED[game]}
        check_screens(page, live_site, match, watcher, controls, f"{game}-watching")
        assert page.locator("#my-cards, .jk-hand").count() == 0  # a watcher holds no cards
        # A watcher is told whose chat they read and where their own lines go (the watchers'
        # chat: docs/social.md), and may write there.
        open_sheet(page, "sheet-chat")
        assert page.get_by_test_id("chat-watching").is_visible()
        assert page.get_by_test_id("chat-form").is_visible()
    finally:
        ctx.close()


def test_the_dock_opens_each_sheet_over_the_table_and_closes_it(
    live_site, chromium, majlis, django_user_model
):
    match, users = seated_match(django_user_model, "hand")
    ctx, page, _you = your_page(chromium, live_site, match, users)
    try:
        ids = page.locator(".dock-button").evaluate_all("bs => bs.map(b => b.dataset.sheet)")
        assert ids == [
            "sheet-chat",
            "score-sheet",
            "hand-settings",
            "sheet-fair",
            "sheet-players",
            "sheet-more",
        ]
        for sheet_id in ids:
            page.get_by_test_id(f"dock-{sheet_id}").click()
            sheet = page.locator(f"#{sheet_id}")
            assert sheet.evaluate("d => d.open && d.matches(':modal')")
            box = sheet.bounding_box()
            assert box["y"] + box["height"] <= 844 + 0.5
            sheet.get_by_test_id("sheet-close").click()
            assert not sheet.evaluate("d => d.open")
        # The game's rules in short, in the "More" sheet, in the player's language.
        page.get_by_test_id("dock-sheet-more").click()
        rules = page.get_by_test_id("rules")
        rules.locator("summary").click()
        items = rules.locator("li")
        assert items.count() == 7 and items.first.is_visible()
        assert "النزلة ثلاث أوراق" in rules.inner_text()
        page.keyboard.press("Escape")
        # The fair-shuffle sheet shows the match's commitment.
        page.get_by_test_id("dock-sheet-fair").click()
        assert page.get_by_test_id("commitment").inner_text() == match.commitment
        page.keyboard.press("Escape")
        assert not page.locator("#sheet-fair").evaluate("d => d.open")
    finally:
        ctx.close()
