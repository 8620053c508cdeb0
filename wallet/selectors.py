"""Reads for the wallet pages: a player's balance and history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Sum

from wallet.models import Account, Transfer


def history(user: Any, page: Any) -> tuple[int, Page]:
    """The player's balance and one page of their transfers, newest first."""
    account = Account.objects.filter(kind=Account.Kind.PLAYER, user=user).first()
    if account is None:
        rows = Transfer.objects.none()
        balance = 0
    else:
        balance = account.balance
        rows = (
            Transfer.objects.filter(source=account) | Transfer.objects.filter(dest=account)
        ).select_related("match")
        rows = rows.order_by("-created_at", "-pk")
    pages = Paginator(rows, settings.WALLET_HISTORY_PAGE)
    found = pages.get_page(page)
    # Each coin match on the page with its pot and the fee the house took (once settled), so a
    # player sees where the pot went.
    ids = {t.match_id for t in found.object_list if t.match_id}
    pots, fees = {}, {}
    for row in (
        Transfer.objects.filter(match_id__in=ids, kind__in=(Transfer.Kind.STAKE, Transfer.Kind.FEE))
        .values("match_id", "kind")
        .annotate(n=Sum("amount"))
    ):
        (pots if row["kind"] == Transfer.Kind.STAKE else fees)[row["match_id"]] = row["n"]
    user_id = getattr(user, "pk", None)
    for t in found.object_list:
        t.signed = t.amount if account is not None and t.dest_id == account.pk else -t.amount
        t.pot, t.fee = pots.get(t.match_id), fees.get(t.match_id)
        # Why a match's coins moved as they did, said on its own line: the player left it
        # (their stake stayed in the pot: no transfer says so, coins did not move), or the
        # staff cancelled it (the refund).
        match = t.match
        # The game's key: the page names it (games' game_name filter), the wallet imports no game.
        t.game = match.game if match is not None else ""
        t.left_match = t.kind == Transfer.Kind.STAKE and bool(match and match.left_by(user_id))
        # A refund's why, one field: the match's end_reason ("staff" or "unplayed"), else "".
        refund = match is not None and t.kind == Transfer.Kind.REFUND
        t.refund_why = match.end_reason if refund else ""
    return balance, found


def refunds_of(match: Any) -> list[dict[str, Any]]:
    """What aborting ``match`` would give back (wallet.services.refund): each stake in its
    escrow, by seat, with the player whose wallet paid it. Empty for a free match or one whose
    stakes are not in (a waiting match)."""
    escrow = Account.objects.filter(kind=Account.Kind.ESCROW, match=match).first()
    if escrow is None:
        return []
    rows = Transfer.objects.filter(dest=escrow, kind=Transfer.Kind.STAKE).select_related(
        "source__user"
    )
    out = [{"seat": t.seat + 1, "user": t.source.user, "coins": t.amount} for t in rows]
    return sorted(out, key=lambda r: r["seat"])


def coins_by_user(match: Any, kinds: tuple[str, ...] | None = None) -> dict[int, int]:
    """What ``match`` moved for each player, by user id: stakes paid (−), payouts, rewards and
    refunds received (+); only transfers of ``kinds`` when given. One query, written out: it
    runs inside every match's ending (bench.standing), where the ORM's building of the two
    joins cost more than the database's work. A player whose coins did not move is left out."""
    sql = (
        "SELECT s.user_id, d.user_id, t.amount FROM wallet_transfer t"
        " JOIN wallet_account s ON s.id = t.source_id"
        " JOIN wallet_account d ON d.id = t.dest_id WHERE t.match_id = %s"
    )
    params: list[Any] = [match.pk]
    if kinds is not None:
        sql += f" AND t.kind IN ({', '.join(['%s'] * len(kinds))})"
        params += list(kinds)
    out: dict[int, int] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for source, dest, amount in cursor.fetchall():
            if source is not None:
                out[source] = out.get(source, 0) - amount
            if dest is not None:
                out[dest] = out.get(dest, 0) + amount
    return out


def coins_by_seat(match: Any) -> dict[str, int]:
    """What an ended match moved for each seat as it ended (its ``seating``), by seat number
    (a string, as JSON keys are): at a coin table the payout less the stake, at a free one the
    reward. The settlement's own transfers (``coins_by_user``), never a sum made again from
    the outcome; a seat with no transfer (a bot, a free match's player with no reward left
    today) is left out."""
    by_user = coins_by_user(match)
    return {
        str(number): by_user[row["user"]]
        for number, row in enumerate(getattr(match, "seating", None) or [])
        if row.get("user") is not None and row["user"] in by_user
    }
