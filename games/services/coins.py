"""The tables' side of the coin wallet: what the ledger is told, since it never reads a table.

The wallet (wallet/services.py) stands below the tables: it is given the seats as it needs them
(``LedgerSeat``) and the coins the player's other seats hold, and it moves the coins.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Sum

from games.models import Match, Seat, Table
from wallet import services as wallet_services
from wallet.services import LedgerSeat


def ledger_seats(seats: Iterable[Seat]) -> list[LedgerSeat]:
    """The seats as the ledger sees them, in seat order."""
    return [
        LedgerSeat(
            number=s.number,
            user=s.user if s.user_id is not None else None,
            left=s.left,
            bot=s.is_bot or s.bot_playing,
        )
        for s in sorted(seats, key=lambda s: s.number)
    ]


def _promised_elsewhere(user: Any, table: Table) -> int:
    """Coins promised to other coin tables: seats this player is ready at whose match has not
    started (a started match's stake is already in its escrow)."""
    return (
        Seat.objects.filter(user=user, ready=True, table__status=Table.Status.OPEN)
        .filter(table__stake__gt=0)
        .exclude(table=table)
        .aggregate(n=Sum("table__stake"))["n"]
        or 0
    )


def can_cover(user: Any, table: Table) -> bool:
    """Whether ``user`` can cover ``table``'s stake, checked under the wallet's lock."""
    return wallet_services.can_stake(
        user=user, stake=table.stake, promised=lambda: _promised_elsewhere(user, table)
    )


def escrow_stakes(match: Match, seats: list[Seat]) -> list[Seat]:
    """Every seat's stake into the match's escrow, all or nothing; the seats whose player can no
    longer cover it (nothing moved then)."""
    if not match.table.stake:
        return []  # a free table: no seat's player is read
    broke = set(wallet_services.escrow_stakes(match=match, seats=ledger_seats(seats)))
    return [s for s in seats if s.number in broke]


def settle(match: Match) -> None:
    """The wallet's settlement of an ended match, with its table's seats as they are now (a
    retry after the table reopened pays nothing more: every transfer has its key)."""
    seats = Seat.objects.filter(table_id=match.table_id).select_related("user")
    wallet_services.settle(match, ledger_seats(seats))


def refund(match: Match) -> None:
    """Every stake of an aborted match back to the wallet that paid it."""
    wallet_services.refund(match)
