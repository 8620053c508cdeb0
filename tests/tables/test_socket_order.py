"""Two changes that leave the match's seq alone (a seat's presence, a chat line), broadcast from
two threads, may reach a socket in either order. The socket keeps the one read last: a player
whose page reconnected saw their own seat stay "away" when the old socket's "away" picture came
in after the new socket's "back" one (the reconnect browser test, on loaded cores)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games import selectors
from games.models import Seat, Table
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT
from tests.tables.test_socket_close import ClosingProtocol, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _public_with_seat_one(here: bool, table_pk: int) -> dict:
    """The shared picture read with seat 1 present or away."""
    seat = Seat.objects.get(table_id=table_pk, number=1)
    seat.connected, seat.away_since = (1, None) if here else (0, timezone.now())
    seat.save(update_fields=["connected", "away_since"])
    return selectors.table_picture(Table.objects.get(pk=table_pk)).to_wire()


async def test_of_two_pictures_at_the_same_seq_the_one_read_later_stays(creator, users):
    table = await database_sync_to_async(make_table)(creator, "jakaro", {"players": 2})
    await database_sync_to_async(seat_humans)(table, users[:2])
    path = f"/ws/table/{table.public_id}/?format=json"
    comm = await open_socket(users[0], path, ClosingProtocol())
    first = await comm.receive_json_from(timeout=TIMEOUT)
    while first.get("type") != "state":
        first = await comm.receive_json_from(timeout=TIMEOUT)

    away = await database_sync_to_async(_public_with_seat_one)(False, table.pk)
    back = await database_sync_to_async(_public_with_seat_one)(True, table.pk)
    assert away["match"]["seq"] == back["match"]["seq"]  # nothing but presence changed
    layer = get_channel_layer()
    await layer.group_send(table.group, {"type": "table.changed", "picture": back})
    shown = await comm.receive_json_from(timeout=TIMEOUT)
    assert shown["table"]["seats"][1]["away_since"] is None
    # The older picture arrives last: not sent, the page keeps the seat present.
    await layer.group_send(table.group, {"type": "table.changed", "picture": away})
    assert await comm.receive_nothing(timeout=0.5)

    # In the other order both are sent, the later last.
    again = await database_sync_to_async(_public_with_seat_one)(False, table.pk)
    await layer.group_send(table.group, {"type": "table.changed", "picture": again})
    shown = await comm.receive_json_from(timeout=TIMEOUT)
    assert shown["table"]["seats"][1]["away_since"] is not None
    await comm.disconnect()
