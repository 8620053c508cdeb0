"""How much one socket and one account may do: frames per second (a token bucket), how deep a
frame may nest, and how many sockets one account may hold across every web process."""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any

from django.conf import settings
from redis.exceptions import RedisError

from realtime.redis import redis_client, sync_redis

log = logging.getLogger(__name__)

# Every process refreshes its own sockets' entries in their accounts' counts this often; an entry
# older than SOCKET_STALE_S (left by a process that died without saying goodbye) no longer counts.
SOCKET_REFRESH_S = 20
SOCKET_STALE_S = 60


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


# ------------------------------------------------------------------ sockets per account


def sockets_key(user_id: int) -> str:
    """The Redis sorted set of an account's open sockets (channel name -> last refresh)."""
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
                async with redis_client().pipeline(transaction=False) as pipe:
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


async def count_socket(user_id: int, channel: str) -> int:
    """Count this socket against its account (forgetting entries gone stale); how many sockets
    the account holds now, this one included. Redis errors are the caller's to handle."""
    key, now = sockets_key(user_id), time.time()
    async with redis_client().pipeline(transaction=True) as pipe:
        pipe.zremrangebyscore(key, 0, now - SOCKET_STALE_S)
        pipe.zadd(key, {channel: now})
        pipe.zcard(key)
        pipe.expire(key, SOCKET_STALE_S)
        _, _, count, _ = await pipe.execute()
    _live_sockets().add(key, channel)
    return count


async def uncount_socket(user_id: int, channel: str) -> None:
    """Take a counted socket off its account; a Redis error is logged (the entry goes stale)."""
    key = sockets_key(user_id)
    _live_sockets().discard(key, channel)
    try:
        await redis_client().zrem(key, channel)
    except (RedisError, OSError) as exc:
        log.warning("socket unregister failed: %r", exc)


def online(user_ids: list[int]) -> set[int]:
    """Which of these accounts have a socket open now (any page of the site), from the same
    per-account sets that bound their sockets: one Redis round trip. For sync code (a page)."""
    if not user_ids:
        return set()
    since = time.time() - SOCKET_STALE_S
    with sync_redis().pipeline(transaction=False) as pipe:
        for user_id in user_ids:
            pipe.zcount(sockets_key(user_id), since, "+inf")
        counts = pipe.execute()
    return {u for u, n in zip(user_ids, counts, strict=True) if n}
