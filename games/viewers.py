"""What one viewer may see beyond what every viewer of a table shares: the chat lines of the
players they blocked are hidden for them, and a watcher of a coin or rated table sees it late
(docs/social.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def blocked_ids(user: Any) -> frozenset[int]:
    """The players ``user`` blocked (their chat lines are hidden for ``user``), read through
    the user's reverse relation to social.Block."""
    if getattr(user, "pk", None) is None:
        return frozenset()
    return frozenset(user.blocking.values_list("blocked_id", flat=True))


def watched_late(state: dict[str, Any]) -> bool:
    """Whether this viewer's ``state`` is shown WATCH_DELAY_S late: a watcher (no seat) of a
    coin table or of a rated one (every seat a person), so that nobody can help a player in
    real time (docs/social.md, "Watching")."""
    if state["you"]["seat"] is not None or settings.WATCH_DELAY_S <= 0:
        return False
    table = state["table"]
    return bool(table["stake"]) or all(s["name"] and not s["bot"] for s in table["seats"])
