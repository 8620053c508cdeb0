"""How strong are the bots? ``python -m bench.bots [--quick] [--games N] [--jobs J] [--deals K]``.

Plays, for each game, the strong bot against the yardstick (bench/yardstick.py: a plain one-move
greedy player), the strong bot against the normal one, and the normal against the easy: Hand as
two-player matches (five rounds), Jakaro as four-player games (a team of each). Games go in
pairs on the same fixed secret: the same deals, once with each side in each seat (the seats
swapped), so neither side has the luck of the cards. A side's score in a game is its share of
the prize (a tie is split); the win rate comes with its Wilson 95 % interval. Every bot decision
is timed (milliseconds, from its view to its action text), by level. ``--deals K`` plays from
the K-th pair of deals instead of the first: a change tried on the usual deals is checked on
others (over 400 games the same bots differ by a few points from one set of deals to another).

The last line is one JSON object: per game and pairing ``won`` (the first side's share of the
games), ``low``/``high`` (the interval) and ``games``; ``move_ms`` per game and level (p50,
p99); ``fallbacks`` (a yardstick move the engine refused, played by the time-out's rule; should
be 0); ``deals`` (the first pair's index). Everything runs from the engines alone (no database).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import games
from bench import yardstick
from bench.stats import percentile
from fairness.core import RandomSource

OPTIONS = {"hand": {"players": 2}, "jakaro": {"players": 4}}
PAIRINGS = (("strong", "greedy"), ("strong", "normal"), ("normal", "easy"))
# Hand's yardstick is its normal bot (games/hand/bot.py choose; bench/yardstick.py says why).
GREEDY = {
    "hand": lambda view: games.get("hand").bot_action(view, "normal"),
    "jakaro": yardstick.jakaro_greedy,
}


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``score`` out of ``n`` games."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _policy(game: str, who: str) -> Callable[[Any], str]:
    engine = games.get(game)
    if who == "greedy":
        return GREEDY[game]
    return lambda view: engine.bot_action(view, who)


def play(game: str, sides: dict[int, str], secret: bytes, times: dict[str, list[float]]) -> tuple:
    """One match from ``secret`` with ``sides[seat]`` playing each seat; the prize shares by
    seat, and how many yardstick moves the engine refused."""
    engine = games.get(game)
    options = engine.parse_options(OPTIONS[game])
    rng = RandomSource(secret, game, secret.hex()[:16], {})
    state = engine.new_match(options, rng)
    policies = {seat: _policy(game, who) for seat, who in sides.items()}
    fallbacks = 0
    while (result := engine.outcome(state)) is None:
        text = engine.server_step(state)
        seat = None
        if text is None:
            seat = engine.to_move(state)
            view = engine.view(state, seat)
            start = time.perf_counter()
            text = policies[seat](view)
            times[sides[seat]].append((time.perf_counter() - start) * 1000)
        try:
            state = engine.apply(state, seat, engine.canonical(seat, text), rng)
        except Exception:
            if sides.get(seat) != "greedy":
                raise
            fallbacks += 1
            state = engine.apply(state, seat, engine.auto_action(state, seat), rng)
    return {s: float(v) for s, v in result.shares.items()}, fallbacks


def pair(task: tuple[str, str, str, int]) -> dict[str, Any]:
    """Two games on one secret, each side once in each seat; the first side's score."""
    game, first, second, k = task
    secret = hashlib.sha256(f"bench.bots/{game}/{k}".encode()).digest()
    n = OPTIONS[game]["players"]
    times: dict[str, list[float]] = defaultdict(list)
    score, fallbacks = 0.0, 0
    for flip in (0, 1):
        sides = {s: (first if (s % 2) == flip else second) for s in range(n)}
        shares, fb = play(game, sides, secret, times)
        score += sum(v for s, v in shares.items() if sides[s] == first)
        fallbacks += fb
    return {
        "game": game,
        "pairing": f"{first}_vs_{second}",
        "score": score,
        "times": times,
        "fallbacks": fallbacks,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 games a pairing")
    parser.add_argument("--games", type=int, default=400, help="games a pairing (even)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=sorted(OPTIONS), help="one game only")
    parser.add_argument("--deals", type=int, default=0, help="index of the first pair of deals")
    parser.add_argument(
        "--pairing", choices=[f"{a}_vs_{b}" for a, b in PAIRINGS], help="one pairing only"
    )
    args = parser.parse_args(argv)
    per = 8 if args.quick else args.games
    tasks = [
        (game, first, second, k)
        for game in ([args.only] if args.only else sorted(OPTIONS))
        for first, second in PAIRINGS
        if args.pairing in (None, f"{first}_vs_{second}")
        for k in range(args.deals, args.deals + per // 2)
    ]
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    times: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    fallbacks = 0
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done in pool.map(pair, tasks, chunksize=1):
            scores[(done["game"], done["pairing"])].append(done["score"])
            for who, ms in done["times"].items():
                times[done["game"]][who].extend(ms)
            fallbacks += done["fallbacks"]
    result: dict[str, Any] = {}
    for (game, pairing), got in sorted(scores.items()):
        n = 2 * len(got)
        low, high = wilson(sum(got), n)
        result.setdefault(game, {})[pairing] = {
            "won": round(sum(got) / n, 3),
            "low": round(low, 3),
            "high": round(high, 3),
            "games": n,
        }
        print(f"{game} {pairing}: {sum(got) / n:.1%} [{low:.1%}, {high:.1%}] of {n} games")
    result["move_ms"] = {
        game: {
            who: {"p50": round(percentile(ms, 0.5), 2), "p99": round(percentile(ms, 0.99), 2)}
            for who, ms in sorted(levels.items())
        }
        for game, levels in sorted(times.items())
    }
    result["fallbacks"] = fallbacks
    result["deals"] = args.deals
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["quick"] = bool(args.quick)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
