"""Jakaro engine and bot figures: ``python -m bench.jakaro [--quick]``.

Prints a few human lines, then one JSON line with:

- ``legal_actions_p50_us`` / ``legal_actions_p99_us``: time of ``legal_actions`` over positions
  from random games;
- ``game_4p_ms``: mean time of a whole four-player game played by four bots;
- ``bot_move_p99_ms``: 99th percentile of the bot's time per move;
- ``bot_win_rate``: share of four-player games won by a bot team against a team that picks
  uniformly among the legal actions (200 games; the bots sit at seats 0/2 and 1/3 in turn).

Secrets are fixed, so runs are reproducible (the timings, of course, depend on the machine).
"""

from __future__ import annotations

import json
import random
import sys
import time

from games.jakaro.bot import choose, random_action
from games.jakaro.engine import Options, apply, legal_actions, new_match, view
from verify.fairness import RandomSource


def _rng(tag: str, i: int) -> RandomSource:
    return RandomSource(bytes([i % 256]) * 32, "jakaro", f"bench-{tag}-{i}")


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def legal_action_times(games: int) -> list[float]:
    """Microseconds per legal_actions call on every position of random games (2 and 4 players)."""
    out: list[float] = []
    for i in range(games):
        rng = _rng("legal", i)
        rnd = random.Random(i)
        st = new_match(Options(4 if i % 4 else 2), rng)
        while st.winner is None:
            t0 = time.perf_counter_ns()
            legal = legal_actions(st)
            out.append((time.perf_counter_ns() - t0) / 1000)
            st = apply(st, st.turn, rnd.choice(legal), rng)
    return out


def bot_game_ms(games: int) -> list[float]:
    """Milliseconds per whole four-player game, four bots."""
    out: list[float] = []
    for i in range(games):
        rng = _rng("botgame", i)
        t0 = time.perf_counter()
        st = new_match(Options(4), rng)
        while st.winner is None:
            st = apply(st, st.turn, choose(view(st, st.turn)), rng)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def bot_vs_random(games: int) -> tuple[float, list[float]]:
    """(bot team's win rate, bot move times in ms) over four-player games against random."""
    wins = 0
    move_ms: list[float] = []
    for i in range(games):
        rng = _rng("match", i)
        rnd = random.Random(10_000 + i)
        bot_team = i % 2
        st = new_match(Options(4), rng)
        while st.winner is None:
            seat = st.turn
            v = view(st, seat)
            if seat % 2 == bot_team:
                t0 = time.perf_counter()
                action = choose(v)
                move_ms.append((time.perf_counter() - t0) * 1000)
            else:
                action = random_action(v, rnd)
            st = apply(st, seat, action, rng)
        wins += st.winner == bot_team
    return wins / games, move_ms


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    n_legal, n_bot, n_match = (12, 3, 30) if quick else (80, 20, 200)
    t_start = time.perf_counter()
    legal_us = legal_action_times(n_legal)
    print(f"legal_actions: {len(legal_us)} positions from {n_legal} random games")
    game_ms = bot_game_ms(n_bot)
    print(f"bot games: {n_bot} four-player games, mean {sum(game_ms) / len(game_ms):.1f} ms")
    rate, move_ms = bot_vs_random(n_match)
    print(
        f"bot team vs random team: {n_match} games, win rate {rate:.3f}, {len(move_ms)} bot moves"
    )
    print(f"total {time.perf_counter() - t_start:.1f} s{' (quick)' if quick else ''}")
    figures = {
        "legal_actions_p50_us": round(_pct(legal_us, 0.50), 1),
        "legal_actions_p99_us": round(_pct(legal_us, 0.99), 1),
        "game_4p_ms": round(sum(game_ms) / len(game_ms), 1),
        "bot_move_p99_ms": round(_pct(move_ms, 0.99), 3),
        "bot_win_rate": round(rate, 3),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
