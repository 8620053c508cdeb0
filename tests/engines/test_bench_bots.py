"""``python -m bench.bots`` plays its pairings on fixed deals with the seats swapped, and ends
with its JSON line (figures read, not judged: two games a pairing say nothing of strength); and
the Wilson interval it reports is the textbook one."""

from __future__ import annotations

import pytest

from bench.bots import PAIRINGS, pair, wilson
from tests.support.bench import run_bench


def test_the_wilson_interval():
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == 1
    low, high = wilson(64, 100)
    assert low < 0.64 < high


def test_the_bots_bench_plays_every_pairing_and_ends_with_its_figures():
    figures = run_bench("bench.bots", "--games", "2", "--jobs", "1", timeout=600)
    for game in ("hand", "jakaro"):
        assert set(figures[game]) == {f"{a}_vs_{b}" for a, b in PAIRINGS}
        for row in figures[game].values():
            assert row["games"] == 2 and 0 <= row["low"] <= row["won"] <= row["high"] <= 1
        assert set(figures["move_ms"][game]) == {"easy", "normal", "strong", "greedy"}
    assert figures["fallbacks"] == 0 and figures["quick"] is False


def test_other_deals_are_the_same_pairs_from_a_later_index():
    """``--deals K`` plays pair K (and on) of the same fixed deals: its score is that pair's."""
    figures = run_bench(
        "bench.bots",
        *("--only", "hand", "--pairing", "strong_vs_normal"),
        *("--games", "2", "--jobs", "1", "--deals", "10"),
        timeout=600,
    )
    assert figures["deals"] == 10 and set(figures) >= {"hand", "move_ms"}
    assert "jakaro" not in figures
    alone = pair(("hand", "strong", "normal", 10))
    # Pair 10 ends unlike pair 0 (2 of 2 against 1 of 2), so a bench that ignored --deals fails.
    assert alone["score"] != pair(("hand", "strong", "normal", 0))["score"]
    assert figures["hand"]["strong_vs_normal"]["won"] == round(alone["score"] / 2, 3)


def test_hands_yardstick_is_the_hand_bots_own_choose():
    """Issue 57 item 21: bench/ keeps no copy of the Hand bot; its yardstick plays the bot's
    ``choose`` on every view of a whole match, and bench/yardstick.py holds Jakaro's alone."""
    import games
    from bench import yardstick
    from bench.bots import GREEDY
    from fairness.core import RandomSource
    from games.hand import bot

    assert not [n for n in vars(yardstick) if n.startswith("hand")]
    engine = games.get("hand")
    rng = RandomSource(b"\x07" * 32, "hand", "yardstick", {})
    state = engine.new_match(engine.parse_options({"players": 2, "rounds": 1}), rng)
    views = 0
    while engine.outcome(state) is None:
        text, seat = engine.server_step(state), None
        if text is None:
            seat = engine.to_move(state)
            view = engine.view(state, seat)
            text = GREEDY["hand"](view)
            assert text == bot.choose(view).to_str()
            views += 1
        state = engine.apply(state, seat, engine.canonical(seat, text), rng)
    assert views > 10
