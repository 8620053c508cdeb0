"""A player's page and the leaderboards with a long history, on PostgreSQL:
``python -m bench.standing_pages [--quick]``.

A player with ``--matches`` finished matches (10,000 by default; 1,000 with --quick) over the
last 60 days, against a few hundred other players who each have enough of their own to be on
both boards. Each page is asked for as a browser would (Django's test client: the whole server
side, the template included; no network) and timed; the queries of one request are counted.

Figures (one JSON line at the end): ``history_matches``; ``profile_ms`` (the page, first page of
the history), ``profile_deep_ms`` (a page far back in the history), ``leaderboard_ms`` (a mode's
two boards, the 30-day one as kept for a minute), ``leaderboard_cold_ms`` (that board counted
again): medians of ``--repeat`` requests, and their p90; ``*_queries``. Target: at
most 50 ms each. The run leaves its rows in the database (``DATABASE_URL``, default the local
``test`` database); each run makes its own players.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from bench import site
from bench.stats import percentile


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 matches, fewer requests")
    parser.add_argument("--matches", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args(argv)
    matches = args.matches or (1000 if args.quick else 10_000)
    repeat = args.repeat or (5 if args.quick else 30)
    site.start()
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    run = secrets.token_hex(4)
    player = seed(run, matches)
    with connection.cursor() as cursor:  # statistics as autovacuum keeps them on a live site
        for name in ("standing_matchrecord", "standing_rating", "games_match"):
            cursor.execute(f"ANALYZE {name}")
    client = Client()
    client.force_login(player)
    urls = {
        "profile": f"/accounts/u/{player.username}/",
        "profile_deep": f"/accounts/u/{player.username}/?page={max(1, matches // 40)}",
        "leaderboard": "/leaders/jakaro-2/",
        "leaderboard_cold": "/leaders/jakaro-2/",  # the 30-day board counted again each time
    }
    figures: dict[str, object] = {"history_matches": matches}
    for name, url in urls.items():
        client.get(url)  # warm: templates compiled, connection open
        times = []
        for _ in range(repeat):
            reset_queries()  # the log keeps 9,000 queries: full, a capture would count none
            if name.endswith("_cold"):
                cache.clear()
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        figures[f"{name}_ms"] = round(statistics.median(times), 2)
        figures[f"{name}_p90_ms"] = round(percentile(times, 0.9), 2)
        figures[f"{name}_queries"] = len(queries.captured_queries)
        print(f"{name}: {figures[f'{name}_ms']} ms ({len(queries.captured_queries)} queries)")
    print(json.dumps(figures))
    return 0


def seed(run: str, matches: int) -> Any:
    """The player (a User), their opponents, the matches and every standing row, in bulk."""
    from django.utils import timezone

    from accounts.models import User
    from games.models import Majlis, Match, Table
    from standing import ratings
    from standing.models import MatchRecord, PlayerStanding, Rating

    rng = random.Random(run)
    now = timezone.now()
    others = [
        User.objects.create_user(f"bench-page-{run}-{i}", display_name=f"لاعب {i}")
        for i in range(300)
    ]
    player = User.objects.create_user(f"bench-page-{run}-me", display_name="أنا")
    majlis, _ = Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    table = Table.objects.create(
        game="jakaro", options={"players": 2}, majlis=majlis, created_by=player, turn_seconds=20
    )
    rows = Match.objects.bulk_create(
        [
            Match(
                table=table,
                number=n + 1,
                game="jakaro",
                options={"players": 2},
                commitment="0" * 64,
                secret="0" * 64,
                status=Match.Status.FINISHED,
                ended_at=now - timedelta(minutes=n * 60 * 24 * 60 // matches),
            )
            for n in range(matches)
        ],
        batch_size=2000,
    )
    records = []
    for k, match in enumerate(rows):
        other = others[k % len(others)]
        won = rng.random() < 0.5
        for user, seat, first in ((player, 0, won), (other, 1, not won)):
            records.append(
                MatchRecord(
                    user=user,
                    match=match,
                    game="jakaro",
                    mode="jakaro-2",
                    seat=seat,
                    status="finished",
                    rated=True,
                    place=1 if first else 2,
                    won=first,
                    coins=0,
                    rating=1000 + rng.randint(-50, 50),
                    rating_change=rng.randint(-20, 20),
                    stats={"home": 4 if first else rng.randint(0, 3), "knock_outs": 1},
                    ended_at=match.ended_at,
                )
            )
    MatchRecord.objects.bulk_create(records, batch_size=5000)
    Rating.objects.bulk_create(
        [
            Rating(
                user=u,
                mode="jakaro-2",
                mu=rng.uniform(20, 35),
                sigma=rng.uniform(2, 5),
                rated=rng.randint(20, 200),
            )
            for u in [*others, player]
        ]
    )
    totals = {"played": matches, "won": matches // 2, "left": 0, "coins": 0, "home": 3 * matches}
    PlayerStanding.objects.create(
        user=player,
        recent="F" * 50,
        shown={"jakaro-2": [ratings.shown(30, 3), False]},
        totals={"jakaro-2": totals},
    )
    return player


if __name__ == "__main__":
    raise SystemExit(main())
