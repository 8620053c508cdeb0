"""How fast is the fair shuffle? ``python -m bench.fairness [--quick]``.

Shuffles the 106-card Hand deck and the 52-card Jakaro deck with fairness/core.py (each deck a
new purpose, as a game's deals are) and prints decks per second. The last line is one JSON object
with ``shuffles_per_s_106`` and ``shuffles_per_s_52``. ``--quick`` finishes in a few seconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence

import fairness.core as fairness
from bench.stats import percentile

SECRET = bytes(range(32))
SEEDS = {seat: f"bench-seed-{seat}" for seat in range(4)}


def rate(work: Callable[[int], object], seconds: float, repeats: int) -> float:
    """Median (nearest rank: a real run's figure) over ``repeats`` runs of calls per second, each
    run lasting about ``seconds``."""
    rates = []
    k = 0
    for _ in range(repeats):
        calls = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            for _ in range(20):  # check the clock every 20 calls, not every call
                work(k)
                k += 1
            calls += 20
        rates.append(calls / elapsed)
    return percentile(rates, 0.5)  # the one percentile helper of every bench


def blocks_per_shuffle(game: str, samples: int = 200) -> float:
    """Mean HMAC-SHA256 blocks one deck needs (rejections make it more than draws / 8)."""
    key = fairness.derive_key(SECRET, game, "bench", SEEDS)
    total = 0
    for i in range(samples):
        stream = fairness._Stream(key, f"deal/{i}")
        for n in range(len(fairness.DECKS[game]), 1, -1):
            stream.below(n)
        total += stream._counter
    return total / samples


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; prints human lines, then the JSON line."""
    parser = argparse.ArgumentParser(prog="python -m bench.fairness", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (a few seconds)")
    parser.add_argument("--seconds", type=float, help=argparse.SUPPRESS)  # for the tests
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.5 if args.quick else 3.0)
    repeats = 3

    print(f"sahrat-fair-v1 shuffle benchmark, Python {platform.python_version()}, {repeats} runs")
    print(f"of {seconds:g} s each, median shown")
    figures: dict[str, float] = {}
    for game, size in (("hand", 106), ("jakaro", 52)):
        source = fairness.RandomSource(SECRET, game, "bench", SEEDS)
        per_s = rate(lambda k, s=source: s.deck(f"deal/{k}"), seconds, repeats)
        blocks = blocks_per_shuffle(game)
        print(f"  {size:3d} cards ({game}): {per_s:10,.0f} decks/s   {blocks:.1f} HMAC blocks/deck")
        figures[f"shuffles_per_s_{size}"] = round(per_s, 1)
    keys = rate(
        lambda k: fairness.derive_key(SECRET, "hand", f"round-{k}", SEEDS), seconds, repeats
    )
    print(f"  round keys (4 seeds): {keys:10,.0f} keys/s")
    figures["derive_key_per_s"] = round(keys, 1)
    print(json.dumps({**figures, "quick": args.quick, "python": platform.python_version()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
