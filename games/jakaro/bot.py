"""Jakaro players: a greedy bot that looks one move ahead, a uniform random player, and the
auto-play used when a turn times out.

The bot sees only ``view(state, seat)``: its hand, the public board and its legal actions. It
reads each legal text once (``Action.parse``), scores the board each action leads to
(``engine.effect`` needs public information only) and subtracts what the card is worth keeping,
so a cheap card is spent before a precious one. It works on ``Action`` values; the text is
written only at the edge (``bot_action``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .board import BASE, HOME0, TRACK
from .engine import STARTS, Action, IllegalAction, State, effects, rank, view

# How much a card is worth keeping for later: the Ace and King bring marbles out, the Four is
# the short cut, the Seven splits, the Five and the Jack reach other marbles.
KEEP: dict[str, float] = {
    "A": 8.0,
    "K": 8.0,
    "4": 6.0,
    "7": 6.0,
    "5": 5.0,
    "J": 5.0,
    "10": 3.0,
    "Q": 2.0,
    "9": 1.5,
    "8": 1.5,
    "6": 1.2,
    "3": 1.0,
    "2": 1.0,
}
BURN_GAIN = 5.0  # a Ten burn: the opponent loses a card we cannot see
THREAT = 0.35  # share of a marble's value lost when an enemy could reach it next turn
START_CLOG = 6.0  # our own marble sitting on our start stops the next one coming out


def evaluate(marbles: tuple[int, ...] | list[int], players: int, seat: int) -> float:
    """How good the board is for ``seat``'s team (its marbles minus the opponents'). The strong
    bot calls it thousands of times a decision: teams are read as ``seat & 1`` (board.team: seats
    0 and 2 against 1 and 3; with two players 0 against 1), and a marble is under threat when an
    opponent's marble is 1 to 13 squares behind it (a card's move) or 4 ahead (the Four)."""
    starts = STARTS[players]
    mine = seat & 1
    on_track = [(p, (i >> 2) & 1) for i, p in enumerate(marbles) if 0 <= p < TRACK]
    total = 0.0
    for i, pos in enumerate(marbles):
        if pos == BASE:
            continue
        owner = i >> 2
        side = owner & 1
        sign = 1.0 if side == mine else -1.0
        if pos >= HOME0:
            total += sign * (100.0 + 4.0 * (pos - HOME0))
            continue
        start = starts[owner]
        value = 20.0 + (pos - start) % TRACK
        if pos == start:
            # Safe, but it blocks the next marble out while any are still in base.
            if BASE in marbles[owner * 4 : owner * 4 + 4]:
                value -= START_CLOG
        else:
            for other, other_side in on_track:
                if other_side != side:
                    behind = (pos - other) % TRACK
                    if 1 <= behind <= 13 or behind == TRACK - 4:
                        value *= 1.0 - THREAT
                        break
        total += sign * value
    return total


def least_useful(hand: list[str]) -> str:
    """The card to burn when nothing can be played: the one least worth keeping."""
    return min(hand, key=lambda c: (KEEP[rank(c)], c))


def scored(v: Mapping[str, Any]) -> list[tuple[float, Action]]:
    """Every legal action of the seat whose view this is, with its one-move score: the board it
    leads to for our team, less what its card is worth keeping (a burn: the board as it is,
    plus what the opponent loses). With no card to play: the discards, unscored."""
    seat, players = v["seat"], v["players"]
    acts = [Action.parse(text, seat) for text in v["legal"]]
    if not acts:
        raise ValueError("the bot was asked to play out of turn")
    if acts[0].kind == "discard":
        return [(0.0, act) for act in acts]
    marbles = tuple(m for ms in v["marbles"] for m in ms)
    # Two suits of one rank give the same board: each board is made and scored once.
    moving: dict[tuple, Action] = {}
    for act in acts:
        if act.kind != "burn10":
            moving.setdefault((act.kind, rank(act.card), act.marbles, act.nums), act)
    boards = effects(marbles, players, seat, list(moving.values()))
    score_of = {key: evaluate(b, players, seat) for key, b in zip(moving, boards, strict=True)}
    out: list[tuple[float, Action]] = []
    for act in acts:
        r = rank(act.card)
        if act.kind == "burn10":
            score = evaluate(marbles, players, seat) + BURN_GAIN
        else:
            score = score_of[(act.kind, r, act.marbles, act.nums)]
        out.append((score - KEEP[r], act))
    return out


def choose(v: Mapping[str, Any]) -> Action:
    """The normal bot's action for the seat whose view this is (it must be that seat's turn):
    the best one-move score, the first of equals."""
    moves = scored(v)
    if moves[0][1].kind == "discard":
        return Action(v["seat"], "discard", least_useful(v["hand"]))
    best, best_score = moves[0][1], float("-inf")
    for score, act in moves:
        if score > best_score:
            best, best_score = act, score
    return best


def easy(v: Mapping[str, Any], rnd: random.Random) -> Action:
    """The easy bot: any move of the better half by the one-move score, the card's worth for
    later not counted (so it spends an Ace or a King early and misses the best move often, but
    never plays one of the worse half: no gift to the opponents, no blow to its partner when
    something better is there)."""
    moves = scored(v)
    if moves[0][1].kind == "discard":
        return Action(v["seat"], "discard", rnd.choice(v["hand"]))
    plain = sorted(
        ((score + KEEP[rank(act.card)], act) for score, act in moves), key=lambda m: -m[0]
    )
    return rnd.choice(plain[: max(1, (len(plain) + 1) // 2)])[1]


def bot_action(v: Mapping[str, Any]) -> str:
    """The normal bot's move, as an action text, from the seat's view alone."""
    return choose(v).to_str()


def auto_action(state: State, seat: int) -> str:
    """What the game plays for a seat whose time ran out: the bot's choice, which with no legal
    move is burning the least useful card (decision 13). One action per call."""
    if state.turn is None:
        raise IllegalAction("match_over")
    if seat != state.turn:
        raise IllegalAction("not_your_turn")
    return bot_action(view(state, seat))


def random_action(v: Mapping[str, Any], rnd: random.Random) -> str:
    """A player who picks uniformly among the legal actions (the benchmark's opponent)."""
    return rnd.choice(v["legal"])
