"""Jakaro behind the one engine contract (games.contract.Game), reached through the registry."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import games
from fairness.core import RandomSource
from games import contract
from games.contract import COMMON_VIEW_KEYS, BadOptions, MissingRandomSource

from .helpers import position

JAKARO = games.get("jakaro")


def _rng(ident: str) -> RandomSource:
    return RandomSource(b"\x21" * 32, "jakaro", ident)


def test_the_package_satisfies_the_protocol() -> None:
    assert isinstance(JAKARO, contract.Game)
    assert JAKARO.name == "jakaro"
    assert JAKARO.SERVER_ACTIONS == frozenset()
    assert issubclass(JAKARO.IllegalAction, contract.IllegalAction)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"players": 3}, "bad_players"),
        ({"players": 0}, "bad_players"),
        ({"players": True}, "bad_options"),  # a bool is not a count
        ({"players": "4"}, "bad_options"),
        ({"players": 4.0}, "bad_options"),
        ({"players": 4, "teams": True}, "bad_options"),
        ([("players", 4)], "bad_options"),
    ],
)
def test_options_that_are_not_allowed_are_refused_with_a_stable_code(data, code: str) -> None:
    with pytest.raises(BadOptions) as exc:
        JAKARO.parse_options(data)
    assert exc.value.code == code
    assert exc.value.message("ar") and exc.value.message("en")


def test_options_round_trip() -> None:
    for n in (2, 4):
        options = JAKARO.parse_options({"players": n})
        assert JAKARO.options_to_dict(options) == {"players": n}
        assert JAKARO.parse_options(JAKARO.options_to_dict(options)) == options
    assert JAKARO.parse_options({}).players == 4


def _play_to_the_end(players: int, ident: str, bots: bool) -> tuple[object, list]:
    rng = _rng(ident)
    rnd = random.Random(ident)
    state = JAKARO.new_match(JAKARO.parse_options({"players": players}), rng)
    log: list[tuple[int | None, str]] = []
    while (seat := JAKARO.to_move(state)) is not None:
        assert JAKARO.server_step(state) is None
        v = JAKARO.view(state, seat)
        assert v["legal"] == JAKARO.legal_actions(state)
        action = JAKARO.bot_action(v) if bots else rnd.choice(v["legal"])
        JAKARO.check(state, seat, action)
        state = JAKARO.apply(state, seat, action, rng)
        log.append((seat, action))
    return state, log


@pytest.mark.parametrize(("players", "bots"), [(2, True), (4, True), (2, False), (4, False)])
def test_a_match_is_its_log(players: int, bots: bool) -> None:
    ident = f"contract-{players}-{bots}"
    state, log = _play_to_the_end(players, ident, bots)
    again = contract.replay(JAKARO, JAKARO.parse_options({"players": players}), _rng(ident), log)
    assert JAKARO.to_json(again) == JAKARO.to_json(state)
    assert JAKARO.outcome(again) == JAKARO.outcome(state) is not None


def test_outcome_the_winning_team_splits_the_prize() -> None:
    won, rng = position(
        {0: ["H0", "H1", "H2", "H3"], 2: [35, "H1", "H2", "H3"]}, {0: ["3S"], 1: ["2C"]}
    )
    assert JAKARO.outcome(won) is None
    over = JAKARO.apply(won, 0, "move 3S 2:m0", rng)
    result = JAKARO.outcome(over)
    assert result.places == ((1, (0, 2)), (2, (1, 3)))
    assert result.shares == {0: Fraction(1, 2), 1: 0, 2: Fraction(1, 2), 3: 0}
    assert result.teams == ((0, 2), (1, 3))
    assert JAKARO.to_move(over) is None
    v = JAKARO.view(over, 1)
    assert v["turn"] is None and v["status"] == "over" and v["legal"] == []
    assert v["outcome"] == result.to_dict()
    # Two players: the winner takes it all.
    st, rng = position({1: [36, "H1", "H2", "H3"]}, {1: ["2S"], 0: ["3C"]}, players=2, turn=1)
    result = JAKARO.outcome(JAKARO.apply(st, 1, "move 2S m0", rng))
    assert result.places == ((1, (1,)), (2, (0,)))
    assert result.shares == {0: 0, 1: 1} and sum(result.shares.values()) == 1


def test_views_have_the_common_keys_and_the_spectator_sees_no_hand() -> None:
    state, _ = position({0: [10, "base", "base", "base"]}, {0: ["3S"], 1: ["2C", "KD"]})
    for seat in range(4):
        v = JAKARO.view(state, seat)
        assert set(COMMON_VIEW_KEYS) <= set(v)
        assert v["seat"] == seat and v["hand"] == list(state.hands[seat])
        assert v["legal"] == (["move 3S m0"] if seat == 0 else [])
        assert v["status"] == "playing" and v["outcome"] is None and v["turn"] == 0
    spec = JAKARO.spectator_view(state)
    assert set(COMMON_VIEW_KEYS) <= set(spec)
    assert spec["seat"] is None and spec["hand"] is None and spec["legal"] == []
    assert spec["hand_counts"] == [1, 2, 0, 0]
    text = json.dumps(spec)
    assert not any(card in text for card in ("3S", "2C", "KD"))


def test_refusals_are_the_contracts_with_words_in_both_languages() -> None:
    state, rng = position({0: [10, "base", "base", "base"]}, {0: ["3S"], 1: ["2C"]})
    for seat, action, code in [
        (1, "discard 2C", "not_your_turn"),
        (None, "move 3S m0", "no_such_seat"),  # Jakaro has no action on nobody's behalf
        (4, "move 3S m0", "no_such_seat"),
        (True, "move 3S m0", "no_such_seat"),
        (0, "fly 3S", "bad_action"),
        (0, "move 3S 1:m0", "not_your_marble"),
    ]:
        for call in (JAKARO.check, lambda s, sx, a: JAKARO.apply(s, sx, a, rng)):
            with pytest.raises(contract.IllegalAction) as exc:
                call(state, seat, action)
            assert exc.value.code == code
            assert exc.value.message("ar") != exc.value.message("en")
    assert JAKARO.check(state, 0, "move 3S m0") is None


def test_a_missing_random_source_is_its_own_error_not_a_refusal() -> None:
    burn, _ = position({}, {0: ["10D"], 1: ["2C"]})
    JAKARO.check(burn, 0, "burn10 10D")  # legal: check needs no random source
    with pytest.raises(MissingRandomSource):
        JAKARO.apply(burn, 0, "burn10 10D", None)
    last, _ = position({0: [10, "base", "base", "base"]}, {0: ["3S"]})  # the last card out
    with pytest.raises(MissingRandomSource):
        JAKARO.apply(last, 0, "move 3S m0", None)
    with pytest.raises(MissingRandomSource):
        JAKARO.new_match(JAKARO.parse_options({}), None)


def test_json_is_versioned() -> None:
    state, _ = _play_to_the_end(4, "json", bots=True)
    text = JAKARO.to_json(state)
    assert json.loads(text)["v"] == 2 and json.loads(text)["turn"] is None
    assert JAKARO.from_json(text) == state
    # Version 1 wrote -1 for the turn of a finished match.
    old = json.loads(text)
    old.update(v=1, turn=-1)
    assert JAKARO.from_json(json.dumps(old)) == state
    for bad in (3, None, "2"):
        old["v"] = bad
        with pytest.raises(ValueError):
            JAKARO.from_json(json.dumps(old))


def test_auto_action_plays_one_legal_action_per_call() -> None:
    rng = _rng("auto")
    state = JAKARO.new_match(JAKARO.parse_options({"players": 4}), rng)
    for _ in range(40):
        seat = JAKARO.to_move(state)
        action = JAKARO.auto_action(state, seat)
        assert action in JAKARO.legal_actions(state)
        state = JAKARO.apply(state, seat, action, rng)
