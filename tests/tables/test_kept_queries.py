"""The reads a move makes with their SQL kept compiled (games/kept_queries.py) return what the
ORM's own queryset returns: the same rows, every field, and the related rows ``select_related``
brings (a seat's player, the player's standing, a match's table), None where there is none. Its
two writes store what the ORM's ``create`` and ``save(update_fields=...)`` store."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services
from games.kept_queries import KeptQuery, insert_row, update_row
from games.models import Match, MatchAction, Seat
from games.services.tables import playing_match
from standing.models import PlayerStanding
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db


def fields(obj: Any) -> dict[str, Any] | None:
    """A model's values as the database gave them, or None."""
    if obj is None:
        return None
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def seat_rows(seats: list[Seat]) -> list[tuple[Any, ...]]:
    out = []
    for seat in seats:
        user = seat.user  # cached by the read: no query (test_move_statements.py)
        standing = getattr(user, "standing", None) if user is not None else None
        out.append((fields(seat), fields(user), fields(standing)))
    return out


def test_the_seats_are_the_orms_with_their_players_and_standings(creator, users):
    table = make_table(creator, "jakaro", {"players": 4})
    seat_humans(table, users[:2])
    services.seat_add_bot(user=creator, table_id=table.public_id, number=2, level="strong")
    PlayerStanding.objects.get_or_create(user=users[1])  # one player with a standing row
    assert not PlayerStanding.objects.filter(user=users[0]).exists()
    kept = selectors.seats_with_players(table.pk)
    orm = list(
        Seat.objects.filter(table_id=table.pk).select_related("user__standing").order_by("number")
    )
    assert [s.number for s in kept] == [0, 1, 2, 3]
    with CaptureQueriesContext(connection) as more:
        rows = seat_rows(kept)
    assert more.captured_queries == []  # the players and standings came with the seats
    assert rows == seat_rows(orm)
    assert rows[0][2] is None and rows[1][2] is not None  # no standing, a standing
    assert rows[3][1] is None  # the empty seat has no player
    assert selectors.seats_with_players(table.pk + 1000) == []


def test_the_playing_match_is_the_orms_with_its_table(creator, users):
    table = make_table(creator, "hand", {"players": 4})
    seat_humans(table, users[:4])
    with transaction.atomic():
        match = playing_match(table.public_id)
        orm = Match.objects.select_related("table").get(pk=match.pk)
    assert match.status == Match.Status.PLAYING and match.seq == 0
    assert fields(match) == fields(orm)
    with CaptureQueriesContext(connection) as more:
        assert fields(match.table) == fields(orm.table)
    assert more.captured_queries == []  # the table came with the match
    assert isinstance(match.options, dict) and isinstance(match.tally, dict)  # JSON decoded
    assert match.created_at.tzinfo is not None


def test_a_query_with_more_than_its_one_parameter_is_refused(creator):
    table = make_table(creator, "hand", {"players": 4})
    two = KeptQuery(lambda n: Seat.objects.filter(table_id=n, number__gte=1), marker=-1)
    with pytest.raises(ImproperlyConfigured):
        two(table.pk)


def test_a_value_of_another_type_is_refused_not_passed_on(creator):
    table = make_table(creator, "hand", {"players": 4})
    with pytest.raises(TypeError):
        selectors.seats_with_players(str(table.pk))  # the ORM would have made it a number
    with transaction.atomic(), pytest.raises(TypeError):
        playing_match(None)


def test_a_query_that_would_need_a_second_statement_is_refused(creator):
    table = make_table(creator, "hand", {"players": 4})
    prefetching = KeptQuery(lambda n: Seat.objects.filter(table_id=n).prefetch_related("user"), -1)
    with pytest.raises(ImproperlyConfigured):
        prefetching(table.pk)


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_is_refused_after_it_was_compiled(creator, users):
    table = make_table(creator, "hand", {"players": 4})
    seat_humans(table, users[:4])
    with transaction.atomic():
        playing_match(table.public_id)  # compiled on this thread's connection
    with pytest.raises(TransactionManagementError):
        playing_match(table.public_id)


def test_the_writes_store_what_the_orm_stores(creator, users):
    """The action a move inserts and the match fields it updates (JSON, dates, text, None) read
    back as the ORM's own writes of the same values read back."""
    table = make_table(creator, "hand", {"players": 4})
    seat_humans(table, users[:4])
    match = Match.objects.get(table=table, number=1)
    at = timezone.now()
    with transaction.atomic():
        insert_row(
            MatchAction,
            {
                "match": match.pk,
                "seq": 1,
                "seat": 2,
                "action": "draw stock",
                "by": "player",
                "at": at,
            },
        )
        MatchAction.objects.create(match=match, seq=2, seat=None, action="deal", by="server", at=at)
    ours, theirs = MatchAction.objects.filter(match=match).order_by("seq")
    assert (ours.seat, ours.action, ours.by, ours.at) == (2, "draw stock", "player", at)
    assert (theirs.seat, theirs.action, theirs.by) == (None, "deal", "server")
    assert theirs.at >= at  # auto_now_add: the ORM writes its own moment, a move passes its own

    names = ("seq", "snapshot", "tally", "outcome", "deadline", "timer_at", "ended_at")
    changed = {
        "seq": 7,
        "snapshot": '{"round": 2, "name": "لاعب \'1\'"}',
        "tally": {"0": {"melds": 2}, "3": {}},
        "outcome": {"winners": [1], "scores": [3.5, None]},
        "deadline": at,
        "timer_at": None,
        "ended_at": None,
    }
    for key, value in changed.items():
        setattr(match, key, value)
    with transaction.atomic():
        update_row(match, names)
    mine = fields(Match.objects.get(pk=match.pk))
    with transaction.atomic():
        match.save(update_fields=names)
    assert mine == fields(Match.objects.get(pk=match.pk))
    assert {k: mine[k] for k in changed} == changed
    match.pk += 1000  # a row that is not there is refused, as save(update_fields=...) refuses it
    with pytest.raises(DatabaseError), transaction.atomic():
        update_row(match, names)
