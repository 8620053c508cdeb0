"""``python -m bench.chat --quick`` runs and ends with its JSON line (figures read, not timed)."""

from __future__ import annotations

from tests.support.bench import run_bench

KEYS = {
    "lines_per_second",
    "ms_per_line_p50",
    "ms_per_line_p99",
    "caught_share",
    "disguises",
    "false_refusal_share",
    "false_mask_share",
    "clean_lines",
    "quick",
}


def test_the_chat_bench_ends_with_its_figures() -> None:
    figures = run_bench("bench.chat", "--quick")
    assert set(figures) == KEYS
    assert figures["quick"] is True
    assert figures["caught_share"] >= 0.95
    assert figures["false_refusal_share"] == 0
    assert figures["disguises"] > 1000 and figures["clean_lines"] > 1000
    assert figures["lines_per_second"] > 0 and figures["ms_per_line_p99"] > 0
