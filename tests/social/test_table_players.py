"""The table's "Players" sheet: follow and block a player from the table (social/views.py
table_players, answered through htmx), never yourself; a private table's players only for those
who may watch it."""

from __future__ import annotations

import pytest
from django.test import Client

from social import selectors
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_follow_and_block_from_the_table(users):
    a, b, c = users[:3]
    table = make_table(a, "jakaro", {"players": 4})
    seat_humans(table, [a, b, c])
    sara = client_of(a)
    url = f"/friends/table/{table.public_id}/"
    sheet = sara.get(url).content.decode()
    # The others at the table, each with follow and block; never the viewer.
    assert f'data-player="{b.username}"' in sheet and f'data-player="{c.username}"' in sheet
    assert f'data-player="{a.username}"' not in sheet
    assert f'data-testid="follow-{b.username}"' in sheet

    # Follow from the sheet: htmx gets the sheet back, now with "Unfollow".
    answer = sara.post(
        f"/friends/follow/{b.username}/", {"table": table.public_id}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    assert f'data-testid="unfollow-{b.username}"' in answer.content.decode()
    assert selectors.relation(a, b)["following"]

    # Block from the sheet: the follow ends, the button says "Unblock" and follow is gone.
    answer = sara.post(
        f"/friends/block/{b.username}/", {"table": table.public_id}, HTTP_HX_REQUEST="true"
    )
    html = answer.content.decode()
    assert f'data-testid="unblock-{b.username}"' in html
    assert f'data-testid="follow-{b.username}"' not in html
    assert selectors.relation(a, b) == {
        "following": False,
        "followed_by": False,
        "friends": False,
        "blocked": True,
    }
    # Without htmx the same button goes back to the table.
    back = sara.post(f"/friends/unblock/{b.username}/", {"next": f"/majlis/t/{table.public_id}/"})
    assert back.status_code == 302 and back.url == f"/majlis/t/{table.public_id}/"


def test_the_table_page_offers_the_players_sheet_and_a_private_table_keeps_it(users):
    a, b, stranger = users[:3]
    table = make_table(a, "jakaro", {"players": 2}, private=True)
    seat_humans(table, [a, b])
    html = client_of(b).get(f"/majlis/t/{table.public_id}/").content.decode()
    assert 'id="sheet-players"' in html and f"/friends/table/{table.public_id}/" in html
    url = f"/friends/table/{table.public_id}/"
    assert client_of(stranger).get(url).status_code == 404
    invited = client_of(stranger).get(url, {"invite": table.invite_token})
    assert invited.status_code == 200 and f'data-player="{a.username}"' in invited.content.decode()


def test_without_scripts_a_private_tables_watcher_comes_back_with_the_invite(users):
    a, b, guest = users[:3]
    table = make_table(a, "jakaro", {"players": 2}, private=True)
    seat_humans(table, [a, b])
    sheet = client_of(guest).get(
        f"/friends/table/{table.public_id}/", {"invite": table.invite_token}
    )
    back = f'value="/majlis/t/{table.public_id}/?invite={table.invite_token}"'
    assert back in sheet.content.decode()
