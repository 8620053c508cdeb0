"""bench.frames plays its moves and draws every seat's frame after each (its figures read, not
judged: tests never judge time)."""

from __future__ import annotations

import pytest

from tests.support.bench import run_bench

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_frames_bench_draws_every_seat_after_every_move():
    figures = run_bench("bench.frames", "--moves", "3", timeout=300)
    for game in ("hand", "jakaro"):
        row = figures[game]
        # The deal's frames, then after each of three moves: four seats each time.
        assert row["moves"] == 3 and row["seat_frames"] == 4 * 4
        for key in ("shared", "own", "delta", "json", "move"):
            assert 0 < row[f"{key}_ms_p50"] and 0 < row[f"{key}_ms_mean"]
        # A whole frame is kilobytes; after the first, a seat's socket sends only what changed.
        assert row["frame_kb_p50"] > 2 and 0 < row["delta_bytes_p50"] < row["frame_kb_p50"] * 1024
    drawn = [figures[g]["move_ms_mean"] / 4 for g in ("hand", "jakaro")]
    assert figures["seat_frame_ms"] == pytest.approx(sum(drawn) / 2, abs=0.002)
    assert figures["quick"] is False
