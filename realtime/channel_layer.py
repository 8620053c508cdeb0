"""The channel layer: channels-redis's pub/sub layer, with a pool that waits instead of failing.

Why pub/sub: a group message is one PUBLISH that Redis hands to each subscribed process once,
and the process fans it out to its own sockets in memory. The default layer (``core``) instead
runs a Lua script per group send that pushes a copy into every member's queue, and each process
pops them back one by one: measured with a bare Channels prototype, that took twice the Daphne
CPU per move. Pub/sub delivers at most once (a process that is reconnecting misses what was
published meanwhile); the protocol's ``seq`` rules repair a gap (docs/protocol.md), which is why
a table's updates may use it.

Why a blocking pool: a plain redis-py pool raises ``MaxConnectionsError`` the moment more
coroutines want a connection than it holds: 500 sockets connecting at once turned into hundreds
of HTTP 500s. A blocking pool queues them for a few seconds instead. Here each event loop holds
at most two connections per host (one subscribed, one for publishing, used under a lock), so the
pool is bounded well inside ``max_connections``.

The read timeout (``socket_timeout``) must exceed the longest read the layer blocks on: at 5 s
against the core layer's 5 s blocking pop, every socket died with 1011 after about five seconds.
The pub/sub reader waits 0.1 s per read; the guard keeps the core layer's 5 s floor so that
neither layer can be configured into that failure.

Why a memo in ``deserialize``: the pub/sub reader hands a group message's bytes, one object, to
the queue of every channel of this process in the group, and each channel's ``receive`` decodes
them (msgpack) on its own: a table's "changed" event was decoded once per socket. The memo
decodes it once per process and hands every socket the same object (see ``deserialize``).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts
from redis import asyncio as aioredis


class _Shard(RedisSingleShardConnection):
    """One host's connections for one event loop, from a blocking pool."""

    def _ensure_redis(self) -> None:
        if self._redis is None:
            host = dict(self.host)
            address = host.pop("address")
            pool = aioredis.BlockingConnectionPool.from_url(address, **host)
            self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = self._redis.pubsub()


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(kwargs.get("hosts"))]


# Messages whose decoding is kept. A group message is read from every local channel's queue
# within moments of its arrival, so only the last few are ever asked for again; a message read
# later than DECODED_KEPT others is decoded again (correct, only slower).
DECODED_KEPT = 256


class SahratChannelLayer(RedisPubSubChannelLayer):
    """RedisPubSubChannelLayer with blocking pools, the read-timeout guard
    (settings.CHANNEL_LAYERS) and one decoding of a message per process."""

    # The longest read a channels-redis layer blocks on (the core layer's BZPOPMIN); the
    # pub/sub reader's own is 0.1 s.
    brpop_timeout = 5

    def __init__(self, *args: Any, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, hosts=hosts, **kwargs)
        self.hosts = decode_hosts(hosts)
        self._decoded: OrderedDict[int, tuple[bytes, Any]] = OrderedDict()
        self._decoded_lock = threading.Lock()
        for host in self.hosts:
            timeout = host.get("socket_timeout")
            # A read timeout at or below the blocking pop's ends every socket after ~5 s.
            if timeout is not None and timeout <= self.brpop_timeout:
                raise ValueError(
                    f"socket_timeout ({timeout} s) must exceed the blocking pop "
                    f"({self.brpop_timeout} s)"
                )

    def deserialize(self, message: bytes) -> Any:
        """The message decoded, once for each bytes object the reader received: every local
        channel of a group gets the same object from its queue (channels_redis.pubsub,
        ``_receive_message``), so every socket of this process is handed the same decoded
        event. The memo is keyed by the bytes' identity and holds the bytes themselves, so an
        id is never reused while its entry lives; two publishes of equal bytes are two objects,
        decoded apart (a channel's own message, sent to it alone, is decoded once as before).

        Safe only because no socket changes an event it is handed: every handler reads its
        event and never writes to it (realtime/consumer.py, games/consumers.py,
        social/consumers.py). A handler that needs to change one copies it first."""
        key = id(message)
        with self._decoded_lock:  # one layer object serves every event loop of the process
            kept = self._decoded.get(key)
            if kept is not None and kept[0] is message:
                return kept[1]
        decoded = super().deserialize(message)
        with self._decoded_lock:
            self._decoded[key] = (message, decoded)
            while len(self._decoded) > DECODED_KEPT:
                self._decoded.popitem(last=False)  # the oldest first
        return decoded

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
