"""The standing as pages show it (read only)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from standing import ratings, reputation
from standing.models import MODE_CHOICES, PlayerStanding, Rating, RatingChange


def ratings_of(user: Any) -> list[dict[str, Any]]:
    """The player's rating in each mode they have played rated: the number shown, whether it is
    still provisional ("?"), the rated matches, and the last match's change of the number."""
    rows = {r.mode: r for r in Rating.objects.filter(user=user)}
    out = []
    for mode, label in MODE_CHOICES:
        row = rows.get(mode)
        if row is None:
            continue
        last = RatingChange.objects.filter(user=user, mode=mode).order_by("-id").first()
        change = None
        if last is not None:
            change = ratings.shown(last.mu_after, last.sigma_after) - ratings.shown(
                last.mu_before, last.sigma_before
            )
        out.append(
            {
                "mode": mode,
                "label": label,
                "shown": ratings.shown(row.mu, row.sigma),
                "provisional": ratings.provisional(row.sigma),
                "rated": row.rated,
                "change": change,
            }
        )
    return out


def locked_until(user: Any) -> datetime | None:
    """Until when ``user`` may not start a new match, or None."""
    until = (
        PlayerStanding.objects.filter(user_id=user.pk)
        .values_list("locked_until", flat=True)
        .first()
    )
    return until if until is not None and until > timezone.now() else None


def reputation_of(user: Any) -> int:
    """``user``'s reputation for finishing, in percent (a newcomer's is 100)."""
    recent = PlayerStanding.objects.filter(user_id=user.pk).values_list("recent", flat=True)
    return reputation.reputation(recent.first() or "")
