"""Property tests (Hypothesis) over positions reached by random and bot play."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairness.core import JAKARO_DECK, RandomSource
from games.jakaro import engine
from games.jakaro.bot import bot_action
from games.jakaro.engine import (
    Action,
    IllegalAction,
    Options,
    State,
    apply,
    from_json,
    legal_actions,
    new_match,
    to_json,
    view,
)
from games.jakaro.messages import MESSAGES
from games.messages import COMMON

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rng(seed: int) -> RandomSource:
    return RandomSource(seed.to_bytes(32, "big"), "jakaro", f"prop-{seed}")


def _play(seed: int, players: int, plies: int, bot_share: float = 0.5):
    """Play up to ``plies`` actions (a mix of bot and uniform random choices); yield each state."""
    rng = _rng(seed)
    rnd = random.Random(seed)
    state = new_match(Options(players), rng)
    log: list[tuple[int, str]] = []
    yield state, log, rng
    for _ in range(plies):
        if state.winner is not None:
            return
        seat = state.turn
        if rnd.random() < bot_share:
            action = bot_action(view(state, seat))
        else:
            action = rnd.choice(legal_actions(state))
        state = apply(state, seat, action, rng)
        log.append((seat, action))
        yield state, log, rng


def _check_marbles(state: State) -> None:
    n = state.players
    assert len(state.marbles) == 4 * n
    assert all(p == -1 or 0 <= p <= 79 for p in state.marbles)
    track = [p for p in state.marbles if 0 <= p < 76]
    assert len(track) == len(set(track))  # never two marbles on one square
    for s in range(n):
        home = [p for p in state.marbles[4 * s : 4 * s + 4] if p >= 76]
        assert len(home) == len(set(home))


def _check_cards(state: State) -> None:
    cards = [c for h in state.hands for c in h] + list(state.deck) + list(state.discard)
    assert sorted(cards) == sorted(JAKARO_DECK)  # all 52, none twice


games = st.tuples(st.integers(0, 2**32), st.sampled_from([2, 4]), st.integers(0, 300))


@SETTINGS
@given(games)
def test_marbles_and_cards_are_always_accounted_for(game) -> None:
    seed, players, plies = game
    for state, _, _ in _play(seed, players, plies):
        _check_marbles(state)
        _check_cards(state)


@SETTINGS
@given(games)
def test_json_round_trip_is_exact(game) -> None:
    seed, players, plies = game
    for state, _, _ in _play(seed, players, plies):
        text = to_json(state)
        again = from_json(text)
        assert again == state and to_json(again) == text


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


@SETTINGS
@given(games)
def test_a_view_holds_no_other_seats_cards(game) -> None:
    seed, players, plies = game
    for state, _, _ in _play(seed, players, plies):
        for seat in range(players):
            v = view(state, seat)
            # "last" names the card just played, which everyone saw (it may be from the previous
            # deck, whose card texts recur in the new one), so it is checked apart.
            last = v.pop("last")
            assert last is None or last["action"] == state.last[1]
            seen = _strings(v)
            hidden = {c for s, h in enumerate(state.hands) if s != seat for c in h}
            hidden |= set(state.deck)
            assert not (seen & hidden)
            assert view(state, seat)["hand"] == list(state.hands[seat])


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 4]), st.sampled_from([0.0, 0.5, 1.0]))
def test_every_random_or_bot_game_ends_and_replays_from_its_secret(seed, players, share) -> None:
    *_, (state, log, _) = _play(seed, players, 20_000, bot_share=share)
    assert state.winner in (0, 1)
    # Replaying the match's actions from its secret gives the same state.
    rng = _rng(seed)
    again = new_match(Options(players), rng)
    for seat, action in log:
        again = apply(again, seat, action, rng)
    assert to_json(again) == to_json(state)


def _every_candidate(state: State) -> list[Action]:
    """Every action text shape the grammar allows for the seat to play (most are illegal)."""
    seat, n = state.turn, state.players
    refs = range(4 * n)
    out: list[Action] = []
    for card in state.hands[seat]:
        out += [Action(seat, k, card) for k in ("out", "burn10", "discard")]
        for a in refs:
            out.append(Action(seat, "back", card, (a,)))
            out += [Action(seat, "move", card, (a,), (x,)) for x in (1, 2, 3, 5, 6, 7, 8, 9, 10)]
            out += [Action(seat, "move", card, (a,), (x,)) for x in (11, 12, 13)]
            for b in refs:
                out.append(Action(seat, "swap", card, (a, b)))
                out += [Action(seat, "split", card, (a, b), (x, 7 - x)) for x in range(1, 7)]
    return out


@settings(max_examples=25, deadline=None)
@given(games)
def test_apply_accepts_exactly_the_legal_actions(game) -> None:
    # The oracle for completeness: try every action of the grammar; the accepted ones must be
    # exactly legal_actions(), and every refusal has a known code and changes nothing.
    seed, players, plies = game
    *_, (state, _, rng) = _play(seed, players, plies)
    if state.winner is not None:
        return
    before = to_json(state)
    accepted = set()
    for act in _every_candidate(state):
        try:
            apply(state, state.turn, act, rng)
        except IllegalAction as exc:
            assert exc.code in MESSAGES or exc.code in COMMON
            continue
        accepted.add(act.to_str())
    assert accepted == set(legal_actions(state))
    assert to_json(state) == before
    # Canonical texts parse back to themselves.
    for text in legal_actions(state):
        assert Action.parse(text, state.turn).to_str() == text
        assert engine.apply(state, state.turn, text, rng) is not None
