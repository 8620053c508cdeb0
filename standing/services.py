"""The standing's one writer: a finished match rated, exactly once, in the transaction that
ends it (games/services/play.py end_match calls ``rate_match``), and every rating rebuilt from
the rated matches in order (``rebuild``, for the standing_rebuild command)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Min

from standing import ratings
from standing.models import RatedMatch, Rating, RatingChange


def rate_match(match: Any, seats: Iterable[Any]) -> RatedMatch | None:
    """Rate a finished ``match`` (a games Match with its outcome) from its table's ``seats`` as
    they are at its end (each with number, user_id, is_bot, left). Exactly once: a second call
    for the same match changes nothing. The caller holds the match's lock, in its transaction;
    the players' rating rows are locked here in a fixed order (user, then mode)."""
    if match.outcome is None or RatedMatch.objects.filter(match=match).exists():
        return None
    seats = sorted(seats, key=lambda s: s.number)
    mode = ratings.mode_of(match.game, match.options)
    left = [s.number for s in seats if s.left]
    place = ratings.places(match.outcome, len(seats), left)
    team = ratings.teams_of(match.outcome, len(seats))
    players = [
        {
            "seat": s.number,
            "user": s.user_id,
            "place": place[s.number],
            "team": team[s.number],
            "left": s.left,
        }
        for s in seats
    ]
    rated = all(not s.is_bot and s.user_id is not None for s in seats)
    record = RatedMatch.objects.create(match=match, mode=mode, rated=rated, players=players)
    if rated:
        _apply(record)
    return record


def _apply(record: RatedMatch) -> None:
    users = sorted({p["user"] for p in record.players})
    Rating.objects.bulk_create(
        [Rating(user_id=u, mode=record.mode) for u in users], ignore_conflicts=True
    )
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(mode=record.mode, user_id__in=users)
        .order_by("user_id", "mode")
    }
    new = ratings.rate(
        [
            ratings.Player(
                user=p["user"],
                seat=p["seat"],
                mu=rows[p["user"]].mu,
                sigma=rows[p["user"]].sigma,
                place=p["place"],
                team=p["team"],
                left=p["left"],
            )
            for p in record.players
        ]
    )
    changes = []
    for user in users:
        row = rows[user]
        mu, sigma = new[user]
        changes.append(
            RatingChange(
                rated_match=record,
                user_id=user,
                mode=record.mode,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu_after=mu,
                sigma_after=sigma,
            )
        )
        row.mu, row.sigma, row.rated = mu, sigma, row.rated + 1
        row.updated_at = record.at
    Rating.objects.bulk_update(rows.values(), ["mu", "sigma", "rated", "updated_at"])
    RatingChange.objects.bulk_create(changes)


def rebuild() -> dict[str, int]:
    """Every rating recomputed from the rated matches in the order they were rated, compared
    with what is stored: {"matches", "ratings", "changes_wrong", "ratings_wrong"}. Nothing is
    written: a difference is a defect to look into (as wallet_reconcile does for coins)."""
    state: dict[tuple[int, str], tuple[float, float, int]] = {}
    changes_wrong = 0
    matches = 0
    stored = {
        (c.rated_match_id, c.user_id): c
        for c in RatingChange.objects.all().only(
            "rated_match_id", "user_id", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    }
    # In the order the ratings were applied: the first change's id, taken after the rows' locks
    # (two matches of the same players ending at once are applied one after the other, and the
    # one that got the locks first may have been recorded second).
    in_order = (
        RatedMatch.objects.filter(rated=True)
        .annotate(first=Min("changes__id"))
        .order_by("first", "match_id")
    )
    for record in in_order:
        matches += 1
        before = {
            p["user"]: state.get(
                (p["user"], record.mode), (ratings.START_MU, ratings.START_SIGMA, 0)
            )
            for p in record.players
        }
        new = ratings.rate(
            [
                ratings.Player(
                    user=p["user"],
                    seat=p["seat"],
                    mu=before[p["user"]][0],
                    sigma=before[p["user"]][1],
                    place=p["place"],
                    team=p["team"],
                    left=p["left"],
                )
                for p in record.players
            ]
        )
        for user, (mu, sigma) in new.items():
            change = stored.get((record.match_id, user))
            want = (before[user][0], before[user][1], mu, sigma)
            got = (
                None
                if change is None
                else (change.mu_before, change.sigma_before, change.mu_after, change.sigma_after)
            )
            if got != want:
                changes_wrong += 1
            state[(user, record.mode)] = (mu, sigma, before[user][2] + 1)
    ratings_wrong = 0
    rows = list(Rating.objects.all())
    for row in rows:
        want = state.get((row.user_id, row.mode), (ratings.START_MU, ratings.START_SIGMA, 0))
        if (row.mu, row.sigma, row.rated) != want:
            ratings_wrong += 1
    ratings_wrong += len({k for k in state} - {(r.user_id, r.mode) for r in rows})
    return {
        "matches": matches,
        "ratings": len(rows),
        "changes_wrong": changes_wrong,
        "ratings_wrong": ratings_wrong,
    }
