"""Issue 58: the table's frames are the part every viewer shares, drawn once per change for all
of them (games/frames.py), and each viewer's own parts. Neither may carry what the viewer may
not see: in every mode of both games, at every move of a stretch of play, the shared part holds
no card of any hand (only what the spectator view shows) and no secret before its reveal, and a
seat's own parts hold no card of another seat's hand. The socket-level recorder
(tests/tables/test_consumers.py) checks the JSON frames; tests/tables/test_pages.py an HTML
socket's."""

from __future__ import annotations

import json
import re

import pytest

import games
from bench.site import play_one
from games import frames, selectors
from games.models import Match
from tests.engines.test_contract import MATCHES, card_tokens
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db

# A card's text as the frames write it: in a data attribute, an action text (not the card a
# joker stands for, "JK1=10C": no card of anyone's).
CARD = re.compile(r"(?<![\w=])(?:10|[2-9AJQK])[SHDC](?![\w])|JK[12]")
# The seat's view its page's script reads, embedded as JSON; the Hand's also names every card
# there is (for the joker picker), so its cards are read from the view itself.
EMBEDDED = re.compile(
    r'<script id="(?:hand-view|jakaro-data)" type="application/json">(.*?)</script>'
)


def cards_in(text: str) -> set[str]:
    """The cards a part names: in its HTML, and in the view it embeds for the page's script."""
    found = set()
    for data in map(json.loads, EMBEDDED.findall(text)):
        found |= card_tokens(data.get("view", data))
    return found | set(CARD.findall(EMBEDDED.sub("", text)))


MOVES = 40  # a stretch of play in each mode: deals, draws, throws, melds, marbles out


def _hands(game: str, match: Match) -> list[set[str]]:
    """Every seat's hand now, from the server's own state."""
    engine = games.get(game)
    state = selectors.load_state(match)
    return [set(engine.view(state, seat)["hand"] or []) for seat in range(len(_seats(match)))]


def _seats(match: Match) -> list:
    return list(match.table.seats.order_by("number"))


@pytest.mark.parametrize(("game", "options"), MATCHES, ids=[f"{g}-{o}" for g, o in MATCHES])
def test_no_part_of_a_frame_holds_what_its_viewer_may_not_see(users, game, options):
    players = options["players"]
    table = make_table(users[0], game, options)
    seat_humans(table, users[:players])
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    checked = 0
    for _ in range(MOVES):
        table.refresh_from_db()
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            break
        hands = _hands(game, match)
        pairs = [selectors.table_states(table, users[s]) for s in range(players)]
        watcher, shared = selectors.table_states(table, users[players])
        public = card_tokens(shared["view"])  # what anyone may see: the spectator view's cards
        drawn = frames.draw_shared(shared, "ar", None)
        assert not cards_in(drawn) - public, "a hand's card in the shared part"
        assert match.secret not in drawn
        for seat, (state, _shared) in enumerate(pairs):
            own = frames.own_parts(state, "ar", None).text() + frames.chat_part(state, "ar", None)
            others = set().union(*(h for s, h in enumerate(hands) if s != seat)) - hands[seat]
            named = cards_in(own)
            leaked = named & others - public
            assert not leaked, (seat, match.seq, leaked)
            assert hands[seat] <= named  # the seat's own cards are there
            assert match.secret not in own
            checked += 1
        assert match.secret not in frames.own_parts(watcher, "ar", None).text()
        if play_one(table.public_id) is None:
            break
    assert checked >= players * 10, checked
