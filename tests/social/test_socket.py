"""Friends' presence live over the lobby socket (/ws/majlis/): a friend coming online, sitting
down, starting to play, and hiding their presence; a player who blocked or who is not a friend
is told nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from sahrat_site.asgi import application
from social import services
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT, _cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def majlis_socket(user, path: str = "/ws/majlis/") -> tuple[WebsocketCommunicator, dict]:
    """A lobby socket of ``user`` (``path``: with its query, "?only=notices"), and its first
    frame."""
    cookie = await database_sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm, await comm.receive_json_from(timeout=TIMEOUT)


async def lobby(user, path: str = "/ws/majlis/") -> WebsocketCommunicator:
    comm, first = await majlis_socket(user, path)
    assert first["type"] == "hello"
    return comm


async def told(comm) -> bool:
    """A frame says the friends list changed (the lobby's own "majlis_changed" skipped)."""
    while True:
        kind = (await comm.receive_json_from(timeout=TIMEOUT))["type"]
        if kind != "majlis_changed":
            return kind == "friends_changed"


async def not_told(comm) -> bool:
    """No "friends_changed" for a moment (receive_nothing leaves the socket running, where a
    timed-out receive would cancel it; the lobby's own frames are skipped)."""
    while not await comm.receive_nothing(timeout=1.5):
        if (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "friends_changed":
            return False
    return True


async def test_a_friends_presence_reaches_the_lobby_socket(users):
    a, b, c = users[:3]

    def setup():
        for x, y in ((a, b), (b, a), (c, a)):  # a and b friends; c follows a only
            services.follow(user=x, username=y.username)

    await database_sync_to_async(setup)()
    sara = await lobby(a)
    stranger = await lobby(c)
    omar = await lobby(b)  # b online: a is told, c (who a does not follow back) is not
    assert await told(sara)
    assert await not_told(stranger)

    def sit():
        table = make_table(c, "jakaro", {"players": 2})
        seat_humans(table, [b])

    await database_sync_to_async(sit)()
    assert await told(sara)  # b at a table now

    await database_sync_to_async(services.set_hide_presence)(user=b, hide=True)
    assert await told(sara)  # the list changed (b hidden): a's socket stops following b
    await omar.disconnect()
    assert await not_told(sara)  # b went offline, hidden: nothing
    for comm in (sara, stranger):
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()
