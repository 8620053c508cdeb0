"""Small builders shared by the Jakaro tests: positions are written as in scenario files."""

from __future__ import annotations

from games.jakaro import engine
from games.jakaro.board import label
from games.jakaro.scenario import build


def position(marbles=None, hands=None, players=4, turn=0, **extra):
    """A state and its random source; marbles/hands as {seat: [...]} like a scenario file."""
    pos = {"players": players, "marbles": marbles or {}, "hands": hands or {}, "turn": turn}
    pos.update(extra)
    return build(pos)


def marbles_of(state: engine.State, seat: int) -> list[str]:
    """A seat's four marbles as labels (base, H0..H3, square)."""
    return [label(p) for p in state.marbles[seat * 4 : seat * 4 + 4]]


def refused_code(state: engine.State, seat: int, action: str, rng=None) -> str:
    """The refusal code of an action that must be refused, checking nothing changed."""
    before = engine.to_json(state)
    try:
        engine.apply(state, seat, action, rng)
    except engine.IllegalAction as exc:
        assert engine.to_json(state) == before
        assert exc.message("ar") and exc.message("en")
        return exc.code
    raise AssertionError(f"{action!r} was accepted")
