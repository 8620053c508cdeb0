"""Turn timers and seat-keeping with a real Celery worker and beat against Redis.

The clocks are shortened through the environment (settings read TURN_SECONDS_OVERRIDE,
SEAT_KEEP_SECONDS, BOT_DELAY, SERVER_STEP_DELAY and SWEEP_S), in this process (which commits the
actions and so sets the deadlines) and in the worker's. Waits are bounded polls of the database:
they fail a broken run instead of hanging it, and assert nothing about speed.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from games.models import Match, MatchAction, Seat
from sahrat_site.celery import app as celery_app
from tests.conftest import ARTIFACTS, WORKER_SUFFIX, _server
from tests.tables.helpers import make_table, seat_humans, socket_closed, socket_opened

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

CLOCKS = {
    # A queue of their own: workers other tests started (with other clocks) never take these
    # tests' timers, and this module's workers take no one else's.
    "TABLES_QUEUE": f"timers-test-{os.getpid()}",
    "TURN_SECONDS_OVERRIDE": "1.5",
    "SEAT_KEEP_SECONDS": "1",
    "BOT_DELAY": "0.3",
    "SERVER_STEP_DELAY": "0.3",
    "SWEEP_S": "0.5",
}


@pytest.fixture
def short_clocks(settings):
    for name, value in CLOCKS.items():
        setattr(settings, name, value if name == "TABLES_QUEUE" else float(value))
    return settings


@contextmanager
def worker(name: str, beat: bool) -> Iterator:
    """A Celery worker process (with beat embedded when ``beat``) on the test broker."""
    ARTIFACTS.mkdir(exist_ok=True)
    args = ["celery", "-A", "sahrat_site", "worker", "--pool=solo", "--loglevel=INFO"]
    args += ["-Q", CLOCKS["TABLES_QUEUE"]]
    args += ["--without-gossip", "--without-mingle", "-n", f"{name}-{os.getpid()}@%h"]
    if beat:
        args += ["-B", f"--schedule={ARTIFACTS / f'{name}-beat-schedule'}"]
    with _server(name, *args, env=CLOCKS) as proc:
        yield proc


def wait_for(check: Callable[[], bool], seconds: float = 40, what: str = "") -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what or check}")


def logged(name: str, words: str) -> bool:
    """Whether worker ``name``'s log (tests/conftest.py ``_server``) says ``words`` yet."""
    path = ARTIFACTS / f"{name}{WORKER_SUFFIX}.log"
    return path.exists() and words in path.read_text(errors="replace")


def purge_timers() -> None:
    """Empty this module's timer queue."""
    with celery_app.connection_for_write() as conn:
        conn.default_channel.queue_purge(CLOCKS["TABLES_QUEUE"])


@pytest.fixture
def empty_queue():
    """No countdown task left over from another test of this module may play in this one."""
    purge_timers()
    yield
    purge_timers()


def test_a_timeout_auto_plays_through_the_countdown_task(short_clocks, empty_queue, creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])  # the deadline is set now; the countdown task is queued
    match = Match.objects.get(table=table, number=1)
    with worker("timers-countdown", beat=False):
        wait_for(lambda: match.actions.exists(), what="the time-out")
    act = match.actions.order_by("seq").first()
    assert act.by == MatchAction.By.TIMEOUT and act.seat == 0


def test_a_killed_workers_lost_timer_is_still_enforced_by_the_sweeper(
    short_clocks, empty_queue, creator, users
):
    table = make_table(creator, "jakaro", {"players": 2})
    with worker("timers-doomed", beat=False) as doomed:
        wait_for(lambda: logged("timers-doomed", " ready."), what="the worker's start")
        # The worker takes the countdown task (an eta task is held by the worker until due)...
        seat_humans(table, users[:2])
        wait_for(lambda: logged("timers-doomed", " received"), what="the countdown task taken")
        # ...and dies before it is due, with no goodbye: that task is gone.
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(timeout=10)
    purge_timers()
    match = Match.objects.get(table=table, number=1)
    assert not match.actions.exists()
    with worker("timers-sweeper", beat=True):
        wait_for(lambda: match.actions.exists(), what="the sweeper's time-out")
    assert match.actions.order_by("seq").first().by == MatchAction.By.TIMEOUT


def test_seat_expiry_hands_a_free_seat_to_a_bot_and_the_player_takes_it_back(
    short_clocks, empty_queue, creator, users
):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    tid = table.public_id
    for user in users[:2]:
        socket_opened(user, tid)
    socket_closed(users[0], tid)
    seat = Seat.objects.get(table=table, number=0)
    match = Match.objects.get(table=table, number=1)
    with worker("timers-seats", beat=True):
        wait_for(lambda: Seat.objects.get(pk=seat.pk).bot_playing, what="a bot in seat 0")
        wait_for(
            lambda: match.actions.filter(seat=0, by=MatchAction.By.BOT).exists(),
            what="the bot's move for seat 0",
        )
        # The player comes back: the seat is theirs again, and the bot stops.
        socket_opened(users[0], tid)
        seat.refresh_from_db()
        assert not seat.bot_playing and seat.user_id == users[0].pk
        seen = match.actions.filter(seat=0, by=MatchAction.By.BOT).count()
        # Seat 1 (present, not moving) times out; seat 0's turns are now time-outs, not a bot's.
        wait_for(
            lambda: match.actions.filter(seat=0, by=MatchAction.By.TIMEOUT).exists(),
            what="seat 0's own time-out after coming back",
        )
    assert match.actions.filter(seat=0, by=MatchAction.By.BOT).count() == seen


def test_at_a_coin_table_no_bot_ever_sits_and_time_outs_play_for_the_absent(
    short_clocks, empty_queue, creator, users
):
    # Four players: with two, the other's seat given up would end the match at once, won by
    # forfeit (issue 57, test_forfeit_win.py); here the other three play on.
    table = make_table(creator, "jakaro", {"players": 4}, stake=10)
    seat_humans(table, users[:4])
    tid = table.public_id
    socket_opened(users[0], tid)
    socket_closed(users[0], tid)
    seat = Seat.objects.get(table=table, number=0)
    match = Match.objects.get(table=table, number=1)
    with worker("timers-coin", beat=True):
        wait_for(lambda: Seat.objects.get(pk=seat.pk).left, what="seat 0 marked as left")
        wait_for(lambda: match.actions.filter(seat=0).count() >= 2, what="time-outs for seat 0")
    seat.refresh_from_db()
    assert seat.left and not seat.bot_playing and not seat.is_bot
    assert not match.actions.filter(by=MatchAction.By.BOT).exists()
