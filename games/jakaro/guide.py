"""Help for a board page, computed from one seat's own view only (so it can never leak what that
seat may not see): what each of its legal actions does to the marbles, and why a card cannot
move a marble it cannot.

``explain(view)`` is pure Python like the rest of the engine. The page highlights exactly the
marbles and squares these say (so it never offers a move the engine would refuse) and shows the
reasons for the rest. Documented in docs/views/jakaro.md ("Help for the board page").
"""

from __future__ import annotations

from typing import Any

from .board import BASE, HOME0, TRACK
from .engine import (
    FORWARD,
    _back_dest,
    _Board,
    _board,
    _dest,
    _effect_move,
    _out_marble,
    _ref,
    effect,
    rank,
)

# Codes only this helper gives (the engine's refusal codes cover the rest).
NO_SWAP_TARGET = "no_swap_target"  # a Jack with no other colour's marble to swap with
NO_SPLIT_PARTNER = "no_split_partner"  # a Seven part fits, but no second marble takes the rest


def _flat(view: dict[str, Any]) -> tuple[int, ...]:
    return tuple(p for seat in view["marbles"] for p in seat)


def _primary(kind: str, refs: list[int], before: tuple[int, ...], after: list[int]) -> list[int]:
    """The marbles an action is 'about' (what the player taps first): the moved one; both for a
    split; the seat's own for a swap; the marble that comes out for ``out``."""
    if kind == "out":
        return [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a == BASE != b]
    if kind == "swap":
        return refs[:1]
    return refs


def _reason(bd: _Board, r: str, mi: int) -> str | None:
    """Why card rank ``r`` cannot move marble ``mi`` (a code), or None when it can."""
    m = bd.marbles
    pos = m[mi]
    if r in ("A", "K") and pos == BASE:
        got = _out_marble(m, bd.occ, bd.starts, bd.who)
        return got if isinstance(got, str) else None
    if r == "J":
        if pos == BASE:
            return "marble_in_base"
        if pos >= HOME0:
            return "marble_home"
        if pos == bd.starts[mi >> 2]:
            return "marble_protected"
        return NO_SWAP_TARGET
    if r == "4":
        got = _back_dest(m, bd.prot, bd.occ, mi)
        return got if isinstance(got, str) else None
    if r == "5":
        got = _effect_move(bd, "5", (mi,), (5,))
        return got if isinstance(got, str) else None
    codes = []
    for n in FORWARD[r]:
        got = _dest(m, bd.occ, bd.prot, bd.starts, mi, n, True)
        if not isinstance(got, str):
            # The whole count fits; only a Seven can still fail (no second marble for a split
            # is not it: a whole Seven on one marble is a legal move on its own).
            return None
        codes.append(got)
    if r == "7" and pos != BASE:
        for x in range(1, 7):
            if not isinstance(_dest(m, bd.occ, bd.prot, bd.starts, mi, x, True), str):
                return NO_SPLIT_PARTNER
    return codes[0]


def explain(view: dict[str, Any]) -> dict[str, Any]:
    """For a seat's own view: ``after`` maps each legal action that moves marbles to the flat
    marble list it leaves (seat-major, as ``marbles`` flattened); ``targets`` maps it to the
    marbles it is about (flat indices, see ``_primary``); ``why`` maps each card of the hand to
    {marble ref: code} for the marbles that card cannot move (refs as action texts write them).
    Empty for a spectator, or when the seat is not to play."""
    seat = view.get("seat")
    if seat is None or view.get("turn") != seat or view.get("status") != "playing":
        return {"after": {}, "targets": {}, "why": {}}
    players = view["players"]
    marbles = _flat(view)
    bd = _board(marbles, players, seat)
    after: dict[str, list[int]] = {}
    targets: dict[str, list[int]] = {}
    used: dict[str, set[int]] = {}
    for action in view["legal"]:
        parts = action.split()
        kind, card = parts[0], parts[1]
        if kind in ("burn10", "discard"):
            continue
        new = list(effect(marbles, players, seat, action))
        after[action] = new
        refs = [_flat_ref(t, seat) for t in parts[2:] if "m" in t]
        targets[action] = _primary(kind, refs, marbles, new)
        mine = used.setdefault(card, set())
        mine.update(refs)
        mine.update(targets[action])
        if kind == "out":
            # Base marbles are alike: any of them stands for the one that comes out.
            mine.update(i for i in range(bd.who * 4, bd.who * 4 + 4) if marbles[i] == BASE)
    why: dict[str, dict[str, str]] = {}
    for card in view.get("hand") or []:
        r = rank(card)
        if r == "5":
            cands = [i for i, p in enumerate(marbles) if i >> 2 == bd.who or 0 <= p < TRACK]
        else:
            cands = list(range(bd.who * 4, bd.who * 4 + 4))
        reasons = {}
        for mi in cands:
            if mi in used.get(card, ()):
                continue
            code = _reason(bd, r, mi)
            if code is not None:
                reasons[_ref(seat, mi)] = code
        why[card] = reasons
    return {"after": after, "targets": targets, "why": why}


def _flat_ref(token: str, seat: int) -> int:
    owner, _sep, m = token.rpartition(":")
    return (int(owner) if owner else seat) * 4 + int(m[1:])
