"""The wallet's use cases: grants, rewards, stakes into escrow, settlement, refunds and staff
adjustments. Every coin moves through ``wallet.ledger.post``; this module only decides which
transfers a use case needs and names each with an idempotency key, so running a use case twice
(a retried task, a double click) moves coins once.

The table services (games/services/) call in at a few points: ``can_stake`` at sit-down,
``escrow_stakes`` at match start, ``settle`` at match end, ``refund`` on abort. The ledger stands
below the tables and never reads them: the caller passes what it knows of the seats
(``LedgerSeat``) and of the coins other tables hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from language.errors import PlayerError
from wallet import ledger, payouts
from wallet.ledger import Leg
from wallet.models import Account, Transfer

MESSAGES = {
    "bad_amount": _("The amount must be a whole number of coins from 1 to %(max)s."),
    "reason_required": _("Write the reason for the adjustment."),
    # One code, one text, wherever coins fall short (a seat's stake, a staff's debit): the
    # tables' refusals use it too (games/services/errors.py).
    "not_enough_coins": _("The wallet does not have enough coins for this."),
}


class WalletError(PlayerError):
    """A refused wallet request: a stable ``code`` and ``message(lang)``."""

    def message(self, lang: str = "ar") -> str:
        with translation.override(lang):
            return str(MESSAGES[self.code]) % {"max": settings.WALLET_ADJUST_MAX}


@dataclass(frozen=True)
class LedgerSeat:
    """A seat of a match as the ledger needs it: its ``number``, the ``user`` sitting there
    (None for an empty seat or a bot's), whether the player ``left`` the match, and whether a
    ``bot`` sits or plays there (no reward for a bot's play)."""

    number: int
    user: Any | None
    left: bool = False
    bot: bool = False


# ---------------------------------------------------------------------------------------------
# Accounts


def _singleton(kind: str) -> Account:
    # get_or_create re-reads after a unique-constraint race, so two first callers agree.
    return Account.objects.get_or_create(kind=kind)[0]


def house_account() -> Account:
    return _singleton(Account.Kind.HOUSE)


def rewards_account() -> Account:
    return _singleton(Account.Kind.REWARDS)


def wallet_of(user: Any) -> Account:
    """The player's wallet (made, empty, the first time it is needed)."""
    return Account.objects.get_or_create(kind=Account.Kind.PLAYER, user=user)[0]


def balance_of(user: Any) -> int:
    row = Account.objects.filter(kind=Account.Kind.PLAYER, user=user).values("balance").first()
    return row["balance"] if row else 0


def _lock(accounts: Iterable[Account]) -> dict[int, Account]:
    """Lock rows in the ledger's order (by id), so a use case that reads balances before posting
    never takes locks in an order the ledger does not."""
    ids = sorted({a.pk for a in accounts})
    return {a.pk: a for a in Account.objects.select_for_update().filter(pk__in=ids).order_by("pk")}


# ---------------------------------------------------------------------------------------------
# Earning


def grant_starter(*, user: Any) -> Transfer | None:
    """The starter grant at sign-up (once per player, whatever calls it twice)."""
    amount = settings.WALLET_STARTER_GRANT
    if amount <= 0:
        return None
    return ledger.transfer(
        source=rewards_account(),
        dest=wallet_of(user),
        amount=amount,
        kind=Transfer.Kind.GRANT,
        reason="starter grant",
        key=f"grant:{user.pk}",
    )


def _day_start() -> datetime:
    today = timezone.localdate()
    return timezone.make_aware(datetime.combine(today, time.min))


def _rewards(match: Any, seats: Sequence[LedgerSeat]) -> None:
    """A reward from the rewards account for every person who played the free match to the end
    (not played for by a bot, not left), within each player's daily cap."""
    per_match, cap = settings.WALLET_MATCH_REWARD, settings.WALLET_DAILY_REWARD_CAP
    people = [s for s in seats if s.user is not None and not s.bot and not s.left]
    if per_match <= 0 or not people:
        return
    source = rewards_account()
    wallets = {s.user.pk: wallet_of(s.user) for s in people}
    # Hold the wallets while reading today's rewards, so two matches ending together cannot
    # both fit under the cap.
    _lock([source, *wallets.values()])
    since = _day_start()
    legs = []
    for seat in people:
        dest = wallets[seat.user.pk]
        key = f"reward:{match.pk}:{seat.user.pk}"
        earned = (
            Transfer.objects.filter(dest=dest, kind=Transfer.Kind.REWARD, created_at__gte=since)
            .exclude(key=key)
            .aggregate(n=Sum("amount"))["n"]
            or 0
        )
        amount = min(per_match, cap - earned)
        if amount > 0:
            legs.append(Leg(source.pk, dest.pk, amount, Transfer.Kind.REWARD, "match reward", key))
    if legs:
        ledger.post(legs, match=match)


# ---------------------------------------------------------------------------------------------
# Coin tables


def can_stake(*, user: Any, stake: int, promised: Callable[[], int]) -> bool:
    """Whether the player can cover a table's ``stake``: the wallet's balance less what other coin
    tables hold (``promised``, asked for once the wallet is locked: the tables know which of
    their seats hold a stake not yet in escrow). Locks the wallet until the caller's transaction
    ends, so twenty tabs sitting at once are checked one after another and coins for one stake
    seat the player once."""
    if not stake:
        return True
    wallet = wallet_of(user)
    locked = Account.objects.select_for_update().get(pk=wallet.pk)
    return locked.balance - promised() >= stake


@transaction.atomic(savepoint=False)
def escrow_stakes(*, match: Any, seats: Sequence[LedgerSeat]) -> list[int]:
    """At match start, every seat's stake moves into the match's escrow in one transaction, all
    or nothing. Returns the numbers of the seats whose player can no longer cover the stake
    (nothing moved: the caller stands them up and the match waits); an empty list once the
    stakes are in."""
    stake = match.table.stake
    if not stake:
        return []
    wallets = {s.number: wallet_of(s.user) for s in seats}
    locked = _lock(wallets.values())
    broke = [s.number for s in seats if locked[wallets[s.number].pk].balance < stake]
    if broke:
        return broke
    escrow = Account.objects.get_or_create(kind=Account.Kind.ESCROW, match=match)[0]
    legs = [
        Leg(
            wallets[s.number].pk,
            escrow.pk,
            stake,
            Transfer.Kind.STAKE,
            f"stake, seat {s.number + 1}",
            f"stake:{match.pk}:{s.number}",
            seat=s.number,
        )
        for s in seats
    ]
    ledger.post(legs, match=match)
    return []


def _stakes(escrow: Account) -> dict[int, Transfer]:
    """The stake transfers into a match's escrow, by seat number."""
    return {t.seat: t for t in Transfer.objects.filter(dest=escrow, kind=Transfer.Kind.STAKE)}


@transaction.atomic(savepoint=False)
def settle(match: Any, seats: Sequence[LedgerSeat]) -> None:
    """When a match ends: at a free table, the players' rewards; at a coin table, the pot from
    the escrow — the fee to the house, the rest by the engine's outcome (wallet/payouts.py).
    ``seats``: the match's seats, in seat order. Idempotent: every transfer has a key, so a
    second run (a retry after a crash) pays nothing more."""
    if not match.table.stake:
        _rewards(match, seats)
        return
    escrow = Account.objects.filter(kind=Account.Kind.ESCROW, match=match).first()
    if escrow is None or match.outcome is None:
        return
    stakes = _stakes(escrow)
    pot = sum(t.amount for t in stakes.values())
    left = [s.number for s in seats if s.left]
    result = payouts.split(pot, match.outcome, left, settings.WALLET_FEE_PERCENT)
    legs = []
    if result.fee:
        legs.append(
            Leg(
                escrow.pk,
                house_account().pk,
                result.fee,
                Transfer.Kind.FEE,
                "table fee",
                f"settle:{match.pk}:fee",
            )
        )
    for seat, amount in sorted(result.payouts.items()):
        legs.append(
            Leg(
                escrow.pk,
                stakes[seat].source_id,  # the wallet that paid this seat's stake
                amount,
                Transfer.Kind.PAYOUT,
                f"winnings, seat {seat + 1}",
                f"settle:{match.pk}:seat:{seat}",
            )
        )
    if legs:
        ledger.post(legs, match=match)


@transaction.atomic(savepoint=False)
def refund(match: Any) -> None:
    """An aborted match: every stake back to the wallet it came from, in full (idempotent)."""
    escrow = Account.objects.filter(kind=Account.Kind.ESCROW, match=match).first()
    if escrow is None:
        return
    legs = [
        Leg(
            escrow.pk,
            t.source_id,
            t.amount,
            Transfer.Kind.REFUND,
            f"stake refunded, seat {seat + 1}",
            f"refund:{match.pk}:{seat}",
        )
        for seat, t in sorted(_stakes(escrow).items())
    ]
    if legs:
        ledger.post(legs, match=match)


# ---------------------------------------------------------------------------------------------
# Staff


def adjust(
    *, staff: Any, user: Any, amount: int, reason: str, key: str, debit: bool = False
) -> Transfer:
    """A staff adjustment: a balanced transfer from the rewards account to a player's wallet
    (or back, ``debit``), with its reason and the staff member recorded. ``key`` (from the
    form) makes a resubmitted form move coins once."""
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise WalletError("reason_required")
    if type(amount) is not int or not 1 <= amount <= settings.WALLET_ADJUST_MAX:
        raise WalletError("bad_amount")
    wallet, source = wallet_of(user), rewards_account()
    if debit:
        wallet, source = source, wallet
    try:
        return ledger.transfer(
            source=source,
            dest=wallet,
            amount=amount,
            kind=Transfer.Kind.ADJUSTMENT,
            reason=reason,
            key=f"adjust:{key}",
            created_by=staff,
        )
    except ledger.InsufficientCoins:
        raise WalletError("not_enough_coins") from None
