"""The servers the benchmarks run and what they read of them: Daphne (one process or
sahrat_site.serve's several), Celery (a worker and beat), each process's CPU and memory from /proc,
and the PostgreSQL connections a server holds."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

# The one copy of the process helpers, shared with the tests' fixtures (standard library only, so
# a bench run needs nothing from pytest).
from tests.support.processes import free_port, stop, wait_port

ROOT = Path(__file__).resolve().parent.parent
CLK = os.sysconf("SC_CLK_TCK")
APP = "sahrat_site.asgi:application"
APP_NAME = "sahrat-soak"  # PGAPPNAME prefix of a probed Daphne, so its connections can be counted


def app_name_for(base: str) -> str:
    """The PostgreSQL application name of the Daphne serving ``base`` (unique per port, so two
    probes running at once never count each other's connections)."""
    return f"{APP_NAME}-{base.rsplit(':', 1)[1]}"


@contextmanager
def daphne(
    env: dict[str, str], log_path: Path, processes: int = 1, options: Sequence[str] = ()
) -> Iterator[tuple[str, subprocess.Popen]]:
    """Daphne on a free port; yields (base URL, process). With ``processes`` > 1 it is
    sahrat_site.serve running that many Daphne processes on one socket (the yielded process is
    their supervisor: ``children(proc.pid)`` lists them). ``options`` go to a single Daphne's
    command line."""
    port = free_port()
    env = {**env, "PGAPPNAME": app_name_for(f"http://127.0.0.1:{port}")}
    if processes > 1:
        cmd = [sys.executable, "-m", "sahrat_site.serve", "--port", str(port)]
        cmd += ["--processes", str(processes)]
    else:
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), *options, APP]
    log_path.parent.mkdir(parents=True, exist_ok=True)  # a test run alone has no folder yet
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_port(port, proc, f"Daphne (log: {log_path})")
            yield f"http://127.0.0.1:{port}", proc
        finally:
            stop(proc)


def rss_mb(pid: int) -> float:
    """Resident memory of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pg_connections(dsn: str, app_name: str) -> int:
    """How many server connections carry ``app_name`` right now."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (app_name,)
        ).fetchone()
    return int(row[0]) if row else 0


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
