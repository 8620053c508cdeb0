"""Table chat: a line posted, lines hidden by staff, and the mark that the chat changed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import ChatMessage, Match, Table
from games.selectors import can_watch, current_match, game_of, load_state, team_of
from games.services import events
from games.services.errors import TableError
from games.services.tables import locked_table
from moderation import rules as moderation
from moderation.errors import ModerationError


def chat_post(
    *, user: Any, table_id: str, text: str, team: bool = False, invite: str = ""
) -> ChatMessage:
    """A line of table chat, of the player's team chat, or (from a watcher) of the watchers'
    chat. At a strict table the team chat is closed while a round is played (open between
    rounds and matches). ``invite``: the private table's invite token the watcher's page was
    opened with (their socket's ``?invite=``), which lets them watch it and so write.

    A line the word filter refuses is refused (ModerationError) and kept for the staff alone
    (hidden, its text empty, what was typed in moderation's TypedLine): committed before the
    refusal is raised, so a report's context holds it."""
    line, refusal = _post(user=user, table_id=table_id, text=text, team=team, invite=invite)
    if refusal is not None:
        raise refusal
    return line


@transaction.atomic
def _post(
    *, user: Any, table_id: str, text: str, team: bool, invite: str
) -> tuple[ChatMessage, ModerationError | None]:
    table = locked_table(table_id)
    text = " ".join(str(text or "").split())
    if not text:
        raise TableError("chat_empty")
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise TableError("chat_too_long")
    seat = table.seats.filter(user=user).first()
    # Without a seat: a watcher, who has no team and writes where they may watch (a private
    # table: its creator, or whoever came with its invite link).
    invited = bool(invite) and invite == table.invite_token
    if seat is None and (team or not can_watch(table, user, invited)):
        raise TableError("not_seated")
    team_no = None
    match = current_match(table)
    if team and seat is not None:
        engine = game_of(table)
        team_no = team_of(engine, engine.parse_options(table.options), seat.number)
        if team_no is None:
            raise TableError("no_team")
        if match.status == Match.Status.PLAYING and not engine.team_chat_open(load_state(match)):
            raise TableError("team_chat_closed")
    since = timezone.now() - timedelta(seconds=settings.CHAT_WINDOW_SECONDS)
    # Refused lines count too: a flood of them is still a flood, and each one is kept.
    recent = ChatMessage.objects.filter(table=table, user=user, at__gte=since).count()
    if recent >= settings.CHAT_MAX_IN_WINDOW:
        raise TableError("chat_too_fast")
    # A player timed out of chat is told why and until when; a refused word refuses the line,
    # a masked one is starred (moderation/rules.py). Nothing is written either way.
    # The staff read the line as typed (``typed``), the players as filtered.
    typed = text
    try:
        text = moderation.chat_line(user, text)
    except ModerationError as exc:
        if exc.code != "chat_refused":
            raise
        kept = ChatMessage.objects.create(
            table=table, user=user, team=team_no, text="", hidden=True, watchers=seat is None
        )
        moderation.keep_typed(kept, typed, refused=True)
        return kept, exc  # nothing changed for the players: no broadcast
    # Someone without a seat is a watcher (their socket was let in: docs/social.md): their line
    # goes to the watchers' chat.
    msg = ChatMessage.objects.create(
        table=table, user=user, team=team_no, text=text, watchers=seat is None
    )
    moderation.keep_typed(msg, typed)
    chat_changed(table)
    events.broadcast(table, match)
    return msg, None


def chat_changed(table: Table) -> None:
    """The table's chat changed (a line posted or hidden): the next read of its chat lines goes
    to the database (games.chat_lines.chat_lines)."""
    table.chat_seq += 1
    Table.objects.filter(pk=table.pk).update(chat_seq=F("chat_seq") + 1)


def chat_hide(*, message_ids: list[int]) -> int:
    """Staff hide chat lines; every table concerned shows its chat without them at its next
    change. Returns how many lines were hidden."""
    with transaction.atomic():
        lines = ChatMessage.objects.filter(pk__in=message_ids, hidden=False)
        tables = set(lines.values_list("table_id", flat=True))
        done = lines.update(hidden=True)
        Table.objects.filter(pk__in=tables).update(chat_seq=F("chat_seq") + 1)
    return done
