"""Presence: how many sockets each seated player has open, and a seat kept while they are away.

A seat's ``connected`` counts its player's open sockets over every web process (``Presence``
rows, one per process); each process says it is alive every PRESENCE_BEAT_S (``WebProcess``,
games/presence.py runs the beat), and the sockets of a process silent for PRESENCE_LEASE_S are
taken off the seats (``processes_gone``). The last socket gone starts the seat's keeping; a player
back stands their bot up.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone

from games.models import Match, Presence, Seat, Table, WebProcess
from games.selectors import current_match
from games.services import clock, events
from games.services.tables import my_seat


def _presence_add(table: Table, user: Any, process: str, delta: int) -> None:
    """One socket more (``delta`` 1) or fewer (-1) for ``user`` at ``table`` in ``process``."""
    rows = Presence.objects.filter(table=table, user=user, process=process)
    if delta < 0:
        rows.filter(sockets__gt=0).update(sockets=F("sockets") - 1)
        rows.filter(sockets=0).delete()
        return
    if rows.update(sockets=F("sockets") + 1):
        return
    try:
        with transaction.atomic():  # a savepoint: the same person's second socket may race us
            Presence.objects.create(table=table, user=user, process=process, sockets=1)
    except IntegrityError:
        rows.update(sockets=F("sockets") + 1)


def sockets_of(table: Table, user: Any) -> int:
    """Sockets ``user`` has open to ``table``, over every web process not yet found gone."""
    found = Presence.objects.filter(table=table, user=user).aggregate(n=Sum("sockets"))["n"]
    return min(found or 0, 32767)


def _recount(table: Table, seat: Seat, away_from: datetime | None = None) -> bool:
    """The locked seat's ``connected`` from its player's presence rows. A player who is back
    stands their bot up; the last socket gone starts the seat's keeping (SEAT_KEEP_SECONDS from
    ``away_from``, default now). True if the others' picture of the seat changed."""
    count = sockets_of(table, seat.user)
    was_here = seat.connected > 0
    came_back = count > 0 and (seat.away_since is not None or seat.bot_playing)
    stood_up = count > 0 and seat.bot_playing
    in_play = table.status == Table.Status.PLAYING
    seat.connected = count
    if count > 0:
        if came_back and in_play and not seat.left:
            # Back while the seat was kept (or played by a bot): their page warns them what a
            # longer absence costs, on every socket of theirs, until their next move.
            seat.back_from = seat.away_since or timezone.now()
        seat.away_since = None
        seat.bot_playing = False
    elif was_here:
        seat.away_since = away_from or timezone.now()
    seat.save(update_fields=["connected", "away_since", "bot_playing", "back_from"])
    if stood_up:
        clock.reset_deadline(table)
    # The others are told when a seat's keeping starts or ends (their countdown, the bot's
    # tag), not for each extra tab.
    return came_back or (was_here and count == 0)


def _presence_changed(table: Table) -> None:
    """A seat's presence changed as the others see it (away, back): they are told after commit.
    During a match its deadline follows first (an away seat's turn is short, a player back gets
    their turn's time again), in a transaction of its own: no seat lock is held then while the
    match's is taken (a move and a match's end lock the match first, then seats)."""
    if table.status != Table.Status.PLAYING:
        events.broadcast(table, current_match(table))
        return
    transaction.on_commit(functools.partial(_clock_follows, table.pk), robust=True)


def _clock_follows(table_pk: int) -> None:
    with transaction.atomic():
        rows = Match.objects.select_for_update(of=("self",)).select_related("table")
        match = rows.filter(table_id=table_pk).order_by("-number").first()
        if match is None:
            return
        seats = list(Seat.objects.filter(table_id=table_pk).order_by("number"))
        clock.follow(match, seats)
        events.broadcast(match.table, match)  # one message for the seat and the clock


@transaction.atomic
def seat_connected(*, user: Any, table_id: str, process: str) -> None:
    """A socket of ``user`` to the table opened in web process ``process`` (a watcher's too: if
    they sit down, it holds the seat). A seated player is back: their bot stands up."""
    table = Table.objects.filter(public_id=table_id).first()
    if table is None or getattr(user, "pk", None) is None:
        return
    _presence_add(table, user, process, 1)
    events.presence_changed(user.pk)  # at a table now (their friends' lists)
    seat = my_seat(table, user)
    if seat is not None and _recount(table, seat):
        _presence_changed(table)


@transaction.atomic
def seat_disconnected(*, user: Any, table_id: str, process: str) -> None:
    """A socket closed; with none left anywhere the seat is kept for SEAT_KEEP_SECONDS (the
    others see a countdown)."""
    table = Table.objects.filter(public_id=table_id).first()
    if table is None or getattr(user, "pk", None) is None:
        return
    _presence_add(table, user, process, -1)
    events.presence_changed(user.pk)
    seat = my_seat(table, user)
    if seat is not None and _recount(table, seat):
        _presence_changed(table)


def process_seen(*, process: str) -> bool:
    """Web process ``process`` is alive (every PRESENCE_BEAT_S). True if it had no row: new, or
    found gone by ``processes_gone`` after a stall, so its open sockets must be counted again."""
    now = timezone.now()
    if WebProcess.objects.filter(id=process).update(seen_at=now):
        return False
    WebProcess.objects.get_or_create(id=process, defaults={"seen_at": now})
    return True


@transaction.atomic
def sockets_restored(*, process: str, sockets: dict[tuple[str, int], int]) -> None:
    """A process found gone (it stalled) is back: its open sockets, ``{(table id, user pk):
    count}``, are its presence again."""
    tables = {t.public_id: t for t in Table.objects.filter(public_id__in={t for t, _ in sockets})}
    users = get_user_model().objects.in_bulk({u for _, u in sockets})
    for (table_id, user_pk), count in sockets.items():
        table, user = tables.get(table_id), users.get(user_pk)
        if table is None or user is None or count <= 0:
            continue
        Presence.objects.update_or_create(
            table=table, user=user, process=process, defaults={"sockets": count}
        )
        seat = my_seat(table, user)
        if seat is not None and _recount(table, seat):
            _presence_changed(table)


def processes_gone() -> int:
    """Web processes not seen for PRESENCE_LEASE_S ended without closing their sockets (killed,
    crashed, or stopped for a deploy: Daphne says nothing to its sockets then). Their presence
    rows go, and every seat they held is counted again: one nobody else holds is kept from the
    process's last sign of life. Returns how many processes were found gone."""
    limit = timezone.now() - timedelta(seconds=settings.PRESENCE_LEASE_S)
    alive = WebProcess.objects.filter(seen_at__gte=limit).values("id")
    stale = Presence.objects.exclude(process__in=alive)
    gone = set(stale.values_list("process", flat=True))
    if not gone:
        WebProcess.objects.filter(seen_at__lt=limit).delete()
        return 0
    last_seen = dict(WebProcess.objects.filter(id__in=gone).values_list("id", "seen_at"))
    for process in gone:
        with transaction.atomic():
            rows = list(Presence.objects.select_for_update().filter(process=process))
            Presence.objects.filter(pk__in=[r.pk for r in rows]).delete()
            WebProcess.objects.filter(id=process).delete()
            for table_id, user_id in sorted({(r.table_id, r.user_id) for r in rows}):
                table = Table.objects.get(pk=table_id)
                seat = (
                    Seat.objects.select_for_update(of=("self",))
                    .filter(table=table, user_id=user_id)
                    .first()
                )
                if seat is not None and _recount(table, seat, last_seen.get(process)):
                    _presence_changed(table)
    WebProcess.objects.filter(seen_at__lt=limit).delete()
    return len(gone)
