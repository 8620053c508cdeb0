"""WebSocket consumers. Thin: check who is asking, parse the frame, call a service, reply.

What every socket shares (sign-in, limits, refusals, the hello, ping and going away quietly) is
realtime/consumer.py's; the frames are written down in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings

import games
from games import frames, presence, rendering, selectors, services, snapshots, viewers
from games.models import Table
from games.picture import TablePicture, received
from language import digits
from language.errors import PlayerError
from realtime import groups
from realtime.consumer import SahratConsumer
from realtime.delta import DeltaEncoder
from realtime.protocol import is_seq

# Every database call of a table socket is one self-contained service or read with its own
# transaction, so it need not run in the process's single "thread-sensitive" thread, where all
# sockets' calls would queue behind each other: a pool of threads overlaps their waits on
# PostgreSQL (each thread holds its own pooled connection; settings.DB_POOL_MAX_SIZE bounds them).
db = functools.partial(database_sync_to_async, thread_sensitive=False)


def notice_frame(event: dict[str, Any]) -> dict[str, Any]:
    """The frame a socket sends for a "notice" event of its player's group."""
    return {
        "type": "notice",
        "kind": event.get("kind", ""),
        "text": event.get("text", ""),
        "link": event.get("link", ""),
    }


class Picture(NamedTuple):
    """One viewer's picture of one change of the table: their ``state`` (what a JSON socket
    sends), the ``change`` it shows (the table's pk, its match, when the table was read) and
    the watcher's state the part every viewer shares is drawn from, made only if needed."""

    state: dict[str, Any]
    change: tuple[int, str, float]
    shared: Callable[[], dict[str, Any]]


class MajlisConsumer(SahratConsumer):
    """The lobby socket: a signed-in player's live link to the majlis."""

    joins = (groups.MAJLIS,)

    def groups_for(self) -> tuple[str, ...]:
        return (groups.MAJLIS.name(),)

    async def on_connected(self) -> None:
        await self.say_hello()

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "ping":
            await self.pong(frame)
            return
        await super().on_frame(frame)

    async def majlis_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "majlis_changed"})


class TableConsumer(SahratConsumer):
    """A table's socket, for a seated player or a watcher. The table's group carries only "it
    changed, seq N"; each socket renders its own viewer's picture (selectors.table_state) and
    sends it whole, so a client never needs to patch, and a missed update is repaired by the next
    one or by asking ("sync")."""

    table: Table
    # (match number, seq, when its picture was read) of the last state sent. Changes that leave
    # the seq alone (a seat's presence, a chat line) are ordered by the time of their reading:
    # two of them broadcast from two threads may arrive in either order.
    _sent: tuple[int, int, float] = (0, -1, 0.0)
    _counted = False  # this socket is in its player's presence at the table
    _delta: DeltaEncoder | None = None  # HTML mode: the state frames as what changed
    _hidden: frozenset[int] = frozenset()  # the players this viewer blocked or muted here
    _chat_off = False  # the viewer's panic switch: every chat hidden
    # A delayed watcher's states waiting their time (_watched_late), and the task sending them.
    _drain: asyncio.Task | None = None
    _late = False  # this socket's states are held back (viewers.watched_late)
    _shown: Picture | None = None  # the last picture sent (before with_own_lines)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._later: deque[tuple[float, Picture]] = deque()
        # A delayed watcher's own chat lines, shown to them at once (viewers.with_own_lines).
        self._own: dict[int, dict[str, Any]] = {}

    # HTML fragments for the page (htmx WebSocket extension) unless the client connected with
    # ?format=json (docs/protocol.md, "HTML mode"): the same state, two renderings.
    html = False
    invite = ""  # the private table's invite token this socket was opened with, if any

    async def authorize(self) -> bool:
        table_id = self.scope["url_route"]["kwargs"]["table_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        invite = self.invite = (query.get("invite") or [""])[0]
        self.html = (query.get("format") or [""])[0] != "json"
        table = await db(Table.objects.filter(public_id=table_id).first)()
        if table is None:
            return False
        self.table = table
        invited = bool(invite) and invite == table.invite_token
        return await db(selectors.can_watch)(table, self.user, invited)

    joins = (groups.TABLE, groups.USER)

    def groups_for(self) -> tuple[str, ...]:
        # The player's own group too: a block they make elsewhere hides its lines here at once.
        return (self.table.group, groups.USER.name(self.user.pk))

    async def on_connected(self) -> None:
        # Counted under this process (games/presence.py), which is known alive before it counts.
        await presence.ensure_beating()
        await db(services.seat_connected)(
            user=self.user, table_id=self.table.public_id, process=presence.PROCESS
        )
        self._counted = True
        await self._read_hides()
        presence.opened(self.table.public_id, self.user.pk)
        # The same first frame as the lobby socket (docs/protocol.md), then the whole state.
        await self.say_hello()
        await self.send_state()

    async def on_disconnected(self) -> None:
        if self._drain is not None:
            self._drain.cancel()
        if not self._counted:
            return
        self._counted = False
        presence.closed(self.table.public_id, self.user.pk)
        await db(services.seat_disconnected)(
            user=self.user, table_id=self.table.public_id, process=presence.PROCESS
        )

    async def table_changed(self, event: dict[str, Any]) -> None:
        # ``event`` is the one object every socket of this process is handed (decoded once:
        # realtime/channel_layer.py), and so is the picture made from it (games/picture.py,
        # ``received``): read them, never change them.
        wire = event.get("picture")
        await self.send_state(None if wire is None else received(wire))

    async def notice(self, event: dict[str, Any]) -> None:
        """A notice for this player (social/invitations.py), on whatever page they have open."""
        await self.send_json(notice_frame(event))

    async def friends_changed(self, event: dict[str, Any]) -> None:
        """The player blocked or unblocked someone: the chat shown again without (or with)
        their lines."""
        await self._read_hides()
        await self.send_state()

    async def chat_hides_changed(self, event: dict[str, Any]) -> None:
        """The player muted or unmuted someone, or turned the panic switch (moderation)."""
        await self._read_hides()
        await self.send_state()

    async def coins_changed(self, event: dict[str, Any]) -> None:
        """The ledger moved the player's coins (wallet/ledger.py): the thin bar follows."""
        await self.send_coins(event)

    async def _read_hides(self) -> None:
        self._hidden, self._chat_off = await db(viewers.chat_hides)(self.user, self.table)

    async def send_state(self, table: TablePicture | None = None) -> None:
        """Send this viewer's whole state: from the ``table``'s picture (what a "table changed"
        event carries) and the shared snapshot when there is one, else read from the
        database."""
        picture = None
        if table is not None:
            if (table.match["number"], table.match["seq"], table.read_at) < self._sent:
                return  # an older change arriving late: the newer state is already shown
            picture = await self._picture_from(table)
        if picture is None:
            # The table read again: the row this socket loaded when it opened is old (its
            # chat_seq, which keys the chat lines read, and its status).
            read_at = time.time()
            self.table = await db(Table.objects.get)(pk=self.table.pk)
            state, shared = await db(selectors.table_states)(self.table, self.user)
            change = (self.table.pk, state["match"]["id"], read_at)
            picture = Picture(state, change, lambda: shared)
        state = picture.state
        order = (state["match"]["number"], state["match"]["seq"], picture.change[2])
        if order < self._sent:
            return  # read while a newer change was already on its way here, and sent
        self._sent = order
        self._late = viewers.watched_late(state)
        if self._late:
            self._later.append((time.monotonic() + settings.WATCH_DELAY_S, picture))
            if self._drain is None or self._drain.done():
                self._drain = asyncio.create_task(self._send_later())
            return
        self._later.clear()  # a watcher who sat down: what was held back is already old
        self._own.clear()
        await self._send_picture(picture)

    async def _send_picture(self, picture: Picture) -> None:
        # The table's picture as it came, without the watcher's own lines: a picture resent
        # with a new line must not count as one of the table's that holds the earlier ones.
        self._shown = picture
        state = picture.state
        if self._own:  # a delayed watcher's own lines, in every frame until the table's hold them
            state = viewers.with_own_lines(state, self._own)
        if not self.html:
            await self.send_json({"type": "state", **state})
            return
        # The part every viewer shares, drawn once per change in this process; then this
        # viewer's own parts and chat (games/frames.py), all as one delta (realtime/delta.py).
        style = digits.style_of(self.user, self.language)
        shared = frames.shared_part(picture.change, picture.shared, self.language, style)
        own = frames.own_parts(state, self.language, style).text()
        own += frames.chat_part(state, self.language, style)
        if self._delta is None:
            self._delta = DeltaEncoder()
        await self.send(text_data=self._delta.encode(own, shared))

    async def _send_later(self) -> None:
        """Send the held-back pictures in order, each when its time comes."""
        while self._later:
            due, picture = self._later[0]
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # the queue may have been cleared meanwhile
            self._later.popleft()
            await self._send_picture(picture)

    async def _picture_from(self, table: TablePicture) -> Picture | None:
        """The viewer's picture without the database: only their own seat's view is made here,
        from the match state every socket of this process shares; None if it is missing."""
        view = state = engine = None
        snap = table.snapshot
        if snap is not None:
            state = await snapshots.load(snap.game, snap.match, snap.seq)
            if state is None:
                return None
            engine = games.get(snap.game)
            mine = table.view_seat_of(self.user.pk)
            view = engine.spectator_view(state) if mine is None else engine.view(state, mine)
        creator = self.table.created_by_id
        own = viewers.viewer_state(table, self.user, creator, view, self._hidden, self._chat_off)

        def shared() -> dict[str, Any]:
            # A watcher's state: made only by the first socket of this process to draw it.
            spectator = engine.spectator_view(state) if engine is not None else None
            return viewers.viewer_state(table, None, creator, spectator)

        change = (self.table.pk, table.match["id"], table.read_at)
        return Picture(own, change, shared)

    async def send_json(self, payload: dict[str, Any]) -> None:
        if not self.html:
            await super().send_json(payload)
            return
        kind = payload.get("type")
        if kind == "error":
            message, code = str(payload.get("message", "")), str(payload.get("code", ""))
            await self.send(text_data=rendering.error_fragment(message, code))
        elif kind == "coins":
            style = digits.style_of(self.user, self.language)
            await self.send(
                text_data=rendering.coins_fragment(payload["coins"], self.language, style)
            )
        elif kind == "notice":
            text, link = str(payload.get("text", "")), str(payload.get("link", ""))
            await self.send(text_data=rendering.notice_fragment(text, link, self.language))
        # hello and pong have nothing to show on the page

    async def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        handler = self.HANDLERS.get(kind)
        if handler is None:
            await super().on_frame(frame)
            return
        try:
            await handler(self, frame)
        except PlayerError as exc:  # a table's, a game's or the standing's refusal (LockedOut)
            await self.send_json(
                {"type": "error", "code": exc.code, "message": exc.message(self.language)}
            )
            if exc.code == "stale_seq":
                await self.send_state()  # the player's picture was old: here is the table now

    # Each handler calls one service; the state that follows arrives by the table's broadcast.

    async def do_sync(self, frame: dict[str, Any]) -> None:
        # With the match and seq the client shows, this is the page's idle check: the state is
        # sent only if the table moved on (an update lost on the way, docs/protocol.md), so
        # the check costs one small query, not a whole state.
        shown, seq = frame.get("match"), frame.get("seq")
        if frame.get("full") is True and self._delta is not None:
            self._delta.reset()  # the page could not rebuild a delta: the next state goes whole
        elif isinstance(shown, str) and is_seq(seq):
            if await db(selectors.table_mark)(self.table) == (shown, seq):
                return
        await self.send_state()

    async def do_move(self, frame: dict[str, Any]) -> None:
        # Only a JSON integer is a seq ("1", 1.0, true, null or none at all is a malformed frame,
        # not an old one): a stale_seq would send the client a state it has no use for.
        if not is_seq(frame.get("seq")):
            await self.send_error("bad_frame", self._t("bad_seq"))
            return
        await db(services.match_play)(
            user=self.user,
            table_id=self.table.public_id,
            seq=frame.get("seq"),
            action=frame.get("action"),
        )

    async def do_sit(self, frame: dict[str, Any]) -> None:
        await db(services.seat_take)(
            user=self.user,
            table_id=self.table.public_id,
            number=frame.get("seat"),
            seed=str(frame.get("seed") or ""),
            commitment=str(frame.get("commitment") or ""),
            match_id=str(frame.get("match") or ""),
        )

    async def do_bot(self, frame: dict[str, Any]) -> None:
        await db(services.seat_add_bot)(
            user=self.user,
            table_id=self.table.public_id,
            number=frame.get("seat"),
            level=str(frame["level"]) if frame.get("level") else None,
        )

    async def do_leave(self, frame: dict[str, Any]) -> None:
        await db(services.seat_leave)(user=self.user, table_id=self.table.public_id)

    async def do_forfeit(self, frame: dict[str, Any]) -> None:
        await db(services.seat_forfeit)(user=self.user, table_id=self.table.public_id)

    async def do_ready(self, frame: dict[str, Any]) -> None:
        await db(services.table_ready)(
            user=self.user,
            table_id=self.table.public_id,
            seed=str(frame.get("seed") or ""),
            commitment=str(frame.get("commitment") or ""),
            match_id=str(frame.get("match") or ""),
        )

    async def do_chat(self, frame: dict[str, Any]) -> None:
        line = await db(services.chat_post)(
            user=self.user,
            table_id=self.table.public_id,
            text=str(frame.get("text") or ""),
            team=frame.get("team") is True,
            invite=self.invite,
        )
        if self._late:
            # A delayed watcher sees their own line at once, in the picture they already have
            # (nothing newer of the game); everyone else gets it with the table, late.
            viewers.keep_own_line(self._own, selectors.chat_line(line))
            if self._shown is not None:
                await self._send_picture(self._shown)

    async def do_ping(self, frame: dict[str, Any]) -> None:
        await self.pong(frame)

    HANDLERS = {
        "sync": do_sync,
        "move": do_move,
        "sit": do_sit,
        "bot": do_bot,
        "leave": do_leave,
        "forfeit": do_forfeit,
        "ready": do_ready,
        "chat": do_chat,
        "ping": do_ping,
    }
