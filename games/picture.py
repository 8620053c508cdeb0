"""The picture of a table at one change: what every viewer of that change shares, and the facts
only the server reads to turn it into one viewer's state (games/viewers.py).

It is made once per change where the change happens (selectors.picture_and_shown), travels in
the table's "changed" event as plain data (``to_wire``: lists, dicts, text, numbers, msgpack's
fare), and is made again once per change in each process that receives it (``received``),
whose sockets all hold the same object. Holds no hand and no secret before its reveal: the
event goes to every process, and the hands stay in the snapshot (games/snapshots.py).

Every part of it is read-only: the parts as sent (``table``, ``match``, ``shown``, a chat
line's ``line``) are shared by every socket of the process and are copied, never changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cachetools import FIFOCache


@dataclass(frozen=True, slots=True)
class SeatRow:
    """What the server knows of a seat and never sends: who sits there, and their team."""

    user_id: int | None
    team: int | None  # the index of the seat's team when it has a partner, else None


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat line: as a viewer is sent it (``line``: id, name, text, team, watchers, at), and
    what decides who is sent it."""

    line: dict[str, Any]
    team: int | None  # the team whose chat it is; None for the table's or the watchers' chat
    user_id: int  # its writer: hidden from whoever blocked or muted them
    watchers: bool  # the watchers' chat (read by the players only between rounds)

    @property
    def order(self) -> tuple[str, int]:
        """Oldest first: by time, then by id."""
        return self.line["at"], self.line["id"]

    def to_wire(self) -> dict[str, Any]:
        return {"line": self.line, "team": self.team, "user": self.user_id}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> ChatLine:
        line = data["line"]
        return cls(line, data["team"], data["user"], bool(line["watchers"]))


@dataclass(frozen=True, slots=True)
class SnapshotRef:
    """Where the match state the views are made from waits in Redis (games/snapshots.py)."""

    game: str
    match: str
    seq: int


@dataclass(frozen=True, slots=True)
class TablePicture:
    """The table at one change, as every viewer shares it (module docstring)."""

    # As sent to every viewer (docs/protocol.md's state frame): the table with its seats, the
    # current match, and the match shown between matches (None while none is).
    table: dict[str, Any]
    match: dict[str, Any]
    shown: dict[str, Any] | None
    # For the server only.
    seats: tuple[SeatRow, ...]  # in seat order
    # Who sat where in the match shown between matches (the players have moved one seat since:
    # the deal moves on); None when the seats are still as it ended.
    shown_users: tuple[int | None, ...] | None
    left_users: frozenset[int]  # who gave up a seat in the match or the one shown
    chat: tuple[ChatLine, ...]  # the last lines of every chat of the table, each team's too
    snapshot: SnapshotRef | None  # None before the match shown has a state
    # When the reading began: of two pictures of one seq, the later read is the newer.
    read_at: float

    @property
    def change(self) -> tuple[str, str, int, float]:
        """What names this change: the table, its match, seq and when it was read."""
        return self.table["id"], self.match["id"], self.match["seq"], self.read_at

    def seat_of(self, user_id: int | None) -> int | None:
        """``user_id``'s seat number, or None for a watcher."""
        if user_id is None:
            return None
        for number, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return number
        return None

    def view_seat_of(self, user_id: int | None) -> int | None:
        """The seat whose view ``user_id`` is shown: theirs in the match on the table, which
        between matches is the one just played, where they may have sat one seat on (None:
        they did not play it, and see it as a watcher)."""
        if self.shown_users is None:
            return self.seat_of(user_id)
        if user_id is None or user_id not in self.shown_users:
            return None
        return self.shown_users.index(user_id)

    def to_wire(self) -> dict[str, Any]:
        """Plain data for the channel layer (``from_wire`` makes the picture again)."""
        snap = self.snapshot
        return {
            "table": self.table,
            "match": self.match,
            "shown": self.shown,
            "seats": [{"user": s.user_id, "team": s.team} for s in self.seats],
            "shown_users": None if self.shown_users is None else list(self.shown_users),
            "left_users": sorted(self.left_users),
            "chat": [line.to_wire() for line in self.chat],
            "snapshot": None
            if snap is None
            else {"game": snap.game, "match": snap.match, "seq": snap.seq},
            "read_at": self.read_at,
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> TablePicture:
        snap = data["snapshot"]
        shown_users = data["shown_users"]
        return cls(
            table=data["table"],
            match=data["match"],
            shown=data["shown"],
            seats=tuple(SeatRow(s["user"], s["team"]) for s in data["seats"]),
            shown_users=None if shown_users is None else tuple(shown_users),
            left_users=frozenset(data["left_users"]),
            chat=tuple(ChatLine.from_wire(line) for line in data["chat"]),
            snapshot=None
            if snap is None
            else SnapshotRef(snap["game"], snap["match"], snap["seq"]),
            read_at=float(data["read_at"]),
        )


# The pictures this process made from the events it received, by their change. The one rule:
# the oldest is dropped once PICTURES_KEPT are held. A change reaches all its sockets within a
# moment of its arrival, so an entry that old is never asked for again (and would only be made
# again). About as many as games/frames.py keeps drawn.
PICTURES_KEPT = 4096
_received: FIFOCache[tuple[str, str, int, float], TablePicture] = FIFOCache(maxsize=PICTURES_KEPT)


def received(wire: dict[str, Any]) -> TablePicture:
    """The picture a "table changed" event carries (``wire``, as ``to_wire`` made it), made
    once per change in this process and shared by every socket that asks."""
    match = wire["match"]
    key = (wire["table"]["id"], match["id"], match["seq"], float(wire["read_at"]))
    picture = _received.get(key)
    if picture is None:
        picture = _received[key] = TablePicture.from_wire(wire)
    return picture
