"""``python -m bench.ledger`` runs on PostgreSQL and ends with its one JSON line (figures are not
asserted: tests never judge wall-clock time); the ledger it leaves still reconciles."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from bench import ledger as bench

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_ledger_bench_ends_with_its_json_line(capsys):
    assert bench.main(["--quick", "--scale", "0.1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert set(figures) == {"transfers_per_s_1", "transfers_per_s_8", "settle_4p_ms", "quick"}
    assert figures["transfers_per_s_1"] > 0 and figures["transfers_per_s_8"] > 0
    assert figures["settle_4p_ms"] > 0
    call_command("wallet_reconcile")
