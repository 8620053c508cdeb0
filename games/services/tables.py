"""Tables: a new table with its first match, and the locked reads the other use cases start from.

A match's commitment is fixed when the match is made (``new_match``), before anyone sits, so a
player's browser can show it before it makes the seed it sends with the sit-down.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

import fairness.core as fairness
import games
from games.contract import BOT_LEVELS, BadOptions
from games.kept_queries import KeptQuery
from games.models import Majlis, Match, Seat, Table
from games.selectors import players_of
from games.services import events
from games.services.errors import TableError
from standing.reputation import MIN_REPUTATION_LEVELS


def table_create(
    *,
    user: Any,
    game: str,
    options: dict[str, Any],
    majlis: Majlis | None = None,
    private: bool = False,
    stake: int = 0,
    min_reputation: int = 0,
    bot_level: str = "normal",
) -> Table:
    """A new table and its first match, whose commitment is fixed now, before anyone sits.
    ``min_reputation``: one of MIN_REPUTATION_LEVELS (0: anyone may sit); ``bot_level``: how
    well the bots its creator seats play (games.contract.BOT_LEVELS)."""
    try:
        engine = games.get(game)
        parsed = engine.parse_options(options)
    except (games.UnknownGame, BadOptions) as exc:
        raise TableError("bad_options", str(exc)) from None
    plain = engine.options_to_dict(parsed)
    # Wallet: a coin table's stake is one of the levels in settings (0 is a free table).
    if type(stake) is not int or (stake != 0 and stake not in settings.WALLET_STAKE_LEVELS):
        raise TableError("bad_stake")
    if type(min_reputation) is not int or min_reputation not in MIN_REPUTATION_LEVELS:
        raise TableError("bad_options", f"min_reputation={min_reputation!r}")
    if bot_level not in BOT_LEVELS:
        raise TableError("bad_options", f"bot_level={bot_level!r}")
    if majlis is None:
        majlis = Majlis.objects.filter(active=True).first()
        if majlis is None:
            raise TableError("no_such_majlis")
    with transaction.atomic():
        table = Table.objects.create(
            majlis=majlis,
            game=game,
            options=plain,
            private=private,
            stake=stake,
            min_reputation=min_reputation,
            bot_level=bot_level,
            turn_seconds=engine.turn_seconds(parsed),
            created_by=user,
        )
        Seat.objects.bulk_create(
            Seat(table=table, number=n) for n in range(players_of(engine, parsed))
        )
        new_match(table, 1)
        events.broadcast_lobby()
    return table


def new_match(table: Table, number: int) -> Match:
    """The table's next match, waiting, with a fresh secret and its commitment."""
    secret = fairness.new_secret()
    return Match.objects.create(
        table=table,
        number=number,
        game=table.game,
        options=table.options,
        secret=secret.hex(),
        commitment=fairness.commitment(secret),
    )


def locked_table(public_id: str) -> Table:
    try:
        return Table.objects.select_for_update().get(public_id=public_id)
    except Table.DoesNotExist:
        raise TableError("no_such_table") from None


def my_seat(table: Table, user: Any) -> Seat | None:
    """``user``'s seat at ``table``, locked. Only the seat: Seat's default ordering joins the
    table, and a plain FOR UPDATE would lock the table's row too: that deadlocked a match's end
    (which updates the table, then its seats) against a player's socket closing, once sockets'
    calls ran in parallel (seen in bench.rooms)."""
    return table.seats.select_for_update(of=("self",)).filter(user=user).first()


# The table's last match locked, with its table (not locked: a move or a forfeit changes no table
# row), in one query kept compiled: it is read at every move (games/kept_queries.py).
_last_match_locked = KeptQuery(
    lambda public_id: (
        Match.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(table__public_id=public_id)
        .order_by("-number")[:1]
    ),
    marker="kept-query",
)


def playing_match(table_id: str) -> Match:
    """The table's match being played, locked, in one query with its table."""
    found = _last_match_locked(table_id)
    if not found:
        raise TableError("no_such_table")
    match = found[0]
    if match.status != Match.Status.PLAYING:
        raise TableError("not_playing")
    return match


# ------------------------------------------------------------------------------------- idle tables


def _idle(tables: QuerySet[Table]) -> QuerySet[Table]:
    """Of ``tables``, those waiting for players that no person has sat at for
    TABLE_IDLE_MINUTES: made before that, no person in a seat now (bots and empty seats only),
    none sitting down (a seed) nor a match ending within that time, and nobody with its page
    open. (A person who stood up, whose seed goes with them, and left its page leaves nothing
    behind: their table is closed at the next sweep, unless it is younger than that.)"""
    cutoff = timezone.now() - timedelta(minutes=settings.TABLE_IDLE_MINUTES)
    return (
        tables.filter(status=Table.Status.OPEN, created_at__lt=cutoff)
        .exclude(seats__user__isnull=False)
        .exclude(matches__seeds__at__gte=cutoff)
        .exclude(matches__ended_at__gte=cutoff)
        .exclude(presence__sockets__gt=0)
    )


def tables_idle(limit: int = 50) -> list[int]:
    """The idle tables (``_idle``) the sweeper closes (``table_close_idle``), so the lobby lists
    tables people may join (issue 57, item 14)."""
    return list(_idle(Table.objects.all()).values_list("pk", flat=True)[:limit])


@transaction.atomic
def table_close_idle(*, table_pk: int) -> bool:
    """Close an idle table (checked again under its lock): its waiting match, never played, is
    aborted and its secret revealed, and the lobby is told. False if it is no longer idle
    (someone sat down or opened it meanwhile) or another sweeper holds it."""
    table = Table.objects.select_for_update(skip_locked=True).filter(pk=table_pk).first()
    if table is None or not _idle(Table.objects.filter(pk=table_pk)).exists():
        return False
    match = table.matches.select_for_update().order_by("-number").first()
    table.status = Table.Status.CLOSED
    table.save(update_fields=["status"])
    if match is not None and match.status == Match.Status.WAITING:
        match.status = Match.Status.ABORTED
        match.ended_at = match.revealed_at = timezone.now()
        match.deadline = None
        match.save(update_fields=["status", "ended_at", "revealed_at", "deadline"])
        events.broadcast(table, match)
    events.broadcast_lobby()
    return True
