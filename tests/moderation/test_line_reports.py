"""Reporting one chat line (issue 57, item 13): a player reports the line itself; the staff read
it as typed (the starred word unstarred), the lines around it, refused lines included; and the
words as typed never reach a player: every frame of every socket at the table (players and a
watcher, JSON and HTML) is recorded and searched."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from games.models import ChatMessage
from games.services import chat_post
from moderation import rules
from moderation.models import BannedWord, Report
from sahrat_site.asgi import application
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT, _cookie, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MASKED, REFUSED = "qwzmask", "qwzrefuse"  # words no starting list holds
MARKER = "qwzmarker"  # a line written last: the frame with it ends each socket's recording
LINES = ["hello there", f"you {MASKED} fool", f"you {REFUSED} thing", "ok then"]


async def _html_socket(user, table_id: str) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_cookie)(user)
    comm = WebsocketCommunicator(
        application,
        f"/ws/table/{table_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm


async def _drain(comm, into: list[str], marker: str) -> None:
    """Every frame the socket receives up to the one that holds ``marker`` (a chat line written
    after everything else, so the frame with it is the last one that matters): no quiet spell
    is taken for "nothing more came"."""
    while not into or marker not in into[-1]:
        into.append(await comm.receive_from(timeout=TIMEOUT))


async def _state(comm, into: list[str]) -> dict:
    """The next state frame of a JSON socket, every frame read on the way recorded."""
    while True:
        into.append(await comm.receive_from(timeout=TIMEOUT))
        frame = json.loads(into[-1])
        if frame["type"] == "state":
            return frame


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def test_a_line_reported_reaches_the_staff_as_typed_and_no_player_ever_reads_it(
    users, django_user_model
):
    a, b, watcher = users[:3]

    def setup():
        BannedWord.objects.all().delete()
        BannedWord.objects.create(text=MASKED, severity="mask")
        BannedWord.objects.create(text=REFUSED, severity="refuse")
        rules.forget_words()
        table = make_table(a, "jakaro", {"players": 2})
        seat_humans(table, [a, b])
        return table

    table = await database_sync_to_async(setup)()
    # Every frame of every socket is recorded from the first (the JSON socket's too, whose
    # states the test reads on the way).
    frames: dict[str, list[str]] = {}
    sockets = {}
    for name, user in (("a", a), ("b", b), ("watcher", watcher)):
        comm, ok, _ = await connect(user, table.public_id)
        assert ok
        sockets[name] = comm
    sockets["a-html"] = await _html_socket(a, table.public_id)
    sockets["watcher-html"] = await _html_socket(watcher, table.public_id)
    for name in sockets:
        frames[name] = []
    await _state(sockets["a"], frames["a"])
    for text in LINES:
        await sockets["b"].send_json_to({"type": "chat", "text": text})
    while True:  # the three lines that went out, the masked one starred
        chat = [line["text"] for line in (await _state(sockets["a"], frames["a"]))["chat"]]
        if len(chat) == 3:
            break
    assert chat == ["hello there", "you ******* fool", "ok then"]

    def report_the_masked_line():
        masked = ChatMessage.objects.get(table=table, typed__text=LINES[1])
        answer = _client(a).post(
            f"/moderation/report/line/{masked.pk}/", {"reason": "insults", "words": ""}
        )
        return masked, answer.status_code

    masked, status = await database_sync_to_async(report_the_masked_line)()
    assert status == 302  # back to the table, the report made
    await sockets["b"].send_json_to({"type": "chat", "text": MARKER})  # the last frame
    for name, comm in sockets.items():
        await _drain(comm, frames[name], MARKER)
        text = "\n".join(frames[name])
        assert "ok then" in text, name  # the recording is real: the lines went by here
        assert MASKED not in text and REFUSED not in text, name

    def staff_side():
        report = Report.objects.get()
        assert report.line_id == masked.pk and report.reported_id == b.pk
        saved = {line["id"]: line for line in report.chat}
        assert [line["typed"] or line["text"] for line in report.chat] == LINES
        assert saved[masked.pk]["typed"] == LINES[1]
        refused = [line for line in report.chat if line["refused"]]
        assert [line["typed"] for line in refused] == [LINES[2]]
        staff = django_user_model.objects.create_superuser("mod", password="x-Long-pass-123")
        page = _client(staff).get(f"/admin/moderation/report/{report.pk}/change/")
        html = page.content.decode()
        assert LINES[1] in html and LINES[2] in html
        assert 'data-testid="the-reported-line"' in html
        assert 'data-testid="refused-line"' in html
        # The reporter's own line, the refused one (never sent) and a line of a chat the
        # reporter cannot read (the watchers', mid-round, to a seated player) are refused, with
        # words, the line not quoted.
        own = ChatMessage.objects.create(table=table, user=a, text="mine")
        unread = chat_post(user=watcher, table_id=table.public_id, text="play the seven now")
        assert unread.watchers and not unread.hidden
        for line_id in (own.pk, refused[0]["id"], unread.pk):
            answer = _client(a).get(f"/moderation/report/line/{line_id}/")
            html = answer.content.decode()
            assert answer.status_code == 404 and 'data-testid="reported"' in html
            assert unread.text not in html
        assert Report.objects.count() == 1
        # The same line again: refused, said in the player's language.
        again = _client(a).post(f"/moderation/report/line/{masked.pk}/", {"reason": "insults"})
        assert again.status_code == 400 and "سبق أن أبلغت عن هذا السطر" in again.content.decode()

    await database_sync_to_async(staff_side)()
    rules.forget_words()
    for comm in sockets.values():
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()
