"""bench.standing runs end to end and prints its figures (not its speed: tests never judge
wall-clock time): every mode rated, its queries counted."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from standing.ratings import MODES
from tests.conftest import ROOT, _subprocess_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_standing_bench_rates_every_mode_and_prints_one_json_line():
    run = subprocess.run(
        [sys.executable, "-m", "bench.standing", "--quick"],
        cwd=ROOT,
        env=_subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    for mode in MODES:
        assert figures[f"rate_ms_{mode}"] > 0
        assert 0 < figures[f"queries_{mode}"] <= 8  # a rating is a few queries, not one a player
