"""After a browser test: leave the live site quiet before the database is flushed."""

from __future__ import annotations

import time

from games.models import Match, Presence, Seat


def quiet_the_tables(seconds: float = 10) -> None:
    """Stop every match the test left going, so the live site's Celery worker is not moving a
    bot or playing a time-out while the database is flushed for the next test; and wait until
    Daphne has finished the disconnects of the closed pages, or the flush's TRUNCATE and their
    row locks deadlock. A disconnect decrements and deletes its Presence row and recounts the
    seat in one transaction, so once no Presence row and no connected seat is left, every one of
    them has committed (a watcher's too, who has no seat to show it)."""
    Match.objects.filter(status="playing").update(status="aborted", deadline=None)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not Presence.objects.exists() and not Seat.objects.filter(connected__gt=0).exists():
            return
        time.sleep(0.05)
