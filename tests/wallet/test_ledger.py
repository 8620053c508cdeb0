"""The ledger on PostgreSQL: the one writer of transfers. Idempotent by key, all or nothing, never
below zero (in Python and in the database), immutable rows, no deadlock under concurrent
writers, and the reconcile command that audits it all."""

from __future__ import annotations

import random
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F

from tests.wallet.conftest import balance, fund, total
from wallet import ledger
from wallet import services as wallet_services
from wallet.ledger import Leg
from wallet.models import Account, Transfer

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_grants_the_starter_coins_once(client, settings):
    from accounts import services as account_services

    user = account_services.user_create(
        username="newcomer", display_name="Newcomer", password="x-Long-pass-123", language="ar"
    )
    assert balance(user) == settings.WALLET_STARTER_GRANT
    wallet_services.grant_starter(user=user)  # a retry of the grant moves nothing
    assert balance(user) == settings.WALLET_STARTER_GRANT
    assert Transfer.objects.filter(kind=Transfer.Kind.GRANT).count() == 1
    assert wallet_services.rewards_account().balance == -settings.WALLET_STARTER_GRANT
    assert total() == 0


def test_sign_up_page_grants_coins(client, settings):
    resp = client.post(
        "/accounts/signup/",
        {
            "username": "pagejoin",
            "display_name": "Page",
            "password1": "x-Long-pass-123",
            "password2": "x-Long-pass-123",
            "language": "ar",
        },
    )
    assert resp.status_code in (200, 302)
    from accounts.models import User

    user = User.objects.filter(username="pagejoin").first()
    assert user is not None, resp.content[:500]
    assert balance(user) == settings.WALLET_STARTER_GRANT


def test_a_repeated_key_does_nothing_the_second_time(people):
    a, b = (wallet_services.wallet_of(p) for p in people[:2])
    first = ledger.transfer(source=a, dest=b, amount=7, kind="adjust", reason="x", key="k1")
    again = ledger.transfer(source=a, dest=b, amount=7, kind="adjust", reason="x", key="k1")
    assert again.pk == first.pk
    assert balance(people[0]) == 493 and balance(people[1]) == 507
    with pytest.raises(ledger.KeyConflict):  # the same key for another transfer: refused
        ledger.transfer(source=a, dest=b, amount=8, kind="adjust", reason="x", key="k1")
    assert balance(people[0]) == 493


def test_a_posting_is_all_or_nothing(people):
    a, b, c = (wallet_services.wallet_of(p) for p in people[:3])
    legs = [
        Leg(a.pk, b.pk, 100, "adjust", "ok", "all-1"),
        Leg(c.pk, b.pk, 501, "adjust", "no", "all-2"),
    ]
    with pytest.raises(ledger.InsufficientCoins):
        ledger.post(legs)
    assert [balance(p) for p in people[:3]] == [500, 500, 500]
    assert not Transfer.objects.filter(key__startswith="all-").exists()


@pytest.mark.parametrize("amount", [0, -5, 2.5, "10", True])
def test_bad_amounts_are_refused(people, amount):
    a, b = (wallet_services.wallet_of(p) for p in people[:2])
    with pytest.raises(ledger.LedgerError):
        ledger.transfer(source=a, dest=b, amount=amount, kind="adjust", reason="x", key="bad")
    assert balance(people[0]) == 500 and not Transfer.objects.filter(key="bad").exists()


def test_a_wallet_never_goes_negative_even_past_python(people):
    a = wallet_services.wallet_of(people[0])
    with pytest.raises(ledger.InsufficientCoins):
        ledger.transfer(
            source=a,
            dest=wallet_services.house_account(),
            amount=501,
            kind="adjust",
            reason="x",
            key="neg",
        )
    # The database refuses it too: a check constraint, whatever code runs above it.
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=a.pk).update(balance=F("balance") - 501)
    assert balance(people[0]) == 500


def test_transfers_are_immutable_in_python_and_in_the_database(people):
    fund(people[0], 5, key="imm")
    t = Transfer.objects.get(key="imm")
    t.amount = 500
    with pytest.raises(TypeError):
        t.save()
    with pytest.raises(TypeError):
        t.delete()
    # Going around the model: PostgreSQL's trigger refuses the row change.
    with pytest.raises(DatabaseError, match="immutable"), transaction.atomic():
        Transfer.objects.filter(key="imm").update(amount=500)
    with pytest.raises(DatabaseError, match="immutable"), transaction.atomic():
        Transfer.objects.filter(key="imm").delete()
    assert Transfer.objects.get(key="imm").amount == 5


def test_eight_concurrent_writers_never_deadlock_and_balances_add_up(people):
    """Random transfers among six wallets from eight threads at once, each posting two legs in
    opposite directions (the order that deadlocks a ledger without a fixed lock order)."""
    wallets = [wallet_services.wallet_of(p).pk for p in people]
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def writer(w: int) -> None:
        rnd = random.Random(w)
        try:
            start.wait()
            for i in range(40):
                x, y = rnd.sample(wallets, 2)
                legs = [
                    Leg(x, y, rnd.randint(1, 5), "adjust", "t", f"c{w}:{i}:a"),
                    Leg(y, x, rnd.randint(1, 5), "adjust", "t", f"c{w}:{i}:b"),
                ]
                try:
                    ledger.post(legs)
                except ledger.InsufficientCoins:
                    pass
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert Transfer.objects.filter(key__startswith="c").count() > 0
    assert sum(balance(p) for p in people) == 6 * 500
    call_command("wallet_reconcile")


def test_reconcile_passes_and_fails_on_a_tampered_balance(people, capsys):
    fund(people[0], 10, key="rec")
    call_command("wallet_reconcile")
    assert "the ledger reconciles" in capsys.readouterr().out
    Account.objects.filter(user=people[1]).update(balance=F("balance") + 1)  # tampered
    with pytest.raises(CommandError):
        call_command("wallet_reconcile")
    out = capsys.readouterr().out
    assert "balance 501, transfers say 500" in out and "sum to 1, not 0" in out


def test_reconcile_fails_on_a_tampered_transfer(people, capsys):
    fund(people[0], 10, key="rec2")
    # Behind the ledger's back, as a database superuser could (the trigger switched off).
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("ALTER TABLE wallet_transfer DISABLE TRIGGER wallet_transfer_immutable")
        cur.execute("UPDATE wallet_transfer SET amount = 11 WHERE key = 'rec2'")
        cur.execute("ALTER TABLE wallet_transfer ENABLE TRIGGER wallet_transfer_immutable")
    with pytest.raises(CommandError):
        call_command("wallet_reconcile")
    assert "transfers say 511" in capsys.readouterr().out


def test_demo_players_get_the_starter_grant_once(settings):
    from accounts.models import User

    call_command("demo_data")
    call_command("demo_data")  # make run runs it every time
    sara = User.objects.get(username="sara")
    assert balance(sara) == settings.WALLET_STARTER_GRANT
    assert balance(User.objects.get(username="staff")) == 0
    call_command("wallet_reconcile")
