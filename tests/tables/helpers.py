"""Helpers for the live-table tests: tables, seats and a match moved on through the services."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from datetime import timedelta
from typing import Any

from django.utils import timezone

import games
from games import selectors, services
from games.contract import replay
from games.models import Majlis, Match, MatchAction, Seat, Table, WebProcess
from games.services import clock
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


def play_out(match: Match, limit: int = 20_000, idle: Collection[int] = ()) -> Match:
    """Play the match to its end as its deadlines pass (time-outs for the people, the bots'
    and the server's moves), at once: the rest of a match whose first turns a test tapped.
    Each present person who has not moved yet makes one move of their own first (a match
    nobody played is aborted, issue 57), except the seats in ``idle``.

    ``advance_until`` with "finished" for its condition, in one query a move instead of two:
    the deadline is moved back only while the match is playing, and a match no longer playing
    is read once to see how it ended (hundreds of moves a match, the snapshot read each time)."""
    playing = Match.objects.filter(pk=match.pk, status=Match.Status.PLAYING)
    pending = {s: u for s, u in _present(match).items() if s not in idle}
    for _ in range(limit):
        if pending and _own_first_move(match, pending):
            continue
        if not playing.update(deadline=timezone.now() - timedelta(milliseconds=1)):
            match.refresh_from_db()
            if match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
                raise AssertionError(f"match {match.status} before it ended")
            return match
        services.match_advance(match_id=match.pk)
    raise AssertionError("the match never finished")


def first_moves(match: Match, seats: Collection[int], limit: int = 2000) -> Match:
    """Play on (the others' turns as their deadlines pass) until each person at ``seats`` has
    made a move of their own."""
    pending = {s: u for s, u in _present(match).items() if s in seats}
    playing = Match.objects.filter(pk=match.pk, status=Match.Status.PLAYING)
    for _ in range(limit):
        if not pending:
            match.refresh_from_db()
            return match
        if _own_first_move(match, pending):
            continue
        if not playing.update(deadline=timezone.now() - timedelta(milliseconds=1)):
            raise AssertionError("the match ended before they all moved")
        services.match_advance(match_id=match.pk)
    raise AssertionError("they never all moved")


def _present(match: Match) -> dict[int, Any]:
    """The people seated and present (not away, not given up, not played by a bot) who have not
    made a move of their own in the match yet, by seat."""
    seats = Seat.objects.filter(table_id=match.table_id, user__isnull=False, is_bot=False)
    moved = set(match.actions.filter(by=MatchAction.By.PLAYER).values_list("seat", flat=True))
    return {
        s.number: s.user
        for s in seats.select_related("user")
        if not (s.left or s.bot_playing or clock.is_away(s) or s.number in moved)
    }


def _own_first_move(match: Match, pending: dict[int, Any]) -> bool:
    """If it is the turn of a present person who has not moved yet, they make one move of their
    own (the bot's choice from their view, through ``match_play``): a match the people sat at
    and played, so it is rated, not aborted as nobody's (issue 57). True if they moved."""
    match = Match.objects.select_related("table").get(pk=match.pk)
    if match.status != Match.Status.PLAYING:
        return False
    engine = games.get(match.game)
    state = selectors.load_state(match)
    seat = None if engine.server_step(state) is not None else engine.to_move(state)
    user = pending.pop(seat, None)
    if user is None:
        return False
    if not Seat.objects.filter(
        table_id=match.table_id, number=seat, user=user, left=False
    ).exists():
        return False
    action = engine.bot_action(engine.view(state, seat))
    services.match_play(user=user, table_id=match.table.public_id, seq=match.seq, action=action)
    return True


def replay_state(match: Match) -> Any:
    """The state the match's log gives when replayed from its (revealed) secret."""
    engine = games.get(match.game)
    log = [(a.seat, a.action) for a in match.actions.order_by("seq")]
    return replay(engine, engine.parse_options(match.options), selectors.random_source(match), log)
