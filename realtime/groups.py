"""The channel-layer groups and the message types each one carries: the one list the senders and
the sockets agree on (issue 57, item 11: a type sent to ``user.<id>`` that one of the sockets
there had no handler for closed that socket).

A sender makes its event with ``<GROUP>.event(type, ...)`` and publishes it with ``send``, which
refuses a type its group does not carry; a socket names the groups it joins (``joins`` on
realtime.consumer.SahratConsumer), and tests/platform/test_groups.py checks that every socket
has a handler for every type of every group it joins, and that no code sends past this list.

``send`` is also where a group message is published from synchronous code after commit (moved
here from games/services/events.py, so the ledger, which imports no table code, can use it).
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

log = logging.getLogger(__name__)


class UnknownMessage(ValueError):
    """A message type its group does not carry (a bug in the sender, never a player's input)."""


@dataclass(frozen=True)
class Group:
    """A kind of group: its name is ``prefix`` alone, or ``prefix.<key>`` when ``keyed``."""

    prefix: str
    keyed: bool
    types: tuple[str, ...]

    def name(self, key: Any = None) -> str:
        if self.keyed != (key is not None):
            raise ValueError(f"group {self.prefix!r} {'needs' if self.keyed else 'takes no'} key")
        return f"{self.prefix}.{key}" if self.keyed else self.prefix

    def owns(self, name: str) -> bool:
        """Is ``name`` a group of this kind?"""
        if not self.keyed:
            return name == self.prefix
        return name.startswith(self.prefix + ".") and len(name) > len(self.prefix) + 1

    def event(self, type_: str, **fields: Any) -> dict[str, Any]:
        """A message of ``type_`` for a group of this kind (refused if it does not carry it)."""
        if type_ not in self.types:
            raise UnknownMessage(f"group {self.prefix!r} carries no {type_!r}")
        return {"type": type_, **fields}


# The lobby's list of tables changed.
MAJLIS = Group("majlis", keyed=False, types=("majlis.changed",))
# Everyone at a table (players and watchers): it changed; or close these sockets (an operator,
# the tests).
TABLE = Group("table", keyed=True, types=("table.changed", "socket.close"))
# Every open page of one player (lobby, notices-only pages, tables): a notice (an invitation,
# its answer), their friends or blocks changed, their chat hides changed, their coins moved
# (wallet/ledger.py).
USER = Group(
    "user",
    keyed=True,
    types=("notice", "friends.changed", "chat.hides.changed", "coins.changed"),
)
# Where one player is changed (joined by the lobby sockets of the friends who may see them).
PRESENCE = Group("presence", keyed=True, types=("presence.changed",))

GROUPS: tuple[Group, ...] = (MAJLIS, TABLE, USER, PRESENCE)


def group_of(name: str) -> Group:
    """The kind of the group called ``name``."""
    for group in GROUPS:
        if group.owns(name):
            return group
    raise UnknownMessage(f"no such group: {name!r}")


def check(name: str, event: dict[str, Any]) -> None:
    """Refuse an event the group ``name`` does not carry."""
    kind = group_of(name)
    if event.get("type") not in kind.types:
        raise UnknownMessage(f"group {name!r} carries no {event.get('type')!r}")


async def send_async(layer: Any, name: str, event: dict[str, Any]) -> None:
    """Publish from async code (a socket)."""
    check(name, event)
    await layer.group_send(name, event)


def send(layer: Any, group: str, event: dict[str, Any]) -> None:
    """Publish a group message after commit. In the web server the service runs in a worker
    thread of the server's event loop (``database_sync_to_async``): the publish is handed to
    that loop and not waited for. Waiting held the thread for nothing (the change is committed),
    and for ever once the loop had stopped: a socket closing as Daphne got SIGTERM kept it from
    exiting until it was killed. Anywhere else (Celery, commands, tests) it is waited for, on the
    process's own publishing loop (``_own_loop``)."""
    check(group, event)  # before the try: a sender's bug is loud, not a logged warning
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
