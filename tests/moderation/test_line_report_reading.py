"""Reporting a chat line reads no chat the reporter is not shown (review of issue 57, item 13):
the report form quotes the line, and line ids are sequential, so an id is accepted only if the
line is in the reporter's own picture of the table now (the rule their socket is sent by),
and a watcher shown the table late is refused a line newer than WATCH_DELAY_S. Each refusal is
said in the player's language, creates nothing and never carries the line's text."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import ChatMessage, Match
from moderation.models import Report
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db

REFUSED = "لا يمكن الإبلاغ عن هذا السطر: ليس في دردشة يمكنك قراءتها."


def _get(user, line: ChatMessage):
    client = Client()
    client.force_login(user)
    return client.get(f"/moderation/report/line/{line.pk}/")


def _refused(user, line: ChatMessage) -> None:
    """``user`` asks to report ``line``: refused in Arabic, the text not quoted, nothing made."""
    answer = _get(user, line)
    html = answer.content.decode()
    assert answer.status_code == 404
    assert REFUSED in html
    assert line.text not in html
    assert Report.objects.count() == 0


def _accepted(user, line: ChatMessage) -> None:
    answer = _get(user, line)
    assert answer.status_code == 200 and line.text in answer.content.decode()


def test_another_teams_line_cannot_be_reported(users):
    a, b, c, d = users[:4]  # seats 0 and 2 one team, 1 and 3 the other
    table = make_table(a, "hand", {"players": 4, "partners": True})
    seat_humans(table, [a, b, c, d])
    line = services.chat_post(user=a, table_id=table.public_id, text="ارمِ الجوكر", team=True)
    assert line.team is not None
    _refused(b, line)
    _refused(d, line)
    _accepted(c, line)  # the partner reads it, so may report it


def test_a_seated_player_cannot_read_the_watchers_chat_mid_round_through_a_report(users):
    a, b, watcher = users[:3]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    assert Match.objects.get(table=table, number=1).status == Match.Status.PLAYING
    line = services.chat_post(user=watcher, table_id=table.public_id, text="العب السبعة الآن")
    assert line.watchers
    _refused(a, line)
    _refused(b, line)
    _accepted(users[3], line)  # another watcher reads the watchers' chat


def test_a_delayed_watcher_cannot_report_a_line_newer_than_the_watch_delay(users, settings):
    settings.WATCH_DELAY_S = 20.0
    a, b, watcher = users[:3]
    table = make_table(a, "jakaro", {"players": 2}, stake=10)
    seat_humans(table, [a, b])
    line = services.chat_post(user=a, table_id=table.public_id, text="خطتي أن ألعب العشرة")
    _refused(watcher, line)
    _accepted(b, line)  # a player reads it at once
    # Once the delay has passed the watcher's picture holds it: then it may be reported.
    ChatMessage.objects.filter(pk=line.pk).update(at=timezone.now() - timedelta(seconds=21))
    _accepted(watcher, line)
