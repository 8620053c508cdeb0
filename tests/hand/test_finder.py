"""The meld finder against a brute force on small hands, and the validity of what it returns."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from fairness.core import HAND_DECK
from games.hand import actions, finder, melds
from games.hand.cards import ID_TO_CARD, JOKER_ID, SUITS, card_id, is_joker, make, rank_points

NORMAL = list(ID_TO_CARD)


def brute_force(hand: list[str]) -> tuple[int | None, int | None]:
    """(best points keeping a non-joker card, best points laying every card) by trying every
    subset and every joker name."""
    n = len(hand)
    valid: dict[frozenset, int] = {}
    for k in range(3, n + 1):
        for idx in itertools.combinations(range(n), k):
            cards = [hand[i] for i in idx]
            if sum(is_joker(c) for c in cards) > 1:
                continue
            best = None
            names = NORMAL if any(is_joker(c) for c in cards) else [None]
            for name in names:
                toks = [(c, name if is_joker(c) else None) for c in cards]
                try:
                    pts = melds.build(0, toks).points()
                except melds.MeldError:
                    continue
                best = pts if best is None else max(best, pts)
            if best is not None:
                valid[frozenset(idx)] = best

    @cache
    def pack(rest: frozenset) -> tuple:
        # (best keeping a non-joker, best laying all) over the indices in rest
        left = 0 if any(not is_joker(hand[i]) for i in rest) else None
        full = 0 if not rest else None
        for meld, pts in valid.items():
            if meld <= rest:
                sl, sf = pack(rest - meld)
                if sl is not None and (left is None or sl + pts > left):
                    left = sl + pts
                if sf is not None and (full is None or sf + pts > full):
                    full = sf + pts
        return left, full

    return pack(frozenset(range(n)))


def check_plan(hand: list[str], plan: finder.Plan, all_cards: bool) -> None:
    total = 0
    for m in plan.melds:
        total += melds.build(0, list(m)).points()
    assert total == plan.value
    laid = Counter(plan.cards())
    assert not laid - Counter(hand)
    rest = Counter(hand) - laid
    if all_cards:
        assert not rest
    else:
        assert any(not is_joker(c) for c in rest.elements())


SUITED = st.lists(
    st.sampled_from(
        [r + s for s in "SH" for r in ("A", "2", "3", "4", "5", "6", "QKJ"[0])] + ["JK1"]
    ),
    min_size=3,
    max_size=8,
)


def _hand(cards: list[str]) -> list[str]:
    # At most two copies of a card, and one of each joker, as in the real deck.
    out, cnt = [], Counter()
    for c in cards:
        if cnt[c] < (1 if is_joker(c) else 2):
            out.append(c)
            cnt[c] += 1
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "AS",
                "2S",
                "3S",
                "4S",
                "5S",
                "QS",
                "KS",
                "AH",
                "2H",
                "3H",
                "AD",
                "3D",
                "QD",
                "KD",
                "JK1",
                "JK2",
            ]
        ),
        min_size=3,
        max_size=9,
    )
)
def test_finder_matches_brute_force(cards: list[str]) -> None:
    hand = _hand(cards)
    want_left, want_full = brute_force(hand)
    left, full = finder.analyse(hand)
    got_left = (
        left.value if left is not None else (0 if any(not is_joker(c) for c in hand) else None)
    )
    assert got_left == want_left
    assert (full.value if full is not None else None) == (want_full if want_full else None)
    if left is not None:
        check_plan(hand, left, all_cards=False)
    if full is not None:
        check_plan(hand, full, all_cards=True)


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False))
def test_finder_plans_are_valid_on_random_15_card_hands(rnd) -> None:
    deck = list(HAND_DECK)
    rnd.shuffle(deck)
    hand = deck[:15]
    must = hand[0] if not is_joker(hand[0]) else None
    left, full = finder.analyse(hand, must=must)
    if left is not None:
        check_plan(hand, left, all_cards=False)
        assert must is None or must in left.cards()
    if full is not None:
        check_plan(hand, full, all_cards=True)


def test_best_opening_respects_threshold_and_fire_card() -> None:
    hand = "9H 10H JH QH 4S 4D 4C 2D 6C 8D KS AC 3H 5H 7S".split()
    plan = finder.best_opening(hand, 51)
    assert plan is not None and plan.value == 51
    assert finder.best_opening(hand, 52) is None
    # The fire card 7S fits nothing: no opening may use it.
    assert finder.best_opening(hand, 51, must="7S") is None


def test_complete_hand_found() -> None:
    hand = "AS 2S JK1 AH 2H 3H 2D 3D 4D 2C 3C 4C 4S 5S 6S".split()
    plan = finder.complete_hand(hand)
    assert plan is not None
    check_plan(hand, plan, all_cards=True)
    assert finder.complete_hand([*hand[:-1], "9D"]) is None


def test_lay_offs_and_swaps() -> None:
    table = [
        melds.build(1, [("5S", None), ("6S", None), ("7S", None)]),
        melds.build(1, [("7S", None), ("7H", None), ("JK1", "7D")]),
    ]
    offs = finder.lay_offs(["4S", "8S", "7C", "KD"], table)
    # Actions are values: built from fields, written as text only by to_str.
    assert offs == [
        actions.off(1, (("4S", None),)),
        actions.off(1, (("8S", None),)),
        actions.off(2, (("7C", None),)),
    ]
    assert [a.to_str() for a in offs] == ["off 1 4S", "off 1 8S", "off 2 7C"]
    assert finder.joker_swaps(["7D", "7C"], table) == [actions.parse("swap 2 7D 7C")]
    assert finder.joker_swaps(["7D"], table) == []
    assert finder.lay_offs(["JK2"], table[:1]) == [
        actions.parse("off 1 JK2=4S"),
        actions.parse("off 1 JK2=8S"),
    ]


def _reference_candidates(hand: list[str]) -> list[tuple]:
    """Every candidate meld, listed the plain way (the finder before it was made fast): runs by
    suit and window, then sets by rank; a card multiset met twice keeps its first place and the
    higher points. The fast finder must give the same list in the same order."""
    cnt = Counter(card_id(c) for c in hand)
    jokers = cnt[JOKER_ID]
    best: dict[tuple, tuple] = {}

    def add(ids: list[int], pts: int, parts: tuple) -> None:
        key = tuple(sorted(ids))
        if key not in best or best[key][1] < pts:
            best[key] = (key, pts, min(i for i in ids if i != JOKER_ID), parts)

    for si, suit in enumerate(SUITS):
        for a in range(1, 13):
            for b in range(a + 2, 15):
                if b == 14 and a <= 2:
                    break
                window = range(a, b + 1)
                missing = [v for v in window if not cnt[si * 13 + (v - 1) % 13]]
                if len(missing) > (1 if jokers else 0):
                    break
                pts = sum(rank_points(v) for v in window)
                places = [] if missing else [None]
                places += missing or (list(window) if jokers else [])
                for p in places:
                    parts = tuple(
                        (JOKER_ID, make(v, suit)) if v == p else (si * 13 + (v - 1) % 13, None)
                        for v in window
                    )
                    add([i for i, _ in parts], pts, parts)
    for r in range(13):
        present = [si for si in range(4) if cnt[si * 13 + r]]
        pts1 = rank_points(14 if r == 0 else r + 1)
        for bits in range(1, 1 << len(present)):
            sub = [s for i, s in enumerate(present) if bits >> i & 1]
            ids = [si * 13 + r for si in sub]
            if len(sub) >= 3:
                add(ids, pts1 * len(sub), tuple((i, None) for i in ids))
            if jokers and 2 <= len(sub) <= 3:
                miss = next(s for s in range(4) if s not in sub)
                joker = (JOKER_ID, make(r + 1, SUITS[miss]))
                add([*ids, JOKER_ID], pts1 * (len(sub) + 1), (*((i, None) for i in ids), joker))
    return [(pts, low, parts) for _, pts, low, parts in best.values()]


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(3, 30), st.integers(0, 2))
def test_candidates_are_the_plain_list_in_the_same_order(rnd, size: int, jokers: int) -> None:
    deck = [c for c in HAND_DECK if not is_joker(c)]
    rnd.shuffle(deck)
    hand = deck[: size - jokers] + ["JK1", "JK2"][:jokers]
    cnt = [0] * 53
    for c in hand:
        cnt[card_id(c)] += 1
    got = [(c[1], c[2], finder.parts(c)) for c in finder._candidates(cnt)]
    assert got == _reference_candidates(hand)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_fits_answers_as_extending_the_meld_does_even_after_its_memory_is_cleared(rnd) -> None:
    """``finder.fits`` keeps its answers per (meld, card): each must be what laying the card off
    on the meld gives, the first time and again (kept), and again after the memory is full."""
    deck = list(HAND_DECK)
    rnd.shuffle(deck)
    hand = deck[:15]
    left, _ = finder.analyse(hand)
    if left is None:
        return
    table = [melds.build(0, list(m)) for m in left.melds]
    for rerun in range(3):
        if rerun == 2:
            finder._FITS.clear()  # as when it fills up
        for meld in table:
            for card in deck[15:40]:
                tok = (card, rnd.choice(NORMAL) if is_joker(card) else None)
                try:
                    melds.extend(meld, [tok])
                    expected = True
                except melds.MeldError:
                    expected = False
                assert finder.fits(meld, tok) is expected, (meld, tok)
