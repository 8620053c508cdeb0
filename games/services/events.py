"""What a table's services send after commit: the table's "changed" event, the lobby's notice.

Nothing is sent from inside a transaction: each send is queued with ``transaction.on_commit``,
so a refused or rolled-back change tells nobody anything, and a lost message is repaired by the
clients' seq rules.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from cachetools import FIFOCache
from channels.layers import get_channel_layer
from django.db import transaction

from games import selectors, snapshots
from games.models import Match, MatchSeed, Seat, Table
from games.picture import TablePicture
from realtime import groups
from realtime.groups import send as group_send  # the publishing is realtime's (every sender's)

log = logging.getLogger(__name__)


@dataclass
class RowsInHand:
    """Rows a move's transaction has read already: the table's seats with their users (in seat
    order) and the match's seeds (in seat order). The move plays from them, and its broadcast
    makes the table's shared picture from them without reading anything again."""

    seats: list[Seat]
    seeds: list[MatchSeed]

    @classmethod
    def read(cls, match: Match) -> RowsInHand:
        return cls(selectors.seats_with_players(match.table_id), _seeds_of(match))


# A playing match's seeds never change (they are all in before it starts), so each process
# reads them once per match instead of once per move.
SEEDS_CACHE_SIZE = 4096
_seeds: FIFOCache[int, list[MatchSeed]] = FIFOCache(maxsize=SEEDS_CACHE_SIZE)


def _seeds_of(match: Match) -> list[MatchSeed]:
    if match.status != Match.Status.PLAYING:
        return list(match.seeds.order_by("seat"))
    rows = _seeds.get(match.pk)
    if rows is None:
        rows = _seeds[match.pk] = list(match.seeds.order_by("seat"))  # the oldest goes if full
    return rows


def broadcast(table: Table, match: Match, *, rows: RowsInHand | None = None) -> None:
    """After commit: tell everyone at the table that it changed. The event carries the table's
    picture (games/picture.py: what every viewer shares, no hand, no secret before its reveal)
    as plain data; the match's snapshot goes to Redis for the sockets to make their own seat's
    view from (games/snapshots.py). Never a hand in the group's message.

    ``rows``: the rows a move's transaction already holds (its seats with their users, the match
    it changed and that match's seeds). The picture is then made from them now, inside the
    transaction, with no query at all: a move is the commonest change, and re-reading the table
    for it cost Daphne about a third of its CPU per move (bench.rooms). Without it the picture
    is read after commit."""
    group, table_pk, seq, public_id = table.group, table.pk, match.seq, match.public_id
    ready: tuple[TablePicture, Match] | None = None
    if rows is not None:
        ready = selectors.picture_and_shown(table, seats=rows.seats, match=match, seeds=rows.seeds)

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        event = groups.TABLE.event("table.changed", seq=seq, match=public_id)
        try:
            # Re-read unless in hand: the caller's table row may predate what the transaction
            # changed.
            picture, shown = ready or selectors.picture_and_shown(Table.objects.get(pk=table_pk))
            if shown.snapshot:
                snapshots.publish(shown.public_id, shown.seq, shown.snapshot)
            event["picture"] = picture.to_wire()
        except Exception as exc:  # the sockets read the table from the database instead
            log.warning("table %s: no shared state for the broadcast: %r", group, exc)
        group_send(layer, group, event)  # a lost one is repaired by the clients' seq rules

    transaction.on_commit(send)


def broadcast_lobby() -> None:
    """After commit: tell the lobby's sockets that the list of tables changed."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            group_send(layer, groups.MAJLIS.name(), groups.MAJLIS.event("majlis.changed"))

    transaction.on_commit(send)


def presence_changed(*user_ids: int) -> None:
    """After commit: where these players are changed (they sat, stood up, a match of theirs
    started or ended, a table page of theirs opened or closed); each one's presence group
    (``presence.<id>``, joined by the lobby sockets of the friends who may see them) is told.
    The games never read who follows whom."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            for user_id in set(user_ids):
                group_send(layer, groups.PRESENCE.name(user_id), _presence_event(user_id))

    transaction.on_commit(send)


async def presence_changed_async(layer: Any, user_id: int) -> None:
    """``presence_changed`` from a socket (a lobby socket opened or closed: online or not)."""
    if layer is not None:
        await groups.send_async(layer, groups.PRESENCE.name(user_id), _presence_event(user_id))


def _presence_event(user_id: int) -> dict[str, Any]:
    return groups.PRESENCE.event("presence.changed", user=user_id)
