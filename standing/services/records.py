"""A match's ending as the standing keeps it: the players' ratings (``rate_match``), one line
each in their history (``MatchRecord``), and their at-a-glance standing (``PlayerStanding``:
reputation, shown ratings, totals). Called once per ending by games/services/play.py
``end_match``, inside its transaction, after the coins moved."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from standing import ratings, reputation
from standing.models import MatchRecord, PlayerStanding
from standing.services.ratings import rate_match
from wallet.models import Transfer
from wallet.selectors import coins_by_user

# The counts every mode's totals keep besides the game's own tally.
TOTALS = ("played", "won", "left", "coins")


def match_ended(match: Any, seats: Iterable[Any], *, finished: bool) -> None:
    """Keep ``match`` (finished with its outcome, or aborted) in its players' standing, from its
    table's ``seats`` as the match ended (a leaver's seat still holds them). Exactly once: a
    finished match through the rating's key, an aborted one because only a playing match is
    aborted (the caller holds its lock)."""
    seats = sorted(seats, key=lambda s: s.number)
    humans = [s for s in seats if s.user_id is not None and not s.is_bot]
    mode = ratings.mode_of(match.game, match.options)
    if finished:
        rated = rate_match(match, seats)
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
    records = []
    for seat in humans:
        place = places.get(seat.number)
        change = moved.get(seat.user_id)
        records.append(
            MatchRecord(
                user_id=seat.user_id,
                match_id=match.pk,
                game=match.game,
                mode=mode,
                seat=seat.number,
                status=MatchRecord.Status.FINISHED if finished else MatchRecord.Status.ABORTED,
                rated=bool(moved),
                place=place,
                won=place == 1 and not seat.left,
                left=bool(seat.left),
                coins=coins.get(seat.user_id, 0),
                rating=None if change is None else ratings.shown(change[2], change[3]),
                rating_change=None
                if change is None
                else ratings.shown(change[2], change[3]) - ratings.shown(change[0], change[1]),
                provisional=change is not None and ratings.provisional(change[3]),
                stats=match.tally.get(str(seat.number), {}) if finished else {},
                ended_at=match.ended_at,
            )
        )
    MatchRecord.objects.bulk_create(records)
    if finished:
        _keep(records, mode)


def _keep(records: list[MatchRecord], mode: str) -> None:
    """The players' at-a-glance standing moved on by their records, their rows locked in user
    order (two endings of the same players wait for each other, never deadlock)."""
    users = sorted(r.user_id for r in records)
    PlayerStanding.objects.bulk_create(
        [PlayerStanding(user_id=u) for u in users], ignore_conflicts=True
    )
    rows = {
        row.user_id: row
        for row in PlayerStanding.objects.select_for_update()
        .filter(user_id__in=users)
        .order_by("user_id")
    }
    for record in records:
        row = rows[record.user_id]
        add_record(row, record, mode)
    PlayerStanding.objects.bulk_update(list(rows.values()), ["recent", "shown", "totals"])


def add_record(row: PlayerStanding, record: MatchRecord, mode: str) -> None:
    """One finished match's record added to a player's standing (the rebuild redoes this)."""
    mark = reputation.LEFT if record.left else reputation.FINISHED
    row.recent = reputation.push(row.recent, mark)
    if record.rating is not None:
        row.shown[mode] = [record.rating, record.provisional]
    totals = row.totals.setdefault(mode, dict.fromkeys(TOTALS, 0))
    totals["played"] += 1
    totals["won"] += int(record.won)
    totals["left"] += int(record.left)
    totals["coins"] += record.coins
    for key, n in record.stats.items():
        totals[key] = totals.get(key, 0) + n
