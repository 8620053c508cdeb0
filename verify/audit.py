"""The server's own check of a match export (the JSON of /verify/m/<id>/export.json), pure
Python, no Django: the same questions ``sahrat_verify.py --export --replay`` asks, answered with
the server's code (fairness/core.py and the engines).

``check_export`` returns a list of problems, each a short machine code and words; an empty list
means every check passed. Malformed input is an ``ExportError`` (a clear message, never a crash).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import fairness.core as fairness
from verify.replay import audit_replay, result_checks

MAX_ACTIONS = 20_000


class ExportError(ValueError):
    """The export cannot be read: the message says what is wrong."""


def _need(data: dict, key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data or not isinstance(data[key], kind):
        raise ExportError(f"the export has no valid '{key}'")
    return data[key]


def _time(text: Any, what: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise ExportError(f"{what} is not a date and time") from None


def read_export(data: Any) -> dict[str, Any]:
    """The export's parts, validated (ExportError otherwise)."""
    if not isinstance(data, dict):
        raise ExportError("an export is one JSON object")
    if data.get("format") != "sahrat-match-v1":
        raise ExportError("this is not a Sahrat match export (format sahrat-match-v1)")
    game = fairness.check_game(_need(data, "game", str))
    ident = fairness.check_token(_need(data, "id", str), "the identifier")
    fairness.parse_commitment(_need(data, "commitment", str))
    fairness.parse_secret(_need(data, "secret", str))
    committed_at = _time(data.get("committed_at"), "committed_at")
    seeds: dict[int, str] = {}
    seed_times = {}
    for row in _need(data, "seeds", list):
        if not isinstance(row, dict) or not isinstance(row.get("seat"), int):
            raise ExportError("each seed needs a seat number")
        seat = row["seat"]
        if seat in seeds:
            raise ExportError(f"seat {seat} has two seeds")
        seeds[seat] = fairness.check_token(row.get("seed"), "a seed")
        seed_times[seat] = _time(row.get("at"), f"the time of seat {seat}'s seed")
    actions = _need(data, "actions", list)
    if len(actions) > MAX_ACTIONS:
        raise ExportError("the export has too many actions")
    log = []
    for row in actions:
        if (
            not isinstance(row, dict)
            or not isinstance(row.get("seq"), int)
            or not isinstance(row.get("action"), str)
            or not (row.get("seat") is None or isinstance(row.get("seat"), int))
        ):
            raise ExportError("each action needs seq, seat and action")
        log.append((row["seq"], row["seat"], row["action"]))
    events = _need(data, "events", list)
    for e in events:
        if not isinstance(e, dict) or not isinstance(e.get("purpose"), str):
            raise ExportError("each event needs its purpose")
    options = _need(data, "options", dict)
    return {
        "game": game,
        "id": ident,
        "options": options,
        "commitment": data["commitment"],
        "secret": data["secret"],
        "committed_at": committed_at,
        "seeds": seeds,
        "seed_times": seed_times,
        "log": log,
        "events": events,
        "outcome": data.get("outcome"),
        "forfeit": data.get("end_reason") == "forfeit",
        "left": _left_seats(data.get("left_seats", [])),
        "final_state": data.get("final_state"),
    }


def _left_seats(rows: Any) -> list[int]:
    if not isinstance(rows, list) or not all(isinstance(s, int) for s in rows):
        raise ExportError("left_seats is a list of seat numbers")
    return rows


def _same_event(mine: dict, theirs: dict) -> bool:
    keys = ("seq", "kind", "purpose", "result")
    if any(mine.get(k) != theirs.get(k) for k in keys):
        return False
    if mine["kind"] == "below":
        return mine.get("n") == theirs.get("n")
    return mine.get("items") == theirs.get("items")


def check_export(data: Any) -> list[dict[str, str]]:
    """Every problem with an export (empty: it verifies). ExportError if it cannot be read."""
    x = read_export(data)
    problems: list[dict[str, str]] = []
    secret = fairness.parse_secret(x["secret"])
    if not fairness.matches_commitment(secret, x["commitment"]):
        # Results from a secret that was not committed prove nothing: stop here.
        return [{"code": "commitment", "words": "SHA-256(secret) is not the commitment"}]
    for seat, at in sorted(x["seed_times"].items()):
        if at <= x["committed_at"]:
            problems.append(
                {"code": "seed_time", "words": f"seat {seat}'s seed is not after the commitment"}
            )
    source = fairness.RandomSource(secret, x["game"], x["id"], x["seeds"])
    for e in x["events"]:
        try:
            if e.get("kind") == "below":
                got: Any = source.below(e.get("n"), e["purpose"])
            elif e.get("items") is None:
                got = source.deck(e["purpose"])
            else:
                got = source.shuffle(list(e["items"]), e["purpose"])
        except (fairness.FairnessError, TypeError):
            problems.append({"code": "event", "words": f"{e['purpose']}: unreadable"})
            continue
        if got != e.get("result"):
            problems.append({"code": "event", "words": f"{e['purpose']}: result differs"})
    if data.get("started") is False:
        # Aborted before it started: nothing was dealt, so there must be nothing to replay.
        if x["log"] or x["events"]:
            problems.append({"code": "events", "words": "a match never started has no events"})
        return problems
    try:
        audit = audit_replay(x["game"], x["options"], x["secret"], x["id"], x["seeds"], x["log"])
    except Exception as exc:  # bad options and the like: the export is not a playable match
        raise ExportError(f"the match cannot be replayed: {exc}") from None
    if audit.failed is not None:
        problems.append({"code": "replay", "words": f"the log does not replay: {audit.failed}"})
        return problems
    if len(audit.events) != len(x["events"]) or not all(
        _same_event(m, t) for m, t in zip(audit.events, x["events"], strict=False)
    ):
        problems.append({"code": "events", "words": "the recorded events are not the replay's"})
    if x["final_state"] is not None and audit.final_json != x["final_state"]:
        problems.append({"code": "final_state", "words": "the final state is not the replay's"})
    if x["forfeit"] and audit.outcome is not None:
        problems.append(
            {"code": "outcome", "words": "won by forfeit, yet the log plays to its end"}
        )
    elif x["forfeit"] and not result_checks(
        x["game"], x["options"], audit, x["outcome"], True, x["left"]
    ):
        problems.append(
            {"code": "outcome", "words": "won by forfeit, yet not the result its leavers give"}
        )
    elif x["outcome"] is not None and not x["forfeit"] and audit.outcome != x["outcome"]:
        problems.append({"code": "outcome", "words": "the result is not the replay's"})
    return problems


def main(argv: list[str] | None = None) -> int:
    """``python -m verify.audit EXPORT.json``: the server's own check of an export (what
    ``sahrat_verify.py --export FILE --replay`` runs). Exit 0 all checks pass, 1 a mismatch, 2
    an unreadable export (message on stderr)."""
    import json
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m verify.audit EXPORT.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            data = json.load(f)
        problems = check_export(data)
    except OSError as exc:
        print(f"cannot read {args[0]}: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:  # JSON, ExportError and FairnessError alike
        print(str(exc) or "not JSON", file=sys.stderr)
        return 2
    if not problems:
        print("replay OK: the whole log replays to the recorded events, state and result")
        return 0
    for p in problems:
        print(f"replay MISMATCH: {p['words']}")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
