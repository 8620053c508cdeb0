"""The standing's pages: a player's public page (ratings with their chart, reputation, totals,
statistics, head-to-head and the match history) and the leaderboards. Thin: the reads are in
standing/selectors.py; the games' words come from their template filters (game_words)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from standing import reputation, selectors
from standing.models import MODE_CHOICES
from standing.stats import stat_rows


@require_safe
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page, for anyone; their own shows what only they see (the matches the
    staff cancelled, a lock-out)."""
    shown = get_object_or_404(get_user_model(), username=username, is_active=True)
    viewer = request.user if request.user.is_authenticated else None
    own = viewer is not None and viewer.pk == shown.pk
    row = selectors.standing_of(shown)
    rated = selectors.ratings_of(shown)
    modes = selectors.modes_of(shown, row, rated)
    for mode in modes:
        mode["stats"] = stat_rows(mode["game"], mode["totals"])
    history = selectors.history_of(shown, request.GET.get("page"), own=own)
    context = {
        "player": shown,
        "own": own,
        "standing": rated,
        "reputation": reputation.reputation(row.recent),
        "recent": len(row.recent),
        "locked_until": selectors.locked_until(shown) if own else None,
        "modes": modes,
        "history": history,
        "versus": selectors.head_to_head(viewer, shown) if viewer and not own else None,
    }
    return render(request, "standing/player.html", context)


@require_safe
def leaderboard(request: HttpRequest, mode: str = MODE_CHOICES[0][0]) -> HttpResponse:
    """A mode's two boards: the ratings, and the last 30 days' share of wins."""
    if mode not in dict(MODE_CHOICES):
        raise Http404
    viewer = request.user if request.user.is_authenticated else None
    context = {
        "mode": mode,
        "modes": MODE_CHOICES,
        "label": dict(MODE_CHOICES)[mode],
        "rating": selectors.rating_board(mode, viewer),
        "month": selectors.month_board(mode, viewer),
        "min_rated": selectors.BOARD_MIN_RATED,
        "min_month": selectors.MONTH_MIN_MATCHES,
    }
    return render(request, "standing/leaderboard.html", context)
