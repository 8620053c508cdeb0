"""The strong Jakaro bot: a look-ahead over what its seat can know.

From the seat's view alone (its hand, the board, the face-up pile, every seat's card count and
what is left of the deck), the cards it cannot see are dealt out at random several times, each
time consistently with what it has seen (the cards not in its hand and not on the pile, in the
counts each seat holds). In each of those worlds every promising move is played, then the other
seats answer, each with the normal bot on its sampled hand, until the turn comes back; the move
whose worlds end best on average (the board for our team, less what the card was worth keeping)
is chosen. So it sees the knock-out its move invites, the capture its partner is set up for, and
the Ten's burn or the Five that hurts before the opponents can answer.

The random draws come from a generator seeded by the view itself: the same view gives the same
move (the no-peek test relies on it), and nothing but the view is read.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Mapping
from typing import Any

from fairness.core import JAKARO_DECK

from . import bot
from .board import team
from .engine import Action, State, apply, legal_actions, rank

CANDIDATES = 4  # the best moves by the one-move score that are looked at further
WORLDS = 8  # deals of the unseen cards per decision
# The work a decision may do, counted in the legal moves the other seats' answers weigh (the
# bulk of its time: about 0.08 ms each on the two-core machine the bench runs on): once the
# candidates looked at have taken it past this, the rest (worse by the one-move score) are not.
# A count, not a clock, so the same view always gives the same move on any machine.
# 400 with six worlds won 60.5 % of 400 games against normal; 600 with eight, 63.0 % (p99 23 ms
# a decision on a quiet two-core machine of 2026-12-03).
WORK = 600


class _Draws:
    """The random source the look-ahead's worlds deal and burn with (never the match's)."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def deck(self, purpose: str) -> list[str]:
        cards = list(JAKARO_DECK)
        self.rnd.shuffle(cards)
        return cards

    def below(self, n: int, purpose: str) -> int:
        return self.rnd.randrange(n)


def seed_of(v: Mapping[str, Any]) -> int:
    """A seed from the view alone: the same view, the same draws."""
    text = f"{v['seat']}|{v['ply']}|{v['hand']}|{v['marbles']}|{v['discard']}"
    return zlib.crc32(text.encode())


def unseen(v: Mapping[str, Any]) -> list[str]:
    """The cards this seat cannot see: the deck less its hand and the face-up pile."""
    left = Counter(JAKARO_DECK)
    left.subtract(v["hand"])
    left.subtract(v["discard"])
    return sorted(left.elements())


def world(v: Mapping[str, Any], rnd: random.Random) -> State:
    """One full state consistent with the view: the unseen cards dealt to the other seats in
    their counts, the rest left in the deck."""
    cards = unseen(v)
    rnd.shuffle(cards)
    seat, n = v["seat"], v["players"]
    hands: list[tuple[str, ...]] = []
    for s, count in enumerate(v["hand_counts"]):
        if s == seat:
            hands.append(tuple(v["hand"]))
        else:
            hands.append(tuple(cards[:count]))
            cards = cards[count:]
    return State(
        players=n,
        marbles=tuple(m for ms in v["marbles"] for m in ms),
        hands=tuple(hands),
        deck=tuple(cards[: v["deck_left"]]),
        deck_no=v["deck_no"],
        deal_no=v["deal_no"],
        dealer=v["dealer"],
        turn=v["turn"],
        burn_no=0,
        discard=tuple(v["discard"]),
        ply=v["ply"],
    )


def _reply_view(state: State, seat: int) -> dict[str, Any]:
    """What the normal bot reads for a seat of a sampled world (its sampled hand)."""
    n = state.players
    return {
        "seat": seat,
        "players": n,
        "hand": list(state.hands[seat]),
        "legal": legal_actions(state),
        "marbles": [list(state.marbles[s * 4 : s * 4 + 4]) for s in range(n)],
    }


def _after_replies(state: State, seat: int, draws: _Draws) -> tuple[State, int]:
    """The other seats answer with the normal bot until the turn is ``seat``'s again; and the
    work that took (the legal moves weighed)."""
    work = 0
    for _ in range(state.players - 1):
        if state.turn is None or state.turn == seat:
            break
        mover = state.turn
        view = _reply_view(state, mover)
        work += len(view["legal"])
        state = apply(state, mover, bot.choose(view), draws)
    return state, work


def choose(v: Mapping[str, Any]) -> Action:
    """The strong bot's action for the seat whose view this is (its turn)."""
    scored = bot.scored(v)
    if len(scored) == 1 or scored[0][1].kind == "discard":
        return bot.choose(v)
    # The best few by the one-move score, one per distinct board (two suits of a rank are one).
    seen: set[tuple] = set()
    candidates: list[Action] = []
    for _score, act in sorted(scored, key=lambda pair: -pair[0]):
        key = (act.kind, rank(act.card), act.marbles, act.nums)
        if key in seen:
            continue
        seen.add(key)
        candidates.append(act)
        if len(candidates) == CANDIDATES:
            break
    if len(candidates) == 1:
        return candidates[0]
    rnd = random.Random(seed_of(v))
    draws = _Draws(rnd)
    worlds = [world(v, rnd) for _ in range(WORLDS)]
    seat, players = v["seat"], v["players"]
    best, best_value = candidates[0], float("-inf")
    work = 0
    for act in candidates:
        if work > WORK:
            break
        total = 0.0
        for state in worlds:
            after, done = _after_replies(apply(state, seat, act, draws), seat, draws)
            work += done
            if after.winner is not None:
                won = after.winner == team(players, seat)
                total += 10_000.0 if won else -10_000.0
            else:
                total += bot.evaluate(after.marbles, players, seat)
        value = total / len(worlds) - bot.KEEP[rank(act.card)]
        if value > best_value:
            best, best_value = act, value
    return best
