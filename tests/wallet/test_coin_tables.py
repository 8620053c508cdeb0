"""Coin tables through games/services/ on PostgreSQL: stakes checked at sit-down and at the
start, escrow all or nothing, twenty concurrent sit-downs with coins for one, settlement once
(twice run, or retried after the worker was killed mid-way), bots never at a coin table,
free-table rewards with their daily cap, and the reconcile command after all of it."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.utils import timezone

from games import services
from games.models import Match, MatchSeed, Seat, Table
from games.services import TableError
from tests.tables.helpers import (
    make_table,
    play_out,
    seat_humans,
    seed_for,
    sit_at,
    socket_closed,
)
from tests.wallet.conftest import balance, fund, total
from tests.wallet.helpers import coin_match, finish, jakaro_outcome
from wallet import ledger
from wallet import services as wallet_services
from wallet.models import Account, Transfer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("stake", [7, -10, 10**12, "50", None])
def test_a_stake_that_is_not_a_level_is_refused(host, stake):
    with pytest.raises(TableError) as err:
        make_table(host, "hand", {"players": 2}, stake=stake)
    assert err.value.code == "bad_stake"
    assert "not one of the coin table levels" in err.value.message("en")
    assert err.value.message("ar") != err.value.message("en")
    assert not Table.objects.exists() and not Transfer.objects.exists()


def test_sitting_needs_enough_coins_and_nothing_moves_when_refused(host, django_user_model):
    poor = django_user_model.objects.create_user("poor", password="x-Long-pass-123")
    fund(poor, 40, key="poor")
    table = make_table(host, "jakaro", {"players": 2}, stake=50)
    with pytest.raises(TableError) as err:
        sit_at(table, poor, 0)
    assert err.value.code == "not_enough_coins"
    assert "enough coins" in err.value.message("en")
    assert Seat.objects.get(table=table, number=0).user is None
    assert not MatchSeed.objects.exists()
    assert balance(poor) == 40 and Transfer.objects.count() == 1


def test_a_double_sit_is_refused_and_moves_nothing(host, people):
    table = make_table(host, "hand", {"players": 3}, stake=100)
    sit_at(table, people[0], 0)
    for number in (0, 1):  # the same seat again, or another seat at the same table
        with pytest.raises(TableError) as err:
            sit_at(table, people[0], number)
        assert err.value.code == "already_seated"
    assert balance(people[0]) == 500
    assert Seat.objects.filter(table=table, user=people[0]).count() == 1
    assert not Account.objects.filter(kind=Account.Kind.ESCROW).exists()


def test_twenty_concurrent_sit_downs_with_coins_for_one_seat_exactly_one(host, django_user_model):
    """One player with coins for one stake tries twenty coin tables at once (twenty tabs): the
    wallet's lock makes the checks one after another, so exactly one sit-down succeeds."""
    player = django_user_model.objects.create_user("racer", password="x-Long-pass-123")
    fund(player, 100, key="racer")
    tables = [make_table(host, "hand", {"players": 2}, stake=100) for _ in range(20)]
    ok: list[int] = []
    refused: list[str] = []
    other: list[BaseException] = []
    start = threading.Barrier(20)

    def attempt(i: int) -> None:
        try:
            start.wait()
            sit_at(tables[i], player, 0)
            ok.append(i)
        except TableError as exc:
            refused.append(exc.code)
        except BaseException as exc:
            other.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert other == []
    assert len(ok) == 1 and refused == ["not_enough_coins"] * 19
    assert Seat.objects.filter(user=player).count() == 1
    assert balance(player) == 100  # sitting holds the stake; it moves when the match starts
    # The one table starts when someone else sits; the stake moves then.
    other_player = django_user_model.objects.create_user("rival", password="x-Long-pass-123")
    fund(other_player, 100, key="rival")
    sit_at(tables[ok[0]], other_player, 1)
    assert balance(player) == 0 and balance(other_player) == 0
    call_command("wallet_reconcile")


def test_escrow_is_all_or_nothing_a_player_short_at_the_start_is_stood_up(host, people):
    table = make_table(host, "hand", {"players": 2}, stake=500)
    sit_at(table, people[0], 0)
    # Coins leave people[0]'s wallet after they sat down (a staff adjustment).
    wallet_services.adjust(
        staff=host, user=people[0], amount=1, debit=True, reason="test", key="short"
    )
    sit_at(table, people[1], 1)
    match = Match.objects.get(table=table, number=1)
    assert match.status == Match.Status.WAITING  # no start without every stake
    assert Seat.objects.get(table=table, number=0).user is None  # the short player stood up
    assert not MatchSeed.objects.filter(match=match, seat=0).exists()
    assert Seat.objects.get(table=table, number=1).user == people[1]
    assert balance(people[0]) == 499 and balance(people[1]) == 500  # nothing moved
    assert not Transfer.objects.filter(kind=Transfer.Kind.STAKE).exists()
    sit_at(table, people[2], 0)  # someone with coins sits: the match starts, both stakes move
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert balance(people[1]) == 0 and balance(people[2]) == 0
    assert Account.objects.get(match=match).balance == 1000


def test_coins_held_at_one_table_are_not_spent_at_another(host, people):
    first = make_table(host, "hand", {"players": 2}, stake=500)
    second = make_table(host, "hand", {"players": 2}, stake=10)
    sit_at(first, people[0], 0)
    with pytest.raises(TableError) as err:
        sit_at(second, people[0], 0)
    assert err.value.code == "not_enough_coins"
    services.seat_leave(user=people[0], table_id=first.public_id)  # standing up frees them
    sit_at(second, people[0], 0)


def test_bots_never_sit_at_a_coin_table(host, people):
    # Four players: with two, the other's seat given up would end the match at once (issue 57).
    table = make_table(host, "jakaro", {"players": 4}, stake=10)
    with pytest.raises(TableError) as err:
        services.seat_add_bot(user=host, table_id=table.public_id, number=0)
    assert err.value.code == "bots_free_tables_only"
    assert not Seat.objects.filter(table=table, is_bot=True).exists()
    # A coin player who stays away is marked as left; no bot takes the seat.
    seat_humans(table, people[:4])
    socket_closed(people[0], table.public_id)
    seat = Seat.objects.get(table=table, number=0)
    Seat.objects.filter(pk=seat.pk).update(away_since=timezone.now() - timedelta(seconds=120))
    assert services.seat_expire(seat_id=seat.pk)
    seat.refresh_from_db()
    assert seat.left and not seat.bot_playing and not seat.is_bot


def test_a_real_coin_match_played_to_the_end_settles_once(host, people, settings):
    """Hand, two players, one round (the table's option), played to the end by time-outs
    through games/services/: the winner gets the pot less the fee, once."""
    settings.SERVER_STEP_DELAY = 0
    match = coin_match(host, "hand", {"players": 2, "rounds": 1}, 500, people[:2])
    match = play_out(match)
    shares = match.outcome["shares"]
    gains = [balance(p) - 500 for p in people[:2]]
    if shares["0"] == shares["1"]:  # a shared place after the extra round
        assert gains == [-50, -50]
    else:
        assert sorted(gains) == [-500, 400]
    assert wallet_services.house_account().balance == 100
    assert Account.objects.get(match=match).balance == 0
    n = Transfer.objects.count()
    services.settle(match)  # run again: pays nothing more
    assert Transfer.objects.count() == n
    assert [balance(p) - 500 for p in people[:2]] == gains
    call_command("wallet_reconcile")

    # The next match at the table: "ready" needs the stake again, checked the same way.
    nxt = Match.objects.get(table=match.table, number=2)
    for p in people[:2]:
        ready = dict(
            user=p,
            table_id=match.table.public_id,
            seed=seed_for(p.pk + 100),
            commitment=nxt.commitment,
            match_id=nxt.public_id,
        )
        if balance(p) < 500:
            with pytest.raises(TableError) as err:
                services.table_ready(**ready)
            assert err.value.code == "not_enough_coins"
            # Their own seat (the deal moved on: each sits one seat back now).
            assert not Seat.objects.get(table=match.table, user=p).ready
        else:
            services.table_ready(**ready)
    nxt.refresh_from_db()
    assert nxt.status == Match.Status.WAITING  # never started without every stake
    assert not Account.objects.filter(match=nxt).exists()


def test_settlement_run_twice_pays_once(host, people):
    match = coin_match(host, "jakaro", {"players": 4}, 100, people[:4])
    finish(match, jakaro_outcome(4, 1))
    after = [balance(p) for p in people[:4]]
    count = Transfer.objects.count()
    services.settle(match)
    services.settle(Match.objects.get(pk=match.pk))
    assert [balance(p) for p in people[:4]] == after == [400, 580, 400, 580]
    assert Transfer.objects.count() == count
    call_command("wallet_reconcile")


def test_a_settlement_killed_mid_way_pays_once_on_retry(host, people, monkeypatch):
    """The worker settling a match dies after its transfers are written but before it commits
    (its database connection is killed): PostgreSQL keeps none of it; the retry pays once."""
    match = coin_match(host, "jakaro", {"players": 4}, 100, people[:4])
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, outcome=jakaro_outcome(4, 0)
    )
    written, resume = threading.Event(), threading.Event()
    real_post = ledger.post
    pid: list[int] = []

    def post_then_stall(legs, **kwargs):
        result = real_post(legs, **kwargs)
        if threading.current_thread().name == "worker":
            pid.append(connection.connection.info.backend_pid)
            written.set()
            resume.wait(10)
        return result

    monkeypatch.setattr(ledger, "post", post_then_stall)
    died: list[BaseException] = []

    def worker() -> None:
        try:
            services.settle(Match.objects.get(pk=match.pk))
        except BaseException as exc:
            died.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=worker, name="worker")
    thread.start()
    assert written.wait(10)
    assert Transfer.objects.filter(kind=Transfer.Kind.PAYOUT).count() == 0  # not committed yet
    with connections["default"].cursor() as cur:
        cur.execute("SELECT pg_terminate_backend(%s)", [pid[0]])
    resume.set()
    thread.join(10)
    assert died, "the killed worker's commit must fail"
    assert [balance(p) for p in people[:4]] == [400] * 4  # nothing paid by the dead worker
    assert Account.objects.get(match=match).balance == 400

    services.settle(Match.objects.get(pk=match.pk))  # the retry
    services.settle(Match.objects.get(pk=match.pk))  # and a second retry
    assert [balance(p) for p in people[:4]] == [580, 400, 580, 400]
    assert wallet_services.house_account().balance == 40
    call_command("wallet_reconcile")


def test_a_settlement_that_got_part_way_finishes_without_paying_twice(host, people):
    """Were a settlement's legs ever committed one by one, a retry would write only the legs
    still missing: the keys say which are done."""
    match = coin_match(host, "jakaro", {"players": 4}, 100, people[:4])
    escrow = Account.objects.get(match=match)
    ledger.transfer(  # the fee leg, as a crashed earlier run left it
        source=escrow,
        dest=wallet_services.house_account(),
        amount=40,
        kind=Transfer.Kind.FEE,
        reason="table fee",
        key=f"settle:{match.pk}:fee",
        match=match,
    )
    finish(match, jakaro_outcome(4, 0))
    assert [balance(p) for p in people[:4]] == [580, 400, 580, 400]
    assert wallet_services.house_account().balance == 40
    assert Transfer.objects.filter(match=match, kind=Transfer.Kind.FEE).count() == 1
    call_command("wallet_reconcile")


def test_reconcile_fails_on_a_settled_escrow_that_is_not_empty(host, people):
    match = coin_match(host, "hand", {"players": 2}, 100, people[:2])
    call_command("wallet_reconcile")  # a playing match's escrow holds the pot: fine
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)  # never settled
    with pytest.raises(CommandError):
        call_command("wallet_reconcile")


def test_free_table_rewards_for_who_stayed_with_a_daily_cap(host, people, settings, monkeypatch):
    settings.WALLET_MATCH_REWARD = 20
    settings.WALLET_DAILY_REWARD_CAP = 50
    rewards = []
    for _ in range(4):
        table = make_table(host, "hand", {"players": 3})
        seat_humans(table, people[:2])
        services.seat_add_bot(user=host, table_id=table.public_id, number=2)
        # people[1] went away and a bot played for them: leaving does not earn.
        Seat.objects.filter(table=table, number=1).update(bot_playing=True)
        match = Match.objects.get(table=table, number=1)
        finish(match, {"places": [[1, [0]], [2, [1]], [3, [2]]], "shares": {}, "teams": []})
        rewards.append(balance(people[0]) - 500)
        services.settle(match)  # again: nothing more
        assert balance(people[0]) - 500 == rewards[-1]
    assert rewards == [20, 40, 50, 50]  # 20 + 20 + 10 (the cap), then nothing
    assert balance(people[1]) == 500
    assert not Transfer.objects.filter(kind=Transfer.Kind.REWARD, dest__user=people[2]).exists()
    # The next day (the clock moves on a day): the cap starts again.
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(days=1))
    table = make_table(host, "jakaro", {"players": 2})
    seat_humans(table, people[:2])
    finish(Match.objects.get(table=table, number=1), jakaro_outcome(2, 0))
    assert balance(people[0]) - 500 == 70 and balance(people[1]) - 500 == 20
    assert total() == 0
    call_command("wallet_reconcile")


def test_a_free_bot_match_played_to_the_end_rewards_the_human(host, people, settings):
    settings.SERVER_STEP_DELAY = 0
    settings.BOT_DELAY = 0
    table = make_table(host, "hand", {"players": 2, "rounds": 1})
    seat_humans(table, people[:1])
    services.seat_add_bot(user=host, table_id=table.public_id, number=1)
    # The human moves once (a match nobody played is aborted: issue 57), then time-outs.
    match = play_out(Match.objects.get(table=table, number=1))
    assert match.status == Match.Status.FINISHED
    assert balance(people[0]) == 500 + settings.WALLET_MATCH_REWARD
    assert Transfer.objects.get(kind=Transfer.Kind.REWARD).match == match


def test_not_enough_coins_has_one_text_wherever_it_is_refused():
    """Issue 57 item 21: one code, one text: a seat's stake refused and a staff's debit refused
    say the same words, in each language."""
    for lang in ("ar", "en"):
        at_table = TableError("not_enough_coins").message(lang)
        in_wallet = wallet_services.WalletError("not_enough_coins").message(lang)
        assert at_table == in_wallet and at_table
