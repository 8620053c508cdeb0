"""Playing again: after a match, those who say "ready" within REMATCH_SECONDS keep their seats
and the others' seats open to anyone (the clock moved); the chain of matches at a table shows on
each match's Verify page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Match, Seat
from tests.standing.test_rebuild import bots_play_to_the_end
from tests.tables.helpers import make_table, seat_humans, seed_for

pytestmark = pytest.mark.django_db


def ready(user, match: Match) -> None:
    services.table_ready(
        user=user,
        table_id=match.table.public_id,
        seed=seed_for(user.pk + 100),
        commitment=match.commitment,
        match_id=match.public_id,
    )


def test_who_does_not_play_again_in_time_gives_the_seat_up(users, settings):
    settings.REMATCH_SECONDS = 60
    a, b, c = users[:3]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    first = bots_play_to_the_end(Match.objects.get(table=table, number=1))
    second = Match.objects.get(table=table, number=2)
    assert second.status == "waiting"
    ready(a, second)
    assert services.rematch_lapsed() == []  # within the minute: every seat kept
    Match.objects.filter(pk=first.pk).update(ended_at=timezone.now() - timedelta(seconds=61))
    lapsed = services.rematch_lapsed()
    assert lapsed == [Seat.objects.get(table=table, user=b).pk]
    assert services.seat_lapse(seat_id=lapsed[0])
    assert not services.seat_lapse(seat_id=lapsed[0])  # once
    seats = {s.number: s.user_id for s in Seat.objects.filter(table=table)}
    assert seats == {0: a.pk, 1: None}
    # Anyone may sit now; the next match starts, and the chain shows on the Verify pages.
    services.seat_take(
        user=c,
        table_id=table.public_id,
        number=1,
        seed=seed_for(c.pk),
        commitment=second.commitment,
        match_id=second.public_id,
    )
    second.refresh_from_db()
    assert second.status == "playing"
    before = Client().get(f"/verify/m/{first.public_id}/").content.decode()
    assert f'href="/verify/m/{second.public_id}/"' in before
    after = Client().get(f"/verify/m/{second.public_id}/").content.decode()
    assert f'href="/verify/m/{first.public_id}/"' in after


def test_the_end_screen_asks_to_play_again_in_time(users):
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    bots_play_to_the_end(Match.objects.get(table=table, number=1))
    client = Client()
    client.force_login(a)
    html = client.get(f"/majlis/t/{table.public_id}/").content.decode()
    assert 'data-testid="play-again-note"' in html and 'data-testid="ready"' in html
