"""The ledger's audit (``manage.py wallet_reconcile``): balances recomputed from the transfers."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Sum

from wallet.models import Account, Transfer

OVER = ("finished", "aborted")


@dataclass
class Report:
    accounts: int = 0
    transfers: int = 0
    total: int = 0
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = f"{self.accounts} accounts, {self.transfers} transfers, balances sum to {self.total}"
        return [head, *self.problems]


def check() -> Report:
    """Every difference between the stored balances and the transfers, in one snapshot."""
    # One repeatable-read snapshot: transfers written while we read cannot make a false alarm
    # (only possible when no transaction is open yet: the command, not a test's atomic block).
    fresh = not connection.in_atomic_block
    with transaction.atomic():
        if fresh and connection.vendor == "postgresql":
            with connection.cursor() as cur:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        report = Report()
        into = dict(Transfer.objects.values_list("dest").annotate(n=Sum("amount")))
        out = dict(Transfer.objects.values_list("source").annotate(n=Sum("amount")))
        report.transfers = Transfer.objects.count()
        for acc in Account.objects.select_related("match", "user").order_by("pk"):
            report.accounts += 1
            report.total += acc.balance
            computed = into.get(acc.pk, 0) - out.get(acc.pk, 0)
            if computed != acc.balance:
                report.problems.append(
                    f"account {acc.pk} ({acc}): balance {acc.balance}, transfers say {computed}"
                )
            if acc.kind != Account.Kind.REWARDS and computed < 0:
                report.problems.append(f"account {acc.pk} ({acc}): below zero ({computed})")
            if acc.kind == Account.Kind.ESCROW and acc.match.status in OVER and computed != 0:
                report.problems.append(
                    f"escrow {acc.pk} of match {acc.match.public_id} ({acc.match.status}) "
                    f"still holds {computed}"
                )
        if report.total != 0:
            report.problems.append(f"balances sum to {report.total}, not 0")
        return report
