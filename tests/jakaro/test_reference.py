"""The engine against an independent reading of the card rules (tests/jakaro/reference.py)."""

from __future__ import annotations

import random

import pytest

from fairness.core import RandomSource
from games.jakaro.engine import apply, effect, legal_actions

from .reference import random_position, reference_actions


@pytest.mark.parametrize("seed", range(4))
def test_legal_actions_and_their_effects_match_the_reference(seed: int) -> None:
    rnd = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(500):
        state = random_position(rnd)
        want = reference_actions(state)
        got = {a: effect(state.marbles, state.players, state.turn, a) for a in legal_actions(state)}
        assert got == want, (state, sorted(set(got) ^ set(want)))
        kinds |= {a.split()[0] for a in want}
    # The sample reaches every kind of action (so the comparison is not vacuous).
    assert kinds == {"out", "move", "back", "split", "swap", "burn10", "discard"}


def test_apply_moves_the_marbles_as_the_reference_says() -> None:
    rnd = random.Random(99)
    rng = RandomSource(bytes(32), "jakaro", "reference")  # for a deal when the hands run out
    for _ in range(300):
        state = random_position(rnd)
        for text, marbles in reference_actions(state).items():
            if text.startswith(("burn10", "discard")):
                continue  # they move no marble
            assert apply(state, state.turn, text, rng).marbles == marbles, text
