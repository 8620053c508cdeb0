"""A match's clock: what it waits for next (``due``), its deadline, and the countdown task.

A match's ``deadline`` is when whatever it waits for is played for it: the server's own step, a
bot's move, or the time-out move of a person whose turn ran out (``Due``). At most one countdown
task is queued per match (``schedule``, ``Match.timer_at``); it is sent to Celery by its name, so
the services never import the tasks that call them (games/tasks.py).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.contract import SERVER, Game
from games.models import Match, MatchAction, Seat, Table
from games.selectors import game_of, load_state

log = logging.getLogger(__name__)

_pause = random.Random()

# The countdown task (games/tasks.py), sent by name.
COUNTDOWN_TASK = "games.tasks.match_due"

# A queued countdown whose time passed this long ago is taken as lost (a killed worker): the next
# deadline gets a task of its own again. The sweeper plays what is overdue meanwhile.
TIMER_LOST_S = 5.0

TIMER_FIELDS = ("deadline", "timer_at")


def send_countdown(args: tuple[Any, ...], *, eta: datetime, queue: str) -> None:
    """Queue the countdown task for ``eta``. Its result is never read (the task is
    ``ignore_result``): not asking for it keeps the sender off the result backend."""
    current_app.send_task(COUNTDOWN_TASK, args=args, eta=eta, queue=queue, ignore_result=True)


def schedule(match: Match) -> None:
    """A countdown task for the match's deadline, sent after commit (the fast path; the beat
    sweeper catches any that is lost). At most one is kept queued per match: if the one already
    queued fires no later than the deadline, it is left to re-queue itself for the deadline when
    it fires (``match_advance``), so a person's move, whose deadline is always later than the
    last one, sends no task. Sets ``match.timer_at``; the caller saves it (``TIMER_FIELDS``)."""
    if match.deadline is None or match.status != Match.Status.PLAYING:
        match.timer_at = None
        return
    pending = match.timer_at
    lost = timezone.now() - timedelta(seconds=TIMER_LOST_S)
    if pending is not None and lost < pending <= match.deadline:
        return
    match_id, eta = match.pk, match.deadline
    match.timer_at = eta
    queue = settings.TABLES_QUEUE

    def send() -> None:
        try:
            send_countdown((match_id, eta.isoformat()), eta=eta, queue=queue)
        except Exception as exc:  # the sweeper plays it instead
            log.warning("could not schedule match %s: %r", match_id, exc)

    transaction.on_commit(send)


def parse_time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Due:
    """What a match waits for: ``seat`` (None for the server's own step) and who acts."""

    seat: int | None
    by: str  # MatchAction.By: player (a person, so a time-out), bot, or server
    delay: float  # seconds from the last change until it is played


def due(engine: Game, state: Any, seats: list[Seat], turn_s: float) -> Due | None:
    """The next thing the match waits for, or None when it is over."""
    step = engine.server_step(state)
    if step is not None:
        return Due(SERVER, MatchAction.By.SERVER, settings.SERVER_STEP_DELAY)
    seat = engine.to_move(state)
    if seat is None:
        return None
    if seats[seat].played_by_bot:
        # A person's pause is never the same twice; the jitter is for looks, not for fairness
        # (every card a bot sees and plays comes from the match's random source).
        return Due(seat, MatchAction.By.BOT, settings.BOT_DELAY * _pause.uniform(0.75, 1.5))
    if seats[seat].left:
        # A seat given up: its time-out play (never a bot at a coin table), after a bot's short
        # pause instead of a turn time: the others never wait for someone who is gone.
        return Due(seat, MatchAction.By.PLAYER, settings.BOT_DELAY * _pause.uniform(0.75, 1.5))
    if is_away(seats[seat]):
        # A seat being kept: a short turn, then the time-out play (docs/rules/*.md).
        return Due(seat, MatchAction.By.PLAYER, min(turn_s, settings.AWAY_TURN_SECONDS))
    return Due(seat, MatchAction.By.PLAYER, turn_s)


def is_away(seat: Seat) -> bool:
    """A person's seat being kept: their last socket closed and the seat is not given up."""
    return (
        seat.user_id is not None
        and not seat.is_bot
        and seat.connected == 0
        and seat.away_since is not None
        and not seat.left
        and not seat.bot_playing
    )


def _turn_start(match: Match) -> datetime:
    """When the current turn began: the last logged action, or the match's start."""
    last = match.actions.order_by("-seq").values_list("at", flat=True).first()
    return last or match.started_at or timezone.now()


def turn_time(match: Match) -> float:
    """The table's turn time (settings.TURN_SECONDS_OVERRIDE shortens every turn for tests)."""
    return settings.TURN_SECONDS_OVERRIDE or match.table.turn_seconds


def set_deadline(
    match: Match, engine: Game, state: Any, seats: list[Seat], since: datetime
) -> None:
    d = due(engine, state, seats, turn_time(match))
    match.deadline = None if d is None else since + timedelta(seconds=d.delay)


def follow(match: Match, seats: list[Seat]) -> bool:
    """Who is at a seat changed (its player went away, came back, or gave it up): the locked,
    playing match's deadline follows, for the seat whose turn it is only (never resetting
    someone else's clock). An away seat's turn ends AWAY_TURN_SECONDS from now at the latest;
    a player back gets their turn's full time from its start again; a seat now played at once
    (given up) is due after the bot's pause. True if the deadline changed (the caller has
    saved it)."""
    if match.status != Match.Status.PLAYING or match.deadline is None:
        return False
    d = due(game_of(match), load_state(match), seats, turn_time(match))
    if d is None:
        return False
    now = timezone.now()
    if d.by == MatchAction.By.PLAYER and d.seat is not None and not seats[d.seat].left:
        if is_away(seats[d.seat]):
            new = min(match.deadline, now + timedelta(seconds=d.delay))
        else:
            full = _turn_start(match) + timedelta(seconds=turn_time(match))
            new = max(match.deadline, full)
    else:
        new = min(match.deadline, now + timedelta(seconds=d.delay))
    if new == match.deadline:
        return False
    match.deadline = new
    schedule(match)
    match.save(update_fields=TIMER_FIELDS)
    return True


def reset_deadline(table: Table) -> None:
    """Who plays a seat changed: the match's deadline follows (a bot moves after BOT_DELAY)."""
    match = Match.objects.select_for_update().filter(table=table).order_by("-number").first()
    if match is None or match.status != Match.Status.PLAYING:
        return
    engine = game_of(match)
    state = load_state(match)
    seats = list(table.seats.order_by("number"))
    set_deadline(match, engine, state, seats, timezone.now())
    schedule(match)
    match.save(update_fields=TIMER_FIELDS)
