"""Both games driven only through the registry and the one contract (games.contract.Game).

Nothing here names a game's modules or branches on the game: what differs is only the options and
what the contract says a game can do (``legal_actions`` is a list, or None where the game cannot
list its moves). Each match is played to the end by bots and by random players, every action is
logged (the server's too), and the log replayed from the match's one random source must give the
same state and the same outcome. Every view a seat or a spectator gets during those matches is
checked for cards of another seat's hand.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

import games
from fairness.core import HAND_DECK, JAKARO_DECK, RandomSource
from games.contract import COMMON_VIEW_KEYS, SERVER, Game, IllegalAction, Outcome, replay

CARDS = frozenset(HAND_DECK) | frozenset(JAKARO_DECK)
MAX_STEPS = 30_000

MATCHES = [
    ("hand", {"players": 2, "variant": "saudi"}),
    ("hand", {"players": 3, "variant": "saudi", "table": "strict"}),
    ("hand", {"players": 4, "variant": "saudi"}),
    ("hand", {"players": 2, "variant": "plain", "table": "strict"}),
    ("hand", {"players": 3, "variant": "plain"}),
    ("hand", {"players": 4, "variant": "plain"}),
    ("hand", {"players": 4, "partners": True, "variant": "saudi"}),
    ("hand", {"players": 4, "partners": True, "variant": "plain", "table": "strict"}),
    ("jakaro", {"players": 2}),
    ("jakaro", {"players": 4}),
]


def source(game: Game, i: int, players: int) -> RandomSource:
    # Seeds from some seats only, as when a bot sits at the table (bots add no seed).
    seeds = {seat: f"seed{i}x{seat}" for seat in range(0, players, 2)}
    return RandomSource(bytes([i + 1]) * 32, game.name, f"contract-{game.name}-{i}", seeds)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def card_tokens(view: dict) -> set[str]:
    """Every card named anywhere in a view (cards stand alone or inside action texts)."""
    out: set[str] = set()
    for text in strings(view):
        for token in text.replace("|", " ").split():
            if token in CARDS:
                out.add(token)
    return out


def check_views(game: Game, state: Any) -> None:
    """No view shows a card of another seat's hand: what a seat sees beyond its own hand, and
    what a spectator sees, is public, so every seat sees it too."""
    spectator = game.spectator_view(state)
    players = spectator["players"]
    assert spectator["hand"] is None and spectator["seat"] is None
    public = card_tokens(spectator)
    views = [game.view(state, s) for s in range(players)]
    for seat, v in enumerate(views):
        for key in COMMON_VIEW_KEYS:
            assert key in v, (game.name, key)
        assert v["seat"] == seat and v["game"] == game.name
        own = set(v["hand"])
        leaked = card_tokens(v) - own - public
        assert not leaked, (game.name, seat, leaked)
        # The spectator's cards are in every seat's view: nothing private reached it.
        assert public <= card_tokens(v), (game.name, seat, public - card_tokens(v))
        assert len(v["hand_counts"]) == players and v["hand_counts"][seat] == len(v["hand"])
    assert spectator["hand_counts"] == views[0]["hand_counts"]


def play(game: Game, options: Any, rng: RandomSource, rnd: random.Random, mode: str, views: bool):
    """Play to the end through the contract alone; return the final state and the log."""
    state = game.new_match(options, rng)
    log: list[tuple[int | None, str]] = []
    for _ in range(MAX_STEPS):
        if views:
            check_views(game, state)
            # The end screen's recap shows what play hid: never while the match is played.
            if game.outcome(state) is None:
                assert game.recap(state, log) is None, game.name
        step = game.server_step(state)
        if step is not None:
            assert game.to_move(state) is None
            state = game.apply(state, SERVER, step, rng)
            log.append((SERVER, step))
            continue
        seat = game.to_move(state)
        if seat is None:
            assert game.outcome(state) is not None
            return state, log
        legal = game.legal_actions(state)
        if mode == "random" and legal is not None:
            action = rnd.choice(legal)
        elif mode == "random" and rnd.random() < 0.3:
            action = game.auto_action(state, seat)  # the time-out move, as if the player left
        else:
            action = game.bot_action(game.view(state, seat))
        if legal is not None:
            assert action in legal, (game.name, action)
        game.check(state, seat, action)  # check agrees with apply
        # The log stores the canonical text; it is stable and plays the same move.
        text = game.canonical(seat, action)
        assert game.canonical(seat, text) == text
        state = game.apply(state, seat, text, rng)
        log.append((seat, text))
    raise AssertionError(f"{game.name} did not finish in {MAX_STEPS} steps")


@pytest.mark.parametrize(("name", "opts"), MATCHES, ids=[f"{n}-{o}" for n, o in MATCHES])
@pytest.mark.parametrize("mode", ["bot", "random"])
def test_matches_play_to_the_end_and_their_logs_replay_to_the_same_state(name, opts, mode):
    game = games.get(name)
    assert isinstance(game, Game)
    options = game.parse_options(opts)
    assert game.parse_options(game.options_to_dict(options)) == options
    i = MATCHES.index((name, opts)) * 2 + (mode == "random")
    players = game.options_to_dict(options)["players"]
    final, log = play(game, options, source(game, i, players), random.Random(i), mode, False)

    again = replay(game, options, source(game, i, players), log)
    assert game.to_json(again) == game.to_json(final)
    assert game.outcome(again) == game.outcome(final)
    assert game.from_json(game.to_json(final)) == final

    outcome = game.outcome(final)
    assert isinstance(outcome, Outcome)
    assert sum(outcome.shares.values(), Fraction(0)) == 1
    assert sorted(s for unit in outcome.teams for s in unit) == list(range(players))
    assert outcome.places[0][0] == 1
    assert json.loads(json.dumps(outcome.to_dict())) == outcome.to_dict()
    recap = game.recap(final, log)
    assert recap is None or json.loads(json.dumps(recap)) == recap
    # Every action in the log is one the contract lets a table record: a server action only
    # from the server or for a seat's time-out.
    for seat, action in log:
        kind = action.split()[0]
        if seat is SERVER:
            assert kind in game.SERVER_ACTIONS


@pytest.mark.parametrize(("name", "opts"), [MATCHES[2], MATCHES[6], MATCHES[8], MATCHES[9]])
def test_no_view_shows_another_seats_cards(name, opts):
    game = games.get(name)
    options = game.parse_options(opts)
    players = game.options_to_dict(options)["players"]
    play(game, options, source(game, 99, players), random.Random(99), "bot", True)


@pytest.mark.parametrize("name", games.NAMES)
def test_refusals_are_one_type_with_words_in_both_languages(name):
    game = games.get(name)
    options = game.parse_options({})
    state = game.new_match(options, source(game, 7, game.options_to_dict(options)["players"]))
    seat = game.to_move(state)
    other = (seat + 1) % game.options_to_dict(options)["players"]
    for bad_seat, action in ((other, game.bot_action(game.view(state, seat))), (seat, "fly away")):
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, bad_seat, action, None)
        assert refused.value.code in ("not_your_turn", "bad_action")
        assert refused.value.message("ar") != refused.value.message("en")
        assert refused.value.message("en")
    # The state was not changed by the refusals (states are values).
    assert game.to_move(state) == seat


@pytest.mark.parametrize("name", games.NAMES)
def test_bad_options_are_refused_with_a_clear_code(name):
    from games.contract import BadOptions

    game = games.get(name)
    for bad in ({"players": 7}, {"players": True}, {"players": "4"}, {"no_such_option": 1}):
        with pytest.raises(BadOptions) as refused:
            game.parse_options(bad)
        assert refused.value.code
        assert refused.value.message("ar") and refused.value.message("en")


@pytest.mark.parametrize(("name", "opts"), MATCHES, ids=[f"{n}-{o}" for n, o in MATCHES])
def test_table_facts_come_from_the_game(name, opts):
    game = games.get(name)
    options = game.parse_options(opts)
    players = game.options_to_dict(options)["players"]
    units = game.teams(options)
    assert sorted(s for unit in units for s in unit) == list(range(players))
    assert 10 <= game.turn_seconds(options) <= 60
    state = game.new_match(options, source(game, 5, players))
    assert isinstance(game.team_chat_open(state), bool)
    with pytest.raises(IllegalAction):
        game.canonical(0, "fly away")


def test_an_unknown_game_is_refused():
    with pytest.raises(games.UnknownGame):
        games.get("chess")


@pytest.mark.parametrize("name", games.NAMES)
def test_the_view_check_catches_a_leaked_hand(name, monkeypatch):
    # The check above must be able to fail: a view that carries the next seat's hand is caught.
    game = games.get(name)
    options = game.parse_options({})
    state = game.new_match(options, source(game, 3, game.options_to_dict(options)["players"]))
    check_views(game, state)
    real_view = game.view

    def leaky(state: Any, seat: int) -> dict:
        v = real_view(state, seat)
        v["debug"] = real_view(state, (seat + 1) % v["players"])["hand"]
        return v

    monkeypatch.setattr(game, "view", leaky)
    with pytest.raises(AssertionError):
        check_views(game, state)
