"""The test database's backend (tests/settings.py): Django's PostgreSQL backend with a quicker
flush, the one pytest-django runs after every transactional test.

Django empties the tables with one TRUNCATE of all of them. For tables of a few rows that is
the slow way: PostgreSQL gives each table and each of its indexes a new file, 120-170 ms a
flush here, and it empties the content types and permissions, which the flush's post_migrate
then writes again (another 50-180 ms). Here the same tables are locked as TRUNCATE locks them
(so a live site's worker waits, as before, and never sees half a flush), then emptied with
DELETE, about 12 ms; the content types and permissions are kept (post_migrate finds them all
and only reads). The ledger's transfers refuse DELETE (their immutability trigger), so that
table alone is truncated, and only when it holds rows.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations

# Rows that post_migrate makes again after every flush: kept, it only reads them.
KEPT = frozenset({"django_content_type", "auth_permission"})
# Append-only tables (a trigger refuses DELETE): TRUNCATE fires no row trigger.
TRUNCATED = frozenset({"wallet_transfer"})


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(
        self,
        style: Any,
        tables: list[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or not tables:  # a test that asks for fresh ids gets Django's own
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        emptied = [t for t in tables if t not in KEPT]
        names = ", ".join(self.quote_name(t) for t in emptied)
        # Django's foreign keys are DEFERRABLE: checked at the flush's commit, by when every
        # table is empty, so the order of the DELETEs does not matter.
        sql = [f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE", "SET CONSTRAINTS ALL DEFERRED"]
        for table in emptied:
            name = self.quote_name(table)
            if table in TRUNCATED:
                sql.append(
                    f"DO $$ BEGIN IF EXISTS (SELECT 1 FROM {name}) THEN "
                    f"TRUNCATE {name} CASCADE; END IF; END $$"
                )
            else:
                sql.append(f"DELETE FROM {name}")
        return sql


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
