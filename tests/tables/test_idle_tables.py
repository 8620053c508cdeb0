"""Tables no person has sat at for TABLE_IDLE_MINUTES are closed by the sweeper (issue 57, item
14: the lobby listed 16 waiting tables, many with only bots and empty seats): each kind of table
that must stay, and the one that goes, through the beat's own task."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services, tasks
from games.models import Match, MatchSeed, Table
from games.services import TableError
from tests.tables.helpers import make_table, seat_humans, seed_for, sit_at, socket_opened

pytestmark = pytest.mark.django_db(transaction=True)


def _aged(table: Table, minutes: float) -> Table:
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(minutes=minutes))
    return table


def _with_a_bot(creator, minutes: float) -> Table:
    table = make_table(creator, "jakaro", {"players": 4})
    services.seat_add_bot(user=creator, table_id=table.public_id, number=1)
    return _aged(table, minutes)


def test_the_sweeper_closes_only_the_tables_no_person_has_sat_at_for_a_while(
    users, creator, settings
):
    settings.TABLE_IDLE_MINUTES = 10
    a, b, c, d = users[:4]
    idle = _with_a_bot(creator, 11)
    young = _with_a_bot(creator, 2)
    # Two people played here until a minute ago (their match cancelled), then stood up.
    left = _aged(make_table(creator, "hand", {"players": 2}), 30)
    seat_humans(left, [a, d])
    MatchSeed.objects.filter(match__table=left).update(at=timezone.now() - timedelta(hours=1))
    services.match_abort(match_id=Match.objects.get(table=left, number=1).pk)
    for person in (a, d):
        services.seat_leave(user=person, table_id=left.public_id)
    # Old, but a person sits there (waiting for company) or has its page open.
    seated = _with_a_bot(creator, 30)
    sit_at(seated, b, 0)
    MatchSeed.objects.filter(match__table=seated).update(at=timezone.now() - timedelta(hours=1))
    watched = _with_a_bot(creator, 30)
    socket_opened(c, watched.public_id)
    # Old and being played.
    playing = _aged(make_table(creator, "hand", {"players": 2}), 30)
    seat_humans(playing, [c, d])

    tasks.sweep()

    status = dict(Table.objects.values_list("public_id", "status"))
    assert status[idle.public_id] == Table.Status.CLOSED
    for kept in (young, left, seated, watched):
        assert status[kept.public_id] == Table.Status.OPEN, kept
    assert status[playing.public_id] == Table.Status.PLAYING
    # Its match never played: aborted, its secret revealed; the lobby lists it no more.
    match = Match.objects.get(table=idle)  # the only one
    assert match.status == Match.Status.ABORTED and match.revealed
    assert idle.public_id not in {t.public_id for t in selectors.open_tables()}
    # Nobody sits at a closed table: the refusal says why.
    with pytest.raises(TableError) as refused:
        services.seat_take(
            user=d,
            table_id=idle.public_id,
            number=0,
            seed=seed_for(d.pk),
            commitment=match.commitment,
            match_id=match.public_id,
        )
    assert refused.value.code == "table_closed"
    # A second sweep finds nothing more to close.
    assert services.tables_idle() == []
