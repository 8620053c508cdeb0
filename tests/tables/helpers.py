"""Helpers for the live-table tests: tables, seats and a match moved on through the services."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.utils import timezone

import games
from games import selectors, services
from games.contract import replay
from games.models import Majlis, Match, Table, WebProcess
from wallet import services as wallet_services


def seed_for(n: int) -> str:
    """A browser-like seed: 32 hex characters."""
    return hashlib.sha256(f"browser-{n}".encode()).hexdigest()[:32]


# The web process the tests' own sockets are counted under (games/presence.py): seen as alive
# for the whole test, so no sweeper takes its sockets off the seats.
TEST_PROCESS = "tests:0:tests"


def socket_opened(user: Any, table_id: str) -> None:
    """As a table socket opening in a live web process."""
    WebProcess.objects.update_or_create(
        id=TEST_PROCESS, defaults={"seen_at": timezone.now() + timedelta(days=1)}
    )
    services.seat_connected(user=user, table_id=table_id, process=TEST_PROCESS)


def socket_closed(user: Any, table_id: str) -> None:
    services.seat_disconnected(user=user, table_id=table_id, process=TEST_PROCESS)


def make_table(creator: Any, game: str, options: dict, stake: int = 0, **kwargs: Any) -> Table:
    majlis, _ = Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    return services.table_create(
        user=creator, game=game, options=options, majlis=majlis, stake=stake, **kwargs
    )


def seat_humans(table: Table, users: list[Any]) -> None:
    for number, user in enumerate(users):
        if table.stake:
            wallet_services.grant_starter(user=user)  # sign-up's grant (idempotent)
        sit_at(table, user, number)


def sit_at(table: Table, user: Any, number: int) -> None:
    """``user`` sits at seat ``number`` of the table's waiting match, with a browser-like seed
    made for its commitment."""
    match = Match.objects.get(table=table, status=Match.Status.WAITING)
    services.seat_take(
        user=user,
        table_id=table.public_id,
        number=number,
        seed=seed_for(user.pk),
        commitment=match.commitment,
        match_id=match.public_id,
    )


def advance_until(
    match: Match,
    done: Callable[[Match], bool],
    limit: int = 5000,
) -> Match:
    """Play what is due until ``done(match)``, making each deadline pass at once: a bot's move,
    the server's step, or a human's time-out (a Celery worker running meanwhile may play some of
    them first; both go through the same locked service)."""
    for _ in range(limit):
        match.refresh_from_db()
        if done(match):
            return match
        if match.status != Match.Status.PLAYING:
            raise AssertionError(f"match {match.status} before the condition held")
        Match.objects.filter(pk=match.pk).update(
            deadline=timezone.now() - timedelta(milliseconds=1)
        )
        services.match_advance(match_id=match.pk)
    raise AssertionError("the condition never held")


def play_out(match: Match, limit: int = 20_000) -> Match:
    """Play the match to its end as its deadlines pass (time-outs for the people, the bots'
    and the server's moves), at once: the rest of a match whose first turns a test tapped.

    ``advance_until`` with "finished" for its condition, in one query a move instead of two:
    the deadline is moved back only while the match is playing, and a match no longer playing
    is read once to see how it ended (hundreds of moves a match, the snapshot read each time)."""
    playing = Match.objects.filter(pk=match.pk, status=Match.Status.PLAYING)
    for _ in range(limit):
        if not playing.update(deadline=timezone.now() - timedelta(milliseconds=1)):
            match.refresh_from_db()
            if match.status != Match.Status.FINISHED:
                raise AssertionError(f"match {match.status} before it finished")
            return match
        services.match_advance(match_id=match.pk)
    raise AssertionError("the match never finished")


def replay_state(match: Match) -> Any:
    """The state the match's log gives when replayed from its (revealed) secret."""
    engine = games.get(match.game)
    log = [(a.seat, a.action) for a in match.actions.order_by("seq")]
    return replay(engine, engine.parse_options(match.options), selectors.random_source(match), log)
