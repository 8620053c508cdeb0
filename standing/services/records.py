"""A match's ending as the standing keeps it: the players' ratings (``rate_match``), one line
each in their history (``MatchRecord``), and their at-a-glance standing (``PlayerStanding``:
reputation, shown ratings, totals). Called once per ending by games/services/play.py
``end_match``, inside its transaction, after the coins moved.

Written out in SQL that PostgreSQL and SQLite both run, as the rating is: it runs inside every
match's ending, and the ORM's bulk_create and bulk_update cost several times the database's
work (bench.standing)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any

from django.db import connection

from standing import ratings, reputation
from standing.models import MatchRecord, PlayerStanding
from standing.services.ratings import rate_match
from wallet.models import Transfer
from wallet.selectors import coins_by_user

# The counts every mode's totals keep besides the game's own tally.
TOTALS = ("played", "won", "left", "coins")
RECORD_COLUMNS = (
    "user_id",
    "match_id",
    "game",
    "mode",
    "seat",
    "status",
    "rated",
    "place",
    "won",
    "left",
    "coins",
    "rating",
    "rating_change",
    "provisional",
    "stats",
    "ended_at",
)
QUOTED = ", ".join(f'"{c}"' for c in RECORD_COLUMNS)  # quoted: "left" is an SQL keyword


def match_ended(
    match: Any, seats: Iterable[Any], *, finished: bool, idle: Collection[int] = ()
) -> None:
    """Keep ``match`` (finished with its outcome, or aborted) in its players' standing, from its
    table's ``seats`` as the match ended (a leaver's seat still holds them); the seats in
    ``idle`` made no move of their own and are not rated. Exactly once: a
    finished match through the rating's key, an aborted one because only a playing match is
    aborted (the caller holds its lock)."""
    seats = sorted(seats, key=lambda s: s.number)
    humans = [s for s in seats if s.user_id is not None and not s.is_bot]
    mode = ratings.mode_of(match.game, match.options)
    if finished:
        rated = rate_match(match, seats, idle)
        if rated is None:
            return  # kept before (a retried ending)
        places = {p["seat"]: p["place"] for p in rated.players}
        moved = rated.moved
    else:
        places, moved = {}, {}
    if not humans:
        return
    # A finished match's coins are what it gave or cost; a cancelled one's, the stake refunded.
    coins = coins_by_user(match) if finished else coins_by_user(match, (Transfer.Kind.REFUND,))
    records = [
        _record(
            match,
            mode,
            seat,
            places.get(seat.number),
            moved.get(seat.user_id),
            coins,
            finished,
            seat.number in idle,
        )
        for seat in humans
    ]
    ended_at = connection.ops.adapt_datetimefield_value(match.ended_at)
    with connection.cursor() as cursor:
        # The players' standing rows locked first: their history lines are then numbered in
        # the order their standing moved on, the order the rebuild replays them in.
        kept = _lock(cursor, sorted(r["user_id"] for r in records)) if finished else {}
        cursor.execute(
            f"INSERT INTO standing_matchrecord ({QUOTED}) VALUES "
            + ", ".join([f"({', '.join(['%s'] * len(RECORD_COLUMNS))})"] * len(records)),
            [
                json.dumps(r[c]) if c == "stats" else ended_at if c == "ended_at" else r[c]
                for r in records
                for c in RECORD_COLUMNS
            ],
        )
        if finished:
            _keep(cursor, kept, records, mode)


def _record(
    match: Any,
    mode: str,
    seat: Any,
    place: int | None,
    change: tuple[float, float, float, float] | None,
    coins: dict[int, int],
    finished: bool,
    idle: bool = False,
) -> dict[str, Any]:
    """One player's history line, as a row of RECORD_COLUMNS. An ``idle`` player (no move of
    their own) keeps their place but no win: their stand-in's win is not theirs, so totals and
    head-to-head count none (docs/standing.md)."""
    after = None if change is None else ratings.shown(change[2], change[3])
    return {
        "user_id": seat.user_id,
        "match_id": match.pk,
        "game": match.game,
        "mode": mode,
        "seat": seat.number,
        "status": "finished" if finished else "aborted",
        "rated": change is not None,
        "place": place,
        "won": place == 1 and not seat.left and not idle,
        "left": bool(seat.left),
        "coins": coins.get(seat.user_id, 0),
        "rating": after,
        "rating_change": None if change is None else after - ratings.shown(change[0], change[1]),
        "provisional": change is not None and ratings.provisional(change[3]),
        "stats": match.tally.get(str(seat.number), {}) if finished else {},
        "ended_at": match.ended_at,
    }


def _lock(cursor: Any, users: list[int]) -> dict[int, dict[str, Any]]:
    """The players' at-a-glance rows, made if missing, locked and read in one upsert (in user
    order: two endings of the same players wait for each other, never deadlock)."""
    cursor.execute(
        "INSERT INTO standing_playerstanding (user_id, recent, shown, totals, leaves) VALUES "
        + ", ".join(["(%s, '', '{}', '{}', 0)"] * len(users))
        + " ON CONFLICT (user_id) DO UPDATE SET leaves = standing_playerstanding.leaves"
        " RETURNING user_id, recent, shown, totals",
        users,
    )
    return {
        user: {"recent": recent, "shown": _json(shown), "totals": _json(totals)}
        for user, recent, shown, totals in cursor.fetchall()
    }


def _keep(
    cursor: Any, kept: dict[int, dict[str, Any]], records: list[dict[str, Any]], mode: str
) -> None:
    """The locked rows moved on by the players' records: one update each, sent together."""
    for record in records:
        add_record(kept[record["user_id"]], record, mode)
    cursor.executemany(
        "UPDATE standing_playerstanding SET recent = %s, shown = %s, totals = %s"
        " WHERE user_id = %s",
        [
            (k["recent"], json.dumps(k["shown"]), json.dumps(k["totals"]), user)
            for user, k in sorted(kept.items())
        ],
    )


def _json(value: Any) -> Any:
    """A JSON column as read by a plain cursor: text (SQLite, and Django's PostgreSQL loader)
    or already decoded."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def add_record(kept: dict[str, Any], record: dict[str, Any], mode: str) -> None:
    """One finished match's record added to a player's standing (``recent``, ``shown``,
    ``totals``, changed in place; the rebuild redoes this)."""
    mark = reputation.LEFT if record["left"] else reputation.FINISHED
    kept["recent"] = reputation.push(kept["recent"], mark)
    if record["rating"] is not None:
        kept["shown"][mode] = [record["rating"], record["provisional"]]
    totals = kept["totals"].setdefault(mode, dict.fromkeys(TOTALS, 0))
    totals["played"] += 1
    totals["won"] += int(record["won"])
    totals["left"] += int(record["left"])
    totals["coins"] += record["coins"]
    for key, n in record["stats"].items():
        totals[key] = totals.get(key, 0) + n


def recount() -> dict[str, int]:
    """Every player's at-a-glance standing (recent marks, shown ratings, totals) recomputed from
    their finished history lines in the order they were kept, compared with what is stored:
    {"records", "standings", "standings_wrong"}. Nothing is written."""
    want: dict[int, dict[str, Any]] = {}
    records = 0
    rows = MatchRecord.objects.filter(status=MatchRecord.Status.FINISHED).order_by("id")
    for r in rows.values(*RECORD_COLUMNS).iterator(chunk_size=2000):
        records += 1
        kept = want.setdefault(r["user_id"], {"recent": "", "shown": {}, "totals": {}})
        add_record(kept, r, r["mode"])
    wrong = 0
    stored = PlayerStanding.objects.values_list("user_id", "recent", "shown", "totals")
    seen = set()
    for user, recent, shown, totals in stored:
        seen.add(user)
        blank = {"recent": "", "shown": {}, "totals": {}}
        if want.get(user, blank) != {"recent": recent, "shown": shown, "totals": totals}:
            wrong += 1
    wrong += len(set(want) - seen)
    return {"records": records, "standings": len(seen), "standings_wrong": wrong}
