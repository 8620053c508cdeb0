"""The bots: choices from a view alone, and the good bot beats the naive one. The bots return
``Action`` values; ``bot_action`` (the registry's) writes the text."""

from __future__ import annotations

from games.hand import actions, bot, engine
from games.hand.actions import Action
from games.hand.scenario import build_state

from .helpers import GAME, play_match, view_chooser

H1 = "2C 4C 6C 8C 10C QC AC 3C 5C 7C 9C JC KC 2D"


def view_of(**kw) -> dict:
    base = {"options": {"players": 2}, "hands": ["KD", H1], "turn": 0, "phase": "play"}
    base.update(kw)
    state, _ = build_state(base)
    return GAME.view(state, 0)


def test_bot_lays_a_hand_when_it_holds_one() -> None:
    v = view_of(hands=["AS 2S 3S AH 2H 3H 2D 3D 4D 2C 3C 4C 4S 5S 6S", H1])
    action = bot.choose(v)
    assert isinstance(action, Action) and action.kind == "lay"
    assert len(action.physical()) == 15
    assert GAME.bot_action(v) == action.to_str()


def test_bot_takes_the_fire_card_that_opens() -> None:
    v = view_of(hands=["9H 10H JH 4S 4D 4C 2D 6C 8D KS AC 3H 5H 7S", H1], fire=["QH"], phase="draw")
    assert bot.choose(v) == actions.DRAW_FIRE
    assert GAME.bot_action(v) == "draw fire"
    v = view_of(hands=["9H 10H JH 4S 4D 4C 2D 6C 8D KS AC 3H 5H 7S", H1], fire=["2C"], phase="draw")
    assert bot.choose(v) == actions.DRAW_STOCK


def test_bot_keeps_jokers_and_meld_cards() -> None:
    v = view_of(hands=["JK1 5H 6H 9S 9D 4S 8C QD 2C KH 7D 3S 10C JS AD", H1])
    action = bot.choose(v)
    assert action.kind == "throw"
    assert action.card not in ("JK1", "5H", "6H", "9S", "9D")


def test_naive_bot_throws_its_highest_card() -> None:
    v = view_of(hands=["JK1 5H 6H 9S 9D 4S 8C QD 2C KH 7D 3S 10C JS AD", H1])
    assert bot.naive(v) == actions.throw("AD")


def test_good_bot_beats_naive_bot() -> None:
    wins = 0
    for i in range(10):
        secret = bytes([i + 1]) * 32
        seats = [view_chooser(bot.choose), view_chooser(bot.naive)]
        if i % 2:
            seats.reverse()
        final, _ = play_match(engine.Options(players=2), secret, seats)
        me = 0 if i % 2 == 0 else 1
        wins += final.places[0][0] == 1 and final.places[0][1] == me and final.places[1][0] == 2
    assert wins >= 7


def test_bot_goes_for_hand_when_close_and_safe() -> None:
    hand = "9H 10H JH QH KH 7S 7D 7C 2D 3D 4D 5D 6D QS 8C"
    v = view_of(hands=[hand, H1])
    assert bot.choose(v) in (actions.throw("QS"), actions.throw("8C"))
    # An opponent near going out (three cards in hand_counts): open now instead of risking 100.
    v = view_of(hands=[hand, "2C 4C 6C"], opened=[0, 60])
    assert bot.choose(v).kind == "lay"


def test_bot_meets_a_swap_obligation_with_a_lay_off_of_that_joker() -> None:
    # The swapped joker fits no new meld: the bot lays it off on the run (read from the
    # action's fields, not from its text).
    state, _ = build_state(
        {
            "options": {"players": 2},
            "hands": ["6H KS 2D QC", H1],
            "phase": "play",
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "5H JK2=6H 7H"},
                {"owner": 1, "cards": "9C 10C JC"},
            ],
        }
    )
    state = GAME.apply(state, 0, "swap 1 6H", None)
    action = bot.choose(GAME.view(state, 0))
    assert action.kind == "off" and action.card == "JK2"
    assert GAME.apply(state, 0, GAME.bot_action(GAME.view(state, 0)), None).round.joker_due is None
