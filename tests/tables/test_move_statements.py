"""What a player's move asks of the database: the match locked, the seats, the action logged and
the match's row written (docs/scaling.md). Each statement more is paid at every move of every
table, so a change that adds one (a related row or a deferred column fetched seat by seat, say)
fails here."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import games
from games import selectors, services
from games.models import Match
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db

TABLE = re.compile(r'(?:FROM|INTO|UPDATE)\s+"(\w+)"', re.IGNORECASE)
A_MOVE = [
    "SELECT games_match FOR UPDATE",
    "SELECT games_seat",
    "INSERT games_matchaction",
    "UPDATE games_match",
]


def statement(sql: str) -> str | None:
    """A statement as its verb and first table ("SELECT games_seat"); None for a savepoint."""
    verb = sql.split()[0].upper()
    if verb in ("SAVEPOINT", "RELEASE", "ROLLBACK"):
        return None
    found = TABLE.search(sql)
    locked = " FOR UPDATE" if "FOR UPDATE" in sql.upper() else ""
    return f"{verb} {found.group(1) if found else '?'}{locked}"


def test_the_reading_of_statements_tells_them_apart():
    assert statement('SELECT "games_seat"."id" FROM "games_seat" WHERE 1') == "SELECT games_seat"
    assert statement('SELECT "a" FROM "games_match" FOR UPDATE OF "games_match"') == (
        "SELECT games_match FOR UPDATE"
    )
    assert statement('UPDATE "games_match" SET "seq" = 2') == "UPDATE games_match"
    assert statement('SAVEPOINT "s1"') is None


@pytest.mark.parametrize("game", ["hand", "jakaro"])
def test_a_move_is_two_reads_and_two_writes(game, creator, users):
    table = make_table(creator, game, {"players": 4})
    seat_humans(table, users[:4])
    engine = games.get(game)
    moves = []
    for _ in range(5):
        match = Match.objects.get(table=table, status=Match.Status.PLAYING)
        state = engine.from_json(match.snapshot)
        seat = engine.to_move(state)
        action = engine.bot_action(engine.view(state, seat))
        with CaptureQueriesContext(connection) as moved:
            services.match_play(
                user=users[seat], table_id=table.public_id, seq=match.seq, action=action
            )
        moves.append(moved.captured_queries)
    assert Match.objects.get(table=table, number=1).seq == 5
    for queries in moves[1:]:  # a process's first move of a match fills its caches (seeds)
        done = [statement(q["sql"]) for q in queries]
        assert [s for s in done if s is not None] == A_MOVE


def test_the_seats_as_the_table_shows_them_cost_no_query_more(creator, users):
    table = make_table(creator, "hand", {"players": 4})
    seat_humans(table, users[:4])
    seats = list(selectors.seats_with_players(table.pk))
    with CaptureQueriesContext(connection) as read:
        rows = [selectors._seat_row(s, "hand") for s in seats]
    assert read.captured_queries == []
    assert [r["name"] for r in rows] == [u.display_name for u in users[:4]]
