"""The last deck of a finished match, for its end screen (``games.contract.Game.recap``).

Once a match is over its secret is revealed and nothing of it is hidden any more, so the end
screen may show what play hid: the cards the last deck dealt to each seat, beside every move
made with them. All of it comes from the final state and the match's log, with no random
source and no replay:

- the face-up pile (``State.discard``) holds exactly the cards played or burned since the last
  deck was opened, in order; every action put its own card there, and a Ten's burn put the
  burned card right after the Ten. So the last actions of the log whose cards fill the pile are
  the last deck's moves, and the pile says which card each burn took;
- a seat was dealt, from that deck, the cards it played, the cards burned from its hand (a Ten
  always burns from the next seat) and the cards it still held at the end.

Pure Python, like the engine. A log that does not account for the pile card by card (a position
written by hand for a test, never a match played at a table) gives None rather than a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .engine import DEAL_SCHEDULE, Action, IllegalAction, State, sort_hand

DECK_SIZE = 52


def recap(state: State, log: Iterable[tuple[int | None, str]]) -> dict[str, Any] | None:
    """The last deck of a finished match: ``deck_no``, ``dealer``, ``moves`` (oldest first:
    ``seat``, ``action``, ``card``, ``burned`` and ``victim`` for a Ten's burn, else None),
    ``dealt`` (per seat, every card the deck dealt it, in deck order), ``kept`` (per seat, the
    cards it still held when the match ended) and ``undealt`` (cards of the deck never dealt).
    None while the match is played: the hands are hidden until the end. ``log`` is the match's
    ``(seat, action text)`` list, oldest first; only its last actions are used."""
    if state.turn is not None or state.winner is None:
        return None
    entries = list(log)
    pile = state.discard
    players = state.players
    moves: list[dict[str, Any]] = []
    left = len(pile)  # cards of the pile not yet matched to a move, walking back
    k = len(entries)
    while left > 0:
        k -= 1
        if k < 0:
            return None
        seat, text = entries[k]
        if type(seat) is not int or not 0 <= seat < players:
            return None
        try:
            act = Action.parse(text, seat)
        except IllegalAction:
            return None
        burned = victim = None
        if act.kind == "burn10":
            left -= 2
            if left < 0:
                return None
            burned, victim = pile[left + 1], (seat + 1) % players
        else:
            left -= 1
        if pile[left] != act.card:
            return None
        moves.append(
            {"seat": seat, "action": text, "card": act.card, "burned": burned, "victim": victim}
        )
    moves.reverse()
    dealt: list[list[str]] = [list(h) for h in state.hands]
    for move in moves:
        dealt[move["seat"]].append(move["card"])
        if move["burned"] is not None:
            dealt[move["victim"]].append(move["burned"])
    # Every seat was dealt the same packets: a pile the log explains but the deal does not is
    # not this match's.
    each = sum(DEAL_SCHEDULE[players][: state.deal_no])
    if any(len(cards) != each for cards in dealt) or each * players + len(state.deck) != DECK_SIZE:
        return None
    return {
        "deck_no": state.deck_no,
        "dealer": state.dealer,
        "moves": moves,
        "dealt": [list(sort_hand(cards)) for cards in dealt],
        "kept": [list(h) for h in state.hands],
        "undealt": len(state.deck),
    }
