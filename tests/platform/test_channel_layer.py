"""The channel layer against the real Redis: a group message reaches every channel of the group
in this process as one decoded object, decoded once (realtime/channel_layer.py); a channel's own
message still arrives."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from django.conf import settings

from realtime.channel_layer import SahratChannelLayer

pytestmark = pytest.mark.asyncio
TIMEOUT = 10


@pytest.fixture
async def layer() -> AsyncIterator[tuple[SahratChannelLayer, list[Any]]]:
    """A layer of its own (nothing decoded yet) on the tests' Redis, whose decoder counts the
    messages it decodes."""
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    config["prefix"] = f"{config.get('prefix', 'sahrat')}-layer-test"
    made = SahratChannelLayer(**config)
    decoded: list[Any] = []
    decode = made._serializer.from_bytes

    def counted(data: bytes) -> Any:
        decoded.append(data)
        return decode(data)

    made._serializer.from_bytes = counted  # the instance's, read by the serializer's deserialize
    yield made, decoded
    await made.flush()


async def test_a_group_message_is_decoded_once_and_shared_by_the_channels_of_a_process(layer):
    made, decoded = layer
    first, second = await made.new_channel(), await made.new_channel()
    await made.group_add("table.layer-test", first)
    await made.group_add("table.layer-test", second)
    event = {"type": "table.changed", "seq": 3, "public": {"chat": [{"id": 1, "text": "سلام"}]}}
    await made.group_send("table.layer-test", event)

    a = await asyncio.wait_for(made.receive(first), TIMEOUT)
    b = await asyncio.wait_for(made.receive(second), TIMEOUT)
    assert a == event
    assert a is b  # one object for both sockets
    assert len(decoded) == 1  # decoded once

    # The next message is a new object, decoded once again (the memo does not mix them up).
    await made.group_send("table.layer-test", {**event, "seq": 4})
    c = await asyncio.wait_for(made.receive(first), TIMEOUT)
    d = await asyncio.wait_for(made.receive(second), TIMEOUT)
    assert c["seq"] == d["seq"] == 4 and c is d and c is not a
    assert len(decoded) == 2


async def test_a_channels_own_message_still_arrives(layer):
    made, decoded = layer
    mine, other = await made.new_channel(), await made.new_channel()
    await made.send(mine, {"type": "socket.close", "code": 4000})
    got = await asyncio.wait_for(made.receive(mine), TIMEOUT)
    assert got == {"type": "socket.close", "code": 4000}
    assert len(decoded) == 1
    # Another channel is sent nothing of it.
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(made.receive(other), 0.3)
