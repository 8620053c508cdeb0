"""Coins after a payout (issue 57, item 8): a real two-player coin match, its players' own first
moves then time-outs, settles; each player's open sockets (the table's and the lobby's) are
sent the balance the ledger wrote, and the end screen's state says what each seat won or paid,
as the settlement's transfers say."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connections

import games
from games import services
from games.models import Match
from tests.social.test_socket import lobby
from tests.tables.helpers import make_table, play_out, sit_at
from tests.tables.test_consumers import TIMEOUT, connect, next_state
from wallet import services as wallet_services
from wallet.models import Transfer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
STAKE = 50


def _own_moves_then_time_outs(match: Match, players: list) -> Match:
    """Each player makes a move of their own (a match nobody moved in is not one that pays);
    the deadlines play the rest."""
    engine = games.get(match.game)
    moved: set[int] = set()
    while len(moved) < len(players):
        match.refresh_from_db()
        state = engine.from_json(match.snapshot)
        seat = engine.to_move(state)
        action = engine.bot_action(engine.view(state, seat))
        table_id = match.table.public_id
        services.match_play(user=players[seat], table_id=table_id, seq=match.seq, action=action)
        moved.add(seat)
    return play_out(match)


async def _coins_frames_until(comm, balance: int) -> list[int]:
    """The ``coins`` frames a socket receives until one says ``balance`` (others skipped)."""
    seen: list[int] = []
    while not seen or seen[-1] != balance:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if frame["type"] == "coins":
            seen.append(frame["coins"])
    return seen


async def test_a_settled_coin_match_sends_each_player_their_balance_and_says_who_won_what(
    people, host
):
    a, b = people[:2]

    def setup():
        table = make_table(host, "jakaro", {"players": 2}, stake=STAKE)
        sit_at(table, a, 0)
        return table

    table = await database_sync_to_async(setup)()
    table_id = table.public_id
    at_table = {}
    for user in (a, b):
        comm, connected, _ = await connect(user, table_id)
        assert connected
        await next_state(comm)
        at_table[user.pk] = comm
    majlis = await lobby(a)
    notices = await lobby(b, "/ws/majlis/?only=notices")
    sockets = ((a, at_table[a.pk]), (b, at_table[b.pk]), (a, majlis), (b, notices))

    def second_sits():
        sit_at(table, b, 1)  # the match starts: both stakes go into its escrow
        return Match.objects.get(table=table, number=1)

    match = await database_sync_to_async(second_sits)()
    assert match.status == Match.Status.PLAYING
    for _user, comm in sockets:
        assert await _coins_frames_until(comm, 500 - STAKE)  # the stake left the wallet

    match = await database_sync_to_async(_own_moves_then_time_outs)(match, [a, b])

    def ledger_says():
        payouts = Transfer.objects.filter(match=match, kind=Transfer.Kind.PAYOUT)
        won = {t.dest.user_id: t.amount for t in payouts.select_related("dest")}
        balances = {u.pk: wallet_services.balance_of(u) for u in (a, b)}
        return won, balances

    won, balances = await database_sync_to_async(ledger_says)()
    assert len(won) == 1  # one winner takes the pot less the fee
    winner = a if a.pk in won else b
    assert balances[winner.pk] == 500 - STAKE + won[winner.pk]
    for user, comm in sockets:
        if user == winner:  # the payout; the loser's coins did not move at the end
            assert await _coins_frames_until(comm, balances[user.pk])
    # The table's end screen (the match shown while the next one waits): each seat's coins as
    # the settlement moved them, the payout less the stake.
    await at_table[a.pk].send_json_to({"type": "sync"})
    shown = None
    while shown is None:  # the states of the moves still on their way first
        shown = (await next_state(at_table[a.pk]))["shown"]
    assert shown["id"] == match.public_id
    expected = {str(n): won.get(u.pk, 0) - STAKE for n, u in enumerate((a, b))}
    assert shown["coins"] == expected
    assert sorted(expected.values()) == [-STAKE, 2 * STAKE * 90 // 100 - STAKE]

    for comm in (*at_table.values(), majlis, notices):
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()
