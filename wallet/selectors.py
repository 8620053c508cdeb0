"""Reads for the wallet pages: a player's balance and history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator

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
    for t in found.object_list:
        t.signed = t.amount if account is not None and t.dest_id == account.pk else -t.amount
    return balance, found
