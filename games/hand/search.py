"""The strong Hand bot: the good bot (bot.choose), holding back a small first opening heads-up,
with its throw weighed over what the seat can know.

Most of a two-player match is lost by a round ended while still unopened (a flat 100 against a
dozen points once opened: measured over 500 rounds of the good bot against itself). So the
strong bot, while it has not opened, keeps its high cards (they reach the opening's bar,
which rises with every opening in Saudi Hand) and weighs each of its few least useful cards by
how soon its own next draws would open without it: it deals the cards it cannot see (the 106
less its hand, the fire pile and the open melds) several times and counts the draws. Once
opened, a high card left in hand is what it pays, so those go first. Either way it deals the
next opponent's hand several times too, in the count that opponent holds, and counts how often
that opponent could take the card from the fire pile and use it at once: a card that often
helps them is kept, another thrown.

Heads-up, the first opening of a round sets the other player's bar (their opening must beat it),
and a bar of 80 or more stops a normal player opening in half the rounds or more, against one in
ten at 51. So while nobody has opened, the strong bot holds back an opening below HOLD_BELOW and
builds it up; it opens as soon as the opponent opens (its bar is then theirs + 1) or its opening
reaches HOLD_BELOW. Measured over 2,000 games against the normal bot (docs/bots.md): holding
below 70, 78, 85, 95 or 120 points gave 61.2, 61.6, 62.0, 61.6 and 61.4 %, against 59.5 % for
opening at once; refusing the fire pile's card to keep holding cost 2.4 points, so a card taken
from the fire pile is still opened with.

The deals are seeded by the view alone: the same view, the same move.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Mapping
from typing import Any

from fairness.core import HAND_DECK

from . import actions, bot, finder
from .actions import Action
from .cards import hand_value, is_joker

CANDIDATES = 5  # the least useful cards weighed
WORLDS = 8  # deals of the unseen cards per decision
DEPTH = 3  # own draws looked at while unopened
DANGER = 10.0  # what a card the next opponent can surely use is worth keeping, in keep-points
SOON = 12.0  # what opening at the next draw is worth, in keep-points (less for later draws)
# Keep-points per point of a card's value: unopened, a high card is kept (it counts towards the
# opening); opened, it is thrown first, more so when the next opponent is near going out.
VALUE_UNOPENED = -0.6
VALUE_OPENED = 0.15
VALUE_OPPONENT_CLOSE = 0.5
CLOSE = 5  # cards in the next opponent's hand that count as near going out
HOLD_BELOW = 85  # heads-up and nobody opened: an opening below this is held back


def seed_of(v: Mapping[str, Any]) -> int:
    text = f"{v['seat']}|{v['round']}|{v['hand']}|{v['fire']}|{v['stock_count']}"
    return zlib.crc32(text.encode())


def unseen(v: Mapping[str, Any]) -> list[str]:
    """The cards this seat cannot see: all 106 less its hand, the fire pile and the melds."""
    left = Counter(HAND_DECK)
    left.subtract(v["hand"])
    left.subtract(v["fire"])
    for meld in v["melds"]:
        left.subtract(meld["cards"])
    return sorted(c for c, n in left.items() for _ in range(max(n, 0)))


def _next_opponent(v: Mapping[str, Any]) -> int | None:
    seat, n = v["seat"], v["players"]
    for i in range(1, n):
        s = (seat + i) % n
        if not (v["partners"] and s % 2 == seat % 2):
            return s
    return None


def _uses(hand: list[str], card: str, opened: bool, threshold: int, melds: list[Any]) -> bool:
    """Would a player holding ``hand`` take ``card`` from the fire pile and use it at once?"""
    with_card = [*hand, card]
    if opened:
        return finder.can_use(with_card, card, melds)
    return finder.best_opening(with_card, threshold, must=card) is not None


def _value_weight(v: Mapping[str, Any], nxt: int) -> float:
    if not v["opened"][v["seat"]]:
        return VALUE_UNOPENED
    return VALUE_OPPONENT_CLOSE if v["hand_counts"][nxt] <= CLOSE else VALUE_OPENED


def _opens_soon(rest: list[str], draws: list[list[str]], threshold: int) -> float:
    """How soon a hand of ``rest`` opens over the dealt draws: 1 at the next draw, less for
    each later one, 0 not within DEPTH; averaged over the deals. The opponent draws between
    two of ours, so every other card of a deal is theirs."""
    soon = 0.0
    for deal in draws:
        hand = list(rest)
        for k in range(DEPTH):
            hand.append(deal[2 * k + 1])
            if finder.best_opening(hand, threshold) is not None:
                soon += (DEPTH - k) / DEPTH
                break
    return soon / len(draws)


def _holds_back(v: Mapping[str, Any], good: Action) -> bool:
    """Is ``good`` (the good bot's lay) a first opening of the round to hold back? Only heads-up
    (with more players, another seat would soon open first: not measured, so not done), never
    one that goes out at once (a «هاند», or all cards but the one thrown after), never with the
    fire pile's card in hand (it must be used)."""
    if good.kind != "lay" or v["players"] != 2 or v["fire_card"] is not None:
        return False
    if any(v["opened"]) or len(good.physical()) >= len(v["hand"]) - 1:
        return False  # nobody to outbid, or it goes out now (a «هاند», or its throw after)
    plan = finder.best_opening(list(v["hand"]), v["threshold"])
    return plan is not None and plan.value < HOLD_BELOW


def choose(v: Mapping[str, Any]) -> Action:
    """The strong bot's action for the seat whose turn it is."""
    good = bot.choose(v)
    if _holds_back(v, good):
        return _throw(v, actions.throw(bot.least_useful(v)))
    if good.kind != "throw":
        return good
    return _throw(v, good)


def _throw(v: Mapping[str, Any], good: Action) -> Action:
    """The card to throw, weighed as the module says; ``good`` is the good bot's throw."""
    hand = list(v["hand"])
    nxt = _next_opponent(v)
    throwable = [c for c in hand if not is_joker(c)]
    threshold = v["threshold"]
    if nxt is None or len(set(throwable)) < 2 or threshold is None:
        return good
    melds = bot.melds_of(v)
    left, _ = finder.analyse(hand)
    melded = Counter(left.cards()) if left is not None else Counter()
    next_can_lay = v["opened"][nxt]
    weight = _value_weight(v, nxt)
    keep = {}
    plain = bot.plain_cards(hand)
    for c in dict.fromkeys(throwable):
        # The good bot's keep-points, with the card's value weighed as above instead.
        keep[c] = bot._keep_score(c, plain, melded, next_can_lay, melds, value_weight=weight)
    ranked = sorted(keep, key=lambda c: (keep[c], -hand_value(c), c))[:CANDIDATES]
    rnd = random.Random(seed_of(v))
    cards = unseen(v)
    count = v["hand_counts"][nxt]
    theirs = [rnd.sample(cards, min(count, len(cards))) for _ in range(WORLDS)]
    draws = [rnd.sample(cards, min(2 * DEPTH, len(cards))) for _ in range(WORLDS)]
    opened = v["opened"][nxt]
    unopened = not v["opened"][v["seat"]]
    best, best_value = ranked[0], float("inf")
    for card in ranked:
        danger = sum(_uses(w, card, opened, threshold, melds) for w in theirs) / WORLDS
        value = keep[card] + DANGER * danger
        if unopened and len(cards) >= 2 * DEPTH:
            rest = list(hand)
            rest.remove(card)
            value -= SOON * _opens_soon(rest, draws, threshold)
        if value < best_value:
            best, best_value = card, value
    return actions.throw(best)
