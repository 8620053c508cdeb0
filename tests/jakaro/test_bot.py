"""The bot plays from its view alone and plays sensibly; auto-play on a timeout uses it."""

from __future__ import annotations

import random

from fairness.core import RandomSource
from games.jakaro import engine
from games.jakaro.bot import auto_action, bot_action, choose, least_useful, random_action
from games.jakaro.engine import Options, apply, legal_actions, new_match, view

from .helpers import position


def test_bot_brings_a_marble_out() -> None:
    st, _ = position({}, {0: ["2H", "AS", "9C"]})
    assert bot_action(view(st, 0)) == "out AS"


def test_bot_knocks_out_an_opponent_far_along() -> None:
    m = {0: [10, "base", "base", "base"], 1: [13] + ["base"] * 3}  # seat 1's marble at 70 done
    st, _ = position(m, {0: ["3S", "2S"]})
    assert bot_action(view(st, 0)) == "move 3S m0"


def test_bot_takes_the_four_short_cut_from_its_start() -> None:
    st, _ = position({0: [0, "base", "base", "base"]}, {0: ["4S", "2H"]})
    assert bot_action(view(st, 0)) == "back 4S m0"


def test_bot_helps_its_partner_home_with_a_five() -> None:
    m = {0: [10, "base", "base", "base"], 2: [35] + ["base"] * 3}
    st, _ = position(m, {0: ["5S"]})
    assert bot_action(view(st, 0)) == "move 5S 2:m0"


def test_bot_pushes_an_opponent_past_its_home_with_a_five() -> None:
    m = {0: [10, "base", "base", "base"], 1: [17] + ["base"] * 3}
    st, _ = position(m, {0: ["5S"]})
    assert bot_action(view(st, 0)) == "move 5S 1:m0"


def test_bot_keeps_its_ace_when_a_plain_card_does_the_same() -> None:
    # The Ace's 11 walks two squares more than the 9; the bot spends the 9 and keeps the Ace.
    st, _ = position({0: [10, 20, 30, 40]}, {0: ["AS", "9H"]})
    assert bot_action(view(st, 0)).split()[1] == "9H"


def test_least_useful_card_is_burned_and_timeout_does_that_with_no_move() -> None:
    assert least_useful(["KS", "2H", "QD"]) == "2H"
    st, rng = position({}, {0: ["QD", "2H", "9C"], 1: ["3C"]})
    assert legal_actions(st)[0].startswith("discard")
    assert auto_action(st, 0) == "discard 2H"
    assert apply(st, 0, auto_action(st, 0), rng).discard[-1] == "2H"


def test_bot_uses_only_its_view() -> None:
    # Two states that differ only in hidden cards (other hands, the deck) get the same choice.
    rng = RandomSource(b"\x05" * 32, "jakaro", "bot-view")
    st = new_match(Options(4), rng)
    for _ in range(12):
        st = apply(st, st.turn, auto_action(st, st.turn), rng)
    seat = st.turn
    others = [h for s, h in enumerate(st.hands) if s != seat]
    pool = [c for h in others for c in h] + list(st.deck)
    random.Random(3).shuffle(pool)
    hands = list(st.hands)
    i = 0
    for s in range(4):
        if s != seat:
            hands[s] = engine.sort_hand(pool[i : i + len(st.hands[s])])
            i += len(st.hands[s])
    other = engine.replace(st, hands=tuple(hands), deck=tuple(pool[i:]))
    assert other != st
    assert view(other, seat) == view(st, seat)
    assert bot_action(view(other, seat)) == bot_action(view(st, seat))


def test_bot_choice_is_always_legal_over_whole_games() -> None:
    for players in (2, 4):
        rng = RandomSource(b"\x06" * 32, "jakaro", f"bot-legal-{players}")
        st = new_match(Options(players), rng)
        while st.winner is None:
            choice = bot_action(view(st, st.turn))
            assert choice in legal_actions(st)
            st = apply(st, st.turn, choice, rng)
        assert st.winner in (0, 1)


def test_bot_beats_a_random_team() -> None:
    # A handful of games (the benchmark plays 200): the bot team should win nearly all.
    wins = 0
    for g in range(8):
        rng = RandomSource(b"\x07" * 32, "jakaro", f"bot-vs-random-{g}")
        st = new_match(Options(4), rng)
        rnd = random.Random(g)
        while st.winner is None:
            s = st.turn
            v = view(st, s)
            a = bot_action(v) if s % 2 == g % 2 else random_action(v, rnd)
            st = apply(st, s, a, rng)
        wins += st.winner == g % 2
    assert wins >= 7


def test_the_bot_works_on_action_values_and_writes_text_only_at_the_edge() -> None:
    st, _ = position({0: [10, "base", "base", "base"]}, {0: ["3S", "AS"]})
    act = choose(view(st, 0))
    assert isinstance(act, engine.Action) and act.seat == 0
    assert bot_action(view(st, 0)) == act.to_str() == "out AS"
    # With no legal move the bot burns its least useful card, as an Action too.
    st, _ = position({}, {0: ["QD", "2H"], 1: ["3C"]})
    assert choose(view(st, 0)) == engine.Action(0, "discard", "2H")


def test_auto_action_is_one_action_for_the_seat_to_play_only() -> None:
    st, rng = position({0: [10, "base", "base", "base"]}, {0: ["3S"], 1: ["2C"]})
    assert auto_action(st, 0) == "move 3S m0"
    assert refused(lambda: auto_action(st, 1)) == "not_your_turn"
    won, _ = position({0: ["H0", "H1", "H2", "H3"], 2: [35, "H1", "H2", "H3"]}, {0: ["3S"]})
    over = apply(won, 0, "move 3S 2:m0", rng)
    assert refused(lambda: auto_action(over, 0)) == "match_over"


def refused(call) -> str:
    try:
        call()
    except engine.IllegalAction as exc:
        return exc.code
    raise AssertionError("not refused")


def test_bot_keeps_a_threatened_marble_on_its_protected_start() -> None:
    # Seat 3's marble on 70 is 6 squares behind seat 0's start: stepping off to 3 would put m0
    # within its reach, so the bot walks the safe marble on 30 instead.
    m = {0: [0, 30, "base", "base"], 3: [70] + ["base"] * 3}
    st, _ = position(m, {0: ["3S"]})
    assert bot_action(view(st, 0)) == "move 3S m1"
