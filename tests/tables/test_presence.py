"""Seat presence (games.services "Presence", games/presence.py): a seat's ``connected`` is its
player's open sockets, counted per web process, so several tabs, a watcher who sits down, and a
web process that ends without closing its sockets (killed, or stopped for a deploy: Daphne tells
no consumer then) all leave the seat right. Before, one restart left every seated player
"connected" for good: never away, never replaced by a bot, never marked as left."""

from __future__ import annotations

import time
from contextlib import ExitStack
from datetime import timedelta

import pytest
from django.utils import timezone

from bench import processes
from games import services
from games.models import Presence, Seat, WebProcess
from tests.conftest import ARTIFACTS, _subprocess_env
from tests.tables.helpers import make_table, seat_humans, socket_closed, socket_opened
from tests.tables.test_live_servers import state_at, table_socket

pytestmark = pytest.mark.django_db(transaction=True)


def seat_of(table, number: int) -> Seat:
    return Seat.objects.get(table=table, number=number)


@pytest.fixture
def told(monkeypatch) -> list[str]:
    """The tables a broadcast went to."""
    sent: list[str] = []
    monkeypatch.setattr(services.events, "broadcast", lambda t, m, **held: sent.append(t.public_id))
    return sent


def test_two_tabs_hold_a_seat_until_the_last_one_closes(creator, users, told):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    tid = table.public_id
    socket_opened(users[0], tid)
    socket_opened(users[0], tid)
    assert seat_of(table, 0).connected == 2
    told.clear()
    socket_closed(users[0], tid)
    seat = seat_of(table, 0)
    assert seat.connected == 1 and seat.away_since is None
    assert told == []  # nothing the others see changed
    socket_closed(users[0], tid)
    seat = seat_of(table, 0)
    assert seat.connected == 0 and seat.away_since is not None
    assert told == [tid]
    assert not Presence.objects.filter(table=table).exists()


def test_a_watchers_open_socket_holds_the_seat_they_take_and_a_stale_count_is_not_inherited(
    creator, users, told
):
    table = make_table(creator, "jakaro", {"players": 2})
    tid = table.public_id
    socket_opened(users[0], tid)  # watching before sitting down
    seat_humans(table, users[:2])
    assert seat_of(table, 0).connected == 1
    assert seat_of(table, 1).connected == 0 and seat_of(table, 1).away_since is None
    # Someone who sat down with a socket open, stood up and left the seat to another person:
    # the newcomer's seat counts only the newcomer's sockets.
    other = make_table(creator, "jakaro", {"players": 2})
    socket_opened(users[2], other.public_id)
    seat_humans(other, [users[2]])
    services.seat_leave(user=users[2], table_id=other.public_id)
    seat_humans(other, [users[3]])
    assert seat_of(other, 0).user_id == users[3].pk and seat_of(other, 0).connected == 0


def test_a_web_process_gone_silent_gives_its_seats_back_and_one_that_returns_counts_again(
    creator, users, told, settings
):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    tid = table.public_id
    now = timezone.now()
    # Process "a" served both players, process "b" (alive) a second tab of player 1.
    assert services.process_seen(process="a") is True
    assert services.process_seen(process="a") is False
    services.seat_connected(user=users[0], table_id=tid, process="a")
    services.seat_connected(user=users[1], table_id=tid, process="a")
    services.process_seen(process="b")
    services.seat_connected(user=users[1], table_id=tid, process="b")
    assert services.processes_gone() == 0  # both seen just now
    silent_since = now - timedelta(seconds=settings.PRESENCE_LEASE_S + 5)
    WebProcess.objects.filter(id="a").update(seen_at=silent_since)
    told.clear()

    assert services.processes_gone() == 1
    zero, one = seat_of(table, 0), seat_of(table, 1)
    assert zero.connected == 0 and zero.away_since == silent_since  # kept from its last beat
    assert one.connected == 1 and one.away_since is None  # the tab on "b" still holds it
    assert told == [tid]
    assert not WebProcess.objects.filter(id="a").exists()
    assert not Presence.objects.filter(process="a").exists()
    assert services.processes_gone() == 0

    # The seat is then kept as after any disconnect: expired past SEAT_KEEP_SECONDS.
    settings.SEAT_KEEP_SECONDS = 1
    assert services.seats_expired() == [zero.pk]

    # Process "a" had only stalled: its next beat finds its row gone, and it counts the
    # sockets it still has open again (games/presence.py).
    assert services.process_seen(process="a") is True
    services.sockets_restored(process="a", sockets={(tid, users[0].pk): 1, ("gone", 999): 2})
    zero = seat_of(table, 0)
    assert zero.connected == 1 and zero.away_since is None
    assert services.seats_expired() == []


@pytest.mark.slow
@pytest.mark.parametrize("how", ["terminate", "kill"])
def test_a_server_stopped_or_killed_with_players_connected_leaves_their_seats_away(
    creator, users, settings, how
):
    """Real Daphne, real sockets: the process ends with both players connected (SIGTERM, as a
    deploy stops it, or SIGKILL); once its lease has run out the sweeper's step finds their
    seats away, and a player who reconnects to the new server counts once, not twice."""
    settings.PRESENCE_LEASE_S = 2
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    env = {**_subprocess_env(), "PRESENCE_BEAT_S": "0.5"}
    with processes.daphne(env, ARTIFACTS / f"presence-{how}.log") as (base, proc):
        with ExitStack() as stack:
            socks = [table_socket(stack, base, table.public_id, u) for u in users[:2]]
            for ws in socks:
                state_at(ws, 0)
            assert [seat_of(table, n).connected for n in (0, 1)] == [1, 1]
            getattr(proc, how)()
            proc.wait(timeout=20)
    assert [seat_of(table, n).connected for n in (0, 1)] == [1, 1]  # nobody told the seats
    deadline = time.monotonic() + 30
    while services.processes_gone() == 0:
        assert time.monotonic() < deadline, "the ended process was never found gone"
        time.sleep(0.1)
    for n in (0, 1):
        seat = seat_of(table, n)
        assert seat.connected == 0 and seat.away_since is not None

    with processes.daphne(env, ARTIFACTS / f"presence-{how}-after.log") as (base, _):
        with ExitStack() as stack:
            ws = table_socket(stack, base, table.public_id, users[0])
            assert state_at(ws, 0)["table"]["seats"][0]["connected"] is True
            seat = seat_of(table, 0)
            assert seat.connected == 1 and seat.away_since is None


@pytest.mark.asyncio
async def test_a_process_taken_for_gone_counts_its_open_sockets_again_when_the_next_one_opens(
    creator, users
):
    """A web process that stalled past its lease was taken for gone (its rows deleted, its
    players away). The next socket it opens says it is alive first, and then the sockets it still
    has open count again (games/presence.py), so its players are not handed to a bot."""
    from channels.db import database_sync_to_async

    from games import presence
    from tests.tables.test_consumers import connect, next_state

    def setup():
        table = make_table(creator, "jakaro", {"players": 2})
        seat_humans(table, users[:2])
        return table

    table = await database_sync_to_async(setup)()
    a, _, _ = await connect(users[0], table.public_id)
    await next_state(a)
    assert (await database_sync_to_async(seat_of)(table, 0)).connected == 1

    def taken_for_gone():
        WebProcess.objects.filter(id=presence.PROCESS).update(
            seen_at=timezone.now() - timedelta(hours=1)
        )
        assert services.processes_gone() == 1
        return seat_of(table, 0)

    seat = await database_sync_to_async(taken_for_gone)()
    assert seat.connected == 0 and seat.away_since is not None
    b, _, _ = await connect(users[1], table.public_id)
    await next_state(b)
    zero, one = [await database_sync_to_async(seat_of)(table, n) for n in (0, 1)]
    assert zero.connected == 1 and zero.away_since is None
    assert one.connected == 1
    for comm in (a, b):
        await comm.disconnect()
    zero = await database_sync_to_async(seat_of)(table, 0)
    assert zero.connected == 0 and zero.away_since is not None
