"""The majlis pages through Django's test client: the lobby's list and create form, a table page
for a seat, a watcher and a stranger, and the table socket's HTML fragments (rendered from the
same state as its JSON frames)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

import games
from games import frames, selectors
from games.faces import hand as hand_face
from games.faces import jakaro as jakaro_face
from games.models import Majlis, Match, Table
from realtime import delta
from tests.engines.test_contract import card_tokens
from tests.tables.helpers import advance_until, make_table, play_out, seat_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def majlis():
    return Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})[0]


def client_for(user, lang: str = "ar") -> Client:
    client = Client()
    client.force_login(user)
    user.language = lang
    user.save(update_fields=["language"])
    return client


def test_the_lobby_lists_a_created_table_with_its_options_in_words(creator, users, majlis):
    hand = make_table(creator, "hand", {"players": 4, "partners": True, "table": "strict"})
    jakaro = make_table(creator, "jakaro", {"players": 2})
    seat_humans(jakaro, users[:1])
    from games import services

    services.seat_add_bot(user=creator, table_id=hand.public_id, number=1)
    hidden = make_table(creator, "jakaro", {"players": 4}, private=True)

    page = client_for(users[2]).get(reverse("games:lobby")).content.decode()
    assert hand.public_id in page and jakaro.public_id in page
    assert hidden.public_id not in page  # private tables are not listed
    for words in ("هاند سعودي", "شراكة", "صارم", "أربعة لاعبين", "لاعبان", "لاعب آلي", "لاعب 0"):
        assert words in page, words
    assert "١٥ ثانية للدور" in page  # the turn time, in words and the page's digits

    english = client_for(users[3], "en").get(reverse("games:lobby")).content.decode()
    for words in ("Saudi Hand", "partners", "strict", "two players", "bot"):
        assert words in english, words

    # The live refresh (htmx) gets only the list.
    fragment = Client()
    fragment.force_login(users[2])
    part = fragment.get(reverse("games:lobby"), HTTP_HX_REQUEST="true").content.decode()
    assert hand.public_id in part and "<html" not in part


def test_the_create_form_makes_a_table_and_a_private_one_gives_an_invite(users, majlis):
    client = client_for(users[0])
    form = {"game": "hand", "players": "3", "variant": "plain", "table": "easy"}
    response = client.post(reverse("games:table_new"), form)
    table = Table.objects.get(created_by=users[0])
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.public_id])
    assert table.options == {
        "players": 3,
        "partners": False,
        "variant": "plain",
        "table": "easy",
        "rounds": 5,
    }
    assert Match.objects.filter(table=table, status="waiting").count() == 1

    response = client.post(
        reverse("games:table_new"), {"game": "jakaro", "players": "4", "private": "on"}
    )
    private = Table.objects.get(created_by=users[0], game="jakaro")
    assert private.private
    assert response["Location"].endswith(f"?invite={private.invite_token}")
    page = client.get(response["Location"]).content.decode()
    assert f"invite={private.invite_token}" in page  # the link to share


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"game": "jakaro", "players": "3"}, "جاكارو"),
        ({"game": "hand", "players": "2", "partners": "on"}, "أربعة"),
        ({"game": "chess", "players": "2"}, "اختر"),
        ({"game": "hand", "players": "9"}, "اختر"),
    ],
)
def test_bad_options_are_refused_in_words_and_nothing_is_created(users, majlis, form, words):
    client = client_for(users[0])
    full = {"variant": "saudi", "table": "easy", **form}
    response = client.post(reverse("games:table_new"), full)
    assert response.status_code == 400
    assert not Table.objects.exists()
    text = response.content.decode()
    assert 'role="alert"' in text and words in text


def test_bad_options_in_english(users, majlis):
    client = client_for(users[0], "en")
    response = client.post(reverse("games:table_new"), {"game": "jakaro", "players": "3"})
    assert response.status_code == 400 and not Table.objects.exists()
    assert "Jakaro" in response.content.decode()


def test_creating_needs_a_signed_in_player(majlis):
    response = Client().post(reverse("games:table_new"), {"game": "jakaro", "players": "2"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Table.objects.exists()


def test_a_private_table_needs_the_invite_or_a_seat(creator, users, majlis):
    table = make_table(creator, "jakaro", {"players": 2}, private=True)
    url = reverse("games:table", args=[table.public_id])
    stranger = client_for(users[3])
    assert stranger.get(url).status_code == 404
    assert stranger.get(url + "?invite=wrong").status_code == 404
    page = stranger.get(url + f"?invite={table.invite_token}")
    assert page.status_code == 200
    # The page's socket carries the invite too.
    assert f"/ws/table/{table.public_id}/?invite={table.invite_token}" in page.content.decode()
    assert client_for(creator).get(url).status_code == 200
    assert client_for(users[0]).get(reverse("games:table", args=["nope"])).status_code == 404


def test_the_table_page_shows_the_commitment_and_never_the_secret_while_playing(
    creator, users, majlis, fast_clocks
):
    table = make_table(creator, "jakaro", {"players": 2})
    url = reverse("games:table", args=[table.public_id])
    match = Match.objects.get(table=table)
    waiting = client_for(users[0]).get(url).content.decode()
    assert match.commitment in waiting and match.secret not in waiting
    assert 'data-frame="sit"' in waiting  # empty seats offer a sit-down
    seat_humans(table, users[:2])
    match.refresh_from_db()
    assert match.status == "playing"
    for user in (users[0], users[1], users[4]):
        page = client_for(user).get(url).content.decode()
        assert match.commitment in page and match.secret not in page
        assert 'ws-connect="/ws/table/' in page and 'hx-ext="ws,frame-delta"' in page
    mover = games.get("jakaro").to_move(games.get("jakaro").from_json(match.snapshot))
    page = client_for(users[mover]).get(url).content.decode()
    assert 'data-your-turn="1"' in page and 'data-frame="move"' in page

    # Once the match is over, the secret is shown with the result.
    match = play_out(match)
    page = client_for(users[0]).get(url).content.decode()
    assert match.secret in page and 'data-testid="result"' in page
    assert 'data-testid="ready"' in page  # and the next match's "ready" with its commitment
    nxt = Match.objects.get(table=table, number=2)
    assert nxt.commitment in page and nxt.secret not in page


@pytest.mark.parametrize("game", ["hand", "jakaro"])
def test_a_seats_fragment_holds_no_other_seats_hand(game, creator, users, majlis, fast_clocks):
    table = make_table(creator, game, {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table)
    # A few moves in, so there are hands, melds or marbles to show.
    advance_until(match, lambda m: m.seq >= 4)
    table.refresh_from_db()
    pairs = [selectors.table_states(table, users[s]) for s in (0, 1)]
    states = [state for state, _shared in pairs]
    watcher, watcher_shared = selectors.table_states(table, users[4])
    for seat, state in enumerate(states):
        html = frames.state_fragment(*pairs[seat], "ar")
        assert 'id="table-live"' in html and 'hx-swap-oob="true"' in html
        own = set(state["view"]["hand"])
        other = set(states[1 - seat]["view"]["hand"]) - own - card_tokens(watcher)
        shown = {
            m.group(1)
            for m in re.finditer(r'data-(?:card|compose|action)="(?:\w+ )?([^" ]+)', html)
        }
        assert own & shown  # the seat's own cards are there
        assert not (other & shown), (seat, other & shown)
        assert match.secret not in html
    watched = frames.state_fragment(watcher, watcher_shared, "en")
    assert "data-compose" not in watched and 'data-frame="move"' not in watched


def test_jakaro_moves_have_readable_labels():
    seats = [
        {"number": 0, "label": "سارة", "empty": False},
        {"number": 1, "label": "Ali", "empty": False},
    ]
    from django.utils import translation

    with translation.override("en"):
        assert jakaro_face.jakaro_label("out AS", 0, seats) == "A♠: bring a marble out"
        assert jakaro_face.jakaro_label("move 5S 1:m0", 0, seats) == "5♠: marble 1 of Ali forward"
        assert "then" in jakaro_face.jakaro_label("split 7D m0 3 m1 4", 0, seats)
        assert hand_face.hand_label("throw 10H") == "Throw 10♥"
        assert hand_face.hand_label("lay QS QD JK1=QC").startswith("Lay down: Q♠ Q♦ Joker=Q♣")


# ------------------------------------------------------------------------------ the socket's HTML


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_table_socket_speaks_html_unless_json_is_asked(creator, users, fast_clocks):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from sahrat_site.asgi import application

    def setup():
        Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
        table = make_table(creator, "jakaro", {"players": 2})
        seat_humans(table, users[:2])
        client = Client()
        client.force_login(users[0])
        match = Match.objects.get(table=table)
        return table, f"sessionid={client.cookies['sessionid'].value}".encode(), match

    table, cookie, match = await database_sync_to_async(setup)()
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie)]
    page = WebsocketCommunicator(application, f"/ws/table/{table.public_id}/", headers=headers)
    assert (await page.connect(timeout=10))[0]
    first = await page.receive_from(timeout=10)
    assert first.startswith('<section id="table-live"') and 'hx-swap-oob="true"' in first
    assert 'id="table-chat"' in first and match.commitment in first and match.secret not in first
    # A refusal is a fragment for the error box, in the player's language.
    await page.send_json_to({"type": "move", "seq": 99, "action": "discard 2S"})
    refusal = await page.receive_from(timeout=10)
    assert refusal.startswith('<p id="table-error"') and "الطاولة" in refusal
    # The fresh state after it comes as a delta against the first (realtime/delta.py): only
    # the clock's "now" changed, so it copies the rest, in a tenth of the bytes at most.
    again = await page.receive_from(timeout=10)
    assert again.startswith('{"delta":') and len(again) < len(first) / 10
    rebuilt = delta.rebuild(first, again)
    assert rebuilt.startswith('<section id="table-live"') and 'id="table-chat"' in rebuilt
    # Pings are answered on the JSON socket only: nothing to show on a page.
    await page.send_json_to({"type": "ping", "seq": 1})
    assert await page.receive_nothing(timeout=0.3)
    await page.disconnect()

    program = WebsocketCommunicator(
        application, f"/ws/table/{table.public_id}/?format=json", headers=headers
    )
    assert (await program.connect(timeout=10))[0]
    assert (await program.receive_json_from(timeout=10))["type"] == "hello"
    frame = await program.receive_json_from(timeout=10)
    assert frame["type"] == "state" and frame["match"]["commitment"] == match.commitment
    await program.disconnect()


@pytest.mark.parametrize(
    ("stake", "lang", "cost"),
    [
        (0, "en", "Past that a bot plays for you until you come back."),
        (0, "ar", "بعدها يلعب عنك لاعب آلي حتى تعود."),
        (50, "en", "Past that you leave this match and your stake of 50 coins stays in the pot."),
        (50, "ar", "بعدها تغادر هذه المباراة، ورهانك البالغ ٥٠ عملة يبقى في الجائزة."),
    ],
)
def test_the_down_banner_knows_the_seat_keeping_and_what_it_costs(
    creator, users, majlis, settings, stake, lang, cost
):
    """The table page's down banner carries the seat-keeping time and, for the table's kind, what
    staying away past it costs (static/js/table.js shows it while a seated player's socket is
    down during a match); the seconds come from SEAT_KEEP_SECONDS when the page is drawn."""
    settings.SEAT_KEEP_SECONDS = 45
    table = make_table(creator, "hand", {"players": 2}, stake=stake)
    seat_humans(table, users[:2])
    html = client_for(users[0], lang).get(reverse("games:table", args=[table.public_id]))
    keep = re.search(r'<p class="down-keep"[^>]*>(.*?)</p>', html.content.decode(), re.S)
    assert keep, "no seat-keeping line in the down banner"
    assert 'data-keep-seconds="45"' in keep.group(0)
    assert cost in " ".join(keep.group(1).split())
