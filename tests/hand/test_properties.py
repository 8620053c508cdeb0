"""Property tests on random play: cards conserved, JSON exact, views leak nothing, matches end,
and a match replays from its log and its one random source."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games import contract
from games.hand import engine

from .helpers import DECK, GAME, all_cards, match_rng, play_match, random_chooser

OPTIONS = st.sampled_from(
    [
        engine.Options(players=2, rounds=1),
        engine.Options(players=3, rounds=1, variant="plain"),
        engine.Options(players=4, rounds=1),
        engine.Options(players=4, rounds=1, partners=True),
        engine.Options(players=4, rounds=1, partners=True, variant="plain", table="strict"),
    ]
)
SECRETS = st.binary(min_size=32, max_size=32)


def _hide_check(state: engine.State, rnd: random.Random) -> None:
    """view(seat) must not change when everything that seat cannot see is dealt differently."""
    r = state.round
    if r.phase == "over":
        return
    for seat in range(state.options.players):
        hidden = [c for s, h in enumerate(r.hands) if s != seat for c in h] + list(r.stock)
        rnd.shuffle(hidden)
        hands, pos = list(r.hands), 0
        for s, h in enumerate(r.hands):
            if s != seat:
                hands[s] = tuple(sorted(hidden[pos : pos + len(h)]))
                pos += len(h)
        other = replace(state, round=replace(r, hands=tuple(hands), stock=tuple(hidden[pos:])))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        assert GAME.spectator_view(other) == GAME.spectator_view(state)


@settings(max_examples=40, deadline=None)
@given(OPTIONS, SECRETS, st.integers(0, 2**32))
def test_random_matches_keep_every_invariant(options, secret, seed) -> None:
    rnd = random.Random(seed)
    steps = [0]

    def on_step(state: engine.State) -> None:
        steps[0] += 1
        assert all_cards(state) == DECK  # 106 cards always accounted for
        assert engine.from_json(engine.to_json(state)) == state
        if steps[0] % 7 == 0:
            _hide_check(state, rnd)

    players = [random_chooser(rnd)] * options.players
    final, log = play_match(options, secret, players, on_step)
    assert final.status == "match_over"
    assert sum(GAME.outcome(final).shares.values()) == 1
    # Replaying the log from the match's source gives the same state.
    again = contract.replay(GAME, options, match_rng(secret), log)
    assert GAME.to_json(again) == GAME.to_json(final)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.booleans(), SECRETS)
def test_bot_matches_finish_and_replay(players, plain, secret) -> None:
    options = engine.Options(
        players=players,
        rounds=2,
        variant="plain" if plain else "saudi",
        partners=players == 4 and plain,
    )
    seats = [lambda s, seat, rng: _bot_step(s, seat, rng)] * players
    final, log = play_match(options, secret, seats, lambda s: None)
    assert final.status == "match_over"
    assert len(final.history) >= 2
    assert (None, "deal") in log  # the next round is the server's logged action
    again = contract.replay(GAME, options, match_rng(secret), log)
    assert GAME.to_json(again) == GAME.to_json(final)
    assert GAME.outcome(again) == GAME.outcome(final)


def _bot_step(state, seat, rng):
    text = GAME.bot_action(GAME.view(state, seat))
    return GAME.apply(state, seat, text, rng), text


@settings(max_examples=10, deadline=None)
@given(SECRETS, st.integers(0, 2**32))
def test_timeout_never_lays_never_throws_a_joker_and_replays(secret, seed) -> None:
    rnd = random.Random(seed)
    options = engine.Options(players=3, rounds=1)
    chooser = random_chooser(rnd)
    timeouts = [0]

    def mixed(state, seat, rng):
        if rnd.random() >= 0.3:
            return chooser(state, seat, rng)
        text = GAME.auto_action(state, seat)
        assert text == "timeout"
        before = state.round
        new = GAME.apply(state, seat, text, rng)
        timeouts[0] += 1
        if new.status == "playing" or (new.round.result and not new.round.result.blocked):
            # Nothing laid: every meld is as it was, or as it was before the undone swap.
            assert len(new.round.melds) == len(before.melds)
            assert all(
                m.cards == o.cards or (before.swap_undo and i == before.swap_undo[0])
                for i, (m, o) in enumerate(zip(new.round.melds, before.melds, strict=True))
            )
            thrown = new.round.fire[-1]
            left = new.round.hands[seat]
            assert not thrown.startswith("JK") or all(c.startswith("JK") for c in left)
        if new.status == "playing":
            assert new.round.turn != seat  # one action ends the whole turn
        return new, text

    final, log = play_match(options, secret, [mixed] * 3)
    assert final.status == "match_over" and timeouts[0] > 0
    again = contract.replay(GAME, options, match_rng(secret), log)
    assert GAME.to_json(again) == GAME.to_json(final)


def test_json_round_trip_of_a_fresh_match() -> None:
    s = GAME.new_match(engine.Options(players=4, partners=True), match_rng(b"\x01" * 32))
    assert GAME.from_json(GAME.to_json(s)) == s
    assert all_cards(s) == DECK
