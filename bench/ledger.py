"""The coin ledger on PostgreSQL: ``python -m bench.ledger [--quick]``.

Figures (one JSON line at the end):

- ``transfers_per_s_1``: transfers written by one writer, each its own transaction through
  ``wallet.ledger.transfer`` (lock both accounts in id order, check the key, insert, update the two
  balances), back and forth between two wallets;
- ``transfers_per_s_8``: the same from eight threads at once (eight database connections), each
  between a pair of wallets of its own, as eight tables' players would be;
- ``settle_4p_ms``: the median time to settle a four-player Jakaro coin match (fee to the house,
  two payouts, one transaction), from the escrow its stakes went into at the start.

Targets (the issue): at least 1,000 transfers/s with eight writers, a settlement within 20 ms.
The run uses ``DATABASE_URL`` (default the local ``test`` database) and leaves its accounts and
transfers there: every coin it moves is balanced, so ``manage.py wallet_reconcile`` still passes.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import threading
import time
from collections.abc import Sequence
from typing import Any

from bench import site


def _writer(wallets: tuple[Any, Any], count: int, tag: str) -> None:
    from django.db import connection

    from wallet import ledger

    a, b = wallets
    try:
        for i in range(count):
            src, dst = (a, b) if i % 2 == 0 else (b, a)
            ledger.transfer(
                source=src, dest=dst, amount=1, kind="adjust", reason="bench", key=f"{tag}:{i}"
            )
    finally:
        connection.close()


def transfers_per_s(pairs: list[tuple[Any, Any]], count: int, run: str) -> float:
    threads = [
        threading.Thread(target=_writer, args=(pair, count, f"bench:{run}:{len(pairs)}:{n}"))
        for n, pair in enumerate(pairs)
    ]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(pairs) * count / (time.perf_counter() - start)


def settle_ms(players: list[Any], host: Any, rounds: int) -> float:
    from django.utils import timezone

    from games import services
    from games.contract import Outcome
    from games.models import Match

    outcome = Outcome(((1, (0, 2)), (2, (1, 3))), {0: 0.5, 1: 0, 2: 0.5, 3: 0}, ((0, 2), (1, 3)))
    times = []
    for _ in range(rounds):
        table = site.seated_table("jakaro", {"players": 4}, host, players, stake=100)
        match = Match.objects.get(table=table, number=1)
        match.status = Match.Status.FINISHED
        match.outcome = {
            "places": [[1, [0, 2]], [2, [1, 3]]],
            "shares": {"0": "1/2", "1": "0", "2": "1/2", "3": "0"},
            "teams": [list(t) for t in outcome.teams],
        }
        match.ended_at = match.revealed_at = timezone.now()
        match.save()
        start = time.perf_counter()
        services.settle(match)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (well under 30 s)")
    parser.add_argument("--scale", type=float, default=1.0, help=argparse.SUPPRESS)  # tests
    args = parser.parse_args(argv)
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sahrat_site.settings")
    os.environ.setdefault("DJANGO_DEBUG", "0")  # no query log
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from accounts.models import User
    from wallet import ledger
    from wallet import services as wallet_services

    if connection.vendor != "postgresql":
        parser.error("the ledger bench runs on PostgreSQL: set DATABASE_URL")
    call_command("migrate", verbosity=0)
    run = secrets.token_hex(4)
    one, eight, settles = (400, 250, 10) if args.quick else (3000, 1500, 50)
    one, eight, settles = (max(2, round(n * args.scale)) for n in (one, eight, settles))

    users = [User.objects.create_user(f"bench-{run}-{i}") for i in range(20)]
    wallets = [wallet_services.wallet_of(u) for u in users]
    for u, w in zip(users, wallets, strict=True):
        ledger.transfer(
            source=wallet_services.rewards_account(),
            dest=w,
            amount=1_000_000,
            kind="adjust",
            reason="bench funding",
            key=f"bench:{run}:fund:{u.pk}",
        )
    pairs = [(wallets[2 * i], wallets[2 * i + 1]) for i in range(8)]
    per_s_1 = transfers_per_s(pairs[:1], one, run)
    per_s_8 = transfers_per_s(pairs, eight, run)
    host = users[16]
    ms = settle_ms(users[16:20], host, settles)
    print(
        f"one writer: {one} transfers; eight writers: {8 * eight}; "
        f"{settles} four-player settlements (median); run {run}"
    )
    print(
        json.dumps(
            {
                "transfers_per_s_1": round(per_s_1, 1),
                "transfers_per_s_8": round(per_s_8, 1),
                "settle_4p_ms": round(ms, 2),
                "quick": args.quick,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
