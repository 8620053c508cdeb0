"""A match's ending kept in its players' standing, through the games' own services: a history
line per player (place, left, coins, rating change, the game's statistics), the reputation for
finishing, the lock-out after repeated leaving (the clock moved), a table's minimum reputation,
and an aborted match listed in the player's own history with its refund."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Match, Seat
from games.services import TableError
from standing import reputation
from standing.errors import LockedOut
from standing.models import MatchRecord, PlayerStanding
from standing.selectors import reputation_of
from standing.services import player_left
from tests.standing.test_services import played
from tests.tables.helpers import first_moves, make_table, seat_humans, seed_for
from wallet.services import balance_of, grant_starter

pytestmark = pytest.mark.django_db


def test_every_player_gets_a_history_line_with_place_rating_and_statistics(users):
    match = played(users[:2], "jakaro", {"players": 2})
    records = {r.user_id: r for r in MatchRecord.objects.filter(match=match)}
    assert set(records) == {users[0].pk, users[1].pk}
    winner = next(r for r in records.values() if r.won)
    loser = next(r for r in records.values() if not r.won)
    assert (winner.place, loser.place) == (1, 2)
    assert winner.rated and winner.rating_change > 0 > loser.rating_change
    assert winner.mode == "jakaro-2" and winner.status == "finished"
    # The winner brought four marbles home (the tally of every logged action).
    assert winner.stats.get("home") == 4
    assert match.tally[str(winner.seat)]["home"] == 4
    row = PlayerStanding.objects.get(user_id=winner.user_id)
    assert row.recent == "F"
    assert row.totals["jakaro-2"]["played"] == 1 and row.totals["jakaro-2"]["won"] == 1
    assert row.shown["jakaro-2"][0] == winner.rating


# Committed move by move, as the server does: in one test transaction every move's update of
# the match row would stay a live version, and each update walks them all (quadratic in moves).
@pytest.mark.django_db(transaction=True)
def test_hand_statistics_add_up_over_the_rounds(users):
    match = played(users[:2], "hand", {"players": 2, "rounds": 2})
    records = list(MatchRecord.objects.filter(match=match))
    rounds = [r.stats.get("rounds", 0) for r in records]
    assert rounds[0] == rounds[1] >= 2
    state_totals = match.outcome  # the engine's totals are the sum of the round scores
    assert state_totals is not None
    assert sum(r.stats.get("rounds_won", 0) for r in records) <= rounds[0]
    assert sum(r.stats.get("opened_first", 0) for r in records) <= rounds[0]


def forfeit(match: Match, user) -> None:
    services.seat_forfeit(user=user, table_id=match.table.public_id)


def test_a_leaver_is_recorded_as_left_and_their_reputation_falls(users):
    table = make_table(users[0], "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    # Both move once (a match nobody played is aborted), then one leaves: the other wins at
    # once (issue 57).
    match = first_moves(Match.objects.get(table=table, number=1), (0, 1))
    forfeit(match, users[1])
    match.refresh_from_db()
    assert match.end_reason == "forfeit"
    gone = MatchRecord.objects.get(match=match, user=users[1])
    stayed = MatchRecord.objects.get(match=match, user=users[0])
    assert gone.left and not gone.won and gone.place == 2
    assert stayed.won and not stayed.left
    assert PlayerStanding.objects.get(user=users[1]).recent == "L"
    assert reputation_of(users[1]) == 90  # one left of ten (the newcomer's grace)
    assert reputation_of(users[0]) == 100


def test_reputation_numbers():
    assert reputation.reputation("") == 100
    assert reputation.reputation("L") == 90
    assert reputation.reputation("F" * 49 + "L") == 98
    assert reputation.reputation("L" * 60) == 0
    assert len(reputation.push("F" * 50, "L")) == 50


def test_leaving_again_locks_out_for_escalating_periods(users):
    user = users[0]
    t0 = timezone.now()
    row = player_left(user.pk, at=t0)
    assert row.leaves == 1 and row.locked_until is None  # the first leave is free
    row = player_left(user.pk, at=t0 + timedelta(hours=1))
    assert row.locked_until == t0 + timedelta(hours=1, minutes=10)
    row = player_left(user.pk, at=t0 + timedelta(hours=2))
    assert row.locked_until == t0 + timedelta(hours=2, minutes=20)
    row = player_left(user.pk, at=t0 + timedelta(hours=3))
    assert row.locked_until == t0 + timedelta(hours=3, minutes=40)
    # A day without leaving starts the run again: the next leave is free.
    row = player_left(user.pk, at=t0 + timedelta(hours=28))
    assert row.leaves == 1
    assert row.locked_until == t0 + timedelta(hours=3, minutes=40)
    assert reputation.lock_for(20) == reputation.MAX_LOCK


def test_a_locked_out_player_cannot_sit_and_is_told_until_when(users):
    PlayerStanding.objects.create(user=users[2], locked_until=timezone.now() + timedelta(minutes=9))
    table = make_table(users[0], "jakaro", {"players": 2})
    match = Match.objects.get(table=table, number=1)
    with pytest.raises(LockedOut) as refused:
        services.seat_take(
            user=users[2],
            table_id=table.public_id,
            number=0,
            seed=seed_for(7),
            commitment=match.commitment,
            match_id=match.public_id,
        )
    assert "8" in refused.value.message("en") or "9" in refused.value.message("en")
    assert "minute" in refused.value.message("en")
    assert "دقائق" in refused.value.message("ar") or "دقيقة" in refused.value.message("ar")
    assert not Seat.objects.filter(table=table, user=users[2]).exists()
    # The lock over (the clock moved past it), they sit.
    PlayerStanding.objects.filter(user=users[2]).update(
        locked_until=timezone.now() - timedelta(seconds=1)
    )
    services.seat_take(
        user=users[2],
        table_id=table.public_id,
        number=0,
        seed=seed_for(7),
        commitment=match.commitment,
        match_id=match.public_id,
    )
    assert Seat.objects.filter(table=table, user=users[2]).exists()


def test_a_table_minimum_reputation_keeps_out_those_below(users):
    PlayerStanding.objects.create(user=users[3], recent="FFLLFFFFFF")  # 80 %
    table = make_table(users[0], "jakaro", {"players": 2}, min_reputation=90)
    match = Match.objects.get(table=table, number=1)
    kwargs = dict(
        table_id=table.public_id,
        seed=seed_for(7),
        commitment=match.commitment,
        match_id=match.public_id,
    )
    with pytest.raises(TableError) as refused:
        services.seat_take(user=users[3], number=0, **kwargs)
    assert refused.value.code == "reputation_low"
    assert "reputation" in refused.value.message("en")
    services.seat_take(user=users[1], number=0, **kwargs)  # a newcomer: 100 %
    with pytest.raises(TableError):
        make_table(users[0], "jakaro", {"players": 2}, min_reputation=85)


def test_an_aborted_match_is_in_the_players_own_history_with_its_refund(users):
    for u in users[:2]:
        grant_starter(user=u)
    before = balance_of(users[0])
    table = make_table(users[0], "jakaro", {"players": 2}, stake=10)
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    services.match_abort(match_id=match.pk)
    records = MatchRecord.objects.filter(match=match)
    assert {r.status for r in records} == {"aborted"}
    assert all(r.coins == 10 and r.place is None and not r.rated for r in records)
    assert balance_of(users[0]) == before
    assert not PlayerStanding.objects.filter(user__in=users[:2]).exclude(recent="").exists()
