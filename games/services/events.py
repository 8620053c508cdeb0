"""What a table's services send after commit: the table's "changed" event, the lobby's notice.

Nothing is sent from inside a transaction: each send is queued with ``transaction.on_commit``,
so a refused or rolled-back change tells nobody anything, and a lost message is repaired by the
clients' seq rules.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

from asgiref.sync import SyncToAsync
from cachetools import FIFOCache
from channels.layers import get_channel_layer
from django.db import transaction

from games import selectors, snapshots
from games.models import Match, MatchSeed, Seat, Table

log = logging.getLogger(__name__)


def group_send(layer: Any, group: str, event: dict[str, Any]) -> None:
    """Publish a group message after commit. In the web server the service runs in a worker
    thread of the server's event loop (``database_sync_to_async``): the publish is handed to
    that loop and not waited for. Waiting held the thread for nothing (the change is committed),
    and for ever once the loop had stopped: a socket closing as Daphne got SIGTERM kept it from
    exiting until it was killed. Anywhere else (Celery, commands, tests) it is waited for, on the
    process's own publishing loop (``_own_loop``)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    here = getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()
    try:
        asyncio.get_running_loop()
        in_a_loop = True
    except RuntimeError:
        in_a_loop = False
    try:
        if loop is not None and here and not in_a_loop:
            if loop.is_running():
                done = asyncio.run_coroutine_threadsafe(layer.group_send(group, event), loop)
                done.add_done_callback(functools.partial(_published, group))
            else:  # the server is stopping: the other processes' sockets still get it
                asyncio.run(layer.group_send(group, event))
            return
        # Sync code on a thread whose own loop is running (Playwright's sync API, say) waits on
        # the publishing loop too: async_to_sync refuses to run there at all, and the lobby's
        # notice was lost.
        publish = asyncio.run_coroutine_threadsafe(layer.group_send(group, event), _own_loop())
        publish.result(timeout=PUBLISH_WAIT_S)
    except Exception as exc:
        log.warning("broadcast to %s failed: %r", group, exc)


# A process with no server loop (the Celery worker, a command, the tests) publishes on one loop
# of its own, in a thread of its own, for its whole life. async_to_sync made a new loop and a new
# thread for each publish, and so a new Redis connection (channels_redis keeps its connections
# per loop): about a fifth of a move's time in the worker that plays the bots and time-outs.
PUBLISH_WAIT_S = 10.0
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()


def _own_loop() -> asyncio.AbstractEventLoop:
    """This process's publishing loop, started at its first publish (after a fork: anew)."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            thread = threading.Thread(target=_loop.run_forever, name="sahrat-publish", daemon=True)
            thread.start()
        return _loop


def _published(group: str, done: concurrent.futures.Future) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.warning("broadcast to %s failed: %r", group, done.exception())


@dataclass
class RowsInHand:
    """Rows a move's transaction has read already: the table's seats with their users (in seat
    order) and the match's seeds (in seat order). The move plays from them, and its broadcast
    makes the table's shared picture from them without reading anything again."""

    seats: list[Seat]
    seeds: list[MatchSeed]

    @classmethod
    def read(cls, match: Match) -> RowsInHand:
        return cls(selectors.seats_with_players(match.table_id), _seeds_of(match))


# A playing match's seeds never change (they are all in before it starts), so each process
# reads them once per match instead of once per move.
SEEDS_CACHE_SIZE = 4096
_seeds: FIFOCache[int, list[MatchSeed]] = FIFOCache(maxsize=SEEDS_CACHE_SIZE)


def _seeds_of(match: Match) -> list[MatchSeed]:
    if match.status != Match.Status.PLAYING:
        return list(match.seeds.order_by("seat"))
    rows = _seeds.get(match.pk)
    if rows is None:
        rows = _seeds[match.pk] = list(match.seeds.order_by("seat"))  # the oldest goes if full
    return rows


def broadcast(table: Table, match: Match, *, rows: RowsInHand | None = None) -> None:
    """After commit: tell everyone at the table that it changed. The event carries what every
    viewer shares (games.selectors.table_public: no hand, no secret before its reveal); the
    match's snapshot goes to Redis for the sockets to make their own seat's view from
    (games/snapshots.py). Never a hand in the group's message.

    ``rows``: the rows a move's transaction already holds (its seats with their users, the match
    it changed and that match's seeds). The shared part is then made from them now, inside the
    transaction, with no query at all: a move is the commonest change, and re-reading the table
    for it cost Daphne about a third of its CPU per move (bench.rooms). Without it the shared
    part is read after commit."""
    group, table_pk, seq, public_id = table.group, table.pk, match.seq, match.public_id
    ready: tuple[dict[str, Any], Match] | None = None
    if rows is not None:
        ready = selectors.public_and_shown(table, seats=rows.seats, match=match, seeds=rows.seeds)

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        event: dict[str, Any] = {"type": "table.changed", "seq": seq, "match": public_id}
        try:
            # Re-read unless in hand: the caller's table row may predate what the transaction
            # changed.
            public, shown = ready or selectors.public_and_shown(Table.objects.get(pk=table_pk))
            if shown.snapshot:
                snapshots.publish(shown.public_id, shown.seq, shown.snapshot)
            event["public"] = public
        except Exception as exc:  # the sockets read the table from the database instead
            log.warning("table %s: no shared state for the broadcast: %r", group, exc)
        group_send(layer, group, event)  # a lost one is repaired by the clients' seq rules

    transaction.on_commit(send)


def broadcast_lobby() -> None:
    """After commit: tell the lobby's sockets that the list of tables changed."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            group_send(layer, "majlis", {"type": "majlis.changed"})

    transaction.on_commit(send)


def presence_changed(*user_ids: int) -> None:
    """After commit: where these players are changed (they sat, stood up, a match of theirs
    started or ended, a table page of theirs opened or closed); each one's presence group
    (``presence.<id>``, joined by the lobby sockets of the friends who may see them) is told.
    The games never read who follows whom."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            for user_id in set(user_ids):
                group_send(layer, f"presence.{user_id}", _presence_event(user_id))

    transaction.on_commit(send)


async def presence_changed_async(layer: Any, user_id: int) -> None:
    """``presence_changed`` from a socket (a lobby socket opened or closed: online or not)."""
    if layer is not None:
        await layer.group_send(f"presence.{user_id}", _presence_event(user_id))


def _presence_event(user_id: int) -> dict[str, Any]:
    return {"type": "presence.changed", "user": user_id}
