"""This web process's part in seat presence (games/services/presence.py).

A seat's ``connected`` counts its player's open sockets, per web process (``Presence`` rows).
A Daphne process that is killed, crashes or is stopped for a deploy closes its sockets without
telling anyone, so each process says it is alive every PRESENCE_BEAT_S (``WebProcess``), and the
sweeper takes the sockets of a process silent for PRESENCE_LEASE_S off the seats. Before that,
one restart left every seated player "connected" for good: never away, never replaced by a bot.

This module keeps the process's name, the sockets it has open (so that a process found gone
after a long stall can count them again) and the beat, an asyncio task started by the first
socket. Each socket also says the process is alive just before it counts, so no presence row is
ever written for a process the sweeper would take for gone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
import weakref
from collections import Counter

from channels.db import database_sync_to_async
from django.conf import settings

from games import services

log = logging.getLogger(__name__)

PROCESS = f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

# (table public id, user pk) -> sockets this process has open there.
_open: Counter[tuple[str, int]] = Counter()
# The beat, per event loop (one in a Daphne process; a test run makes a loop per test).
_beats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task] = (
    weakref.WeakKeyDictionary()
)


async def _say_alive() -> None:
    """One beat; if this process had been found gone (a stall longer than the lease), its open
    sockets are counted again."""
    seen = database_sync_to_async(services.process_seen, thread_sensitive=False)
    if await seen(process=PROCESS) and _open:
        restore = dict(_open)
        await database_sync_to_async(services.sockets_restored, thread_sensitive=False)(
            process=PROCESS, sockets=restore
        )


async def _beating() -> None:
    while True:
        await asyncio.sleep(settings.PRESENCE_BEAT_S)
        try:
            await _say_alive()
        except Exception:  # the database may be away for a moment: try again next beat
            log.exception("presence beat failed")


async def ensure_beating() -> None:
    """Before each socket counts: this process is known alive (its row may have been taken by
    the sweeper after a stall, and then its other sockets count again), and its beat runs. One
    small UPDATE per socket opened."""
    await _say_alive()
    loop = asyncio.get_running_loop()
    if loop not in _beats:
        _beats[loop] = loop.create_task(_beating())


def opened(table_id: str, user_pk: int | None) -> None:
    if user_pk is not None:
        _open[(table_id, user_pk)] += 1


def closed(table_id: str, user_pk: int | None) -> None:
    key = (table_id, user_pk)
    if user_pk is not None and _open[key] > 0:
        _open[key] -= 1
        if not _open[key]:
            del _open[key]
