"""Probe the running platform from outside, as players use it: ``python -m bench.soak [--quick]``.

Starts a real Daphne against PostgreSQL and Redis (``DATABASE_URL``, default the local ``test``
database; ``REDIS_URL``), signs players in, and measures what once broke under load:

- ``socket_lifetime_s``: how long three signed-in sockets pinging every 0.5 s stayed up (the hold
  time when none died), and ``pings_missed`` among them;
- ``http_5xx`` / ``http_requests``: 20 concurrent clients asking ``/healthz`` and a signed-in page;
- ``pg_connections_peak``: the most PostgreSQL connections the Daphne process held meanwhile;
- ``flood_rtt_p50_ms`` / ``flood_rtt_max_ms``: another player's ping round trip while one socket
  floods one-byte frames without reading; ``flood_closed``: whether the flooding socket was closed;
  ``daphne_rss_growth_mb``: what the flood left in Daphne's memory;
- ``burst_errors`` / ``stale_group_members``: 500 sockets (50 players, 10 each) opened at once,
  then closed.

The probe functions are also what tests/platform/test_soak.py runs, with shorter durations.
Every loop here is bounded in count and time and talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import concurrent.futures as futures
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path

from bench.processes import app_name_for, daphne, pg_connections, rss_mb
from bench.stats import percentile

ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- the probes


def ws_url(base: str, path: str = "/ws/majlis/") -> str:
    return base.replace("http://", "ws://") + path


def connect_socket(base: str, cookie: str, timeout: float = 30):
    """A signed-in majlis socket (a context manager), not yet read from."""
    from websockets.sync.client import connect

    return connect(
        ws_url(base),
        origin=base,
        additional_headers={"Cookie": cookie},
        open_timeout=timeout,
        close_timeout=2,
    )


def pong(ws, seq: int, timeout: float = 5) -> bool:
    """Wait for the pong of ping ``seq``: True when it comes. A lobby socket also hears
    ``majlis_changed`` at any moment (another table opened or ended: docs/protocol.md), which
    a client reads past; any other frame is not the answer."""
    deadline = time.monotonic() + timeout
    while True:
        reply = json.loads(ws.recv(timeout=max(deadline - time.monotonic(), 0.01)))
        if reply.get("type") != "majlis_changed":
            return reply == {"type": "pong", "seq": seq}


def open_socket(stack: ExitStack, base: str, cookie: str, timeout: float = 30):
    """A signed-in majlis socket closed with ``stack``, its hello frame already read."""
    ws = stack.enter_context(connect_socket(base, cookie, timeout))
    hello = json.loads(ws.recv(timeout=timeout))
    if hello.get("type") != "hello":
        raise RuntimeError(f"no hello: {hello}")
    return ws


def hold_sockets(base: str, cookies: Sequence[str], seconds: float, every: float = 0.5) -> dict:
    """Hold one socket per cookie for ``seconds``, pinging every ``every`` s; report each."""

    def one(cookie: str) -> dict:
        stack = ExitStack()
        ws = open_socket(stack, base, cookie)
        start = time.monotonic()
        sent = answered = 0
        died_at = None
        with stack:
            while time.monotonic() - start < seconds:
                sent += 1
                try:
                    ws.send(json.dumps({"type": "ping", "seq": sent}))
                    if pong(ws, sent):
                        answered += 1
                except Exception:
                    died_at = round(time.monotonic() - start, 1)
                    break
                time.sleep(every)
        return {"sent": sent, "answered": answered, "died_at_s": died_at}

    with futures.ThreadPoolExecutor(len(cookies)) as pool:
        results = list(pool.map(one, cookies))
    lifetimes = [r["died_at_s"] if r["died_at_s"] is not None else seconds for r in results]
    return {
        "sockets": results,
        "socket_lifetime_s": min(lifetimes),
        "pings_missed": sum(r["sent"] - r["answered"] for r in results),
    }


def http_load(
    base: str,
    cookie: str,
    seconds: float,
    clients: int = 20,
    paths: Sequence[str] = ("/healthz", "/majlis/"),
    sample: Callable[[], int] | None = None,
) -> dict:
    """``clients`` threads asking ``paths`` in turn for ``seconds``; status counts and, if
    ``sample`` is given, its peak over the run (sampled every 0.1 s)."""
    stop = time.monotonic() + seconds
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    peak = [0]

    def client(k: int) -> None:
        i = k
        while time.monotonic() < stop:
            path = paths[i % len(paths)]
            i += 1
            req = urllib.request.Request(base + path, headers={"Cookie": cookie})
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    resp.read()
                    code = resp.status
            except urllib.error.HTTPError as exc:
                code = exc.code
            except OSError:
                code = 599  # the connection failed: as bad as a 5xx for a player
            with lock:
                statuses[code] = statuses.get(code, 0) + 1

    def sampler() -> None:
        while time.monotonic() < stop + 0.5:
            try:
                peak[0] = max(peak[0], sample())  # type: ignore[misc]
            except Exception:
                pass
            time.sleep(0.1)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    if sample is not None:
        threads.append(threading.Thread(target=sampler))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = sum(statuses.values())
    return {
        "http_requests": total,
        "http_5xx": sum(n for code, n in statuses.items() if code >= 500),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "peak": peak[0],
    }


def flood(base: str, flooder: str, other: str, seconds: float, pid: int | None = None) -> dict:
    """One socket sends one-byte frames as fast as it can without reading, for at most
    ``seconds``; meanwhile another player pings every 0.1 s. Reports the other's round trips and
    whether the flooding socket was closed by the server."""
    from websockets.exceptions import ConnectionClosed

    rss_before = rss_mb(pid) if pid else 0.0
    stack = ExitStack()
    victim = open_socket(stack, base, other)
    attacker = open_socket(stack, base, flooder)
    stop = time.monotonic() + seconds
    result = {"frames_sent": 0, "closed": False, "close_code": None}

    def attack() -> None:
        try:
            while time.monotonic() < stop:
                for _ in range(500):
                    attacker.send("x")
                result["frames_sent"] += 500
        except ConnectionClosed as exc:
            result["closed"] = True
            result["close_code"] = exc.rcvd.code if exc.rcvd else None
        except OSError:
            result["closed"] = True

    thread = threading.Thread(target=attack)
    thread.start()
    rtts: list[float] = []
    seq = 0
    try:
        while time.monotonic() < stop:
            seq += 1
            t0 = time.perf_counter()
            victim.send(json.dumps({"type": "ping", "seq": seq}))
            while True:
                reply = json.loads(victim.recv(timeout=30))
                if reply.get("seq") == seq:
                    break
            rtts.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.1)
    finally:
        thread.join()
    if not result["closed"]:
        # The server closed it while it was sending (it stops reading a flooder, so the sends
        # only fill buffers) or after: what it sent is read up to its close frame, which comes
        # within the guard's close handshake (realtime/daphne_guard.py, FLOOD_CLOSE_WAIT_S).
        try:
            for _ in range(10_000):
                attacker.recv(timeout=10)
        except ConnectionClosed as exc:
            result["closed"] = True
            result["close_code"] = exc.rcvd.code if exc.rcvd else None
        except Exception:
            pass
    stack.close()
    time.sleep(1.0)  # let Daphne drop what it buffered for the closed socket
    return {
        "flood_frames_sent": result["frames_sent"],
        "flood_closed": result["closed"],
        "flood_close_code": result["close_code"],
        "flood_rtt_p50_ms": round(percentile(rtts, 0.5), 1),
        "flood_rtt_max_ms": round(max(rtts), 1),
        "daphne_rss_growth_mb": round(rss_mb(pid) - rss_before, 1) if pid else None,
    }


def burst(base: str, cookies: Sequence[str], per_cookie: int) -> dict:
    """Open ``per_cookie`` sockets for every cookie at once, then close them all."""

    def one(cookie: str) -> tuple[ExitStack | None, str | None]:
        stack = ExitStack()
        try:
            open_socket(stack, base, cookie, timeout=60)
            return stack, None
        except Exception as exc:
            stack.close()
            return None, f"{type(exc).__name__}: {exc}"

    jobs = [c for c in cookies for _ in range(per_cookie)]
    with futures.ThreadPoolExecutor(len(jobs)) as pool:
        opened = list(pool.map(one, jobs))
    errors = [err for _, err in opened if err]
    sockets = [stack for stack, _ in opened if stack is not None]
    with futures.ThreadPoolExecutor(len(sockets) or 1) as pool:
        list(pool.map(lambda stack: stack.close(), sockets))
    return {
        "burst_sockets": len(jobs),
        "burst_opened": len(sockets),
        "burst_errors": len(errors),
        "burst_error_kinds": sorted({e[:80] for e in errors})[:5],
    }


def group_members(redis_url: str, group: str = "majlis") -> int:
    """Members of a channel-layer group as Redis holds them: the core layer's group set, plus
    the processes subscribed to the pub/sub layer's group channel (each process unsubscribes
    once its last socket in the group has left)."""
    import redis

    from sahrat_site.settings import CHANNEL_LAYERS

    prefix = CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    client = redis.Redis.from_url(redis_url)
    try:
        pubsub = dict(client.pubsub_numsub(f"{prefix}__group__{group}"))
        return int(client.zcard(f"{prefix}:group:{group}")) + sum(pubsub.values())
    finally:
        client.close()


# --------------------------------------------------------------------------- the run


def _players(n: int) -> list[str]:
    """``n`` signed-in players' session cookies (created on first use)."""
    from django.test import Client

    from accounts.models import User

    cookies = []
    for i in range(n):
        user, created = User.objects.get_or_create(
            username=f"soak{i}", defaults={"display_name": f"Soak {i}"}
        )
        if created:
            user.set_unusable_password()
            user.save()
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    return cookies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter holds and loads")
    args = parser.parse_args(argv)
    hold, load, flood_s = (13, 4, 4) if args.quick else (30, 10, 10)

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/9")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sahrat_site.settings")
    os.environ.setdefault("CHANNEL_PREFIX", "sahrat-soak")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    cookies = _players(52)
    db = settings.DATABASES["default"]
    dsn = f"host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} dbname={db['NAME']} "
    dsn += f"user={db['USER'] or 'postgres'}"
    log = ROOT / "test-artifacts"
    log.mkdir(exist_ok=True)
    out: dict = {}
    with daphne(dict(os.environ), log / "soak-daphne.log") as (base, proc):
        held = hold_sockets(base, cookies[:3], hold)
        out["socket_lifetime_s"] = held["socket_lifetime_s"]
        out["pings_missed"] = held["pings_missed"]
        app = app_name_for(base)
        loaded = http_load(base, cookies[3], load, sample=lambda: pg_connections(dsn, app))
        out["http_requests"] = loaded["http_requests"]
        out["http_5xx"] = loaded["http_5xx"]
        out["pg_connections_peak"] = loaded["peak"]
        out.update(flood(base, cookies[4], cookies[5], flood_s, pid=proc.pid))
        before = group_members(os.environ["REDIS_URL"])
        out.update(burst(base, cookies[2:52], 10))
        time.sleep(2)
        out["stale_group_members"] = group_members(os.environ["REDIS_URL"]) - before
        out["quick"] = args.quick
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
