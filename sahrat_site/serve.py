"""The web server: ``python -m sahrat_site.serve [--host H] [--port P] [--processes N]``.

Daphne serves every socket of a process on ONE event loop, so one Daphne process uses at most one
core, and the live tables' bench (bench.rooms) found that loop to be what saturates first. This
runs N Daphne processes (default: one per core, or ``WEB_PROCESSES``) that share one listening
socket: the socket is bound here and handed to each as ``--fd``, and the kernel gives each new
connection to one of them. They need nothing else in common: the channel layer (Redis) carries a
table's broadcasts to every process, and seats, limits and snapshots live in PostgreSQL and Redis.

A process that dies takes the others down with it (exit code passed on), so the supervisor
(honcho under ``make run``, systemd in production) sees the failure and restarts the whole.
SIGTERM and SIGINT are passed on to every process.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence

APP = "sahrat_site.asgi:application"


def default_processes() -> int:
    return int(os.environ.get("WEB_PROCESSES", "0") or 0) or os.cpu_count() or 1


def listen(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def start(sock: socket.socket, processes: int, extra: Sequence[str] = ()) -> list[subprocess.Popen]:
    """``processes`` Daphne processes serving ``sock``."""
    fd = sock.fileno()
    cmd = [sys.executable, "-m", "daphne", "--fd", str(fd), *extra, APP]
    return [subprocess.Popen(cmd, pass_fds=(fd,)) for _ in range(processes)]


def supervise(procs: list[subprocess.Popen]) -> int:
    """Wait until a signal or until any process ends; then stop them all."""
    stopping = False

    def on_signal(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    code = 0
    while not stopping:
        ended = [p for p in procs if p.poll() is not None]
        if ended:
            code = ended[0].returncode or 1
            break
        time.sleep(0.2)
    for p in procs:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 10
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("WEB_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("WEB_PORT", "8000")))
    parser.add_argument("--processes", type=int, default=default_processes())
    args, extra = parser.parse_known_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    sock = listen(args.host, args.port)
    print(
        f"Sahrat: {args.processes} Daphne processes on http://{args.host}:{args.port}",
        flush=True,
    )
    return supervise(start(sock, args.processes, extra))


if __name__ == "__main__":
    sys.exit(main())
