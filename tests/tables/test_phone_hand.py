"""The Hand table on a phone (issue 57, items 4 and 21), in headless Chromium in Arabic at
360×740 and 390×844: with the largest hand a round allows (15 cards: the starter's first turn,
or anyone's after a draw) every card offers a finger a 44 × 44 px square that a tap reaches,
measured as the browser hit-tests it (elementFromPoint over every pixel of the card), not as the
stylesheet says; a tap there selects that card, a drag still reorders, and the page does not
scroll. The cards the page's script draws (a staged meld, the joker's choices) are the server's
card template, cloned: the same HTML as the cards the server draws."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from games.faces.hand import hand_card
from games.models import Match
from games.templatetags.cards import card
from tests.support.shots import screenshot
from tests.tables import test_browser_tables
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_browser_tables import open_as, player, wait_live, wait_seq
from tests.tables.test_hand_table import SQUARE, drag, my_cards, rig

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

majlis = test_browser_tables.majlis  # the same fixture: it stops the matches a test leaves

ROOT = Path(__file__).resolve().parents[2]
PHONES = [(360, 740), (390, 844)]
FINGER = 44  # px: WCAG 2.5.5's target, the project's rule for every tap at the table

# Fifteen cards after a draw (the most a hand holds: 15 dealt to the starter, or 14 and a draw).
FIFTEEN = "AS 2S 3S 4H 5H 6H 7D 8D 9D 10C JC QC KS JK1 JK2"
POSITION = {
    "options": {"players": 2, "variant": "saudi", "table": "easy"},
    "hands": [FIFTEEN, "2C 3C 4C 5C 6C 7C 8C 9C 10D JD QD KD AD 2H"],
    "fire": ["9H"],
    "turn": 0,
    "phase": "play",
    "dealer": 1,
}

# For each card of the hand, the largest square of pixels where a tap reaches it.
HIT_SQUARES = f"""() => [...document.querySelectorAll('#my-cards [data-card]')]
  .filter(el => !el.hidden).map({SQUARE})"""

FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
NO_SCROLL = "() => [document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth]"


def fifteen_cards(django_user_model) -> tuple[Match, object]:
    users = [player(django_user_model, f"phone_h{i}", f"لاعب {i + 1}") for i in range(2)]
    table = make_table(users[0], "hand", {"players": 2, "table": "easy"})
    seat_humans(table, users)
    return Match.objects.get(table=table, status=Match.Status.PLAYING), users[0]


def test_every_card_of_a_full_hand_is_a_finger_wide_target_on_a_phone(
    live_site, chromium, majlis, django_user_model
):
    match, sara = fifteen_cards(django_user_model)
    ctx, page = open_as(chromium, live_site, sara)
    try:
        page.goto(f"{live_site}/majlis/t/{match.table.public_id}/")
        wait_live(page)
        seq = rig(match, POSITION)
        wait_seq(page, seq)
        assert len(my_cards(page)) == 15
        for width, height in [*PHONES, (740, 360)]:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(FRAMES)  # the page has drawn the new size
            where = f"{width}x{height}"
            screenshot(page, f"hand-fifteen-ar-{where}.png")
            scroll = page.evaluate(NO_SCROLL)
            assert scroll[0] <= height and scroll[1] <= width, (where, scroll)
            if width > height:
                continue  # held sideways: the page stays one screen (test_one_screen.py)
            squares = page.evaluate(HIT_SQUARES)
            assert len(squares) == 15
            small = [(s["card"], s["side"]) for s in squares if s["side"] < FINGER]
            assert small == [], (where, small)
            # A tap in each card's square selects that card, and a second tap lets it go.
            cards = page.locator("#my-cards [data-card]")
            for i, square in enumerate(squares):
                card = cards.nth(i)
                card.click(position={"x": square["x"], "y": square["y"]})
                assert card.get_attribute("aria-pressed") == "true", (where, square)
                # Raised, it still leaves every other card its square.
                if i in (0, 14):
                    others = page.evaluate(HIT_SQUARES)
                    assert min(s["side"] for s in others) >= FINGER, (where, square, others)
                card.click(position={"x": square["x"], "y": square["y"]})
                assert card.get_attribute("aria-pressed") == "false", (where, square)
        # A drag still reorders: the last card (the second row's end) to the first place.
        page.set_viewport_size({"width": 360, "height": 740})
        before = my_cards(page)
        cards = page.locator("#my-cards [data-card]")
        drag(page, cards.last, cards.first)
        after = my_cards(page)
        assert after[0] == before[-1] and sorted(after) == sorted(before), (before, after)
    finally:
        ctx.close()


# Cards the script draws, each as (card, the joker's stand-in, tag): a meld being built draws
# spans named by aria-label, the joker's choices buttons named by a screen-reader text.
DRAWN_BY_SCRIPT = [("QD", None, "button"), ("10H", None, "span"), ("JK1", "8D", "span")]
DRAWN_BY_SCRIPT += [("JK2", None, "button"), ("JK2", "AS", "span")]
SAME_NODE = """([code, stands, tag, html]) => {
  const t = document.createElement('template');
  t.innerHTML = html;
  const mine = Sahrat.hand.cardEl(code, stands, tag);
  return [mine.isEqualNode(t.content.firstElementChild), mine.outerHTML];
}"""


def test_a_card_the_script_draws_is_the_one_card_templates(
    live_site, chromium, majlis, django_user_model
):
    """Item 21: static/js/hand_cards.js no longer builds a card of its own. Its cards are clones
    of the card template's (templates/cards/card.html), node for node the server's HTML for the
    same card; and no script names a card's parts to build them."""
    scripts = "".join(p.read_text() for p in (ROOT / "static" / "js").glob("*.js"))
    assert not re.search(r"""["'](pc|pc-r|pc-s|pc-as)["']""", scripts)
    match, sara = fifteen_cards(django_user_model)
    ctx, page = open_as(chromium, live_site, sara)
    try:
        page.goto(f"{live_site}/majlis/t/{match.table.public_id}/")
        wait_live(page)
        seq = rig(match, POSITION)
        wait_seq(page, seq)
        for code, stands, tag in DRAWN_BY_SCRIPT:
            with translation.override("ar"):
                item = hand_card(code, stands, "ar")
                if tag == "span":
                    html = card(item, look="drawn", size="small", spoken="img")
                else:
                    html = card(item, look="drawn", tag="button", spoken="sr")
            same, mine = page.evaluate(SAME_NODE, [code, stands, tag, str(html)])
            assert same, (code, stands, tag, mine, str(html))
    finally:
        ctx.close()
