"""Hand benchmark: ``python -m bench.hand [--quick]``.

Prints human lines, then one JSON line: the meld finder's p50 / p99 / max over random 15-card
hands (0, 1 and 2 jokers), the time of a full 4-player bot match, the bot's p99 time per move, and
the bot's win rate against the naive bot over two-player matches. Everything is seeded (fixed
secrets), so two runs play the same cards.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from games.hand import bot, engine, finder
from verify.fairness import HAND_DECK, RandomSource

NORMAL = [c for c in HAND_DECK if not c.startswith("JK")]


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


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
    def rng_for(number: int) -> RandomSource:
        return RandomSource(secret, "hand", f"bench-r{number}", {0: "bench"})

    rng = rng_for(1)
    state = engine.new_match(options, rng)
    while state.status != "match_over":
        if state.status == "round_over":
            rng = rng_for(state.round.number + 1)
            state = engine.next_round(state, rng)
            continue
        seat = state.round.turn
        choose = choosers[seat]
        t = time.perf_counter()
        text = choose(engine.view(state, seat))
        if move_times is not None and choose is bot.choose:
            move_times.append((time.perf_counter() - t) * 1000)
        state = engine.apply(state, seat, text, rng)
    return state


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
        first = [row for row in final.places if row[0] == 1]
        wins += len(first) == 1 and first[0][1] == me
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
