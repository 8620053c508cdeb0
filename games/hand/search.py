"""The strong Hand bot: the good bot (bot.choose), with its throw looked at from the next
opponent's side over what the seat can know.

The card the good bot would throw is the one that builds least for us; but the next opponent
may take it from the fire pile, to open with it or to lay it on a meld. The strong bot deals the
cards it cannot see (the 106 less its hand, the fire pile and the open melds) to the next
opponent several times, in the count that opponent holds, and for its few least useful cards
counts how often that opponent could take the card and use it at once. A card that often helps
them is kept, another thrown, unless keeping it costs us more than the danger is worth.

The draws are seeded by the view alone: the same view, the same move.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Mapping
from typing import Any

from verify.fairness import HAND_DECK

from . import actions, bot, finder
from .actions import Action
from .cards import hand_value, is_joker

CANDIDATES = 4  # the least useful cards weighed
WORLDS = 8  # deals of the next opponent's hand per decision
DANGER = 25.0  # what a card the next opponent can surely use is worth keeping, in keep-points


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


def choose(v: Mapping[str, Any]) -> Action:
    """The strong bot's action for the seat whose turn it is."""
    good = bot.choose(v)
    if good.kind != "throw":
        return good
    hand = list(v["hand"])
    nxt = _next_opponent(v)
    throwable = [c for c in hand if not is_joker(c)]
    if nxt is None or len(set(throwable)) < 2 or v["threshold"] is None:
        return good
    melds = bot.melds_of(v)
    left, _ = finder.analyse(hand)
    melded = Counter(left.cards()) if left is not None else Counter()
    next_can_lay = v["opened"][nxt]
    keep = {
        c: bot._keep_score(c, hand, melded, next_can_lay, melds) for c in dict.fromkeys(throwable)
    }
    ranked = sorted(keep, key=lambda c: (keep[c], -hand_value(c), c))[:CANDIDATES]
    rnd = random.Random(seed_of(v))
    cards = unseen(v)
    count = v["hand_counts"][nxt]
    worlds = [rnd.sample(cards, min(count, len(cards))) for _ in range(WORLDS)]
    opened = v["opened"][nxt]
    best, best_value = ranked[0], float("inf")
    for card in ranked:
        danger = sum(_uses(w, card, opened, v["threshold"], melds) for w in worlds) / WORLDS
        value = keep[card] + DANGER * danger
        if value < best_value:
            best, best_value = card, value
    return actions.throw(best)
