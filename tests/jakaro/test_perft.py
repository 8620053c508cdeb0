"""Perft-style counts: legal actions at depth 1 and 2 from the fixed positions of perft.json.

Depth 2 = the sum, over each depth-1 action, of the number of legal actions of the seat to play
next. The file's first eight positions were counted by hand below, independently of the engine;
the others come from fixed random games (tests/jakaro/make_perft.py) and guard against changes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.jakaro.engine import apply, legal_actions
from games.jakaro.scenario import build

ROWS = json.loads((Path(__file__).parent / "perft.json").read_text(encoding="utf-8"))


def perft(pos: dict) -> tuple[int, int]:
    state, rng = build(pos)
    first = legal_actions(state)
    return len(first), sum(len(legal_actions(apply(state, state.turn, a, rng))) for a in first)


def test_the_file_has_enough_positions() -> None:
    assert len(ROWS) >= 15
    assert {r["players"] for r in ROWS} == {2, 4}


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_perft_counts(row: dict) -> None:
    assert perft(row) == (row["depth1"], row["depth2"])


# Counted by hand (name -> depth 1, depth 2, and why).
BY_HAND = {
    # Only "out AS" and "out KH"; then seat 1 (all in base, Five cannot touch seat 0's marble on
    # its own start, the Jack has no marble of its own to swap) can only burn one of 5 cards.
    "opening, only the Ace and King can play": (2, 2 * 5),
    # 2, 3, 5 (own marble only: nothing else on the track), 6 forward and the Four back to 1;
    # seat 1 has nothing out and no Ace/King, so 5 burns after each.
    "one marble out, five plain cards": (5, 5 * 5),
    # Two single Sevens + 2 orders x 6 cuts (10..17 and 30..37 never meet); then seat 1's Ace
    # can only bring a marble out (19 stays free).
    "a Seven with two free marbles": (2 + 12, 14 * 1),
    # Mine on 10 and 20 with seat 1's 25 and seat 2's 40 (seat 1's 19 is protected): 4 swaps.
    # Then seat 1's King (no coming out: its start is taken): swap 10<->25 leaves it 1 move (the
    # marble on 10 would pass 19), each other swap leaves 2.
    "a Jack among protected marbles": (4, 1 + 2 + 2 + 2),
    # King and Queen from 10 both pass 19 (protected); only "out KS". Then seat 1's 2 from 19.
    "the King and Queen cannot pass a marble on its start": (1, 1),
    # Five: own 10 -> 15 and seat 1's 50 -> 55 (its 38 is protected); then seat 1's Nine moves
    # either of its two marbles (its owner may leave its start): 2 + 2.
    "two players, a Five": (2, 2 + 2),
    # 2: 74 -> H0, H1 -> H3. 3 lands on H1, 5 jumps H1, 6 overshoots, H1 + 3/5/6 overshoot.
    # Then seat 1, all in base with a 2, burns it.
    "home: exact counts, no jumping": (2, 2),
    # The partner's last marble 35 -> H0 wins; nobody plays after.
    "the winning move": (1, 0),
}


@pytest.mark.parametrize("name", list(BY_HAND))
def test_hand_counted_positions(name: str) -> None:
    row = next(r for r in ROWS if r["name"] == name)
    assert perft(row) == BY_HAND[name]
    assert (row["depth1"], row["depth2"]) == BY_HAND[name]


def test_hand_listed_actions() -> None:
    row = next(r for r in ROWS if r["name"] == "a Jack among protected marbles")
    state, _ = build(row)
    assert legal_actions(state) == [
        "swap JC m0 1:m1",
        "swap JC m0 2:m0",
        "swap JC m1 1:m1",
        "swap JC m1 2:m0",
    ]
    row = next(r for r in ROWS if r["name"] == "one marble out, five plain cards")
    state, _ = build(row)
    assert legal_actions(state) == [
        "move 2S m0",
        "move 3S m0",
        "back 4S m0",
        "move 5S m0",
        "move 6S m0",
    ]
