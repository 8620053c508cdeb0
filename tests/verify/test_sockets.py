"""The table and majlis sockets during a running match, as each seated player, a spectator and
staff, in both renderings (JSON and HTML): the match's secret is in no frame."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Match
from sahrat_site.asgi import application
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT, _cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _frames(user, path: str, count: int = 1) -> list[str]:
    """The frames a socket sends on its own after connecting (at most ``count``)."""
    cookie = await database_sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected, path
    frames = []
    for _ in range(count):
        if await comm.receive_nothing(timeout=2):
            break
        frames.append(await comm.receive_from(timeout=TIMEOUT))
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
    seen = 0
    for user in (users[0], users[1], users[3], staff):
        for fmt in ("?format=json", ""):
            frames = await _frames(user, f"/ws/table/{table.public_id}/{fmt}")
            assert frames, (user, fmt)
            for frame in frames:
                assert match.secret not in frame
                seen += 1
        for frame in await _frames(user, "/ws/majlis/"):
            assert match.secret not in frame
    assert seen >= 8
