"""What every Sahrat socket does before any game logic: who may connect, how many sockets one
account may hold, how fast a socket may send, clear refusals, the first frame, ping, and going
away quietly (docs/protocol.md).

Consumers subclass ``SahratConsumer`` and implement ``on_frame(frame)``; they never see a frame
that is not a JSON object with a string ``type``, nor one past the rate limit. Who may open a
socket at all is realtime/origin.py's; the limits are realtime/limits.py's.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import orjson
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from redis.exceptions import RedisError

from realtime import groups, limits
from realtime.protocol import (
    CLOSE_FORBIDDEN,
    CLOSE_RATE_LIMITED,
    CLOSE_TOO_MANY_SOCKETS,
    CLOSE_TRY_AGAIN,
    CLOSE_UNAUTHENTICATED,
    ERRORS,
    is_seq,
)

log = logging.getLogger(__name__)


def encode(payload: dict[str, Any]) -> str:
    """A frame as a JSON socket sends it (UTF-8 text, Arabic as it is, no spaces; a seat's
    number as a key becomes a string, as the standard library's encoder makes it)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


class SahratConsumer(AsyncWebsocketConsumer):
    """A signed-in player's socket with the platform's limits. Subclasses set ``joins`` and
    ``groups_for()`` and implement ``on_connected()`` and ``on_frame()``."""

    # The kinds of group this socket may join (realtime/groups.py): it must handle every
    # message type each one carries (tests/platform/test_groups.py), and joining any other
    # group is refused (``join``).
    joins: tuple[groups.Group, ...] = ()

    language = "ar"
    _registered = False
    _closing = False
    _connected = False
    _joined: tuple[str, ...] = ()
    # Set once this socket is going away (this side sent the close, or the client's close was
    # already under way when a frame was sent): later frames are dropped, not sent.
    _gone = False

    def groups_for(self) -> tuple[str, ...]:
        """The channel-layer groups this socket joins once accepted."""
        return ()

    async def authorize(self) -> bool:
        """May this signed-in user open this socket? Refused before the handshake completes
        (the browser sees HTTP 403)."""
        return True

    async def on_connected(self) -> None:
        """Called once the socket is accepted, registered and in its groups."""

    async def on_disconnected(self) -> None:
        """Called when a socket that reached ``on_connected`` closes."""

    async def on_frame(self, frame: dict[str, Any]) -> None:
        """One well-formed frame within the rate limit."""
        await self.send_error("unknown_type", self._t("unknown_type"))

    # ----------------------------------------------------------------------------- lifecycle

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its thread hop: channels 4.2+ runs
        ``close_old_connections`` in the database thread before *every* handler, a ping and a
        "table changed" event included, and that hop cost Daphne 20-44 % of its CPU per move.
        Nothing here touches the database outside ``database_sync_to_async``, which closes old
        connections in that thread before and after each call anyway."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Refuse before accepting: the handshake fails and nothing is sent.
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.language = getattr(user, "language", "ar") or "ar"
        self.bucket = limits.TokenBucket(settings.WS_RATE_PER_S, settings.WS_RATE_BURST)
        if not await self.authorize():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.accept()
        try:
            allowed = await self._register()
            if not allowed:
                await self._refuse("too_many_sockets", CLOSE_TOO_MANY_SOCKETS)
                return
            for group in self.groups_for():
                await self.join(group)
                self._joined += (group,)
        except (RedisError, OSError, TimeoutError) as exc:
            log.warning("socket set-up failed for user %s: %r", user.pk, exc)
            await self._refuse("unavailable", CLOSE_TRY_AGAIN)
            return
        self._connected = True
        await self.on_connected()

    async def join(self, group: str) -> None:
        """Join ``group``, which must be of a kind in ``joins`` (else a message it carries
        could reach a socket with no handler for it, which would end the socket)."""
        if not any(kind.owns(group) for kind in self.joins):
            raise groups.UnknownMessage(f"{type(self).__name__} does not join {group!r}")
        await self.channel_layer.group_add(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self._connected:
            self._connected = False
            try:
                await self.on_disconnected()
            except Exception:  # the rest of the clean-up must still run
                log.exception("on_disconnected failed")
        for group in self._joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except (RedisError, OSError, TimeoutError) as exc:
                # Left in the group, it is skipped by the channel layer once its expiry passes.
                log.warning("group_discard(%s) failed: %r", group, exc)
        self._joined = ()
        await self._unregister()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self._closing:
            return  # frames Daphne had already read before the close: ignored
        if not self.bucket.take():
            await self._refuse("rate_limited", CLOSE_RATE_LIMITED)
            return
        frame = self._parse(text_data, bytes_data)
        if isinstance(frame, str):
            await self.send_error("bad_frame", frame)
            return
        await self.on_frame(frame)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Send a frame unless the socket is going away. A broadcast can race a close: the
        client's close frame reached Daphne while this socket was rendering a state, and Daphne
        has not yet delivered the disconnect. Autobahn then refuses the send ("Attempt to send
        on a closed protocol"); nobody is left to read the frame, so it is dropped quietly
        instead of ending the consumer with an "Exception inside application"."""
        if self._gone:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            self._gone = True

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        await super().close(code=code, reason=reason)
        self._gone = True

    async def socket_close(self, event: dict[str, Any]) -> None:
        """``{"type": "socket.close", "code": N}`` sent on the channel layer to a socket's
        group closes it with code N: how the tests close a page's socket on purpose to watch it
        come back (or an operator moves sockets off a process). Only server-side code reaches
        it: a client's frames go to ``receive`` and never name a handler. Autobahn sends only
        1000 and 3000-4999 by choice; any other code closes with 1000."""
        code = event.get("code")
        if not isinstance(code, int) or not (code == 1000 or 3000 <= code <= 4999):
            code = 1000
        self._closing = True  # frames already read are ignored, as after a refusal
        await self.close(code=code)

    # ----------------------------------------------------------------- frames every socket sends

    async def say_hello(self) -> None:
        """The first frame of every socket (docs/protocol.md): whom the server took it for."""
        await self.send_json(
            {"type": "hello", "user": self.user.display_name or self.user.username}
        )

    _coins_mark = 0  # the newest ledger transfer whose balance this socket sent

    async def send_coins(self, event: dict[str, Any]) -> None:
        """The player's coins after a posting (``coins.changed``, wallet/ledger.py), as a
        ``coins`` frame; one older than the last sent (two postings crossing on the way) is
        dropped."""
        mark = event.get("mark")
        if not isinstance(mark, int) or mark < self._coins_mark:
            return
        self._coins_mark = mark
        await self.send_json({"type": "coins", "coins": event.get("coins")})

    async def pong(self, frame: dict[str, Any]) -> None:
        """The answer to a client's ``ping``, echoing its ``seq``."""
        seq = frame.get("seq")
        if not is_seq(seq):
            await self.send_error("bad_frame", self._t("bad_seq"))
            return
        await self.send_json({"type": "pong", "seq": seq})

    # ----------------------------------------------------------------------------- helpers

    def _parse(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | str:
        """The frame as a dict, or the words of the refusal."""
        if text_data is None:
            return self._t("not_text")
        if len(text_data) > settings.WS_MAX_FRAME:
            return self._t("too_long")
        try:
            frame = json.loads(text_data)
        except RecursionError:
            # A short frame can still nest deeper than the parser's recursion limit.
            return self._t("too_deep")
        except ValueError:
            return self._t("not_json")
        if limits.json_depth(frame) > settings.WS_MAX_DEPTH:
            return self._t("too_deep")
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            return self._t("no_type")
        return frame

    async def _refuse(self, code: str, close_code: int) -> None:
        """Say why in the player's language, then close with a documented code."""
        self._closing = True
        await self.send_error(code, self._t(code))
        await self.close(code=close_code)

    async def _register(self) -> bool:
        """Count this socket against its account; False when the account has too many."""
        count = await limits.count_socket(self.user.pk, self.channel_name)
        self._registered = True
        if count > self.socket_cap():
            await self._unregister()
            return False
        return True

    def socket_cap(self) -> int:
        """How many sockets the account may hold, this one included, for this one to open."""
        return settings.WS_MAX_SOCKETS_PER_USER

    async def _unregister(self) -> None:
        if not self._registered:
            return
        self._registered = False
        await limits.uncount_socket(self.user.pk, self.channel_name)

    def _t(self, key: str) -> str:
        with translation.override(self.language):
            return str(ERRORS[key])

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=encode(payload))

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
