"""The majlis's forms and list, through Django's test client: the
create form refuses what the chosen game does not have and sends its creator to the seat they
chose; the list filters by game and never calls a full table "waiting"; quick play finds the
first open seat that fits, or offers the create form filled in."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Majlis, Match, Table
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def majlis():
    return Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})[0]


def signed_in(user, lang: str = "ar") -> Client:
    """A client signed in as ``user``, whose profile's language (the page's) is ``lang``."""
    type(user).objects.filter(pk=user.pk).update(language=lang)
    client = Client()
    client.force_login(user)
    client.cookies["sahrat_language"] = lang
    return client


def create(client: Client, **fields):
    return client.post(reverse("games:table_new"), fields)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("ar", "ليس في جاكارو هذا الخيار"), ("en", "Jakaro has no such option")],
)
@pytest.mark.parametrize("hand_option", [{"variant": "plain"}, {"table": "strict"}])
def test_a_jakaro_table_with_hand_options_is_refused_in_the_players_language(
    creator, majlis, lang, words, hand_option
):
    client = signed_in(creator, lang)
    page = create(client, game="jakaro", players="2", seat="0", **hand_option)
    assert page.status_code == 400
    html = page.content.decode()
    assert words in html
    assert not Table.objects.exists()
    # Drawn again for Jakaro, open, with the error above the form (a browser without the
    # page's script sees it) and the Hand fields hidden, so a second tap creates the table.
    errors = html[html.index('<div class="errors" role="alert">') :]
    assert words in errors[: errors.index("</div>")]
    assert (
        len(re.findall(r'<fieldset [^>]*data-games="hand"[^>]* hidden disabled>', html)) == 4
    )  # partners, variant, table, rounds
    assert 'id="new-table" data-testid="create" open' in html


def test_a_jakaro_table_for_three_is_refused_with_the_counts_that_fit(creator, majlis):
    page = create(signed_in(creator, "en"), game="jakaro", players="3", seat="0")
    assert page.status_code == 400
    assert "Jakaro is played by 2 or 4 players." in page.content.decode()
    page = create(signed_in(creator), game="jakaro", players="3", seat="0")
    assert "يلعب جاكارو ٢ أو ٤ لاعبين." in page.content.decode()
    assert not Table.objects.exists()


def test_a_seat_the_table_does_not_have_is_refused(creator, majlis):
    page = create(signed_in(creator, "en"), game="hand", players="2", seat="3")
    assert page.status_code == 400
    assert "A table of 2 players has no seat 4." in page.content.decode()
    assert not Table.objects.exists()


def test_the_creator_is_taken_to_the_seat_they_chose(creator, majlis):
    """The page sits them there with their browser's seed (static/js/autosit.js): the
    redirect names the seat, and nothing is taken without that seed."""
    page = create(signed_in(creator), game="jakaro", players="4", seat="2")
    assert page.status_code == 302
    table = Table.objects.get()
    url = urlsplit(page.url)
    assert url.path == reverse("games:table", args=[table.public_id])
    assert parse_qs(url.query) == {"sit": ["2"]}
    assert table.options == {"players": 4}
    # No seed yet, so no seat yet: the browser sends it with the sit-down.
    assert not table.seats.filter(user__isnull=False).exists()
    shown = signed_in(creator).get(page.url).content.decode()
    assert 'data-testid="sit-2"' in shown and "autosit.js" in shown


def test_a_private_tables_creator_keeps_the_invite_and_the_seat(creator, majlis):
    page = create(signed_in(creator), game="hand", players="2", seat="1", private="on")
    table = Table.objects.get()
    query = parse_qs(urlsplit(page.url).query)
    assert query == {"invite": [table.invite_token], "sit": ["1"]}


def test_no_seat_chosen_means_no_sit_down(creator, majlis):
    page = create(signed_in(creator), game="hand", players="2", seat="")
    assert page.status_code == 302 and "sit=" not in page.url


def test_the_form_marks_each_field_and_count_with_its_games(creator, majlis):
    """What the page's script needs to show only the chosen game's fields; the page drawn for
    Jakaro (?game=jakaro) starts with the Hand fields hidden and disabled (never sent)."""
    html = signed_in(creator).get(reverse("games:lobby") + "?game=jakaro").content.decode()
    assert '<option value="3" data-games="hand">' in html
    # variant, table and partners (which is also for four players only)
    assert (
        len(re.findall(r'<fieldset [^>]*data-games="hand"[^>]* hidden disabled>', html)) == 4
    )  # partners, variant, table, rounds
    assert '<option value="jakaro" selected>' in html


def lobby(client: Client, query: str = "") -> str:
    return client.get(reverse("games:lobby") + query).content.decode()


def test_start_a_table_and_quick_play_come_before_the_list(creator, majlis):
    html = lobby(signed_in(creator))
    assert html.index('data-testid="quick-play"') < html.index('id="tables"')
    assert html.index('data-testid="start-table"') < html.index('id="tables"')


def test_the_list_filters_by_game(creator, majlis):
    hand = make_table(creator, "hand", {"players": 2})
    jakaro = make_table(creator, "jakaro", {"players": 2})
    client = signed_in(creator)
    both = lobby(client)
    assert hand.public_id in both and jakaro.public_id in both
    only = lobby(client, "?game=jakaro")
    assert jakaro.public_id in only and hand.public_id not in only
    assert 'aria-current="page" data-testid="filter-jakaro"' in only
    # The live refresh keeps the filter.
    assert 'hx-get="/majlis/?game=jakaro"' in only
    fragment = client.get(reverse("games:lobby") + "?game=hand", HTTP_HX_REQUEST="true")
    assert hand.public_id in fragment.content.decode()
    assert jakaro.public_id not in fragment.content.decode()


def test_a_full_table_between_matches_is_not_listed_as_waiting(creator, users, majlis):
    full = make_table(creator, "hand", {"players": 2})
    seat_humans(full, users[:2])
    services.match_abort(match_id=Match.objects.get(table=full, status="playing").pk)
    full.refresh_from_db()
    assert full.status == Table.Status.OPEN  # the table waits for the next match, both seated
    waiting = make_table(creator, "hand", {"players": 2})
    html = lobby(signed_in(creator, "en"))
    row = html[html.index(f'data-table="{full.public_id}"') :]
    row = row[: row.index("</li>\n")]
    assert "waiting for players" not in row
    assert "full" in row
    other = html[html.index(f'data-table="{waiting.public_id}"') :]
    assert "waiting for players (2 seats free)" in other[: other.index("</li>\n")]
    # Tables one can sit at come first.
    assert html.index(waiting.public_id) < html.index(full.public_id)


def quick(client: Client, **params):
    return client.get(reverse("games:quick_play"), params)


def test_quick_play_takes_the_first_open_seat_that_fits(creator, users, majlis):
    me = users[5]
    client = signed_in(me)
    # Not these: another game, another mode, a coin table, a private one, a full one.
    make_table(creator, "jakaro", {"players": 2})
    make_table(creator, "hand", {"players": 4, "partners": True})
    make_table(creator, "hand", {"players": 2}, stake=50)
    make_table(creator, "hand", {"players": 2}, private=True)
    full = make_table(creator, "hand", {"players": 2})
    seat_humans(full, users[:2])
    # These fit: the one with a player waiting comes first, at its first empty seat.
    empty = make_table(creator, "hand", {"players": 2})
    half = make_table(creator, "hand", {"players": 2})
    match = Match.objects.get(table=half)
    services.seat_take(
        user=users[2],
        table_id=half.public_id,
        number=0,
        seed="ab" * 16,
        commitment=match.commitment,
        match_id=match.public_id,
    )
    page = quick(client, game="hand", mode="2", stake="0")
    assert page.status_code == 302
    url = urlsplit(page.url)
    assert url.path == reverse("games:table", args=[half.public_id])
    assert parse_qs(url.query) == {"sit": ["1"]}
    # Any mode: still the fullest first; and nothing was taken (the browser sits with its seed).
    assert urlsplit(quick(client, game="hand", stake="0").url).path.endswith(f"/{half.public_id}/")
    assert not half.seats.filter(user=me).exists()
    # A table where I already sit is not offered to me again.
    assert urlsplit(quick(signed_in(users[2]), game="hand", mode="2").url).path.endswith(
        f"/{empty.public_id}/"
    )


def test_quick_play_for_jakaro_in_partners(creator, users, majlis):
    make_table(creator, "jakaro", {"players": 2})
    four = make_table(creator, "jakaro", {"players": 4})
    page = quick(signed_in(users[0]), game="jakaro", mode="4p")
    assert urlsplit(page.url).path.endswith(f"/{four.public_id}/")


def test_quick_play_with_no_seat_offers_the_create_form_filled_in(creator, users, majlis):
    make_table(creator, "hand", {"players": 2})
    page = quick(signed_in(users[0], "en"), game="hand", mode="4p", stake="0")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="no-seat"' in html
    assert 'id="new-table" data-testid="create" open' in html
    form = page.context["form"]
    assert form.initial["players"] == 4 and form.initial["partners"] is True


def test_quick_play_refuses_a_mode_the_game_does_not_have(creator, users, majlis):
    page = quick(signed_in(users[0], "en"), game="jakaro", mode="3")
    assert page.status_code == 400
    assert "Jakaro has no such mode." in page.content.decode()


def test_quick_play_needs_a_signed_in_player(client, majlis):
    page = client.get(reverse("games:quick_play"), {"game": "hand"})
    assert page.status_code == 302 and reverse("accounts:login") in page.url
