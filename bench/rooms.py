"""Live tables under load, played from outside: ``python -m bench.rooms --tables N [--quick]``.

Starts a real Daphne, a Celery worker and Celery beat (time-outs, the sweeper, Hand's next-round
deal) against PostgreSQL (``DATABASE_URL``) and Redis (``REDIS_URL``), makes ``N`` four-seat
tables through games.services (Hand four players solo and Jakaro four in partners, alternately)
and connects four players to each over real WebSockets (the ``websockets`` library speaking
docs/protocol.md's JSON, signed in with session cookies as bench/soak.py does).

Seats 0-2 sit through ``services.seat_take`` before their sockets open; seat 3 sits with the
socket's ``sit`` frame (a fresh 32-hex seed, the commitment and match id it was shown), so each
match starts only once its table's four sockets are up. Then each table moves about once every
``--pace`` seconds (2: a quick human pace): the seat whose turn it is picks its move with the
game's bot from its own ``view`` (``games.get(game).bot_action(view)``) and sends it with the
``seq`` it saw. The server's own steps (Hand's next deal) are played by the Celery timer
(``SERVER_STEP_DELAY`` is shortened for the run). A match that ends is followed by the next one:
every seat sends ``ready`` with a fresh seed for the next commitment.

Figures (one JSON line at the end, a few human lines before it):

- ``latency_p50_ms`` / ``latency_p99_ms``: a move sent until the LAST socket of its table (each
  seat's, and the watcher's) has a state with that move's ``seq``: for an HTML client, the frame
  rebuilt and read as the page reads it (bench.stats.percentile, nearest rank);
- ``clients`` (``--clients``, default ``html``): every seat a table page's socket, as players'
  browsers open it; ``json``: docs/protocol.md's JSON; ``mixed``: seats alternately HTML and
  JSON, and an HTML watcher per table; ``sockets``: how many; ``frame_bytes_p50``: a state
  frame's size on the wire (an HTML page's are deltas on the one before);
- ``cpu_ms_per_move``: CPU of Daphne, the Celery worker and beat, the PostgreSQL backends of the
  bench's database and redis-server, read from /proc over the playing phase, per move. Redis and
  PostgreSQL are shared machine-wide: their figures include whatever else ran meanwhile;
- ``client_cpu_ms_per_move``: the load generator's own CPU per move (it runs on the same
  machine: near a core, the latencies are partly its own);
- ``cores_busy`` (of ``cores``): the servers' and the load generator's CPU over the playing
  phase, in cores: a run near ``cores`` is past what the machine holds, whatever the code;
- ``peak_rss_mb``: the most resident memory Daphne, the worker and beat held together;
- ``errors``: error frames, sockets that closed, moves whose state did not reach every seat
  within ``bench.players.MOVE_TIMEOUT_S``.

The players and their sockets are in bench/players.py, the servers and the CPU meter in
bench/processes.py. The run empties the Celery queue of its Redis database first: give it a
database of its own; and it vacuums its PostgreSQL database after the set-up, so a run is not
slowed by the rows earlier runs left dead.

Every loop is bounded in count and time and talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench import site
from bench.players import Table, TableSpec, Tally
from bench.processes import CpuMeter, celery, daphne
from bench.stats import percentile
from tests.support.processes import children

ROOT = Path(__file__).resolve().parent.parent
GAMES = (("hand", {"players": 4}), ("jakaro", {"players": 4}))


# --------------------------------------------------------------------------- data


def abort_leftovers() -> int:
    """End (through the staff's abort) every match an earlier run left playing: their deadlines
    pass during this run and the sweeper would play them, Celery's and PostgreSQL's CPU counted
    against this run's moves."""
    from games import services
    from games.models import Match, Seat
    from games.services import TableError

    left = Match.objects.filter(
        status=Match.Status.PLAYING, table__created_by__username__startswith="rooms"
    ).values_list("pk", flat=True)
    ids = list(left[:100_000])
    for match_id in ids:
        services.match_abort(match_id=match_id)
    # Their players are gone too: stood up now, not by the sweeper when the tables' time to
    # play again runs out (REMATCH_SECONDS), which fell inside the next run's minute: 400 seats
    # opened there, about 1 ms of Celery a move counted against that run, and CPU the other
    # processes on the two cores waited for.
    held = Seat.objects.filter(
        table__created_by__username__startswith="rooms", user__isnull=False, is_bot=False
    ).select_related("user", "table")
    for seat in held:
        try:
            services.seat_leave(user=seat.user, table_id=seat.table.public_id)
        except TableError:
            pass  # its table is playing again (another run's), or the seat already opened
    return len(ids)


# Each socket's client (bench/players.py) by --clients: the four seats, then a watcher if any.
CLIENTS = {
    "html": ["html"] * 4,
    "json": ["json"] * 4,
    "mixed": ["html", "json", "html", "json", "html"],
}


def setup(n_tables: int, clients: str = "html") -> list[TableSpec]:
    """Players, tables and seats 0-2 through games.services (seat 3 sits over its socket); a
    fifth player per table to watch it when ``clients`` has a watcher."""
    from django.test import Client

    from accounts.models import User

    def player(name: str) -> Any:
        user, created = User.objects.get_or_create(
            username=name, defaults={"display_name": name.replace("rooms", "لاعب ")}
        )
        if created:
            user.set_unusable_password()
            user.save()
        return user

    specs = []
    for t in range(n_tables):
        game, options = GAMES[t % len(GAMES)]
        kinds = CLIENTS[clients]
        users = [player(f"rooms{4 * t + s}") for s in range(4)]
        if len(kinds) > 4:
            users.append(player(f"rooms-watch{t}"))
        table = site.seated_table(game, options, users[0], users[:3])
        cookies = []
        for user in users:
            client = Client()
            client.force_login(user)
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
        specs.append(TableSpec(table.public_id, game, cookies, kinds))
    return specs


def web_pids(supervisor: int, processes: int) -> list[int]:
    """The Daphne processes to meter: the supervisor's children once all ``processes`` are up
    (it answers as soon as one does; metering the first alone halved Daphne's figure)."""
    if processes == 1:
        return [supervisor]
    deadline = time.monotonic() + 30
    while len(found := children(supervisor)) < processes and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def vacuum() -> None:
    """VACUUM ANALYZE the bench's database before the playing phase. This machine's PostgreSQL
    runs without autovacuum, so each run's updated and deleted rows stayed behind for the next:
    after a dozen runs 70,000 dead match rows made PostgreSQL 13 ms a move instead of 2. A
    production database vacuums itself; so the figures are those of a vacuumed database."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


async def drive(specs: list[TableSpec], base: str, seconds: float, pace: float, meter: Any):
    tally = Tally()
    tables = [Table(spec, base, tally) for spec in specs]
    t0 = time.monotonic()
    sem = asyncio.Semaphore(20)

    async def bring_up(table: Table) -> None:
        async with sem:
            await table.connect()
            await table.sit_last()

    await asyncio.gather(*(bring_up(t) for t in tables))
    connect_s = time.monotonic() - t0
    setup_errors = tally.errors
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, meter.sample)
    start = time.monotonic()
    client_cpu = time.process_time()  # the load generator's own CPU (this process)
    stop_at = start + seconds

    async def sampler() -> None:
        while time.monotonic() < stop_at:
            await asyncio.sleep(1.0)
            await loop.run_in_executor(None, meter.sample)

    sampling = asyncio.create_task(sampler())
    await asyncio.gather(*(t.play(stop_at, pace) for t in tables))
    elapsed = time.monotonic() - start
    tally.client_cpu_s = time.process_time() - client_cpu
    await sampling
    await loop.run_in_executor(None, meter.sample)
    for t in tables:
        await t.close()
    return tally, elapsed, connect_s, setup_errors


# --------------------------------------------------------------------------- the run


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=None, help="four-seat tables (default 100)")
    parser.add_argument("--quick", action="store_true", help="20 tables, a short run")
    parser.add_argument("--seconds", type=float, default=None, help="playing time (default 60)")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a table's moves")
    parser.add_argument(
        "--clients",
        choices=sorted(CLIENTS),
        default="html",
        help="html: every seat a table page's socket (HTML frames); json: docs/protocol.md's "
        "JSON; mixed: seats half each and an HTML watcher per table",
    )
    parser.add_argument(
        "--web-processes",
        type=int,
        default=None,
        help="Daphne processes sharing one socket (sahrat_site.serve); default: one per core",
    )
    args = parser.parse_args(argv)
    n = args.tables or (20 if args.quick else 100)
    seconds = args.seconds or (15.0 if args.quick else 60.0)
    if not 1 <= n <= 1000 or not 0 < seconds <= 1800:
        parser.error("--tables is 1..1000 and --seconds 0..1800")
    if args.web_processes is None:
        from sahrat_site.serve import default_processes

        args.web_processes = default_processes()
    if not 1 <= args.web_processes <= 16:
        parser.error("--web-processes is 1..16")

    # The run is about the live tables, as served in production (bench/site.py). The next
    # round's deal comes quickly, so Hand tables keep moving at the bench's pace; players move
    # every --pace seconds, and a long turn time keeps time-outs (a Celery move the players did
    # not ask for) out of the figures while 400 sockets are still connecting.
    site.start(
        REDIS_URL="redis://127.0.0.1:6379/9",
        CHANNEL_PREFIX="sahrat-rooms",
        SERVER_STEP_DELAY="0.5",
        TURN_SECONDS_OVERRIDE="120",
    )
    from django.conf import settings

    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    db = settings.DATABASES["default"]
    dsn = f"host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} dbname={db['NAME']} "
    dsn += f"user={db['USER'] or 'postgres'}"
    load_before = os.getloadavg()[0]

    # Countdown tasks an earlier run's matches left in this Redis database's Celery queue would be
    # played by this run's worker (thousands of them, each a locked transaction): start clean.
    from sahrat_site.celery import app as celery_app

    celery_app.control.purge()
    aborted = abort_leftovers()
    env = dict(os.environ)
    with ExitStack() as stack:
        base, proc = stack.enter_context(
            daphne(env, logs / "rooms-daphne.log", processes=args.web_processes)
        )
        web = web_pids(proc.pid, args.web_processes)
        workers = stack.enter_context(celery(env, logs))
        specs = setup(n, args.clients)
        vacuum()
        meter = CpuMeter(
            {
                "daphne": web,
                "celery_worker": [workers[0].pid],
                "celery_beat": [workers[1].pid],
            },
            dsn,
        )
        tally, elapsed, connect_s, setup_errors = asyncio.run(
            drive(specs, base, seconds, args.pace, meter)
        )
        abort_leftovers()  # leave the database quiet for the next run
        for p in (proc, *workers):  # the supervisor ends if any of its Daphne processes does
            if p.poll() is not None:
                tally.error("server_died")
    cpu = meter.ms()
    moves = tally.moves + tally.server_steps
    per_move = {k: round(v / moves, 2) if moves else None for k, v in sorted(cpu.items())}
    lat = tally.latencies or [float("nan")]
    out = {
        "tables": n,
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "latency_p50_ms": round(percentile(lat, 0.5), 1),
        "latency_p99_ms": round(percentile(lat, 0.99), 1),
        "cpu_ms_per_move": round(sum(cpu.values()) / moves, 2) if moves else None,
        "peak_rss_mb": round(meter.rss_peak, 1),
        "errors": tally.errors,
        "web_processes": args.web_processes,
        "clients": args.clients,
        "frame_bytes_p50": round(percentile(tally.frame_bytes, 0.5)) if tally.frame_bytes else None,
        "sockets": sum(len(spec.cookies) for spec in specs),
        # The load generator's own CPU (it shares the machine): if it nears a core, the
        # latencies are partly its own.
        "client_cpu_ms_per_move": round(tally.client_cpu_s * 1e3 / moves, 2) if moves else None,
        # How much of the machine the playing phase kept busy: the servers' CPU and the load
        # generator's over its length, in cores. A run near ``cores`` is past what the machine
        # holds, whatever the code: its latencies are the queue's (docs/scaling.md, "the floor").
        "cores_busy": round((sum(cpu.values()) + tally.client_cpu_s * 1e3) / (elapsed * 1e3), 2),
        "cores": os.cpu_count(),
    }
    print(
        f"{n} tables ({sum(s.game == 'hand' for s in specs)} Hand, "
        f"{sum(s.game == 'jakaro' for s in specs)} Jakaro), "
        f"{sum(len(s.cookies) for s in specs)} {args.clients} sockets up in "
        f"{connect_s:.1f} s ({aborted} matches of earlier runs aborted first); "
        f"played {elapsed:.1f} s at one move per {args.pace:g} s per table"
    )
    print(
        f"players' moves {tally.moves}, server steps {tally.server_steps}, matches finished "
        f"{tally.matches_finished}; latency max {max(lat):.1f} ms"
    )
    print(f"CPU ms per move by process: {per_move}; Daphne peak RSS {meter.daphne_rss_peak:.1f} MB")
    print(
        f"errors {tally.errors} (during set-up {setup_errors}): {tally.error_kinds}; "
        f"load average before {load_before:.2f}, after {os.getloadavg()[0]:.2f}"
    )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
