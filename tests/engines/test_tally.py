"""Each engine's ``tally``: what one action adds to the seats' statistics (docs/standing.md),
checked on the rules' own scenario positions and, over whole bot-played matches, against what
the final state itself says (a Hand match's round scores add up to its totals; a Jakaro
winner's team has every marble home)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

import games
from fairness.core import RandomSource
from games.jakaro import scenario as jakaro_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def first_step(name: str):
    data = json.loads((SCENARIOS / "jakaro" / f"{name}.json").read_text())
    state, rng = jakaro_scenario.build(data["position"])
    step = data["steps"][0]
    after = jakaro_scenario.step(state, step["seat"], step["action"], rng)
    return games.get("jakaro").tally(state, after)


def test_a_king_counts_each_marble_of_another_seat_it_knocks_out():
    # From 5 to 18: an opponent on 8, the partner on 10, its own on 12, an opponent on 18.
    assert first_step("08_king_knocks_out_everything_it_passes") == {
        0: {"knock_outs": 3},
        1: {"knocked_out": 1},
        2: {"knocked_out": 1},
        3: {"knocked_out": 1},
    }


def test_coming_out_onto_another_colour_is_a_knock_out():
    assert first_step("05_coming_out_knocks_out_another_colour") == {
        0: {"knock_outs": 1},
        3: {"knocked_out": 1},
    }


def test_a_tens_burn_is_counted_for_the_next_seat():
    assert first_step("19_ten_burns_a_random_card") == {1: {"burned": 1}}


def test_a_marble_brought_home_counts_for_the_seat_that_moved_it():
    # Seat 0, home already, brings its partner's last marble in.
    assert first_step("50_four_players_win_with_eight_home") == {0: {"home": 1}}


def selfplay(game: str, options: dict):
    engine = games.get(game)
    rng = RandomSource(secrets.token_bytes(32), game, "tally")
    state = engine.new_match(engine.parse_options(options), rng)
    totals: dict[int, dict[str, int]] = {}
    while engine.outcome(state) is None:
        text = engine.server_step(state)
        seat = None if text is not None else engine.to_move(state)
        if text is None:
            text = engine.bot_action(engine.view(state, seat))
        new = engine.apply(state, seat, text, rng)
        for s, row in engine.tally(state, new).items():
            for key, n in row.items():
                totals.setdefault(s, {}).setdefault(key, 0)
                totals[s][key] += n
        state = new
    return state, totals


@pytest.mark.parametrize("players", [2, 3])
def test_hand_round_scores_add_up_to_the_match_totals(players):
    state, totals = selfplay("hand", {"players": players, "rounds": 2})
    rounds = len(state.history)
    for seat in range(players):
        assert totals[seat]["rounds"] == rounds
        assert totals[seat]["round_score"] == state.totals[seat]
    assert sum(t.get("rounds_won", 0) for t in totals.values()) <= rounds
    assert sum(t.get("opened_first", 0) for t in totals.values()) <= rounds
    assert sum(t.get("hands", 0) for t in totals.values()) <= rounds


def test_jakaro_winners_brought_every_marble_home():
    state, totals = selfplay("jakaro", {"players": 2})
    winner = state.winner
    assert totals[winner]["home"] >= 4
    made = sum(t.get("knock_outs", 0) for t in totals.values())
    assert made == sum(t.get("knocked_out", 0) for t in totals.values())
