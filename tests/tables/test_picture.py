"""The table's picture (games/picture.py): plain data on the channel layer and the same picture
again on the other side, made once per change in a process and shared by its sockets."""

from __future__ import annotations

import asyncio
import dataclasses

import msgpack
import pytest
from channels.db import database_sync_to_async

import games
from games import selectors, viewers
from games import services as game_services
from games.models import Table
from games.picture import TablePicture, received
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import connect, next_state, state_at

pytestmark = pytest.mark.django_db


def _a_table_with_every_chat(users) -> Table:
    """Four seats in two teams, with a line of the table's chat, one of a team's, one of the
    watchers'."""
    a, _, _, _, watcher = users[:5]
    table = make_table(a, "jakaro", {"players": 4})
    seat_humans(table, users[:4])
    game_services.chat_post(user=a, table_id=table.public_id, text="hello all")
    game_services.chat_post(user=a, table_id=table.public_id, text="our plan", team=True)
    game_services.chat_post(user=watcher, table_id=table.public_id, text="nice move")
    table.refresh_from_db()
    return table


def test_the_picture_crosses_the_channel_layer_as_plain_data_and_comes_back_the_same(users):
    table = _a_table_with_every_chat(users)
    picture = selectors.table_picture(table)
    assert {line.line["text"] for line in picture.chat} == {"hello all", "our plan", "nice move"}
    assert [seat.user_id for seat in picture.seats] == [u.pk for u in users[:4]]
    assert len({seat.team for seat in picture.seats}) == 2
    # msgpack (the channel layer's encoding) packs it with no help: lists, dicts, text, numbers.
    wire = msgpack.unpackb(msgpack.packb(picture.to_wire()))
    again = TablePicture.from_wire(wire)
    assert again == picture
    # Every viewer's state is the same from either.
    for user in [*users[:5], None]:
        one, other = (
            viewers.viewer_state(p, user, table.created_by_id, None) for p in (picture, again)
        )
        assert {**one, "now": ""} == {**other, "now": ""}


def test_a_process_makes_each_change_s_picture_once(users):
    table = _a_table_with_every_chat(users)
    wire = selectors.table_picture(table).to_wire()
    # Two decodings of the same event (two processes' worth, or a memo that let go): one picture.
    first = received(msgpack.unpackb(msgpack.packb(wire)))
    assert received(msgpack.unpackb(msgpack.packb(wire))) is first
    # Another change (another reading of the table): another picture.
    later = received({**wire, "read_at": wire["read_at"] + 1})
    assert later is not first and later.read_at == first.read_at + 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_sockets_of_one_process_share_one_picture_of_a_move(users, monkeypatch):
    made: list[tuple] = []
    real = TablePicture.from_wire.__func__

    def counted(cls, data):
        picture = real(cls, data)
        made.append(picture.change)
        return picture

    monkeypatch.setattr(TablePicture, "from_wire", classmethod(counted))
    table = await database_sync_to_async(make_table)(users[0], "jakaro", {"players": 2})
    await database_sync_to_async(seat_humans)(table, users[:2])
    a, _, _ = await connect(users[0], table.public_id)
    b, _, _ = await connect(users[1], table.public_id)
    watcher, _, _ = await connect(users[2], table.public_id)
    sa, _, _ = await next_state(a), await next_state(b), await next_state(watcher)
    action = games.get("jakaro").bot_action(sa["view"])
    await a.send_json_to({"type": "move", "seq": 0, "action": action})
    after = [await state_at(c, 1) for c in (a, b, watcher)]
    assert {s["match"]["seq"] for s in after} == {1}
    await asyncio.sleep(0.2)  # any late change (a seat's presence) reaches every socket too
    moved = [change for change in made if change[2] == 1]
    assert moved, "the move's picture came over the channel layer"
    # Each change was made into a picture once, whatever the number of sockets it reached.
    assert len(made) == len(set(made))
    for comm in (a, b, watcher):
        await comm.disconnect()


def test_the_picture_of_a_finished_match_names_who_sat_where(users):
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    picture = selectors.table_picture(table)
    # While the match is played the seats are as they are: no other seating is kept.
    assert picture.shown_users is None and picture.shown is None
    assert picture.view_seat_of(b.pk) == picture.seat_of(b.pk) == 1
    assert picture.seat_of(users[4].pk) is None and picture.view_seat_of(None) is None
    moved = dataclasses.replace(picture, shown_users=(b.pk, a.pk))
    # Between matches the view is the one of the seat the player had in the match shown.
    assert moved.view_seat_of(a.pk) == 1 and moved.view_seat_of(users[4].pk) is None
