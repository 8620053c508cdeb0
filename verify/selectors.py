"""Reads for the Verify page («تحقق»): the public commitment log, one match's audit, the JSON
export and the replay's steps. Public fields of the games models only, and the one rule that
matters most here: a match's ``secret`` leaves this module only once ``revealed_at`` is set.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from datetime import datetime
from pathlib import Path
from threading import Lock
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

import fairness.core as fairness
import games
from games.models import EndReason, Match, MatchSeed
from verify.replay import Audit, audit_replay, export_events, result_checks

EXPORT_FORMAT = "sahrat-match-v1"
STANDALONE = Path(__file__).resolve().parent / "standalone" / "sahrat_verify.py"
LOG_PAGE = 50
# A match's public id (games.models.new_public_id): 16 hex characters; longer ones are allowed
# for ids made elsewhere, within the model's 32.
MATCH_ID = re.compile(r"\A[0-9A-Za-z_-]{4,32}\Z")
# A pasted link: a match's /verify/m/<id>/, or /verify/<id>/ as the pages once linked it (still
# redirected, and already shared); or a table's /majlis/t/<id>/ (its matches).
LINK = re.compile(r"/(verify(?:/m)?|majlis/t)/([0-9A-Za-z_-]{4,32})")


class NotRevealed(Exception):
    """The match is not over: its secret (and so its export) is not public yet."""


def state_of(match: Match) -> str:
    """The log's four states: waiting for players, playing, revealed, aborted."""
    if match.status == Match.Status.ABORTED:
        return "aborted"
    if match.revealed:
        return "revealed"
    return match.status  # waiting | playing


# ------------------------------------------------------------------------------ the log


def commitment_log(
    query: str = "", user: Any = None, mine: bool = False, page: int = 1
) -> dict[str, Any]:
    """Every match the site ever created, newest first (``LOG_PAGE`` a page), each with its
    commitment, when it was fixed and its state; narrowed by ``query`` (a match id, a pasted
    link, or a player's username: their recent matches) or to ``user``'s own matches."""
    matches: QuerySet[Match] = Match.objects.all()
    query = (query or "").strip()[:200]
    if mine and user is not None and user.is_authenticated:
        matches = matches.filter(_played_by(user)).distinct()
    elif query:
        matches = matches.filter(_search(query)).distinct()
    total = matches.count()
    page = max(1, page)
    rows = matches.select_related("table").order_by("-created_at", "-pk")[
        (page - 1) * LOG_PAGE : page * LOG_PAGE
    ]
    return {
        "rows": [log_row(m) for m in rows],
        "total": total,
        "page": page,
        "has_next": page * LOG_PAGE < total,
        "has_prev": page > 1,
        "query": query,
        "mine": mine,
    }


def _played_by(user: Any) -> Q:
    # A player's matches: those they sent a seed for (every sit-down and "ready" does), or the
    # seat they hold at a table whose match they are in.
    return Q(seeds__user=user) | Q(table__seats__user=user, status__in=["waiting", "playing"])


def _search(query: str) -> Q:
    link = LINK.search(query)
    if link:
        kind, ident = link.groups()
        return Q(table__public_id=ident) if kind == "majlis/t" else Q(public_id=ident)
    found = Q(public_id=query) if MATCH_ID.match(query) else Q(pk__in=[])
    users = get_user_model().objects.filter(username__iexact=query)
    if users.exists():
        found |= _played_by(users.first())
    return found


def log_row(match: Match) -> dict[str, Any]:
    return {
        "id": match.public_id,
        "pk": match.pk,
        "game": match.game,
        "number": match.number,
        "table": match.table.public_id,
        "commitment": match.commitment,
        "fixed_at": match.created_at,
        "state": state_of(match),
    }


def find_match(public_id: str) -> Match | None:
    if not isinstance(public_id, str) or not MATCH_ID.match(public_id):
        return None
    return Match.objects.select_related("table").filter(public_id=public_id).first()


# ------------------------------------------------------------------------------ one match


def seeds_of(match: Match) -> list[dict[str, Any]]:
    """Each seed with when it arrived, whether after the commitment, and that it came from a
    player's browser (the only place seeds come from; bot seats have none)."""
    rows = []
    for s in MatchSeed.objects.filter(match=match).order_by("seat"):
        rows.append(
            {
                "seat": s.seat,
                "seed": s.seed,
                "at": s.at,
                "after_commitment": s.at > match.created_at,
                "from": "browser",
            }
        )
    return rows


def seats_without_seed(match: Match, seeds: list[dict[str, Any]]) -> list[int]:
    engine = games.get(match.game)
    players = int(engine.options_to_dict(engine.parse_options(match.options))["players"])
    have = {s["seat"] for s in seeds}
    return [n for n in range(players) if n not in have]


def _log(match: Match) -> list[tuple[int, int | None, str]]:
    return list(match.actions.order_by("seq").values_list("seq", "seat", "action"))


# Replays of revealed matches are final (the log of an ended match never grows), so a few are
# kept in memory for the replay page's steps. Keyed by everything they depend on.
_CACHE: OrderedDict[tuple, Audit] = OrderedDict()
_CACHE_LOCK = Lock()
_CACHE_SIZE = 8


def audit_of(match: Match, keep_states: bool = False) -> Audit:
    """The replay of a revealed match with every random event recorded (verify/replay.py)."""
    if not match.revealed:
        raise NotRevealed
    if match.started_at is None:
        # Aborted before it started: no card was ever dealt, so there is nothing to replay
        # (replaying would show a deal/1 that never happened).
        return Audit()
    seeds = {s.seat: s.seed for s in match.seeds.all()}
    log = _log(match)
    # The whole log is in the key: an altered record is replayed again, never served stale.
    key = (match.pk, match.secret, tuple(sorted(seeds.items())), tuple(log), keep_states)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    try:
        audit = audit_replay(
            match.game, match.options, match.secret, match.public_id, seeds, log, keep_states
        )
    except fairness.FairnessError as exc:
        audit = Audit()
        from verify.replay import ReplayFailed

        audit.failed = ReplayFailed(0, str(exc))
    with _CACHE_LOCK:
        _CACHE[key] = audit
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return audit


def checks_of(match: Match, seeds: list[dict[str, Any]], audit: Audit | None) -> list[dict]:
    """The server's own verdicts, each ``{"what", "ok"}`` (the page words them)."""
    checks = []
    secret_ok = False
    if match.revealed:
        try:
            secret_ok = fairness.matches_commitment(
                fairness.parse_secret(match.secret), match.commitment
            )
        except fairness.FairnessError:
            secret_ok = False
        checks.append({"what": "commitment", "ok": secret_ok})
    checks.append({"what": "seeds_after", "ok": all(s["after_commitment"] for s in seeds)})
    if audit is not None and match.started_at is not None:
        checks.append({"what": "replay", "ok": audit.failed is None})
        if audit.failed is None and match.snapshot:
            checks.append({"what": "snapshot", "ok": audit.final_json == match.snapshot})
        if audit.failed is None and match.status == Match.Status.FINISHED:
            # Won by forfeit: the match ended before play did (every other side gave its seats
            # up, docs/wallet.md), so the replay is not over and the result is the leavers'.
            forfeit = match.end_reason == EndReason.FORFEIT
            left = {r["seat"] for r in match.leavers}
            ok = result_checks(match.game, match.options, audit, match.outcome, forfeit, left)
            checks.append({"what": "outcome", "ok": ok})
    return checks


def match_page(match: Match) -> dict[str, Any]:
    """What the match's page shows. Before the reveal: the commitment and the seeds only."""
    seeds = seeds_of(match)
    data: dict[str, Any] = {
        "match": match,
        "id": match.public_id,
        "game": match.game,
        "options": match.options,
        "state": state_of(match),
        "commitment": match.commitment,
        "fixed_at": match.created_at,
        "seeds": seeds,
        "no_seed": seats_without_seed(match, seeds),
        "revealed": match.revealed,
        "secret": None,
        "events": [],
        "facts": {},
        "actions": [],
        "checks": [],
        "failed": None,
    }
    # The chain of matches at one table ("play again"): the one before and the one after, once
    # each was played or is being played.
    chain = dict(
        Match.objects.filter(
            table_id=match.table_id, number__in=(match.number - 1, match.number + 1)
        )
        .exclude(status=Match.Status.WAITING)
        .values_list("number", "public_id")
    )
    data["previous"], data["next"] = chain.get(match.number - 1), chain.get(match.number + 1)
    if not match.revealed:
        data["checks"] = checks_of(match, seeds, None)
        return data
    audit = audit_of(match)
    data["secret"] = match.secret
    data["computed_commitment"] = _sha256_hex(match.secret)
    data["events"] = audit.events
    data["facts"] = audit.facts
    data["actions"] = list(match.actions.order_by("seq"))
    data["checks"] = checks_of(match, seeds, audit)
    data["failed"] = audit.failed
    return data


def _sha256_hex(secret_hex: str) -> str | None:
    try:
        return hashlib.sha256(fairness.parse_secret(secret_hex)).hexdigest()
    except fairness.FairnessError:
        return None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def match_export(match: Match) -> dict[str, Any]:
    """A revealed match as one JSON object that ``sahrat_verify.py --export`` checks on its own:
    options, seeds, commitment, secret, the whole action log, the recorded random events and the
    results. NotRevealed before the reveal (the secret is still the server's)."""
    if not match.revealed:
        raise NotRevealed
    audit = audit_of(match)
    return {
        "format": EXPORT_FORMAT,
        "fairness": fairness.VERSION,
        "game": match.game,
        "id": match.public_id,
        "table": match.table.public_id,
        "number": match.number,
        "options": match.options,
        "status": match.status,
        "started": match.started_at is not None,
        "commitment": match.commitment,
        "committed_at": _iso(match.created_at),
        "secret": match.secret,
        "revealed_at": _iso(match.revealed_at),
        "seeds": [
            {"seat": s.seat, "seed": s.seed, "at": _iso(s.at)} for s in match.seeds.order_by("seat")
        ],
        "actions": [
            {"seq": a.seq, "seat": a.seat, "action": a.action, "by": a.by, "at": _iso(a.at)}
            for a in match.actions.order_by("seq")
        ],
        "events": export_events(audit),
        "facts": {str(k): v for k, v in audit.facts.items()},
        "outcome": match.outcome,
        "end_reason": match.end_reason or None,
        "left_seats": sorted({r["seat"] for r in match.leavers}),
        "final_state": match.snapshot or None,
    }


def standalone_script() -> tuple[bytes, str]:
    """The downloadable verifier and its SHA-256 (shown on the page beside the link)."""
    data = STANDALONE.read_bytes()
    return data, hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------------ the replay


def replay_step(match: Match, step: int) -> dict[str, Any]:
    """Step ``step`` (0 = the first deal, k = after action k) of a revealed match: the state
    then, every seat's view of it, and the action that led there."""
    audit = audit_of(match, keep_states=True)
    last = len(audit.states) - 1
    step = min(max(0, step), last)
    engine = games.get(match.game)
    state = engine.from_json(audit.states[step])
    players = int(engine.options_to_dict(engine.parse_options(match.options))["players"])
    action = None
    if step > 0:
        action = match.actions.filter(seq=step).first()
    # Names for the seats: a player who sent a seed for this match sat there (a bot sent none).
    names = {
        s.seat: s.user.display_name or s.user.username for s in match.seeds.select_related("user")
    }
    return {
        "names": names,
        "step": step,
        "last": last,
        "state": state,
        "spectator": engine.spectator_view(state),
        "views": [engine.view(state, s) for s in range(players)],
        "action": action,
        "events": [e for e in audit.events if e["seq"] == step],
    }
