"""Fixtures of the Verify tests: the live-table fixtures (players, a creator, short clocks, the
live site and Chromium) and finished matches of both games played through games/services/."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match
from tests.tables.conftest import creator, fast_clocks, users  # noqa: F401
from tests.tables.helpers import make_table, play_out, seat_humans
from tests.tables.test_browser_tables import majlis  # noqa: F401


def play_match(owner, players, game: str, options: dict, humans: int = 1) -> Match:
    """A match played to its end: ``humans`` seats taken by players (with browser seeds; their
    turns run out, so the server's time-out plays for them) and bots in the others."""
    table = make_table(owner, game, options)
    n = table.seats.count()
    seat_humans(table, players[:humans])
    for number in range(humans, n):
        services.seat_add_bot(user=owner, table_id=table.public_id, number=number)
    match = Match.objects.get(table=table, number=1)
    return play_out(match)


@pytest.fixture
def finished(fast_clocks, creator, users):  # noqa: F811
    """Make finished matches on demand: ``finished("hand", {"players": 2})``."""

    def make(game: str, options: dict, humans: int = 1) -> Match:
        return play_match(creator, users, game, options, humans)

    return make
