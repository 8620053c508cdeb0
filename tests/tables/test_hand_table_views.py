"""What each seat's Hand fragment holds: the seat's own view as JSON for the page's
script, its own cards drawn, and nothing of another seat's hand, neither in the JSON nor in the
HTML (no card drawn, no card named). Rendered from ``selectors.table_state`` exactly as the
table socket's HTML mode sends it."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

import games
from games import frames, selectors
from games.faces import hand as hand_face
from games.hand import scenario
from games.models import Match
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db

ENGINE = games.get("hand")
HANDS = ["KS KH 9C 10C JK1 9S 7D 4S 2D", "2S 3S 4C 6C 7C 9D 10D JH QH JK2"]
POSITION = {
    "options": {"players": 2, "table": "easy"},
    "hands": HANDS,
    "melds": [{"owner": 1, "cards": "4D 5D 6D"}],
    "fire": ["2C", "KD"],
    "opened": [0, 51],
    "turn": 0,
    "phase": "play",
}


def fragment_parts(html: str) -> tuple[dict, str]:
    found = re.search(r'<script id="hand-view" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the fragment carries the seat's view"
    return json.loads(found.group(1)), html.replace(found.group(0), "")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_each_seat_gets_its_own_cards_and_nothing_of_the_other_hand(users, lang) -> None:
    table = make_table(users[0], "hand", POSITION["options"])
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    state, _ = scenario.build_state(POSITION)
    match.snapshot = ENGINE.to_json(state)
    match.save()
    public = set(POSITION["fire"]) | {"4D", "5D", "6D"}
    for seat, user in enumerate(users[:2]):
        html = frames.state_fragment(*selectors.table_states(table, user), lang)
        data, rest = fragment_parts(html)
        assert data["view"] == ENGINE.view(state, seat)
        assert data["you"] == seat
        mine = Counter(HANDS[seat].split())
        button = r'<button type="button" class="pc[^"]*" data-card="([^"]+)"'
        drawn = Counter(re.findall(button, rest))
        assert drawn == mine
        others = set(HANDS[1 - seat].split()) - set(mine) - public
        assert others
        with hand_face.translation.override(lang):
            names = {c: hand_face.card_name(c) for c in others}
        for card in others:
            assert f'data-card="{card}"' not in rest
            assert names[card] not in rest, (card, names[card])
            assert card not in json.dumps(data["view"])
    # A watcher: no hand at all, and no card of either hand.
    html = frames.state_fragment(*selectors.table_states(table, users[2]), lang)
    data, rest = fragment_parts(html)
    assert data["view"]["hand"] is None and data["you"] is None
    for card in (set(HANDS[0].split()) | set(HANDS[1].split())) - public:
        assert f'data-card="{card}"' not in rest


def _over(result: dict, opened: list[bool], hands: list[list[str]], partners: bool = False):
    return {"result": result, "opened": opened, "hands": hands, "partners": partners}


@pytest.mark.parametrize(
    ("view", "seat", "words"),
    [
        (
            _over({"out": 0, "hand": False, "scores": [-30, 14]}, [1, 1], [[], ["5D", "9H"]]),
            0,
            "went out: \u2066-30\u2069",
        ),
        (
            _over({"out": 0, "hand": False, "scores": [-30, 14]}, [1, 1], [[], ["5D", "9H"]]),
            1,
            "cards left: 14",
        ),
        (
            _over({"out": 0, "hand": True, "scores": [-60, 28]}, [0, 1], [[], ["5D", "9H"]]),
            0,
            "went out with a «Hand»: \u2066-60\u2069",
        ),
        (
            _over({"out": 0, "hand": True, "scores": [-60, 28]}, [0, 1], [[], ["5D", "9H"]]),
            1,
            "cards left: 14, doubled after a «Hand»: 28",
        ),
        (
            _over({"out": 0, "hand": True, "scores": [-60, 200]}, [0, 0], [[], ["5D"]]),
            1,
            "never opened, and the round ended with a «Hand»: 200",
        ),
        (
            _over({"out": 0, "hand": False, "scores": [-30, 100]}, [1, 0], [[], ["5D"]]),
            1,
            "never opened: 100",
        ),
        (
            _over(
                {"out": 0, "hand": False, "scores": [-30, 5, 0, 7]},
                [1, 1, 1, 1],
                [[], ["5D"], ["KD"], ["7C"]],
                partners=True,
            ),
            2,
            "partner went out: the team's score is on the partner",
        ),
    ],
)
def test_the_round_recap_spells_out_every_score(view, seat, words) -> None:
    with hand_face.translation.override("en"):
        assert hand_face.score_words(view, seat) == words


@pytest.mark.parametrize(
    ("view", "you", "words"),
    [
        ({"variant": "plain", "openings": [[1, 60]]}, 0, ""),
        ({"variant": "saudi", "openings": []}, 0, "the first opening of the round"),
        (
            {"variant": "saudi", "partners": False, "openings": [[1, 60], [2, 61]]},
            0,
            "the last opening, 61 + 1",
        ),
        (
            {"variant": "saudi", "partners": True, "openings": [[1, 60], [3, 70]]},
            3,
            "your team opened first",
        ),
        (
            {"variant": "saudi", "partners": True, "openings": [[1, 60], [3, 70], [0, 71]]},
            2,
            "the other team's best opening, 70 + 1",
        ),
    ],
)
def test_the_threshold_says_which_rule_sets_it(view, you, words) -> None:
    with hand_face.translation.override("en"):
        assert hand_face.threshold_words(view, you) == words


def test_while_a_round_is_played_each_player_is_listed_once_with_their_presence(users) -> None:
    # The Hand players' row carries presence (the dot, the seat-keeping countdown, a bot playing
    # for an absent player), so the table's own seat list is not drawn a second time; between
    # matches it comes back (sit, ready).
    from django.utils import timezone

    from games.models import Seat

    table = make_table(users[0], "hand", POSITION["options"])
    seat_humans(table, users[:2])
    Seat.objects.filter(table=table, number=1).update(connected=0, away_since=timezone.now())
    html = frames.state_fragment(*selectors.table_states(table, users[0]), "en")
    _, rest = fragment_parts(html)
    assert 'data-testid="seats"' not in rest
    for user in users[:2]:
        assert rest.count(f'<span class="hp-name">{user.display_name}') == 1
    row = re.search(r'<li class="hp[^"]*" data-seat="1"[^>]*>(.*?)</li>', rest, re.S).group(1)
    assert 'class="dot off"' in row and 'class="away"' in row and "data-deadline" in row

    Seat.objects.filter(table=table, number=1).update(bot_playing=True)
    _, rest = fragment_parts(frames.state_fragment(*selectors.table_states(table, users[0]), "en"))
    row = re.search(r'<li class="hp[^"]*" data-seat="1"[^>]*>(.*?)</li>', rest, re.S).group(1)
    assert "a bot plays for now" in row and 'class="away"' not in row

    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    match.status = Match.Status.ABORTED
    match.save()
    _, rest = fragment_parts(frames.state_fragment(*selectors.table_states(table, users[0]), "en"))
    assert 'data-testid="seats"' in rest


def test_the_melds_are_grouped_by_owner_the_viewers_first_then_in_play_order() -> None:
    view = {
        "players": 3,
        "melds": [
            {"n": 1, "owner": 0, "cards": ["4D", "5D", "6D"], "stands": ["4D", "5D", "6D"]},
            {"n": 2, "owner": 2, "cards": ["KS", "KH", "KD"], "stands": ["KS", "KH", "KD"]},
            {"n": 3, "owner": 0, "cards": ["9C", "10C", "JC"], "stands": ["9C", "10C", "JC"]},
            {"n": 4, "owner": 1, "cards": ["2S", "3S", "4S"], "stands": ["2S", "3S", "4S"]},
        ],
    }
    for meld in view["melds"]:
        meld["points"] = 0
    names = ["Sara", "Ali", "Huda"]
    seats = [{"number": n, "label": name, "empty": False} for n, name in enumerate(names)]
    groups = hand_face._meld_groups(view, seats, you=1)
    assert [(g["seat"], [m["n"] for m in g["melds"]]) for g in groups] == [
        (1, [4]),  # Ali's own first
        (2, [2]),  # then the next in play order (on Ali's right)
        (0, [1, 3]),
    ]
    assert groups[0]["you"] and groups[2]["owner"] == "Sara"
    watched = hand_face._meld_groups(view, seats, you=None)  # a watcher: from seat 0
    assert [g["seat"] for g in watched] == [0, 1, 2]
