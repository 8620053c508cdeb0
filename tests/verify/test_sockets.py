"""The table and majlis sockets during a running match, as each seated player, a spectator and
staff, in both renderings (JSON and HTML): the match's secret is in no frame."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Match
from sahrat_site.asgi import application
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT, _cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _frames(user, path: str) -> list[str]:
    """What a socket sends on its own after connecting, up to the whole state: on the table
    socket's JSON rendering ``hello`` and then the state (docs/protocol.md); on its HTML
    rendering the state's fragment (hello has nothing to show); on the lobby socket ``hello``."""
    cookie = await database_sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected, path
    frames = [await comm.receive_from(timeout=TIMEOUT)]
    if path.endswith("?format=json"):
        assert json.loads(frames[0])["type"] == "hello", frames[0]
        frames.append(await comm.receive_from(timeout=TIMEOUT))
        assert json.loads(frames[1])["type"] == "state", frames[1]
    elif path.startswith("/ws/table/"):
        assert 'id="table-live"' in frames[0], frames[0]
    else:
        assert json.loads(frames[0])["type"] == "hello", frames[0]
    await comm.disconnect()
    return frames


async def test_no_socket_frame_holds_the_secret_of_a_running_match(
    creator, users, fast_clocks, django_user_model
):
    def setup():
        table = make_table(creator, "hand", {"players": 2})
        seat_humans(table, users[:2])
        staff = django_user_model.objects.create_superuser("boss", "b@example.com", "x-Pass-12")
        return table, Match.objects.get(table=table), staff

    table, match, staff = await database_sync_to_async(setup)()
    states = 0
    for user in (users[0], users[1], users[3], staff):
        json_state = (await _frames(user, f"/ws/table/{table.public_id}/?format=json"))[-1]
        html_state = (await _frames(user, f"/ws/table/{table.public_id}/"))[-1]
        # The state of the running match (the frame the secret could leak in), never the secret.
        state = json.loads(json_state)
        assert state["match"]["id"] == match.public_id and state["match"]["status"] == "playing"
        assert state["match"]["commitment"] == match.commitment
        for frame in (json_state, html_state):
            assert match.secret not in frame
            states += 1
        for frame in await _frames(user, "/ws/majlis/"):
            assert match.secret not in frame
    assert states == 8
