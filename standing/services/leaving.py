"""Leaving: a seat given up during a match moves the player's run of leaves on and may lock them
out of starting new matches (standing/reputation.py has the numbers); the tables ask
``check_may_start`` before a player sits or says ready."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from standing import reputation
from standing.errors import LockedOut
from standing.models import PlayerStanding
from standing.selectors import locked_until


def player_left(user_id: int, at: datetime | None = None) -> PlayerStanding:
    """A seat given up by ``user_id`` (games/services/seats.py ``_give_up``, in its
    transaction): their run of leaves grows, and from the second in a run they are locked out
    for a while. A lost connection that comes back within the seat-keeping never gets here."""
    at = at or timezone.now()
    PlayerStanding.objects.get_or_create(user_id=user_id)
    row = PlayerStanding.objects.select_for_update().get(user_id=user_id)
    row.leaves = reputation.run_of_leaves(row.leaves, row.last_left_at, at)
    row.last_left_at = at
    lock = reputation.lock_for(row.leaves)
    if lock is not None:
        row.locked_until = max(row.locked_until or at, at + lock)
    row.save(update_fields=["leaves", "last_left_at", "locked_until"])
    return row


def check_may_start(user: Any) -> None:
    """LockedOut (with the time left) while ``user`` is locked out."""
    until = locked_until(user)
    if until is not None:
        raise LockedOut("locked_out", until.isoformat(), until=until)
