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


def _die_with_parent() -> None:
    """In each Daphne process: be sent SIGTERM if the supervisor dies, even by SIGKILL (Linux's
    PR_SET_PDEATHSIG), so no Daphne is left serving the socket on its own."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the supervisor's own SIGTERM handling still stops them


def start(sock: socket.socket, processes: int, extra: Sequence[str] = ()) -> list[subprocess.Popen]:
    """``processes`` Daphne processes serving ``sock``."""
    fd = sock.fileno()
    cmd = [sys.executable, "-m", "daphne", "--fd", str(fd), *extra, APP]
    return [
        subprocess.Popen(cmd, pass_fds=(fd,), preexec_fn=_die_with_parent) for _ in range(processes)
    ]


class Stop:
    """Set by SIGTERM or SIGINT; installed before any process starts, so a signal that comes
    while they are starting still stops them all (the default action would kill only us)."""

    def __init__(self) -> None:
        self.requested = False
        signal.signal(signal.SIGTERM, self._on_signal)
        signal.signal(signal.SIGINT, self._on_signal)

    def _on_signal(self, signum: int, _frame: object) -> None:
        self.requested = True


def supervise(procs: list[subprocess.Popen], stop: Stop) -> int:
    """Wait until a signal or until any process ends; then stop them all."""
    code = 0
    while not stop.requested:
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
    stop = Stop()
    sock = listen(args.host, args.port)
    print(
        f"Sahrat: {args.processes} Daphne processes on http://{args.host}:{args.port}",
        flush=True,
    )
    return supervise(start(sock, args.processes, extra), stop)


if __name__ == "__main__":
    sys.exit(main())
