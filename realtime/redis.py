"""The Redis client the sockets share: one per event loop, from a pool that waits its turn.

The per-account socket counts (realtime/limits.py) and the match snapshots the table sockets
read (games/snapshots.py) use it; the channel layer keeps its own (realtime/channel_layer.py).
"""

from __future__ import annotations

import asyncio
import weakref

import redis
from django.conf import settings
from redis import asyncio as aioredis

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
    weakref.WeakKeyDictionary()
)


def redis_client() -> aioredis.Redis:
    """This event loop's client (a redis-py asyncio pool belongs to the loop that made it)."""
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


_sync: redis.Redis | None = None


def sync_redis() -> redis.Redis:
    """A plain (blocking) client for sync code: the pages that read what the sockets keep."""
    global _sync
    if _sync is None:
        _sync = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5)
    return _sync
