"""Shared helpers for the Hand tests: play whole matches with any bots, check invariants."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from games.hand import bot, engine
from verify.fairness import HAND_DECK, RandomSource


def round_rng(secret: bytes, number: int) -> RandomSource:
    return RandomSource(secret, "hand", f"test-r{number}", {0: "seed0"})


def all_cards(state: engine.State) -> Counter:
    r = state.round
    c: Counter = Counter()
    for h in r.hands:
        c.update(h)
    c.update(r.stock)
    c.update(r.fire)
    for m in r.melds:
        c.update(m.cards)
    return c


def random_chooser(rnd: random.Random) -> Callable[[engine.State, int, RandomSource], tuple]:
    """A random player: tries random candidate actions until one is accepted."""

    def play(state: engine.State, seat: int, rng: RandomSource) -> tuple[engine.State, str]:
        v = engine.view(state, seat)
        for text in bot.random_move(v, rnd):
            try:
                return engine.apply(state, seat, text, rng), text
            except engine.IllegalAction:
                continue
        raise AssertionError(f"no accepted action for seat {seat}: {v}")

    return play


def view_chooser(choose: Callable[[dict], str]) -> Callable:
    def play(state: engine.State, seat: int, rng: RandomSource) -> tuple[engine.State, str]:
        text = choose(engine.view(state, seat))
        return engine.apply(state, seat, text, rng), text

    return play


def play_match(
    options: engine.Options,
    secret: bytes,
    players: list[Callable],
    on_step: Callable[[engine.State], None] | None = None,
    max_steps: int = 20000,
) -> tuple[engine.State, list[tuple[int, int, str]]]:
    """Play a whole match; return the final state and the log (round, seat, action)."""
    state = engine.new_match(options, round_rng(secret, 1))
    rng = round_rng(secret, 1)
    log: list[tuple[int, int, str]] = []
    for _ in range(max_steps):
        if state.status == "match_over":
            return state, log
        if state.status == "round_over":
            rng = round_rng(secret, state.round.number + 1)
            state = engine.next_round(state, rng)
            continue
        seat = state.round.turn
        state, text = players[seat](state, seat, rng)
        log.append((state.round.number, seat, text))
        if on_step:
            on_step(state)
    raise AssertionError("the match did not finish")


def replay(options: engine.Options, secret: bytes, log: list[tuple[int, int, str]]) -> engine.State:
    """Replay a match's log from its secret (as the Verify page does)."""
    state = engine.new_match(options, round_rng(secret, 1))
    rng = round_rng(secret, 1)
    for number, seat, text in log:
        while state.round.number < number:
            rng = round_rng(secret, state.round.number + 1)
            state = engine.next_round(state, rng)
        state = engine.apply(state, seat, text, rng)
    return state


DECK = Counter(HAND_DECK)
