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
from functools import cache

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


# A candidate: (packed mask, points, lowest non-joker id, kind, x, a, b, p). The last five say how
# to write the meld's cards (``parts`` below); most candidates are never laid, so their cards are
# only written for the few a plan uses (building them for all was half the finder's time).
#   run: ("r", suit index, first value, last value, value the joker takes or 0)
#   set: ("s", rank index, suits held as bits (1 << suit index), 0, suit the joker takes or -1)
# Flat on purpose: a tuple of plain values is soon untracked by the garbage collector, so the
# cached ones never reach its oldest generation, whose full passes take several ms.
_Cand = tuple[int, int, int, str, int, int, int, int]
_JOKER_BIT = 1 << (3 * JOKER_ID)
# The packed fields of the 52 normal ids: what is left of ``rem`` once the jokers are masked out.
_NORMAL_FIELDS = _JOKER_BIT - 1
_BIT = tuple(1 << (3 * i) for i in range(53))
_POINTS = tuple(rank_points(v) if v else 0 for v in range(15))


@cache
def _parts(kind: str, x: int, a: int, b: int, p: int) -> tuple[tuple[int, str | None], ...]:
    """The candidate's cards in meld order: (id, None) for a card, (JOKER_ID, card) for a joker
    standing for that card."""
    if kind == "r":
        base = x * 13
        return tuple(
            (JOKER_ID, make(v, SUITS[x])) if v == p else (base + (v - 1) % 13, None)
            for v in range(a, b + 1)
        )
    out = tuple((si * 13 + x, None) for si in range(4) if a >> si & 1)
    if p >= 0:
        out += ((JOKER_ID, make(x + 1, SUITS[p])),)
    return out


def parts(cand: _Cand) -> tuple[tuple[int, str | None], ...]:
    """The (id, stands-for) pairs of a candidate, in meld order."""
    return _parts(*cand[3:])


def _candidates(cnt: list[int]) -> list[_Cand]:
    """Every meld this hand could form (at most one joker each), best points per card multiset.

    Candidates come in a fixed order (runs by suit and window, then sets by rank), and a card
    multiset met twice keeps its first place with the higher points: the search's tie-breaks,
    and so its plans, depend on that order. Two candidates of different suits (or a run and a
    set) never hold the same cards, so each suit's runs and each rank's sets are found alone,
    and remembered: the same suit pattern comes back in hand after hand.
    """
    jokers = cnt[JOKER_ID] > 0
    out: list[_Cand] = []
    for si in range(4):
        base = si * 13
        pattern = 0
        for r in range(13):
            if cnt[base + r]:
                pattern |= 2 << r  # bit v for value v = r + 1
        if pattern & 2:
            pattern |= 1 << 14  # the Ace is also value 14
        key = (si, pattern, jokers)
        runs = _RUNS.get(key)
        if runs is None:
            if len(_RUNS) >= _CACHE_LIMIT:
                _RUNS.clear()
            runs = _RUNS[key] = _suit_runs(si, pattern, jokers)
        out += runs
    for r in range(13):
        held = 0  # the suits held of this rank, as bits
        for si in range(4):
            if cnt[si * 13 + r]:
                held |= 1 << si
        if _SET_SIZE[held] >= (2 if jokers else 3):
            key = (r, held, jokers)
            sets = _SETS.get(key)
            if sets is None:
                sets = _SETS[key] = _rank_sets(r, held, jokers)
            out += sets
    return out


# Each suit's runs by (suit, pattern, jokers?) and each rank's sets by (rank, suits, jokers?).
# Plain dicts, not functools.lru_cache: the cached values are tuples of plain values, which the
# garbage collector stops tracking, while lru_cache's linked nodes would stay tracked and make
# its full passes (several ms) come round during play. Bounded: cleared when full.
_CACHE_LIMIT = 1 << 14
_RUNS: dict[tuple[int, int, bool], tuple[_Cand, ...]] = {}
_SETS: dict[tuple[int, int, bool], tuple[_Cand, ...]] = {}
_SET_SIZE = tuple(bin(h).count("1") for h in range(16))


def _suit_runs(si: int, pattern: int, jokers: bool) -> tuple[_Cand, ...]:
    """The runs of one suit, given which values (bit v, 1..14) the hand holds."""
    best: dict[int, _Cand] = {}
    get = best.get
    base = si * 13
    for a in range(1, 13):
        missing = 0  # the value of the one missing card (the joker's place), 0 if none
        mask = 0  # the window's cards that the hand holds
        pts = 0
        for b in range(a, 15):
            if b == 14 and a <= 2:
                # A..K..A cannot be, and 2..A holds the same cards as A..K, which the
                # engine reads with the Ace low: leave that reading to the [1, 13] window.
                break
            pts += _POINTS[b]
            if pattern >> b & 1:
                mask += _BIT[base + (b - 1) % 13]
            elif missing or not jokers:
                break
            else:
                missing = b
            if b - a < 2:
                continue
            # The lowest id is the Ace's when the window ends on the high Ace (id base).
            if not missing:
                low = base if b == 14 else base + a - 1
                old = get(mask)
                if old is None or old[1] < pts:
                    best[mask] = (mask, pts, low, "r", si, a, b, 0)
                if jokers:
                    second = base + a - 1 if b == 14 else base + a
                    for p in range(a, b + 1):
                        pid = base + (p - 1) % 13
                        m = mask - _BIT[pid] + _JOKER_BIT
                        old = get(m)
                        if old is None or old[1] < pts:
                            jlow = second if pid == low else low
                            best[m] = (m, pts, jlow, "r", si, a, b, p)
            else:
                if b == 14 and missing != 14:
                    low = base
                else:
                    low = base + (a if missing == a else a - 1)
                m = mask + _JOKER_BIT
                old = get(m)
                if old is None or old[1] < pts:
                    best[m] = (m, pts, low, "r", si, a, b, missing)
    return tuple(best.values())


def _rank_sets(r: int, held: int, jokers: bool) -> tuple[_Cand, ...]:
    """The sets of one rank index, given the suits the hand holds of it (bits)."""
    best: dict[int, _Cand] = {}
    pts1 = rank_points(14 if r == 0 else r + 1)
    present = [si for si in range(4) if held >> si & 1]
    k = len(present)
    for choice in range(1, 1 << k):
        sub = [present[i] for i in range(k) if choice >> i & 1]
        bits = sum(1 << si for si in sub)
        n = len(sub)
        if n < 2:
            continue
        mask = 0
        for si in sub:
            mask += _BIT[si * 13 + r]
        low = sub[0] * 13 + r
        if n >= 3:
            pts = pts1 * n
            old = best.get(mask)
            if old is None or old[1] < pts:
                best[mask] = (mask, pts, low, "s", r, bits, 0, -1)
        if jokers and n <= 3:
            miss = next(x for x in range(4) if x not in sub)
            m = mask + _JOKER_BIT
            pts = pts1 * (n + 1)
            old = best.get(m)
            if old is None or old[1] < pts:
                best[m] = (m, pts, low, "s", r, bits, 0, miss)
    return tuple(best.values())


def _solve(by_low: dict[int, list[tuple[int, int, _Cand]]], must: int, start: int) -> tuple:
    """The memoised search over what is left in hand (``rem``, packed): for each of L, F and J
    the best (points, chain of candidates) or None. A closure, not a method: attribute look-ups
    were a good part of its time."""
    memo: dict[int, tuple] = {}
    memo_get = memo.get
    cands_of = by_low.get
    guard = _GUARD
    normal_fields = _NORMAL_FIELDS
    bit = _BIT
    joker_shift = 3 * JOKER_ID

    def run(rem: int) -> tuple:
        got = memo_get(rem)
        if got is not None:
            return got
        # The lowest card still in hand: ``rem`` holds only live cards and jokers, and the lowest
        # set bit below the jokers' field is in the lowest id's field.
        normal = rem & normal_fields
        if not normal:
            k = (rem >> joker_shift) & 7
            out = (None, (0, ()) if k == 0 else None, (0, ()) if k else None)
            memo[rem] = out
            return out
        first = ((normal & -normal).bit_length() - 1) // 3
        best_l = best_f = best_j = None
        # keep the card (a kept card is throwable, so the rest may be laid in any way)
        if first != must or ((rem >> (3 * first)) & 7) > 1:
            # The best of the three, the first one on a tie.
            kl, kf, kj = run(rem - bit[first])
            best_l = kl
            if kf is not None and (best_l is None or kf[0] > best_l[0]):
                best_l = kf
            if kj is not None and (best_l is None or kj[0] > best_l[0]):
                best_l = kj
        with_guard = rem | guard
        for mask, v, cand in cands_of(first, ()):
            if (with_guard - mask) & guard != guard:
                continue
            sl, sf, sj = run(rem - mask)
            if sl is not None and (best_l is None or sl[0] + v > best_l[0]):
                best_l = (sl[0] + v, (cand, sl[1]))
            if sf is not None and (best_f is None or sf[0] + v > best_f[0]):
                best_f = (sf[0] + v, (cand, sf[1]))
            if sj is not None and (best_j is None or sj[0] + v > best_j[0]):
                best_j = (sj[0] + v, (cand, sj[1]))
        out = (best_l, best_f, best_j)
        memo[rem] = out
        return out

    try:
        return run(start)
    finally:
        # ``run`` refers to itself through its closure cell: unbind it, so the function, its
        # cells and the memo are freed now by reference counting. Left as a cycle, they piled up
        # for the garbage collector, whose passes were the finder's slowest calls.
        run = None


class _Search:
    """Best packings of a hand: keeping a throwable card (L), laying everything (F) or keeping only
    jokers (J). ``must`` is a card id that must be laid (the card taken from the fire pile)."""

    def __init__(self, hand: list[str], must: str | None = None) -> None:
        cnt = [0] * 53
        full = 0
        for c in hand:
            i = card_id(c)
            cnt[i] += 1
            full += _BIT[i]
        self.cands = _candidates(cnt)
        # A candidate holds each id at most once, so OR-ing the masks marks every id that some
        # candidate uses (a 1 in its field): the live cards. Times 7 fills those fields.
        union = 0
        by_low: dict[int, list[tuple[int, int, _Cand]]] = {}
        for c in self.cands:
            union |= c[0]
            by_low.setdefault(c[2], []).append((c[0], c[1], c))
        self.union = union
        live_fields = union * 7 & _NORMAL_FIELDS
        rem = full & live_fields
        # Some card fits no candidate: it is kept whatever the plan, so a card is left to throw.
        self.dead = rem != full & _NORMAL_FIELDS
        self.start = rem + (full - (full & _NORMAL_FIELDS))
        self.by_low = by_low
        self.must = card_id(must) if must is not None else -1
        self.jokers = [c for c in hand if is_joker(c)]
        self.hand = hand

    def search(self) -> tuple:
        """The best (points, chain) keeping a throwable card, laying all, keeping only jokers."""
        return _solve(self.by_low, self.must, self.start)

    def live(self, cid: int) -> bool:
        """Does some candidate meld hold this card id?"""
        return bool(self.union >> (3 * cid) & 1)

    def plan(self, found: tuple | None) -> Plan | None:
        if found is None:
            return None
        value, chain = found
        melds: list[tuple[Token, ...]] = []
        jokers = list(self.jokers)
        while chain:
            cand, chain = chain
            toks: list[Token] = []
            for i, stands in parts(cand):
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
    if must is not None and not s.live(card_id(must)):
        return None, None
    left, full, only_jokers = s.search()
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
        if not cand[0] & _JOKER_BIT * 7:
            continue
        toks: list[Token] = []
        rest = Counter(hand)
        for i, stands in parts(cand):
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
                if not fits(meld, tok):
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
    return any(fits(m, tok) for m in melds for tok in _lay_tokens(joker, m))


# Whether a card lays off on a meld, by (meld, token): the bots and the easy table's hints ask it
# for every card held against every open meld at each turn, and the melds stay on the table for
# the round. A plain dict as above, cleared when full.
_FITS: dict[tuple[Meld, Token], bool] = {}


def fits(meld: Meld, tok: Token) -> bool:
    """Can ``tok`` be laid off on ``meld`` (rules §6)?"""
    key = (meld, tok)
    known = _FITS.get(key)
    if known is None:
        try:
            extend(meld, [tok])
            known = True
        except MeldError:
            known = False
        if len(_FITS) >= _CACHE_LIMIT:
            _FITS.clear()
        _FITS[key] = known
    return known


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
        ids = [i for i, _ in parts(cand)]
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
            ids = [i for i, _ in parts(cand)]
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
