"""The seats, the turn's moment and a coin table's stake on a phone (issue 57, items 5, 6, 7, 9
and 10), in headless Chromium in Arabic at 360×740 and 390×844, measured as drawn:

- 5: a four-seat Jakaro table's seat chips show each name and card count whole (no element of a
  chip is cut or ends in "…": its scrollWidth is its clientWidth);
- 6: the rating chip «Fahad ٩٢٧? · ١٠٠%» is drawn in that order (the rating's digits left to
  right, its "?" after them, the rating before the reputation in the page's direction), read
  from the positions of each character on the screen (Range.getClientRects);
- 7: «دورك» neither covers the play area (the board, the felt, the cards) nor takes a tap;
- 9: a coin table says the stake and the prize right by «اجلس هنا»;
- 10: every bot says its strength (easy, normal, strong), with no quotation marks round it."""

from __future__ import annotations

import re

import pytest

from games.models import Match
from games.services import seat_add_bot
from standing.models import PlayerStanding
from standing.ratings import mode_of
from tests.support.shots import screenshot
from tests.tables import test_browser_tables
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_browser_tables import open_as, player, wait_live
from wallet import services as wallet_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

majlis = test_browser_tables.majlis  # the same fixture: it stops the matches a test leaves

PHONES = [(360, 740), (390, 844)]
WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")
STRENGTHS = {"easy": "سهل", "normal": "عادي", "strong": "قوي"}

# Every element of each seat chip of the strip (and the chip itself) that is cut: its content
# wider than its box (what an ellipsis or a hidden overflow hides), with the chip's text.
CUT = """() => [...document.querySelectorAll('#table-live .seats .seat')].flatMap(chip =>
  [chip, ...chip.querySelectorAll('*')]
    .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 0.5
                 && getComputedStyle(e).display !== 'inline')
    .map(e => `${chip.dataset.seat}: ${e.className} ${e.scrollWidth}>${e.clientWidth}`
              + ` «${chip.innerText.replace(/\\s+/g, ' ')}»`))"""

# Where each character of the standing chip of seat n is drawn: [character, its box's centre x],
# in the text's logical order (a Range over each character in turn).
CHARS = """n => {
  const chip = document.querySelector(`[data-testid=standing-${n}]`);
  const out = [];
  const walk = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (let i = 0; i < t.data.length; i++) {
      if (!t.data[i].trim()) continue;
      const r = document.createRange();
      r.setStart(t, i);
      r.setEnd(t, i + 1);
      const box = r.getClientRects()[0];
      out.push([t.data[i], box.left + box.width / 2]);
    }
  }
  return out;
}"""


# Each player's name on the Jakaro board that overlaps a marble, a base's hole, a square of the
# track or a home, or the seat's connection dot: [the name, the circle's class]. The names sit
# beside their bases, among all of these on a phone's narrow board.
NAMES_ON_MARBLES = """() => {
  const hit = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const circles = [...document.querySelectorAll(
    '#jakaro svg :is(.jk-marble, .jk-hole, .jk-sq, .jk-dot)')];
  return [...document.querySelectorAll('#jakaro svg text.jk-name')].flatMap(name => {
    const box = name.getBoundingClientRect();
    return circles.filter(c => hit(box, c.getBoundingClientRect()))
      .map(c => `${name.textContent}: ${c.getAttribute('class')}`);
  });
}"""


# Each player's name on the Jakaro board that is not wholly inside the board's drawing (its
# viewBox, 400 units square).
NAMES_OFF_BOARD = """() => {
  const svg = document.querySelector('#jakaro svg');
  const m = svg.getScreenCTM();  // the drawn board, 0-400, wherever the element's box reaches
  const board = { left: m.e, right: m.e + 400 * m.a };
  return [...document.querySelectorAll('#jakaro svg text.jk-name')]
    .map(t => [t.textContent, t.getBoundingClientRect()])
    .filter(([, r]) => r.left < board.left || r.right > board.right)
    .map(([name, r]) => `${name}: ${r.left}-${r.right} of ${board.left}-${board.right}`);
}"""


def four_seats_of_jakaro(django_user_model):
    """Fahad, rated 927 (provisional) and finishing all his matches, at a four-seat Jakaro table
    with an easy, a normal and a strong bot."""
    fahad = player(django_user_model, "fahad", "Fahad")
    table = make_table(fahad, "jakaro", {"players": 4})
    mode = mode_of("jakaro", table.options)
    PlayerStanding.objects.update_or_create(user=fahad, defaults={"shown": {mode: [927, True]}})
    seat_humans(table, [fahad])
    for number, level in enumerate(STRENGTHS, start=1):
        seat_add_bot(user=fahad, table_id=table.public_id, number=number, level=level)
    return table, fahad


def test_jakaro_seat_chips_bots_and_the_rating_read_whole_on_a_phone(
    live_site, chromium, majlis, django_user_model
):
    table, fahad = four_seats_of_jakaro(django_user_model)
    assert Match.objects.filter(table=table, status=Match.Status.PLAYING).exists()
    ctx, page = open_as(chromium, live_site, fahad)
    try:
        for width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_site}/majlis/t/{table.public_id}/")
            wait_live(page)
            where = f"{width}x{height}"
            screenshot(page, f"jakaro-seats-ar-{where}.png")
            # Item 5: nothing of any chip is cut, and the page is still one screen.
            assert page.evaluate(CUT) == [], where
            # Item 10's longer bot names stay off the board's marbles and holes: the board
            # names each player as the chips do, less the strength the chips already say.
            assert page.evaluate(NAMES_ON_MARBLES) == [], where
            names = page.evaluate(
                "() => [...document.querySelectorAll('#jakaro svg text.jk-name')]"
                ".map(t => t.textContent)"
            )
            assert len(names) == 4 and not any("(" in name for name in names), names
            # ...and inside the board: a side quarter's name once ran off its edge.
            assert page.evaluate(NAMES_OFF_BOARD) == [], where
            assert page.evaluate("document.scrollingElement.scrollHeight") <= height, where
            chips = page.locator("#table-live .seats .seat")
            assert chips.count() == 4
            for n in range(4):
                count = page.get_by_test_id(f"seat-count-{n}")
                assert count.is_visible(), (where, n)
                assert re.fullmatch(r"\d+ \w+", count.inner_text().translate(WESTERN)), n
            # Item 10: each bot by its strength, no quotation marks.
            strip = page.locator("#table-live .seats").inner_text()
            for n, word in enumerate(STRENGTHS.values(), start=1):
                assert f"({word})" in chips.nth(n).inner_text(), (where, n, strip)
            assert "«" not in strip and "»" not in strip, strip
            # Item 6: «٩٢٧? · ١٠٠٪» as drawn: each number's digits left to right, "?" and "٪"
            # after theirs, and the rating first in the reading direction (on the right).
            chars = page.evaluate(CHARS, 0)
            text = "".join(c for c, _x in chars).translate(WESTERN)
            assert text == "927?·100٪", chars
            x = {c.translate(WESTERN) + str(i): pos for i, (c, pos) in enumerate(chars)}
            rating = [x["90"], x["21"], x["72"], x["?3"]]
            rep = [x["15"], x["06"], x["07"], x["٪8"]]
            assert rating == sorted(rating) and rep == sorted(rep), chars
            assert min(rating) > max(rep), chars  # Arabic reads right to left
    finally:
        ctx.close()


def test_bots_say_their_strength_in_english_too_and_in_the_lobby(
    live_site, chromium, majlis, django_user_model
):
    """A table waiting for its last player: its seats and the lobby's row name each bot by its
    strength, unquoted."""
    huda = player(django_user_model, "huda_en", "Huda", lang="en")
    table = make_table(huda, "jakaro", {"players": 4})
    for number, level in enumerate(STRENGTHS, start=1):
        seat_add_bot(user=huda, table_id=table.public_id, number=number, level=level)
    ctx, page = open_as(chromium, live_site, huda, lang="en")
    try:
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"{live_site}/majlis/t/{table.public_id}/")
        wait_live(page)
        seats = page.locator("#table-live .seats .seat")
        for n, word in enumerate(STRENGTHS, start=1):
            assert f"({word})" in seats.nth(n).inner_text(), n
        assert "«" not in page.locator("#table-live .seats").inner_text()
        page.goto(f"{live_site}/majlis/")
        row = page.locator(".seat-list").first.inner_text()
        assert "(easy)" in row and "(normal)" in row and "(strong)" in row, row
        assert "«" not in row and "»" not in row, row
    finally:
        ctx.close()


# The play area of each game: what a player looks at and taps during a turn.
PLAY_AREA = {
    "hand": [".hg-felt", "#my-cards"],
    "jakaro": ["[data-testid=board]", ".jk-hand"],
}
# The boxes of the play area the toast overlaps, and whether a tap at the toast's centre reaches
# the toast (it must go through to what is under it).
TOAST_OVER = """areas => {
  const t = document.getElementById('turn-toast').getBoundingClientRect();
  const over = [];
  for (const css of areas) {
    const r = document.querySelector(css).getBoundingClientRect();
    if (r.width && t.left < r.right && t.right > r.left && t.top < r.bottom && t.bottom > r.top)
      over.push(css);
  }
  const hit = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
  return {over, takes: !!hit && hit.closest('#turn-toast') !== null};
}"""


@pytest.mark.parametrize("game", ["hand", "jakaro"])
def test_your_turn_neither_covers_the_play_area_nor_takes_a_tap(
    live_site, chromium, majlis, django_user_model, game
):
    users = [player(django_user_model, f"{game}_t{i}", f"لاعب {i + 1}") for i in range(2)]
    table = make_table(users[0], game, {"players": 2})
    seat_humans(table, users)
    seen = []
    for user in users:
        ctx, page = open_as(chromium, live_site, user)
        try:
            page.clock.install()  # "a moment" lasts until the test moves the page's clock on
            for width, height in PHONES:
                page.set_viewport_size({"width": width, "height": height})
                page.goto(f"{live_site}/majlis/t/{table.public_id}/")
                wait_live(page)
                if page.locator("#table-live[data-your-turn]").count() == 0:
                    break  # the other player's page: it is not their turn
                toast = page.get_by_test_id("turn-toast")
                assert toast.is_visible()
                screenshot(page, f"your-turn-{game}-ar-{width}x{height}.png")
                got = page.evaluate(TOAST_OVER, PLAY_AREA[game])
                assert got == {"over": [], "takes": False}, (game, width, got)
                seen.append(width)
        finally:
            ctx.close()
    assert seen == [360, 390]  # the page whose turn it is, at both sizes


# The stake line and the first «اجلس هنا»: their boxes, and the screen's height.
BY_THE_SEAT = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {top: r.top, bottom: r.bottom}; };
  return {line: box(document.querySelector('[data-testid=pot]')),
          sit: box(document.querySelector('[data-testid^=sit-]')), vh: innerHeight};
}"""


def test_a_coin_table_says_its_stake_and_prize_by_the_sit_button(
    live_site, chromium, majlis, django_user_model
):
    host = player(django_user_model, "host_c", "المضيف")
    guest = player(django_user_model, "guest_c", "ضيف")
    for user in (host, guest):
        wallet_services.grant_starter(user=user)
    table = make_table(host, "jakaro", {"players": 2}, stake=50)
    seat_humans(table, [host])
    ctx, page = open_as(chromium, live_site, guest)
    try:
        for width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_site}/majlis/t/{table.public_id}/")
            wait_live(page)
            screenshot(page, f"coin-table-sit-ar-{width}x{height}.png")
            line = page.get_by_test_id("pot").inner_text().translate(WESTERN)
            # The stake (50 a seat) and the prize (the pot of 100 less the 10% fee).
            assert "50" in line and "90" in page.get_by_test_id("prize").inner_text().translate(
                WESTERN
            ), line
            got = page.evaluate(BY_THE_SEAT)
            # Right above the seats and their button, both on the first screen.
            assert got["line"]["bottom"] <= got["sit"]["top"], got
            assert got["sit"]["top"] - got["line"]["bottom"] < 80, got
            assert got["sit"]["bottom"] <= got["vh"], got
    finally:
        ctx.close()
