"""A player locked out for leaving, sitting over the table socket (the page's "sit" button):
refused with the time left in their language, the socket kept open, no seat taken."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.utils import timezone

from games.models import Match, Seat
from standing.models import PlayerStanding
from tests.tables.helpers import make_table
from tests.tables.test_consumers import connect, next_state
from tests.wallet.test_socket import _error, _sit_frame

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_locked_out_player_is_told_until_when_over_the_socket(django_user_model):
    def setup():
        host = django_user_model.objects.create_user("host_l", display_name="المضيف")
        gone = django_user_model.objects.create_user("gone", display_name="غائب")
        PlayerStanding.objects.create(
            user=gone, leaves=2, locked_until=timezone.now() + timedelta(minutes=10)
        )
        table = make_table(host, "jakaro", {"players": 2})
        return gone, table, Match.objects.get(table=table, number=1)

    gone, table, match = await database_sync_to_async(setup)()
    comm, connected, _ = await connect(gone, table.public_id)
    assert connected
    await next_state(comm)
    await comm.send_json_to(_sit_frame(match, gone))
    reply = await _error(comm)
    assert reply["code"] == "locked_out"
    assert reply["message"].startswith("غادرت عدة مباريات متتالية")
    assert "دقائق" in reply["message"]
    # The socket stays open: the table still answers.
    await comm.send_json_to({"type": "sync"})
    assert (await next_state(comm))["type"] == "state"
    await comm.disconnect()

    def after():
        assert not Seat.objects.filter(table=table, user=gone).exists()

    await database_sync_to_async(after)()
    await database_sync_to_async(connections.close_all)()
