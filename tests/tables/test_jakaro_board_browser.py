"""The Jakaro board played through the page in headless Chromium, against a real
Daphne and a real Celery worker (tests/tables/conftest.py, ``live_site``). Each test puts the
match in a scripted position (the scenario format, written to the match's snapshot and broadcast
like any change) and plays it by tapping cards, marbles and squares; Sara plays on a phone in
Arabic, Ali watches the result on a desktop in English. Screenshots go to test-artifacts/."""

from __future__ import annotations

import gzip
import json
import random
import re
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

import games
from fairness.core import JAKARO_DECK
from games import services
from games.faces.common import card_label
from games.jakaro.scenario import build
from games.models import Majlis, Match, Table
from tests.support.console import Console
from tests.support.shots import screenshot
from tests.support.tables import quiet_the_tables
from tests.tables.conftest import LIVE_CLOCKS
from tests.tables.helpers import seat_humans
from tests.tables.test_browser_tables import (
    POLL_MS,
    close_sheet,
    open_as,
    open_sheet,
    player,
    sit,
    wait_live,
    wait_my_turn_or_end,
    wait_seq,
)
from tests.tables.test_jakaro_board import last_deck_by_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
ENGINE = games.get("jakaro")


@pytest.fixture
def majlis():
    """The majlis, and after the test the same clean-up as tests/tables/test_browser_tables.py:
    stop the matches left going, and let Daphne finish the closed pages' disconnects before the
    flush (their seat-row locks would deadlock its TRUNCATE)."""
    majlis = Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})[0]
    yield majlis
    quiet_the_tables()


def set_position(table_id: str, position: dict) -> Match:
    """Put the table's match in a scripted position and tell the pages, as a move would."""
    table = Table.objects.get(public_id=table_id)
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    state, _rng = build(position)
    match.snapshot = ENGINE.to_json(state)
    match.seq += 1
    match.save(update_fields=["snapshot", "seq"])
    services.broadcast(table, match)
    return match


def state_of(match: Match):
    match.refresh_from_db()
    return ENGINE.from_json(match.snapshot)


@pytest.fixture
def pair(live_site, chromium, majlis, django_user_model):
    """Sara (seat 0, phone, Arabic) and Ali (seat 1, desktop, English) at a two-player table."""
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ali = player(django_user_model, "ali", "Ali", lang="en")
    ctx_a, a = open_as(chromium, base, sara)
    ctx_b, b = open_as(chromium, base, ali, "en")
    b.set_viewport_size(DESKTOP)
    for page in (a, b):  # a script error shows in the test's output
        page.on("pageerror", lambda exc: print("page error:", exc))
        page.on("console", lambda msg: print("console:", msg.text))
    # Both seated by the service before their pages open (sitting through the page is
    # tests/tables/test_browser_tables.py's subject): each page opens on the match in play.
    table = services.table_create(user=sara, game="jakaro", options={"players": 2}, majlis=majlis)
    seat_humans(table, [sara, ali])
    # Seated before their pages connect, the first turn was clocked as an away seat's
    # (AWAY_TURN_SECONDS): give it the live site's turn, as sitting from the page does.
    Match.objects.filter(table=table, status=Match.Status.PLAYING).update(
        deadline=timezone.now() + timedelta(seconds=float(LIVE_CLOCKS["TURN_SECONDS_OVERRIDE"]))
    )
    for page, seat in ((a, 0), (b, 1)):
        page.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(page)
        page.wait_for_selector(f"#table-live[data-status='playing'][data-you-seat='{seat}']")
    try:
        yield table.public_id, a, b
    finally:
        ctx_a.close()
        ctx_b.close()


def scripted(table_id: str, pages, position: dict) -> Match:
    match = set_position(table_id, {"players": 2, "turn": 0, **position})
    for page in pages:
        wait_seq(page, match.seq)
    return match


def marble(page, i: int):
    return page.locator(f"#jakaro .jk-marble[data-m='{i}']")


def square(page, n: int):
    return page.locator(f"#jakaro .jk-sq:not(.jk-home)[data-sq='{n}']")


def tap(target) -> None:
    """A finger's tap at the centre of a drawn marble or square: the invisible hit area over it
    (44 px across at least: static/js/jakaro_board.js) takes the tap, and the page works out
    which target it meant. (A plain click() would wait for the drawing itself to be on top.)"""
    box = target.bounding_box()
    assert box, "the target is not on the screen"
    target.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def lit(page) -> set[int]:
    return {
        int(x)
        for x in page.locator("#jakaro .jk-marble.can").evaluate_all(
            "els => els.map(e => e.dataset.m)"
        )
    }


def card(page, text: str):
    return page.locator(f"#jakaro .jk-card[data-card='{text}']")


def wait_pos(page, i: int, pos: int) -> None:
    page.wait_for_selector(f"#jakaro .jk-marble[data-m='{i}'][data-pos='{pos}']")


def shot(page, name: str) -> None:
    screenshot(page, f"jakaro-{name}.png", full_page=True)


def test_card_marble_target_and_one_tap_moves(pair):
    table_id, a, b = pair
    # The Ace: out, or 1 or 11 as two targets.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["AS", "8H", "2C"], 1: ["3C", "4C", "6C"]},
        },
    )
    shot(a, "board-ar")
    screenshot(a.locator("#jakaro .jk-board"), "jakaro-board-only-ar.png")
    shot(b, "board-en")
    card(a, "AS").click()
    assert lit(a) == {0, 1}  # marble 0 moves 1 or 11; marble 1 comes out
    tap(marble(a, 0))
    targets = a.locator("#jakaro .jk-sq.target")
    assert sorted(int(t) for t in targets.evaluate_all("els => els.map(e => e.dataset.sq)")) == [
        6,
        16,
    ]
    shot(a, "ace-targets-ar")
    screenshot(a, "jakaro-phone-ar.png")  # the README's pictures: upright and held sideways
    a.set_viewport_size({"width": 844, "height": 390})
    screenshot(a, "jakaro-landscape-ar.png")
    a.set_viewport_size({"width": 390, "height": 844})
    tap(square(a, 16))
    wait_pos(b, 0, 16)  # Ali sees it
    wait_pos(a, 0, 16)
    assert state_of(match).marbles[0] == 16
    assert "11" in b.get_by_test_id("last-move").inner_text()

    # One move for a card and a marble: the marble's tap plays it.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [16, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["8H", "2C"], 1: ["3C", "4C"]},
        },
    )
    card(a, "8H").click()
    assert lit(a) == {0}
    tap(marble(a, 0))
    wait_pos(b, 0, 24)
    assert state_of(match).marbles[0] == 24


def test_king_seven_jack_ten_and_four_through_the_board(pair):
    table_id, a, b = pair
    # The King knocks out both marbles it passes and lands on; they are marked before the tap
    # that plays it, and Ali sees both go back to base.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [10, "base", "base", "base"], 1: [14, 23, "base", "base"]},
            "hands": {0: ["KS", "3C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "KS").click()
    tap(marble(a, 0))
    ko = a.locator("#jakaro .jk-marble.ko").evaluate_all("els => els.map(e => +e.dataset.m)")
    assert sorted(ko) == [4, 5]
    shot(a, "king-marks-ar")
    a.get_by_test_id("jk-go").click()
    wait_pos(b, 0, 23)
    wait_pos(b, 4, -1)
    wait_pos(b, 5, -1)
    assert state_of(match).marbles[:6] == (23, -1, -1, -1, -1, -1)

    # The Seven split over two marbles, with the preview of both parts before it is sent.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, 30, "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["7D", "3C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "7D").click()
    tap(marble(a, 0))
    split_squares = a.locator("#jakaro .jk-sq.target[data-jk-split]").evaluate_all(
        "els => els.map(e => +e.dataset.sq)"
    )
    assert sorted(split_squares) == [6, 7, 8, 9, 10, 11]
    assert square(a, 12).get_attribute("data-jk-action") == "move 7D m0"  # all seven: one tap
    tap(square(a, 8))  # three steps for marble 0 ...
    assert marble(a, 0).get_attribute("cx") == square(a, 8).get_attribute("cx")  # previewed
    assert (
        "4" in a.get_by_test_id("jk-hint").inner_text()
        or "٤" in a.get_by_test_id("jk-hint").inner_text()
    )
    tap(marble(a, 1))  # ... and the rest (four) for marble 1
    assert marble(a, 1).get_attribute("cy") == square(a, 34).get_attribute("cy")
    shot(a, "seven-preview-ar")
    assert state_of(match).marbles[:2] == (5, 30)  # nothing sent before the confirmation
    a.get_by_test_id("jk-go").click()
    wait_pos(b, 0, 8)
    wait_pos(b, 1, 34)
    assert state_of(match).last[1] == "split 7D m0 3 m1 4"

    # The Jack: my marble, then the other marble; they swap.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, "base", "base", "base"], 1: [50, 60, "base", "base"]},
            "hands": {0: ["JC", "3C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "JC").click()
    tap(marble(a, 0))
    targets = a.locator("#jakaro .jk-marble.target").evaluate_all(
        "els => els.map(e => +e.dataset.m)"
    )
    assert sorted(targets) == [4, 5]
    tap(marble(a, 5))
    wait_pos(b, 0, 60)
    wait_pos(b, 5, 5)
    shot(b, "jack-swapped-en")

    # The Ten's burn names the next player; afterwards both pages show the burned card.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["10D", "3C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "10D").click()
    burn = a.get_by_test_id("jk-burn")
    assert "Ali" in burn.inner_text()
    burn.click()
    after = match.seq + 1
    wait_seq(b, after)
    burned = state_of(match).last[2]
    assert burned in ("3D", "4D")
    label = {"3D": "3♦", "4D": "4♦"}[burned]
    for page in (a, b):
        wait_seq(page, after)
        assert label in page.get_by_test_id("burned").inner_text()
    assert "burned" in b.get_by_test_id("last-move").inner_text()
    shot(b, "ten-burned-en")
    shot(a, "ten-burned-ar")

    # The Four from the start: the short cut, four squares before home.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [0, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["4S", "3C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "4S").click()
    tap(marble(a, 0))
    shortcut = square(a, 72)  # drawn as the short cut, and said so, before it is played
    assert "shortcut" in shortcut.get_attribute("class")
    assert "اختصار" in a.get_by_test_id("jk-hint").inner_text()
    shot(a, "four-shortcut-ar")
    tap(shortcut)
    wait_pos(b, 0, 72)
    assert state_of(match).marbles[0] == 72


def test_reasons_refusal_stuck_and_the_five(pair):
    table_id, a, b = pair
    # The Five: Ali's marble on its own start is protected (the page says so), the one on the
    # track moves five.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [73, "H1", "base", "base"], 1: [38, 50, "base", "base"]},
            "hands": {0: ["5H", "9C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "5H").click()
    assert lit(a) == {5}  # only Ali's marble on 50: mine on 73 would jump over mine in H1
    why = a.get_by_test_id("jk-why").inner_text()
    assert "محمية على مربع بدايتها" in why and "مسدودة داخل البيت" in why
    tap(marble(a, 4))  # tapping a marble that cannot move says why
    assert "محمية" in a.get_by_test_id("jk-hint").inner_text()
    shot(a, "five-reasons-ar")
    tap(marble(a, 5))
    wait_pos(b, 5, 55)
    assert state_of(match).marbles[5] == 55

    # A refused move explains itself and changes nothing: the page's move is altered on its way
    # out (as a stale or tampered page would send it), the server refuses it, the board is put
    # back.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [10, 14, "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["9C", "2C"], 1: ["3D", "4D"]},
        },
    )
    a.evaluate(
        """() => { const b = document.querySelector('#jk-send button[data-action="move 9C m0"]');
                   b.value = 'move 4C m0'; }"""
    )  # a card Sara does not hold
    card(a, "9C").click()
    tap(marble(a, 0))
    error = a.get_by_test_id("table-error")
    error.wait_for()
    assert error.inner_text().strip()
    a.wait_for_selector("#jakaro:not(.pending)")
    assert marble(a, 0).get_attribute("cx") == square(a, 10).get_attribute("cx")
    assert state_of(match).marbles[:2] == (10, 14)
    shot(a, "refused-ar")

    # No legal move: the page says why and offers the discard.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: ["base", "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["2C", "9C"], 1: ["3D", "4D"]},
        },
    )
    stuck = a.get_by_test_id("stuck")
    assert "في القاعدة" in stuck.inner_text()
    card(a, "2C").click()
    a.get_by_test_id("jk-go").click()
    wait_seq(b, match.seq + 1)  # (match.seq is the scripted position's until refreshed)
    assert state_of(match).last[1] == "discard 2C"
    shot(a, "stuck-ar")


def test_the_end_of_the_match(pair):
    table_id, a, b = pair
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: ["H1", "H2", "H3", 73], 1: [50, "base", "base", "base"]},
            "hands": {0: ["3S", "9C"], 1: ["3D", "4D"]},
            "discard": ["QH", "2S"],
        },
    )
    card(a, "3S").click()
    assert lit(a) == {3}
    tap(marble(a, 3))  # into H0: the fourth marble home wins
    for page in (a, b):
        end = page.get_by_test_id("jakaro-end")
        end.wait_for()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert "سارة" in a.get_by_test_id("jakaro-end").inner_text()
    link = b.get_by_test_id("jakaro-verify-link")
    assert link.get_attribute("href") == f"/verify/m/{match.public_id}/"
    assert b.get_by_test_id("jakaro-secret").inner_text().strip() == match.secret
    pile = open_sheet(b, "jk-sheet-moves").get_by_test_id("pile")
    pile.locator("summary").click()
    assert "Q♥" in pile.inner_text() and "3♠" in pile.inner_text()  # the last deck's cards
    close_sheet(b, "jk-sheet-moves")
    assert a.get_by_test_id("ready").is_visible()  # play again, same table
    shot(a, "end-ar")
    shot(b, "end-en")


def test_partners_marbles_after_yours_are_home(live_site, chromium, majlis, django_user_model):
    base = live_site
    sara = player(django_user_model, "sara4", "سارة")
    ctx, a = open_as(chromium, base, sara)
    try:
        table = services.table_create(
            user=sara, game="jakaro", options={"players": 4}, majlis=majlis
        )
        a.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(a)
        sit(a, 0)
        for seat in (1, 2, 3):
            a.get_by_test_id(f"bot-{seat}").click()
            a.wait_for_selector(f".seat[data-seat='{seat}'] .seat-name.bot")
        a.wait_for_selector("#table-live[data-status='playing']")
        match = set_position(
            table.public_id,
            {
                "players": 4,
                "turn": 0,
                "marbles": {0: ["H0", "H1", "H2", "H3"], 2: [40, "base", "base", "base"]},
                "hands": {0: ["3S", "9C"], 1: ["3D"], 2: ["4D"], 3: ["5D"]},
            },
        )
        wait_seq(a, match.seq)
        assert "صرت تحرّك كرات" in a.get_by_test_id("partner-now").inner_text()
        controlled = a.locator("#jakaro .jk-marble.controlled").evaluate_all(
            "els => els.map(e => +e.dataset.m)"
        )
        assert sorted(controlled) == [8, 9, 10, 11]  # the partner's marbles are highlighted
        shot(a, "partner-ar")
        card(a, "3S").click()
        assert lit(a) == {8}  # the partner's marble out of its base
        tap(marble(a, 8))
        a.wait_for_function(
            "s => +document.getElementById('table-live').dataset.seq > s",
            arg=match.seq,
            polling=POLL_MS,
        )
        assert match.actions.filter(seat=0, action="move 3S 2:m0").exists()
    finally:
        ctx.close()


def random_position(rnd: random.Random) -> dict:
    """Two players, marbles anywhere (base, track or home), four cards for Sara."""
    free = list(range(76))
    rnd.shuffle(free)
    marbles = {}
    for seat in (0, 1):
        homes = [f"H{h}" for h in range(4)]
        rnd.shuffle(homes)
        ms = []
        for _k in range(4):
            roll = rnd.random()
            ms.append("base" if roll < 0.25 else homes.pop() if roll < 0.35 else free.pop())
        marbles[seat] = ms
    deck = [c for c in JAKARO_DECK]
    rnd.shuffle(deck)
    return {"marbles": marbles, "hands": {0: sorted(deck[:4]), 1: deck[4:6]}}


def reachable(page) -> set[str]:
    """Every action the board lets Sara reach, found by tapping (with "confirm moves" on, so a
    one-tap move shows its confirmation instead of being sent)."""
    got: set[str] = set()
    bar = page.locator("#jk-bar")

    def take_bar() -> None:
        got.add(bar.get_attribute("data-jk-action"))
        page.get_by_test_id("jk-cancel").click()

    def lit_marbles(cls: str = "can") -> list[int]:
        return page.locator(f"#jakaro .jk-marble.{cls}").evaluate_all(
            "els => els.map(e => +e.dataset.m)"
        )

    cards = page.locator("#jakaro .jk-card:not([disabled])").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    for c in cards:
        card(page, c).click()
        if bar.is_visible():  # a discard
            take_bar()
            continue
        if page.get_by_test_id("jk-burn").is_visible():
            got.add(page.get_by_test_id("jk-burn").get_attribute("data-jk-action"))
        for m in lit_marbles():
            card(page, c).click()
            tap(marble(page, m))
            if bar.is_visible():
                take_bar()
                continue
            targets = page.locator("#jakaro .target")
            got.update(
                targets.evaluate_all(
                    "els => els.filter(e => e.dataset.jkAction).map(e => e.dataset.jkAction)"
                )
            )
            splits = targets.evaluate_all(
                "els => els.filter(e => e.dataset.jkSplit).map(e => e.dataset.jkSplit)"
            )
            for x in splits:  # the first marble's steps
                card(page, c).click()
                tap(marble(page, m))
                tap(page.locator(f"#jakaro .target[data-jk-split='{x}']"))
                for second in lit_marbles("second"):
                    card(page, c).click()
                    tap(marble(page, m))
                    tap(page.locator(f"#jakaro .target[data-jk-split='{x}']"))
                    tap(marble(page, second))
                    take_bar()
    return got


# The same exploration as ``reachable``, tap for tap, run inside the page: each tap a click
# event on the element the player would tap, read back at once (the board answers a tap
# synchronously). Hundreds of Playwright taps made a long Seven position cost half a minute on
# a loaded machine; the taps themselves (hit-testing, visibility) are the other tests' subject,
# and each test below checks this explorer against ``reachable`` on its first position.
EXPLORE = """() => {
  const got = new Set();
  const one = (sel) => document.querySelector(sel);
  const all = (sel) => [...document.querySelectorAll(sel)];
  const visible = (el) => {
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const tap = (el) => {
    if (!el) throw new Error("nothing to tap");
    el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));
  };
  const card = (c) => one(`#jakaro .jk-card[data-card='${c}']`);
  const marble = (m) => one(`#jakaro .jk-marble[data-m='${m}']`);
  const split = (x) => one(`#jakaro .target[data-jk-split='${x}']`);
  const bar = () => one("#jk-bar");
  const takeBar = () => {
    got.add(bar().getAttribute("data-jk-action"));
    tap(one("[data-testid=jk-cancel]"));
  };
  const lit = (cls) => all(`#jakaro .jk-marble.${cls}`).map((e) => +e.dataset.m);
  for (const c of all("#jakaro .jk-card:not([disabled])").map((e) => e.dataset.card)) {
    tap(card(c));
    if (visible(bar())) { takeBar(); continue; }
    const burn = one("[data-testid=jk-burn]");
    if (visible(burn)) got.add(burn.getAttribute("data-jk-action"));
    for (const m of lit("can")) {
      tap(card(c)); tap(marble(m));
      if (visible(bar())) { takeBar(); continue; }
      const targets = all("#jakaro .target");
      for (const t of targets) if (t.dataset.jkAction) got.add(t.dataset.jkAction);
      for (const x of targets.filter((t) => t.dataset.jkSplit).map((t) => t.dataset.jkSplit)) {
        tap(card(c)); tap(marble(m)); tap(split(x));
        for (const second of lit("second")) {
          tap(card(c)); tap(marble(m)); tap(split(x)); tap(marble(second));
          takeBar();
        }
      }
    }
  }
  return [...got];
}"""


def explored(page) -> set[str]:
    return set(page.evaluate(EXPLORE))


def test_the_board_offers_exactly_the_engines_legal_actions(pair):
    table_id, a, b = pair
    a.evaluate("localStorage.setItem('sahrat.jakaro.confirm', '1')")
    rnd = random.Random(12)
    checked = 0
    while checked < 6:
        position = random_position(rnd)
        state, _rng = build({"players": 2, "turn": 0, **position})
        legal = set(ENGINE.legal_actions(state))
        if checked < 5 and len(legal) > 40:
            continue  # keep the tapping short; one long Seven position is enough
        scripted(table_id, (a, b), position)
        assert explored(a) == legal, position
        if checked == 0:
            assert reachable(a) == legal, position  # the same, tapped by Playwright
        checked += 1


AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js"


def test_accessibility_of_the_board_with_axe(live_site, chromium, majlis, django_user_model):
    """axe-core (vendored, tests/vendor/) finds no serious or critical violation on the board
    page, in Arabic on a phone, with a card picked (marbles become buttons)."""
    base = live_site
    sara = player(django_user_model, "sara_a11y", "سارة")
    # The page's CSP forbids injected scripts; the check runs in a context that ignores it.
    context, page = open_as(chromium, base, sara, bypass_csp=True)
    try:
        table = services.table_create(
            user=sara, game="jakaro", options={"players": 2}, majlis=majlis
        )
        page.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(page)
        sit(page, 0)
        page.get_by_test_id("bot-1").click()
        page.wait_for_selector("#table-live[data-status='playing']")
        match = set_position(
            table.public_id,
            {
                "players": 2,
                "turn": 0,
                "marbles": {0: [5, 12, "base", "base"], 1: [50, "base", "base", "base"]},
                "hands": {0: ["AS", "7D", "JC", "KS"], 1: ["3D", "4D"]},
            },
        )
        wait_seq(page, match.seq)
        card(page, "AS").click()
        page.add_script_tag(path=str(AXE))
        result = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"
        )
        assert isinstance(result, list)  # axe ran (a list, possibly of minor findings)
        bad = [v for v in result if v["impact"] in ("serious", "critical")]
        assert not bad, bad
        # Squares and marbles have names a screen reader reads.
        assert marble(page, 0).get_attribute("aria-label") == "كرة زرقاء في الخانة ٥"
        assert square(page, 12).get_attribute("aria-label") == "الخانة ١٢"
    finally:
        context.close()


def test_the_board_pages_own_js_and_css_weigh_under_100_kb_compressed(
    live_site,
    majlis,
    django_user_model,
):
    sara = player(django_user_model, "sara_w", "سارة")
    table = services.table_create(user=sara, game="jakaro", options={"players": 2}, majlis=majlis)
    seat_page = Client()
    seat_page.force_login(sara)
    html = seat_page.get(f"/majlis/t/{table.public_id}/").content.decode()
    # The board's own script comes with the board (the per-game template) once a match shows.
    assets = set(
        re.findall(r'<(?:script|link)[^>]+(?:src|href)="(/static/[^"]+\.(?:js|css))"', html)
    )
    assets.add("/static/js/jakaro.js")
    total = 0
    for url in assets:
        body = urllib.request.urlopen(live_site + url).read()
        assert body, url
        total += len(gzip.compress(body))
    assert any(u.endswith("base.css") for u in assets) and any("table" in u for u in assets)
    assert not re.search(r'(?:src|href)="https?://', html)  # no CDN
    assert total < 100 * 1024, total


def play_by_taps(page, action: str) -> None:
    """Play one legal action by tapping the board as a player would: card, marble, target (or
    the burn button, the second marble of a Seven, the confirmation where the page asks)."""
    data = json.loads(page.locator("#jakaro-data").text_content())
    kind, c = action.split()[:2]
    card(page, c).click()
    bar = page.locator("#jk-bar")
    if kind == "discard":
        page.get_by_test_id("jk-go").click()
        return
    if kind == "burn10":
        page.get_by_test_id("jk-burn").click()
        return
    first = data["targets"][action][0]
    tap(marble(page, first))
    if bar.is_visible():  # a King that knocks marbles out asks first
        assert bar.get_attribute("data-jk-action") == action
        page.get_by_test_id("jk-go").click()
        return
    if kind == "split":
        x = action.split()[3]
        tap(page.locator(f"#jakaro .target[data-jk-split='{x}']"))
        tap(marble(page, data["targets"][action][1]))
        assert bar.get_attribute("data-jk-action") == action
        page.get_by_test_id("jk-go").click()
        return
    target = page.locator("#jakaro .target")
    found = [
        i
        for i, a in enumerate(target.evaluate_all("els => els.map(e => e.dataset.jkAction)"))
        if a == action
    ]
    if found:
        tap(target.nth(found[0]))
    else:  # the marble's tap was the whole move (its only one for this card)
        assert [
            a
            for a in data["legal"]
            if data["targets"].get(a, [None])[0] == first and a.split()[1] == c
        ] == [action]


def test_a_whole_match_against_a_bot_by_tapping_the_board(
    live_site, chromium, majlis, django_user_model
):
    base = live_site
    nora = player(django_user_model, "nora_b", "نورة")
    ctx, page = open_as(chromium, base, nora)
    console = Console(page)  # not one console error, script error or CSP violation on the way
    try:
        table = services.table_create(
            user=nora, game="jakaro", options={"players": 2}, majlis=majlis
        )
        page.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(page)
        sit(page, 0)
        page.get_by_test_id("bot-1").click()
        page.wait_for_selector("#table-live[data-status='playing']")
        match = Match.objects.get(table=table, number=1)
        turns, after = 0, 0
        while True:
            wait_my_turn_or_end(page, after)
            live = page.locator("#table-live")
            if live.get_attribute("data-status") != "playing":
                break
            seq = int(live.get_attribute("data-seq"))
            state = state_of(match)
            assert match.seq == seq
            # The bot's choice for Nora (quicker to the end than a random move), tapped in.
            play_by_taps(page, ENGINE.bot_action(ENGINE.view(state, 0)))
            turns += 1
            after = seq + 1
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and turns > 10
        page.get_by_test_id("jakaro-end").wait_for()
        problems = console.problems()
        assert problems == [], (len(problems), problems[:3])
        # The end screen lists the last deck: every move in order, who made it (Nora or the
        # bot), and the cards it dealt each of them (the match is over: nothing is hidden).
        moves, dealt = last_deck_by_replay(match)
        recap = page.get_by_test_id("jakaro-recap")
        assert recap.is_visible()
        rows = recap.get_by_test_id("recap-move")
        assert rows.evaluate_all("els => els.map(e => e.dataset.action)") == [
            a for _s, a, _b in moves
        ]
        texts = rows.all_inner_texts()
        for (seat, action, _burned), text in zip(moves, texts, strict=True):
            assert ("نورة" if seat == 0 else "لاعب آلي") in text
            assert card_label(action.split()[1]) in text
        hands = recap.get_by_test_id("recap-hand").all_inner_texts()
        assert len(hands) == 2 and "نورة" in hands[0] and "لاعب آلي" in hands[1]
        for seat, cards in enumerate(dealt):
            assert all(card_label(c) in hands[seat] for c in cards)
        shot(page, "bot-match-end-ar")
        screenshot(recap, "jakaro-last-deck-ar.png")
    finally:
        ctx.close()


def test_a_move_shows_pending_at_once_with_300_ms_of_latency(pair):
    table_id, a, b = pair
    # Every frame Sara's page sends waits 300 ms before it leaves (a slow phone network).
    a.evaluate(
        """() => { const send = WebSocket.prototype.send;
                   WebSocket.prototype.send = function (d) {
                     setTimeout(() => send.call(this, d), 300); }; }"""
    )
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["8H", "2C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "8H").click()
    tap(marble(a, 0))
    # At once: the marble is drawn on its target, marked as pending, and the card played says
    # it is being sent.
    assert a.locator("#jakaro.pending .jk-marble.pending[data-m='0']").count() == 1
    sending = card(a, "8H")
    assert "sending" in sending.get_attribute("class")
    assert sending.evaluate("e => getComputedStyle(e, '::after').content") == '"جارٍ الإرسال…"'
    assert marble(a, 0).get_attribute("cx") == square(a, 13).get_attribute("cx")
    wait_pos(a, 0, 13)  # then the server's answer settles it
    a.wait_for_selector("#jakaro:not(.pending)")
    assert state_of(match).marbles[0] == 13


@pytest.mark.parametrize(
    ("cards", "start", "moves"),
    [
        (["2C", "3C", "6C", "9C"], 40, [("2C", 42), ("3C", 45), ("6C", 51), ("9C", 60)]),
        (["QD", "10H", "7S", "KD"], 40, [("QD", 52), ("10H", 62), ("7S", 69), ("KD", 6)]),
    ],
)
def test_every_plain_count_through_the_board_in_english_on_a_desktop(pair, cards, start, moves):
    """Ali (seat 1, colour 2: start 38) plays each card by its count; Sara's page follows."""
    table_id, a, b = pair
    pos = start
    for c, dest in moves:
        scripted(
            table_id,
            (a, b),
            {
                "turn": 1,
                "marbles": {0: [5, "base", "base", "base"], 1: [pos, "H3", "H2", "H1"]},
                "hands": {0: ["3D", "4D"], 1: [c, "5S" if c != "5S" else "5H"]},
            },
        )
        assert b.get_by_test_id("jk-hint").inner_text() == "Tap a card."
        card(b, c).click()
        assert lit(b) == {4}
        tap(marble(b, 4))
        if b.locator("#jakaro .jk-sq.target").count():  # the Seven: all seven is one target
            tap(square(b, dest))
        elif b.locator("#jk-bar").is_visible():  # the King knocks Sara's marble out: asked
            assert marble(b, 0).get_attribute("class").count("ko")
            b.get_by_test_id("jk-go").click()
        wait_pos(a, 4, dest)
        pos = dest
    shot(b, "counts-en")


def test_a_capture_is_tapped_where_the_marble_it_knocks_out_sits(pair):
    table_id, a, b = pair
    # The Ace's 11 lands on Ali's marble: its lit square lies under that marble, and a tap
    # there (on the marble, as a finger would) is the tap on the square.
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, "base", "base", "base"], 1: [16, "base", "base", "base"]},
            "hands": {0: ["AS", "9C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "AS").click()
    tap(marble(a, 0))
    assert "ko" in marble(a, 4).get_attribute("class")  # marked before the tap
    box = marble(a, 4).bounding_box()
    a.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_pos(b, 0, 16)
    wait_pos(b, 4, -1)
    assert state_of(match).last[1] == "move AS m0 11"


def test_moves_animate_along_the_track_unless_reduced_motion_and_the_last_stays_marked(pair):
    table_id, a, b = pair
    record = """() => { window.__moves = [];
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (frames, options) {
          window.__moves.push({m: this.dataset.m, steps: frames.length,
                               ms: typeof options === "number" ? options : options.duration});
          return animate.call(this, frames, options); }; }"""
    a.evaluate(record)
    b.evaluate(record)
    a.emulate_media(reduced_motion="no-preference")  # the test pages reduce motion by default
    b.emulate_media(reduced_motion="reduce")
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [10, "base", "base", "base"], 1: [14, 23, "base", "base"]},
            "hands": {0: ["KS", "3C"], 1: ["3D", "4D"]},
        },
    )
    a.evaluate("window.__moves = []")
    card(a, "KS").click()
    tap(marble(a, 0))
    a.get_by_test_id("jk-go").click()
    for page in (a, b):
        wait_pos(page, 0, 23)
    moves = {m["m"]: m["steps"] for m in a.evaluate("window.__moves")}
    # Sara's King walks its 13 squares; the two marbles it knocks out go back to base; each in
    # 300 ms at most (a quick opponent's next move must not wait for it).
    assert moves["0"] >= 14 and "4" in moves and "5" in moves
    assert max(m["ms"] for m in a.evaluate("window.__moves")) <= 300
    assert b.evaluate("window.__moves") == []  # Ali asked for reduced motion
    for page in (a, b):  # the last move stays marked
        assert "last" in marble(page, 0).get_attribute("class")
    assert state_of(match).marbles[0] == 23


def test_sounds_are_off_until_turned_on(pair):
    table_id, a, b = pair
    listen = """() => { window.__notes = 0;
        const Real = window.AudioContext;
        window.AudioContext = class extends Real {
          createOscillator() { window.__notes += 1; return super.createOscillator(); } }; }"""
    a.evaluate(listen)
    position = {
        "marbles": {0: [5, "base", "base", "base"], 1: [50, "base", "base", "base"]},
        "hands": {0: ["8H", "2C"], 1: ["3D", "4D"]},
    }
    scripted(table_id, (a, b), position)
    assert a.evaluate("window.__notes") == 0  # off by default
    assert not open_sheet(a, "jk-sheet-settings").get_by_test_id("jk-sounds").is_checked()
    a.get_by_test_id("jk-sounds").check()
    close_sheet(a, "jk-sheet-settings")
    scripted(table_id, (a, b), {**position, "marbles": {0: [6, "base", "base", "base"]}})
    assert a.evaluate("window.__notes") >= 2  # a marble moved, and it is Sara's turn
    a.reload()
    wait_live(a)
    assert a.get_by_test_id("jk-sounds").is_checked()  # kept in this browser


def random_position_4(rnd: random.Random, finished: bool) -> dict:
    """Four players; with ``finished`` Sara's four are home, so her cards move her partner's."""
    free = list(range(76))
    rnd.shuffle(free)
    marbles = {}
    for seat in range(4):
        if seat == 0 and finished:
            marbles[0] = ["H0", "H1", "H2", "H3"]
            continue
        homes = [f"H{h}" for h in range(4)]
        rnd.shuffle(homes)
        marbles[seat] = [
            "base" if r < 0.3 else homes.pop() if r < 0.4 else free.pop()
            for r in (rnd.random() for _k in range(4))
        ]
    deck = list(JAKARO_DECK)
    rnd.shuffle(deck)
    hands = {0: sorted(deck[:4]), 1: deck[4:6], 2: deck[6:8], 3: deck[8:10]}
    return {"players": 4, "turn": 0, "marbles": marbles, "hands": hands}


def test_four_players_the_board_offers_exactly_the_legal_actions(
    live_site, chromium, majlis, django_user_model
):
    base = live_site
    sara = player(django_user_model, "sara_r4", "سارة")
    ctx, a = open_as(chromium, base, sara)
    try:
        table = services.table_create(
            user=sara, game="jakaro", options={"players": 4}, majlis=majlis
        )
        a.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(a)
        sit(a, 0)
        for seat in (1, 2, 3):
            a.get_by_test_id(f"bot-{seat}").click()
            a.wait_for_selector(f".seat[data-seat='{seat}'] .seat-name.bot")
        a.wait_for_selector("#table-live[data-status='playing']")
        a.evaluate("localStorage.setItem('sahrat.jakaro.confirm', '1')")
        rnd = random.Random(4)
        checked = 0
        while checked < 5:
            position = random_position_4(rnd, finished=checked % 2 == 1)
            state, _rng = build(position)
            legal = set(ENGINE.legal_actions(state))
            if len(legal) > 40:
                continue
            match = set_position(table.public_id, position)
            wait_seq(a, match.seq)
            assert explored(a) == legal, position
            if checked == 0:
                assert reachable(a) == legal, position  # the same, tapped by Playwright
            checked += 1
    finally:
        ctx.close()


HIT_BOXES = """() => [...document.querySelectorAll('#jakaro .jk-hit')].map(h => {
  const r = h.getBoundingClientRect();
  return {w: r.width, h: r.height, inside: r.left > -1 && r.top > -1
          && r.right < innerWidth + 1 && r.bottom < innerHeight + 1};
})"""


def test_each_lit_target_takes_a_44_px_tap_and_a_tap_between_two_opens_a_chooser(pair):
    """The squares are drawn about 15 px across on a phone: each lit marble and square gets an
    invisible hit area at least 44 px across (its own box is what receives the tap), at every
    phone screen; a tap at a drawn target's centre is that target's; a tap halfway between two
    lit squares asks which one was meant, and the answer plays on as the tap would have."""
    table_id, a, _b = pair
    position = {
        "marbles": {0: [5, 30, "base", "base"], 1: [50, "base", "base", "base"]},
        "hands": {0: ["7D", "3C"], 1: ["3D", "4D"]},
    }
    scripted(table_id, (a,), position)
    for width, height in [(390, 844), (360, 740), (412, 915), (844, 390)]:
        a.set_viewport_size({"width": width, "height": height})
        card(a, "7D").click()
        tappable = a.locator("#jakaro .jk-board [role=button]")  # lit, or saying why not
        lit_hits = a.evaluate(HIT_BOXES)
        assert len(lit_hits) == tappable.count() >= 2  # marbles 0 and 1 at least
        tap(marble(a, 0))
        hits = a.evaluate(HIT_BOXES)
        assert len(hits) == tappable.count()
        assert a.locator("#jakaro .jk-sq.target").count() == 7  # 6 to 12: the split, or all 7
        for box in lit_hits + hits:
            assert box["w"] >= 44 and box["h"] >= 44 and box["inside"], (width, box)
        # Halfway between squares 8 and 9: which one?
        s8, s9 = square(a, 8).bounding_box(), square(a, 9).bounding_box()
        x = (s8["x"] + s8["width"] / 2 + s9["x"] + s9["width"] / 2) / 2
        y = (s8["y"] + s8["height"] / 2 + s9["y"] + s9["height"] / 2) / 2
        a.mouse.click(x, y)
        chooser = a.get_by_test_id("jk-chooser")
        chooser.wait_for()
        options = chooser.locator("button")
        names = options.all_inner_texts()
        assert len(names) == 2 and all(n.startswith("الخانة") for n in names), names
        for b in options.element_handles():
            box = b.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44
            assert box["y"] + box["height"] <= height + 0.5
        chosen = next(
            o for o in options.all() if o.inner_text() == square(a, 8).get_attribute("aria-label")
        )
        chosen.click()
        assert chooser.count() == 0
        assert marble(a, 0).get_attribute("cx") == square(a, 8).get_attribute(
            "cx"
        )  # the split's first part
        assert a.locator("#jakaro .jk-marble.second").count() == 1  # now marble 1 takes the rest
        a.keyboard.press("Escape")
        card(a, "7D").click()  # back to the card's first step for the next screen


def test_a_move_is_played_with_the_keyboard_alone(pair):
    """Tab reaches the cards; Enter picks one; the marbles it can move are then in the tab order
    (buttons with their names), and Enter on one plays it, as a tap would."""
    table_id, a, b = pair
    match = scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [16, "base", "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["8H", "2C"], 1: ["3C", "4C"]},
        },
    )
    a.locator("body").focus()
    for _ in range(60):  # Tab on until the 8 of hearts has the focus
        a.keyboard.press("Tab")
        if a.evaluate("document.activeElement.dataset.card") == "8H":
            break
    assert a.evaluate("document.activeElement.dataset.card") == "8H"
    a.keyboard.press("Enter")
    assert lit(a) == {0}
    mine = marble(a, 0)
    assert mine.get_attribute("role") == "button" and mine.get_attribute("tabindex") == "0"
    assert mine.get_attribute("aria-label")  # named for a screen reader
    for _ in range(60):  # on through the page until the lit marble has it
        a.keyboard.press("Tab")
        if a.evaluate("document.activeElement.dataset.m") == "0":
            break
    assert a.evaluate("document.activeElement.dataset.m") == "0"
    a.keyboard.press("Enter")
    wait_pos(b, 0, 24)
    assert state_of(match).marbles[0] == 24
