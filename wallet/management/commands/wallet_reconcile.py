"""Recompute every balance from the transfers and check the ledger's promises (docs/wallet.md):
each account's balance equals what its transfers say, all balances sum to zero, no wallet is
below zero, and every escrow of a match that is over is empty. Exit status 1 with a report on any
difference, 0 when all is well."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from wallet import reconcile


class Command(BaseCommand):
    help = "Recompute every wallet balance from the transfers; fail on any difference."

    def handle(self, *args: Any, **options: Any) -> None:
        report = reconcile.check()
        for line in report.lines():
            self.stdout.write(line)
        if report.problems:
            raise CommandError(f"the ledger does not reconcile: {len(report.problems)} problem(s)")
        self.stdout.write(self.style.SUCCESS("the ledger reconciles"))
