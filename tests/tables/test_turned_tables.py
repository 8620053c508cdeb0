"""Every seat sees its own seat at the bottom, and the same table (issue 58, "What must show").

The table is drawn once for everyone, from seat 0's side (games/frames.py); each page turns it
for its own seat (static/js/table_kit.js turnTable, hand.js turnFelt, jakaro.js turnBoard). Per
game, four people sit (one page each, in its own browser context, Arabic, 390×844) and one
person watches; each page is measured as drawn (getBoundingClientRect, getScreenCTM):

- Hand: the page's own player is at the bottom of the felt (the lowest of the four), the next
  seat in play order on the right, the partner marked across, the viewer's melds first;
- Jakaro: the page's own colour's quarter is at the bottom (its plate the lowest of the four,
  its start square at the bottom middle of the board), every name upright and by its own base,
  every marble on the square (or in the base) its data-pos says, the quarters marked
  you / partner / ours / theirs;
- the watcher sees seat 0's side, nobody marked "you";
- the shared facts (each seat's cards left, the melds, the piles; each marble's square) are the
  same on every page and are the match's own;

first as opened, then after moves, after one seat's socket is closed by the server (its page
comes back by itself, to a move made while it was away), and after a second watcher joins."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connections

import games
from games import selectors
from games.models import Match
from realtime import groups
from tests.support.shots import screenshot
from tests.tables import test_browser_tables
from tests.tables.helpers import advance_until, first_moves, make_table, seat_humans
from tests.tables.test_browser_tables import POLL_MS, open_as, player, wait_live
from tests.tables.test_hand_table import rig

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

majlis = test_browser_tables.majlis  # the same fixture: it stops the matches a test leaves

SEATS = 4
# The Hand's places round the felt by seats after the viewer (games/faces/hand_seats.py).
PLACES = ("bottom", "right", "top", "left")

# Four partners' seats mid-round, so the felt shows something to compare: every seat a different
# number of cards, melds of three owners (not seat 0, so each viewer's own come first in its own
# order), seat 0 to draw.
HAND_OPTIONS = {"players": 4, "partners": True, "variant": "plain", "table": "easy"}
HAND_POSITION = {
    "options": HAND_OPTIONS,
    "hands": [
        "KS KH 9C 10C JK1 9S 7D 4S 2D 3H 5C 8H QD",
        "2S 3S 4C 6C 7C 9D 10D JH",
        "AS AH 3C 5H 6H 7S JD JC KC 2H 4H",
        "8C 9H 10H 5S 6D 8D",
    ],
    "melds": [
        {"owner": 1, "cards": "4D 5D 6D"},
        {"owner": 3, "cards": "QC QH QS"},
        {"owner": 2, "cards": "JS QS KS"},
        {"owner": 1, "cards": "8S JK2=9S 10S"},
    ],
    "fire": ["2C", "KD"],
    "opened": [0, 51, 51, 51],
    "openings": [[1, 51], [3, 51], [2, 51]],
    "turn": 0,
    "phase": "draw",
    "dealer": 3,
}

# The Hand's felt as drawn: each player's place and marks, its box's centre, its cards left;
# the melds in the order shown; the piles.
HAND_SEEN = """() => {
  const live = document.getElementById('table-live');
  const mid = (e) => { const r = e.getBoundingClientRect();
                       return {x: r.left + r.width / 2, y: r.top + r.height / 2}; };
  const seats = [...document.querySelectorAll('#hand-game .hp[data-seat]')].map(hp => ({
    seat: +hp.dataset.seat,
    places: [...hp.classList].filter(c => /^hp-(bottom|right|top|left)$/.test(c)),
    you: hp.classList.contains('you'),
    partner: hp.classList.contains('partner'),
    count: hp.querySelector('.backs b')?.textContent ?? null,
    ...mid(hp),
  }));
  const melds = [...document.querySelectorAll('#hand-game .meld-group[data-owner]')].map(g => ({
    owner: +g.dataset.owner,
    you: g.classList.contains('you'),
    fans: [...g.querySelectorAll('.fan .sr-only')].map(s => s.textContent.trim()),
  }));
  return {
    seq: +live.dataset.seq, you: live.dataset.youSeat ?? null,
    view: live.dataset.viewSeat ?? null, yourTurn: live.dataset.yourTurn === '1',
    seats, melds,
    fire: document.querySelector('#hand-game .fire-top [data-card]')?.dataset.card ?? null,
    stock: document.querySelector('#hand-game [data-testid=stock]')?.innerText.trim() ?? null,
  };
}"""

# The Jakaro board as drawn, in board units as the screen shows it (0-400 across and down: the
# <svg> itself is never turned, only the groups inside it): each quarter's colour, marks and
# plate; each colour's start square; each name's place, whether it reads upright, its marks and
# cards; every text of the board that does not read upright; each marble's square and how far it
# is drawn from where its data-pos says (the square, the home square, or its base's plate).
JAKARO_SEEN = """() => {
  const live = document.getElementById('table-live');
  const svg = document.querySelector('#jakaro svg.jk-board');
  const m = svg.getScreenCTM();
  const mid = (e) => { const r = e.getBoundingClientRect();
    return [(r.left + r.width / 2 - m.e) / m.a, (r.top + r.height / 2 - m.f) / m.d]; };
  const colour = (e) => +[...e.classList].find(c => /^c\\d$/.test(c)).slice(1);
  // A text reads upright when its own matrix to the screen is a plain scale (no turn): one not
  // drawn now (the square numbers, off) has none.
  const upright = (t) => { const c = t.getScreenCTM();
    return !c || (Math.abs(c.b) < 1e-6 && Math.abs(c.c) < 1e-6 && c.a > 0 && c.d > 0); };
  const quarters = [...svg.querySelectorAll('.jk-quarter[data-seat]')].map(q => ({
    seat: +q.dataset.seat, colour: colour(q),
    marks: ['you', 'partner', 'ours', 'theirs'].filter(c => q.classList.contains(c)),
    plate: mid(q.querySelector('.jk-plate')),
  }));
  const starts = Object.fromEntries(
    [...svg.querySelectorAll('.jk-start')].map(s => [colour(s), mid(s)]));
  const labels = [...svg.querySelectorAll('.jk-label[data-seat]')].map(l => ({
    seat: +l.dataset.seat, at: mid(l.querySelector('.jk-name')),
    upright: upright(l.querySelector('.jk-name')),
    marks: ['you', 'partner'].filter(c => l.classList.contains(c)),
    cards: l.querySelector('.jk-backs').getAttribute('aria-label'),
  }));
  const drawn = [...svg.querySelectorAll('text')].filter(t => t.getScreenCTM());
  const tilted = drawn.filter(t => !upright(t))
    .map(t => `${t.getAttribute('class') || ''} «${t.textContent}»`);
  const marbles = [...svg.querySelectorAll('.jk-marble')].map(e => {
    const seat = +e.dataset.seat, pos = +e.dataset.pos;
    const where = pos >= 76
      ? svg.querySelector(`.jk-home[data-seat="${seat}"][data-sq="${pos}"]`)
      : pos >= 0 ? svg.querySelector(`.jk-sq:not(.jk-home)[data-sq="${pos}"]`)
      : svg.querySelector(`.jk-quarter[data-seat="${seat}"] .jk-plate`);
    const [a, b] = [mid(e), mid(where)];
    return {m: +e.dataset.m, seat, pos, off: Math.hypot(a[0] - b[0], a[1] - b[1])};
  });
  return {
    seq: +live.dataset.seq, you: live.dataset.youSeat ?? null,
    view: live.dataset.viewSeat ?? null, yourTurn: live.dataset.yourTurn === '1',
    seatYou: [...live.querySelectorAll('.seats .seat.you')].map(s => +s.dataset.seat),
    quarters, starts, labels, tilted, texts: drawn.length, marbles,
    deck: document.querySelector('#jakaro [data-testid=deck-info]')?.innerText.trim() ?? null,
  };
}"""

WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")


# ------------------------------------------------------------------------- what each page shows


def check_hand(seen: dict, seat: int | None) -> None:
    """The felt turned for ``seat`` (None: a watcher, who sees seat 0's side)."""
    viewer = 0 if seat is None else seat
    where = f"hand, {'watcher' if seat is None else f'seat {seat}'}"
    assert seen["you"] == (None if seat is None else str(seat)), (where, seen["you"])
    by_seat = {s["seat"]: s for s in seen["seats"]}
    assert sorted(by_seat) == list(range(SEATS)), (where, seen["seats"])
    for n, s in by_seat.items():
        assert s["places"] == [f"hp-{PLACES[(n - viewer) % SEATS]}"], (where, n, s)
        assert s["you"] == (n == seat), (where, n, s)
        partner = seat is not None and n == (seat + 2) % SEATS
        assert s["partner"] == partner, (where, n, s)
    # On the screen: the viewer's own player the lowest, the next in play on the right (the
    # rules: play goes to the right, in either language), across at the top, the last on the left.
    own, nxt, across, last = (by_seat[(viewer + k) % SEATS] for k in range(SEATS))
    assert own["y"] == max(s["y"] for s in by_seat.values()), (where, seen["seats"])
    assert across["y"] == min(s["y"] for s in by_seat.values()), (where, seen["seats"])
    assert nxt["x"] == max(s["x"] for s in by_seat.values()), (where, seen["seats"])
    assert last["x"] == min(s["x"] for s in by_seat.values()), (where, seen["seats"])
    # The viewer's melds first, then in play order from the viewer.
    owners = [g["owner"] for g in seen["melds"]]
    assert owners == sorted(owners, key=lambda o: (o - viewer) % SEATS), (where, owners)
    assert [g["you"] for g in seen["melds"]] == [o == seat for o in owners], (where, owners)


def check_jakaro(seen: dict, seat: int | None) -> None:
    """The board turned for ``seat`` (None: a watcher, who sees seat 0's side). Four players:
    a seat's colour is its number, partners sit across (docs/rules)."""
    viewer = 0 if seat is None else seat
    where = f"jakaro, {'watcher' if seat is None else f'seat {seat}'}"
    assert seen["you"] == (None if seat is None else str(seat)), (where, seen["you"])
    quarters = {q["seat"]: q for q in seen["quarters"]}
    assert sorted(quarters) == list(range(SEATS)), (where, seen["quarters"])
    own = quarters[viewer]
    assert own["colour"] == viewer, (where, own)
    # The own quarter's plate is the lowest of the four (by a cell at least: the quarter to its
    # left has its plate three cells higher).
    others = [q["plate"][1] for q in quarters.values() if q is not own]
    assert own["plate"][1] > max(others) + 20, (where, seen["quarters"])
    # Its start square at the bottom middle: within a cell of the middle, on the last row.
    sx, sy = seen["starts"][str(viewer)]  # a JSON object's keys
    assert abs(sx - 200) <= 20 and sy >= 380, (where, seen["starts"])
    for n, q in quarters.items():
        if seat is None:
            marks = ["theirs"]
        elif n == seat:
            marks = ["you", "ours"]
        elif n % 2 == seat % 2:
            marks = ["partner", "ours"]
        else:
            marks = ["theirs"]
        assert q["marks"] == marks, (where, n, q)
    # Every name upright and by its own base (nearer its own plate than any other), the own one
    # straight above it (games/faces/jakaro_board.py, _label_cell: 2.4 cells).
    labels = {label["seat"]: label for label in seen["labels"]}
    for n, label in labels.items():
        assert label["upright"], (where, n, label)
        dist = {k: _far(label["at"], q["plate"]) for k, q in quarters.items()}
        assert min(dist, key=dist.get) == n and dist[n] < 60, (where, n, dist)
        partner = seat is not None and n != seat and n % 2 == seat % 2
        marks = ["you"] if n == seat else ["partner"] if partner else []
        assert label["marks"] == marks, (where, n, label)
    mine = labels[viewer]["at"]
    assert abs(mine[0] - own["plate"][0]) < 5 and mine[1] < own["plate"][1], (where, mine, own)
    assert seen["tilted"] == [], (where, seen["tilted"])
    # Every marble where its square is drawn: on it (track, home), or in its own base.
    for m in seen["marbles"]:
        assert m["off"] <= (30 if m["pos"] < 0 else 1), (where, m)
    assert seen["seatYou"] == ([] if seat is None else [seat]), (where, seen["seatYou"])


def _far(a: list[float], b: list[float]) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def shared_hand(seen: dict) -> dict:
    """What every page shows alike: each seat's cards left, the melds by owner, the piles."""
    return {
        "counts": {s["seat"]: s["count"] for s in seen["seats"]},
        "melds": sorted((g["owner"], g["fans"]) for g in seen["melds"]),
        "fire": seen["fire"],
        "stock": seen["stock"],
    }


def shared_jakaro(seen: dict) -> dict:
    """What every page shows alike: each marble's square, each seat's cards, the deck."""
    return {
        "marbles": sorted((m["m"], m["seat"], m["pos"]) for m in seen["marbles"]),
        "cards": sorted((label["seat"], label["cards"]) for label in seen["labels"]),
        "deck": seen["deck"],
    }


def truth(match: Match) -> dict:
    """The match's own public facts, from its stored state: each seat's cards left (Hand), each
    marble's square (Jakaro), whose turn it is."""
    engine = games.get(match.game)
    view = engine.view(selectors.load_state(match), 0)
    if match.game == "hand":
        return {"turn": view["turn"], "counts": list(view["hand_counts"])}
    return {"turn": view["turn"], "marbles": [p for ms in view["marbles"] for p in ms]}


GAMES = {
    "hand": (HAND_SEEN, check_hand, shared_hand),
    "jakaro": (JAKARO_SEEN, check_jakaro, shared_jakaro),
}


def check_all(
    pages: list[tuple[Any, int | None]], match: Match, label: str, shots: bool = False
) -> Match:
    """Every page at the match's seq, turned for its own seat, showing the same table, which is
    the match's; the match as it is now. Retried if the match moved on meanwhile (the next deal,
    played by the worker). With ``shots``, a picture of each page (SAHRAT_SCREENSHOTS=1)."""
    js, check, shared = GAMES[match.game]
    for _ in range(5):
        match.refresh_from_db()
        seq = match.seq
        for page, _seat in pages:
            page.wait_for_function(
                "s => +document.getElementById('table-live')?.dataset.seq === s",
                arg=seq,
                polling=POLL_MS,
            )
        seen = [(page.evaluate(js), seat) for page, seat in pages]
        match.refresh_from_db()
        if match.seq == seq and all(s["seq"] == seq for s, _ in seen):
            break
    else:
        raise AssertionError("the match never held still")
    facts = truth(match)
    for s, seat in seen:
        check(s, seat)
        assert s["yourTurn"] == (seat == facts["turn"]), (label, seat, facts["turn"])
    first = shared(seen[0][0])
    for s, seat in seen[1:]:
        assert shared(s) == first, (label, seat, shared(s), first)
    if match.game == "hand":
        counts = [int(first["counts"][n].translate(WESTERN)) for n in range(SEATS)]
        assert counts == facts["counts"], (label, counts, facts)
        assert first["melds"], label  # the rigged melds, at least
    else:
        assert [pos for _m, _s, pos in first["marbles"]] == facts["marbles"], (label, first)
    watchers = 0
    for page, seat in pages if shots else ():
        watchers += seat is None
        name = f"watcher{watchers}" if seat is None else f"seat{seat}"
        screenshot(page, f"turned-{match.game}-{label}-{name}.png")
    return match


# ------------------------------------------------------------------------------- the sockets

# The page counts the closes of its socket it has handled (an init script: before its own).
COUNT_CLOSES = (
    "window.__closes = 0;"
    "document.addEventListener('htmx:wsClose', () => { window.__closes += 1; });"
)
# "Close another page" (docs/protocol.md): the page waits two seconds before it tries again, so
# the move the test makes meanwhile reaches it with its new socket's state (as measured here:
# the page was still away when the move was committed, in both games).
CLOSE_CODE = 4409


def close_sockets_of(user: Any) -> None:
    """The server closes every socket of ``user`` (a ``socket.close`` sent to the player's own
    group, which each of their sockets joins: realtime/consumer.py, socket_close), from a thread
    without Playwright's event loop, where async_to_sync may run."""

    def send() -> None:
        try:
            async_to_sync(get_channel_layer().group_send)(
                groups.USER.name(user.pk), {"type": "socket.close", "code": CLOSE_CODE}
            )
        finally:
            connections.close_all()

    worker = threading.Thread(target=send)
    worker.start()
    worker.join()


def open_table(chromium, base: str, table_id: str, user, init: str = "") -> tuple[Any, Any]:
    ctx, page = open_as(chromium, base, user)
    if init:
        page.add_init_script(init)
    page.goto(f"{base}/majlis/t/{table_id}/")
    wait_live(page)
    return ctx, page


# ---------------------------------------------------------------------------------- the test


@pytest.mark.parametrize("game", ["hand", "jakaro"])
def test_every_seat_sees_its_own_seat_at_the_bottom_and_the_same_table(
    live_site, chromium, majlis, django_user_model, game
):
    base = live_site
    names = ["سارة", "عبدالرحمن", "نورة", "فهد"]
    users = [player(django_user_model, f"{game}_s{i}", names[i]) for i in range(SEATS)]
    options = HAND_OPTIONS if game == "hand" else {"players": SEATS}
    table = make_table(users[0], game, options)
    seat_humans(table, users)
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    if game == "hand":
        rig(match, HAND_POSITION)
    back = 2  # the seat whose socket the server closes
    opened: list[Any] = []
    try:
        pages: list[tuple[Any, int | None]] = []
        for seat, user in enumerate(users):
            # One seat's page counts its socket's closes; one shows the board's square numbers
            # (texts that must read upright too).
            init = COUNT_CLOSES if seat == back else ""
            if game == "jakaro" and seat == 1:
                init = "localStorage.setItem('sahrat.jakaro.numbers', '1');"
            ctx, page = open_table(chromium, base, table.public_id, user, init)
            opened.append(ctx)
            pages.append((page, seat))
        watcher = player(django_user_model, f"{game}_w1", "مشاهد")
        ctx, page = open_table(chromium, base, table.public_id, watcher)
        opened.append(ctx)
        pages.append((page, None))
        match = check_all(pages, match, "opened")

        # Each person makes a move of their own (the others' turns passing meanwhile), and
        # the Jakaro match goes on till marbles are out on the track.
        match = first_moves(match, range(SEATS))
        if game == "jakaro":
            match = advance_until(match, lambda m: out_of_base(m) >= 2)
        match = check_all(pages, match, "moved")

        # The server closes one seat's socket; a move is made while its page is away; the page
        # comes back by itself, with the table as it is now.
        page = pages[back][0]
        close_sockets_of(users[back])
        page.wait_for_function("() => window.__closes > 0", polling=POLL_MS)
        seq = match.seq
        match = advance_until(match, lambda m: m.seq > seq)
        page.wait_for_selector("#table-conn.on")
        page.wait_for_selector("#table-down", state="hidden")
        match = check_all(pages, match, "back")

        # A second watcher joins; every page still shows the same table, each turned its way.
        second = player(django_user_model, f"{game}_w2", "مشاهد ثان")
        ctx, page = open_table(chromium, base, table.public_id, second)
        opened.append(ctx)
        pages.append((page, None))
        check_all(pages, match, "watched", shots=True)
    finally:
        for ctx in opened:
            ctx.close()


def out_of_base(match: Match) -> int:
    """How many marbles are out of their bases."""
    return sum(pos >= 0 for pos in truth(match)["marbles"])
