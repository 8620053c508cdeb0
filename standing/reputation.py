"""Reputation for finishing and the lock-out for leaving, pure (no Django): the numbers
docs/standing.md gives, and the arithmetic on them.

- Reputation: the share of a player's last RECENT counted matches (finished or left; a cancelled
  match does not count) that they finished, in whole percent. Until they have GRACE of them the
  missing ones count as finished: a newcomer shows 100 %, and one early leave costs 10 points,
  not half of everything.
- Lock-out: a seat given up within LEAVE_WINDOW of the previous one adds to the player's run of
  leaves (else the run starts again at one). The first leave of a run is free (a phone dies);
  the second locks the player out of starting new matches for FIRST_LOCK, each further one
  doubles it, up to MAX_LOCK.
"""

from __future__ import annotations

from datetime import datetime, timedelta

# The minimum reputations a table may ask for (0: anyone may sit).
MIN_REPUTATION_LEVELS = (0, 70, 80, 90, 95)
RECENT = 50
GRACE = 10
FINISHED, LEFT = "F", "L"
LEAVE_WINDOW = timedelta(hours=24)
FIRST_LOCK = timedelta(minutes=10)
MAX_LOCK = timedelta(hours=24)


def reputation(recent: str) -> int:
    """The share finished of the recent matches (``recent``: "F"/"L" marks), in whole percent
    (rounded down: 49 of 50 is 98)."""
    counted = recent[-RECENT:]
    finished = counted.count(FINISHED) + max(0, GRACE - len(counted))
    return 100 * finished // max(len(counted), GRACE)


def push(recent: str, mark: str) -> str:
    """``recent`` with one more match's mark, the oldest dropped past RECENT."""
    return (recent + mark)[-RECENT:]


def run_of_leaves(leaves: int, last_left_at: datetime | None, now: datetime) -> int:
    """The run of leaves after a seat given up at ``now``."""
    if last_left_at is not None and now - last_left_at < LEAVE_WINDOW:
        return leaves + 1
    return 1


def lock_for(leaves: int) -> timedelta | None:
    """How long a run of ``leaves`` locks the player out (None for the first)."""
    if leaves < 2:
        return None
    return min(FIRST_LOCK * 2 ** (leaves - 2), MAX_LOCK)
