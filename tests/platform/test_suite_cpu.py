"""The opt-in plugin that says where the suite's CPU goes (tests/support/suite_cpu.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.suite_cpu import busy_seconds

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ("-p", "tests.support.suite_cpu")


def test_busy_time_counts_user_nice_system_irq_softirq_and_steal_not_idle_or_iowait(tmp_path):
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice, in 1/100 s
    stat.write_text("cpu  100 20 30 9000 500 4 6 40 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    assert busy_seconds(stat) == 2.0  # (100 + 20 + 30 + 4 + 6 + 40) / 100


def test_a_run_with_the_plugin_ends_with_one_json_line_of_its_files(tmp_path):
    target = "tests/engines/test_tally.py"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *PLUGIN, target],
        cwd=ROOT,
        # Its own run, not an xdist worker's: a worker's name would move its Redis database up
        # once more (tests/settings.py), past Redis's 16 from a run on /12.
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")},
            "PYTHONDONTWRITEBYTECODE": "1",
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    lines = [x for x in run.stdout.splitlines() if x.startswith('{"cpu_s"')]
    assert len(lines) == 1, run.stdout[-2000:]
    found = json.loads(lines[0])
    assert list(found["files"]) == [target]
    cpu, wall = found["files"][target]
    assert wall > 0 and cpu >= 0
    assert found["wall_s"] == wall and found["cpu_s"] == cpu
