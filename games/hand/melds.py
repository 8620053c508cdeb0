"""Melds (rules §4 and §6): validation, lay-offs and joker swaps.

A meld on the table keeps, for every physical card, the card it stands for (itself, or for a
joker the card the player named when laying it: ``JK1=QC``). Runs are kept from low to high with
``low`` the value of their first card (1 = the low Ace, 14 = the Ace above the King); sets are
kept in suit order S H D C.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUITS, is_card, is_joker, make, rank_of, rank_points, suit_of


class MeldError(ValueError):
    """An invalid meld, lay-off or swap; ``code`` is a key of messages.MESSAGES."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


Token = tuple[str, str | None]  # (physical card, card a joker stands for / None)


@dataclass(frozen=True)
class Meld:
    """An open meld: owner seat, kind ("run" | "set"), cards and what each stands for."""

    owner: int
    kind: str
    cards: tuple[str, ...]
    stands: tuple[str, ...]
    low: int = 0  # runs: value of the first card (1–12); sets: 0

    @property
    def joker(self) -> str | None:
        """The joker in this meld, if any (at most one)."""
        return next((c for c in self.cards if is_joker(c)), None)

    def values(self) -> tuple[int, ...]:
        """Value (1–14) of each position of a run; the rank of each card of a set."""
        if self.kind == "run":
            return tuple(range(self.low, self.low + len(self.cards)))
        r = rank_of(self.stands[0])
        return (r,) * len(self.cards)

    def points(self) -> int:
        """Points towards an opening: each card, a joker as the card it stands for."""
        if self.kind == "run":
            return sum(rank_points(v) for v in self.values())
        r = rank_of(self.stands[0])
        return len(self.cards) * rank_points(14 if r == 1 else r)

    def to_text(self) -> str:
        """The meld as action text: ``5H 6H JK1=7H``."""
        return " ".join(
            c if c == s else f"{c}={s}" for c, s in zip(self.cards, self.stands, strict=True)
        )


def _check_tokens(tokens: list[Token]) -> None:
    jokers = 0
    for card, stands in tokens:
        if not is_card(card):
            raise MeldError("bad_card", card)
        if is_joker(card):
            jokers += 1
            if stands is None:
                raise MeldError("joker_needs_card", card)
            if not is_card(stands) or is_joker(stands):
                raise MeldError("joker_bad_card", f"{card}={stands}")
        elif stands is not None and stands != card:
            raise MeldError("bad_card", f"{card}={stands}")
    if jokers > 1:
        raise MeldError("meld_two_jokers")


def _run_values(stands: list[str]) -> list[int] | None:
    """Values making these cards one run with no gap and no card twice, or None.

    Aces are low (1) or high (14): try all low, all high, then (two Aces, a 14-card run) one each.
    """
    base = [rank_of(s) for s in stands]
    aces = [i for i, r in enumerate(base) if r == 1]
    options = [base]
    if aces:
        options.append([14 if r == 1 else r for r in base])
        if len(aces) == 2:
            options.append([14 if i == aces[1] else r for i, r in enumerate(base)])
    for vals in options:
        s = sorted(vals)
        if len(set(s)) == len(s) and s[-1] - s[0] == len(s) - 1:
            return vals
    return None


def build(owner: int, tokens: list[Token]) -> Meld:
    """A new meld from tokens, or MeldError with the reason it is not one."""
    _check_tokens(tokens)
    if len(tokens) < 3:
        raise MeldError("meld_too_short")
    stands = [s if s is not None else c for c, s in tokens]
    ranks = {rank_of(s) for s in stands}
    suits = [suit_of(s) for s in stands]
    if len(ranks) == 1:
        # No suit twice also caps a set at four cards.
        if len(set(suits)) != len(suits):
            raise MeldError("meld_same_suit_twice")
        order = sorted(range(len(tokens)), key=lambda i: SUITS.index(suits[i]))
        return Meld(
            owner,
            "set",
            tuple(tokens[i][0] for i in order),
            tuple(stands[i] for i in order),
        )
    if len(set(suits)) != 1:
        raise MeldError("meld_not_run_or_set")
    vals = _run_values(stands)
    if vals is None:
        if len({(rank_of(s)) for s in stands}) != len(stands):
            raise MeldError("meld_card_twice")
        raise MeldError("meld_not_in_sequence")
    order = sorted(range(len(tokens)), key=lambda i: vals[i])
    return Meld(
        owner,
        "run",
        tuple(tokens[i][0] for i in order),
        tuple(stands[i] for i in order),
        low=min(vals),
    )


def extend(meld: Meld, tokens: list[Token]) -> Meld:
    """The meld with cards laid off on it (rules §6), or MeldError.

    A set of three holding a joker stands for "a card of this rank": when the card the joker was
    named for is laid off, the joker moves to the one suit still missing (players see a set of
    sevens, not a seven of clubs). A run's joker never moves: a card it stands for is a swap.
    """
    _check_tokens(tokens)
    if meld.joker and any(is_joker(c) for c, _ in tokens):
        raise MeldError("meld_two_jokers")
    old = list(zip(meld.cards, meld.stands, strict=True))
    if meld.kind == "set":
        rank = rank_of(meld.stands[0])
        new = [(c, s if s is not None else c) for c, s in tokens]
        for c, s in new:
            if rank_of(s) != rank:
                raise MeldError("lay_off_no_fit", c)
        j = meld.joker
        if j is not None:
            real = [s for c, s in old if not is_joker(c)] + [s for c, s in new]
            used = {suit_of(s) for s in real}
            if len(used) == len(real):
                missing = [x for x in SUITS if x not in used]
                if missing:
                    old = [(c, make(rank, missing[0]) if c == j else s) for c, s in old]
        try:
            out = build(meld.owner, [(c, s if is_joker(c) else None) for c, s in old + new])
        except MeldError as exc:
            raise MeldError("lay_off_no_fit", exc.code) from exc
        return out
    toks = [(c, s if is_joker(c) else None) for c, s in old] + list(tokens)
    try:
        out = build(meld.owner, toks)
    except MeldError as exc:
        raise MeldError("lay_off_no_fit", exc.code) from exc
    if out.kind != "run":
        raise MeldError("lay_off_no_fit")
    return out


def swap_needs(meld: Meld) -> tuple[str, ...]:
    """The card(s) that free this meld's joker (rules §6, as implemented: see docs/rules/hand.md).

    Run: the one card the joker stands for. Set of three (two cards + joker): the two suits still
    missing, since the joker could be either. Set of four: the one suit the joker stands for.
    """
    j = meld.joker
    if j is None:
        return ()
    i = meld.cards.index(j)
    if meld.kind == "run" or len(meld.cards) == 4:
        return (meld.stands[i],)
    rank = rank_of(meld.stands[0])
    used = {suit_of(c) for c in meld.cards if not is_joker(c)}
    return tuple(make(rank, s) for s in SUITS if s not in used)


def swap(meld: Meld, cards: list[str]) -> tuple[Meld, str]:
    """Put the card(s) in the joker's place: (new meld, freed joker), or MeldError."""
    j = meld.joker
    if j is None:
        raise MeldError("swap_no_joker")
    if sorted(cards) != sorted(swap_needs(meld)):
        raise MeldError("swap_wrong_cards", " ".join(swap_needs(meld)))
    rest = [(c, None) for c in meld.cards if c != j]
    out = build(meld.owner, [*rest, *((c, None) for c in cards)])
    return out, j
