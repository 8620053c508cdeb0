"""The yardstick the bots are measured against (``python -m bench.bots``): a plain one-move greedy
player for each game, written from the rules, not from the bots.

- Jakaro: each turn, the legal move whose board scores best: progress of our team's marbles
  along the track (a marble home counts the whole way and more), less the opponents'; a marble
  that an opponent could reach with one card next turn counts for less (safety); a capture shows
  as the opponent's progress lost. No thought for the cards kept for later; with nothing to play,
  the lowest card is thrown.
- Hand: draw from the fire pile when its top card lets us open now or lay it off at once, else from
  the stock; open as soon as we can (the opening the engine's finder finds); once open, lay every
  meld and every card that fits a meld on the table; throw the card that makes melds least
  (fewest cards of its rank and of its suit within two), the highest of equals.

Both choose from the seat's view alone, as the bots do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.hand import actions as hand_actions
from games.hand import finder
from games.hand.bot import melds_of
from games.hand.cards import hand_value, is_joker, rank_of, suit_of
from games.jakaro import engine as jakaro
from games.jakaro.board import BASE, HOME0, TRACK, team

View = Mapping[str, Any]

# --------------------------------------------------------------------------------------- Jakaro

HOME_WORTH = 120.0  # a marble home: the whole track and more
OUT_WORTH = 10.0  # a marble out of its base, on its start
REACH = 13  # the farthest one card moves a marble forward


def _progress(pos: int, start: int) -> float:
    if pos == BASE:
        return 0.0
    if pos >= HOME0:
        return HOME_WORTH + (pos - HOME0)
    return OUT_WORTH + (pos - start) % TRACK


def jakaro_board(marbles: tuple[int, ...], players: int, seat: int) -> float:
    starts = jakaro.STARTS[players]
    ours = team(players, seat)
    track = {pos: i >> 2 for i, pos in enumerate(marbles) if 0 <= pos < TRACK}
    total = 0.0
    for i, pos in enumerate(marbles):
        owner = i >> 2
        value = _progress(pos, starts[owner])
        if 0 <= pos < TRACK and any(
            (o := track.get((pos - d) % TRACK)) is not None
            and team(players, o) != team(players, owner)
            for d in range(1, REACH + 1)
        ):
            value *= 0.7  # within one card of an opponent's marble behind it
        total += value if team(players, owner) == ours else -value
    return total


def jakaro_greedy(v: View) -> str:
    seat, players = v["seat"], v["players"]
    legal = v["legal"]
    if legal and legal[0].startswith("discard"):
        low = [c for c in v["hand"] if jakaro.rank(c) in ("2", "3", "6", "8", "9")]
        return jakaro.Action(seat, "discard", (low or v["hand"])[0]).to_str()
    marbles = tuple(m for ms in v["marbles"] for m in ms)
    best, best_score = legal[0], float("-inf")
    for text in legal:
        after = jakaro.effect(marbles, players, seat, text)
        score = jakaro_board(after, players, seat)
        if score > best_score:
            best, best_score = text, score
    return best


# ----------------------------------------------------------------------------------------- Hand


def _meld_partners(card: str, hand: list[str]) -> int:
    if is_joker(card):
        return 99
    r, s = rank_of(card), suit_of(card)
    return sum(
        1
        for c in hand
        if c != card
        and not is_joker(c)
        and (rank_of(c) == r or (suit_of(c) == s and abs(rank_of(c) - r) <= 2))
    )


def hand_greedy(v: View) -> str:
    hand = list(v["hand"])
    seat = v["seat"]
    opened = v["opened"][seat]
    melds = melds_of(v)
    if v["phase"] == "draw":
        top = v["fire_top"]
        if top is not None:
            with_top = [*hand, top]
            if not opened and finder.best_opening(with_top, v["threshold"], must=top):
                return "draw fire"
            # Once open: only a card it can lay off at once (a taken card must be laid).
            if opened and any(a.card == top for a in finder.lay_offs(with_top, melds)):
                return "draw fire"
        return "draw stock"
    must = v["fire_card"] or v["joker_due"]
    if not opened:
        full = finder.complete_hand(hand)
        if full is not None:
            return full.action().to_str()
        plan = finder.best_opening(hand, v["threshold"], must=must)
        if plan is not None:
            return plan.action().to_str()
    else:
        offs = finder.lay_offs(hand, melds)
        if must and len(hand) > 1 and any(a.card == must for a in offs):
            return next(a for a in offs if a.card == must).to_str()
        left, _ = finder.analyse(hand, must=must)
        if left is not None and left.value > 0:
            return left.action().to_str()
        # A card taken from the fire pile must be laid this turn: its lay-off first.
        offs = sorted(offs, key=lambda a: a.card != must)
        if offs and len(hand) > 1:
            return offs[0].to_str()
    throwable = [c for c in hand if not is_joker(c)] or hand
    worst = min(throwable, key=lambda c: (_meld_partners(c, hand), -hand_value(c), c))
    return hand_actions.throw(worst).to_str()
