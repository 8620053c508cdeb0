"""A read made at every move of every table, its SQL compiled once.

Django builds a queryset's SQL anew at every evaluation: resolving the joins of a
``select_related``, the columns, the lock, the ordering. For the two reads of a move (the match
locked with its table, the seats with their players) that building was more than half of the
move's own transaction in Daphne's profile (docs/scaling.md), for SQL that is the same at every
move but for one parameter. A ``KeptQuery`` is such a read: the ORM's queryset, compiled once
per thread's connection with a marker for its one parameter, then run with the parameter and
its rows made into models by the ORM's own machinery (``Model.from_db``, the ``select_related``
populators, the fields' converters), so what comes back is what the queryset itself returns:
tests/tables/test_kept_queries.py holds the two alike, field by field.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, NamedTuple

from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, connections, router
from django.db.models import Field, Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError


class _Compiled:
    """One connection's SQL for the query and what turns its rows into models."""

    def __init__(self, queryset: QuerySet, marker: Any) -> None:
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise ImproperlyConfigured("a kept query reads its rows in one statement")
        db = queryset.db
        self.connection = connections[db]
        self.locks = queryset.query.select_for_update
        self.compiler = queryset.query.get_compiler(using=db)
        self.sql, params = self.compiler.as_sql()  # fills select and klass_info too
        if tuple(params) != (marker,):
            raise ImproperlyConfigured(f"a kept query takes one parameter, not {params!r}")
        select, klass_info = self.compiler.select, self.compiler.klass_info
        if self.compiler.annotation_col_map or self.compiler.has_extra_select:
            raise ImproperlyConfigured("a kept query reads models only")
        self.db = db
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.names = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, db)
        self.converters = self.compiler.get_converters([f[0] for f in select])


class KeptQuery:
    """``build(value)``'s models, its SQL compiled once per thread (Django's connections are the
    thread's own): ``build`` makes the queryset for a parameter, called once with ``marker``,
    a value of the parameter's type that the SQL must carry as its only parameter."""

    def __init__(self, build: Callable[[Any], QuerySet], marker: Any) -> None:
        self._build = build
        self._marker = marker
        self._local = threading.local()

    def _compiled(self) -> _Compiled:
        kept: _Compiled | None = getattr(self._local, "kept", None)
        if kept is None or kept.connection is not connections[kept.db]:
            kept = self._local.kept = _Compiled(self._build(self._marker), self._marker)
        return kept

    def __call__(self, value: Any) -> list[Model]:
        # The ORM prepares a value for its field (5 for a text column becomes "5"); a kept query
        # passes it as it is, so only a value of the marker's type is taken.
        if type(value) is not type(self._marker):
            raise TypeError(f"a kept query takes a {type(self._marker).__name__}, not {value!r}")
        kept = self._compiled()
        # Django refuses a locking read outside a transaction when it builds the SQL, which a
        # kept query does only once: refused here at every call.
        if kept.locks and kept.connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside a transaction."
            )
        with kept.connection.cursor() as cursor:
            cursor.execute(kept.sql, (value,))
            rows: Any = cursor.fetchall()
        if kept.converters:
            rows = kept.compiler.apply_converters(rows, kept.converters)
        out = []
        for row in rows:
            obj = kept.model.from_db(kept.db, kept.names, row[kept.start : kept.end])
            for populator in kept.populators:
                populator.populate(row, obj)
            out.append(obj)
        return out


# ------------------------------------------------------------------ the two writes of a move

# A move writes two rows: its action, inserted, and the match's changed fields, updated. Through
# the ORM (``create``, ``save(update_fields=...)``) the two cost a third of the move's own CPU,
# most of it building the same SQL again (docs/scaling.md, issue 58). Here each statement is
# written once, and the values are made ready for the database by the fields themselves
# (``get_db_prep_save``: a JSON field's adapter, a date's), as ``save`` makes them.


def insert_row(model: type[Model], values: dict[str, Any]) -> None:
    """INSERT one row of ``model`` with ``values`` (by field name; every column without a
    default named), in the current transaction."""
    written = _written("insert", model, tuple(values))
    connection = connections[written.alias]  # the calling thread's own
    params = [f.get_db_prep_save(values[f.name], connection) for f in written.fields]
    with connection.cursor() as cursor:
        cursor.execute(written.sql, params)


def update_row(obj: Model, names: tuple[str, ...]) -> None:
    """UPDATE ``obj``'s row with its fields ``names`` as ``obj.save(update_fields=names)``
    writes them (no signals: none is connected to these models), in the current transaction."""
    written = _written("update", type(obj), names)
    connection = connections[written.alias]
    params = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in written.fields]
    with connection.cursor() as cursor:
        cursor.execute(written.sql, [*params, obj.pk])
        if cursor.rowcount != 1:  # as save(update_fields=...) refuses a row that is gone
            raise DatabaseError(f"{obj._meta.label} {obj.pk}: no row was updated")


class _Written(NamedTuple):
    alias: str
    sql: str
    fields: list[Field]


@functools.cache
def _written(kind: str, model: type[Model], names: tuple[str, ...]) -> _Written:
    """A write's statement and fields, made once per kind, model and field names."""
    meta, alias = model._meta, router.db_for_write(model)
    q = connections[alias].ops.quote_name
    fields = [meta.get_field(name) for name in names]
    if kind == "insert":
        columns = ", ".join(q(f.column) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {q(meta.db_table)} ({columns}) VALUES ({marks})"
    else:
        sets = ", ".join(f"{q(f.column)} = %s" for f in fields)
        sql = f"UPDATE {q(meta.db_table)} SET {sets} WHERE {q(meta.pk.column)} = %s"
    return _Written(alias, sql, fields)
