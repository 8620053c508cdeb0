"""Django for a bench run in its own process: the settings the site runs with in production (no
query log, quiet logs) against the test database unless the environment names another, migrated.
Each bench's own defaults (a Redis database, shorter clocks) come as keyword arguments."""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from typing import Any

DEFAULTS = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
    "DJANGO_SETTINGS_MODULE": "sahrat_site.settings",
    "DJANGO_DEBUG": "0",  # no query log, no debug pages
    "LOG_LEVEL": "WARNING",
}


def start(**env: str) -> None:
    """Set what the environment leaves unset (``DEFAULTS``, then ``env``), start Django and
    migrate its database."""
    for key, value in {**DEFAULTS, **env}.items():
        os.environ.setdefault(key, value)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seated_table(
    game: str, options: dict[str, Any], creator: Any, seated: Sequence[Any], stake: int = 0
) -> Any:
    """A new table of ``game`` (``stake`` coins a seat) in the main majlis, made by ``creator``
    through games.services, with ``seated`` sitting at seats 0, 1, … of its first match, each
    with a fresh seed as a browser sends it (32 hex) for the match's commitment. Call after
    ``start``."""
    from games import services
    from games.models import Majlis, Match

    # migrate makes this room; a test database flushed by earlier tests has none.
    majlis, _ = Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    table = services.table_create(
        user=creator, game=game, options=options, majlis=majlis, stake=stake
    )
    match = Match.objects.get(table=table, number=1)
    for seat, user in enumerate(seated):
        services.seat_take(
            user=user,
            table_id=table.public_id,
            number=seat,
            seed=secrets.token_hex(16),
            commitment=match.commitment,
            match_id=match.public_id,
        )
    return table


def play_one(table_id: str) -> Any:
    """One move at the table's playing match by whoever is to move: what the game's bot would
    play from that seat's view, through ``services.match_play``, or the server's own step (its
    deadline moved back, then ``services.match_advance``) when the turn is nobody's. The match
    after it (its new seq and status); None if no match is being played."""
    from django.utils import timezone

    import games
    from games import selectors, services
    from games.models import Match, Seat

    match = Match.objects.filter(table__public_id=table_id).order_by("-number").first()
    if match is None or match.status != Match.Status.PLAYING:
        return None
    engine = games.get(match.table.game)
    state = selectors.load_state(match)
    seat = engine.to_move(state)
    if seat is None:
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now())
        services.match_advance(match_id=match.pk)
    else:
        user = Seat.objects.get(table=match.table, number=seat).user
        action = engine.bot_action(engine.view(state, seat))
        services.match_play(user=user, table_id=table_id, seq=match.seq, action=action)
    match.refresh_from_db()
    return match
