"""What one viewer may see beyond what every viewer of a table shares: the chat lines of the
players they blocked are hidden for them, and a watcher of a coin or rated table sees it late
(docs/social.md); and each viewer's own picture of the table from what they share (their seat,
the view of it, the chat they may read)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.picture import TablePicture

CHAT_SHOWN = 30  # the lines of chat a viewer is shown


def chat_hides(user: Any, table: Any) -> tuple[frozenset[int], bool]:
    """What ``user`` hides of ``table``'s chat: the players whose lines they do not see (those
    they blocked, and those they muted there), and whether they hide every chat (the panic
    switch, read fresh: a socket's copy of the user may be old). Read through the user's
    reverse relations to social.Block and moderation.ChatMute."""
    if getattr(user, "pk", None) is None:
        return frozenset(), False
    blocked = user.blocking.values_list("blocked_id", flat=True)
    muted = user.chat_mutes.filter(table=table).values_list("muted_id", flat=True)
    off = get_user_model().objects.filter(pk=user.pk).values_list("hide_chat", flat=True).first()
    return frozenset(blocked.union(muted)), bool(off)


def watched_late(state: dict[str, Any]) -> bool:
    """Whether this viewer's ``state`` is shown WATCH_DELAY_S late: a watcher (no seat) of a
    coin table or of a rated one (every seat a person), so that nobody can help a player in
    real time (docs/social.md, "Watching")."""
    if state["you"]["seat"] is not None or settings.WATCH_DELAY_S <= 0:
        return False
    table = state["table"]
    return bool(table["stake"]) or all(s["name"] and not s["bot"] for s in table["seats"])


OWN_KEPT = 5  # a delayed watcher's own lines kept for them at most (the oldest go first)


def keep_own_line(own: dict[int, dict[str, Any]], line: dict[str, Any]) -> None:
    """Keep a delayed watcher's own chat ``line`` (as chat_line makes it) in ``own`` (line id ->
    line, oldest first) until a frame of the table holds it (with_own_lines); at most
    OWN_KEPT, so a line no frame will ever hold (hidden by the staff) does not stay for ever."""
    own[line["id"]] = line
    while len(own) > OWN_KEPT:
        del own[next(iter(own))]


def with_own_lines(frame: dict[str, Any], own: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A delayed watcher's state ``frame`` with their own chat lines in it (``own``, see
    keep_own_line), so a watcher's line shows to its writer at once, not with the table
    WATCH_DELAY_S late. A line stays in ``own`` until a frame of the table holds it (or has
    scrolled past it: a full chat whose oldest line is newer), however late that frame comes
    (a busy server, a broadcast the channel layer lost): no fixed time, after which the line
    would vanish for its writer. Nothing added while every chat is hidden (the panic switch)."""
    chat = frame["chat"]
    have = {line.get("id") for line in chat}
    oldest = (chat[0]["at"], chat[0]["id"]) if len(chat) >= CHAT_SHOWN else None
    done = [k for k, line in own.items() if k in have or (oldest and (line["at"], k) < oldest)]
    for key in done:
        del own[key]
    if not own or frame["you"].get("chat_off"):
        return frame
    lines = sorted([*chat, *own.values()], key=lambda line: (line["at"], line["id"]))
    return {**frame, "chat": lines[-CHAT_SHOWN:]}


def viewer_state(
    picture: TablePicture,
    user: Any,
    creator_id: Any,
    view: dict[str, Any] | None,
    hidden: frozenset[int] = frozenset(),
    off: bool = False,
) -> dict[str, Any]:
    """One viewer's state from the table's ``picture``: their seat, the chat they may read (a
    player: the table's, their team's, and the watchers' between rounds; a watcher: the
    table's and the watchers'; never the lines of ``hidden``, the players they blocked or
    muted, and none at all while ``off``, their panic switch) and ``view``, the game's view
    for their seat (or the spectator view), which the caller makes. The picture's parts are
    shared by every viewer: copied where this viewer's differs, never changed."""
    user_id = getattr(user, "pk", None)
    mine = picture.seat_of(user_id)
    team = None if mine is None else picture.seats[mine].team
    # The players read the watchers' chat only between rounds and matches (docs/social.md).
    in_round = picture.match["status"] == "playing" and (view or {}).get("status") != ("round_over")
    lines = sorted(
        (
            line
            for line in picture.chat
            if not off
            and (line.team is None or line.team == team)
            and line.user_id not in hidden
            and not (line.watchers and mine is not None and in_round)
        ),
        key=lambda line: line.order,
    )
    table = dict(picture.table)
    seats = table.pop("seats")
    table["creator"] = creator_id == user_id
    table["seats"] = seats
    return {
        "table": table,
        "you": {
            "seat": mine,
            "left": user_id is not None and user_id in picture.left_users,
            # Their seat in the match whose view this is (between matches, the one played).
            "view_seat": picture.view_seat_of(user_id),
            # Every chat hidden for them (the panic switch): the chat sheet says so.
            "chat_off": off,
        },
        "match": picture.match,
        "shown": picture.shown,
        "view": view,
        "chat": [line.line for line in lines[-CHAT_SHOWN:]],
        "now": timezone.now().isoformat(),
    }
