"""The standing as pages show it (read only)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.utils import timezone

from standing import chart, ratings, reputation
from standing.models import MODE_CHOICES, MatchRecord, PlayerStanding, Rating, RatingChange


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


# ------------------------------------------------------------------------ a player's page

HISTORY_PAGE = 20
CHART_POINTS = 30


def standing_of(user: Any) -> PlayerStanding:
    """The player's at-a-glance row (an unsaved blank one before their first match)."""
    return PlayerStanding.objects.filter(user_id=user.pk).first() or PlayerStanding(user=user)


def modes_of(user: Any, row: PlayerStanding, rated: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each mode the player has finished a match in: its totals (played, won, left, coins and
    the game's statistics), its rating (from ``rated``, what ``ratings_of`` gave) and the chart
    of its last ratings."""
    rated_by_mode = {r["mode"]: r for r in rated}
    out = []
    for mode, label in MODE_CHOICES:
        totals = row.totals.get(mode)
        if not totals:
            continue
        points = list(
            MatchRecord.objects.filter(user=user, mode=mode, rating__isnull=False)
            .order_by("-ended_at", "-id")
            .values_list("rating", flat=True)[:CHART_POINTS]
        )[::-1]
        out.append(
            {
                "mode": mode,
                "game": mode.split("-")[0],
                "label": label,
                "totals": totals,
                "rating": rated_by_mode.get(mode),
                "chart": chart.line(points),
            }
        )
    return out


def history_of(user: Any, page: Any, *, own: bool) -> Page:
    """One page of the player's matches, newest first, each with its match and the players of
    it (``players``: seat, user, name, place, left). Their own history also lists the matches
    the staff cancelled (with the refund, in ``coins``)."""
    rows = MatchRecord.objects.filter(user=user)
    if not own:
        rows = rows.filter(status=MatchRecord.Status.FINISHED)
    # The page's ids first (an index-only walk, however far back the page is), then its rows
    # with their matches: an OFFSET over whole joined rows read every row it skipped.
    found = Paginator(
        rows.order_by("-ended_at", "-id").values_list("id", flat=True), HISTORY_PAGE
    ).get_page(page)
    by_id = MatchRecord.objects.select_related("match").in_bulk(list(found.object_list))
    found.object_list = [by_id[i] for i in found.object_list]
    ids = [r.match_id for r in found.object_list]
    others: dict[int, list[dict[str, Any]]] = {}
    for r in (
        MatchRecord.objects.filter(match_id__in=ids)
        .select_related("user")
        .order_by("match_id", "seat")
        .only("match_id", "seat", "place", "left", "user__username", "user__display_name")
    ):
        others.setdefault(r.match_id, []).append(
            {
                "seat": r.seat,
                "username": r.user.username,
                "name": r.user.display_name or r.user.username,
                "place": r.place,
                "left": r.left,
            }
        )
    for r in found.object_list:
        r.players = others.get(r.match_id, [])
    return found


def head_to_head(user: Any, other: Any) -> list[dict[str, Any]]:
    """``user`` and ``other`` in the finished matches where both sat, one row per mode they met
    in (in MODE_CHOICES order): ``matches``, ``mine`` (``user`` won and ``other`` did not),
    ``theirs`` (the other way round), ``shared`` (both first: a tie, or partners who won
    together), ``i_left`` and ``they_left``. Empty when they never finished a match together."""
    theirs = MatchRecord.objects.filter(match=OuterRef("match"), user=other)
    rows = (
        MatchRecord.objects.filter(user=user, status=MatchRecord.Status.FINISHED)
        .annotate(
            other_won=Subquery(theirs.values("won")[:1]),
            other_left=Subquery(theirs.values("left")[:1]),
        )
        .filter(other_won__isnull=False)
        .values("mode")
        .annotate(
            matches=Count("id"),
            mine=Count("id", filter=Q(won=True, other_won=False)),
            theirs=Count("id", filter=Q(won=False, other_won=True)),
            shared=Count("id", filter=Q(won=True, other_won=True)),
            i_left=Count("id", filter=Q(left=True)),
            they_left=Count("id", filter=Q(other_left=True)),
        )
    )
    by_mode = {r["mode"]: r for r in rows}
    return [{**by_mode[mode], "label": label} for mode, label in MODE_CHOICES if mode in by_mode]


# ------------------------------------------------------------------------ leaderboards

BOARD_SIZE = 50
BOARD_MIN_RATED = 20
BOARD_ACTIVE = timedelta(days=7)
MONTH = timedelta(days=30)
MONTH_MIN_MATCHES = 15
MONTH_BOARD_SECONDS = 60  # how stale the 30-day board may be


def rating_board(mode: str, viewer: Any = None) -> dict[str, Any]:
    """The mode's best ratings: players with at least BOARD_MIN_RATED rated matches, one in
    the last BOARD_ACTIVE, and a rating no longer provisional; the top BOARD_SIZE, and the
    viewer's own rank wherever it is (None when they are not on the board)."""
    ordinal = F("mu") - 3 * F("sigma")
    board = Rating.objects.filter(
        mode=mode,
        rated__gte=BOARD_MIN_RATED,
        sigma__lte=ratings.PROVISIONAL_SIGMA,
        updated_at__gte=timezone.now() - BOARD_ACTIVE,
    ).annotate(ordinal=ordinal)
    top = [
        {
            "rank": i,
            "username": r.user.username,
            "name": r.user.display_name or r.user.username,
            "value": ratings.shown(r.mu, r.sigma),
            "matches": r.rated,
            "you": viewer is not None and r.user_id == viewer.pk,
        }
        for i, r in enumerate(
            board.select_related("user").order_by("-ordinal", "user_id")[:BOARD_SIZE], 1
        )
    ]
    you = None
    if viewer is not None and viewer.is_authenticated:
        mine = board.filter(user=viewer).first()
        if mine is not None:
            ahead = board.filter(
                Q(ordinal__gt=mine.ordinal) | Q(ordinal=mine.ordinal, user_id__lt=viewer.pk)
            ).count()
            you = {"rank": ahead + 1, "value": ratings.shown(mine.mu, mine.sigma)}
    return {"rows": top, "you": you}


def month_board(mode: str, viewer: Any = None) -> dict[str, Any]:
    """The 30-day board as Jawaker counts it: wins over finished-plus-left matches in the last
    30 days (a left match counts against), for players with at least MONTH_MIN_MATCHES; the
    top BOARD_SIZE and the viewer's rank. Counted again at most every MONTH_BOARD_SECONDS."""
    rows = cache.get(f"standing:month:{mode}")
    if rows is None:
        # Every finished match of the mode in 30 days, counted: the one costly read of the
        # standing's pages, so it is made at most once a MONTH_BOARD_SECONDS per process.
        rows = list(
            MatchRecord.objects.filter(
                mode=mode, status=MatchRecord.Status.FINISHED, ended_at__gte=timezone.now() - MONTH
            )
            .values("user_id")
            .annotate(n=Count("id"), w=Count("id", filter=Q(won=True)))
            .filter(n__gte=MONTH_MIN_MATCHES)
            .values_list("user_id", "n", "w")
        )
        rows.sort(key=lambda r: (-r[2] / r[1], -r[2], r[0]))
        cache.set(f"standing:month:{mode}", rows, MONTH_BOARD_SECONDS)
    names = {
        u.pk: u
        for u in get_user_model()
        .objects.filter(pk__in=[r[0] for r in rows[:BOARD_SIZE]])
        .only("username", "display_name")
    }
    top = [
        {
            "rank": i,
            "username": names[user_id].username,
            "name": names[user_id].display_name or names[user_id].username,
            "value": 100 * won // played,
            "matches": played,
            "won": won,
            "you": viewer is not None and user_id == viewer.pk,
        }
        for i, (user_id, played, won) in enumerate(rows[:BOARD_SIZE], 1)
    ]
    you = None
    if viewer is not None and viewer.is_authenticated:
        for i, (user_id, played, won) in enumerate(rows, 1):
            if user_id == viewer.pk:
                you = {"rank": i, "value": 100 * won // played}
                break
    return {"rows": top, "you": you}
