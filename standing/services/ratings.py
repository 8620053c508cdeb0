"""Ratings: a finished match rated, exactly once, in the transaction that ends it
(``match_ended`` in standing/services/records.py calls ``rate_match``), and every rating rebuilt
from the rated matches in order (``rebuild``, for the standing_rebuild command)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any

from django.db import connection
from django.db.models import Min
from django.utils import timezone

from standing import ratings
from standing.models import RatedMatch, Rating, RatingChange


def rate_match(match: Any, seats: Iterable[Any], idle: Collection[int] = ()) -> RatedMatch | None:
    """Rate a finished ``match`` (a games Match with its outcome) from its table's ``seats`` as
    they are at its end (each with number, user_id, is_bot, left); the seats in ``idle`` made no
    move of their own and are not rated (docs/standing.md). Exactly once: a second call
    for the same match changes nothing and returns None. The record returned carries
    ``moved``: each rated user's (mu, sigma) before and after, {user: (mu0, sigma0, mu1, sigma1)}
    (empty for an unrated match). The caller holds the match's lock, in
    its transaction; the players' rating rows are locked here in a fixed order (by user).

    Four statements in all, in plain SQL that PostgreSQL and SQLite both run (as the ledger's
    hot path is): it runs inside every match's ending, and the ORM's building of them cost more
    than the database's work (bench.standing)."""
    if match.outcome is None:
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
            "idle": s.number in idle,
        }
        for s in seats
    ]
    rated = all(not s.is_bot and s.user_id is not None for s in seats) and ratings.rateable(players)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO standing_ratedmatch (match_id, mode, rated, players, at)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING match_id",
            [match.pk, mode, rated, json.dumps(players), now],
        )
        if cursor.fetchone() is None:
            return None  # rated before: the key of "exactly once"
        moved = _apply(cursor, match.pk, mode, players, now) if rated else {}
    record = RatedMatch(match_id=match.pk, mode=mode, rated=rated, players=players)
    record.moved = moved
    return record


def _apply(
    cursor: Any, match_id: int, mode: str, players: list[dict[str, Any]], now: Any
) -> dict[int, tuple[float, float, float, float]]:
    users = sorted({p["user"] for p in players if not p.get("idle")})
    # Each player's row in the mode, made at the start values if missing, locked (an upsert
    # locks the row it meets, in the order of its values: by user) and read, in one statement.
    cursor.execute(
        "INSERT INTO standing_rating (user_id, mode, mu, sigma, rated, updated_at) VALUES "
        + ", ".join(["(%s, %s, %s, %s, 0, %s)"] * len(users))
        + " ON CONFLICT (user_id, mode) DO UPDATE SET rated = standing_rating.rated"
        " RETURNING id, user_id, mu, sigma",
        [x for u in users for x in (u, mode, ratings.START_MU, ratings.START_SIGMA, now)],
    )
    rows = {user: (row_id, mu, sigma) for row_id, user, mu, sigma in cursor.fetchall()}
    new = ratings.rate_recorded(players, {u: (mu, sigma) for u, (_id, mu, sigma) in rows.items()})
    ids = [rows[u][0] for u in users]
    cases = " ".join(["WHEN %s THEN %s"] * len(users))
    cursor.execute(
        f"UPDATE standing_rating SET mu = CASE id {cases} END, sigma = CASE id {cases} END,"
        f" rated = rated + 1, updated_at = %s WHERE id IN ({', '.join(['%s'] * len(users))})",
        [x for u in users for x in (rows[u][0], new[u][0])]
        + [x for u in users for x in (rows[u][0], new[u][1])]
        + [now, *ids],
    )
    cursor.execute(
        "INSERT INTO standing_ratingchange (rated_match_id, user_id, mode, mu_before,"
        " sigma_before, mu_after, sigma_after) VALUES "
        + ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(users)),
        [x for u in users for x in (match_id, u, mode, rows[u][1], rows[u][2], *new[u])],
    )
    return {u: (rows[u][1], rows[u][2], *new[u]) for u in users}


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
        new = ratings.rate_recorded(record.players, {u: b[:2] for u, b in before.items()})
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
