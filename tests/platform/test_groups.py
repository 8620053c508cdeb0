"""Every socket handles every message type of every group it joins (issue 57, item 11: «أخفِ كل
الدردشة» sent ``chat.hides.changed`` to ``user.<id>``, which the lobby and notices sockets join
too and had no handler for: "No handler for message type", and the socket died).

The groups and their types are realtime/groups.py's registry; the senders make their events
from it and publish through it, which this file checks by reading the product's code (``ast``),
and a socket names the kinds of group it joins (``joins``), which its ``join`` enforces."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async

from realtime import groups
from realtime.consumer import SahratConsumer
from sahrat_site.routing import websocket_urlpatterns
from social import moderation
from tests.platform.test_layout import PRODUCT, ROOT, python_files
from tests.social.test_socket import lobby
from tests.tables.conftest import users  # noqa: F401
from tests.tables.helpers import make_table
from tests.tables.test_consumers import TIMEOUT, connect, next_state

REGISTRY = ROOT / "realtime" / "groups.py"
# The health check's round trip sends to one fresh channel it reads itself: no group, no socket.
NOT_A_GROUP = {ROOT / "sahrat_site" / "health.py"}


def _sockets() -> list[type[SahratConsumer]]:
    found = []
    for route in websocket_urlpatterns:
        app = route.callback
        found.append(getattr(app, "consumer_class", None) or app.view_class)
    return found


def test_the_routes_sockets_are_found():
    names = {c.__name__ for c in _sockets()}
    assert {"LobbyConsumer", "TableConsumer"} <= names


@pytest.mark.parametrize("socket", _sockets(), ids=lambda c: c.__name__)
def test_every_socket_handles_every_type_of_every_group_it_joins(socket):
    assert socket.joins, f"{socket.__name__} names no group it joins"
    missing = [
        f"{kind.prefix}: {kind_type}"
        for kind in socket.joins
        for kind_type in kind.types
        if not callable(getattr(socket, get_handler_name({"type": kind_type}), None))
    ]
    assert not missing, f"{socket.__name__} has no handler for {missing}"


def _calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def _product_files() -> list[Path]:
    return [f for p in PRODUCT for f in python_files(p) if f != REGISTRY]


def test_every_event_a_sender_makes_is_one_its_group_carries():
    """``groups.<KIND>.event("type", ...)`` with a type that kind carries, wherever it is
    written (a path no test runs would otherwise fail only in production)."""
    kinds = {name: getattr(groups, name) for name in ("MAJLIS", "TABLE", "USER", "PRESENCE")}
    made, wrong = 0, []
    for path in _product_files():
        for call in _calls(path):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "event"):
                continue
            owner = func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name not in kinds:
                continue
            made += 1
            first = call.args[0] if call.args else None
            if not (isinstance(first, ast.Constant) and first.value in kinds[name].types):
                wrong.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert made >= 6  # the table, the lobby, presence, notices, friends, hides: all found
    assert not wrong, f"events their group does not carry: {wrong}"


def test_nothing_sends_to_a_group_past_the_registry():
    """No ``layer.group_send`` but realtime/groups.py's, and no hand-made channel message (a
    dict whose "type" has a dot, as the channel layer's types do; the frames to clients use
    underscores)."""
    found = []
    for path in _product_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Attribute) and node.attr == "group_send":
                found.append(where)
            if isinstance(node, ast.Dict) and path not in NOT_A_GROUP:
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "type"
                        and isinstance(value, ast.Constant)
                        and "." in str(value.value)
                    ):
                        found.append(where)
    assert not found, f"sent past realtime/groups.py: {found}"


def test_the_registry_refuses_what_a_group_does_not_carry():
    with pytest.raises(groups.UnknownMessage):
        groups.MAJLIS.event("chat.hides.changed")
    with pytest.raises(groups.UnknownMessage):
        groups.check("user.7", {"type": "majlis.changed"})
    assert groups.group_of("user.7") is groups.USER
    assert groups.group_of(groups.TABLE.name("ab12")) is groups.TABLE
    assert not groups.USER.owns("user.")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_joins_no_group_it_did_not_name(users):  # noqa: F811
    socket = await lobby(users[0], "/ws/majlis/?only=notices")
    consumer_cls = next(c for c in _sockets() if c.__name__ == "LobbyConsumer")
    probe = consumer_cls()
    with pytest.raises(groups.UnknownMessage):
        await probe.join("table.abc")
    await socket.disconnect()


async def _alive(comm, seq: int) -> bool:
    """The socket still answers a ping (frames sent meanwhile skipped)."""
    await comm.send_json_to({"type": "ping", "seq": seq})
    while True:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "pong":
            return frame["seq"] == seq


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_hiding_all_chat_leaves_every_open_page_of_the_player_alive(users):  # noqa: F811
    """The player has the lobby, a notices-only page and a table open, and hides all chat:
    every socket still answers, and the table's chat is shown hidden."""
    player = users[0]
    table = await database_sync_to_async(make_table)(users[1], "hand", {})
    majlis = await lobby(player)
    notices = await lobby(player, "/ws/majlis/?only=notices")
    at_table, connected, _ = await connect(player, table.public_id)
    assert connected
    await next_state(at_table)

    await database_sync_to_async(moderation.set_hide_chat)(user=player, hide=True)
    state = await next_state(at_table)
    assert state["you"]["chat_off"] is True
    for n, comm in enumerate((majlis, notices, at_table)):
        assert await _alive(comm, n + 1)
    for comm in (majlis, notices, at_table):
        await comm.disconnect()
