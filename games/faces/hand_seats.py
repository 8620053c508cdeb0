"""The Hand's players round the felt (templates/jinja2/games/views/hand.html): where each seat sits
for the viewer, and what its place shows (name, cards left, opening, presence, partner)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import mark_safe

from games.faces.common import named

# Where each seat sits round the felt, by how many seats after the viewer it plays: the viewer
# at the bottom, and play goes to the right (rules: the next seat is the player on your right),
# so the next seat is on the right of the screen, whatever the page's direction.
PLACES = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}


def seats_round_the_felt(
    view: dict[str, Any], seats: list[dict[str, Any]], you: int | None
) -> list[dict]:
    """The players round the felt: each seat's place, name, backs, opening and presence."""
    totals = view.get("totals") or []
    opened = view.get("opened") or []
    counts = view.get("hand_counts") or []
    opening_points: dict[int, int] = {}
    for seat, points in view.get("openings") or []:
        opening_points.setdefault(seat, points)
    by_number = {s["number"]: s for s in seats}
    players = view.get("players", 0)
    places = PLACES.get(players, ())
    viewer = you if you is not None and you < players else 0  # a watcher sees seat 0's side
    rows = []
    for seat in range(players):
        row = by_number.get(seat, {})
        count = counts[seat] if seat < len(counts) else 0
        name = named(seats, seat)
        rows.append(
            {
                "seat": seat,
                "name": name,
                "initial": name[:1],
                "place": places[(seat - viewer) % players] if places else "top",
                "partner": bool(view.get("partners"))
                and you is not None
                and seat != you
                and seat % 2 == you % 2,
                "bot": row.get("bot", False),
                "you": seat == you,
                "count": count,
                "backs": mark_safe("<i></i>" * min(count, 15)),
                "opened": seat < len(opened) and opened[seat],
                "opening": opening_points.get(seat),
                "turn": view.get("status") == "playing" and view.get("turn") == seat,
                "connected": row.get("connected", True) or row.get("bot", False),
                "bot_playing": row.get("bot_playing", False),
                "away_until": row.get("away_until"),
                # The turn's deadline and the server's time its clocks count against (only on
                # the seat to move or away: games/rendering.py).
                "deadline": row.get("deadline"),
                "now": row.get("now"),
                "left": row.get("left", False),
                "total": totals[seat] if seat < len(totals) else 0,
                "rating": row.get("rating"),
                "reputation": row.get("reputation"),
            }
        )
    return rows
