"""Fixtures of the wallet tests: players with coins, and a coin match in play."""

from __future__ import annotations

from typing import Any

import pytest

from wallet import ledger
from wallet import services as wallet_services
from wallet.models import Account, Transfer


@pytest.fixture
def people(django_user_model):
    """Six players, each with the starter grant (as sign-up gives it)."""
    out = []
    for i in range(6):
        user = django_user_model.objects.create_user(
            f"p{i}", password="x-Long-pass-123", display_name=f"لاعب {i}"
        )
        wallet_services.grant_starter(user=user)
        out.append(user)
    return out


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="x-Long-pass-123")


def fund(user: Any, coins: int, key: str) -> None:
    """Give ``user`` exactly ``coins`` more (from the rewards account, through the ledger)."""
    ledger.transfer(
        source=wallet_services.rewards_account(),
        dest=wallet_services.wallet_of(user),
        amount=coins,
        kind=Transfer.Kind.ADJUSTMENT,
        reason="test funding",
        key=key,
    )


def balance(user: Any) -> int:
    return wallet_services.balance_of(user)


def total() -> int:
    return sum(Account.objects.values_list("balance", flat=True))
