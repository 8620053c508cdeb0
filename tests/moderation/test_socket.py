"""Moderation over the table's socket: a player under a chat timeout is told why and until when
when they write, and still plays; a masked line reaches the others starred; a mute and the panic
switch redraw the muter's chat at once, and only theirs."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

import games
from moderation import rules
from moderation.models import BannedWord
from social import moderation as services
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT, connect, next_state, state_at

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def error_frame(comm) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "error":
            return frame


async def chat_of(comm, want: list[str]) -> list[str]:
    """The chat texts of the next states, until they are ``want`` (the frames in between may
    be the move's)."""
    for _ in range(20):
        texts = [line["text"] for line in (await next_state(comm))["chat"]]
        if texts == want:
            return texts
    return texts


async def test_a_timed_out_player_is_told_why_and_until_when_and_still_plays(
    users, fast_clocks, django_user_model
):
    a, b = users[:2]

    def setup():
        BannedWord.objects.all().delete()
        BannedWord.objects.create(text="stupid", severity="mask")
        rules.forget_words()
        staff = django_user_model.objects.create_superuser("mod", password="x-Long-pass-123")
        table = make_table(a, "jakaro", {"players": 2})
        seat_humans(table, [a, b])
        services.time_out(staff=staff, player=b, length="1h", reason="Insults in chat")
        return table

    table = await database_sync_to_async(setup)()
    ca, _, _ = await connect(a, table.public_id)
    cb, _, _ = await connect(b, table.public_id)
    sa, sb = await next_state(ca), await next_state(cb)
    await cb.send_json_to({"type": "chat", "text": "hello"})
    refused = await error_frame(cb)
    assert refused["code"] == "chat_timeout" and "Insults in chat" in refused["message"]
    # A masked line from the other player reaches both starred.
    await ca.send_json_to({"type": "chat", "text": "stupid luck"})
    assert await chat_of(cb, ["****** luck"]) == ["****** luck"]
    # The timed-out player moves as before.
    turn = sa["view"]["turn"]
    mover, view = (ca, sa["view"]) if turn == 0 else (cb, sb["view"])
    await mover.send_json_to(
        {"type": "move", "seq": sa["match"]["seq"], "action": games.get("jakaro").bot_action(view)}
    )
    after = await state_at(cb, sa["match"]["seq"] + 1)
    assert after["match"]["seq"] == sa["match"]["seq"] + 1
    rules.forget_words()
    for comm in (ca, cb):
        await comm.disconnect()


async def test_a_mute_and_the_panic_switch_redraw_only_the_muters_chat(users):
    a, b, watcher = users[:3]

    def setup():
        table = make_table(a, "hand", {"players": 2})
        seat_humans(table, [a, b])
        return table

    table = await database_sync_to_async(setup)()
    ca, _, _ = await connect(a, table.public_id)
    cw, _, _ = await connect(watcher, table.public_id)
    await next_state(ca), await next_state(cw)
    await ca.send_json_to({"type": "chat", "text": "hi"})
    assert await chat_of(cw, ["hi"]) == ["hi"]
    mute = database_sync_to_async(services.mute)
    await mute(user=watcher, username=a.username, table_id=table.public_id)
    assert await chat_of(cw, []) == []
    await ca.send_json_to({"type": "chat", "text": "still here"})
    assert await chat_of(ca, ["hi", "still here"]) == ["hi", "still here"]
    await database_sync_to_async(services.unmute)(
        user=watcher, username=a.username, table_id=table.public_id
    )
    assert await chat_of(cw, ["hi", "still here"]) == ["hi", "still here"]
    await database_sync_to_async(services.set_hide_chat)(user=a, hide=True)
    state = await next_state(ca)
    assert state["chat"] == [] and state["you"]["chat_off"] is True
    await database_sync_to_async(services.set_hide_chat)(user=a, hide=False)
    assert await chat_of(ca, ["hi", "still here"]) == ["hi", "still here"]
    for comm in (ca, cw):
        await comm.disconnect()
