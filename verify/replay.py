"""Replaying a revealed match and writing down every use of its randomness (no Django).

``audit_replay`` runs the one replay there is (``games.contract.replay``'s loop) with a random
source that records each call: which purpose, at which place in the log, the list it shuffled
(None for the game's canonical deck), the ``n`` of a draw, and the result. The Verify page, the
JSON export and ``sahrat_verify.py --replay`` all read these records, and the browser recomputes
them (static/verify/verify.js) from its own piles and hands.

Only the registry is used (``games.get``): nothing here branches on the game's name except
``STEP_FACTS``, the small per-game part (see below).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import fairness.core as fairness
import games
from games.contract import forfeit_outcome


class ReplayFailed(Exception):
    """The log does not replay from this secret and these seeds: the engine refused an action
    (a card the deal never gave) — itself a mismatch the page reports."""

    def __init__(self, seq: int, detail: str) -> None:
        super().__init__(f"action {seq}: {detail}")
        self.seq = seq
        self.detail = detail


class RecordingSource:
    """A match's random source that writes down every call, tagged with the log position
    (``seq``; 0 is the match's start) being replayed."""

    def __init__(self, source: fairness.RandomSource) -> None:
        self._source = source
        self.seq = 0
        self.calls: list[dict[str, Any]] = []

    def deck(self, purpose: str) -> list[str]:
        out = self._source.deck(purpose)
        self.calls.append(
            {"seq": self.seq, "kind": "shuffle", "purpose": purpose, "items": None, "result": out}
        )
        return out

    def shuffle(self, items: Sequence[Any], purpose: str) -> list[Any]:
        out = self._source.shuffle(items, purpose)
        self.calls.append(
            {
                "seq": self.seq,
                "kind": "shuffle",
                "purpose": purpose,
                "items": list(items),
                "result": out,
            }
        )
        return out

    def below(self, n: int, purpose: str) -> int:
        out = self._source.below(n, purpose)
        self.calls.append(
            {"seq": self.seq, "kind": "below", "purpose": purpose, "n": n, "result": out}
        )
        return out


def _hands(engine: Any, state: Any, players: int) -> list[list[str]]:
    # Every seat's own view: the match is over, so every hand may be shown (rules: after the
    # reveal nothing of the match is hidden any more).
    return [list(engine.view(state, s).get("hand") or []) for s in range(players)]


def _hand_facts(before: Mapping[str, Any], after: Mapping[str, Any], seat: int | None) -> dict:
    """Hand: what a time-out did in public (the one action whose text does not say it): the
    fire card put back on the pile, whether a stock card was drawn, the card thrown. Every
    viewer of the table saw these happen; the browser rebuilds the pile with them."""
    returned = before.get("fire_card")
    drew = before.get("phase") == "draw" or returned is not None
    thrown = None
    result = after.get("result") or {}
    same_round = after.get("round") == before.get("round")
    if same_round and after.get("status") == "playing":
        thrown = after.get("fire_top")
    elif same_round and result.get("out") == seat and not result.get("blocked"):
        thrown = after.get("fire_top")
    return {"returned": returned, "drew": drew, "thrown": thrown}


# The per-game part: for the actions whose text does not say what they did in public (Hand's
# ``timeout``), the public facts the browser needs to rebuild the piles. Jakaro's time-out is
# logged as the concrete move the server chose, so it needs none.
STEP_FACTS: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any], int | None], dict]] = {
    "hand": _hand_facts,
}


@dataclass
class Audit:
    """A replayed match: its random events, each step's public facts (where needed), the final
    state and outcome the replay gives, and the per-step states for the replay page."""

    events: list[dict[str, Any]] = field(default_factory=list)
    facts: dict[int, dict[str, Any]] = field(default_factory=dict)
    final_json: str | None = None
    outcome: dict[str, Any] | None = None
    failed: ReplayFailed | None = None
    states: list[str] = field(default_factory=list)


def audit_replay(
    game: str,
    options: Mapping[str, Any],
    secret_hex: str,
    ident: str,
    seeds: Mapping[int, str],
    log: Iterable[tuple[int, int | None, str]],
    keep_states: bool = False,
) -> Audit:
    """Replay ``log`` (``(seq, seat, action)`` rows) from the match's revealed random source and
    record every random event with the hands it dealt or burned from. A refused action stops the
    replay (``Audit.failed``): the log does not belong to this secret and these seeds."""
    engine = games.get(game)
    parsed = engine.parse_options(options)
    players = int(engine.options_to_dict(parsed)["players"])
    source = RecordingSource(
        fairness.RandomSource(fairness.parse_secret(secret_hex), game, ident, dict(seeds))
    )
    facts_of = STEP_FACTS.get(game)
    audit = Audit()
    try:
        state = engine.new_match(parsed, source)
    except Exception as exc:  # an engine refusing the start is a mismatch, never a 500
        audit.failed = ReplayFailed(0, str(exc))
        return audit
    _describe(engine, source.calls, 0, None, None, state, state, players, audit)
    if keep_states:
        audit.states.append(engine.to_json(state))
    for seq, seat, action in log:
        source.seq = seq
        start = len(source.calls)
        before = state
        try:
            state = engine.apply(state, seat, action, source)
        except Exception as exc:
            audit.failed = ReplayFailed(seq, str(exc))
            return audit
        if facts_of is not None and action.split()[:1] == ["timeout"]:
            audit.facts[seq] = facts_of(
                engine.spectator_view(before), engine.spectator_view(state), seat
            )
        _describe(engine, source.calls[start:], seq, seat, action, before, state, players, audit)
        if keep_states:
            audit.states.append(engine.to_json(state))
    audit.final_json = engine.to_json(state)
    result = engine.outcome(state)
    audit.outcome = result.to_dict() if result is not None else None
    return audit


def _describe(
    engine: Any,
    calls: list[dict[str, Any]],
    seq: int,
    seat: int | None,
    action: str | None,
    before: Any,
    after: Any,
    players: int,
    audit: Audit,
) -> None:
    """Each random call of one step, with what it meant at the table (read from the views,
    the same for both games)."""
    if not calls:
        return
    view = engine.spectator_view(after)
    hands_after = _hands(engine, after, players)
    hands_before = _hands(engine, before, players)
    for call in calls:
        event = dict(call)
        event["seat"] = seat
        event["action"] = action
        if call["kind"] == "shuffle" and call["items"] is None:
            # A deal of the canonical deck: the hands it gave, the rest (Hand's stock order),
            # who dealt and who plays first.
            event["type"] = "deal"
            event["hands"] = hands_after
            dealt = sum(len(h) for h in hands_after)
            event["rest"] = call["result"][dealt:]
            event["dealer"] = view.get("dealer")
            event["starter"] = view.get("turn")
        elif call["kind"] == "shuffle":
            event["type"] = "reshuffle"
        else:
            # A random burn: the seat (other than the actor) that lost a card, its hand before.
            event["type"] = "burn"
            others = [s for s in range(players) if s != seat]
            victim = next(
                (s for s in others if len(hands_after[s]) < len(hands_before[s])),
                None,
            )
            if victim is None:
                # The burn emptied the last hand and a new packet was dealt in the same step:
                # the victim was the only other seat still holding a card.
                victim = next((s for s in others if hands_before[s]), None)
            event["victim"] = victim
            event["victim_hand"] = hands_before[victim] if victim is not None else []
            event["burned"] = (
                hands_before[victim][call["result"]]
                if victim is not None and call["result"] < len(hands_before[victim])
                else None
            )
        audit.events.append(event)


# What an export keeps of each event (verify/selectors.py's match_export; bench/verify.py).
EVENT_KEYS = (
    "seq",
    "type",
    "kind",
    "purpose",
    "items",
    "n",
    "result",
    "hands",
    "rest",
    "dealer",
    "starter",
    "victim",
    "victim_hand",
    "burned",
)


def export_events(audit: Audit) -> list[dict[str, Any]]:
    """The audit's events as the export writes them: the keys above, and the acting seat."""
    return [
        {k: v for k, v in e.items() if k in EVENT_KEYS and v is not None} | {"seat": e["seat"]}
        for e in audit.events
    ]


def result_checks(
    game: str,
    options: Mapping[str, Any],
    audit: Audit,
    recorded: Any,
    forfeit: bool,
    left: Iterable[int],
) -> bool:
    """Whether a match's recorded result (``Outcome.to_dict()``) is the right one: the replay's
    own, or, for a match won by forfeit, the one its leavers give (``games.contract.
    forfeit_outcome``, from the game's teams and the seats given up), the replay then not over
    (the match ended before play did). The Verify page and the export's audit both ask this."""
    if not forfeit:
        return audit.outcome == recorded
    engine = games.get(game)
    want = forfeit_outcome(engine.teams(engine.parse_options(options)), set(left))
    return audit.outcome is None and want is not None and want.to_dict() == recorded
