"""One test (or a few) per rule of rules/jakaro.txt and per decision in docs/rules/jakaro.md.

Board reminders (four players): starts are 0, 19, 38, 57 for seats 0..3; seat 0 enters its home
from square 75; two players use starts 0 (seat 0) and 38 (seat 1).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from fairness.core import JAKARO_DECK, RandomSource
from games.jakaro import engine
from games.jakaro.board import start_square
from games.jakaro.engine import STARTS, Options, apply, legal_actions, new_match, view
from games.jakaro.messages import MESSAGES
from games.messages import COMMON

from .helpers import marbles_of, position, refused_code

# --- the board and the deal ---------------------------------------------------------------


def test_geometry_starts_and_two_player_seats() -> None:
    assert STARTS[4] == (0, 19, 38, 57)
    assert STARTS[2] == (0, 38)  # two players sit opposite: seat 1 plays the colour at 38
    assert [start_square(4, s) for s in range(4)] == [0, 19, 38, 57]


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_home_is_entered_from_the_square_before_the_start(seat: int) -> None:
    before = (start_square(4, seat) - 1) % 76
    st, rng = position({seat: [before, "base", "base", "base"]}, {seat: ["AS"]}, turn=seat)
    st = apply(st, seat, "move AS m0 1", rng)
    assert marbles_of(st, seat)[0] == "H0"


def _dealt(deck: list[str], dealer: int, players: int, k: int) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(k * players):
        hands[(dealer + 1 + i) % players].append(deck[i])
    return [sorted(h, key=JAKARO_DECK.index) for h in hands]


def _play_until(st, rng, stop):
    from games.jakaro.bot import auto_action

    while not stop(st):
        st = apply(st, st.turn, auto_action(st, st.turn), rng)
    return st


def test_four_player_deal_5_4_4_then_new_deck_and_next_dealer() -> None:
    rng = RandomSource(b"\x01" * 32, "jakaro", "deal-test")
    st = new_match(Options(4), rng)
    deck = rng.deck("deal/1")
    assert st.dealer == 3 and st.turn == 0 and st.deck_no == 1
    assert [list(h) for h in st.hands] == _dealt(deck, 3, 4, 5)
    assert st.deck == tuple(deck[20:])
    sizes = [5]
    deal_no = st.deal_no
    while st.deck_no == 1 or st.deal_no < 1:
        st = _play_until(
            st, rng, lambda s, d=deal_no, n=st.deck_no: (s.deal_no, s.deck_no) != (d, n)
        )
        deal_no = st.deal_no
        if st.deck_no == 1:
            sizes.append(len(st.hands[0]))
            assert st.turn == 0  # the player after the dealer starts every deal of the deck
    assert sizes == [5, 4, 4]
    # The whole deck was dealt, then deck 2 (purpose deal/2) is dealt by the next dealer.
    assert st.deck_no == 2 and st.dealer == 0 and st.turn == 1 and st.discard == ()
    assert [list(h) for h in st.hands] == _dealt(rng.deck("deal/2"), 0, 4, 5)


def test_two_player_deal_5_4_4_4_4_5() -> None:
    rng = RandomSource(b"\x02" * 32, "jakaro", "deal-2p")
    st = new_match(Options(2), rng)
    assert [len(h) for h in st.hands] == [5, 5] and st.turn == 0 and st.dealer == 1
    sizes = [5]
    while st.deck_no == 1:
        key = (st.deal_no, st.deck_no)
        st = _play_until(st, rng, lambda s, k=key: (s.deal_no, s.deck_no) != k)
        if st.deck_no == 1:
            sizes.append(len(st.hands[0]))
    assert sizes == [5, 4, 4, 4, 4, 5]
    assert st.dealer == 0 and st.turn == 1


# --- Ace and King: coming out ---------------------------------------------------------------


def test_ace_brings_out_and_moves_1_or_11() -> None:
    st, rng = position({}, {0: ["AS"]})
    assert legal_actions(st) == ["out AS"]
    st2 = apply(st, 0, "out AS", rng)
    assert marbles_of(st2, 0) == ["0", "base", "base", "base"]
    st, rng = position({0: [10, "base", "base", "base"]}, {0: ["AH"]})
    assert legal_actions(st) == ["out AH", "move AH m0 1", "move AH m0 11"]
    assert marbles_of(apply(st, 0, "move AH m0 11", rng), 0)[0] == "21"
    assert marbles_of(apply(st, 0, "move AH m0 1", rng), 0)[0] == "11"


def test_coming_out_knocks_out_another_colour_on_your_start() -> None:
    st, rng = position({1: [0, "base", "base", "base"]}, {0: ["KS"]})
    st = apply(st, 0, "out KS", rng)
    assert marbles_of(st, 0)[0] == "0" and marbles_of(st, 1)[0] == "base"
    # Even the partner's marble goes back to its base.
    st, rng = position({2: [0, "base", "base", "base"]}, {0: ["KS"]})
    assert marbles_of(apply(st, 0, "out KS", rng), 2)[0] == "base"


def test_cannot_come_out_with_own_marble_on_start_or_empty_base() -> None:
    st, rng = position({0: [0, "base", "base", "base"]}, {0: ["AS"]})
    assert refused_code(st, 0, "out AS", rng) == "start_blocked_own"
    st, rng = position({0: [5, 6, 7, 8]}, {0: ["AS"]})
    assert refused_code(st, 0, "out AS", rng) == "no_marble_in_base"
    st, rng = position({}, {0: ["QS"]})
    assert refused_code(st, 0, "out QS", rng) == "wrong_card"


# --- King: 13, knocking out everything passed ------------------------------------------------


def test_king_knocks_out_every_marble_it_passes_or_lands_on_team_included() -> None:
    marbles = {0: [5, 12, "base", "base"], 1: [8, "base", "base", "base"], 2: [10] + ["base"] * 3}
    marbles[3] = [18, "base", "base", "base"]
    st, rng = position(marbles, {0: ["KD"]})
    st = apply(st, 0, "move KD m0", rng)
    assert marbles_of(st, 0) == ["18", "base", "base", "base"]  # own marble on 12 passed: out
    for seat in (1, 2, 3):
        assert marbles_of(st, seat) == ["base"] * 4


def test_king_cannot_pass_or_land_on_a_marble_on_its_own_start() -> None:
    st, rng = position({0: [10, "base", "base", "base"], 1: [19] + ["base"] * 3}, {0: ["KD"]})
    assert refused_code(st, 0, "move KD m0", rng) == "blocked_protected"
    st, rng = position({0: [6, "base", "base", "base"], 1: [19] + ["base"] * 3}, {0: ["KD"]})
    assert refused_code(st, 0, "move KD m0", rng) == "blocked_protected"


def test_king_may_not_land_on_own_marble_but_lands_on_partner() -> None:
    st, rng = position({0: [5, 18, "base", "base"]}, {0: ["KD"]})
    assert refused_code(st, 0, "move KD m0", rng) == "land_on_own"
    st, rng = position({0: [5, "base", "base", "base"], 2: [18] + ["base"] * 3}, {0: ["KD"]})
    st = apply(st, 0, "move KD m0", rng)
    assert marbles_of(st, 2)[0] == "base" and marbles_of(st, 0)[0] == "18"


# --- Queen and plain numbers ------------------------------------------------------------------


@pytest.mark.parametrize(("card", "steps"), [("QS", 12), ("2S", 2), ("3S", 3), ("6S", 6)])
def test_plain_cards_move_forward_their_value(card: str, steps: int) -> None:
    st, rng = position({0: [3, "base", "base", "base"]}, {0: [card]})
    assert legal_actions(st) == [f"move {card} m0"]
    assert marbles_of(apply(st, 0, f"move {card} m0", rng), 0)[0] == str(3 + steps)


@pytest.mark.parametrize(("card", "steps"), [("8C", 8), ("9C", 9), ("10C", 10), ("7C", 7)])
def test_more_forward_cards(card: str, steps: int) -> None:
    st, rng = position({0: [66, "base", "base", "base"]}, {0: [card]})
    st = apply(st, 0, f"move {card} m0", rng)
    want = str(66 + steps) if 66 + steps <= 75 else f"H{66 + steps - 76}"
    assert marbles_of(st, 0)[0] == want


# --- Jack: swap ------------------------------------------------------------------------------


def test_jack_swaps_with_opponent_or_partner() -> None:
    m = {0: [10, "base", "base", "base"], 1: [25] + ["base"] * 3, 2: [40] + ["base"] * 3}
    st, rng = position(m, {0: ["JH"]})
    assert legal_actions(st) == ["swap JH m0 1:m0", "swap JH m0 2:m0"]
    after = apply(st, 0, "swap JH m0 1:m0", rng)
    assert marbles_of(after, 0)[0] == "25" and marbles_of(after, 1)[0] == "10"
    after = apply(st, 0, "swap JH m0 2:m0", rng)
    assert marbles_of(after, 0)[0] == "40" and marbles_of(after, 2)[0] == "10"


def test_jack_refuses_protected_base_home_and_own_pairs() -> None:
    m = {0: [0, 10, "H0", "base"], 1: [19, 25, "base", "base"]}
    st, rng = position(m, {0: ["JH"]})
    assert refused_code(st, 0, "swap JH m0 1:m1", rng) == "marble_protected"  # mine on my start
    assert refused_code(st, 0, "swap JH m1 1:m0", rng) == "marble_protected"  # theirs on theirs
    assert refused_code(st, 0, "swap JH m2 1:m1", rng) == "bad_swap"  # home
    assert refused_code(st, 0, "swap JH m1 1:m2", rng) == "bad_swap"  # base
    assert refused_code(st, 0, "swap JH m1 m0", rng) == "bad_swap"  # two of mine
    assert legal_actions(st) == ["swap JH m1 1:m1"]


def test_finished_players_jack_swaps_partners_marble_with_an_opponents() -> None:
    m = {0: ["H0", "H1", "H2", "H3"], 1: [25] + ["base"] * 3, 2: [40] + ["base"] * 3}
    st, rng = position(m, {0: ["JH"]})
    assert legal_actions(st) == ["swap JH 2:m0 1:m0"]
    after = apply(st, 0, "swap JH 2:m0 1:m0", rng)
    assert marbles_of(after, 2)[0] == "25" and marbles_of(after, 1)[0] == "40"


# --- Ten: 10 or burn ------------------------------------------------------------------------


def test_ten_burns_a_random_card_of_the_next_player_from_burn_k() -> None:
    hands = {0: ["10D", "2S"], 1: ["AS", "5H", "9C"], 2: ["3C"], 3: ["4C"]}
    st, rng = position({}, hands)
    assert "burn10 10D" in legal_actions(st)
    after = apply(st, 0, "burn10 10D", rng)
    burned = ["AS", "5H", "9C"][rng.below(3, "burn/1")]  # index into the hand in deck order
    assert burned not in after.hands[1] and len(after.hands[1]) == 2
    assert after.discard[-2:] == ("10D", burned) and after.burn_no == 1
    assert after.hands[0] == ("2S",) and after.turn == 1
    # The burned card is shown face up to everyone.
    assert view(after, 3)["last"] == {"seat": 0, "action": "burn10 10D", "burned": burned}
    # The k-th burn of the match uses burn/k.
    st, rng = position({}, hands, burn_no=4)
    after = apply(st, 0, "burn10 10D", rng)
    assert after.discard[-1] == ["AS", "5H", "9C"][rng.below(3, "burn/5")]


def test_ten_cannot_burn_an_empty_hand_and_burning_counts_as_a_move() -> None:
    st, rng = position({}, {0: ["10D", "3S"], 1: []})
    assert refused_code(st, 0, "burn10 10D", rng) == "nothing_to_burn"
    assert legal_actions(st) == ["discard 3S", "discard 10D"]  # hand in deck order
    st, rng = position({}, {0: ["10D", "3S"], 1: ["2C"]})
    assert legal_actions(st) == ["burn10 10D"]
    assert refused_code(st, 0, "discard 3S", rng) == "must_play"
    st, rng = position({0: [3, "base", "base", "base"]}, {0: ["10D"], 1: ["2C"]})
    assert legal_actions(st) == ["move 10D m0", "burn10 10D"]


# --- Seven: one marble or split ------------------------------------------------------------


def test_seven_single_or_split_between_two_marbles() -> None:
    st, rng = position({0: [10, 30, "base", "base"]}, {0: ["7D"]})
    legal = legal_actions(st)
    # 2 single moves + 2 orders x 6 ways to cut 7 (nothing in the way): 14, enumerated by hand.
    assert len(legal) == 14 and legal[:2] == ["move 7D m0", "move 7D m1"]
    after = apply(st, 0, "split 7D m0 3 m1 4", rng)
    assert marbles_of(after, 0)[:2] == ["13", "34"]
    assert refused_code(st, 0, "split 7D m0 3 m1 3", rng) == "bad_split"
    assert refused_code(st, 0, "split 7D m0 3 m0 4", rng) == "bad_split"
    assert refused_code(st, 0, "split 7D m0 0 m1 7", rng) == "bad_split"


def test_split_seven_knocks_out_where_each_part_lands_not_what_it_passes() -> None:
    m = {0: [10, 30, "base", "base"], 1: [12, 13, "base", "base"]}
    st, rng = position(m, {0: ["7D"]})
    after = apply(st, 0, "split 7D m0 3 m1 4", rng)
    assert marbles_of(after, 1)[:2] == ["12", "base"]
    assert marbles_of(after, 0)[:2] == ["13", "34"]


def test_split_seven_parts_play_in_the_written_order() -> None:
    st, rng = position({0: [10, 13, "base", "base"]}, {0: ["7D"]})
    assert refused_code(st, 0, "split 7D m0 3 m1 4", rng) == "land_on_own"
    after = apply(st, 0, "split 7D m1 4 m0 3", rng)
    assert marbles_of(after, 0)[:2] == ["13", "17"]


def test_seven_finishing_your_last_marble_goes_on_with_your_partner() -> None:
    m = {0: [73, "H1", "H2", "H3"], 2: [40] + ["base"] * 3}
    st, rng = position(m, {0: ["7D"]})
    assert "split 7D m0 3 2:m0 4" in legal_actions(st)
    assert refused_code(st, 0, "split 7D m0 3 m1 4", rng) == "not_your_marble"
    after = apply(st, 0, "split 7D m0 3 2:m0 4", rng)
    assert marbles_of(after, 0)[0] == "H0" and marbles_of(after, 2)[0] == "44"


def test_seven_must_be_used_whole() -> None:
    st, _ = position({0: [73, "H1", "H2", "H3"]}, {0: ["7D"]})
    assert legal_actions(st) == ["discard 7D"]


# --- Five: anyone's marble ------------------------------------------------------------------


def test_five_moves_own_partner_or_opponent_marble() -> None:
    m = {0: [10, "base", "base", "base"], 1: [25] + ["base"] * 3, 2: [40] + ["base"] * 3}
    st, rng = position(m, {0: ["5S"]})
    assert legal_actions(st) == ["move 5S m0", "move 5S 1:m0", "move 5S 2:m0"]
    assert marbles_of(apply(st, 0, "move 5S 1:m0", rng), 1)[0] == "30"
    assert marbles_of(apply(st, 0, "move 5S 2:m0", rng), 2)[0] == "45"


def test_five_never_moves_a_marble_on_its_own_start_not_even_its_owners() -> None:
    m = {0: [0, 10, "base", "base"], 1: [19] + ["base"] * 3, 2: [38] + ["base"] * 3}
    st, rng = position(m, {0: ["5S", "4S"]})
    assert refused_code(st, 0, "move 5S 1:m0", rng) == "marble_protected"
    assert refused_code(st, 0, "move 5S 2:m0", rng) == "marble_protected"
    assert refused_code(st, 0, "move 5S m0", rng) == "marble_protected"  # decision 4
    assert [a for a in legal_actions(st) if a.startswith("move 5S")] == ["move 5S m1"]
    # Other cards still move the owner's marble off its start: the Four's short cut.
    assert marbles_of(apply(st, 0, "back 4S m0", rng), 0)[0] == "72"
    # A finished player plays its partner's colour, and still cannot Five it off its start.
    m = {0: ["H0", "H1", "H2", "H3"], 2: [38, 40, "base", "base"]}
    st, rng = position(m, {0: ["5S"]})
    assert refused_code(st, 0, "move 5S 2:m0", rng) == "marble_protected"
    assert legal_actions(st) == ["move 5S 2:m1"]


def test_opponents_five_pushes_a_marble_past_its_home_partner_five_takes_it_in() -> None:
    m = {1: [17] + ["base"] * 3, 2: [35] + ["base"] * 3}  # both two squares before their entry
    st, rng = position(m, {0: ["5S"]})
    assert marbles_of(apply(st, 0, "move 5S 1:m0", rng), 1)[0] == "22"  # round again
    assert marbles_of(apply(st, 0, "move 5S 2:m0", rng), 2)[0] == "H2"  # 74, 75, H0, H1, H2


def test_five_cannot_land_on_the_moved_marbles_colour_but_knocks_others() -> None:
    st, rng = position({1: [25, 30, "base", "base"]}, {0: ["5S"]})
    assert refused_code(st, 0, "move 5S 1:m0", rng) == "land_on_own"
    st, rng = position({0: [30, "base", "base", "base"], 1: [25] + ["base"] * 3}, {0: ["5S"]})
    after = apply(st, 0, "move 5S 1:m0", rng)
    assert marbles_of(after, 0)[0] == "base" and marbles_of(after, 1)[0] == "30"


def test_five_cannot_move_base_or_home_marbles() -> None:
    st, rng = position({1: ["H0", "base", 30, "base"]}, {0: ["5S"]})
    assert refused_code(st, 0, "move 5S 1:m0", rng) == "marble_home"
    assert refused_code(st, 0, "move 5S 1:m1", rng) == "marble_in_base"


# --- Four: backwards and the short cut ------------------------------------------------------


def test_four_moves_back_and_from_the_start_is_the_short_cut() -> None:
    st, rng = position({0: [10, "base", "base", "base"]}, {0: ["4S"]})
    assert marbles_of(apply(st, 0, "back 4S m0", rng), 0)[0] == "6"
    st, rng = position({0: [0, "base", "base", "base"]}, {0: ["4S", "5S"], 1: ["2C"]})
    st = apply(st, 0, "back 4S m0", rng)
    assert marbles_of(st, 0)[0] == "72"  # four squares before the home column
    st = engine.replace(st, turn=0)
    assert marbles_of(apply(st, 0, "move 5S m0", rng), 0)[0] == "H1"  # 73, 74, 75, H0, H1


def test_four_is_blocked_by_protected_marbles_and_own_landing() -> None:
    st, rng = position({0: [21, "base", "base", "base"], 1: [19] + ["base"] * 3}, {0: ["4S"]})
    assert refused_code(st, 0, "back 4S m0", rng) == "blocked_protected"
    st, rng = position({0: [2, 0, "base", "base"]}, {0: ["4S"]})
    assert refused_code(st, 0, "back 4S m0", rng) == "blocked_protected"  # own start, too
    st, rng = position({0: [10, 6, "base", "base"]}, {0: ["4S"]})
    assert refused_code(st, 0, "back 4S m0", rng) == "land_on_own"
    st, rng = position({0: [10, "base", "base", "base"], 3: [6] + ["base"] * 3}, {0: ["4S"]})
    assert marbles_of(apply(st, 0, "back 4S m0", rng), 3)[0] == "base"
    st, rng = position({0: ["H1", "base", "base", "base"]}, {0: ["4S"]})
    assert refused_code(st, 0, "back 4S m0", rng) == "marble_home"


# --- Knocking out and the start square ------------------------------------------------------


def test_landing_knocks_out_even_partner_and_passing_does_not() -> None:
    m = {0: [10, 12, "base", "base"], 1: [11] + ["base"] * 3, 2: [13] + ["base"] * 3}
    st, rng = position(m, {0: ["3S"]})
    after = apply(st, 0, "move 3S m0", rng)
    assert marbles_of(after, 0)[:2] == ["13", "12"]  # passing your own marble is allowed
    assert marbles_of(after, 1)[0] == "11"  # passed: stays
    assert marbles_of(after, 2)[0] == "base"  # landed on: partner goes home to base


def test_cannot_land_on_own_or_pass_a_protected_marble() -> None:
    st, rng = position({0: [10, 13, "base", "base"]}, {0: ["3S"]})
    assert refused_code(st, 0, "move 3S m0", rng) == "land_on_own"
    st, rng = position({0: [17, "base", "base", "base"], 1: [19] + ["base"] * 3}, {0: ["3S"]})
    assert refused_code(st, 0, "move 3S m0", rng) == "blocked_protected"
    st, rng = position({0: [16, "base", "base", "base"], 1: [19] + ["base"] * 3}, {0: ["3S"]})
    assert refused_code(st, 0, "move 3S m0", rng) == "blocked_protected"


def test_a_marble_on_another_colours_start_is_not_protected() -> None:
    st, rng = position({0: [16, "base", "base", "base"], 2: [19] + ["base"] * 3}, {0: ["3S"]})
    assert marbles_of(apply(st, 0, "move 3S m0", rng), 2)[0] == "base"


# --- Home ------------------------------------------------------------------------------------


def test_home_needs_an_exact_count_and_no_jumping() -> None:
    st, rng = position({0: [74, "H1", "base", "base"]}, {0: ["2S", "3S", "5S", "6S"]})
    assert marbles_of(apply(st, 0, "move 2S m0", rng), 0)[0] == "H0"
    assert refused_code(st, 0, "move 3S m0", rng) == "home_blocked"  # lands on H1
    assert refused_code(st, 0, "move 5S m0", rng) == "home_blocked"  # would jump H1
    assert refused_code(st, 0, "move 6S m0", rng) == "overshoot_home"  # past H3


def test_a_marble_at_its_entry_must_go_in_not_round_again() -> None:
    st, rng = position({0: [74, "base", "base", "base"]}, {0: ["3S"]})
    assert marbles_of(apply(st, 0, "move 3S m0", rng), 0)[0] == "H1"


def test_marbles_in_home_move_on_inside_it() -> None:
    st, rng = position({0: ["H0", "H3", "base", "base"]}, {0: ["AS", "2S", "3S"]})
    assert "move AS m0 1" in legal_actions(st) and "move 2S m0" in legal_actions(st)
    assert marbles_of(apply(st, 0, "move 2S m0", rng), 0)[0] == "H2"
    assert refused_code(st, 0, "move 3S m0", rng) == "home_blocked"


# --- Burning a card of your choice ----------------------------------------------------------


def test_with_no_legal_move_you_burn_a_card_of_your_choice() -> None:
    st, rng = position({}, {0: ["2S", "3H"], 1: ["4C"]})
    assert legal_actions(st) == ["discard 2S", "discard 3H"]
    after = apply(st, 0, "discard 3H", rng)
    assert after.hands[0] == ("2S",) and after.discard[-1] == "3H" and after.turn == 1
    st, rng = position({}, {0: ["AS", "3H"], 1: ["4C"]})
    assert refused_code(st, 0, "discard 3H", rng) == "must_play"


# --- When you have finished, winning --------------------------------------------------------


def test_finished_player_moves_partners_marbles_and_brings_them_out() -> None:
    st, rng = position(
        {0: ["H0", "H1", "H2", "H3"], 2: [40, "base", "base", "base"]}, {0: ["AS", "8H"]}
    )
    assert view(st, 0)["controls"] == 2
    assert legal_actions(st) == ["out AS", "move AS 2:m0 1", "move AS 2:m0 11", "move 8H 2:m0"]
    after = apply(st, 0, "out AS", rng)
    assert marbles_of(after, 2) == ["40", "38", "base", "base"]


def test_four_players_win_with_all_eight_home() -> None:
    m = {0: ["H0", "H1", "H2", "H3"], 2: [35, "H1", "H2", "H3"], 1: [20] + ["base"] * 3}
    st, rng = position(m, {0: ["3S", "2S"], 1: ["4C"]})
    after = apply(st, 0, "move 3S 2:m0", rng)
    assert after.winner == 0 and after.turn is None and legal_actions(after) == []
    assert refused_code(after, 0, "move 2S 2:m0", rng) == "match_over"
    # Only one partner home is not a win.
    st, rng = position({0: [73, "H1", "H2", "H3"]}, {0: ["3S"], 1: ["4C"]})
    assert apply(st, 0, "move 3S m0", rng).winner is None


def test_two_players_first_with_four_home_wins() -> None:
    st, rng = position({1: [36, "H1", "H2", "H3"]}, {1: ["2S"], 0: ["3C"]}, players=2, turn=1)
    after = apply(st, 1, "move 2S m0", rng)
    assert after.winner == 1
    st, rng = position({}, {1: ["AS"]}, players=2, turn=1)
    assert marbles_of(apply(st, 1, "out AS", rng), 1)[0] == "38"


# --- Refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("fly AS", "bad_action"),
        ("move ZZ m0", "bad_action"),
        ("move AS m0", "bad_action"),  # the Ace needs a count
        ("move 3S m9", "bad_action"),
        ("move 3S 7:m0", "bad_action"),
        ("move 3S m0 4", "wrong_card"),
        ("move 4S m0", "wrong_card"),
        ("back 3S m0", "wrong_card"),
        ("split 3S m0 3 m1 4", "wrong_card"),
        ("swap 3S m0 1:m0", "wrong_card"),
        ("burn10 3S", "wrong_card"),
        ("move 9D m0", "card_not_in_hand"),
        ("move 3S m1", "marble_in_base"),
        ("move 3S 1:m0", "not_your_marble"),
    ],
)
def test_bad_actions_are_refused_with_a_stable_code(action: str, code: str) -> None:
    st, rng = position({0: [10, "base", "base", "base"], 1: [30] + ["base"] * 3}, {0: ["3S"]})
    assert refused_code(st, 0, action, rng) == code


@pytest.mark.parametrize(
    "action",
    [
        "move 3S m\u00b2",  # a superscript two: str.isdigit() says yes, int() says no
        "move 3S m0 \u00b2",
        "move 3S \u00b2:m0",
        "split 3S m0 \u00b3 m1 4",
        "move 3S m\u0663",  # Arabic-Indic digits are not the canonical text either
        "move 3S \u0661:m0",
        "move 3S m0 \u0663",
    ],
)
def test_non_ascii_digits_are_refused_not_a_crash(action: str) -> None:
    st, rng = position({0: [10, 20, 30, 40], 1: [50] + ["base"] * 3}, {0: ["3S"]})
    assert refused_code(st, 0, action, rng) == "bad_action"


# Tokens a client (or a fuzzer) might send: canonical ones, near misses, and digits that
# str.isdigit() accepts but int() does not (superscripts) or that are not canonical (Arabic-Indic).
_TOKENS = ["m0", "m1", "m3", "m4", "1:m0", "9:m0", ":m0", "m", "M0", "0", "1", "3", "4", "7"]
_TOKENS += ["11", "13", "-1", "01", "1.0", "\u00b2", "m\u00b2", "\u00b2:m0", "\u0663", "\x00"]
_KINDS = hst.sampled_from([*engine.KINDS, "fly", "MOVE", ""])
_CARDS = hst.sampled_from(["3S", "AS", "7D", "10D", "JH", "2C", "as", "1S", "\uff13S", "S", "10"])


@settings(max_examples=400, deadline=None)
@given(
    hst.tuples(_KINDS, _CARDS, hst.lists(hst.sampled_from(_TOKENS), max_size=5))
    | hst.text(max_size=24)
)
def test_any_action_text_is_applied_or_refused_with_a_known_code(drawn) -> None:
    text = drawn if isinstance(drawn, str) else " ".join([drawn[0], drawn[1], *drawn[2]])
    state, rng = position(
        {0: [10, 20, "base", "H0"], 1: [50] + ["base"] * 3},
        {0: ["3S", "AS", "7D", "10D", "JH"], 1: ["2C"]},
    )
    try:
        apply(state, 0, text, rng)
    except engine.IllegalAction as exc:
        assert exc.code in MESSAGES or exc.code in COMMON
        assert exc.message("ar") and exc.message("en")


def test_out_of_turn_and_unknown_marbles_are_refused() -> None:
    st, rng = position({0: [10, "base", "base", "base"]}, {0: ["3S"], 1: ["3H"]})
    assert refused_code(st, 1, "move 3H m0", rng) == "not_your_turn"
    st, rng = position({}, {0: ["5S"]}, players=2)
    assert refused_code(st, 0, "move 5S 3:m0", rng) == "unknown_marble"


def test_every_code_the_engine_can_raise_has_arabic_and_english_words() -> None:
    src = Path(engine.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'return "([a-z_]+)"', src))
    codes |= set(re.findall(r'IllegalAction\("([a-z_]+)"', src))
    assert len(codes) >= 15
    assert codes <= set(MESSAGES) | set(COMMON)
    assert not set(MESSAGES) & set(COMMON)  # shared codes have one wording, in COMMON
    for code, words in MESSAGES.items():
        assert words["ar"] and words["en"], code


def test_engine_imports_no_django() -> None:
    pkg = Path(engine.__file__).parent
    for f in pkg.glob("*.py"):
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(django|channels|celery)\b", text, re.M), f


def test_malformed_action_objects_are_refused_too() -> None:
    st, rng = position({0: [10, "base", "base", "base"]}, {0: ["3S"]})
    assert refused_code(st, 0, engine.Action(0, "move", "3S"), rng) == "bad_action"
    assert refused_code(st, 0, engine.Action(1, "move", "3S", (4,), (3,)), rng) == "not_your_turn"
    assert apply(st, 0, engine.Action(0, "move", "3S", (0,), (3,)), rng).marbles[0] == 13


def test_an_action_object_that_says_more_than_its_text_is_refused_not_reinterpreted() -> None:
    # Its text drops the count of a plain card ("move 3S m0"), so a Three "moving 5" was played
    # as a Three moving 3: the engine must refuse what it was asked, not play something else.
    st, rng = position({0: [10, "base", "base", "base"]}, {0: ["3S", "AS", "JH"]})
    assert refused_code(st, 0, engine.Action(0, "move", "3S", (0,), (5,)), rng) == "bad_action"
    assert refused_code(st, 0, engine.Action(0, "move", "3s", (0,), (3,)), rng) == "bad_action"
    assert refused_code(st, 0, engine.Action(0, "out", "AS", (1,)), rng) == "bad_action"
    assert refused_code(st, 0, engine.Action(0, "back", "3S", (0,), (4,)), rng) == "bad_action"
    assert apply(st, 0, engine.Action(0, "move", "AS", (0,), (11,)), rng).marbles[0] == 21
    assert apply(st, 0, engine.Action.parse("move 3S m0", 0), rng).marbles[0] == 13


def test_an_action_text_read_again_reads_the_same_and_a_bad_one_is_refused_every_time() -> None:
    """``Action.parse`` keeps what it read per (text, seat): the same text read again, or after the
    memory is cleared, is the same action; another seat reads its own marbles; a refused text
    is refused again (never kept)."""
    first = engine.Action.parse("move 5H m1", 1)
    assert engine.Action.parse("move 5H m1", 1) == first
    assert engine.Action.parse("move 5H m1", 0) != first  # m1 is each seat's own marble 1
    engine._PARSED.clear()
    assert engine.Action.parse("move 5H m1", 1) == first
    for _ in range(2):
        with pytest.raises(engine.IllegalAction):
            engine.Action.parse("move 5H", 1)
    assert ("move 5H", 1) not in engine._PARSED
