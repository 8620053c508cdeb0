"""bench.table_page runs end to end and prints its figures (not its speed: tests never judge
wall-clock time): both table pages load on the throttled network through a real Daphne and
Chromium, and each page's own scripts and styles are weighed."""

from __future__ import annotations

import pytest

from tests.support.bench import run_bench

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_table_page_bench_loads_both_pages_and_prints_one_json_line():
    figures = run_bench("bench.table_page", "--quick")
    for game in ("hand", "jakaro"):
        assert figures[f"{game}_first_render_ms"] > 0
        assert figures[f"{game}_live_ms"] > 0
        # The page's own JS and CSS, as served: more than nothing, and (issues 11 and 12) under
        # 100 KB compressed.
        assert 5 < figures[f"{game}_js_css_gzip_kb"] < 100
        # A move's frame comes as what changed (realtime/delta.py): a fraction of the whole
        # table (15 to 25 KB), and it reaches the page on the 2G-like link.
        assert 0 < figures[f"{game}_move_frame_bytes"] < 8000
        assert figures[f"{game}_move_2g_ms"] > 0
    assert figures["repeats"] == 1
