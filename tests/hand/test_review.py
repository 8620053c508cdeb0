"""Findings of the independent rules review of the Hand engine: each test failed before its fix."""

from __future__ import annotations

import pytest

from games.hand import actions, engine
from games.hand.actions import Action
from games.hand.messages import MESSAGES
from games.hand.scenario import build_state
from games.messages import COMMON

from .helpers import GAME, match_rng

H1 = "2C 4C 6C 8C 10C QC AC 3C 5C 7C 9C JC KC 2D"


def _refused(state: engine.State, seat: object, action: object) -> str:
    """The refusal code of an action, checking the state is unchanged and the message exists."""
    before = engine.to_json(state)
    with pytest.raises(engine.IllegalAction) as info:
        engine.apply(state, seat, action, None)  # type: ignore[arg-type]
    assert engine.to_json(state) == before
    assert info.value.code in MESSAGES or info.value.code in COMMON
    assert info.value.message("ar") != info.value.message("en")
    assert info.value.message("ar") and info.value.message("en")
    return info.value.code


# ---------------------------------------------------------------- malformed action texts


@pytest.mark.parametrize(
    "text",
    [
        "off ² 8H",  # str.isdigit() is true for superscripts, int() refuses them
        "off ① 8H",
        "swap ٣ 5H",  # an Arabic-Indic digit is not the canonical form
        "off 1" + "0" * 5000 + " 8H",  # int() refuses more than 4300 digits
    ],
)
def test_meld_number_must_be_plain_ascii_digits(text: str) -> None:
    with pytest.raises(actions.ActionError) as info:
        actions.parse(text)
    assert info.value.code == "bad_action"
    st, _ = build_state({"options": {"players": 2}, "hands": ["KD 5H", H1], "phase": "play"})
    assert _refused(st, 0, text) == "bad_action"


@pytest.mark.parametrize(
    "action",
    [
        Action("throw"),  # no card
        Action("bogus"),
        Action("lay"),  # no meld: not an action, not "accepted doing nothing"
        Action("draw", source="xyz"),  # not silently read as the fire pile
        Action("off", index=0, cards=(("5H", None),)),
        5,
        None,
        b"throw 5H",
    ],
)
def test_apply_refuses_malformed_action_objects(action: object) -> None:
    st, _ = build_state(
        {"options": {"players": 2}, "hands": ["KD 5H", H1], "phase": "draw", "fire": ["2H"]}
    )
    assert _refused(st, 0, action) == "bad_action"
    st2, _ = build_state({"options": {"players": 2}, "hands": ["KD 5H", H1], "phase": "play"})
    assert _refused(st2, 0, action) == "bad_action"


def test_apply_accepts_a_well_formed_action_object() -> None:
    st, _ = build_state({"options": {"players": 2}, "hands": ["KD 5H", H1], "phase": "play"})
    by_text = engine.apply(st, 0, "throw 5H", None)
    assert engine.apply(st, 0, actions.parse("throw 5H"), None) == by_text


@pytest.mark.parametrize("seat", [True, False, 0.0, "0", None])
def test_seat_must_be_a_plain_int(seat: object) -> None:
    st, _ = build_state({"options": {"players": 2}, "hands": ["KD 5H", H1], "phase": "play"})
    assert _refused(st, seat, "throw 5H") == "no_such_seat"


# ---------------------------------------------------------------- fire card, swap and time-out


def test_timeout_undoing_a_swap_also_returns_the_fire_card_it_used() -> None:
    """§3: a card taken from the fire pile must be used that turn. If the swap that used it is
    undone by the time-out, the card is unused again: it goes back on the fire pile and the seat
    draws from the stock instead, exactly as for a fire card never laid."""
    st, rng = build_state(
        {
            "options": {"players": 2},
            "hands": ["KS 2D", H1],
            "fire": ["6H"],
            "stock": ["9D", "4S"],
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "5H JK1=6H 7H"},
                {"owner": 1, "cards": "9C 10C JC"},
            ],
        }
    )
    s = engine.apply(st, 0, "draw fire", rng)
    s = engine.apply(s, 0, "swap 1 6H", rng)
    assert s.round.fire_card is None and s.round.joker_due == "JK1"
    s = engine.apply(s, 0, "timeout", rng)
    r = s.round
    assert [m.to_text() for m in r.melds] == ["5H JK1=6H 7H", "9C 10C JC"]
    # 6H went back on the fire pile, 9D came from the stock, then the turn's throw (KS).
    assert r.fire == ("6H", "KS")
    assert sorted(r.hands[0]) == ["2D", "9D"]
    assert r.fire_card is None and r.joker_due is None
    assert r.turn == 1 and r.phase == "draw"
    assert engine.from_json(engine.to_json(s)) == s


def test_swap_state_with_fire_card_round_trips() -> None:
    st, rng = build_state(
        {
            "options": {"players": 2},
            "hands": ["KS 2D", H1],
            "fire": ["6H"],
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "5H JK1=6H 7H"},
                {"owner": 1, "cards": "9C 10C JC"},
            ],
        }
    )
    s = engine.apply(engine.apply(st, 0, "draw fire", rng), 0, "swap 1 6H", rng)
    assert engine.from_json(engine.to_json(s)) == s


# ---------------------------------------------------------------- the two jokers are alike


def _joker_position() -> engine.State:
    st, _ = build_state(
        {
            "options": {"players": 2},
            "hands": ["JK1 6H KS 2D QC", H1],
            "phase": "play",
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "5H JK2=6H 7H"},
                {"owner": 1, "cards": "9C 10C JC"},
            ],
        }
    )
    return engine.apply(st, 0, "swap 1 6H", None)


def test_laying_either_joker_meets_the_swap_obligation() -> None:
    """The seat held JK1 and took JK2 by a swap: it now holds one joker more than before, and
    laying either of them puts that joker back on the table (cards.py: the jokers are alike in
    every rule, as the two copies of a fire card are)."""
    s = _joker_position()
    assert s.round.joker_due == "JK2"
    s = engine.apply(s, 0, "off 2 JK1=QC", None)
    assert s.round.joker_due is None
    s = engine.apply(s, 0, "throw KS", None)
    assert s.round.turn == 1 and sorted(s.round.hands[0]) == ["2D", "JK2", "QC"]


def test_every_hinted_joker_lay_off_meets_the_swap_obligation() -> None:
    s = _joker_position()
    hints = engine.view(s, 0)["hints"]
    jokers = [t for t in hints["off"] if " JK" in t]
    assert jokers
    for text in jokers:
        after = engine.apply(s, 0, text, None)
        assert after.round.joker_due is None, text


# ---------------------------------------------------------------- easy-table hints are legal


def _hint_texts(v: dict) -> list[str]:
    h = v["hints"] or {}
    return (
        [h[k] for k in ("hand", "opening", "lay") if h.get(k)]
        + h.get("off", [])
        + h.get("swap", [])
    )


def test_hints_never_offer_a_lay_off_that_leaves_only_a_joker() -> None:
    """The easy table shows hints and blocks illegal moves, so a hint must be a move the
    engine accepts. Laying off 5S here would leave only the joker, which cannot be thrown."""
    st, _ = build_state(
        {
            "options": {"players": 2},
            "hands": ["5S JK1", H1],
            "phase": "play",
            "opened": [55, 60],
            "melds": [{"owner": 1, "cards": "2S 3S 4S"}],
        }
    )
    hints = engine.view(st, 0)["hints"]
    assert "off 1 5S" not in hints["off"]
    assert "off 1 JK1=5S" in hints["off"]


def test_no_swap_hint_while_a_swapped_joker_is_due() -> None:
    st, _ = build_state(
        {
            "options": {"players": 2},
            "hands": ["6H 9S 9C KS 2D QC", H1],
            "phase": "play",
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "5H JK2=6H 7H"},
                {"owner": 1, "cards": "9C 10C JC"},
                {"owner": 1, "cards": "9H JK1=9S 9D"},
            ],
        }
    )
    assert "swap 3 9S 9C" in engine.view(st, 0)["hints"]["swap"]
    s = engine.apply(st, 0, "swap 1 6H", None)
    assert s.round.joker_due == "JK2"
    assert engine.view(s, 0)["hints"]["swap"] == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_hint_in_bot_matches_is_accepted(players: int) -> None:
    for k in range(4):
        rng = match_rng(bytes([players * 16 + k]) * 32)
        state = GAME.new_match(engine.Options(players=players, rounds=1), rng)
        checked = 0
        while (seat := GAME.to_move(state)) is not None:
            v = GAME.view(state, seat)
            assert v["legal"] == _hint_texts(v)
            for text in v["legal"]:
                GAME.check(state, seat, text)  # raises IllegalAction if a hint is refused
                checked += 1
            state = GAME.apply(state, seat, GAME.bot_action(v), rng)
        assert checked > 0


# ---------------------------------------------------------------- fire card usable through a swap


def _fire_swap_position() -> tuple[engine.State, object]:
    return build_state(
        {
            "options": {"players": 2},
            "hands": ["2H 6D 7C JC QC", H1],
            "fire": ["7D"],
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "4S 5S 6S 7S"},
                {"owner": 1, "cards": "JC JK2=QC KC"},
            ],
        }
    )


def test_fire_card_usable_with_a_joker_freed_by_another_swap() -> None:
    """§3/§6: an opened player may take 7D when he can swap QC for the joker and lay
    7C 7D JK2=7H — the fire card is used in that turn's lay-down, so the draw is legal."""
    st, rng = _fire_swap_position()
    s = engine.apply(st, 0, "draw fire", rng)
    s = engine.apply(s, 0, "swap 2 QC", rng)
    s = engine.apply(s, 0, "lay 7C 7D JK2=7H", rng)
    assert s.round.fire_card is None and s.round.joker_due is None
    s = engine.apply(s, 0, "throw 2H", rng)
    assert s.round.turn == 1


def test_fire_card_usable_filling_a_run_gap_with_a_swapped_joker() -> None:
    """Run 4S-5S-6S; fire 8S; the hand swaps 10D for a set's joker and lays it off as 7S."""
    st, rng = build_state(
        {
            "options": {"players": 2},
            "hands": ["2H 10D KC", H1],
            "fire": ["8S"],
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "4S 5S 6S"},
                {"owner": 1, "cards": "10S 10H 10C JK1=10D"},
            ],
        }
    )
    s = engine.apply(st, 0, "draw fire", rng)
    s = engine.apply(s, 0, "swap 2 10D", rng)
    s = engine.apply(s, 0, "off 1 JK1=7S", rng)
    s = engine.apply(s, 0, "off 1 8S", rng)
    assert s.round.fire_card is None and s.round.joker_due is None
    assert engine.apply(s, 0, "throw 2H", rng).round.turn == 1


def test_opened_player_may_take_a_fire_joker_to_lay_it_off() -> None:
    """A joker reaches the fire pile only when a seat held nothing else (docs §7). An opened
    player who can lay it off (§5: a lay-off alone uses the fire card) may take it."""
    st, rng = build_state(
        {
            "options": {"players": 2},
            "hands": ["KS 2D", H1],
            "fire": ["3D", "JK1"],
            "opened": [55, 60],
            "melds": [{"owner": 1, "cards": "5H 6H 7H"}],
        }
    )
    s = engine.apply(st, 0, "draw fire", rng)
    assert s.round.fire_card == "JK1"
    s = engine.apply(s, 0, "off 1 JK1=8H", rng)
    assert s.round.fire_card is None
    assert engine.apply(s, 0, "throw KS", rng).round.turn == 1


def test_timeout_with_a_fire_joker_and_a_swapped_joker_never_fails() -> None:
    """Took JK1 from the fire pile, swapped JK2 out of a run, laid JK2 off (one joker back on the
    table): the time-out must still undo what is half done, putting a joker back in the run and
    returning a joker to the fire pile, never refusing itself."""
    st, rng = build_state(
        {
            "options": {"players": 2},
            "hands": ["6H KS 2D QC", H1],
            "fire": ["3D", "JK1"],
            "stock": ["9D", "4S"],
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "5H JK2=6H 7H"},
                {"owner": 1, "cards": "9C 10C JC"},
            ],
        }
    )
    s = engine.apply(st, 0, "draw fire", rng)
    s = engine.apply(s, 0, "swap 1 6H", rng)
    s = engine.apply(s, 0, "off 2 JK2=QC", rng)
    assert s.round.fire_card is None and s.round.joker_due == "JK2"
    s = engine.apply(s, 0, "timeout", rng)
    r = s.round
    assert r.fire_card is None and r.joker_due is None
    assert [m.to_text() for m in r.melds] == ["5H JK1=6H 7H", "9C 10C JC JK2=QC"]
    # The swap undone (6H back in hand), then the turn's throw of the least useful card.
    assert r.fire == ("3D", "KS")
    assert sorted(r.hands[0]) == ["2D", "6H", "QC"]
    assert r.turn == 1


def test_one_joker_laid_meets_only_one_joker_obligation() -> None:
    """Took JK1 from the fire pile and JK2 by a swap: laying one joker leaves one joker too many,
    so the seat may not throw yet."""
    st, rng = build_state(
        {
            "options": {"players": 2},
            "hands": ["6H KS 2D QC", H1],
            "fire": ["3D", "JK1"],
            "opened": [55, 60],
            "melds": [
                {"owner": 1, "cards": "5H JK2=6H 7H"},
                {"owner": 1, "cards": "9C 10C JC"},
            ],
        }
    )
    s = engine.apply(st, 0, "draw fire", rng)
    s = engine.apply(s, 0, "swap 1 6H", rng)
    s = engine.apply(s, 0, "off 2 JK1=QC", rng)
    assert (s.round.fire_card, s.round.joker_due) == (None, "JK2")
    assert _refused(s, 0, "throw KS") == "joker_unused"
    s = engine.apply(s, 0, "off 1 JK2=8H", rng)
    assert engine.apply(s, 0, "throw KS", rng).round.turn == 1
