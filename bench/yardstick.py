"""The yardstick the bots are measured against (``python -m bench.bots``): a plain one-move greedy
player, written from the rules, not from the bots. Jakaro's is below. Hand's is the Hand bot's own
``choose`` (games/hand/bot.py, the normal strength): the greedy Hand player once written here
drew, opened, laid and threw as that bot does, a copy under another name (issue 57).

- Jakaro: each turn, the legal move whose board scores best: progress of our team's marbles
  along the track (a marble home counts the whole way and more), less the opponents'; a marble
  that an opponent could reach with one card next turn counts for less (safety); a capture shows
  as the opponent's progress lost. No thought for the cards kept for later; with nothing to play,
  the lowest card is thrown.

It chooses from the seat's view alone, as the bots do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
