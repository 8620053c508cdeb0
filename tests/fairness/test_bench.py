"""The benchmark's output contract (not its speed: tests never judge wall-clock time)."""

from __future__ import annotations

import json

from bench import fairness as bench


def test_the_last_line_is_json_with_both_figures(capsys) -> None:
    assert bench.main(["--seconds", "0.01"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    for key in ("shuffles_per_s_106", "shuffles_per_s_52"):
        assert isinstance(figures[key], float) and figures[key] > 0
    assert len(lines) > 1  # human lines come first


def test_a_hand_deck_needs_more_hmac_blocks_than_a_jakaro_deck() -> None:
    # 105 draws at 8 per block is at least 14 blocks; rejections add some (see docs/fairness.md).
    hand, jakaro = bench.blocks_per_shuffle("hand", 20), bench.blocks_per_shuffle("jakaro", 20)
    assert 14 <= hand < 30 and 7 <= jakaro < hand
