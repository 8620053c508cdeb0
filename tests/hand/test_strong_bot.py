"""The strong Hand bot holds back a small first opening heads-up (games/hand/search.py), and
opens at once whenever holding back would cost more than it buys."""

from __future__ import annotations

from games.hand import bot, finder, search
from games.hand.scenario import build_state

from .helpers import GAME

# 9H-QH (39) and three Sevens (21): a 60-point opening, below the strong bot's HOLD_BELOW; the
# other eight cards make no meld.
SMALL = "9H 10H JH QH 7S 7D 7C 2D 5C 8S KD 3S 4C 6D AC"
# 9H-KH (49) and 10S-KS (40): an 89-point opening.
BIG = "9H 10H JH QH KH 10S JS QS KS 2D 5C 8D 3C 4S 6D"
OTHER = "2C 4C 6C 8C 10C QC AC 3C 5C 7C 9C JC KC 2S"


def view_of(hand: str, **kw) -> dict:
    base = {"options": {"players": 2}, "hands": [hand, OTHER], "turn": 0, "phase": "play"}
    base.update(kw)
    state, _ = build_state(base)
    return GAME.view(state, 0)


def test_the_hands_open_for_what_the_tests_say() -> None:
    small = finder.best_opening(SMALL.split(), 51)
    big = finder.best_opening(BIG.split(), 51)
    assert small is not None and small.value == 60 < search.HOLD_BELOW
    assert big is not None and big.value == 89 >= search.HOLD_BELOW


def test_a_small_first_opening_is_held_back_heads_up() -> None:
    v = view_of(SMALL)
    assert bot.choose(v).kind == "lay"  # the normal bot opens at once
    action = search.choose(v)
    assert action.kind == "throw"
    assert action.card not in "9H 10H JH QH 7S 7D 7C".split()
    assert GAME.bot_action(v, "strong") == action.to_str()


def test_it_opens_once_the_opponent_has_opened() -> None:
    # The opponent opened with 55: the bar is 56, and holding back buys nothing any more.
    v = view_of(SMALL, hands=[SMALL, "2C 4C 6C 8C 10C QC AC 3C 5C"], opened=[0, 55])
    assert v["threshold"] == 56
    assert search.choose(v) == bot.choose(v)
    assert search.choose(v).kind == "lay"


def test_it_opens_at_once_with_a_big_opening() -> None:
    v = view_of(BIG)
    assert search.choose(v).kind == "lay"


def test_it_opens_with_the_fire_pile_card_it_took() -> None:
    # Taking the fire pile's card obliges the seat to open with it this turn.
    v = view_of(SMALL, fire_card="QH")
    assert search.choose(v) == bot.choose(v)
    assert search.choose(v).kind == "lay"


def test_it_never_holds_back_going_out_or_with_more_players() -> None:
    # A «هاند» of 80 whose best opening (74) would be held back if it were only an opening.
    whole = "9H 10H JH 7S 7D 7C AS 2S 3S 2D 3D 4D 4C 5C 6C"
    opening = finder.best_opening(whole.split(), 51)
    assert opening is not None and opening.value < search.HOLD_BELOW
    v = view_of(whole)
    assert search.choose(v).kind == "lay" and len(search.choose(v).physical()) == 15
    # An opening of 52 that lays 14 cards and goes out with the throw after it.
    out = "AS 2S 3S AH 2H 3H 2D 3D 4D 5D 5C 6C 7C 8C KD"
    opening = finder.best_opening(out.split(), 51)
    assert opening is not None and opening.value < search.HOLD_BELOW
    assert len(opening.cards()) == 14
    v = view_of(out)
    assert search.choose(v) == bot.choose(v) and search.choose(v).kind == "lay"
    others = [
        OTHER,
        "2H 4H 6H 8H 3D 5D 7D 9D JD 4S 6S 8S 10S 2S",
        "AD 3H 5H 7H KS QS JS 9S 10D QD 8D AS 5S 6C",
    ]
    v = view_of(SMALL, options={"players": 4}, hands=[SMALL, *others])
    assert search.choose(v).kind == "lay"
