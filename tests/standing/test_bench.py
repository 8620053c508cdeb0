"""bench.standing runs end to end and prints its figures (not its speed: tests never judge
wall-clock time): every mode rated, its queries counted."""

from __future__ import annotations

import pytest

from standing.ratings import MODES
from tests.support.bench import run_bench

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_standing_bench_rates_every_mode_and_prints_one_json_line():
    figures = run_bench("bench.standing", "--quick")
    for mode in MODES:
        assert figures[f"rate_ms_{mode}"] > 0
        assert 0 < figures[f"queries_{mode}"] <= 8  # a rating is a few queries, not one a player
