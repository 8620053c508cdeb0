"""Reads for the live tables: what a page or a socket shows one person (DESIGN.md, selectors).

``table_state`` is the one picture of a table for one viewer: the table and its seats, the
current match (its commitment always; its secret only once revealed), the game's view for the
viewer's seat (or the spectator view, which holds no hand) and the chat the viewer may read. The
socket sends it as JSON, the page renders it as HTML: one view, two renderings.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import ChatMessage, Match, Seat, Table
from games.services import current_match, game_of, load_state, team_of

CHAT_SHOWN = 30


def seat_of(table: Table, user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return table.seats.filter(user=user).first()


def can_watch(table: Table, user: Any, invited: bool = False) -> bool:
    """Public tables are open to every signed-in player; a private one to its seats and to
    whoever holds its invite link."""
    if not table.private or invited:
        return True
    return seat_of(table, user) is not None or (user is not None and user.pk == table.created_by_id)


def _seat_row(seat: Seat) -> dict[str, Any]:
    name = None
    if seat.user_id is not None:
        name = seat.user.display_name or seat.user.username
    return {
        "number": seat.number,
        "name": name,
        "bot": seat.is_bot,
        "bot_playing": seat.bot_playing,
        "left": seat.left,
        "connected": seat.connected > 0 or seat.is_bot,
        "away_since": seat.away_since.isoformat() if seat.away_since else None,
        "ready": seat.ready,
    }


def match_public(match: Match) -> dict[str, Any]:
    """What anyone may know of a match: never its secret before the reveal."""
    return {
        "id": match.public_id,
        "number": match.number,
        "status": match.status,
        "commitment": match.commitment,
        "secret": match.secret if match.revealed else None,
        "seq": match.seq,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "seeds": [
            {"seat": s.seat, "seed": s.seed, "at": s.at.isoformat()}
            for s in match.seeds.order_by("seat")
        ],
        "outcome": match.outcome,
    }


def table_state(table: Table, user: Any) -> dict[str, Any]:
    """The table as ``user`` may see it (see the module docstring)."""
    seats = list(table.seats.select_related("user").order_by("number"))
    mine = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    match = current_match(table)
    shown = match
    if match.status == Match.Status.WAITING and match.number > 1:
        # Between matches the last one's result stays on the table until the next one starts.
        shown = table.matches.get(number=match.number - 1)
    view = None
    if shown.snapshot:
        engine = game_of(shown)
        state = load_state(shown)
        if mine is not None:
            view = engine.view(state, mine.number)
        else:
            view = engine.spectator_view(state)
    team = None
    if mine is not None:
        engine = game_of(table)
        team = team_of(engine, engine.parse_options(table.options), mine.number)
    chat = ChatMessage.objects.filter(table=table, hidden=False).select_related("user")
    shown_to_me = Q(team__isnull=True) | Q(team=team) if team is not None else Q(team__isnull=True)
    chat = chat.filter(shown_to_me)
    lines = list(chat.order_by("-at")[:CHAT_SHOWN])[::-1]
    return {
        "table": {
            "id": table.public_id,
            "game": table.game,
            "options": table.options,
            "private": table.private,
            "stake": table.stake,
            "turn_seconds": table.turn_seconds,
            "status": table.status,
            "creator": table.created_by_id == getattr(user, "pk", None),
            "seats": [_seat_row(s) for s in seats],
        },
        "you": {"seat": mine.number if mine else None},
        "match": match_public(match),
        "shown": match_public(shown) if shown.pk != match.pk else None,
        "view": view,
        "chat": [
            {
                "name": line.user.display_name or line.user.username,
                "text": line.text,
                "team": line.team is not None,
                "at": line.at.isoformat(),
            }
            for line in lines
        ],
        "now": timezone.now().isoformat(),
    }


def open_tables() -> list[Table]:
    """The lobby's list: public tables not closed, newest first."""
    return list(
        Table.objects.filter(private=False)
        .exclude(status=Table.Status.CLOSED)
        .select_related("created_by")
        .prefetch_related("seats__user")
        .order_by("-created_at")[:100]
    )
