"""bench.standing_pages runs end to end and prints its figures (not its speed: tests never
judge wall-clock time): every page answered, its queries counted and bounded (a page must not
read the history row by row)."""

from __future__ import annotations

import pytest

from tests.support.bench import run_bench

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_pages_bench_prints_one_json_line_with_bounded_queries():
    figures = run_bench("bench.standing_pages", "--quick", "--matches", "300")
    assert figures["history_matches"] == 300
    for page in ("profile", "profile_deep", "leaderboard"):
        assert figures[f"{page}_ms"] > 0
        assert 0 < figures[f"{page}_queries"] <= 16
