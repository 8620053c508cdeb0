"""Hand through the one engine contract: the registry, the server's actions, one random source
per match, versioned JSON, and whole matches replayed from their logs."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

import games
from fairness.core import RandomSource
from games import contract
from games.hand import engine
from games.hand.scenario import build_state

from .helpers import GAME, match_rng, play_match, random_chooser, view_chooser

H1 = "2C 4C 6C 8C 10C QC AC 3C 5C 7C 9C JC KC 2D"


def _round_over() -> engine.State:
    s, _ = build_state(
        {"options": {"players": 2}, "hands": ["KD", H1], "phase": "play", "opened": [55, 0]}
    )
    return GAME.apply(s, 0, "throw KD", None)


def test_the_registry_returns_the_hand_package_which_satisfies_the_contract() -> None:
    assert GAME is games.get("hand")
    assert isinstance(GAME, contract.Game)
    assert GAME.name == "hand"
    assert GAME.SERVER_ACTIONS == frozenset({"deal", "timeout"})
    assert issubclass(GAME.IllegalAction, contract.IllegalAction)
    assert GAME.legal_actions(_round_over()) is None


def test_between_rounds_the_server_deals_for_no_seat() -> None:
    s = _round_over()
    assert s.status == "round_over"
    assert GAME.to_move(s) is None and GAME.server_step(s) == "deal"
    GAME.check(s, None, "deal")
    rng = match_rng(b"\x05" * 32)
    after = GAME.apply(s, None, "deal", rng)
    assert after.round.number == 2 and after.round.dealer == 0
    assert GAME.to_move(after) == 1 and GAME.server_step(after) is None
    # Round 2 comes from the match's one source, purpose deal/2.
    deck = rng.deck("deal/2")
    assert sorted(after.round.hands[1]) == sorted(deck[:15])
    assert after.round.stock == tuple(deck[29:])


@pytest.mark.parametrize("seat", [0, 1])
def test_deal_for_a_seat_is_refused_as_server_only(seat: int) -> None:
    with pytest.raises(contract.IllegalAction) as exc:
        GAME.apply(_round_over(), seat, "deal", match_rng(b"\x05" * 32))
    assert exc.value.code == "server_only"


def test_deal_when_none_is_due_is_refused() -> None:
    s, rng = build_state({"options": {"players": 2}, "hands": ["KD", H1], "phase": "play"})
    with pytest.raises(contract.IllegalAction) as exc:
        GAME.check(s, None, "deal")
    assert exc.value.code == "round_in_play"
    s, _ = build_state(
        {
            "options": {"players": 2},
            "round": 5,
            "hands": ["KD", H1],
            "phase": "play",
            "opened": [55, 0],
        }
    )
    s = GAME.apply(s, 0, "throw KD", rng)
    assert s.status == "match_over" and GAME.server_step(s) is None and GAME.to_move(s) is None
    with pytest.raises(contract.IllegalAction) as exc:
        GAME.apply(s, None, "deal", rng)
    assert exc.value.code == "match_over"


def test_a_player_action_for_no_seat_is_refused() -> None:
    s, rng = build_state({"options": {"players": 2}, "hands": ["KD", H1], "phase": "play"})
    with pytest.raises(contract.IllegalAction) as exc:
        GAME.apply(s, None, "throw KD", rng)
    assert exc.value.code == "no_such_seat"


def test_a_missing_random_source_is_its_own_error() -> None:
    with pytest.raises(contract.MissingRandomSource):
        GAME.apply(_round_over(), None, "deal", None)
    with pytest.raises(contract.MissingRandomSource):
        GAME.new_match(engine.Options(players=2), None)
    # A draw that must rebuild the stock needs the source too; check() needs none.
    s, _ = build_state(
        {"options": {"players": 2}, "hands": ["KD", H1], "stock": [], "fire": ["2H", "3H", "4H"]}
    )
    GAME.check(s, 0, "draw stock")
    with pytest.raises(contract.MissingRandomSource):
        GAME.apply(s, 0, "draw stock", None)


def test_a_rebuilt_stock_uses_the_round_and_its_count_in_the_purpose() -> None:
    rng = match_rng(b"\x09" * 32)
    fire = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]
    s, _ = build_state(
        {
            "options": {"players": 2},
            "round": 3,
            "reshuffles": 1,
            "hands": ["KD", H1],
            "stock": [],
            "fire": fire,
        }
    )
    s = GAME.apply(s, 0, "draw stock", rng)
    want = rng.shuffle(fire[:-1], "reshuffle/3/2")
    assert s.round.reshuffles == 2 and s.round.fire == ("9H",)
    assert want[0] in s.round.hands[0] and s.round.stock == tuple(want[1:])


def test_auto_action_is_one_timeout_that_ends_the_turn() -> None:
    s, rng = build_state(
        {"options": {"players": 2}, "hands": ["KD QD 5S", H1], "stock": ["AS", "9C"]}
    )
    assert GAME.auto_action(s, 0) == "timeout"
    after = GAME.apply(s, 0, GAME.auto_action(s, 0), rng)
    assert GAME.to_move(after) == 1
    assert len(after.round.hands[0]) == 3 and after.round.fire[-1] in ("KD", "QD", "5S", "AS")


def test_json_is_versioned() -> None:
    s = _round_over()
    text = GAME.to_json(s)
    assert json.loads(text)["version"] == engine.JSON_VERSION
    assert GAME.from_json(text) == s
    for version in (None, 1, 3, "2"):
        data = json.loads(text)
        if version is None:
            del data["version"]
        else:
            data["version"] = version
        with pytest.raises(ValueError, match="version"):
            GAME.from_json(json.dumps(data))


def test_outcome_places_shares_and_teams() -> None:
    s, _ = build_state(
        {
            "options": {"players": 4, "partners": True},
            "round": 5,
            "totals": [0, 10, 0, 10],
            "hands": ["KD", "2C", "2C", "2C"],
            "phase": "play",
            "opened": [55, 55, 55, 55],
        }
    )
    assert GAME.outcome(s) is None
    s = GAME.apply(s, 0, "throw KD", None)
    out = GAME.outcome(s)
    assert out.places == ((1, (0, 2)), (2, (1, 3)))
    assert out.teams == ((0, 2), (1, 3))
    assert out.shares == {0: Fraction(1, 2), 1: 0, 2: Fraction(1, 2), 3: 0}


OPTIONS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "partners": True},
    {"players": 2, "variant": "plain"},
    {"players": 3, "variant": "plain"},
    {"players": 4, "variant": "plain"},
    {"players": 4, "partners": True, "variant": "plain", "table": "strict"},
]


@pytest.mark.parametrize("data", OPTIONS, ids=lambda d: "-".join(str(v) for v in d.values()))
@pytest.mark.parametrize("who", ["bots", "random"])
def test_whole_matches_replay_from_their_log(data: dict, who: str) -> None:
    options = GAME.parse_options({**data, "rounds": 2})
    secret = bytes([len(data) * 7 + data["players"]]) * 32
    if who == "bots":
        players = [view_chooser(GAME.bot_action)] * options.players
    else:
        players = [random_chooser(random.Random(secret))] * options.players
    final, log = play_match(options, secret, players)
    assert GAME.outcome(final) is not None
    assert sum(GAME.outcome(final).shares.values()) == 1
    assert [a for s, a in log if s is None] == ["deal"] * (len(final.history) - 1)
    again = contract.replay(GAME, options, match_rng(secret), log)
    assert GAME.to_json(again) == GAME.to_json(final)
    assert GAME.outcome(again) == GAME.outcome(final)
    # Another source for the same log: the deals differ, so the log no longer fits.
    other = RandomSource(secret, "hand", "another-match", {0: "seed0"})
    with pytest.raises(contract.IllegalAction):
        contract.replay(GAME, options, other, log)


def test_no_view_holds_a_card_of_another_seat_while_a_round_is_played() -> None:
    options = engine.Options(players=4, rounds=1)
    rnd = random.Random(3)
    players = [random_chooser(rnd)] * 4

    def on_step(state: engine.State) -> None:
        if state.status != "playing":
            return
        hands = state.round.hands
        for seat in range(4):
            v = GAME.view(state, seat)
            assert v["hand"] == list(hands[seat])
            hidden = {c for s, h in enumerate(hands) if s != seat for c in h} - set(hands[seat])
            hidden -= _public(state)
            assert not hidden & set(_cards_in(v)), seat
        spectator = GAME.spectator_view(state)
        assert spectator["hand"] is None
        seen = set(_cards_in(spectator))
        assert not seen & ({c for h in hands for c in h} - _public(state))

    play_match(options, b"\x0b" * 32, players, on_step)


def _public(state: engine.State) -> set[str]:
    """Cards anyone may see: the melds (with what their jokers stand for), the fire pile, and the
    card taken from it or the joker taken by a swap this turn (both taken face up). A hidden
    card with a public twin (the deck holds two of each) cannot be told apart."""
    r = state.round
    taken = {c for c in (r.fire_card, r.joker_due) if c is not None}
    return {c for m in r.melds for c in (*m.cards, *m.stands)} | set(r.fire) | taken


def _cards_in(v: object) -> list[str]:
    """Every card-like text anywhere in a view (action texts split into their words)."""
    out: list[str] = []
    if isinstance(v, dict):
        for x in v.values():
            out += _cards_in(x)
    elif isinstance(v, list | tuple):
        for x in v:
            out += _cards_in(x)
    elif isinstance(v, str):
        out += [w.split("=")[0] for w in v.replace("|", " ").split()]
    return out


def test_the_view_doc_lists_every_key_of_the_view() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "views" / "hand.md").read_text()
    documented = set()
    for cell in re.findall(r"^\| ([^|]+) \|", doc, re.M):
        documented |= set(re.findall(r"`([a-z_]+)`", cell))
    s = _round_over()
    keys = set(GAME.view(s, 0)) | set(GAME.spectator_view(s))
    playing, _ = build_state({"options": {"players": 2}, "hands": ["KD", H1], "phase": "play"})
    keys |= set(GAME.view(playing, 0))
    assert "hands" in keys  # shown once the round is over
    assert keys == documented
