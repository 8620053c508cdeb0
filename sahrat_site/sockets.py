"""What every Sahrat socket does before any game logic: who may connect, how many sockets one
account may hold, how fast a socket may send, and clear refusals (docs/protocol.md).

Consumers subclass ``SahratConsumer`` and implement ``on_frame(frame)``; they never see a frame
that is not a JSON object with a string ``type``, nor one past the rate limit.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from typing import Any
from urllib.parse import urlsplit

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from redis import asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# Close codes in the 4000 range are the application's own (RFC 6455 §7.4.2); docs/protocol.md.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY_SOCKETS = 4409
CLOSE_RATE_LIMITED = 4429
# The server could not set the socket up: try again later. RFC 6455's own 1013 says the same, but
# Daphne's autobahn sends only 1000 and 3000-4999 (any other code raises inside the application
# and the client sees 1011), so the code is the application's, after HTTP's 503.
CLOSE_TRY_AGAIN = 4503

# Every process refreshes its own sockets' entries in their accounts' counts this often; an entry
# older than SOCKET_STALE_S (left by a process that died without saying goodbye) no longer counts.
SOCKET_REFRESH_S = 20
SOCKET_STALE_S = 60

ERRORS = {
    "not_text": _("A message must be JSON text."),
    "too_long": _("The message is too long."),
    "not_json": _("The message is not valid JSON."),
    "too_deep": _("The message nests too deeply."),
    "no_type": _('A message must be a JSON object with a "type" field.'),
    "bad_seq": _("The sequence number (seq) must be a whole number."),
    "unknown_type": _("Unknown message type."),
    "rate_limited": _("Too many messages too fast; the connection is closed. Reconnect to go on."),
    "too_many_sockets": _(
        "You have too many Sahrat pages open; close one and reload this page to connect."
    ),
    "unavailable": _("The server is busy; reload the page in a moment."),
}

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
    weakref.WeakKeyDictionary()
)


def _redis() -> aioredis.Redis:
    """One client per event loop (a redis-py asyncio pool belongs to the loop that made it)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        # A blocking pool: a burst of sockets connecting at once waits its turn for a connection
        # instead of failing with MaxConnectionsError.
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_URL,
            max_connections=settings.CHANNEL_LAYER_MAX_CONNECTIONS,
            timeout=10,
            socket_timeout=5,
            socket_connect_timeout=5,
        )
        client = _clients[loop] = aioredis.Redis(connection_pool=pool)
    return client


def _sockets_key(user_id: int) -> str:
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "sahrat")
    return f"{prefix}:sockets:{user_id}"


class _LiveSockets:
    """This process's open sockets by account key, kept fresh in Redis by one task per event
    loop (one pipeline every SOCKET_REFRESH_S, however many sockets), so the per-account count
    holds for idle sockets too and forgets a dead process's sockets within SOCKET_STALE_S."""

    def __init__(self) -> None:
        self.by_key: dict[str, set[str]] = {}
        self.task: asyncio.Task | None = None

    def add(self, key: str, channel: str) -> None:
        self.by_key.setdefault(key, set()).add(channel)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._refresh_forever())

    def discard(self, key: str, channel: str) -> None:
        channels = self.by_key.get(key)
        if channels is not None:
            channels.discard(channel)
            if not channels:
                del self.by_key[key]

    async def _refresh_forever(self) -> None:
        while self.by_key:
            await asyncio.sleep(SOCKET_REFRESH_S)
            now = time.time()
            try:
                async with _redis().pipeline(transaction=False) as pipe:
                    for key, channels in list(self.by_key.items()):
                        pipe.zadd(key, dict.fromkeys(channels, now), xx=True)
                        pipe.expire(key, SOCKET_STALE_S)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning("socket refresh failed: %r", exc)


_live: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LiveSockets] = (
    weakref.WeakKeyDictionary()
)


def _live_sockets() -> _LiveSockets:
    loop = asyncio.get_running_loop()
    live = _live.get(loop)
    if live is None:
        live = _live[loop] = _LiveSockets()
    return live


def is_seq(value: Any) -> bool:
    """A sequence number is a JSON integer: not a string, a float (even 1.0), a bool or null."""
    return isinstance(value, int) and not isinstance(value, bool)


def json_depth(value: Any) -> int:
    """How many objects and arrays are inside one another in ``value`` (a scalar is 0, ``{}`` is
    1); without recursion, so any depth the parser accepted can be measured."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


# ------------------------------------------------------------------------------- the Origin rule

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_parts(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://example.com:8443``; None for anything
    that is not an http(s) origin (``null``, a path, a bad port)."""
    try:
        parsed = urlsplit(origin.lower())
        port = parsed.port
    except ValueError:
        return None
    if parsed.scheme not in _DEFAULT_PORTS or not parsed.hostname:
        return None
    if parsed.path not in ("", "/") or parsed.query or parsed.fragment or parsed.username:
        return None
    return parsed.scheme, parsed.hostname, port or _DEFAULT_PORTS[parsed.scheme]


def request_scheme(scope: dict[str, Any]) -> str:
    """The scheme the browser used, as Django's ``request.scheme`` reads it: ``wss`` is https,
    and behind a proxy ``settings.SECURE_PROXY_SSL_HEADER`` (when set) says which it was."""
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, secure = proxy
        wanted = name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin-1")
        for header, value in scope.get("headers", []):
            if header == wanted:
                first = value.decode("latin-1").split(",", 1)[0].strip()
                scheme = "https" if first == secure else "http"
                break
    return scheme


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:  # Django's own default while debugging
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Is the socket's ``Origin`` one of the site's own origins? The same rule as Django's CSRF
    check for a form post: scheme, host and port equal to the request's own (its ``Host``, which
    must be an allowed host, with the request's scheme), or one of ``CSRF_TRUSTED_ORIGINS``
    (``https://*.example.com`` for its subdomains). No Origin, no socket."""
    headers = dict(scope.get("headers", []))
    raw = headers.get(b"origin")
    if raw is None:
        return False
    origin = _origin_parts(raw.decode("latin-1"))
    if origin is None:
        return False
    scheme = request_scheme(scope)
    host = headers.get(b"host")
    if host is not None:
        domain, port = split_domain_port(host.decode("latin-1").lower())
        if domain and validate_host(domain, _allowed_hosts()):
            if port and not port.isdigit():
                return False
            own = (scheme, domain.strip("[]"), int(port) if port else _DEFAULT_PORTS[scheme])
            if origin == own:
                return True
    else:
        # Only an in-process caller (a test's communicator) sends no Host: every HTTP/1.1
        # handshake has one. The site is then each allowed host at the scheme's default port.
        if (
            origin[0] == scheme
            and origin[2] == _DEFAULT_PORTS[scheme]
            and validate_host(origin[1], _allowed_hosts())
        ):
            return True
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:
            pattern = _origin_parts(trusted.replace("*", "wildcard", 1))
            if pattern is None:
                continue
            base = "." + pattern[1].split(".", 1)[1] if "." in pattern[1] else None
            if (
                base
                and (origin[0], origin[2]) == (pattern[0], pattern[2])
                and is_same_domain(origin[1], base)
            ):
                return True
        elif origin == _origin_parts(trusted):
            return True
    return False


class SiteOriginValidator:
    """ASGI middleware: a WebSocket handshake whose Origin is not the site's own is refused
    (HTTP 403) before the session is even read, so another site's page (or another port or scheme
    of this host) cannot open a socket with the player's cookies."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


class TokenBucket:
    """``rate`` frames per second on average, up to ``burst`` at once after a quiet spell."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SahratConsumer(AsyncWebsocketConsumer):
    """A signed-in player's socket with the platform's limits. Subclasses set ``groups_for()``
    and implement ``on_connected()`` and ``on_frame()``."""

    language = "ar"
    _registered = False
    _closing = False
    _connected = False
    _joined: tuple[str, ...] = ()

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
        self.bucket = TokenBucket(settings.WS_RATE_PER_S, settings.WS_RATE_BURST)
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
                await self.channel_layer.group_add(group, self.channel_name)
                self._joined += (group,)
        except (RedisError, OSError, TimeoutError) as exc:
            log.warning("socket set-up failed for user %s: %r", user.pk, exc)
            await self._refuse("unavailable", CLOSE_TRY_AGAIN)
            return
        self._connected = True
        await self.on_connected()

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
        if json_depth(frame) > settings.WS_MAX_DEPTH:
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
        key, now = _sockets_key(self.user.pk), time.time()
        async with _redis().pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, 0, now - SOCKET_STALE_S)
            pipe.zadd(key, {self.channel_name: now})
            pipe.zcard(key)
            pipe.expire(key, SOCKET_STALE_S)
            _, _, count, _ = await pipe.execute()
        self._registered = True
        _live_sockets().add(key, self.channel_name)
        if count > settings.WS_MAX_SOCKETS_PER_USER:
            await self._unregister()
            return False
        return True

    async def _unregister(self) -> None:
        if not self._registered:
            return
        self._registered = False
        key = _sockets_key(self.user.pk)
        _live_sockets().discard(key, self.channel_name)
        try:
            await _redis().zrem(key, self.channel_name)
        except (RedisError, OSError) as exc:
            log.warning("socket unregister failed: %r", exc)

    def _t(self, key: str) -> str:
        with translation.override(self.language):
            return str(ERRORS[key])

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(payload, ensure_ascii=False))

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})
