"""The only code that writes coin transfers and balances (DESIGN.md, "Coins").

``post(legs)`` writes one or more transfers in one transaction, all or nothing:

- the accounts they touch are locked with ``SELECT … FOR UPDATE`` in one fixed order (by id), so
  two postings that share accounts wait for each other and never deadlock;
- each leg carries an idempotency key: a leg whose key is already written is not written again
  (the first transfer is returned instead), so a retried settlement or a double click moves
  coins once. The key is checked after the locks are held, when any earlier posting that used
  the same accounts has committed; the unique index on ``key`` is the backstop;
- a balance that would go below zero is refused (``InsufficientCoins``) before anything is
  written; the database's check constraint refuses it too, whatever happens above.

Called inside a caller's transaction (a match ending, a match starting), a posting joins it
without a savepoint of its own: a refusal then rolls back the caller's whole transaction, which
is what every such caller needs (a settlement or an escrow is never half done), and it saves two
round trips on every posting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from realtime import groups
from wallet.models import Account, Transfer


class LedgerError(Exception):
    """A posting the ledger refuses; nothing was written."""


class InsufficientCoins(LedgerError):
    """An account would go below zero."""

    def __init__(self, account: Account, needed: int) -> None:
        super().__init__(f"account {account.pk} has {account.balance}, needs {needed}")
        self.account = account
        self.needed = needed


class KeyConflict(LedgerError):
    """An idempotency key already names a different transfer (a bug in the caller)."""


@dataclass(frozen=True)
class Leg:
    """One transfer to write: ``amount`` coins from ``source`` to ``dest`` (account ids)."""

    source: int
    dest: int
    amount: int
    kind: str
    reason: str
    key: str
    seat: int | None = None  # the seat of a match whose stake this is (a stake's transfer only)


@dataclass(frozen=True)
class Posted:
    """What ``post`` did: every leg's transfer (new or found by key) and how many were new."""

    transfers: list[Transfer]
    created: int


def _check(leg: Leg) -> None:
    if type(leg.amount) is not int or leg.amount <= 0:
        raise LedgerError(f"amount must be a positive integer: {leg.amount!r}")
    if leg.source == leg.dest:
        raise LedgerError("a transfer needs two different accounts")
    if not leg.key or len(leg.key) > 120:
        raise LedgerError("every transfer needs an idempotency key (up to 120 characters)")
    if leg.kind not in Transfer.Kind.values:
        raise LedgerError(f"unknown kind {leg.kind!r}")


def _same(t: Transfer, leg: Leg) -> bool:
    return (t.source_id, t.dest_id, t.amount, t.kind) == (
        leg.source,
        leg.dest,
        leg.amount,
        leg.kind,
    )


# The three statements of every posting, written out: the ORM's query building (a SELECT …
# FOR UPDATE, a key lookup and above all bulk_update's CASE) was most of a transfer's CPU
# (bench.ledger). Plain SQL that PostgreSQL and SQLite both run.


def _marks(n: int) -> str:
    return ", ".join(["%s"] * n)


def _locked(ids: list[int]) -> list[Account]:
    """The accounts, locked in id order."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = f"SELECT * FROM {Account._meta.db_table} WHERE id IN ({_marks(len(ids))}) ORDER BY id"
    return list(Account.objects.raw(sql + lock, ids))


def _by_key(keys: list[str]) -> list[Transfer]:
    sql = f"SELECT * FROM {Transfer._meta.db_table} WHERE key IN ({_marks(len(keys))})"
    return list(Transfer.objects.raw(sql, keys))


def _set_balances(balances: dict[int, int]) -> None:
    if not balances:
        return
    cases = " ".join("WHEN %s THEN %s" for _ in balances)
    sql = (
        f"UPDATE {Account._meta.db_table} SET balance = CASE id {cases} END"
        f" WHERE id IN ({_marks(len(balances))})"
    )
    params = [v for pk, b in balances.items() for v in (pk, b)] + list(balances)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _insert(new: list[Transfer]) -> None:
    """Write the transfers in one INSERT and give each its id and time."""
    now = timezone.now()
    at = connection.ops.adapt_datetimefield_value(now)
    cols = "source_id, dest_id, amount, kind, reason, key, seat, match_id, created_by_id"
    cols += ", created_at"
    rows = ", ".join(f"({_marks(10)})" for _ in new)
    params: list[Any] = []
    for t in new:
        params += [t.source_id, t.dest_id, t.amount, t.kind, t.reason, t.key, t.seat]
        params += [t.match_id, t.created_by_id, at]
    sql = f"INSERT INTO {Transfer._meta.db_table} ({cols}) VALUES {rows} RETURNING id, key"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = dict((key, pk) for pk, key in cursor.fetchall())  # RETURNING has no set order
    for t in new:
        t.pk, t.created_at = ids[t.key], now
        t._state.adding = False


@transaction.atomic(savepoint=False)
def post(legs: Sequence[Leg], *, match: Any = None, created_by: Any = None) -> Posted:
    """Write ``legs`` (in order) in one transaction; legs whose key exists are skipped. Raises
    ``InsufficientCoins`` (nothing written) if an account other than the rewards account would
    go below zero at any point, ``KeyConflict`` if a key names a different transfer."""
    for leg in legs:
        _check(leg)
    keys = [leg.key for leg in legs]
    if len(set(keys)) != len(keys):
        raise LedgerError("two legs share an idempotency key")
    ids = sorted({leg.source for leg in legs} | {leg.dest for leg in legs})
    # One fixed order (by id) for every posting: no two postings wait on each other in a cycle.
    accounts = {a.pk: a for a in _locked(ids)}
    if len(accounts) != len(ids):
        raise LedgerError(f"no such account among {ids}")
    done = {t.key: t for t in _by_key(keys)}
    for leg in legs:
        if leg.key in done and not _same(done[leg.key], leg):
            raise KeyConflict(leg.key)
    todo = [leg for leg in legs if leg.key not in done]
    balances = {pk: a.balance for pk, a in accounts.items()}
    for leg in todo:
        balances[leg.source] -= leg.amount
        balances[leg.dest] += leg.amount
        source = accounts[leg.source]
        if source.kind != Account.Kind.REWARDS and balances[leg.source] < 0:
            raise InsufficientCoins(source, leg.amount)
    if not todo:
        return Posted([done[k] for k in keys], 0)
    new = [
        Transfer(
            source_id=leg.source,
            dest_id=leg.dest,
            amount=leg.amount,
            kind=leg.kind,
            reason=leg.reason[:200],
            key=leg.key,
            seat=leg.seat,
            match=match,
            created_by=created_by,
        )
        for leg in todo
    ]
    try:
        # No savepoint of its own (a round trip each way, on every transfer): on a refusal the
        # whole posting rolls back anyway.
        _insert(new)
    except IntegrityError as exc:
        # Only a posting that locked none of our accounts could have written one of our keys:
        # a caller reusing a key for other accounts.
        raise KeyConflict(str(exc)) from None
    changed = {pk: b for pk, b in balances.items() if b != accounts[pk].balance}
    _set_balances(changed)
    for pk, balance in changed.items():
        accounts[pk].balance = balance
    _tell_players(accounts, changed, new)
    written = {t.key: t for t in new}
    return Posted([done.get(k) or written[k] for k in keys], len(new))


def _tell_players(
    accounts: dict[int, Account], changed: dict[int, int], new: list[Transfer]
) -> None:
    """After commit: each player whose balance changed is sent it on every open page of theirs
    (``coins.changed`` to ``user.<id>``, realtime/groups.py), so the coins a page shows follow
    every posting (issue 57, item 8). ``mark`` is the newest transfer that moved the account:
    the account's lock orders its postings, so a page keeps the highest mark of two that cross
    on the way."""
    told = []
    for pk, balance in changed.items():
        account = accounts[pk]
        if account.kind == Account.Kind.PLAYER and account.user_id is not None:
            mark = max(t.pk for t in new if pk in (t.source_id, t.dest_id))
            told.append((account.user_id, balance, mark))
    if not told:
        return

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        for user_id, balance, mark in told:
            event = groups.USER.event("coins.changed", coins=balance, mark=mark)
            groups.send(layer, groups.USER.name(user_id), event)

    transaction.on_commit(send)


def transfer(
    *,
    source: Account,
    dest: Account,
    amount: int,
    kind: str,
    reason: str,
    key: str,
    match: Any = None,
    created_by: Any = None,
) -> Transfer:
    """One transfer (see ``post``); the first transfer with this key if there was one."""
    leg = Leg(source.pk, dest.pk, amount, kind, reason, key)
    return post([leg], match=match, created_by=created_by).transfers[0]
