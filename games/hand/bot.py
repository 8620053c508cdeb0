"""Bots for Hand: a good bot, the naive bot of the benchmark, a random bot for tests, and the
card a timed-out turn throws. Each chooses from ``view(state, seat)`` alone: a bot never sees
another seat's cards or the stock. Bots build and return ``Action`` values; the engine's
``bot_action`` writes the text at the edge.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from . import actions, finder
from .actions import DRAW_FIRE, DRAW_STOCK, TIMEOUT, Action
from .cards import hand_value, is_joker, make, rank_of, suit_of
from .melds import Meld, MeldError, swap

View = Mapping[str, Any]
VALUE_WEIGHT = 0.15  # keep-points a point of a card's value costs (high cards go first)


def melds_of(v: View) -> list[Meld]:
    """The open melds of a view, as Meld values."""
    return [
        Meld(m["owner"], m["kind"], tuple(m["cards"]), tuple(m["stands"]), m["low"])
        for m in v["melds"]
    ]


def _fits(card: str, melds: list[Meld]) -> bool:
    return any(finder.fits(m, (card, None)) for m in melds)


def plain_cards(hand: list[str]) -> list[tuple[str, int, int, int]]:
    """The hand's cards other than jokers, each with its rank, suit and rank with the Ace high:
    what ``_keep_score`` weighs a card against, made once for all the cards of a hand."""
    rows = [(o, rank_of(o), suit_of(o)) for o in hand if not is_joker(o)]
    return [(o, r, s, 14 if r == 1 else r) for o, r, s in rows]


def _keep_score(
    card: str,
    plain: list[tuple[str, int, int, int]],
    melded: Counter,
    next_can_lay: bool,
    melds: list[Meld],
    value_weight: float = VALUE_WEIGHT,
) -> float:
    """How much a card is worth keeping: meld membership, partial melds with the other cards of
    the hand (``plain``: its ``plain_cards``, ``card`` among them), danger of feeding, less
    ``value_weight`` a point of the card's value (the strong bot weighs value by the moment)."""
    score = 0.0
    if melded[card] > 0:
        score += 100
    r, s = rank_of(card), suit_of(card)
    high = 14 if r == 1 else r
    for o, ro, so, ho in plain:
        if o is card:
            continue
        if ro == r and so != s:
            score += 3
        elif so == s:
            d = min(abs(ro - r), abs(ho - high))
            if d == 1:
                score += 3
            elif d == 2:
                score += 1.5
    if next_can_lay and _fits(card, melds):
        score += 6  # the next player could take it from the fire pile and lay it off
    score -= hand_value(card) * value_weight  # throw high cards first: they cost most if caught
    return score


def least_useful(v: View) -> str:
    """The card to throw from a view: never a joker; the one least likely to build a meld."""
    return least_useful_card(
        list(v["hand"]), v["seat"], v["players"], v["partners"], v["opened"], melds_of(v)
    )


def least_useful_card(
    hand: list[str],
    seat: int,
    players: int,
    partners: bool,
    opened: Sequence[bool],
    melds: list[Meld],
) -> str:
    """The card to throw (the time-out rule and the bots): never a joker while another card is
    held; the one least likely to build a meld. Reads only what the seat's view shows."""
    throwable = [c for c in hand if not is_joker(c)]
    if not throwable:
        return hand[0]  # only jokers: the one case where a joker is thrown
    left, _ = finder.analyse(hand)
    melded = Counter(left.cards()) if left is not None else Counter()
    nxt = (seat + 1) % players
    next_can_lay = opened[nxt] and not (partners and nxt % 2 == seat % 2)
    # Never leave only jokers in hand (they cannot be thrown): the caller keeps that invariant.
    plain = plain_cards(hand)
    return min(
        throwable,
        key=lambda c: (_keep_score(c, plain, melded, next_can_lay, melds), -hand_value(c), c),
    )


def _usable_lay_offs(hand: list[str], melds: list[Meld], allow_joker: bool) -> list[Action]:
    out = []
    throwable = sum(1 for c in hand if not is_joker(c))
    for action in finder.lay_offs(hand, melds):
        card = action.card
        if is_joker(card) and not (allow_joker or throwable == 1):
            continue
        if not is_joker(card) and throwable <= 1:
            continue
        out.append(action)
    return out


def _opponents_close(v: View) -> bool:
    me = v["seat"]
    for s, n in enumerate(v["hand_counts"]):
        if s == me or (v["partners"] and s % 2 == me % 2):
            continue
        if n <= 5 or (v["opened"][s] and n <= 7):
            return True
    return False


def choose(v: View) -> Action:
    """The good bot's next action for the seat whose turn it is."""
    hand = list(v["hand"])
    seat = v["seat"]
    opened = v["opened"][seat]
    melds = melds_of(v)
    if v["phase"] == "draw":
        top = v["fire_top"]
        if top is not None:
            with_top = [*hand, top]
            if not opened:
                if finder.complete_hand(with_top) is not None:
                    return DRAW_FIRE
                if finder.best_opening(with_top, v["threshold"], must=top) is not None:
                    return DRAW_FIRE
            elif finder.can_use(with_top, top, melds) and _fire_action(with_top, melds, top, None):
                return DRAW_FIRE
        return DRAW_STOCK
    fire = v["fire_card"]
    if not opened:
        full = finder.complete_hand(hand)
        if full is not None:
            return full.action()
        plan = finder.best_opening(hand, v["threshold"], must=fire)
        if plan is not None:
            if fire is None and _hold_for_hand(v, hand, plan):
                return actions.throw(least_useful(v))
            return plan.action()
        return actions.throw(least_useful(v))
    # Opened: first meet the obligations of this turn.
    if fire is not None:
        # Meet the fire-card obligation; if no way is left, give the turn back to the timer rule.
        return _fire_action(hand, melds, fire, v["joker_due"]) or TIMEOUT
    if v["joker_due"] is not None:
        left, _ = finder.analyse(hand, must=v["joker_due"])
        if left is not None:
            return left.action()
        offs = [a for a in finder.lay_offs(hand, melds) if a.card == v["joker_due"]]
        if offs and _keeps_throwable(hand, offs[0]):
            return offs[0]
        return TIMEOUT
    left, _ = finder.analyse(hand)
    if left is not None and left.value > 0:
        return left.action()
    offs = _usable_lay_offs(hand, melds, allow_joker=len(hand) <= 3)
    if offs:
        return offs[0]
    if v["joker_due"] is None:
        for action in finder.joker_swaps(hand, melds):
            if _swap_pays(hand, melds, action):
                return action
    return actions.throw(least_useful(v))


def _keeps_throwable(hand: list[str], action: Action) -> bool:
    """Does this lay-off / swap leave a card that may be thrown?"""
    rest = Counter(hand) - Counter(action.physical())
    return any(not is_joker(c) for c in rest.elements())


def _fire_action(
    hand: list[str], melds: list[Meld], fire: str, joker_due: str | None
) -> Action | None:
    """The next action that uses (or leads to using) the card taken from the fire pile."""
    left, _ = finder.analyse(hand, must=fire)
    if left is not None:
        return left.action()
    for a in finder.lay_offs(hand, melds):
        # The lay-off of exactly this card (a joker lay-off names what it stands for).
        if a.cards[0] == (fire, None) and _keeps_throwable(hand, a):
            return a
    if joker_due is None:
        for a in finder.joker_swaps(hand, melds):
            if fire in a.physical() and _swap_usable(hand, melds, a):
                return a
    gap = _gap_lay_off(hand, melds, fire)
    if gap is not None and _keeps_throwable(hand, gap):
        return gap
    return None


def _gap_lay_off(hand: list[str], melds: list[Meld], card: str) -> Action | None:
    """The next lay-off that fills the gap between a run and ``card`` (off 8H, then 9H)."""
    suit = suit_of(card)
    jokers = [c for c in hand if is_joker(c)]
    for n, m in enumerate(melds, start=1):
        if m.kind != "run" or suit_of(m.stands[0]) != suit:
            continue
        hi = m.low + len(m.cards) - 1
        for v in {rank_of(card), 14 if rank_of(card) == 1 else rank_of(card)}:
            if v > hi + 1:
                step = hi + 1
            elif v < m.low - 1:
                step = m.low - 1
            else:
                continue
            need = make(step, suit)
            if need in hand:
                return actions.off(n, ((need, None),))
            if jokers and m.joker is None:
                return actions.off(n, ((jokers[0], need),))
    return None


def _swap_usable(hand: list[str], melds: list[Meld], action: Action) -> bool:
    idx, given = action.index, action.physical()
    after = Counter(hand) - Counter(given)
    try:
        new, joker = swap(melds[idx - 1], given)
    except MeldError:
        return False
    table = [*melds[: idx - 1], new, *melds[idx:]]
    return finder.joker_usable([*after.elements(), joker], joker, table)


def _swap_pays(hand: list[str], melds: list[Meld], action: Action) -> bool:
    """Swap a joker only if it can be laid down at once and a card is still left to throw."""
    idx, given = action.index, action.physical()
    meld = melds[idx - 1]
    joker = meld.joker
    after = list(hand)
    for c in given:
        after.remove(c)
    if sum(1 for c in after if not is_joker(c)) < 2:
        return False
    after.append(joker)
    left, _ = finder.analyse(after, must=joker)
    return left is not None


def _hold_for_hand(v: View, hand: list[str], plan: finder.Plan) -> bool:
    """Close to a «هاند»: all cards but two are in melds. Throw one of the two and wait for a
    card that fits the other, rather than open — while no opponent is near going out."""
    if _opponents_close(v) or v["stock_count"] < 15:
        return False
    loose = list((Counter(hand) - Counter(plan.cards())).elements())
    return len(loose) == 2 and not any(is_joker(c) for c in loose)


def naive(v: View) -> Action:
    """The naive bot: draws from the stock, opens when it can, throws its highest card."""
    hand = list(v["hand"])
    seat = v["seat"]
    if v["phase"] == "draw":
        return DRAW_STOCK
    if not v["opened"][seat]:
        full = finder.complete_hand(hand)
        if full is not None:
            return full.action()
        plan = finder.best_opening(hand, v["threshold"])
        if plan is not None:
            return plan.action()
    else:
        left, _ = finder.analyse(hand)
        if left is not None and left.value > 0:
            return left.action()
        offs = _usable_lay_offs(hand, melds_of(v), allow_joker=False)
        if offs:
            return offs[0]
    throwable = [c for c in hand if not is_joker(c)] or hand
    return actions.throw(max(throwable, key=lambda c: (hand_value(c), c)))


def random_move(v: View, rnd: random.Random) -> list[Action]:
    """Candidate actions in a random order (for tests): the caller plays the first one accepted.
    The last is ``timeout``, which the server may always play."""
    hand = list(v["hand"])
    if v["phase"] == "draw":
        out = [DRAW_FIRE, DRAW_STOCK] if rnd.random() < 0.3 else [DRAW_STOCK]
        return out
    melds = melds_of(v)
    opened = v["opened"][v["seat"]]
    cands: list[Action] = []
    left, full = finder.analyse(hand, must=v["fire_card"] or v["joker_due"])
    if full is not None and not opened:
        cands.append(full.action())
    if left is not None:
        cands.append(left.action())
        if len(left.melds) > 1:
            cands.append(finder.Plan(0, left.melds[:1]).action())
    if opened:
        cands += finder.lay_offs(hand, melds)
        cands += finder.joker_swaps(hand, melds)
    rnd.shuffle(cands)
    throws = [actions.throw(c) for c in dict.fromkeys(hand) if not is_joker(c)]
    rnd.shuffle(throws)
    if rnd.random() < 0.5:
        return [*cands, *throws, TIMEOUT]
    return [*throws, *cands, TIMEOUT]
