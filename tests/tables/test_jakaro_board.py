"""The Jakaro board as the server draws it: the SVG's squares, homes, bases and
marbles with their names, the card faces, and the data the page's script reads; and no seat's
fragment holds another seat's cards."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

import games
from fairness.core import JAKARO_DECK
from games import frames, selectors, services
from games.faces import common
from games.jakaro.scenario import build
from games.models import Match, Seat
from tests.tables.helpers import advance_until, first_moves, make_table, play_out, seat_humans

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
    pairs = [selectors.table_states(table, users[s]) for s in (0, 1)]
    states = [state for state, _shared in pairs]
    for seat, state in enumerate(states):
        html = frames.state_fragment(*pairs[seat], "ar")
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
    html = frames.state_fragment(*selectors.table_states(table, users[0]), "ar")
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
    # The board is drawn once for everyone, as a watcher sees it: seat 0's start square (0) at
    # the bottom middle, seat 2's (38) at the top; each page turns
    # it for its own seat (static/js/jakaro.js, turnBoard; tests/tables/
    # test_jakaro_board_browser.py), told by its own head whose seat it is.
    html2 = frames.state_fragment(*selectors.table_states(table, users[2]), "en")
    for drawn in (html, html2):
        start = re.search(
            r'class="jk-sq jk-start c0" data-sq="0" cx="([\d.]+)" cy="([\d.]+)"', drawn
        )
        assert start and float(start.group(2)) > 370
        start2 = re.search(
            r'class="jk-sq jk-start c2" data-sq="38" cx="([\d.]+)" cy="([\d.]+)"', drawn
        )
        assert start2 and float(start2.group(2)) < 30
    assert 'data-view-seat="0"' in html and 'data-view-seat="2"' in html2
    assert 'aria-label="blue marble on square 12"' in html2


def test_a_watcher_sees_the_board_and_no_hand(creator, users, fast_clocks):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table)
    advance_until(match, lambda m: m.seq >= 3)
    table.refresh_from_db()
    html = frames.state_fragment(*selectors.table_states(table, users[4]), "en")
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


# ------------------------------------------------------------------ the end screen's last deck

RECAP_MOVE = re.compile(
    r'<li data-testid="recap-move" data-seat="(\d)" data-action="([^"]+)">(.*?)</li>', re.S
)
RECAP_HAND = re.compile(r'<li data-testid="recap-hand" data-seat="(\d)">(.*?)</li>', re.S)
# What each kind of action says, in each language (the words of the last move, rendering.py).
KIND_WORDS = {
    "en": {
        "out": "bring a marble out",
        "move": "forward",
        "back": "four back",
        "split": "then",
        "swap": "swap",
        "burn10": "burn a card of the next player",
        "discard": "Throw away",
    },
    "ar": {
        "out": "أخرج كرة",
        "move": "للأمام",
        "back": "أربعًا للخلف",
        "split": "ثم",
        "swap": "بدّل",
        "burn10": "احرق ورقة من اللاعب التالي",
        "discard": "ارمِ",
    },
}


def last_deck_by_replay(match: Match) -> tuple[list[tuple[int, str, str | None]], list[list[str]]]:
    """The last deck, told independently of games/jakaro/last_deck.py: the log replayed from
    the revealed secret, keeping the actions played while the final deck was in play (and what
    each Ten burned), and the cards that deck's shuffle dealt each seat."""
    engine = games.get("jakaro")
    rng = selectors.random_source(match)
    state = engine.new_match(engine.parse_options(match.options), rng)
    steps = []
    for a in match.actions.order_by("seq"):
        deck = state.deck_no
        state = engine.apply(state, a.seat, a.action, rng)
        steps.append((deck, a.seat, a.action, state.last[2] or None))
    moves = [(s, act, burned) for deck, s, act, burned in steps if deck == state.deck_no]
    shuffled = rng.deck(f"deal/{state.deck_no}")
    players = state.players
    dealt: list[list[str]] = [[] for _ in range(players)]
    for i in range(52 - len(state.deck)):
        dealt[(state.dealer + 1 + i % players) % players].append(shuffled[i])
    return moves, dealt


def seat_cards_only_own(pairs: list[tuple[dict, dict]], lang: str) -> None:
    """During play: each seat's fragment names its own cards and the pile's, never another
    seat's, and no recap of a deck is anywhere."""
    states = [state for state, _shared in pairs]
    for seat, state in enumerate(states):
        assert state["match"]["recap"] is None
        html = frames.state_fragment(*pairs[seat], lang)
        assert 'data-testid="jakaro-recap"' not in html and "recap-move" not in html
        other = set().union(*(set(s["view"]["hand"]) for s in states if s is not state))
        pile = set(state["view"]["discard"])
        assert not (other - pile) & set(CARD.findall(html)), seat


def test_a_finished_match_lists_its_last_deck_in_order_in_arabic_and_english(
    creator, users, fast_clocks
):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    # Each player moves once (a match nobody played is aborted, issue 57), then the bots play
    # for both (their names stay), so the match ends quickly.
    match = first_moves(Match.objects.get(table=table, number=1), (0, 1))
    Seat.objects.filter(table=table).update(bot_playing=True)
    for seq in (5, 40):
        advance_until(match, lambda m, seq=seq: m.seq >= seq or m.status != "playing")
        if match.status == "playing":
            table.refresh_from_db()
            pairs = [selectors.table_states(table, users[s]) for s in (0, 1)]
            for lang in ("ar", "en"):
                seat_cards_only_own(pairs, lang)
    play_out(match)
    table.refresh_from_db()
    moves, dealt = last_deck_by_replay(match)
    assert moves and moves[-1][1] == match.actions.order_by("seq").last().action
    names = {0: "لاعب 0", 1: "لاعب 1"}
    for lang in ("ar", "en"):
        for viewer in (users[0], users[1], users[4]):  # both players and a watcher
            state, shared = selectors.table_states(table, viewer)
            assert state["shown"]["id"] == match.public_id and state["shown"]["recap"]
            html = frames.state_fragment(state, shared, lang)
            end = html[html.index('data-testid="jakaro-end"') : html.index('class="jk-info"')]
            assert match.secret in end
            shown = [
                (int(s), unescape(a), unescape(text)) for s, a, text in RECAP_MOVE.findall(end)
            ]
            assert [(s, a) for s, a, _text in shown] == [(s, a) for s, a, _b in moves]
            for (seat, action, text), (_s, _a, burned) in zip(shown, moves, strict=True):
                kind, card = action.split()[:2]
                assert names[seat] in text, text
                assert common.card_label(card) in text, text
                assert KIND_WORDS[lang][kind] in text, (lang, text)
                if burned:
                    assert common.card_label(burned) in text and names[1 - seat] in text
            hands = {int(s): unescape(text) for s, text in RECAP_HAND.findall(end)}
            assert sorted(hands) == [0, 1]
            for seat, cards in enumerate(dealt):
                assert names[seat] in hands[seat]
                shown_cards = re.findall(
                    r'<span class="card small(?: red)?" dir="ltr">([^<]+)<', hands[seat]
                )
                kept = state["view"]["hand_counts"][seat]
                assert sorted(shown_cards[: len(shown_cards) - kept]) == sorted(
                    common.card_label(c) for c in cards
                )


def test_the_end_screen_tells_a_burn_and_a_discard_and_nothing_before_the_end(
    creator, users, fast_clocks
):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    # Deck 1 just dealt: Sara (seat 0) is one Three from winning; Ali (seat 1) cannot move.
    sara = ["10S", "3S", "9C", "QH", "KH"]
    ali = ["2D", "3D", "4D", "6D", "8D"]
    set_position(
        match,
        {
            "players": 2,
            "marbles": {0: ["H1", "H2", "H3", 73], 1: ["base"] * 4},
            "hands": {0: sara, 1: ali},
            "turn": 0,
            "dealer": 1,
            "deal_no": 1,
            "deck": [c for c in JAKARO_DECK if c not in sara + ali],
        },
    )
    services.match_play(user=users[0], table_id=table.public_id, seq=match.seq, action="burn10 10S")
    match.refresh_from_db()
    burned = games.get("jakaro").from_json(match.snapshot).discard[1]
    throw = sorted(set(ali) - {burned}, key=JAKARO_DECK.index)[0]
    table.refresh_from_db()
    seat_cards_only_own([selectors.table_states(table, users[s]) for s in (0, 1)], "ar")
    services.match_play(
        user=users[1], table_id=table.public_id, seq=match.seq, action=f"discard {throw}"
    )
    match.refresh_from_db()
    services.match_play(user=users[0], table_id=table.public_id, seq=match.seq, action="move 3S m3")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    table.refresh_from_db()
    expect = {
        "en": [
            "لاعب 0 — 10♠: burn a card of the next player (burned {b} from لاعب 1)",
            "لاعب 1 — Throw away {t} (no move)",
            "لاعب 0 — 3♠: marble 4 forward",
        ],
        "ar": [
            "لاعب 0 — 10♠: احرق ورقة من اللاعب التالي (احترقت {b} من يد لاعب 1)",
            "لاعب 1 — ارمِ {t} (لا حركة ممكنة)",
            "لاعب 0 — 3♠: الكرة ٤ للأمام",  # the page's digits (Arabic-Indic in Arabic)
        ],
    }
    for lang, lines in expect.items():
        html = frames.state_fragment(*selectors.table_states(table, users[1]), lang)
        shown = [
            re.sub(r"<[^>]+>|\s+", " ", unescape(t)).split()
            for _s, _a, t in RECAP_MOVE.findall(html)
        ]
        want = [
            line.format(b=common.card_label(burned), t=common.card_label(throw)).split()
            for line in lines
        ]
        assert shown == want, lang
        hands = dict(RECAP_HAND.findall(html))
        assert all(common.card_label(c) in hands["0"] for c in sara)
        assert all(common.card_label(c) in hands["1"] for c in ali)


def test_the_log_is_read_once_per_finished_match_and_never_by_a_move(creator, users, fast_clocks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def log_reads(queries) -> int:
        return sum(
            q["sql"].lstrip().upper().startswith("SELECT") and "games_matchaction" in q["sql"]
            for q in queries
        )

    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    advance_until(match, lambda m: m.seq >= 2)
    table.refresh_from_db()
    with CaptureQueriesContext(connection) as playing:
        selectors.table_state(table, users[0])
        seat = games.get("jakaro").to_move(games.get("jakaro").from_json(match.snapshot))
        legal = games.get("jakaro").view(games.get("jakaro").from_json(match.snapshot), seat)
        services.match_play(
            user=users[seat], table_id=table.public_id, seq=match.seq, action=legal["legal"][0]
        )
    assert log_reads(playing.captured_queries) == 0
    Seat.objects.filter(table=table).update(bot_playing=True)
    play_out(match)
    table.refresh_from_db()
    selectors._recaps.pop(match.public_id, None)  # as in a process that has not seen it yet
    with CaptureQueriesContext(connection) as ended:
        for viewer in (users[0], users[1], users[4], users[0]):
            assert selectors.table_state(table, viewer)["shown"]["recap"]["moves"]
    assert log_reads(ended.captured_queries) == 1
