"""Cards of Hand: parsing, ids and values (rules §2 and §4).

A card is written as in fairness/core.py: rank (A 2 … 10 J Q K) + suit (S H D C), e.g. "10H",
or a joker "JK1" / "JK2". Internally a normal card also has an id 0–51 (suit * 13 + rank index) and
the two jokers share id 52, since they are interchangeable in every rule.
"""

from __future__ import annotations

from fairness.core import HAND_DECK, RANKS, SUITS

JOKERS = ("JK1", "JK2")
JOKER_ID = 52
_CARD_IDS: dict[str, int] = {
    r + s: si * 13 + ri for si, s in enumerate(SUITS) for ri, r in enumerate(RANKS)
}
_CARD_IDS.update({j: JOKER_ID for j in JOKERS})
ID_TO_CARD: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)

__all__ = [
    "HAND_DECK",
    "ID_TO_CARD",
    "JOKERS",
    "JOKER_ID",
    "RANKS",
    "SUITS",
    "card_id",
    "hand_value",
    "is_card",
    "is_joker",
    "make",
    "rank_of",
    "rank_points",
    "sort_cards",
    "suit_of",
]


def is_card(text: str) -> bool:
    """Is this one of the 54 card names of a Hand deck?"""
    return text in _CARD_IDS


def is_joker(card: str) -> bool:
    return card in JOKERS


def card_id(card: str) -> int:
    """0–51 for a normal card (suit * 13 + rank index), 52 for either joker."""
    return _CARD_IDS[card]


def rank_of(card: str) -> int:
    """Rank number 1–13 (A=1 … K=13) of a normal card."""
    return _CARD_IDS[card] % 13 + 1


def suit_of(card: str) -> str:
    return card[-1]


def make(rank: int, suit: str) -> str:
    """The card of rank 1–14 (14 = the Ace above the King) and suit."""
    return RANKS[(rank - 1) % 13] + suit


def rank_points(rank: int) -> int:
    """Points of a rank in a meld: 2–10 face value, J Q K 10, Ace 11 (rank 14 or a set's Ace).

    The low Ace of a run (A-2-3) is worth 1: melds.py passes rank 1 only in that case.
    """
    if rank == 1:
        return 1
    if rank == 14:
        return 11
    return rank if rank <= 10 else 10


def hand_value(card: str) -> int:
    """What a card left in hand costs at the end of a round (§8): Ace 11, joker 15."""
    if card in JOKERS:
        return 15
    r = rank_of(card)
    return 11 if r == 1 else (r if r <= 10 else 10)


def _sort_key(card: str) -> tuple[int, int]:
    return (1, int(card[-1])) if card in JOKERS else (0, _CARD_IDS[card])


def sort_cards(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Canonical order of a hand: by suit (S H D C), then rank, jokers last."""
    return tuple(sorted(cards, key=_sort_key))
