"""The match state each socket renders its own seat's view from, shared instead of re-read.

Every change at a table reaches every socket of it at once. Reading the table from PostgreSQL
once per socket (several queries, a hop to the database thread, the engine's ``from_json``) made
Daphne spend ~40 ms of CPU per move at four sockets a table. Instead, the service that made the
change puts the new snapshot in Redis under its (match, seq) just before it broadcasts, and the
first socket of each server process that needs it reads it once; the others of that process
share the loaded state (``load``). Each socket then asks the engine for its own seat's view.

The snapshot holds every hand, so it goes only to this key, never into a group's message (the
"table changed" event carries what every viewer may see: games/picture.py).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from typing import Any

import redis
from cachetools import FIFOCache
from django.conf import settings
from redis.exceptions import RedisError

import games
from realtime.redis import redis_client

log = logging.getLogger(__name__)

# Long enough for every socket to read a change's snapshot, short enough to keep Redis small.
TTL_S = 300
# Loaded states kept per event loop: a few changes back for every table a process serves.
CACHE_SIZE = 4096


def key(match_id: str, seq: int) -> str:
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "sahrat")
    return f"{prefix}:snapshot:{match_id}:{seq}"


@functools.cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def publish(match_id: str, seq: int, snapshot: str) -> None:
    """Store a change's snapshot for the sockets (called after commit, before the broadcast)."""
    _client(settings.REDIS_URL).set(key(match_id, seq), snapshot, ex=TTL_S)


_caches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, FIFOCache] = (
    weakref.WeakKeyDictionary()
)


async def load(game: str, match_id: str, seq: int) -> Any | None:
    """The engine state of ``match_id`` after action ``seq``, read from Redis once per event
    loop and shared by every socket of it; None if it is not there (the caller reads the
    database instead)."""
    loop = asyncio.get_running_loop()
    cache = _caches.get(loop)
    if cache is None:
        cache = _caches[loop] = FIFOCache(maxsize=CACHE_SIZE)
    ident = (match_id, seq)
    future = cache.get(ident)
    if future is None:
        future = cache[ident] = loop.create_future()  # the oldest goes when the cache is full
        state = None
        try:
            raw = await redis_client().get(key(match_id, seq))
            if raw is not None:
                state = games.get(game).from_json(raw.decode())
        except (RedisError, OSError, TimeoutError, ValueError) as exc:
            log.warning("snapshot %s#%s unavailable: %r", match_id, seq, exc)
        finally:
            # Also when this socket is cancelled mid-read: the others waiting must not hang.
            future.set_result(state)
            if state is None:
                cache.pop(ident, None)  # the next change tries again
        return state
    return await future
