"""The coin ledger: accounts with their balance, and immutable transfers between them.

Double entry: every coin that moves is one ``Transfer`` from one account to another, so the
balances of all accounts together always sum to zero (the rewards account, where earned coins
come from, is the only one that goes below zero, by design). ``wallet/ledger.py`` is the only
code that creates transfers or changes a balance (docs/wallet.md).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Account(models.Model):
    """Where coins are kept: a player's wallet, the house fee account, one escrow account per
    coin match, or the rewards account. ``balance`` always equals the sum of its transfers
    (``manage.py wallet_reconcile`` checks)."""

    class Kind(models.TextChoices):
        PLAYER = "player", _("player wallet")
        HOUSE = "house", _("house fee account")
        ESCROW = "escrow", _("match escrow")
        REWARDS = "rewards", _("rewards")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wallet",
        verbose_name=_("player"),
    )
    match = models.OneToOneField(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="escrow",
        verbose_name=_("match"),
    )
    balance = models.BigIntegerField(_("balance"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ("kind", "pk")
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            # Only the rewards account (the source of earned coins) may go below zero; the
            # database refuses it for everyone else, whatever the Python above it does.
            models.CheckConstraint(
                condition=models.Q(kind="rewards") | models.Q(balance__gte=0),
                name="account_balance_not_negative",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="player", user__isnull=False, match__isnull=True)
                    | models.Q(kind="escrow", user__isnull=True, match__isnull=False)
                    | models.Q(kind__in=("house", "rewards"), user__isnull=True, match__isnull=True)
                ),
                name="account_owner_matches_kind",
            ),
            models.UniqueConstraint(
                fields=("kind",),
                condition=models.Q(kind__in=("house", "rewards")),
                name="account_one_house_one_rewards",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLAYER:
            return f"{self.get_kind_display()}: {self.user}"
        if self.kind == self.Kind.ESCROW:
            return f"{self.get_kind_display()}: {self.match}"
        return str(self.get_kind_display())


class Transfer(models.Model):
    """Coins moved from one account to another: immutable once written. ``key`` makes a
    repeated request (a retried settlement, a double click) a no-op."""

    class Kind(models.TextChoices):
        GRANT = "grant", _("starter grant")
        REWARD = "reward", _("match reward")
        STAKE = "stake", _("stake into the pot")
        FEE = "fee", _("table fee")
        PAYOUT = "payout", _("winnings")
        REFUND = "refund", _("stake refunded")
        ADJUSTMENT = "adjust", _("staff adjustment")

    source = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="sent", verbose_name=_("from")
    )
    dest = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="received", verbose_name=_("to")
    )
    amount = models.BigIntegerField(_("amount"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=200)
    match = models.ForeignKey(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="transfers",
        verbose_name=_("match"),
    )
    key = models.CharField(_("idempotency key"), max_length=120, unique=True)
    # A stake's transfer: the seat it was paid for (its winnings and its refund go back to the
    # wallet that paid it). None for every other kind.
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("staff member"),
    )

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="transfer_positive"),
            models.CheckConstraint(
                condition=~models.Q(source=models.F("dest")), name="transfer_two_accounts"
            ),
        ]
        indexes = [models.Index(fields=("kind", "created_at"))]

    def __str__(self) -> str:
        return f"{self.amount} {self.source_id}→{self.dest_id} ({self.kind})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Immutable: a transfer is written once (by wallet/ledger.py) and never changed.
        if self.pk is not None:
            raise TypeError("a transfer is immutable")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a transfer is never deleted")
