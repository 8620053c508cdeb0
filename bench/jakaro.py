"""Jakaro engine and bot figures: ``python -m bench.jakaro [--quick]``.

Drives the game only through the registry (``games.get("jakaro")``). Prints a few human lines,
then one JSON line with:

- ``legal_actions_4p_p50_us`` / ``legal_actions_4p_p99_us`` and ``legal_actions_2p_p50_us`` /
  ``legal_actions_2p_p99_us``: time of ``legal_actions`` over every position of random
  four-player and two-player games;
- ``legal_actions_p50_us`` / ``legal_actions_p99_us``: the same over both kinds together (the
  older figures, kept so runs can be compared);
- ``game_4p_ms``: mean time of a whole four-player game played by four bots;
- ``bot_move_p99_ms``: 99th percentile of the bot's time per move;
- ``bot_win_rate``: share of four-player games won by a bot team against a team that picks
  uniformly among the legal actions (200 games; the bots sit at seats 0/2 and 1/3 in turn).

Percentiles are nearest-rank (``bench.stats.percentile``); two random games are played untimed first
(a warm-up), so the figures are those of a running server. Secrets are fixed and each match has
one random source, so runs are reproducible (the timings, of course, depend on the machine).
"""

from __future__ import annotations

import json
import random
import sys
import time

import games
from bench.stats import percentile
from fairness.core import RandomSource

JAKARO = games.get("jakaro")


def _rng(tag: str, i: int) -> RandomSource:
    """The match's one random source."""
    return RandomSource(bytes([i % 256]) * 32, "jakaro", f"bench-{tag}-{i}")


def _new(players: int, rng: RandomSource):
    return JAKARO.new_match(JAKARO.parse_options({"players": players}), rng)


def legal_action_times(games_n: int) -> dict[int, list[float]]:
    """Microseconds per legal_actions call on every position of random games, by player count
    (one game in four has two players)."""
    out: dict[int, list[float]] = {2: [], 4: []}
    legal_actions, apply, to_move = JAKARO.legal_actions, JAKARO.apply, JAKARO.to_move
    for i in range(games_n):
        rng = _rng("legal", i)
        rnd = random.Random(i)
        players = 4 if i % 4 else 2
        times = out[players]
        st = _new(players, rng)
        while (seat := to_move(st)) is not None:
            t0 = time.perf_counter_ns()
            legal = legal_actions(st)
            times.append((time.perf_counter_ns() - t0) / 1000)
            st = apply(st, seat, rnd.choice(legal), rng)
    return out


def bot_game_ms(games_n: int) -> list[float]:
    """Milliseconds per whole four-player game, four bots."""
    out: list[float] = []
    for i in range(games_n):
        rng = _rng("botgame", i)
        t0 = time.perf_counter()
        st = _new(4, rng)
        while (seat := JAKARO.to_move(st)) is not None:
            st = JAKARO.apply(st, seat, JAKARO.bot_action(JAKARO.view(st, seat)), rng)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def bot_vs_random(games_n: int) -> tuple[float, list[float]]:
    """(bot team's win rate, bot move times in ms) over four-player games against random."""
    wins = 0
    move_ms: list[float] = []
    for i in range(games_n):
        rng = _rng("match", i)
        rnd = random.Random(10_000 + i)
        bot_team = i % 2
        st = _new(4, rng)
        while (seat := JAKARO.to_move(st)) is not None:
            v = JAKARO.view(st, seat)
            if seat % 2 == bot_team:
                t0 = time.perf_counter()
                action = JAKARO.bot_action(v)
                move_ms.append((time.perf_counter() - t0) * 1000)
            else:
                action = rnd.choice(v["legal"])
            st = JAKARO.apply(st, seat, action, rng)
        result = JAKARO.outcome(st)
        wins += bot_team in result.places[0][1]  # seats 0/2 are team 0, seats 1/3 team 1
    return wins / games_n, move_ms


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    n_legal, n_bot, n_match = (12, 3, 30) if quick else (80, 20, 200)
    t_start = time.perf_counter()
    legal_action_times(2)  # warm-up, not counted: the figures are for a running server
    legal_us = legal_action_times(n_legal)
    both = legal_us[2] + legal_us[4]
    print(
        f"legal_actions: {len(legal_us[4])} four-player and {len(legal_us[2])} two-player "
        f"positions from {n_legal} random games"
    )
    game_ms = bot_game_ms(n_bot)
    print(f"bot games: {n_bot} four-player games, mean {sum(game_ms) / len(game_ms):.1f} ms")
    rate, move_ms = bot_vs_random(n_match)
    print(
        f"bot team vs random team: {n_match} games, win rate {rate:.3f}, {len(move_ms)} bot moves"
    )
    print(f"total {time.perf_counter() - t_start:.1f} s{' (quick)' if quick else ''}")
    figures = {
        "legal_actions_p50_us": round(percentile(both, 0.50), 1),
        "legal_actions_p99_us": round(percentile(both, 0.99), 1),
        "legal_actions_4p_p50_us": round(percentile(legal_us[4], 0.50), 1),
        "legal_actions_4p_p99_us": round(percentile(legal_us[4], 0.99), 1),
        "legal_actions_2p_p50_us": round(percentile(legal_us[2], 0.50), 1),
        "legal_actions_2p_p99_us": round(percentile(legal_us[2], 0.99), 1),
        "game_4p_ms": round(sum(game_ms) / len(game_ms), 1),
        "bot_move_p99_ms": round(percentile(move_ms, 0.99), 3),
        "bot_win_rate": round(rate, 3),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
