"""Sitting at a coin table over the table socket (the page's "sit" button sends this frame):
too few coins, and a double click, are refused with a clear message in the player's language and
no coin moves."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connections

from games.models import Match, Seat
from tests.tables.helpers import make_table, seed_for
from tests.tables.test_consumers import TIMEOUT, connect, next_state
from tests.wallet.conftest import fund
from wallet import services as wallet_services
from wallet.models import Transfer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _sit_frame(match: Match, user) -> dict:
    return {
        "type": "sit",
        "seat": 0,
        "seed": seed_for(user.pk),
        "commitment": match.commitment,
        "match": match.public_id,
    }


async def _error(comm) -> dict:
    while True:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "error":
            return frame


async def test_too_few_coins_is_refused_over_the_socket(host, django_user_model):
    def setup():
        poor = django_user_model.objects.create_user("poor", password="x-Long-pass-123")
        fund(poor, 9, key="poor")
        table = make_table(host, "hand", {"players": 2}, stake=10)
        return poor, table, Match.objects.get(table=table, number=1)

    poor, table, match = await database_sync_to_async(setup)()
    comm, connected, _ = await connect(poor, table.public_id)
    assert connected
    await next_state(comm)
    await comm.send_json_to(_sit_frame(match, poor))
    reply = await _error(comm)
    assert reply["code"] == "not_enough_coins"
    assert reply["message"] == "لا تكفي عملات المحفظة لذلك."
    await comm.disconnect()

    def after():
        assert Seat.objects.get(table=table, number=0).user is None
        assert wallet_services.balance_of(poor) == 9 and Transfer.objects.count() == 1

    await database_sync_to_async(after)()
    # The sync thread's own connection, so the test database can be dropped at the end.
    await database_sync_to_async(connections.close_all)()


async def test_a_double_click_on_sit_seats_once_and_moves_nothing(host, django_user_model):
    def setup():
        user = django_user_model.objects.create_user(
            "quick", password="x-Long-pass-123", language="en"
        )
        wallet_services.grant_starter(user=user)
        table = make_table(host, "hand", {"players": 2}, stake=500)
        return user, table, Match.objects.get(table=table, number=1)

    user, table, match = await database_sync_to_async(setup)()
    comm, _, _ = await connect(user, table.public_id)
    await next_state(comm)
    frame = _sit_frame(match, user)
    await comm.send_json_to(frame)
    await comm.send_json_to(frame)  # the second click, before any reply
    reply = await _error(comm)
    assert reply["code"] in ("already_seated", "seat_taken")
    assert "seat" in reply["message"]
    await comm.disconnect()

    def after():
        assert Seat.objects.filter(table=table, user=user).count() == 1
        assert wallet_services.balance_of(user) == 500  # nothing moves until the match starts
        assert not Transfer.objects.filter(kind=Transfer.Kind.STAKE).exists()

    await database_sync_to_async(after)()
    # The sync thread's own connection, so the test database can be dropped at the end.
    await database_sync_to_async(connections.close_all)()
