"""Scenario-file adapter for Jakaro (the runner is games/scenarios.py; format in docs/scenarios.md).

A position names the players, the marbles (per seat: four positions, each ``base``, ``H0``..``H3``,
a square 0..75 or ``+N`` = N squares past that seat's start), the hands, whose turn, and
optionally the dealer, the rest of the deck, the pile, the deck number, the burn counter and the
match secret (64 hex characters; the Ten's burns and the next deals come from it).
"""

from __future__ import annotations

from typing import Any

from fairness.core import JAKARO_DECK, RandomSource, parse_secret

from .board import BASE, label, parse_label
from .engine import DEAL_SCHEDULE, State, apply, legal_actions, outcome, sort_hand

DEFAULT_SECRET = "00" * 32


def _per_seat(value: Any, players: int, default: Any) -> list[Any]:
    """Accept {"0": ..., "1": ...} or a list indexed by seat."""
    if value is None:
        return [default] * players
    if isinstance(value, list):
        if len(value) != players:
            raise ValueError(f"expected {players} entries, one per seat")
        return value
    out = [default] * players
    for k, v in value.items():
        s = int(k)
        if not 0 <= s < players:
            raise ValueError(f"seat {k} does not exist with {players} players")
        out[s] = v
    return out


def _cards(cards: list[str]) -> tuple[str, ...]:
    bad = [c for c in cards if c not in JAKARO_DECK]
    if bad:
        raise ValueError(f"unknown cards {bad}")
    return tuple(cards)


def marbles_from(value: Any, players: int) -> tuple[int, ...]:
    """Read the per-seat marble lists of a position."""
    out: list[int] = []
    for seat, ms in enumerate(_per_seat(value, players, ["base"] * 4)):
        if len(ms) != 4:
            raise ValueError(f"seat {seat} needs four marble positions")
        out.extend(parse_label(m, players, seat) for m in ms)
    track = [p for p in out if 0 <= p < 76]
    if len(track) != len(set(track)):
        raise ValueError("two marbles on one square")
    for seat in range(players):
        home = [p for p in out[seat * 4 : seat * 4 + 4] if p >= 76]
        if len(home) != len(set(home)):
            raise ValueError(f"seat {seat} has two marbles in one home square")
    return tuple(out)


def build(position: dict) -> tuple[State, RandomSource]:
    """A state and the match's random source from a scenario position."""
    players = int(position.get("players", 4))
    if players not in (2, 4):
        raise ValueError("players must be 2 or 4")
    dealer = int(position.get("dealer", players - 1))
    hands = tuple(sort_hand(_cards(h)) for h in _per_seat(position.get("hands"), players, []))
    state = State(
        players=players,
        marbles=marbles_from(position.get("marbles"), players),
        hands=hands,
        deck=_cards(position.get("deck", [])),
        deck_no=int(position.get("deck_no", 1)),
        deal_no=int(position.get("deal_no", len(DEAL_SCHEDULE[players]))),
        dealer=dealer,
        turn=int(position.get("turn", (dealer + 1) % players)),
        burn_no=int(position.get("burn_no", 0)),
        discard=_cards(position.get("discard", [])),
    )
    rng = RandomSource(
        parse_secret(position.get("secret", DEFAULT_SECRET)),
        "jakaro",
        str(position.get("ident", "scenario")),
        {int(k): v for k, v in position.get("seeds", {}).items()},
    )
    return state, rng


def step(state: State, seat: int, action: str, rng: RandomSource) -> State:
    """Play one step (raises engine.IllegalAction, a games.contract.IllegalAction, when
    refused)."""
    return apply(state, seat, action, rng)


def check(state: State, expect: dict) -> list[str]:
    """What does not hold of ``expect`` (keys documented in docs/scenarios.md)."""
    problems: list[str] = []
    n = state.players
    for key, want in expect.items():
        if key == "marbles":
            for s, ms in enumerate(_per_seat(want, n, None)):
                if ms is None:
                    continue
                got = [label(p) for p in state.marbles[s * 4 : s * 4 + 4]]
                wanted = [label(parse_label(m, n, s)) for m in ms]
                if got != wanted:
                    problems.append(f"seat {s} marbles: expected {wanted}, got {got}")
        elif key == "in_base":
            for s, k in enumerate(_per_seat(want, n, None)):
                got_k = state.marbles[s * 4 : s * 4 + 4].count(BASE)
                if k is not None and got_k != k:
                    problems.append(f"seat {s} marbles in base: expected {k}, got {got_k}")
        elif key == "hands":
            for s, h in enumerate(_per_seat(want, n, None)):
                if h is not None and sorted(state.hands[s]) != sorted(h):
                    problems.append(f"seat {s} hand: expected {sorted(h)}, got {state.hands[s]}")
        elif key == "hand_counts":
            for s, k in enumerate(_per_seat(want, n, None)):
                if k is not None and len(state.hands[s]) != k:
                    problems.append(f"seat {s} holds {len(state.hands[s])} cards, expected {k}")
        elif key == "turn":
            if state.turn != want:
                problems.append(f"turn: expected seat {want}, got {state.turn}")
        elif key == "winner":
            if state.winner != want:
                problems.append(f"winner: expected {want}, got {state.winner}")
        elif key == "status":
            got_st = "over" if state.turn is None else "playing"
            if got_st != want:
                problems.append(f"status: expected {want}, got {got_st}")
        elif key in ("places", "shares"):
            res = outcome(state)
            got_o = res.to_dict()[key] if res is not None else None
            if got_o != want:
                problems.append(f"{key}: expected {want}, got {got_o}")
        elif key == "discard_top":
            top = state.discard[-1] if state.discard else None
            if top != want:
                problems.append(f"top of the pile: expected {want}, got {top}")
        elif key == "burned":
            got_b = (state.last[2] or None) if state.last else None
            if got_b != want:
                problems.append(f"burned card: expected {want}, got {got_b}")
        elif key in ("deck_no", "deal_no", "dealer", "burn_no"):
            if getattr(state, key) != want:
                problems.append(f"{key}: expected {want}, got {getattr(state, key)}")
        elif key == "legal_count":
            got_n = len(legal_actions(state))
            if got_n != want:
                problems.append(f"legal actions: expected {want}, got {got_n}")
        elif key == "legal":
            got_l = legal_actions(state)
            if got_l != want:
                problems.append(f"legal actions: expected {want}, got {got_l}")
        elif key == "legal_includes":
            got_s = set(legal_actions(state))
            problems += [f"{a!r} should be legal" for a in want if a not in got_s]
        elif key == "legal_excludes":
            got_s = set(legal_actions(state))
            problems += [f"{a!r} should not be legal" for a in want if a in got_s]
        else:
            problems.append(f"unknown expectation {key!r}")
    return problems
