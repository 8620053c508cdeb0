"""A broadcast racing a closing socket is not an error.

Daphne hands a frame to autobahn, which refuses it with ``Disconnected("Attempt to send on a
closed protocol")`` once the close handshake has begun (the client's close frame arrived, or this
side sent its own close), and Daphne delivers ``websocket.disconnect`` to the consumer only
later. A "table changed" arriving in between used to end the consumer with that exception, which
Daphne logs as "Exception inside application". Here the application runs behind a small stand-in
for Daphne's send that refuses frames the same way, over the real Redis channel layer."""

from __future__ import annotations

import asyncio
import logging
import weakref

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from daphne.ws_protocol import WebSocketProtocol as DaphneProtocol
from django.utils import translation

from games.models import Seat
from realtime import protocol
from realtime import redis as realtime_redis
from sahrat_site.asgi import application
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT, _cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class ClosingProtocol:
    """What Daphne's send does with a socket: frames pass while it is open; once the close
    handshake has begun (``client_closed``, or the application sent ``websocket.close``),
    autobahn refuses every frame with its own exception."""

    def __init__(self) -> None:
        self.closing = False
        self.refused = asyncio.Event()
        self.closes: list[int | None] = []

    def wrap(self, app):
        async def daphne_like(scope, receive, send):
            async def send_(message):
                if message["type"] == "websocket.close":
                    self.closes.append(message.get("code"))
                    self.closing = True
                elif message["type"] == "websocket.send" and self.closing:
                    self.refused.set()
                    raise Disconnected("Attempt to send on a closed protocol")
                await send(message)

            return await app(scope, receive, send_)

        return daphne_like


async def open_socket(user, path: str, protocol: ClosingProtocol) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        protocol.wrap(application),
        path,
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm


async def until(check, what: str) -> None:
    for _ in range(TIMEOUT * 20):
        if await database_sync_to_async(check)():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(what)


def errors_of(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("rendering", ["json", "html"])
async def test_a_table_change_racing_the_clients_close_is_dropped_quietly(
    creator, users, caplog, rendering
):
    caplog.set_level(logging.DEBUG)
    table = await database_sync_to_async(make_table)(creator, "jakaro", {"players": 2})
    await database_sync_to_async(seat_humans)(table, users[:2])
    protocol = ClosingProtocol()
    query = "?format=json" if rendering == "json" else ""
    comm = await open_socket(users[0], f"/ws/table/{table.public_id}/{query}", protocol)
    await comm.receive_output(timeout=TIMEOUT)  # the first state
    await until(
        lambda: Seat.objects.get(table=table, number=0).connected == 1, "the seat counts it"
    )

    # The player's close frame is in; before Daphne says so, the table changes.
    protocol.closing = True
    await get_channel_layer().group_send(table.group, {"type": "table.changed"})
    await asyncio.wait_for(protocol.refused.wait(), TIMEOUT)  # the consumer tried to send
    await asyncio.sleep(0.2)  # whatever it does next, it does now
    assert not comm.future.done(), comm.future.exception()  # the consumer lives on

    # Then Daphne delivers the disconnect: a clean end, the seat no longer counts the socket.
    await comm.send_input({"type": "websocket.disconnect", "code": 1001})
    await comm.wait(TIMEOUT)
    assert comm.future.exception() is None
    await until(
        lambda: Seat.objects.get(table=table, number=0).connected == 0, "the seat forgets it"
    )
    assert errors_of(caplog) == []


async def test_a_change_after_the_server_closed_the_socket_sends_nothing(
    creator, users, caplog, settings
):
    """Past the rate limit the server says why and closes (4429); a table change that comes
    before the disconnect is not sent on the closing socket."""
    caplog.set_level(logging.DEBUG)
    settings.WS_RATE_PER_S, settings.WS_RATE_BURST = 1, 2
    table = await database_sync_to_async(make_table)(creator, "jakaro", {"players": 2})
    protocol = ClosingProtocol()
    comm = await open_socket(users[0], f"/ws/table/{table.public_id}/?format=json", protocol)
    await comm.receive_json_from(timeout=TIMEOUT)  # the first state
    for n in range(5):
        await comm.send_json_to({"type": "ping", "seq": n})
    while (await comm.receive_output(timeout=TIMEOUT))["type"] != "websocket.close":
        pass  # pongs, then the refusal's words
    assert protocol.closes == [4429]
    await get_channel_layer().group_send(table.group, {"type": "table.changed"})
    await asyncio.sleep(0.5)  # the change is handled (or would have been sent) by now
    assert not protocol.refused.is_set()  # nothing was even tried on the closing socket
    assert not comm.future.done(), comm.future.exception()
    await comm.send_input({"type": "websocket.disconnect", "code": 4429})
    await comm.wait(TIMEOUT)
    assert comm.future.exception() is None
    assert errors_of(caplog) == []


async def test_the_lobby_socket_drops_a_change_racing_its_close(users, caplog):
    caplog.set_level(logging.DEBUG)
    protocol = ClosingProtocol()
    comm = await open_socket(users[0], "/ws/majlis/", protocol)
    assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "hello"
    protocol.closing = True
    await get_channel_layer().group_send("majlis", {"type": "majlis.changed"})
    await asyncio.wait_for(protocol.refused.wait(), TIMEOUT)
    await asyncio.sleep(0.2)
    assert not comm.future.done(), comm.future.exception()
    await comm.send_input({"type": "websocket.disconnect", "code": 1000})
    await comm.wait(TIMEOUT)
    assert comm.future.exception() is None
    assert errors_of(caplog) == []


def daphne_close(app):
    """The application behind Daphne's own close: a ``websocket.close`` goes through Daphne's
    ``serverClose`` into autobahn's ``sendClose``, which raises for a code it may not send
    (anything but 1000 and 3000-4999); the application then dies with that exception, as it does
    inside Daphne, and the browser sees 1011 instead of the code the server chose."""
    autobahn_side = DaphneProtocol()
    autobahn_side.sendFrame = lambda **frame: None  # no transport: only the check matters
    autobahn_side.closeHandshakeTimeout = 0

    async def daphne_like(scope, receive, send):
        async def send_(message):
            if message["type"] == "websocket.close":
                autobahn_side.state = autobahn_side.STATE_OPEN
                autobahn_side.serverClose(message.get("code"))
            await send(message)

        return await app(scope, receive, send_)

    return daphne_like


@pytest.mark.parametrize("path", ["/ws/table/{table}/?format=json", "/ws/majlis/"])
async def test_a_socket_the_server_cannot_set_up_closes_with_a_code_daphne_can_send(
    creator, users, settings, monkeypatch, path
):
    """Redis unreachable while a socket is set up: the player is told `unavailable` and the
    socket closes with the documented "try again later" code, which Daphne's autobahn sends."""
    table = await database_sync_to_async(make_table)(creator, "hand", {"players": 2})
    cookie = await database_sync_to_async(_cookie)(users[0])
    # Nothing listens on port 1; this loop gets a fresh client for the unreachable Redis.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    monkeypatch.setattr(realtime_redis, "_clients", weakref.WeakKeyDictionary())
    comm = WebsocketCommunicator(
        daphne_close(application),
        path.format(table=table.public_id),
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # accepted first, so the refusal can say why
    error = await comm.receive_json_from(timeout=TIMEOUT)
    assert error["type"] == "error" and error["code"] == "unavailable", error
    # In the player's language, whatever language an earlier test left active in this process.
    with translation.override(users[0].language):
        assert error["message"] == str(protocol.ERRORS["unavailable"])
    out = await comm.receive_output(timeout=TIMEOUT)
    assert out == {"type": "websocket.close", "code": protocol.CLOSE_TRY_AGAIN}
    await comm.send_input({"type": "websocket.disconnect", "code": protocol.CLOSE_TRY_AGAIN})
    await comm.wait(TIMEOUT)
    assert comm.future.exception() is None
