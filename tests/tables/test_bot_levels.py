"""The bots' three strengths at a table: chosen in the create form (the table's, for the bots its
creator seats) or with the "bot" frame, shown at the seat, and played: a bot seated from the start
at its strength, one playing for an absent or departed player at normal (docs/bots.md)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import games
from games import frames, rendering, selectors, services
from games.models import Majlis, Match, Seat, Table
from games.services import TableError
from tests.tables.helpers import advance_until, make_table, seat_humans

pytestmark = pytest.mark.django_db


def test_the_create_form_sets_the_tables_bot_strength(users):
    Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("games:lobby"))
    assert b'name="bot_level"' in page.content
    client.post(
        reverse("games:table_new"),
        {"game": "jakaro", "players": "2", "stake": "0", "bot_level": "strong", "seat": "0"},
    )
    table = Table.objects.get()
    assert table.bot_level == "strong"
    with pytest.raises(TableError):
        make_table(users[0], "jakaro", {"players": 2}, bot_level="clever")


def test_a_bot_takes_the_tables_strength_or_its_own_and_the_seat_shows_it(users):
    a = users[0]
    table = make_table(a, "jakaro", {"players": 4}, bot_level="easy")
    seat_humans(table, [a])
    services.seat_add_bot(user=a, table_id=table.public_id, number=1)
    services.seat_add_bot(user=a, table_id=table.public_id, number=2, level="strong")
    with pytest.raises(TableError) as refused:
        services.seat_add_bot(user=a, table_id=table.public_id, number=3, level="genius")
    assert refused.value.code == "bad_bot_level"
    levels = dict(Seat.objects.filter(table=table).values_list("number", "bot_level"))
    assert (levels[1], levels[2]) == ("easy", "strong")
    table.refresh_from_db()
    state = selectors.table_state(table, a)
    assert [s["bot_level"] for s in state["table"]["seats"]][:3] == [None, "easy", "strong"]
    with translation.override("en"):
        labels = [s["label"] for s in rendering.table_context(state)["seats"]][:3]
    assert labels[1] == "bot 1 (easy)" and labels[2] == "bot 2 (strong)", labels
    with translation.override("ar"):
        html = frames.state_fragment(*selectors.table_states(table, a), "ar")
    assert "(قوي)" in html and "(سهل)" in html


def test_each_bot_plays_at_its_strength(users, monkeypatch):
    a = users[0]
    table = make_table(a, "jakaro", {"players": 2}, bot_level="strong")
    engine = games.get("jakaro")
    asked: list[str] = []
    real = engine.bot_action

    def spy(view, level="normal"):
        asked.append(level)
        return real(view, level)

    monkeypatch.setattr(engine, "bot_action", spy)
    seat_humans(table, [a])
    services.seat_add_bot(user=a, table_id=table.public_id, number=1)
    match = Match.objects.get(table=table, number=1)
    advance_until(match, lambda m: len(asked) >= 3)
    assert set(asked) == {"strong"}
