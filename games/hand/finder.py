"""The meld finder: what a hand can lay down (hints for the easy table, the bots, fire-pile checks).

Search design (p99 must stay within a few ms): a hand is a multiset of card ids packed into one
integer, three bits per id (id 52 = any joker). All candidate melds of the hand are listed once
(runs by suit window, sets by rank), each as a packed integer, so "does the hand still hold this
meld" is one subtraction and a mask. A memoised depth-first search then decides the fate of the
lowest card still in hand: kept, or laid in a candidate meld that contains it. Only cards that
appear in some candidate take part; the others are kept from the start.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from . import actions
from .actions import Action
from .cards import ID_TO_CARD, JOKER_ID, SUITS, card_id, is_joker, make, rank_of, rank_points
from .melds import Meld, MeldError, Token, extend, swap, swap_needs

_GUARD = sum(4 << (3 * i) for i in range(53))


@dataclass(frozen=True)
class Plan:
    """A lay-down: its melds (tokens, jokers named) and the points they total."""

    value: int
    melds: tuple[tuple[Token, ...], ...]

    def action(self) -> Action:
        """The ``lay`` action of this plan."""
        return actions.lay(self.melds)

    def cards(self) -> list[str]:
        """Every physical card the plan lays down."""
        return [c for m in self.melds for c, _ in m]


# A candidate: (packed mask, points, lowest non-joker id, tuple of (id, stands-card or None))
_Cand = tuple[int, int, int, tuple[tuple[int, str | None], ...]]


def _pack(ids: list[int]) -> int:
    m = 0
    for i in ids:
        m += 1 << (3 * i)
    return m


def _candidates(cnt: list[int]) -> list[_Cand]:
    """Every meld this hand could form (at most one joker each), best points per card multiset."""
    jokers = cnt[JOKER_ID]
    best: dict[int, _Cand] = {}

    def add(ids: list[int], pts: int, parts: tuple[tuple[int, str | None], ...]) -> None:
        mask = _pack(ids)
        old = best.get(mask)
        if old is None or old[1] < pts:
            best[mask] = (mask, pts, min(i for i in ids if i != JOKER_ID), parts)

    for si, suit in enumerate(SUITS):
        base = si * 13
        has = [False] * 15
        for v in range(1, 15):
            has[v] = cnt[base + (v - 1) % 13] > 0
        for a in range(1, 13):
            missing: list[int] = []
            for b in range(a, 15):
                if b == 14 and a <= 2:
                    # A..K..A cannot be, and 2..A holds the same cards as A..K, which the
                    # engine reads with the Ace low: leave that reading to the [1, 13] window.
                    break
                if not has[b]:
                    missing.append(b)
                    if len(missing) > (1 if jokers else 0):
                        break
                if b - a < 2:
                    continue
                window = range(a, b + 1)
                pts = sum(rank_points(v) for v in window)
                if not missing:
                    ids = [base + (v - 1) % 13 for v in window]
                    add(ids, pts, tuple((i, None) for i in ids))
                    if jokers:
                        for p in window:
                            jids = [base + (v - 1) % 13 if v != p else JOKER_ID for v in window]
                            parts = tuple(
                                (i, None) if i != JOKER_ID else (i, make(p, suit)) for i in jids
                            )
                            add(jids, pts, parts)
                else:
                    p = missing[0]
                    jids = [base + (v - 1) % 13 if v != p else JOKER_ID for v in window]
                    parts = tuple((i, None) if i != JOKER_ID else (i, make(p, suit)) for i in jids)
                    add(jids, pts, parts)
    for r in range(13):
        present = [si for si in range(4) if cnt[si * 13 + r] > 0]
        pts1 = rank_points(14 if r == 0 else r + 1)
        k = len(present)
        subsets: list[list[int]] = []
        for bits in range(1, 1 << k):
            sub = [present[i] for i in range(k) if bits >> i & 1]
            if len(sub) >= 2:
                subsets.append(sub)
        for sub in subsets:
            ids = [si * 13 + r for si in sub]
            if len(sub) >= 3:
                add(ids, pts1 * len(sub), tuple((i, None) for i in ids))
            if jokers and len(sub) <= 3:
                miss = next(s for s in range(4) if s not in sub)
                parts = (*((i, None) for i in ids), (JOKER_ID, make(r + 1, SUITS[miss])))
                add([*ids, JOKER_ID], pts1 * (len(sub) + 1), parts)
    return list(best.values())


class _Search:
    """Best packings of a hand: keeping a throwable card (L), laying everything (F) or keeping only
    jokers (J). ``must`` is a card id that must be laid (the card taken from the fire pile)."""

    def __init__(self, hand: list[str], must: str | None = None) -> None:
        ids = [card_id(c) for c in hand]
        cnt = [0] * 53
        for i in ids:
            cnt[i] += 1
        self.cands = _candidates(cnt)
        live = sorted({c[2] for c in self.cands} | {i for c in self.cands for i, _ in c[3]})
        live = [i for i in live if i != JOKER_ID]
        self.live = live
        self.by_low: dict[int, list[_Cand]] = {}
        for c in self.cands:
            self.by_low.setdefault(c[2], []).append(c)
        self.dead = sum(cnt[i] for i in range(52) if i not in set(live))
        self.must = card_id(must) if must is not None else -1
        rem = 0
        for i in live:
            rem += cnt[i] << (3 * i)
        rem += cnt[JOKER_ID] << (3 * JOKER_ID)
        self.start = rem
        self.memo: dict[int, tuple] = {}
        self.jokers = [c for c in hand if is_joker(c)]
        self.hand = hand

    def run(self, rem: int) -> tuple:
        got = self.memo.get(rem)
        if got is not None:
            return got
        first = -1
        for i in self.live:
            if (rem >> (3 * i)) & 7:
                first = i
                break
        if first < 0:
            k = (rem >> (3 * JOKER_ID)) & 7
            out = (None, (0, ()) if k == 0 else None, (0, ()) if k else None)
            self.memo[rem] = out
            return out
        best_l = best_f = best_j = None
        # keep the card (a kept card is throwable, so the rest may be laid in any way)
        if first != self.must or ((rem >> (3 * first)) & 7) > 1:
            sub = self.run(rem - (1 << (3 * first)))
            for x in sub:
                if x is not None and (best_l is None or x[0] > best_l[0]):
                    best_l = x
        for cand in self.by_low.get(first, ()):
            mask = cand[0]
            if ((rem | _GUARD) - mask) & _GUARD != _GUARD:
                continue
            sl, sf, sj = self.run(rem - mask)
            v = cand[1]
            if sl is not None and (best_l is None or sl[0] + v > best_l[0]):
                best_l = (sl[0] + v, (cand, sl[1]))
            if sf is not None and (best_f is None or sf[0] + v > best_f[0]):
                best_f = (sf[0] + v, (cand, sf[1]))
            if sj is not None and (best_j is None or sj[0] + v > best_j[0]):
                best_j = (sj[0] + v, (cand, sj[1]))
        out = (best_l, best_f, best_j)
        self.memo[rem] = out
        return out

    def plan(self, found: tuple | None) -> Plan | None:
        if found is None:
            return None
        value, chain = found
        melds: list[tuple[Token, ...]] = []
        jokers = list(self.jokers)
        while chain:
            cand, chain = chain
            toks: list[Token] = []
            for i, stands in cand[3]:
                if i == JOKER_ID:
                    toks.append((jokers.pop(0), stands))
                else:
                    toks.append((ID_TO_CARD[i], None))
            melds.append(tuple(toks))
        return Plan(value, tuple(melds)) if melds else None


def analyse(
    hand: list[str] | tuple[str, ...], must: str | None = None
) -> tuple[Plan | None, Plan | None]:
    """(best lay-down keeping a throwable card, complete lay-down of every card or None).

    With ``must`` (a card taken from the fire pile) every plan lays at least one copy of it.
    """
    if must is not None and is_joker(must):
        return _analyse_joker(list(hand))
    s = _Search(list(hand), must)
    if must is not None and card_id(must) not in s.live:
        return None, None
    left, full, only_jokers = s.run(s.start)
    if s.dead:
        # Dead cards are kept: any packing of the live cards keeps a throwable card.
        cands = [x for x in (left, full, only_jokers) if x is not None]
        left = max(cands, key=lambda x: x[0]) if cands else None
        full = None
    return s.plan(left), s.plan(full)


def _analyse_joker(hand: list[str]) -> tuple[Plan | None, Plan | None]:
    """``analyse`` when a joker must be laid: try each meld holding a joker, then the rest."""
    cnt = [0] * 53
    for c in hand:
        cnt[card_id(c)] += 1
    jokers = [c for c in hand if is_joker(c)]
    best_left: Plan | None = None
    best_full: Plan | None = None
    for cand in _candidates(cnt):
        if all(i != JOKER_ID for i, _ in cand[3]):
            continue
        toks: list[Token] = []
        rest = Counter(hand)
        for i, stands in cand[3]:
            card = jokers[0] if i == JOKER_ID else ID_TO_CARD[i]
            toks.append((card, stands if i == JOKER_ID else None))
            rest[card] -= 1
        rem = list(rest.elements())
        left, full = analyse(rem)
        first = (tuple(toks),)
        if left is not None:
            plan = Plan(cand[1] + left.value, first + left.melds)
        elif any(not is_joker(c) for c in rem):
            plan = Plan(cand[1], first)
        else:
            plan = None
        if plan is not None and (best_left is None or plan.value > best_left.value):
            best_left = plan
        if not rem:
            full = Plan(0, ())
        if full is not None and (best_full is None or cand[1] + full.value > best_full.value):
            best_full = Plan(cand[1] + full.value, first + full.melds)
    return best_left, best_full


def best_opening(
    hand: list[str] | tuple[str, ...], threshold: int, must: str | None = None
) -> Plan | None:
    """The highest-scoring opening that reaches ``threshold`` and keeps a card to throw."""
    left, _ = analyse(hand, must)
    return left if left is not None and left.value >= threshold else None


def complete_hand(hand: list[str] | tuple[str, ...]) -> Plan | None:
    """A «هاند»: every card of the hand laid down at once, if that is possible."""
    return analyse(hand)[1]


def lay_offs(
    hand: list[str] | tuple[str, ...], melds: tuple[Meld, ...] | list[Meld]
) -> list[Action]:
    """Every single-card lay-off (``off 2 8H``; jokers named at each free place)."""
    out: list[Action] = []
    for n, meld in enumerate(melds, start=1):
        for card in dict.fromkeys(hand):
            for tok in _lay_tokens(card, meld):
                try:
                    extend(meld, [tok])
                except MeldError:
                    continue
                action = actions.off(n, (tok,))
                if action not in out:
                    out.append(action)
    return out


def _lay_tokens(card: str, meld: Meld) -> list[Token]:
    if not is_joker(card):
        return [(card, None)]
    if meld.joker is not None:
        return []
    if meld.kind == "set":
        used = {c[-1] for c in meld.stands}
        r = rank_of(meld.stands[0])
        return [(card, make(r, s)) for s in SUITS if s not in used][:1]
    suit = meld.stands[0][-1]
    high = meld.low + len(meld.cards)
    return [(card, make(v, suit)) for v in (meld.low - 1, high) if 1 <= v <= 14]


def joker_swaps(
    hand: list[str] | tuple[str, ...], melds: tuple[Meld, ...] | list[Meld]
) -> list[Action]:
    """Every joker swap the hand allows (``swap 2 7D``)."""
    have = Counter(hand)
    out = []
    for n, meld in enumerate(melds, start=1):
        need = swap_needs(meld)
        if need and not Counter(need) - have:
            out.append(actions.swap(n, need))
    return out


def joker_usable(hand: list[str], joker: str, melds: tuple[Meld, ...] | list[Meld]) -> bool:
    """Can a joker just taken by a swap be laid down this turn, keeping a card to throw?"""
    if not any(not is_joker(c) for c in hand if c != joker):
        return False
    if analyse(hand, must=joker)[0] is not None:
        return True
    if sum(1 for c in hand if not is_joker(c)) < 1:
        return False
    return any(_fits_token(m, tok) for m in melds for tok in _lay_tokens(joker, m))


def _fits_token(meld: Meld, tok: Token) -> bool:
    try:
        extend(meld, [tok])
    except MeldError:
        return False
    return True


def can_use(hand: list[str], card: str, melds: tuple[Meld, ...] | list[Meld]) -> bool:
    """Can an opened player who took ``card`` (now in ``hand``) lay it down this turn?

    In a new meld from the hand, or laid off on an open meld, possibly after the hand's cards that
    fill the gap to it (off 8H, then off 9H), always keeping a card to throw.
    """
    if is_joker(card):
        # A joker on the fire pile (thrown by a seat that held only jokers): it is used exactly
        # as a joker freed by a swap is, in a new meld or a lay-off.
        return joker_usable(hand, card, melds)
    throwable = sum(1 for c in hand if not is_joker(c))
    cid = card_id(card)
    cnt = [0] * 53
    for c in hand:
        cnt[card_id(c)] += 1
    for cand in _candidates(cnt):
        ids = [i for i, _ in cand[3]]
        if cid in ids and throwable - sum(1 for i in ids if i != JOKER_ID) >= 1:
            return True
    have = Counter(hand)
    jokers = sum(1 for c in hand if is_joker(c))
    for i, meld in enumerate(melds):
        need = swap_needs(meld)
        if card in need and not Counter(need) - have:
            after = list((have - Counter(need)).elements())
            new, joker = swap(meld, list(need))
            table = [*melds[:i], new, *melds[i + 1 :]]
            if joker_usable([*after, joker], joker, table):
                return True
    for meld in melds:
        if meld.kind == "set":
            try:
                extend(meld, [(card, None)])
            except MeldError:
                continue
            if throwable >= 2:
                return True
            continue
        if _gap_fit(card, meld, have, throwable, jokers > 0):
            return True
    # A joker freed by a swap that gives other cards, then laid with the card: in one new meld
    # (7C 7D JK=7H) or filling the gap of a run the card then extends.
    for i, meld in enumerate(melds):
        need = swap_needs(meld)
        if not need or card in need or Counter(need) - have:
            continue
        after = have - Counter(need)
        new, joker = swap(meld, list(need))
        table = [*melds[:i], new, *melds[i + 1 :]]
        left = throwable - len(need)
        cnt2 = [0] * 53
        for c in [*after.elements(), joker]:
            cnt2[card_id(c)] += 1
        for cand in _candidates(cnt2):
            ids = [i for i, _ in cand[3]]
            if cid in ids and JOKER_ID in ids and left - (len(ids) - 1) >= 1:
                return True
        if any(
            m.kind == "run" and _gap_fit(card, m, after, left, True, only_joker=True) for m in table
        ):
            return True
    return False


def _gap_fit(
    card: str, meld: Meld, have: Counter, throwable: int, joker: bool, only_joker: bool = False
) -> bool:
    """Can ``card`` extend this run once the cards between them are laid off from ``have``
    (at most one of them replaced by a joker), keeping a card to throw? With ``only_joker``,
    the joker must be one of the cards laid (it was just taken by a swap)."""
    if meld.kind != "run" or card[-1] != meld.stands[0][-1]:
        return False
    hi = meld.low + len(meld.cards) - 1
    for v in {rank_of(card), 14 if rank_of(card) == 1 else rank_of(card)}:
        if v < meld.low:
            gap = range(v + 1, meld.low)
        elif v > hi:
            gap = range(hi + 1, v)
        else:
            continue
        need = [make(g, card[-1]) for g in gap]
        missing = len(Counter(need) - have)
        use_joker = missing == 1 and joker and meld.joker is None
        if only_joker and not use_joker:
            continue
        if (missing == 0 or use_joker) and throwable - 1 - (len(need) - missing) >= 1:
            return True
    return False


def hints(
    hand: tuple[str, ...] | list[str],
    opened: bool,
    threshold: int,
    melds: tuple[Meld, ...] | list[Meld],
    fire_card: str | None = None,
) -> dict:
    """What the easy table may suggest to the seat to play, as actions: ``opening`` (with
    ``opening_points``), ``hand``, ``lay`` (each an Action or None), ``off`` and ``swap`` (lists).
    The engine keeps those it accepts and writes them as text for the view."""
    left, full = analyse(hand, fire_card)
    out: dict = {"opening": None, "hand": None, "lay": None, "off": [], "swap": []}
    if full is not None and not opened:
        out["hand"] = full.action()
    if opened and left is None and fire_card is not None:
        left = analyse(hand)[0]  # the fire card goes in a lay-off: still show the melds
    if left is not None:
        if opened:
            out["lay"] = left.action()
        elif left.value >= threshold:
            out["opening"] = left.action()
            out["opening_points"] = left.value
    if opened:
        out["off"] = lay_offs(hand, melds)
        out["swap"] = joker_swaps(hand, melds)
    return out
