"""The view keys the table page needs: ``fire_usable`` before a draw and the
suggested throw ``hints.throw`` at an easy table; neither at a strict one, nor for another seat."""

from __future__ import annotations

import games
from games.contract import IllegalAction
from games.hand import bot
from games.hand.scenario import build_state

GAME = games.get("hand")
SARA = "KS KH 9C 10C JK1 9S 7D 4S 2D 3H 5C 8H QD 6S"
ALI = "2S 3S 4C 6C 7C 9D 10D JH QH"


def position(table: str = "easy", fire: str = "KD", **more) -> dict:
    return {
        "options": {"players": 2, "table": table},
        "hands": [SARA, ALI],
        "melds": [{"owner": 1, "cards": "4D 5D 6D"}],
        "fire": ["2C", fire],
        "opened": [0, 51],
        "turn": 0,
        "phase": "draw",
        **more,
    }


def accepted(state, seat: int, action: str) -> bool:
    try:
        GAME.check(state, seat, action)
    except IllegalAction:
        return False
    return True


def test_fire_usable_says_what_the_engine_would_do_with_draw_fire() -> None:
    usable, _ = build_state(position(fire="KD"))  # KS KH KD + 9C 10C JK1: an opening
    useless, _ = build_state(position(fire="5H"))  # no opening of 52 with the 5 of hearts
    for state, expected in ((usable, True), (useless, False)):
        view = GAME.view(state, 0)
        assert view["fire_usable"] is expected
        assert accepted(state, 0, "draw fire") is expected


def test_fire_usable_is_null_at_a_strict_table_for_other_seats_and_after_the_draw() -> None:
    strict, _ = build_state(position(table="strict"))
    assert GAME.view(strict, 0)["fire_usable"] is None
    easy, _ = build_state(position())
    assert GAME.view(easy, 1)["fire_usable"] is None  # not this seat's turn
    assert GAME.spectator_view(easy)["fire_usable"] is None
    drawn, _ = build_state(position(phase="play"))
    assert GAME.view(drawn, 0)["fire_usable"] is None


def test_the_suggested_throw_is_the_time_out_card_and_is_accepted() -> None:
    state, _ = build_state(position(phase="play"))
    view = GAME.view(state, 0)
    card = view["hints"]["throw"]
    assert card == bot.least_useful(view)
    assert accepted(state, 0, f"throw {card}")
    strict, _ = build_state(position(table="strict", phase="play"))
    assert GAME.view(strict, 0)["hints"] is None


def test_no_throw_is_suggested_while_the_fire_card_is_due() -> None:
    state, _ = build_state(position(phase="play", fire_card="KS"))
    hints = GAME.view(state, 0)["hints"]
    assert hints["throw"] is None
    assert not accepted(state, 0, "throw 2D")  # fire_card_unused: the hint was right to be quiet
