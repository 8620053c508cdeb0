"""A second, independent reading of the card rules, to check the engine against.

It is written from rules/jakaro.txt and the decisions in docs/rules/jakaro.md only, square by
square (no shared code with games/jakaro/engine.py beyond the State type and the card texts), and
maps every legal action text of the seat to play to the marbles it leaves. It is slow and plain on
purpose: it is the oracle, not the engine.
"""

from __future__ import annotations

import random

from fairness.core import JAKARO_DECK
from games.jakaro.engine import State, sort_hand

HOME = 76  # H0; H3 is 79
Marbles = tuple[int, ...]


def start_of(players: int, seat: int) -> int:
    return 19 * (seat if players == 4 else 2 * seat)


def team_of(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat


def ref(seat: int, mi: int) -> str:
    return f"m{mi % 4}" if mi // 4 == seat else f"{mi // 4}:m{mi % 4}"


def plays_for(players: int, m: Marbles, seat: int) -> int:
    """Whose marbles the seat's cards move: the partner's once its own four are home."""
    if players == 4 and all(p >= HOME for p in m[4 * seat : 4 * seat + 4]):
        return (seat + 2) % 4
    return seat


def protected(players: int, m: Marbles, i: int) -> bool:
    return m[i] == start_of(players, i // 4)


def on_square(m: Marbles, sq: int) -> int | None:
    hits = [i for i, p in enumerate(m) if p == sq and 0 <= p < HOME]
    return hits[0] if hits else None


def forward(players: int, m: Marbles, mi: int, steps: int, goes_home: bool, king: bool):
    """Walk ``steps`` squares; None if the move is not allowed."""
    pos, own = m[mi], mi // 4
    if pos == -1 or (pos >= HOME and not goes_home):
        return None
    path, p = [], pos
    entry = (start_of(players, own) - 1) % 76
    for _ in range(steps):
        if p >= HOME:
            if p == HOME + 3:
                return None  # past the deepest home square
            p += 1
        elif goes_home and p == entry:
            p = HOME
        else:
            p = (p + 1) % 76
        path.append(p)
    out, hit = list(m), []
    for k, p in enumerate(path):
        landing = k == len(path) - 1
        if p >= HOME:
            if any(m[j] == p for j in range(4 * own, 4 * own + 4) if j != mi):
                return None  # no jumping or landing inside home
            continue
        o = on_square(m, p)
        if o is None:
            continue
        if protected(players, m, o):
            return None
        if landing:
            if o // 4 == own:
                return None
            hit.append(o)
        elif king:
            hit.append(o)
    for o in hit:
        out[o] = -1
    out[mi] = path[-1]
    return tuple(out)


def backward(players: int, m: Marbles, mi: int):
    pos = m[mi]
    if not 0 <= pos < HOME:
        return None
    out = list(m)
    for k in range(1, 5):
        o = on_square(m, (pos - k) % 76)
        if o is None:
            continue
        if protected(players, m, o):
            return None
        if k == 4:
            if o // 4 == mi // 4:
                return None
            out[o] = -1
    out[mi] = (pos - 4) % 76
    return tuple(out)


def come_out(players: int, m: Marbles, who: int):
    base = [i for i in range(4 * who, 4 * who + 4) if m[i] == -1]
    if not base:
        return None
    sq = start_of(players, who)
    o, out = on_square(m, sq), list(m)
    if o is not None:
        if o // 4 == who:
            return None
        out[o] = -1
    out[base[0]] = sq
    return tuple(out)


def reference_actions(state: State) -> dict[str, Marbles]:
    """Every legal action text of the seat to play -> the marbles after it."""
    n, m, seat = state.players, state.marbles, state.turn
    who = plays_for(n, m, seat)
    mine = range(4 * who, 4 * who + 4)
    res: dict[str, Marbles] = {}

    def add(text: str, after) -> None:
        if after is not None:
            res[text] = after

    for card in state.hands[seat]:
        r = card[:-1]
        if r in ("A", "K"):
            add(f"out {card}", come_out(n, m, who))
        if r == "A":
            for k in (1, 11):
                for mi in mine:
                    add(f"move {card} {ref(seat, mi)} {k}", forward(n, m, mi, k, True, False))
        steps = {"2": 2, "3": 3, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "Q": 12, "K": 13}
        if r in steps:
            for mi in mine:
                add(f"move {card} {ref(seat, mi)}", forward(n, m, mi, steps[r], True, r == "K"))
        if r == "10" and state.hands[(seat + 1) % n]:
            res[f"burn10 {card}"] = m
        if r == "4":
            for mi in mine:
                add(f"back {card} {ref(seat, mi)}", backward(n, m, mi))
        if r == "5":
            for mi in range(4 * n):
                owner = mi // 4
                if protected(n, m, mi):
                    continue  # not even its owner's Five moves it off its start (decision 4)
                if owner == who:
                    add(f"move {card} {ref(seat, mi)}", forward(n, m, mi, 5, True, False))
                elif 0 <= m[mi] < HOME:
                    home = team_of(n, owner) == team_of(n, seat)
                    add(f"move {card} {ref(seat, mi)}", forward(n, m, mi, 5, home, False))
        if r == "J":
            for a in mine:
                for b in range(4 * n):
                    both_on_track = 0 <= m[a] < HOME and 0 <= m[b] < HOME
                    if b // 4 == who or not both_on_track:
                        continue
                    if protected(n, m, a) or protected(n, m, b):
                        continue
                    out = list(m)
                    out[a], out[b] = m[b], m[a]
                    res[f"swap {card} {ref(seat, a)} {ref(seat, b)}"] = tuple(out)
        if r == "7":
            for a in mine:
                for x in range(1, 7):
                    mid = forward(n, m, a, x, True, False)
                    if mid is None:
                        continue
                    w2 = plays_for(n, mid, seat)  # the last marble home: go on with the partner's
                    for b in range(4 * w2, 4 * w2 + 4):
                        if b != a:
                            text = f"split {card} {ref(seat, a)} {x} {ref(seat, b)} {7 - x}"
                            add(text, forward(n, mid, b, 7 - x, True, False))
    if not res:
        for card in state.hands[seat]:
            res[f"discard {card}"] = m
    return res


def random_position(rnd: random.Random) -> State:
    """A random legal-looking position, biased towards starts, entries, homes and finished seats."""
    n = rnd.choice([2, 4])
    squares = rnd.sample(range(76), 4 * n)
    m: list[int] = []
    for s in range(n):
        slots = rnd.sample(range(4), 4)
        st = start_of(n, s)
        near = [st, (st - 1) % 76, (st - 2) % 76, (st + 1) % 76, (st - 5) % 76, (st + 4) % 76]
        for k in range(4):
            x = rnd.random()
            if x < 0.2:
                m.append(-1)
            elif x < 0.35:
                m.append(HOME + slots[k])
            elif x < 0.5:
                m.append(rnd.choice(near))
            else:
                m.append(squares[4 * s + k])
    if rnd.random() < 0.2:
        s = rnd.randrange(n)
        m[4 * s : 4 * s + 4] = [HOME, HOME + 1, HOME + 2, HOME + 3]
    seen: set = set()
    for i, p in enumerate(m):  # one marble per square (per home square of a colour)
        key = p if p < HOME else (i // 4, p)
        if p != -1 and key in seen:
            m[i] = -1
        elif p != -1:
            seen.add(key)
    deck = list(JAKARO_DECK)
    rnd.shuffle(deck)
    hands = [sort_hand(deck[5 * i : 5 * i + rnd.randint(0, 5)]) for i in range(n)]
    turn = rnd.randrange(n)
    if not hands[turn]:
        hands[turn] = (deck[40],)
    return State(
        players=n,
        marbles=tuple(m),
        hands=tuple(hands),
        deck=(),
        deck_no=1,
        deal_no=3 if n == 4 else 6,
        dealer=(turn - 1) % n,
        turn=turn,
        burn_no=0,
        discard=(),
    )
