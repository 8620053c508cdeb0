"""The watchers' chat: a watcher's line goes to the watchers' chat, which watchers read at once
and players only between rounds and matches; the players' team chat never reaches a watcher."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connections

from games import selectors
from games import services as game_services
from games.models import Match, Table
from tests.standing.test_rebuild import bots_play_to_the_end
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import connect, next_state

pytestmark = pytest.mark.django_db


def texts(table: Table, user) -> list[str]:
    table.refresh_from_db()
    return [line["text"] for line in selectors.table_state(table, user)["chat"]]


def test_players_read_the_watchers_only_between_matches(users):
    a, b, c, d, watcher = users[:5]
    table = make_table(a, "jakaro", {"players": 4})
    seat_humans(table, [a, b, c, d])
    game_services.chat_post(user=a, table_id=table.public_id, text="hello all")
    game_services.chat_post(user=a, table_id=table.public_id, text="our plan", team=True)
    line = game_services.chat_post(user=watcher, table_id=table.public_id, text="nice move")
    assert line.watchers and line.team is None
    # During the match: the watcher reads the table and the watchers; the players not the
    # watchers; nobody but the team its team's line.
    assert texts(table, watcher) == ["hello all", "nice move"]
    assert texts(table, b) == ["hello all"]
    assert texts(table, c) == ["hello all", "our plan"]
    watcher_state = selectors.table_state(table, watcher)
    assert [line["watchers"] for line in watcher_state["chat"]] == [False, True]
    # A watcher has no team chat.
    with pytest.raises(game_services.TableError):
        game_services.chat_post(user=watcher, table_id=table.public_id, text="x", team=True)
    # After the match, the players read the watchers too.
    bots_play_to_the_end(Match.objects.get(table=table, number=1))
    assert texts(table, b) == ["hello all", "nice move"]


def test_at_a_private_table_only_those_who_may_watch_write(users):
    a, b, stranger = users[:3]
    table = make_table(a, "jakaro", {"players": 2}, private=True)
    seat_humans(table, [b])
    with pytest.raises(game_services.TableError) as refused:
        game_services.chat_post(user=stranger, table_id=table.public_id, text="hi")
    assert refused.value.code == "not_seated"
    assert game_services.chat_post(user=a, table_id=table.public_id, text="hi").watchers
    # Whoever came with the table's invite link watches, and so writes; a wrong token is
    # nothing.
    table.refresh_from_db()
    with pytest.raises(game_services.TableError):
        game_services.chat_post(user=stranger, table_id=table.public_id, text="hi", invite="x")
    line = game_services.chat_post(
        user=stranger, table_id=table.public_id, text="hello", invite=table.invite_token
    )
    assert line.watchers and texts(table, stranger)[-1] == "hello"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_invited_watcher_writes_over_the_socket_of_the_invite_link(users):
    a, b, guest = users[:3]

    def setup():
        table = make_table(a, "jakaro", {"players": 2}, private=True)
        seat_humans(table, [b])
        return table

    table = await database_sync_to_async(setup)()
    comm, connected, _ = await connect(guest, table.public_id, query=f"invite={table.invite_token}")
    assert connected
    await next_state(comm)
    await comm.send_json_to({"type": "chat", "text": "good luck"})
    while not (state := await next_state(comm))["chat"]:
        pass
    assert [(line["text"], line["watchers"]) for line in state["chat"]] == [("good luck", True)]
    await comm.disconnect()
    await database_sync_to_async(connections.close_all)()
