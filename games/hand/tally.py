"""What one action adds to each seat's match statistics (the player's standing keeps them):
rounds played and won, the sum of round scores, «هاند» rounds, and who opened first. Pure,
from the states before and after the action; a seat with nothing new is left out."""

from __future__ import annotations

from .engine import State


def tally(before: State, after: State) -> dict[int, dict[str, int]]:
    """Counts added by the action that led from ``before`` to ``after``:
    ``rounds`` and ``round_score`` (every seat, when a round ends; the score as the rules count
    it, lower is better), ``rounds_won`` (the seat that went out), ``hands`` (went out with a
    «هاند»), ``opened_first`` (the round's first opening)."""
    out: dict[int, dict[str, int]] = {}

    def add(seat: int, key: str, n: int = 1) -> None:
        row = out.setdefault(seat, {})
        row[key] = row.get(key, 0) + n

    r0, r1 = before.round, after.round
    if r0.number == r1.number and not r0.openings and r1.openings:
        add(r1.openings[0][0], "opened_first")
    if len(after.history) > len(before.history) and r1.result is not None:
        for seat, score in enumerate(after.history[-1]):
            add(seat, "rounds")
            add(seat, "round_score", score)
        if r1.result.out is not None:
            add(r1.result.out, "rounds_won")
            if r1.result.hand:
                add(r1.result.out, "hands")
    return out
