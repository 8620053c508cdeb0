"""Scenario adapter for Hand (format in docs/scenarios.md, runner in games/scenarios.py)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from fairness.core import HAND_DECK, RandomSource

from . import engine
from .actions import meld_tokens
from .cards import sort_cards
from .melds import build as make_meld

DEFAULT_SECRET = "00" * 32


def _rng(position: dict) -> RandomSource:
    # The match's one random source, as Jakaro's adapter reads it (docs/scenarios.md): seeds
    # only if the scenario gives them (a scenario has no browsers), so a real match's deals can
    # be replayed in a scenario.
    secret = bytes.fromhex(position.get("secret", DEFAULT_SECRET))
    seeds = {int(k): v for k, v in position.get("seeds", {}).items()}
    return RandomSource(secret, "hand", position.get("ident", "scenario"), seeds)


def _cards(x: str | list[str]) -> list[str]:
    return x.split() if isinstance(x, str) else list(x)


def build_state(position: dict) -> tuple[engine.State, RandomSource]:
    """The state a scenario position describes, and the match's random source."""
    opts = engine.Options(**position.get("options", {}))
    rng = _rng(position)
    n = opts.players
    if position.get("deal"):
        state = engine.new_match(opts, rng)
        return state, rng
    hands = [sort_cards(_cards(h)) for h in position["hands"]]
    melds = []
    for m in position.get("melds", []):
        melds.append(make_meld(m["owner"], list(meld_tokens(m["cards"]))))
    fire = _cards(position.get("fire", []))
    used = Counter(c for h in hands for c in h) + Counter(fire)
    used += Counter(c for m in melds for c in m.cards)
    if "stock" in position:
        stock = _cards(position["stock"])
    else:
        # The rest of the 106 cards, in the canonical deck order: every card is accounted for.
        left = Counter(HAND_DECK) - used
        stock = []
        for c in HAND_DECK:
            if left[c]:
                stock.append(c)
                left[c] -= 1
    opened = position.get("opened", [0] * n)
    opened = tuple(int(x) if not isinstance(x, bool) else (51 if x else 0) for x in opened)
    openings = position.get("openings")
    if openings is None:
        openings = [(s, p) for s, p in enumerate(opened) if p]
    first = bool(position.get("first_turn", False))
    r = engine.Round(
        number=position.get("round", 1),
        dealer=position.get("dealer", n - 1),
        hands=tuple(hands),
        stock=tuple(stock),
        fire=tuple(fire),
        melds=tuple(melds),
        opened=opened,
        openings=tuple(tuple(o) for o in openings),
        turn=position.get("turn", 0),
        phase=position.get("phase", "play" if first else "draw"),
        first_turn=first,
        fire_card=position.get("fire_card"),
        reshuffles=position.get("reshuffles", 0),
    )
    totals = tuple(position.get("totals", [0] * n))
    history = tuple(tuple(h) for h in position.get("history", []))
    return engine.State(opts, r, totals=totals, history=history), rng


def build(position: dict) -> tuple[engine.State, RandomSource]:
    """Runner contract: the state and random source of a position."""
    return build_state(position)


def step(state: engine.State, seat: int | None, action: str, rng: Any) -> engine.State:
    """Play one logged action, the server's included: ``deal`` (seat null) deals the next round,
    ``timeout`` plays a seat's timed-out turn. Refusals raise ``games.contract.IllegalAction``."""
    return engine.apply(state, seat, action, rng)


def _multiset(x: Any) -> list[str]:
    return sorted(_cards(x))


def check(state: engine.State, expect: dict) -> list[str]:
    """One message per expectation that does not hold."""
    r = state.round
    bad: list[str] = []

    def eq(name: str, got: Any, want: Any) -> None:
        if got != want:
            bad.append(f"{name}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "hands":
            for seat, cards in want.items():
                eq(f"hand of seat {seat}", sorted(r.hands[int(seat)]), _multiset(cards))
        elif key == "hand_counts":
            eq("hand_counts", [len(h) for h in r.hands], want)
        elif key in ("turn", "phase", "fire_card", "joker_due", "reshuffles", "first_turn"):
            eq(key, getattr(r, key), want)
        elif key == "round":
            eq("round", r.number, want)
        elif key == "dealer":
            eq("dealer", r.dealer, want)
        elif key == "status":
            eq("status", state.status, want)
        elif key == "fire":
            eq("fire", list(r.fire), _cards(want))
        elif key == "fire_top":
            eq("fire_top", r.fire[-1] if r.fire else None, want)
        elif key == "stock_count":
            eq("stock_count", len(r.stock), want)
        elif key == "melds":
            eq("melds", [m.to_text() for m in r.melds], want)
        elif key == "meld_owners":
            eq("meld_owners", [m.owner for m in r.melds], want)
        elif key == "opened":
            eq("opened", [p > 0 for p in r.opened], want)
        elif key == "opening_points":
            eq("opening_points", list(r.opened), want)
        elif key == "threshold":
            for seat, n in want.items():
                eq(f"threshold of seat {seat}", engine.threshold(state, int(seat)), n)
        elif key == "round_scores":
            eq("round_scores", list(r.result.scores) if r.result else None, want)
        elif key == "totals":
            eq("totals", list(state.totals), want)
        elif key == "result":
            got = r.result
            gd = None if got is None else {"out": got.out, "hand": got.hand, "blocked": got.blocked}
            eq("result", gd, want)
        elif key == "places":
            eq("places", [list(p) for p in state.places], want)
        elif key == "shares":
            got = engine.shares(state)
            eq(
                "shares",
                {str(s): str(f) for s, f in got.items()},
                {k: str(Fraction(v)) for k, v in want.items()},
            )
        elif key == "hints":
            v = engine.view(state, r.turn)
            hints = v["hints"] or {}
            for k, w in want.items():
                eq(f"hints.{k}", hints.get(k), w)
        else:
            bad.append(f"unknown expectation {key!r}")
    return bad
