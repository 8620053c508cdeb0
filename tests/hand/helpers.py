"""Shared helpers for the Hand tests: play whole matches through the registry, check invariants.

A match has one random source (fairness/core.py), built once from its secret; its log holds
every action, the server's ``deal`` (seat None) and ``timeout`` included, so
``games.contract.replay`` rebuilds it with no Hand-specific code.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import games
from fairness.core import HAND_DECK, RandomSource
from games.hand import bot, engine

GAME = games.get("hand")
IDENT = "test-match"

Log = list[tuple[int | None, str]]
# A player: (state, seat, rng) -> (new state, the action text it played)
Player = Callable[[engine.State, int, RandomSource], tuple[engine.State, str]]


def match_rng(secret: bytes) -> RandomSource:
    """The match's one random source: seat 0 sent a browser seed, the other seats none."""
    return RandomSource(secret, "hand", IDENT, {0: "seed0"})


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


def random_chooser(rnd: random.Random) -> Player:
    """A random player: tries random candidate actions until one is accepted."""

    def play(state: engine.State, seat: int, rng: RandomSource) -> tuple[engine.State, str]:
        v = GAME.view(state, seat)
        for action in bot.random_move(v, rnd):
            text = action.to_str()
            try:
                return GAME.apply(state, seat, text, rng), text
            except engine.IllegalAction:
                continue
        raise AssertionError(f"no accepted action for seat {seat}: {v}")

    return play


def view_chooser(choose: Callable[[dict], object]) -> Player:
    """A player from a bot that picks from the seat's view (Action or text)."""

    def play(state: engine.State, seat: int, rng: RandomSource) -> tuple[engine.State, str]:
        chosen = choose(GAME.view(state, seat))
        text = chosen if isinstance(chosen, str) else chosen.to_str()
        return GAME.apply(state, seat, text, rng), text

    return play


def play_match(
    options: engine.Options,
    secret: bytes,
    players: list[Player],
    on_step: Callable[[engine.State], None] | None = None,
    max_steps: int = 20000,
) -> tuple[engine.State, Log]:
    """Play a whole match through the registry; return the final state and its log."""
    rng = match_rng(secret)
    state = GAME.new_match(options, rng)
    log: Log = []
    for _ in range(max_steps):
        server = GAME.server_step(state)
        if server is not None:
            state = GAME.apply(state, None, server, rng)
            log.append((None, server))
            continue
        seat = GAME.to_move(state)
        if seat is None:
            return state, log
        state, text = players[seat](state, seat, rng)
        log.append((seat, text))
        if on_step:
            on_step(state)
    raise AssertionError("the match did not finish")


DECK = Counter(HAND_DECK)
