"""What a rating adds to the end of a match, on PostgreSQL: ``python -m bench.standing [--quick]``.

Figures (one JSON line at the end): ``rate_ms_<mode>``, the median time of
``standing.services.rate_match`` for a finished match of each mode (two players for Hand solo
and Jakaro two, four for the partners' modes), inside a transaction as end_match runs it (the
commit is the ending's, not counted),
the players' rating rows already there (their first match creates them: ``rate_first_ms``);
``queries`` counted for one. ``end_ms_<mode>`` and ``end_queries_<mode>``: the whole of what
the standing adds to an ending (``match_ended``: the rating, each player's history line, their
reputation and totals). Target: at most 2 ms. The run uses ``DATABASE_URL``
(default the local ``test`` database) and leaves its users, matches and ratings there; the
ratings it writes are what ``manage.py standing_rebuild`` would compute.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import time
from collections.abc import Sequence
from types import SimpleNamespace

from bench import site

MODES = {
    "hand-solo": ("hand", {"players": 2}),
    "hand-partners": ("hand", {"players": 4, "partners": True}),
    "jakaro-2": ("jakaro", {"players": 2}),
    "jakaro-partners": ("jakaro", {"players": 4}),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args(argv)
    site.start()
    from django.db import connection, reset_queries, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import User
    from games.models import Majlis, Match, Table
    from standing.services import match_ended, rate_match

    run = secrets.token_hex(4)
    count = 20 if args.quick else 200
    users = [User.objects.create_user(f"bench-rate-{run}-{i}") for i in range(4)]
    majlis, _ = Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    figures: dict[str, object] = {"matches": count}
    for mode, (game, options) in MODES.items():
        n = options["players"]
        table = Table.objects.create(
            game=game, options=options, majlis=majlis, created_by=users[0], turn_seconds=20
        )
        teams = [[0, 2], [1, 3]] if n == 4 else [[0], [1]]
        outcome = {"places": [[1, teams[0]], [2, teams[1]]], "shares": {}, "teams": teams}
        seats = [
            SimpleNamespace(number=i, user_id=users[i].pk, is_bot=False, left=False)
            for i in range(n)
        ]
        times, ends = [], []
        for k in range(2 * count + 1):
            match = Match.objects.create(
                table=table,
                number=k + 1,
                game=game,
                options=options,
                commitment="0" * 64,
                secret="0" * 64,
                status=Match.Status.FINISHED,
                outcome=outcome,
                ended_at=timezone.now(),
            )
            # Timed inside the transaction, as end_match runs it: the commit is the ending's.
            # The first half rated alone, the second kept whole (match_ended).
            whole = k > count
            reset_queries()  # the log keeps 9,000 queries: full, a capture would count none
            with transaction.atomic(), CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                if whole:
                    match_ended(match, seats, finished=True)
                else:
                    rate_match(match, seats)
                took = (time.perf_counter() - start) * 1000
            if k == 0:
                figures[f"rate_first_ms_{mode}"] = round(took, 2)
            elif whole:
                ends.append(took)
                figures[f"end_queries_{mode}"] = len(queries.captured_queries)
            else:
                times.append(took)
                figures[f"queries_{mode}"] = len(queries.captured_queries)
        figures[f"rate_ms_{mode}"] = round(statistics.median(times), 2)
        figures[f"end_ms_{mode}"] = round(statistics.median(ends), 2)
        ms, made = figures[f"rate_ms_{mode}"], figures[f"queries_{mode}"]
        end = figures[f"end_ms_{mode}"]
        print(f"{mode}: rating {ms} ms a match ({made} queries), the whole standing {end} ms")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
