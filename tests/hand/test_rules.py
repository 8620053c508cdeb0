"""Unit tests of the Hand rules: each with a position and an expected result."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

import games
from games import contract
from games.hand import actions, engine, melds
from games.hand.cards import hand_value
from games.hand.messages import MESSAGES
from games.hand.scenario import build_state
from games.messages import COMMON

H1 = "2C 4C 6C 8C 10C QC AC 3C 5C 7C 9C JC KC 2D"


def pos(**kw):
    base = {"options": {"players": 2}, "hands": ["KD", H1], "turn": 0, "phase": "play"}
    base.update(kw)
    return build_state(base)


# --------------------------------------------------------------------------- actions


@pytest.mark.parametrize(
    "text",
    [
        "draw stock",
        "draw fire",
        "lay 5H 6H 7H | QS QD JK1=QC",
        "off 2 8H 9H",
        "off 1 JK2=10S",
        "swap 3 7D 7C",
        "throw 9D",
        "timeout",
        "deal",
    ],
)
def test_action_text_round_trip(text: str) -> None:
    assert actions.parse(text).to_str() == text
    assert actions.parse(text.lower()) == actions.parse(text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_action"),
        ("draw", "bad_action"),
        ("throw", "bad_action"),
        ("throw 11H", "bad_card"),
        ("lay 5H | | 6H", "bad_action"),
        ("off 0 5H", "bad_action"),
        ("throw JK1=5H", "bad_action"),
        ("lay 5H=6H 7H 8H", "bad_card"),
        ("swap 1 JK1=5H", "bad_action"),
    ],
)
def test_bad_action_texts(text: str, code: str) -> None:
    with pytest.raises(actions.ActionError) as exc:
        actions.parse(text)
    assert exc.value.code == code


# --------------------------------------------------------------------------- melds


def toks(text: str) -> list:
    return list(actions.meld_tokens(text))


@pytest.mark.parametrize(
    ("text", "points", "kind"),
    [
        ("AH 2H 3H", 6, "run"),
        ("QH KH AH", 31, "run"),
        ("AS AH AD", 33, "set"),
        ("9C 10C JC QC KC", 49, "run"),
        ("JS QS KS JK1=AS", 41, "run"),
        ("JK1=10S JS QS KS", 40, "run"),
        ("7S JK1=7H 7D", 21, "set"),
        ("5D JK2=6D 7D", 18, "run"),
    ],
)
def test_meld_points(text: str, points: int, kind: str) -> None:
    m = melds.build(0, toks(text))
    assert (m.points(), m.kind) == (points, kind)


def test_run_is_stored_low_to_high_whatever_the_order() -> None:
    m = melds.build(1, toks("AS KS QS"))
    assert m.to_text() == "QS KS AS" and m.low == 12


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("KS AS 2S", "meld_not_in_sequence"),
        ("5H 5H 5D", "meld_same_suit_twice"),
        ("5H 6H 6H 7H", "meld_card_twice"),
        ("5H JK1=6H JK2=7H", "meld_two_jokers"),
        ("5H 6D 7H", "meld_not_run_or_set"),
        ("5H 6H", "meld_too_short"),
    ],
)
def test_invalid_melds(text: str, code: str) -> None:
    with pytest.raises(melds.MeldError) as exc:
        melds.build(0, toks(text))
    assert exc.value.code == code


def test_swap_needs() -> None:
    assert melds.swap_needs(melds.build(0, toks("5H JK1=6H 7H"))) == ("6H",)
    assert sorted(melds.swap_needs(melds.build(0, toks("7S 7H JK1=7D")))) == ["7C", "7D"]
    assert melds.swap_needs(melds.build(0, toks("7S 7H 7D JK1=7C"))) == ("7C",)
    assert melds.swap_needs(melds.build(0, toks("7S 7H 7D"))) == ()


def test_hand_values() -> None:
    assert [hand_value(c) for c in ("AS", "2S", "10H", "JD", "QC", "KS", "JK1")] == [
        11,
        2,
        10,
        10,
        10,
        10,
        15,
    ]


# --------------------------------------------------------------------------- refusals


def test_refused_action_leaves_state_unchanged() -> None:
    state, rng = pos()
    before = engine.to_json(state)
    with pytest.raises(engine.IllegalAction) as exc:
        engine.apply(state, 0, "throw JK1", rng)
    assert exc.value.code == "card_not_in_hand"
    assert isinstance(exc.value, contract.IllegalAction)
    assert exc.value.message("en") == "That card is not in your hand."
    assert exc.value.message("ar") == MESSAGES["card_not_in_hand"]["ar"]
    assert engine.to_json(state) == before


def _codes_in_source() -> set[str]:
    root = Path(engine.__file__).parent
    codes: set[str] = set()
    for f in root.glob("*.py"):
        codes |= set(
            re.findall(r'(?:IllegalAction|MeldError|ActionError)\(\s*"([a-z_]+)"', f.read_text())
        )
    return codes


def test_every_refusal_code_has_arabic_and_english() -> None:
    codes = _codes_in_source()
    assert len(codes) > 25
    for code in codes:
        words = MESSAGES.get(code) or COMMON.get(code)
        assert words, code
        assert words["ar"].strip() and words["en"].strip()


def test_shared_codes_live_only_in_the_shared_messages() -> None:
    assert not set(MESSAGES) & set(COMMON)
    assert {"match_over", "not_your_turn", "bad_action", "server_only"} <= _codes_in_source()


def test_check_matches_apply() -> None:
    state, _ = pos()
    assert engine.check(state, 0, "throw KD") is None
    with pytest.raises(engine.IllegalAction):
        engine.check(state, 0, "draw stock")


# --------------------------------------------------------------------------- thresholds


def test_thresholds_saudi_plain_partners() -> None:
    s, _ = pos(openings=[[1, 64]], opened=[0, 64])
    assert engine.threshold(s, 0) == 65
    s, _ = pos(options={"players": 2, "variant": "plain"}, openings=[[1, 64]], opened=[0, 64])
    assert engine.threshold(s, 0) == 51
    p4 = {"players": 4, "partners": True}
    hands = ["KD", "KD", "KD", "KD"]
    s, _ = pos(
        options=p4, hands=hands, openings=[[1, 55], [3, 77], [0, 90]], opened=[90, 55, 0, 77]
    )
    # Team (1, 3) opened first: they need 51; team (0, 2) must beat 77.
    assert [engine.threshold(s, x) for x in range(4)] == [78, 51, 78, 51]


# --------------------------------------------------------------------------- scoring


def test_round_scores_plain_and_hand() -> None:
    opts = engine.Options(players=3)
    s, _ = pos(options={"players": 3}, hands=["", "AS JK1", "2C"], opened=[50, 60, 0])
    r = s.round
    assert engine.round_scores(opts, r, 0, False) == (-30, 26, 100)
    assert engine.round_scores(opts, r, 0, True) == (-60, 52, 200)


def test_shares_with_ties() -> None:
    s, _ = pos(options={"players": 4}, hands=["KD", "2C", "2C", "2C"], round=5, opened=[5, 5, 5, 5])
    s, _ = (
        engine.apply(s, 0, "throw KD", None),
        None,
    )
    # all others score 2: seat 0 first, three share second: 30% / 3 each.
    assert s.status == "match_over"
    sh = engine.shares(s)
    assert sh == {0: Fraction(7, 10), 1: Fraction(1, 10), 2: Fraction(1, 10), 3: Fraction(1, 10)}
    assert sum(sh.values()) == 1


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"players": 3, "partners": True}, "partners_need_four"),
        ({"players": 5}, "bad_players"),
        ({"players": True}, "bad_players"),  # a bool is not a number of players
        ({"players": "4"}, "bad_players"),
        ({"partners": 1}, "bad_options"),  # nor a number a yes/no
        ({"variant": "fast"}, "bad_options"),
        ({"table": None}, "bad_options"),
        ({"rounds": 0}, "bad_options"),
        ({"rounds": 21}, "bad_options"),
        ({"rounds": 5.0}, "bad_options"),
        ({"rounds": False}, "bad_options"),
        ({"speed": "fast"}, "bad_options"),  # unknown key
    ],
)
def test_options_validated(data: dict, code: str) -> None:
    with pytest.raises(contract.BadOptions) as exc:
        engine.parse_options(data)
    assert exc.value.code == code
    assert exc.value.message("ar") and exc.value.message("en")


def test_options_round_trip_as_plain_data() -> None:
    game = games.get("hand")
    opts = game.parse_options({"players": 4, "partners": True, "variant": "plain"})
    assert opts == engine.Options(players=4, partners=True, variant="plain")
    data = game.options_to_dict(opts)
    assert data == {
        "players": 4,
        "partners": True,
        "variant": "plain",
        "table": "easy",
        "rounds": 5,
    }
    assert game.parse_options(data) == opts
    assert game.parse_options({}) == engine.Options()
    with pytest.raises(contract.BadOptions):
        game.parse_options([("players", 2)])


# --------------------------------------------------------------------------- views


def test_view_shows_own_cards_and_counts_only() -> None:
    s, _ = pos(hands=["KD QD", H1], phase="draw", fire=["5S"])
    v = engine.view(s, 0)
    assert v["hand"] == ["QD", "KD"]
    assert v["hand_counts"] == [2, 14]
    assert "stock" not in v and "hands" not in v
    assert "2C" not in repr(v)  # seat 1's cards appear nowhere
    assert v["must"] == ["draw"]
    assert v["turn"] == 0 and v["status"] == "playing" and v["legal"] == []


def test_views_have_the_common_keys() -> None:
    s, _ = pos(hands=["KD QD", H1], phase="play")
    for v in (engine.view(s, 0), engine.view(s, 1), engine.spectator_view(s)):
        assert set(contract.COMMON_VIEW_KEYS) <= set(v)
        assert v["game"] == "hand" and v["players"] == 2 and v["outcome"] is None
    spec = engine.spectator_view(s)
    assert spec["seat"] is None and spec["hand"] is None and spec["hints"] is None
    assert spec["hand_counts"] == [2, 14] and spec["legal"] == []
    assert "KD" not in repr(spec) and "2C" not in repr(spec)
    with pytest.raises(engine.IllegalAction) as exc:
        engine.view(s, 2)
    assert exc.value.code == "no_such_seat"


def test_view_after_the_match_shows_the_outcome_and_no_turn() -> None:
    s, _ = pos(round=5, totals=[100, 50], opened=[55, 0])
    s = engine.apply(s, 0, "throw KD", None)
    for v in (engine.view(s, 1), engine.spectator_view(s)):
        assert v["status"] == "over" and v["turn"] is None and v["legal"] == []
        assert v["outcome"] == {
            "places": [[1, [0]], [2, [1]]],
            "shares": {"0": "1", "1": "0"},
            "teams": [[0], [1]],
        }


def test_easy_table_legal_lists_the_accepted_hints() -> None:
    hand = "9H 10H JH QH 4S 4D 4C 2D 6C 8D KS AC 3H 5H 7S"
    s, _ = pos(hands=[hand, H1])
    assert engine.view(s, 0)["legal"] == ["lay 4S 4D 4C | 9H 10H JH QH"]
    assert engine.view(s, 1)["legal"] == []


def test_hints_only_for_the_seat_to_play_at_easy_tables() -> None:
    hand = "9H 10H JH QH 4S 4D 4C 2D 6C 8D KS AC 3H 5H 7S"
    s, _ = pos(hands=[hand, H1])
    assert engine.view(s, 0)["hints"]["opening"] == "lay 4S 4D 4C | 9H 10H JH QH"
    assert engine.view(s, 1)["hints"] is None
    s, _ = pos(options={"players": 2, "table": "strict"}, hands=[hand, H1])
    assert engine.view(s, 0)["hints"] is None


def test_no_django_import_in_engine() -> None:
    root = Path(engine.__file__).parent
    for f in root.glob("*.py"):
        text = f.read_text()
        assert not re.search(r"^\s*(from|import)\s+(django|channels|celery)\b", text, re.M), f


def test_meld_tokens_read_one_meld_as_a_lay_writes_it() -> None:
    assert actions.meld_tokens("5h jk1=6h 7H") == (("5H", None), ("JK1", "6H"), ("7H", None))
    for text in ("", "5H | 6H 7H", "5H 11H"):
        with pytest.raises(actions.ActionError):
            actions.meld_tokens(text)
