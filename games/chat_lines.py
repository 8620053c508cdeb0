"""Reads of a table's chat: the lines a viewer may be shown, each as it is sent (selectors.py
reads them for a table's picture; viewers.py picks each viewer's)."""

from __future__ import annotations

from typing import Any

from cachetools import FIFOCache

from games.models import ChatMessage, Table
from games.picture import ChatLine
from games.viewers import CHAT_SHOWN


def chat_line(line: ChatMessage) -> dict[str, Any]:
    """A chat line as a viewer is sent it (its ``id`` names it in a report)."""
    return {
        "id": line.pk,
        "name": line.user.display_name or line.user.username,
        "text": line.text,
        "team": line.team is not None,
        "watchers": line.watchers,
        "at": line.at.isoformat(),
    }


def _last_lines(query: Any) -> tuple[ChatLine, ...]:
    """The last CHAT_SHOWN lines of ``query``, oldest first (the writer's id stays on the
    server: it hides a blocked player's lines)."""
    lines = list(query.select_related("user").order_by("-at", "-pk")[:CHAT_SHOWN])[::-1]
    return tuple(ChatLine(chat_line(m), m.team, m.user_id, m.watchers) for m in lines)


# (table pk, chat_seq, teams) -> lines. A table's chat changes far less often than its match,
# and every change bumps Table.chat_seq, so an entry never goes stale; old ones are dropped.
CHAT_CACHE_SIZE = 4096
_chat_cache: FIFOCache[tuple[int, int, tuple[int, ...]], tuple[ChatLine, ...]] = FIFOCache(
    maxsize=CHAT_CACHE_SIZE
)


def chat_lines(table: Table, teams: tuple[int, ...]) -> tuple[ChatLine, ...]:
    """The last lines of the table's chat, of the watchers' chat and of each of ``teams``'
    chats, read from the database once per change of the chat (Table.chat_seq)."""
    ident = (table.pk, table.chat_seq, teams)
    lines = _chat_cache.get(ident)
    if lines is None:
        chat = ChatMessage.objects.filter(table=table, hidden=False)
        lines = _last_lines(chat.filter(team__isnull=True, watchers=False))
        lines += _last_lines(chat.filter(watchers=True))
        for team in teams:
            lines += _last_lines(chat.filter(team=team))
        _chat_cache[ident] = lines  # the oldest entry goes when the cache is full
    return lines
