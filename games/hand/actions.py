"""Action texts of Hand: one canonical, human-writable form (documented in docs/scenarios.md).

    draw stock | draw fire
    lay 5H 6H 7H | QS QD JK1=QC        several melds in one lay-down, "|" between melds
    off 2 8H 9H                        lay off on meld number 2 (numbers start at 1)
    swap 2 7D                          put 7D in meld 2's joker's place and take the joker
    throw 9D
    timeout                            server only: the timed-out turn of a seat (rules §9)
    deal                               server only, for no seat: deal the next round

A joker always names the card it stands for: ``JK1=QC``. Cards are upper case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import is_card, is_joker
from .melds import Token

_INDEX = re.compile(r"[0-9]{1,6}")


class ActionError(ValueError):
    """Text that is not an action (code ``bad_action`` or ``bad_card``)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Action:
    """A parsed action. ``melds`` for lay, ``index`` (1-based) and ``cards`` for off/swap/throw."""

    kind: str  # draw | lay | off | swap | throw | timeout | deal
    source: str = ""  # draw: stock | fire
    melds: tuple[tuple[Token, ...], ...] = ()
    index: int = 0
    cards: tuple[Token, ...] = ()

    def to_str(self) -> str:
        """The canonical text of this action: the one place an action text is written."""
        if self.kind == "draw":
            return f"draw {self.source}"
        if self.kind == "lay":
            return "lay " + " | ".join(_tokens_text(m) for m in self.melds)
        if self.kind in ("off", "swap"):
            return f"{self.kind} {self.index} {_tokens_text(self.cards)}"
        if self.kind == "throw":
            return f"throw {self.cards[0][0]}"
        return self.kind

    def __str__(self) -> str:
        return self.to_str()

    @property
    def card(self) -> str:
        """The physical card of a throw, or of the first card of an off / swap."""
        return self.cards[0][0]

    def physical(self) -> list[str]:
        """Every physical card this action puts down (lay, off, swap, throw)."""
        if self.kind == "lay":
            return [c for m in self.melds for c, _ in m]
        return [c for c, _ in self.cards]


# Constructors: the finder and the bots build actions with these, never from text.
DRAW_STOCK = Action("draw", source="stock")
DRAW_FIRE = Action("draw", source="fire")
TIMEOUT = Action("timeout")
DEAL = Action("deal")


def throw(card: str) -> Action:
    return Action("throw", cards=((card, None),))


def lay(melds: tuple[tuple[Token, ...], ...]) -> Action:
    return Action("lay", melds=melds)


def off(index: int, tokens: tuple[Token, ...]) -> Action:
    return Action("off", index=index, cards=tokens)


def swap(index: int, cards: tuple[str, ...] | list[str]) -> Action:
    return Action("swap", index=index, cards=tuple((c, None) for c in cards))


def _tokens_text(tokens: tuple[Token, ...]) -> str:
    return " ".join(c if s is None else f"{c}={s}" for c, s in tokens)


def _token(text: str) -> Token:
    card, eq, stands = text.partition("=")
    if not is_card(card):
        raise ActionError("bad_card", card)
    if eq:
        if not is_joker(card):
            raise ActionError("bad_card", text)
        if not is_card(stands) or is_joker(stands):
            raise ActionError("joker_bad_card", text)
        return (card, stands)
    return (card, None)


def meld_tokens(text: str) -> tuple[Token, ...]:
    """The cards of one meld, written as in a ``lay`` (``5H JK1=6H 7H``): for positions and
    scenario files, which name open melds this way. ActionError if it is not that."""
    if not isinstance(text, str) or not text.split() or "|" in text:
        raise ActionError("bad_action", str(text))
    return tuple(_token(w) for w in text.upper().split())


def parse(text: str) -> Action:
    """Parse an action text (case-insensitive, any spacing); ActionError if it is not one.
    The one place an action text is read."""
    if not isinstance(text, str):
        raise ActionError("bad_action")
    words = text.upper().split()
    if not words:
        raise ActionError("bad_action")
    verb, rest = words[0].lower(), words[1:]
    if verb == "draw" and len(rest) == 1 and rest[0].lower() in ("stock", "fire"):
        return Action("draw", source=rest[0].lower())
    if verb in ("timeout", "deal") and not rest:
        return Action(verb)
    if verb == "throw" and len(rest) == 1:
        tok = _token(rest[0])
        if tok[1] is not None:
            raise ActionError("bad_action", text)
        return Action("throw", cards=(tok,))
    if verb in ("off", "swap") and len(rest) >= 2:
        # ASCII digits only: str.isdigit() also accepts "²" or "①", which int() refuses, and
        # a bounded length keeps int() away from its 4300-digit limit.
        if not _INDEX.fullmatch(rest[0]) or int(rest[0]) < 1:
            raise ActionError("bad_action", text)
        cards = tuple(_token(w) for w in rest[1:])
        if verb == "swap" and any(s is not None for _, s in cards):
            raise ActionError("bad_action", text)
        return Action(verb, index=int(rest[0]), cards=cards)
    if verb == "lay" and rest:
        groups: list[list[Token]] = [[]]
        for w in " ".join(rest).replace("|", " | ").split():
            if w == "|":
                groups.append([])
            else:
                groups[-1].append(_token(w))
        if any(not g for g in groups):
            raise ActionError("bad_action", text)
        return Action("lay", melds=tuple(tuple(g) for g in groups))
    raise ActionError("bad_action", text)
