"""sahrat_site.serve: several Daphne processes on one socket (what `make run` starts), each
serving requests, and a supervisor that never leaves a half-dead server running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ARTIFACTS, ROOT, WORKER_SUFFIX, _server, _subprocess_env
from tests.support.processes import children, free_port, stop, wait_port

pytestmark = pytest.mark.django_db(transaction=True)


def _cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def _listening_inodes(pid: int) -> set[str]:
    """The socket inodes a process holds open."""
    out = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:"):
            out.add(target)
    return out


def _until(check, seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


@contextmanager
def _two_processes() -> Iterator[tuple[int, subprocess.Popen, list[int]]]:
    """sahrat_site.serve with two Daphne processes; yields (port, supervisor, their pids)."""
    port = free_port()
    with _server("serve", "sahrat_site.serve", "--port", str(port), "--processes", "2") as sup:
        wait_port(port, sup, "sahrat_site.serve")

        # The socket is bound (and so accepts) before the supervisor has started its processes,
        # and a child shows the supervisor's command line until it has exec'd Daphne.
        def both_daphne() -> bool:
            kids = children(sup.pid)
            return len(kids) == 2 and all("daphne --fd" in _cmdline(k) for k in kids)

        assert _until(both_daphne)
        yield port, sup, children(sup.pid)


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_two_daphne_processes_share_one_socket_and_fall_together():
    with _two_processes() as (port, sup, kids):
        for kid in kids:
            assert "daphne --fd" in _cmdline(kid)
        # Both hold the one listening socket the supervisor bound.
        assert _listening_inodes(kids[0]) & _listening_inodes(kids[1])
        for _ in range(10):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
                assert r.status == 200
                assert json.loads(r.read())["status"] == "ok"

        # One process dying takes the server down, so its supervisor restarts all of it.
        os.kill(kids[0], signal.SIGKILL)
        assert _until(lambda: sup.poll() is not None)
        assert sup.returncode != 0
        assert _until(lambda: _gone(kids[1]))


def test_sigterm_stops_every_process_cleanly():
    with _two_processes() as (_port, sup, kids):
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(timeout=15) == 0
        assert all(_gone(k) for k in kids)


def test_no_daphne_outlives_a_killed_supervisor():
    """Even SIGKILL, which the supervisor cannot handle, leaves no Daphne serving on its own."""
    with _two_processes() as (_port, sup, kids):
        sup.kill()
        sup.wait(timeout=15)
        assert _until(lambda: all(_gone(k) for k in kids))


def test_make_run_listens_on_web_port():
    """Issue 57 item 18: `make run` starts the Procfile under honcho; its web process listens
    where WEB_HOST and WEB_PORT say (README's settings), not on a port written in the Procfile."""
    port = free_port()
    # What `make run` would run, with the port it is given, passed on to honcho.
    planned = subprocess.run(
        ["make", "-n", "run", f"WEB_PORT={port}"], cwd=ROOT, capture_output=True, text=True
    )
    assert planned.returncode == 0, planned.stderr
    start = next(line for line in planned.stdout.splitlines() if "honcho start" in line)
    assert f'WEB_PORT="{port}"' in start and 'WEB_HOST="127.0.0.1"' in start
    assert f"http://127.0.0.1:{port}" in planned.stdout  # the address it prints
    # The Procfile's web process, under honcho as `make run` starts it, with that environment.
    env = {**_subprocess_env(), "WEB_HOST": "127.0.0.1", "WEB_PORT": str(port)}
    with open(ARTIFACTS / f"honcho-web{WORKER_SUFFIX}.log", "w") as log:
        honcho = subprocess.Popen(
            [str(ROOT / ".venv/bin/honcho"), "start", "-f", "Procfile", "web"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_port(port, honcho, "honcho's web process")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
                assert r.status == 200
        finally:
            stop(honcho)
