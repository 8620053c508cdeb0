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

- ``latency_p50_ms`` / ``latency_p99_ms``: a move sent until the LAST seat of its table has a
  state with that move's ``seq`` (bench.stats.percentile, nearest rank);
- ``cpu_ms_per_move``: CPU of Daphne, the Celery worker and beat, the PostgreSQL backends of the
  bench's database and redis-server, read from /proc over the playing phase, per move. Redis and
  PostgreSQL are shared machine-wide: their figures include whatever else ran meanwhile;
- ``peak_rss_mb``: the most resident memory Daphne, the worker and beat held together;
- ``errors``: error frames, sockets that closed, moves whose state did not reach every seat
  within ``MOVE_TIMEOUT_S``.

The run empties the Celery queue of its Redis database first: give it a database of its own.

Every loop is bounded in count and time and talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.soak import children, daphne, rss_mb
from bench.stats import percentile

ROOT = Path(__file__).resolve().parent.parent
MOVE_TIMEOUT_S = 10.0  # a move whose state has not reached every seat by then is an error
GAMES = (("hand", {"players": 4}), ("jakaro", {"players": 4}))
CLK = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- server processes


@contextmanager
def celery(env: dict[str, str], logs: Path) -> Iterator[list[subprocess.Popen]]:
    """A Celery worker (solo pool, one process) and beat; yields both processes."""
    tag = f"rooms-{os.getpid()}"
    cmds = {
        "worker": [
            *("worker", "--pool=solo", "--loglevel=WARNING", "--without-gossip"),
            *("--without-mingle", "-n", f"{tag}@%h"),
        ],
        "beat": ["beat", "--loglevel=WARNING", "-s", str(logs / f"{tag}-beat-schedule")],
    }
    procs: list[subprocess.Popen] = []
    try:
        for name, args in cmds.items():
            with open(logs / f"rooms-celery-{name}.log", "w") as log:
                procs.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "celery", "-A", "sahrat_site", *args],
                        cwd=ROOT,
                        env=env,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
        yield procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def cpu_ticks(pid: int) -> int:
    """utime + stime of one process, in clock ticks (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def pids_named(name: str) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


class CpuMeter:
    """CPU per component over a window, sampled from /proc. PostgreSQL backends come and go
    (the pools open and close them), so they are re-listed at every sample and each one's last
    reading is kept."""

    def __init__(self, servers: dict[str, list[int]], dsn: str) -> None:
        self.servers = servers
        self.dsn = dsn
        self.start: dict[tuple[str, int], int] = {}
        self.last: dict[tuple[str, int], int] = {}
        self.rss_peak = 0.0
        self.daphne_rss_peak = 0.0

    def _pg_backends(self) -> list[int]:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()"
            ).fetchall()
        return [r[0] for r in rows]

    def _pids(self) -> list[tuple[str, int]]:
        pids = [(name, pid) for name, group in self.servers.items() for pid in group]
        pids += [("postgres", pid) for pid in self._pg_backends()]
        pids += [("redis", pid) for pid in pids_named("redis-server")]
        return pids

    def sample(self) -> None:
        for key in self._pids():
            ticks = cpu_ticks(key[1])
            self.start.setdefault(key, ticks)
            self.last[key] = max(ticks, self.last.get(key, 0))
        rss = [rss_mb(pid) for group in self.servers.values() for pid in group]
        self.rss_peak = max(self.rss_peak, sum(rss))
        daphne_rss = sum(rss_mb(pid) for pid in self.servers.get("daphne", ()))
        self.daphne_rss_peak = max(self.daphne_rss_peak, daphne_rss)

    def ms(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for key, last in self.last.items():
            out[key[0]] = out.get(key[0], 0.0) + (last - self.start[key]) * 1000 / CLK
        return out


# --------------------------------------------------------------------------- data


@dataclass
class TableSpec:
    public_id: str
    game: str
    cookies: list[str]


def abort_leftovers() -> int:
    """End (through the staff's abort) every match an earlier run left playing: their deadlines
    pass during this run and the sweeper would play them, Celery's and PostgreSQL's CPU counted
    against this run's moves."""
    from games import services
    from games.models import Match

    left = Match.objects.filter(
        status=Match.Status.PLAYING, table__created_by__username__startswith="rooms"
    ).values_list("pk", flat=True)
    ids = list(left[:100_000])
    for match_id in ids:
        services.match_abort(match_id=match_id)
    return len(ids)


def setup(n_tables: int) -> list[TableSpec]:
    """Players, tables and seats 0-2 through games.services (seat 3 sits over its socket)."""
    from django.test import Client

    from accounts.models import User
    from games import services
    from games.models import Majlis, Match

    # migrate makes this room; a test database flushed by earlier tests has none.
    majlis, _ = Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})

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
        users = [player(f"rooms{4 * t + s}") for s in range(4)]
        table = services.table_create(user=users[0], game=game, options=options, majlis=majlis)
        match = Match.objects.get(table=table, number=1)
        for seat, user in enumerate(users[:3]):
            services.seat_take(
                user=user,
                table_id=table.public_id,
                number=seat,
                seed=secrets.token_hex(16),  # as a browser sends it: 32 hex
                commitment=match.commitment,
                match_id=match.public_id,
            )
        cookies = []
        for user in users:
            client = Client()
            client.force_login(user)
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
        specs.append(TableSpec(table.public_id, game, cookies))
    return specs


# --------------------------------------------------------------------------- the players


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    server_steps: int = 0
    matches_finished: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


class Table:
    """Four sockets of one table and the loop that plays its moves."""

    def __init__(self, spec: TableSpec, base: str, tally: Tally) -> None:
        import games

        self.spec = spec
        self.base = base
        self.tally = tally
        self.engine = games.get(spec.game)
        self.latest: list[dict[str, Any] | None] = [None] * 4
        self.changed = asyncio.Event()
        self.sockets: list[Any] = []
        self.readers: list[asyncio.Task] = []
        self.pending: tuple[str, int, float, set[int]] | None = None
        self.done_move = asyncio.Event()
        self.closing = False

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        # The JSON rendering (docs/protocol.md); without ?format=json the socket sends HTML.
        path = f"/ws/table/{self.spec.public_id}/?format=json"
        url = self.base.replace("http://", "ws://") + path
        for seat, cookie in enumerate(self.spec.cookies):
            ws = await connect(
                url,
                origin=self.base,
                additional_headers={"Cookie": cookie},
                open_timeout=60,
                close_timeout=2,
                max_size=2**22,
            )
            self.sockets.append(ws)
            self.readers.append(asyncio.create_task(self._read(seat, ws)))
        await self._until(lambda: all(self.latest), 30)

    async def _read(self, seat: int, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in ws:
                frame = json.loads(raw)
                if frame["type"] == "error":
                    self.tally.error(frame.get("code", "?"))
                    continue
                if frame["type"] != "state":
                    continue
                self.latest[seat] = frame
                pending = self.pending
                if pending is not None and seat in pending[3]:
                    m = frame["match"]
                    reached = (m["id"] == pending[0] and m["seq"] > pending[1]) or (
                        frame["shown"] is not None and frame["shown"]["id"] == pending[0]
                    )
                    if reached:
                        pending[3].discard(seat)
                        if not pending[3]:
                            self.tally.latencies.append((time.perf_counter() - pending[2]) * 1e3)
                            self.done_move.set()
                self.changed.set()
        except ConnectionClosed:
            if not self.closing:
                self.tally.error("socket_closed")

    async def _until(self, cond: Any, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not cond():
            left = end - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True

    async def sit_last(self) -> None:
        """Seat 3 sits over its socket with a fresh seed for the commitment it was shown."""
        match = self.latest[3]["match"]  # type: ignore[index]
        await self.sockets[3].send(
            json.dumps(
                {
                    "type": "sit",
                    "seat": 3,
                    "seed": secrets.token_hex(16),
                    "commitment": match["commitment"],
                    "match": match["id"],
                }
            )
        )
        if not await self._until(lambda: self._status() == "playing", 30):
            self.tally.error("match_did_not_start")

    def _status(self) -> str | None:
        return self.latest[0]["match"]["status"] if self.latest[0] else None

    def _seq(self) -> tuple[str, int]:
        m = self.latest[0]["match"]  # type: ignore[index]
        return m["id"], m["seq"]

    async def play(self, stop_at: float, pace: float) -> None:
        """One move about every ``pace`` seconds until ``stop_at`` (time.monotonic())."""
        next_at = time.monotonic() + random.uniform(0, pace)
        for _ in range(100_000):  # bounded; the clock ends it long before
            now = time.monotonic()
            if now >= stop_at:
                return
            if next_at > now:
                await asyncio.sleep(min(next_at, stop_at) - now)
                continue
            next_at = max(next_at + pace, time.monotonic())
            status = self._status()
            if status == "waiting":
                await self._next_match()
                continue
            views = [s["view"] for s in self.latest]  # type: ignore[index]
            match_id, seq = self._seq()
            if any(s["match"]["seq"] != seq for s in self.latest):  # type: ignore[index]
                await self._until(lambda: self._in_step(), 2)
                continue
            turn = views[0]["turn"]
            if turn is None:
                # The server's own step (Hand's next deal): the Celery timer plays it.
                if await self._until(lambda s=seq: self._seq()[1] > s, MOVE_TIMEOUT_S):
                    self.tally.server_steps += 1
                else:
                    self.tally.error("server_step_late")
                continue
            action = self.engine.bot_action(views[turn])
            self.done_move.clear()
            self.pending = (match_id, seq, time.perf_counter(), {0, 1, 2, 3})
            await self.sockets[turn].send(
                json.dumps({"type": "move", "seq": seq, "action": action})
            )
            try:
                await asyncio.wait_for(self.done_move.wait(), MOVE_TIMEOUT_S)
                self.tally.moves += 1
            except TimeoutError:
                self.tally.error("move_timeout")
            self.pending = None
            if self._status() == "waiting":
                self.tally.matches_finished += 1

    def _in_step(self) -> bool:
        seqs = {(s["match"]["id"], s["match"]["seq"]) for s in self.latest}  # type: ignore[index]
        return len(seqs) == 1

    async def _next_match(self) -> None:
        """Every seat asks for the next match with a fresh seed for its commitment."""
        match = self.latest[0]["match"]  # type: ignore[index]
        for seat, ws in enumerate(self.sockets):
            me = self.latest[seat]["table"]["seats"][seat]  # type: ignore[index]
            if me["ready"]:
                continue
            await ws.send(
                json.dumps(
                    {
                        "type": "ready",
                        "seed": secrets.token_hex(16),
                        "commitment": match["commitment"],
                        "match": match["id"],
                    }
                )
            )
        if not await self._until(lambda: self._status() == "playing", MOVE_TIMEOUT_S):
            self.tally.error("next_match_did_not_start")

    async def close(self) -> None:
        self.closing = True
        for ws in self.sockets:
            await ws.close()
        for task in self.readers:
            task.cancel()


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
    stop_at = start + seconds

    async def sampler() -> None:
        while time.monotonic() < stop_at:
            await asyncio.sleep(1.0)
            await loop.run_in_executor(None, meter.sample)

    sampling = asyncio.create_task(sampler())
    await asyncio.gather(*(t.play(stop_at, pace) for t in tables))
    elapsed = time.monotonic() - start
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

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/9")
    os.environ.setdefault("CHANNEL_PREFIX", "sahrat-rooms")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sahrat_site.settings")
    # The run is about the live tables, as served in production: no query log, no debug pages.
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # The next round's deal comes quickly, so Hand tables keep moving at the bench's pace.
    os.environ.setdefault("SERVER_STEP_DELAY", "0.5")
    # Players move every --pace seconds; a long turn time keeps time-outs (a Celery move the
    # players did not ask for) out of the figures while 400 sockets are still connecting.
    os.environ.setdefault("TURN_SECONDS_OVERRIDE", "120")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
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
        web = children(proc.pid) if args.web_processes > 1 else [proc.pid]
        workers = stack.enter_context(celery(env, logs))
        specs = setup(n)
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
    }
    print(
        f"{n} tables ({sum(s.game == 'hand' for s in specs)} Hand, "
        f"{sum(s.game == 'jakaro' for s in specs)} Jakaro), {4 * n} sockets up in "
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
