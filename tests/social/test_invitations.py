"""Invitations: to a friend only, to a waiting table with a free seat that the one who asks sits
at or created; told live on the friend's open pages; accepted (to a free seat) or declined (the
one who asked is told); a private table's short code."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import Client

from games.models import Match, Table, normal_code
from social import invitations, services
from social.errors import SocialError
from social.models import Invitation
from tests.social.test_services import befriend, page
from tests.social.test_socket import lobby, majlis_socket
from tests.tables.helpers import make_table, seat_humans, sit_at
from tests.tables.test_consumers import TIMEOUT, connect, next_state

pytestmark = pytest.mark.django_db


def test_only_a_friend_is_invited_to_a_waiting_table_with_room(users):
    a, b, c, d = users[:4]
    befriend(a, b)
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a])
    made = invitations.invite(user=a, username=b.username, table_id=table.public_id)
    assert made.recipient == b and made.answer == ""
    # Asking again while unanswered: the same invitation.
    again = invitations.invite(user=a, username=b.username, table_id=table.public_id)
    assert again.pk == made.pk
    with pytest.raises(SocialError) as refused:
        invitations.invite(user=a, username=c.username, table_id=table.public_id)
    assert refused.value.code == "not_friends"
    # Not one's table.
    befriend(c, b)
    with pytest.raises(SocialError) as refused:
        invitations.invite(user=c, username=b.username, table_id=table.public_id)
    assert refused.value.code == "not_at_table"
    # A full table.
    befriend(a, d)
    sit_at(table, d, 1)
    assert Match.objects.get(table=table, number=1).status == "playing"
    with pytest.raises(SocialError) as refused:
        invitations.invite(user=a, username=b.username, table_id=table.public_id)
    assert refused.value.code in ("table_full", "not_waiting")
    # A block ends it.
    other = make_table(a, "hand", {"players": 2})
    services.block(user=b, username=a.username)
    with pytest.raises(SocialError):
        invitations.invite(user=a, username=b.username, table_id=other.public_id)


def friends_at_a_waiting_table(a, b) -> Table:
    """a and b friends; a seated alone at a two-player Jakaro table that waits."""
    befriend(a, b)
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a])
    return table


def test_accepting_goes_to_a_free_seat_and_declining_is_final(users):
    a, b, c = users[:3]
    befriend(a, b)
    befriend(a, c)
    table = make_table(a, "jakaro", {"players": 2}, private=True)
    seat_humans(table, [a])
    to_b = invitations.invite(user=a, username=b.username, table_id=table.public_id)
    to_c = invitations.invite(user=a, username=c.username, table_id=table.public_id)
    assert f'data-testid="invitation-{to_b.pk}"' in page(b, "/friends/")
    client = Client()
    client.force_login(b)
    response = client.post(f"/friends/invitations/{to_b.pk}/accept/")
    assert response.status_code == 302
    assert f"/majlis/t/{table.public_id}/?" in response.url
    assert "sit=1" in response.url and f"invite={table.invite_token}" in response.url
    to_b.refresh_from_db()
    assert to_b.answer == "accepted"
    with pytest.raises(SocialError) as refused:
        invitations.answer(user=b, invitation_id=to_b.pk, accept=False)
    assert refused.value.code == "answered"
    invitations.answer(user=c, invitation_id=to_c.pk, accept=False)
    assert Invitation.objects.get(pk=to_c.pk).answer == "declined"
    # Only the invited player answers.
    with pytest.raises(SocialError):
        invitations.answer(user=c, invitation_id=to_b.pk, accept=True)


def test_a_private_tables_short_code_opens_it_from_the_lobby(users):
    a, b = users[:2]
    table = make_table(a, "hand", {"players": 2}, private=True)
    code = table.invite_code
    assert normal_code(code.lower().replace("-", " ")) == code
    client = Client()
    client.force_login(b)
    response = client.get("/majlis/code/", {"code": code.lower()})
    assert response.status_code == 302 and f"invite={table.invite_token}" in response.url
    wrong = client.get("/majlis/code/", {"code": "AAAA-AAAA"})
    assert wrong.status_code == 404
    assert 'data-testid="code-error"' in wrong.content.decode()
    html = page(a, f"/majlis/t/{table.public_id}/")
    assert code in html and 'data-testid="invite-whatsapp"' in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_invitation_and_its_answer_arrive_live(users):
    a, b = users[:2]

    table = await database_sync_to_async(friends_at_a_waiting_table)(a, b)
    omar = await lobby(b)
    sara, connected, _ = await connect(a, table.public_id)  # a waits at the table
    assert connected
    await next_state(sara)
    made = await database_sync_to_async(invitations.invite)(
        user=a, username=b.username, table_id=table.public_id
    )
    while (frame := await omar.receive_json_from(timeout=TIMEOUT))["type"] != "notice":
        pass
    assert frame["kind"] == "invited" and "جاكارو" in frame["text"]
    assert frame["link"].endswith(f"#invitation-{made.pk}")
    await database_sync_to_async(invitations.answer)(user=b, invitation_id=made.pk, accept=False)
    while (frame := await sara.receive_json_from(timeout=TIMEOUT))["type"] != "notice":
        pass
    assert frame["kind"] == "declined"
    for comm in (omar, sara):
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_any_other_page_gets_the_notices_and_nothing_about_tables(users):
    """The notices-only socket every other page opens (static/js/notices.js): the invitation
    arrives; a table opening (the lobby's "majlis_changed") and the friends list changing
    ("friends_changed") do not."""
    a, b, c = users[:3]

    table = await database_sync_to_async(friends_at_a_waiting_table)(a, b)
    page_socket = await lobby(b, "/ws/majlis/?only=notices")
    await database_sync_to_async(make_table)(c, "hand", {"players": 2})  # the lobby changes
    await database_sync_to_async(befriend)(b, c)  # b's friends change
    await database_sync_to_async(invitations.invite)(
        user=a, username=b.username, table_id=table.public_id
    )
    frame = await page_socket.receive_json_from(timeout=TIMEOUT)
    assert frame["type"] == "notice" and frame["kind"] == "invited"  # the first frame after hello
    assert await page_socket.receive_nothing(timeout=1)
    await page_socket.disconnect()
    await database_sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_notices_only_pages_leave_sockets_free_for_a_table(users, settings):
    """Many tabs that only show notices never take the account's last sockets: past the cap
    less NOTICES_LEAVE a notices-only page is refused, and the majlis still opens."""
    from social.consumers import NOTICES_LEAVE

    settings.WS_MAX_SOCKETS_PER_USER = NOTICES_LEAVE + 1
    a = users[0]
    first, hello = await majlis_socket(a, "/ws/majlis/?only=notices")
    assert hello["type"] == "hello"
    second, refused = await majlis_socket(a, "/ws/majlis/?only=notices")
    assert refused["type"] == "error" and refused["code"] == "too_many_sockets"
    majlis, hello = await majlis_socket(a)  # the majlis still has room
    assert hello["type"] == "hello"
    for comm in (first, second, majlis):
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_answer_on_an_english_table_page_is_all_in_english(users):
    """Issue 57 item 16: the notice on the table page of a player who reads English says the
    answer and its link in English («… declined your invitation. Open»), never «افتح»."""
    from channels.testing import WebsocketCommunicator

    from sahrat_site.asgi import application
    from tests.tables.test_consumers import _cookie

    a, b = users[:2]

    def setup():
        a.language = "en"
        a.save(update_fields=["language"])
        return friends_at_a_waiting_table(a, b)

    table = await database_sync_to_async(setup)()
    cookie = await database_sync_to_async(_cookie)(a)
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie)]
    page_socket = WebsocketCommunicator(application, f"/ws/table/{table.public_id}/", headers)
    assert (await page_socket.connect(timeout=TIMEOUT))[0]
    made = await database_sync_to_async(invitations.invite)(
        user=a, username=b.username, table_id=table.public_id
    )
    await database_sync_to_async(invitations.answer)(user=b, invitation_id=made.pk, accept=False)
    while 'id="table-notice"' not in (frame := await page_socket.receive_from(timeout=TIMEOUT)):
        pass
    assert "declined your invitation." in frame
    assert f'href="/majlis/t/{table.public_id}/">Open</a>' in frame
    assert not re.search("[\u0600-\u06ff]", frame.replace(b.display_name, ""))
    await page_socket.disconnect()
    await database_sync_to_async(connections.close_all)()


REFUSED = {
    "not_friends": {"en": "You can invite only your friends", "ar": "يمكنك دعوة أصدقائك فقط"},
    "not_waiting": {"en": "has already started", "ar": None},
    "answered": {"en": "already answered", "ar": None},
}


def signed(user, lang: str) -> Client:
    user.language = lang
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def refused_both_ways(user, url: str, data: dict, code: str, lang: str, back: str) -> None:
    """A page gets a redirect to ``back`` whose page says why, in ``lang``; a program asking for
    JSON gets the documented error with that code and the same words. Nothing changes."""
    before = list(Invitation.objects.values_list("pk", "answer"))
    client = signed(user, lang)
    answer = client.post(url, data, HTTP_ACCEPT="application/json")
    assert answer.status_code in (400, 404), answer.content
    body = answer.json()
    assert body["type"] == "error" and body["code"] == code, body
    said = REFUSED[code][lang]
    if said:
        assert said in body["message"], body
    assert bool(re.search("[\u0600-\u06ff]", body["message"])) == (lang == "ar")
    page = client.post(url, data)
    assert page.status_code == 302 and page["Location"].split("?")[0] == back
    shown = client.get(page["Location"]).content.decode()
    assert body["message"] in shown.replace("&#x27;", "'")  # the same words, on the page
    assert list(Invitation.objects.values_list("pk", "answer")) == before


def test_a_refused_invitation_or_answer_says_why_on_the_page_and_in_json(users):
    """Issue 57 item 23: inviting a non-friend, someone who blocked you or to a started table,
    and accepting an invitation already declined or to a started table, each say why."""
    a, b, c, d = users[:4]
    table = friends_at_a_waiting_table(a, b)
    at_table = f"/majlis/t/{table.public_id}/"
    friends_page = "/friends/"
    sent = {"table": table.public_id, "next": at_table}
    for lang in ("en", "ar"):
        # c is no friend of a's.
        refused_both_ways(a, f"/friends/invite/{c.username}/", sent, "not_friends", lang, at_table)
    made = invitations.invite(user=a, username=b.username, table_id=table.public_id)
    invitations.answer(user=b, invitation_id=made.pk, accept=False)
    accept = f"/friends/invitations/{made.pk}/accept/"
    refused_both_ways(b, accept, {}, "answered", "en", friends_page)
    # Friends once, then d blocked a: no invitation either.
    befriend(a, d)
    services.block(user=d, username=a.username)
    refused_both_ways(a, f"/friends/invite/{d.username}/", sent, "not_friends", "en", at_table)
    # The table fills and its match starts: an unanswered invitation to it and a new one fail.
    befriend(a, c)
    waiting = invitations.invite(user=a, username=c.username, table_id=table.public_id)
    befriend(a, users[4])
    sit_at(table, users[4], 1)
    assert Match.objects.get(table=table, number=1).status == "playing"
    accept = f"/friends/invitations/{waiting.pk}/accept/"
    refused_both_ways(c, accept, {}, "not_waiting", "en", friends_page)
    refused_both_ways(a, f"/friends/invite/{b.username}/", sent, "not_waiting", "en", at_table)
