"""Jakaro board geometry: 76 track squares, four starts, four home columns.

Numbering (drawn in docs/rules/jakaro.md): the track squares are 0..75, forward is +1 (mod 76), and
colour c (0..3) has its start square at 19·c. A marble enters its home column from the square
just before its start (19·c − 1). Four players use colours 0, 1, 2, 3 (seat s plays colour s,
partner across is s + 2); two players sit opposite, so seat 0 plays colour 0 and seat 1 colour 2.

A marble's position is one int:

- ``BASE`` (−1): in its base;
- 0..75: on that track square;
- 76..79: in its home column, slot 0 (the first square in) to slot 3 (the deepest).
"""

from __future__ import annotations

TRACK = 76
QUARTER = 19
BASE = -1
HOME0 = 76  # position of home slot 0; slot h is HOME0 + h
HOME_SLOTS = 4
MARBLES = 4  # per seat


def colour(players: int, seat: int) -> int:
    """The colour (quarter of the board) a seat plays: two players sit opposite."""
    return seat if players == 4 else seat * 2


def start_square(players: int, seat: int) -> int:
    """The seat's start square: 19 · colour."""
    return QUARTER * colour(players, seat)


def partner(players: int, seat: int) -> int | None:
    """The partner across the table (four players), or None (two players)."""
    return (seat + 2) % 4 if players == 4 else None


def team(players: int, seat: int) -> int:
    """Team number: seats 0 and 2 are team 0, seats 1 and 3 team 1; two players: team = seat."""
    return seat % 2 if players == 4 else seat


def team_seats(players: int, team_no: int) -> tuple[int, ...]:
    """The seats of a team."""
    return (team_no, team_no + 2) if players == 4 else (team_no,)


def progress(pos: int, start: int) -> int:
    """How far a track square is past a start square (0..75)."""
    return (pos - start) % TRACK


def label(pos: int) -> str:
    """A position as scenario files and docs write it: ``base``, ``H0``..``H3`` or the square."""
    if pos == BASE:
        return "base"
    if pos >= HOME0:
        return f"H{pos - HOME0}"
    return str(pos)


def parse_label(value: object, players: int, seat: int) -> int:
    """Read a position: ``"base"``, ``"H0"``..``"H3"``, a square 0..75, or ``"+N"`` = N past the
    seat's start (handy for writing positions that read the same for any seat)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < TRACK:
            return value
        raise ValueError(f"square {value} is not on the track (0..75)")
    if isinstance(value, str):
        v = value.strip()
        if v.lower() == "base":
            return BASE
        if v[:1] in "Hh" and v[1:].isascii() and v[1:].isdigit() and int(v[1:]) < HOME_SLOTS:
            return HOME0 + int(v[1:])
        if v.startswith("+") and v[1:].isascii() and v[1:].isdigit() and int(v[1:]) < TRACK:
            return (start_square(players, seat) + int(v[1:])) % TRACK
        if v.isascii() and v.isdigit() and int(v) < TRACK:
            return int(v)
    raise ValueError(f"cannot read the position {value!r} (base, H0..H3, 0..75 or +N)")
