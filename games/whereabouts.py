"""Where players are at the tables, for the friends list (social/selectors.py): a read of the
seats and the table pages open (games.models.Presence)."""

from __future__ import annotations

from typing import Any

from games.models import Presence, Seat, Table


def whereabouts(user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Where each of these players is at the tables: ``state`` "playing" (seated in a match
    being played) or "at_table" (seated, waiting, or watching: a table page open), with the
    table's id and game; a private table's id is left out (its link is its invite). Players at
    no table are left out."""
    out: dict[int, dict[str, Any]] = {}
    seats = Seat.objects.filter(user_id__in=user_ids).select_related("table")
    for seat in seats.order_by("-table__status"):  # "playing" before "open"
        table = seat.table
        state = "playing" if table.status == Table.Status.PLAYING else "at_table"
        if seat.user_id not in out or state == "playing":
            out[seat.user_id] = _where(state, table)
    watching = Presence.objects.filter(user_id__in=user_ids, sockets__gt=0).select_related("table")
    for row in watching:
        out.setdefault(row.user_id, _where("at_table", row.table))
    return out


def _where(state: str, table: Table) -> dict[str, Any]:
    return {
        "state": state,
        "game": table.game,
        "table": None if table.private else table.public_id,
    }
