"""Celery tasks of the live tables: turn timers, bots' moves and seat-keeping (DESIGN.md, Timers).

The countdown task ``match_due`` is queued on commit for a match's deadline (the fast path), at
most one per match: a later deadline leaves the queued one in place, and when it fires before the
deadline it queues itself again for it (games.services.clock.schedule, ``Match.timer_at``), so a
person's move sends no task. The beat sweeper ``sweep`` runs every second or two and plays
whatever a lost task missed, picking rows with ``select_for_update(skip_locked=True)`` so two
sweepers never wait on each other. ``revoke`` is never needed: a task that finds nothing due does
nothing.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games import services

log = logging.getLogger(__name__)


@shared_task(name="games.tasks.match_due", ignore_result=True)
def match_due(match_id: int, timer: str | None = None) -> bool:
    """Play what is due at the deadline the task was queued for (``timer``, ISO 8601)."""
    return services.match_advance(match_id=match_id, timer=timer)


@shared_task(name="games.tasks.sweep", ignore_result=True)
def sweep() -> int:
    """The safety net: every overdue match, every web process gone silent, every seat kept too
    long, every seat whose player did not play again in time, and every table no person has sat
    at for TABLE_IDLE_MINUTES (closed)."""
    played = 0
    for match_id in services.matches_due():
        try:
            # One action per match per sweep: a match with several things due gets the next on
            # the next sweep (or from the countdown task the first one schedules).
            played += services.match_advance(match_id=match_id, skip_locked=True)
        except Exception:
            log.exception("sweeper could not advance match %s", match_id)
    try:
        services.processes_gone()  # seats held by sockets of a web process that ended
    except Exception:
        log.exception("sweeper could not count the sockets of ended web processes")
    for seat_id in services.seats_expired():
        try:
            services.seat_expire(seat_id=seat_id)
        except Exception:
            log.exception("sweeper could not expire seat %s", seat_id)
    for seat_id in services.rematch_lapsed():
        try:
            services.seat_lapse(seat_id=seat_id)  # did not play again in time: seat opens
        except Exception:
            log.exception("sweeper could not open seat %s", seat_id)
    for table_pk in services.tables_idle():
        try:
            services.table_close_idle(table_pk=table_pk)  # nobody has sat here for a while
        except Exception:
            log.exception("sweeper could not close idle table %s", table_pk)
    return played
