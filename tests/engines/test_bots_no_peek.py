"""No bot peeks, at any strength: at positions sampled across whole matches (Hand: from every
round; Jakaro: from every deck), everything the seat to move cannot see (the other hands, the
stock or the deck) is dealt again at random, in the same counts; the seat's view and each bot's
choice must not change. The check itself is checked: a bot given a peek at the next seat's hand
is caught."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

import games
from fairness.core import RandomSource
from games.contract import BOT_LEVELS

POSITIONS = 30  # sampled positions per game
REDEALS = 3  # re-deals of the hidden cards per position


def _deal_again(
    hands: tuple[tuple[str, ...], ...], rest: tuple[str, ...], seat: int, rnd: random.Random
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The cards ``seat`` cannot see (the other hands and ``rest``, the stock or the deck) dealt
    again at random, each hand keeping its count (sorted, as a Hand holds them)."""
    hidden = [c for s, h in enumerate(hands) if s != seat for c in h] + list(rest)
    rnd.shuffle(hidden)
    dealt = []
    for s, h in enumerate(hands):
        if s == seat:
            dealt.append(h)
        else:
            dealt.append(tuple(sorted(hidden[: len(h)])))
            hidden = hidden[len(h) :]
    return tuple(dealt), tuple(hidden)


def _redeal_hand(state: Any, seat: int, rnd: random.Random) -> Any:
    hands, stock = _deal_again(state.round.hands, state.round.stock, seat, rnd)
    return replace(state, round=replace(state.round, hands=hands, stock=stock))


def _redeal_jakaro(state: Any, seat: int, rnd: random.Random) -> Any:
    hands, deck = _deal_again(state.hands, state.deck, seat, rnd)
    return replace(state, hands=hands, deck=deck)


REDEAL = {"hand": _redeal_hand, "jakaro": _redeal_jakaro}
OPTIONS = {"hand": {"players": 3, "rounds": 5}, "jakaro": {"players": 4}}


def positions(game: str) -> list[tuple[Any, int]]:
    """(state, seat to move) at POSITIONS points of whole matches played by the normal bot, the
    same points each run, spread over every round (Hand) or deck (Jakaro)."""
    engine = games.get(game)
    options = engine.parse_options(OPTIONS[game])
    found: list[tuple[Any, int, str]] = []
    for k in range(3):
        secret = hashlib.sha256(f"no-peek/{game}/{k}".encode()).digest()
        rng = RandomSource(secret, game, f"np{k}", {})
        state = engine.new_match(options, rng)
        while engine.outcome(state) is None:
            text = engine.server_step(state)
            seat = None if text is not None else engine.to_move(state)
            if seat is not None:
                where = state.round.number if game == "hand" else state.deck_no
                found.append((state, seat, f"{k}/{where}"))
                text = engine.bot_action(engine.view(state, seat))
            state = engine.apply(state, seat, engine.canonical(seat, text), rng)
    rnd = random.Random(f"sample/{game}")
    # Every round or deck of every match gives positions, then the rest at random.
    by_part: dict[str, list[tuple[Any, int]]] = {}
    for state, seat, part in found:
        by_part.setdefault(part, []).append((state, seat))
    picked = [rnd.choice(group) for group in by_part.values()]
    rest = [(s, seat) for s, seat, _ in found]
    picked += rnd.sample(rest, max(0, POSITIONS - len(picked)))
    return picked


def peeking(
    game: str, sampled: list[tuple[Any, int]], decide: Callable[[Any, int], str]
) -> list[str]:
    """Where ``decide(state, seat)`` (or the seat's view) changes when the hidden cards are
    dealt again: one line per such position (empty: it never peeks)."""
    engine = games.get(game)
    found = []
    for i, (state, seat) in enumerate(sampled):
        rnd = random.Random(f"redeal/{game}/{i}")
        view, choice = engine.view(state, seat), decide(state, seat)
        for _ in range(REDEALS):
            other = REDEAL[game](state, seat, rnd)
            if engine.view(other, seat) != view:
                found.append(f"position {i}: the view changed")
            elif decide(other, seat) != choice:
                found.append(f"position {i}: the choice changed")
    return found


@pytest.fixture(scope="module", params=["hand", "jakaro"])
def sampled(request) -> tuple[str, list[tuple[Any, int]]]:
    return request.param, positions(request.param)


def test_the_positions_cover_every_round_or_deck(sampled):
    game, picked = sampled
    assert len(picked) >= POSITIONS
    if game == "hand":
        rounds = {state.round.number for state, _ in picked}
        assert set(range(1, 6)) <= rounds, rounds
    else:
        assert len({state.deck_no for state, _ in picked}) >= 3


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_no_bot_reads_what_its_seat_cannot_see(sampled, level):
    game, picked = sampled
    engine = games.get(game)

    def decide(state: Any, seat: int) -> str:
        return engine.bot_action(engine.view(state, seat), level)

    assert peeking(game, picked, decide) == []


def test_the_check_catches_a_bot_that_peeks(sampled):
    """A bot that looks at the next seat's cards (here: it plays its normal move, except that it
    chooses among its legal moves by those cards) is caught."""
    game, picked = sampled
    engine = games.get(game)

    def leaky(state: Any, seat: int) -> str:
        view = engine.view(state, seat)
        hands = state.round.hands if game == "hand" else state.hands
        peek = hands[(seat + 1) % len(hands)]
        legal = view.get("legal") or []
        if len(legal) > 1:
            return legal[sum(map(ord, "".join(peek))) % len(legal)]
        return engine.bot_action(view) + ("" if not peek else f" #{peek[0]}")

    assert peeking(game, picked, leaky) != []
