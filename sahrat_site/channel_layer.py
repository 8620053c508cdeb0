"""The channel layer: channels-redis, with a pool that waits instead of failing.

channels-redis builds a plain redis-py pool, which raises ``MaxConnectionsError`` the moment more
coroutines want a connection than the pool holds: 500 sockets connecting at once turned into
hundreds of HTTP 500s in ``group_add``, and the failed ``group_discard`` calls left stale group
members behind. A blocking pool queues those coroutines for a few seconds instead (each Redis
command holds a connection for well under a millisecond).
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer
from redis import asyncio as aioredis


class SahratChannelLayer(RedisChannelLayer):
    """RedisChannelLayer whose pools are ``BlockingConnectionPool`` (settings.CHANNEL_LAYERS)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for host in self.hosts:
            timeout = host.get("socket_timeout")
            # A read timeout at or below the blocking pop's ends every socket after ~5 s.
            if timeout is not None and timeout <= self.brpop_timeout:
                raise ValueError(
                    f"socket_timeout ({timeout} s) must exceed the blocking pop "
                    f"({self.brpop_timeout} s)"
                )

    def create_pool(self, index: int) -> aioredis.ConnectionPool:
        host = dict(self.hosts[index])
        address = host.pop("address")
        return aioredis.BlockingConnectionPool.from_url(address, **host)
