"""A blocked player's chat lines are hidden for the one who blocked them, on the page and live
on an open table socket, and for nobody else."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connections

from games import selectors
from games import services as game_services
from social import services
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import connect, next_state

pytestmark = pytest.mark.django_db


def texts(state: dict) -> list[str]:
    return [line["text"] for line in state["chat"]]


def test_the_blocked_players_lines_are_hidden_for_the_blocker_only(users):
    a, b, c = users[:3]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    game_services.chat_post(user=b, table_id=table.public_id, text="hello")
    game_services.chat_post(user=a, table_id=table.public_id, text="hi")
    services.block(user=a, username=b.username)
    table.refresh_from_db()
    assert texts(selectors.table_state(table, a)) == ["hi"]
    assert texts(selectors.table_state(table, b)) == ["hello", "hi"]
    assert texts(selectors.table_state(table, c)) == ["hello", "hi"]
    services.unblock(user=a, username=b.username)
    assert texts(selectors.table_state(table, a)) == ["hello", "hi"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_block_hides_the_lines_on_an_open_table_socket_at_once(users):
    a, b = users[:2]

    def setup():
        table = make_table(a, "jakaro", {"players": 2})
        seat_humans(table, [a, b])
        game_services.chat_post(user=b, table_id=table.public_id, text="hello")
        return table

    table = await database_sync_to_async(setup)()
    comm, connected, _ = await connect(a, table.public_id)
    assert connected
    assert texts(await next_state(comm)) == ["hello"]
    await database_sync_to_async(services.block)(user=a, username=b.username)
    assert texts(await next_state(comm)) == []
    await comm.disconnect()
    await database_sync_to_async(connections.close_all)()
