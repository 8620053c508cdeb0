"""The Jakaro board (issue 12) as the server draws it: the SVG's squares, homes, bases and
marbles with their names, the card faces, and the data the page's script reads; and no seat's
fragment holds another seat's cards."""

from __future__ import annotations

import json
import re

import pytest

import games
from games import rendering, selectors
from games.jakaro.scenario import build
from games.models import Match
from tests.tables.helpers import advance_until, make_table, seat_humans

pytestmark = pytest.mark.django_db

CARD = re.compile(r"(?<![\w])(?:10|[2-9AJQK])[SHDC](?![\w])")


def set_position(match: Match, position: dict) -> None:
    """Put a match in a scripted position (the scenario format), keeping its random source."""
    state, _rng = build(position)
    Match.objects.filter(pk=match.pk).update(
        snapshot=games.get("jakaro").to_json(state), seq=match.seq + 1
    )
    match.refresh_from_db()


def data_of(html: str) -> dict:
    found = re.search(r'<script id="jakaro-data" type="application/json">(.*?)</script>', html)
    assert found, "the board's data is in the fragment"
    return json.loads(found.group(1))


def test_each_seats_fragment_holds_its_cards_and_no_other_seats(creator, users, fast_clocks):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table)
    advance_until(match, lambda m: m.seq >= 6)
    table.refresh_from_db()
    states = [selectors.table_state(table, users[s]) for s in (0, 1)]
    for seat, state in enumerate(states):
        html = rendering.state_fragment(state, "ar")
        own = set(state["view"]["hand"])
        other = set(states[1 - seat]["view"]["hand"])
        pile = set(state["view"]["discard"])
        named = set(CARD.findall(html))
        assert own <= named  # drawn as card faces and in the data
        assert not (other - pile) & named, (seat, other & named)
        assert match.secret not in html


def test_the_board_is_drawn_with_names_for_squares_and_marbles(creator, users, fast_clocks):
    table = make_table(creator, "jakaro", {"players": 4})
    seat_humans(table, users[:4])
    match = Match.objects.get(table=table)
    set_position(
        match,
        {
            "players": 4,
            "marbles": {0: [12, "H1", "base", "base"], 1: [19, "base", "base", "base"]},
            "hands": {0: ["KS", "5H", "7D", "4C"], 1: ["2C"], 2: ["3C"], 3: ["4D"]},
            "turn": 0,
        },
    )
    table.refresh_from_db()
    html = rendering.state_fragment(selectors.table_state(table, users[0]), "ar")
    assert html.count('class="jk-sq') - html.count("jk-home") == 76
    assert html.count("jk-home") == 16 and html.count('class="jk-hole"') == 16
    assert 'aria-label="كرة زرقاء في الخانة ١٢"' in html
    assert "الشايب: اطلع أو ١٣" in html  # the King's face, in words
    data = data_of(html)
    assert (
        data["legal"]
        == games.get("jakaro").view(games.get("jakaro").from_json(match.snapshot), 0)["legal"]
    )
    # The Five cannot move seat 1's marble on its own start: the page is told why.
    assert data["why"]["5H"]["1:m0"] == "محمية على مربع بدايتها"
    # The viewer's colour is at the bottom: seat 0's start square (0) at the bottom middle.
    start = re.search(r'class="jk-sq jk-start c0" data-sq="0" cx="([\d.]+)" cy="([\d.]+)"', html)
    assert start and float(start.group(2)) > 370
    # Seat 2 sees its own start (38) at the bottom instead.
    html2 = rendering.state_fragment(selectors.table_state(table, users[2]), "en")
    start2 = re.search(r'class="jk-sq jk-start c2" data-sq="38" cx="([\d.]+)" cy="([\d.]+)"', html2)
    assert start2 and float(start2.group(2)) > 370
    assert 'aria-label="blue marble on square 12"' in html2


def test_a_watcher_sees_the_board_and_no_hand(creator, users, fast_clocks):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table)
    advance_until(match, lambda m: m.seq >= 3)
    table.refresh_from_db()
    html = rendering.state_fragment(selectors.table_state(table, users[4]), "en")
    assert html.count("jk-marble ") == 8  # both colours' marbles are drawn
    data = data_of(html)
    assert data["seat"] is None and data["legal"] == [] and data["why"] == {}
    assert "jk-card" not in html and 'data-frame="move"' not in html
    hands = games.get("jakaro").from_json(Match.objects.get(pk=match.pk).snapshot).hands
    pile = set(
        games.get("jakaro").spectator_view(
            games.get("jakaro").from_json(Match.objects.get(pk=match.pk).snapshot)
        )["discard"]
    )
    assert not (set(hands[0]) | set(hands[1])) - pile & set(CARD.findall(html))
