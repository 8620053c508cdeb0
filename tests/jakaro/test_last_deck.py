"""The last deck of a finished match (games/jakaro/last_deck.py, ``recap``): what the end screen
shows once nothing is hidden any more. It is read from the final state and the log alone; these
tests check it against an independent account, a replay from the match's random source that
notes each action's deck and the packets each deck's shuffle dealt."""

from __future__ import annotations

import json
import random

import pytest

import games
from fairness.core import JAKARO_DECK, RandomSource
from games.jakaro import engine
from games.jakaro.engine import DEAL_SCHEDULE, sort_hand

from .helpers import position

GAME = games.get("jakaro")


def played_match(players: int, i: int, mode: str):
    """A match played to the end (bots, or random legal moves); its final state, log, source,
    and whether ``recap`` stayed None at every step before the end."""
    rng = RandomSource(bytes([i + 7]) * 32, "jakaro", f"last-deck-{i}", {0: f"seed{i}"})
    rnd = random.Random(i)
    state = GAME.new_match(GAME.parse_options({"players": players}), rng)
    log: list[tuple[int, str]] = []
    hidden = True
    while GAME.to_move(state) is not None:
        hidden = hidden and GAME.recap(state, log) is None
        seat = GAME.to_move(state)
        if mode == "random":
            action = rnd.choice(GAME.legal_actions(state))
        else:
            action = GAME.bot_action(GAME.view(state, seat))
        action = GAME.canonical(seat, action)
        state = GAME.apply(state, seat, action, rng)
        log.append((seat, action))
    return state, log, rng, hidden


def oracle(players: int, rng: RandomSource, log: list[tuple[int, str]]):
    """The last deck by replay: the actions played while the final deck was in play (with what
    each Ten burned, from the state's ``last``), and the cards its packets dealt each seat, from
    the deck's own shuffle and the deal schedule."""
    state = GAME.new_match(GAME.parse_options({"players": players}), rng)
    steps = []
    for seat, action in log:
        deck = state.deck_no
        state = GAME.apply(state, seat, action, rng)
        steps.append((deck, seat, action, state.last[2] or None))
    moves = [(s, a, b) for deck, s, a, b in steps if deck == state.deck_no]
    shuffled = rng.deck(f"deal/{state.deck_no}")
    dealt: list[list[str]] = [[] for _ in range(players)]
    at = 0
    for k in range(state.deal_no):
        for j in range(DEAL_SCHEDULE[players][k] * players):
            dealt[(state.dealer + 1 + j) % players].append(shuffled[at])
            at += 1
    return state, moves, [list(sort_hand(d)) for d in dealt]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", ["bot", "random"])
@pytest.mark.parametrize("i", range(4))
def test_the_recap_is_the_last_decks_moves_and_the_cards_it_dealt(players, mode, i):
    final, log, rng, hidden = played_match(players, i, mode)
    assert hidden, "a match being played has no recap: the hands are hidden"
    recap = GAME.recap(final, log)
    assert recap is not None and json.loads(json.dumps(recap)) == recap
    replayed, moves, dealt = oracle(players, rng, log)
    assert GAME.to_json(replayed) == GAME.to_json(final)
    assert [(m["seat"], m["action"], m["burned"]) for m in recap["moves"]] == moves
    for m in recap["moves"]:
        assert m["card"] == m["action"].split()[1]
        assert m["victim"] == ((m["seat"] + 1) % players if m["burned"] else None)
    assert recap["dealt"] == dealt
    assert recap["kept"] == [list(h) for h in final.hands]
    assert recap["deck_no"] == final.deck_no and recap["dealer"] == final.dealer
    assert recap["undealt"] == len(final.deck) == 52 - sum(len(d) for d in dealt)
    # Only the log's last actions are read: an older log in front changes nothing.
    assert GAME.recap(final, [(0, "discard 2S"), *log]) == recap


def finish_with_a_burn_and_a_discard():
    """Two players, deck 1 just dealt (five cards each): Sara burns a card of Ali's with her
    Ten, Ali has no move and throws a card away, Sara's Three takes her last marble home."""
    rest = [c for c in JAKARO_DECK if c not in ("10S", "3S", "9C", "QH", "KH")]
    rest = [c for c in rest if c not in ("2D", "3D", "4D", "6D", "8D")]
    state, rng = position(
        {0: ["H1", "H2", "H3", 73], 1: ["base"] * 4},
        {0: ["10S", "3S", "9C", "QH", "KH"], 1: ["2D", "3D", "4D", "6D", "8D"]},
        players=2,
        turn=0,
        deal_no=1,
        dealer=1,
        deck=rest,
    )
    log = []
    for seat, action in ((0, "burn10 10S"), (1, None), (0, "move 3S m3")):
        if action is None:
            action = engine.legal_actions(state)[0]
            assert action.startswith("discard ")
        state = engine.apply(state, seat, action, rng)
        log.append((seat, action))
    return state, log


def test_a_burn_names_its_card_and_victim_and_a_discard_is_a_move():
    final, log = finish_with_a_burn_and_a_discard()
    assert final.winner == 0
    recap = GAME.recap(final, log)
    burned = final.discard[1]
    assert recap["moves"] == [
        {"seat": 0, "action": "burn10 10S", "card": "10S", "burned": burned, "victim": 1},
        {"seat": 1, "action": log[1][1], "card": log[1][1].split()[1], "burned": None,
         "victim": None},
        {"seat": 0, "action": "move 3S m3", "card": "3S", "burned": None, "victim": None},
    ]  # fmt: skip
    assert recap["dealt"] == [
        list(sort_hand(["10S", "3S", "9C", "QH", "KH"])),
        list(sort_hand(["2D", "3D", "4D", "6D", "8D"])),
    ]
    assert recap["kept"] == [["QH", "KH", "9C"], list(final.hands[1])]
    assert recap["undealt"] == 42


def test_no_recap_while_playing_nor_from_a_log_that_does_not_explain_the_pile():
    final, log = finish_with_a_burn_and_a_discard()
    # A log that is not this pile's: too short, another card, the Ten not a burn.
    assert GAME.recap(final, log[1:]) is None
    assert GAME.recap(final, [*log[:2], (0, "move 9C m3")]) is None
    assert GAME.recap(final, [(0, "move 10S m3"), *log[1:]]) is None
    assert GAME.recap(final, [(None, "burn10 10S"), *log[1:]]) is None
    # A position set by hand whose pile no deal explains (a scripted test position).
    scripted, rng = position(
        {0: ["H1", "H2", "H3", 73], 1: [50, "base", "base", "base"]},
        {0: ["3S", "9C"], 1: ["3D", "4D"]},
        players=2,
        discard=["QH", "2S"],
    )
    ended = engine.apply(scripted, 0, "move 3S m3", rng)
    assert ended.winner == 0
    # (its log explains the pile, but no deal gives 3 cards each after all six packets)
    assert GAME.recap(ended, [(0, "move QH m0"), (1, "discard 2S"), (0, "move 3S m3")]) is None
    # Before the end: nothing, whatever the log.
    start, _rng = position({0: [10, "base", "base", "base"]}, {0: ["3S"]}, players=2)
    assert GAME.recap(start, []) is None
