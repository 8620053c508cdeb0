"""games/jakaro/guide.py: what the board page is told about a seat's legal actions (what each
does to the marbles) and why a card cannot move a marble; computed from the seat's own view."""

from __future__ import annotations

import random

from games.jakaro import engine
from games.jakaro.guide import explain
from tests.jakaro.helpers import position


def random_states(n: int, players: int, seed: int):
    """States met in play: random legal moves from a new match."""
    rnd = random.Random(seed)
    state, rng = position(players=players)
    state = engine.new_match(engine.Options(players), rng)
    out = []
    while len(out) < n:
        if state.turn is None:
            state = engine.new_match(engine.Options(players), rng)
        legal = engine.legal_actions(state)
        out.append(state)
        state = engine.apply(state, state.turn, rnd.choice(legal), rng)
    return out


def test_after_is_what_the_engine_does_and_every_card_marble_is_used_or_explained():
    for players in (2, 4):
        for state in random_states(150, players, seed=players):
            seat = state.turn
            view = engine.view(state, seat)
            got = explain(view)
            moving = [a for a in view["legal"] if a.split()[0] not in ("burn10", "discard")]
            assert set(got["after"]) == set(moving)
            for action in moving:
                assert tuple(got["after"][action]) == engine.effect(
                    state.marbles, players, seat, action
                )
            who = view["controls"]
            for card in view["hand"]:
                reasons = got["why"][card]
                about = {
                    i
                    for a in moving
                    if a.split()[1] == card
                    for i in got["targets"][a] + _refs(a, seat)
                }
                for mi in range(who * 4, who * 4 + 4):
                    ref = f"m{mi & 3}" if mi >> 2 == seat else f"{mi >> 2}:m{mi & 3}"
                    base_out = state.marbles[mi] == -1 and any(a == f"out {card}" for a in moving)
                    # Each of the marbles the seat moves is either offered or explained.
                    assert (mi in about or base_out) != (ref in reasons), (card, ref, view)


def _refs(action: str, seat: int) -> list[int]:
    out = []
    for token in action.split()[2:]:
        owner, _sep, m = token.rpartition(":")
        if m.startswith("m"):
            out.append((int(owner) if owner else seat) * 4 + int(m[1:]))
    return out


def test_the_reasons_a_card_cannot_move_a_marble():
    state, _rng = position(
        marbles={0: [73, "H1", "base", 30], 1: [19, 33, "base", "base"]},
        hands={0: ["5H", "JC", "3S", "KS"], 1: ["2C"], 2: ["3C"], 3: ["4D"]},
    )
    why = explain(engine.view(state, 0))["why"]
    assert why["5H"]["1:m0"] == "marble_protected"  # on its own start
    assert why["5H"]["m0"] == "home_blocked"  # 73 + 5 jumps over H1
    assert why["5H"]["m2"] == "marble_in_base"
    assert why["3S"]["m1"] == "overshoot_home"  # H1 + 3
    assert why["JC"]["m1"] == "marble_home"
    assert "m0" not in why["JC"]  # the Jack can swap it (with seat 1's marble on 33)
    assert why["KS"]["m0"] == "overshoot_home"  # 73 + 13
    assert "m3" not in why["KS"] and "m2" not in why["KS"]  # 30 + 13; and the King's out
    # Not seat 0's turn: nothing to explain, and a spectator never gets any.
    assert explain(engine.view(state, 1)) == {"after": {}, "targets": {}, "why": {}}
    assert explain(engine.spectator_view(state))["why"] == {}


def test_a_jack_with_nothing_to_swap_and_a_seven_with_no_second_marble():
    state, _rng = position(
        marbles={0: [10, "base", "base", "base"], 1: [19, "base", "base", "base"]},
        hands={0: ["JC", "7D"], 1: ["2C"], 2: ["3C"], 3: ["4D"]},
    )
    why = explain(engine.view(state, 0))["why"]
    assert why["JC"]["m0"] == "no_swap_target"  # the only other marble is on its own start
    # 10 + 7 = 17 stops before the protected marble on 19, so the Seven moves it.
    assert "m0" not in why["7D"]
    state, _rng = position(
        marbles={0: [15, "base", "base", "base"], 1: [19, "base", "base", "base"]},
        hands={0: ["7D"], 1: ["2C"], 2: ["3C"], 3: ["4D"]},
    )
    why = explain(engine.view(state, 0))["why"]
    # Seven steps would pass the marble protected on 19; three would fit, but there is no
    # second marble to take the other four.
    assert why["7D"]["m0"] == "no_split_partner"
