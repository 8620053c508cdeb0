"""Where the suite's CPU goes, test file by test file, every process counted (opt-in plugin).

``make test TEST_WORKERS=0 PYTEST_ARGS="-p tests.support.suite_cpu"`` runs the suite in one
process and ends with one JSON line: the CPU seconds the whole machine was busy during each
file's tests (the servers, Chromium, PostgreSQL and Redis they drive included) beside its wall
seconds, biggest first. The busy time is the machine's (/proc/stat), not the test process's:
a browser test spends most of its CPU in Chromium and Daphne, which a per-process clock would
miss. So it is only meaningful in a serial run on an otherwise quiet machine; under xdist both
workers' work lands in both files' figures. Linux only (it reads /proc/stat)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# /proc/stat's first line: user nice system idle iowait irq softirq steal ... (in clock ticks).
_BUSY_FIELDS = (0, 1, 2, 5, 6, 7)
_TICKS_PER_S = 100  # USER_HZ, fixed at 100 for /proc/stat on Linux whatever the kernel's HZ

_files: dict[str, list[float]] = {}


def busy_seconds(stat: Path = Path("/proc/stat")) -> float:
    """The CPU seconds the machine has been busy since boot, all cores summed."""
    ticks = [int(v) for v in stat.read_text().splitlines()[0].split()[1:]]
    return sum(ticks[i] for i in _BUSY_FIELDS if i < len(ticks)) / _TICKS_PER_S


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    cpu, wall = busy_seconds(), time.monotonic()
    yield
    figures = _files.setdefault(item.nodeid.split("::")[0], [0.0, 0.0])
    figures[0] += busy_seconds() - cpu
    figures[1] += time.monotonic() - wall


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    ranked = sorted(_files.items(), key=lambda kv: -kv[1][0])
    line = {
        "cpu_s": round(sum(cpu for cpu, _ in _files.values()), 1),
        "wall_s": round(sum(wall for _, wall in _files.values()), 1),
        "files": {name: [round(cpu, 1), round(wall, 1)] for name, (cpu, wall) in ranked},
    }
    terminalreporter.write_line(json.dumps(line))
