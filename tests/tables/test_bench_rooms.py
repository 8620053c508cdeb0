"""bench.rooms runs end to end and prints its figures (not its speed: tests never judge
wall-clock time). Two tables played for a few seconds at a fast pace, against the test database
and Redis, with its own Daphne, Celery worker and beat; their seats' sockets HTML (a table page's)
and JSON by turns, and an HTML watcher each."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT, _subprocess_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

KEYS = {
    "tables",
    "moves",
    "moves_per_s",
    "latency_p50_ms",
    "latency_p99_ms",
    "cpu_ms_per_move",
    "peak_rss_mb",
    "errors",
    "web_processes",
    "clients",
    "frame_bytes_p50",
    "sockets",
    "client_cpu_ms_per_move",
    "cores_busy",
    "cores",
}


def test_the_rooms_bench_plays_two_tables_and_prints_one_json_line():
    run = subprocess.run(
        [
            *(sys.executable, "-m", "bench.rooms", "--tables", "2", "--seconds", "2"),
            *("--pace", "0.4", "--web-processes", "2"),
            # Both kinds of client at once (seats HTML and JSON by turns) and a watcher's page.
            *("--clients", "mixed"),
        ],
        cwd=ROOT,
        env=_subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.strip().splitlines()
    assert len(lines) > 1  # a few human lines, then the JSON
    figures = json.loads(lines[-1])
    assert set(figures) == KEYS
    assert figures["tables"] == 2
    assert figures["clients"] == "mixed" and figures["sockets"] == 2 * 5
    assert figures["frame_bytes_p50"] > 0
    assert figures["web_processes"] == 2  # as given: both Daphne processes were measured
    assert figures["moves"] > 0 and figures["cpu_ms_per_move"] > 0
    # The machine's share kept busy is the CPU a move (servers and load generator) times the
    # moves a second, in cores (each figure rounded in the line).
    per_s = (figures["cpu_ms_per_move"] + figures["client_cpu_ms_per_move"]) / 1e3
    assert figures["cores_busy"] == pytest.approx(per_s * figures["moves_per_s"], abs=0.02)
    assert 0 < figures["cores_busy"] and figures["cores"] == os.cpu_count()
    assert figures["errors"] == 0, run.stdout
