"""What one action adds to each seat's match statistics (the player's standing keeps them):
marbles brought home, knock-outs made and suffered, cards lost to a Ten's burn. Pure, from the
states before and after the action; a seat with nothing new is left out."""

from __future__ import annotations

from .board import BASE, HOME0
from .engine import State


def tally(before: State, after: State) -> dict[int, dict[str, int]]:
    """Counts added by the action that led from ``before`` to ``after``: ``home`` (a marble
    reached a home slot: counted for the seat that moved it, so a finished partner's moves for
    the team count for the one who made them), ``knock_outs`` (marbles of other seats sent back
    to base by the mover), ``knocked_out`` (the owner of each), ``burned`` (a card burned from
    the seat's hand by the previous player's Ten)."""
    out: dict[int, dict[str, int]] = {}
    if after.ply == before.ply or after.last is None:
        return out  # not a played card (nothing else moves a marble)

    def add(seat: int, key: str) -> None:
        row = out.setdefault(seat, {})
        row[key] = row.get(key, 0) + 1

    mover = after.last[0]
    for i, (was, now) in enumerate(zip(before.marbles, after.marbles, strict=True)):
        owner = i // 4
        if was != BASE and now == BASE and owner != mover:
            add(mover, "knock_outs")
            add(owner, "knocked_out")
        elif was < HOME0 and now >= HOME0:
            add(mover, "home")
    if after.last[2]:
        add((mover + 1) % after.players, "burned")
    return out
