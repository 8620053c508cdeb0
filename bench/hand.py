"""Hand benchmark: ``python -m bench.hand [--quick]``.

Prints human lines, then one JSON line: the meld finder's p50 / p99 / max over random 15-card
hands (0, 1 and 2 jokers), the time of a full 4-player bot match, the bot's p99 time per move, and
the bot's win rate against the naive bot over two-player matches. Everything is seeded (fixed
secrets), so two runs play the same cards. Matches are driven through the registry
(``games.get("hand")``), each from its one random source, the server's ``deal`` included.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import games
from bench.stats import percentile
from fairness.core import HAND_DECK, RandomSource
from games.hand import bot, engine, finder

NORMAL = [c for c in HAND_DECK if not c.startswith("JK")]
GAME = games.get("hand")


def pct(xs: list[float], p: float) -> float:
    """The ``p``-th percentile (0 < p <= 100), nearest rank: the one helper of every bench."""
    return percentile(xs, p / 100)


def bench_finder(n: int) -> list[float]:
    rnd = random.Random(20261129)
    times = []
    for i in range(n):
        jokers = i % 3
        hand = rnd.sample(NORMAL, 15 - jokers) + ["JK1", "JK2"][:jokers]
        t = time.perf_counter()
        finder.hints(hand, False, 51, [])
        times.append((time.perf_counter() - t) * 1000)
    return times


def play(
    options: engine.Options, secret: bytes, choosers: list, move_times: list[float] | None
) -> engine.State:
    """One match through the registry; ``choosers[seat]`` picks an Action from the seat's view."""
    rng = RandomSource(secret, "hand", "bench-match", {0: "bench"})
    state = GAME.new_match(options, rng)
    while True:
        server = GAME.server_step(state)
        if server is not None:
            state = GAME.apply(state, None, server, rng)
            continue
        seat = GAME.to_move(state)
        if seat is None:
            return state
        choose = choosers[seat]
        t = time.perf_counter()
        text = choose(GAME.view(state, seat)).to_str()
        if move_times is not None and choose is bot.choose:
            move_times.append((time.perf_counter() - t) * 1000)
        state = GAME.apply(state, seat, text, rng)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer hands and matches (< 30 s)")
    args = ap.parse_args(argv)
    n_hands, n_4p, n_2p = (2000, 2, 40) if args.quick else (10000, 5, 200)

    times = bench_finder(n_hands)
    print(
        f"meld finder: {n_hands} hands, p50 {pct(times, 50):.3f} ms, "
        f"p99 {pct(times, 99):.3f} ms, max {max(times):.3f} ms"
    )

    moves: list[float] = []
    match_ms = []
    for i in range(n_4p):
        t = time.perf_counter()
        play(engine.Options(players=4), bytes([0x40 + i]) * 32, [bot.choose] * 4, moves)
        match_ms.append((time.perf_counter() - t) * 1000)
    print(f"4-player bot match: median {statistics.median(match_ms):.1f} ms over {n_4p}")

    wins = 0
    for i in range(n_2p):
        me = i % 2  # the good bot plays first and second seat in turn
        seats = [bot.naive, bot.naive]
        seats[me] = bot.choose
        final = play(engine.Options(players=2), i.to_bytes(4, "big") * 8, seats, moves)
        first = [seats for place, seats in GAME.outcome(final).places if place == 1]
        wins += first == [(me,)]
    rate = wins / n_2p
    print(
        f"bot vs naive: {wins}/{n_2p} matches won; "
        f"bot move p99 {pct(moves, 99):.3f} ms over {len(moves)} moves"
    )

    print(
        json.dumps(
            {
                "meld_finder_p50_ms": round(pct(times, 50), 3),
                "meld_finder_p99_ms": round(pct(times, 99), 3),
                "meld_finder_max_ms": round(max(times), 3),
                "match_4p_ms": round(statistics.median(match_ms), 1),
                "bot_move_p99_ms": round(pct(moves, 99), 3),
                "bot_win_rate": round(rate, 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
