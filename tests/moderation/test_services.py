"""Chat moderation through the services and the pages: masked and refused lines, a mute at one
table, the panic switch, a report that keeps the chat as it was, the staff's actions (each
logged), a timeout and a ban from coin tables enforced, and names that go through the filter."""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client
from django.urls import reverse

from games import selectors
from games import services as game_services
from games.faces import game_name
from games.models import ChatMessage, Match, Table
from games.services import TableError
from moderation import rules
from moderation.errors import ModerationError
from moderation.models import BannedWord, ChatMute, CoinBan, Report, StaffAction
from realtime.redis import sync_redis
from social import moderation as services
from social.errors import SocialError
from tests.tables.helpers import make_table, seat_humans, sit_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def words():
    """A small list of each kind (the shipped list is data a staff member may change, and a
    transactional test's flush empties it: the tests name their own words)."""
    BannedWord.objects.all().delete()
    BannedWord.objects.create(text="stupid", severity="mask")
    BannedWord.objects.create(text="حمار", severity="mask")
    BannedWord.objects.create(text="scumbag", severity="refuse")
    rules.forget_words()
    yield
    rules.forget_words()


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("mod", password="x-Long-pass-123")


def say(user, table: Table, text: str, **kw) -> ChatMessage:
    return game_services.chat_post(user=user, table_id=table.public_id, text=text, **kw)


def texts(table: Table, user) -> list[str]:
    table.refresh_from_db()
    return [line["text"] for line in selectors.table_state(table, user)["chat"]]


@pytest.fixture
def table(users):
    t = make_table(users[0], "hand", {"players": 2})
    seat_humans(t, users[:2])
    return t


def test_a_masked_word_is_starred_and_a_refused_one_stops_the_line(users, table, words):
    a, b = users[:2]
    line = say(a, table, "you are so STUPID today")
    assert line.text == "you are so ****** today"
    line = say(a, table, "يا 7maar")  # Arabizi for حمار
    assert line.text.startswith("يا ") and "7maar" not in line.text and "*" in line.text
    before = ChatMessage.objects.count()
    with pytest.raises(ModerationError) as refused:
        say(a, table, "what a s.c.u.m.b.a.g")
    assert refused.value.code == "chat_refused"
    assert "not sent" in refused.value.message("en") and refused.value.message("ar")
    # Nothing the players read: the line is kept for the staff alone, hidden, as typed.
    assert ChatMessage.objects.filter(hidden=False).count() == before
    kept = ChatMessage.objects.get(typed__refused=True)
    assert kept.hidden and kept.text == "" and kept.typed.text == "what a s.c.u.m.b.a.g"
    assert texts(table, b) == ["you are so ****** today", line.text]


def test_a_word_edited_in_the_admin_applies_to_the_next_line(users, table, staff, words):
    client = Client()
    client.force_login(staff)
    word = BannedWord.objects.get(text="stupid")
    url = reverse("admin:moderation_bannedword_change", args=[word.pk])
    page = client.post(url, {"text": "stupid", "severity": "refuse", "active": "on"})
    assert page.status_code == 302
    with pytest.raises(ModerationError):
        say(users[0], table, "stupid")


def test_a_word_changed_in_another_process_applies_here_at_the_next_line(monkeypatch, words):
    """Another Daphne's admin edit reaches this process by the stamp in Redis, not after
    WORDS_KEPT_S: here the list changes without a signal (as another process's write looks from
    here), and only the stamp's bump makes this process read it again."""
    assert rules.word_filter().check("you stupid").text == "you ******"
    BannedWord.objects.filter(text="stupid").update(severity="refuse")
    # Not told yet: the kept filter still stars the word.
    assert not rules.word_filter().check("you stupid").refused
    sync_redis().incr(rules.WORDS_STAMP_KEY)  # what forget_words does in the other process
    assert rules.word_filter().check("you stupid").refused
    # With Redis unreachable a process keeps its filter (WORDS_KEPT_S bounds how long).
    BannedWord.objects.filter(text="stupid").update(active=False)
    sync_redis().incr(rules.WORDS_STAMP_KEY)

    class Down:
        def get(self, key):
            raise redis.ConnectionError("down")

        incr = get

    monkeypatch.setattr(rules, "sync_redis", lambda: Down())
    assert rules.word_filter().check("you stupid").refused
    monkeypatch.setattr(rules, "WORDS_KEPT_S", -1.0)
    assert not rules.word_filter().check("you stupid").matched


def test_a_mute_hides_the_lines_for_the_muter_at_that_table_until_they_leave(users, words):
    a, b, c = users[:3]
    table = make_table(a, "hand", {"players": 3})
    seat_humans(table, [a, b])
    other = make_table(c, "hand", {"players": 2})
    say(b, table, "hello")
    services.mute(user=a, username=b.username, table_id=table.public_id)
    say(b, table, "anyone?")
    assert texts(table, a) == []
    assert texts(table, c) == ["hello", "anyone?"]  # a watcher still reads them
    assert ChatMute.objects.filter(user=a, table=other).count() == 0
    services.unmute(user=a, username=b.username, table_id=table.public_id)
    assert texts(table, a) == ["hello", "anyone?"]
    with pytest.raises(SocialError):
        services.mute(user=a, username=a.username, table_id=table.public_id)
    # Leaving the table ends the mute (standing up before the match).
    services.mute(user=a, username=b.username, table_id=table.public_id)
    game_services.seat_leave(user=a, table_id=table.public_id)
    assert not ChatMute.objects.filter(user=a).exists()
    assert texts(table, a) == ["hello", "anyone?"]


def test_the_panic_switch_hides_every_chat_and_one_tap_brings_it_back(users, table):
    a, b = users[:2]
    say(b, table, "hello")
    client = Client()
    client.force_login(a)
    client.post(reverse("moderation:hide_chat"), {"hide": "1"})
    a.refresh_from_db()
    state = selectors.table_state(table, a)
    assert a.hide_chat and state["chat"] == [] and state["you"]["chat_off"] is True
    page = client.get(reverse("games:table", args=[table.public_id]))
    assert b'data-testid="chat-off"' in page.content and b"hello" not in page.content
    # The one tap at the table (htmx): nothing to swap, the socket draws the chat again.
    answer = client.post(reverse("moderation:hide_chat"), {"hide": "0"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204
    assert texts(table, a) == ["hello"]


def test_a_report_keeps_the_last_thirty_lines_as_they_were(users, table, words):
    a, b = users[:2]
    # Thirty-five earlier lines (written straight in: the rate limit is tested elsewhere).
    ChatMessage.objects.bulk_create(
        ChatMessage(table=table, user=b if i % 2 else a, text=f"line {i}") for i in range(35)
    )
    ChatMessage.objects.update(at=F("at") - timedelta(minutes=5))
    rude = say(b, table, "stupid")
    game_services.chat_hide(message_ids=[rude.pk])
    report = services.report(
        user=a, username=b.username, reason="insults", words="he kept on", table_id=table.public_id
    )
    assert len(report.chat) == services.REPORT_LINES == 30
    assert report.chat[-1]["hidden"] is True and report.chat[-1]["text"] == "******"
    assert report.chat[0]["text"] == "line 6" and report.chat[-2]["text"] == "line 34"
    assert report.match == Match.objects.get(table=table, number=1)
    assert report.status == Report.Status.OPEN and report.words == "he kept on"
    # Later lines do not change what was kept; a second open report is refused.
    say(b, table, "later")
    report.refresh_from_db()
    assert report.chat[-1]["id"] == rude.pk
    with pytest.raises(ModerationError) as again:
        services.report(user=a, username=b.username, reason="spam", table_id=table.public_id)
    assert again.value.code == "reported_already"
    with pytest.raises(ModerationError):
        services.report(user=a, username=b.username, reason="because", table_id="")
    # From the player's page: their own last lines, wherever written.
    on_page = services.report(user=a, username=b.username, reason="spam")
    assert on_page.table is None and {line["user"] for line in on_page.chat} == {b.pk}


def test_the_report_pages_from_the_table_and_from_the_profile(users, table):
    a, b = users[:2]
    say(b, table, "hello")
    client = Client()
    client.force_login(a)
    url = reverse("moderation:report", args=[b.username])
    form = client.get(url, {"table": table.public_id}, HTTP_HX_REQUEST="true")
    assert b'data-testid="report-form"' in form.content
    bad = client.post(url, {"table": table.public_id, "reason": "nope"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 200 and not Report.objects.exists()
    done = client.post(
        url, {"table": table.public_id, "reason": "harassment"}, HTTP_HX_REQUEST="true"
    )
    assert b'data-testid="reported"' in done.content
    assert Report.objects.get().chat[0]["text"] == "hello"
    page = client.post(url, {"reason": "name", "next": f"/leaders/player/{b.username}/"})
    assert page.status_code == 302 and Report.objects.count() == 2
    # Nobody reports at a private table they may not watch.
    private = make_table(users[2], "hand", {"players": 2}, private=True)
    hidden = client.get(url, {"table": private.public_id})
    assert hidden.status_code == 404


def test_every_staff_action_is_logged_and_a_timeout_is_enforced(users, table, staff, words):
    a, b = users[:2]
    line = say(b, table, "stupid move")
    report = services.report(
        user=a, username=b.username, reason="insults", table_id=table.public_id
    )
    services.hide_lines(staff=staff, report=report)
    line.refresh_from_db()
    assert line.hidden and texts(table, a) == []
    timeout = services.time_out(
        staff=staff, player=b, length="24h", reason="Insults in chat", report=report
    )
    with pytest.raises(ModerationError) as refused:
        say(b, table, "hello")
    assert refused.value.code == "chat_timeout"
    words_en = refused.value.message("en")
    assert "Insults in chat" in words_en and str(timeout.until.year) in words_en
    assert "Insults in chat" in refused.value.message("ar")
    # The timeout stops chat only: the player still plays.
    match = Match.objects.get(table=table, number=1)
    assert match.status == Match.Status.PLAYING
    with pytest.raises(ValueError):
        services.time_out(staff=staff, player=b, length="2y", reason="x")
    with pytest.raises(ValueError):
        services.time_out(staff=staff, player=b, length="1h", reason="  ")
    services.dismiss(staff=staff, report=report)
    kinds = list(StaffAction.objects.order_by("at").values_list("kind", "staff", "player"))
    assert kinds == [
        ("hide", staff.pk, b.pk),
        ("timeout", staff.pk, b.pk),
        ("dismiss", staff.pk, b.pk),
    ]
    report.refresh_from_db()
    assert report.handled_by == staff and report.handled_at is not None


def test_a_ban_keeps_a_player_from_coin_tables_only(users, staff):
    a, b = users[:2]
    services.ban_from_coin_tables(staff=staff, player=b, reason="Cheating with a friend")
    coin = make_table(a, "hand", {"players": 2}, stake=50)
    seat_humans(coin, [a])
    with pytest.raises(ModerationError) as refused:
        seat_humans_at(coin, b, 1)
    assert refused.value.code == "coin_banned" and "Cheating" in refused.value.message("en")
    free = make_table(a, "hand", {"players": 2})
    sit_at(free, b, 1)  # a free table is open to them
    services.lift_coin_ban(staff=staff, player=b)
    assert not CoinBan.objects.exists()
    seat_humans_at(coin, b, 1)
    assert [k for (k,) in StaffAction.objects.order_by("at").values_list("kind")] == [
        "coin_ban",
        "coin_unban",
    ]


def seat_humans_at(table: Table, user, number: int) -> None:
    from wallet import services as wallet_services

    wallet_services.grant_starter(user=user)
    sit_at(table, user, number)


def test_the_admin_queue_shows_the_chat_and_acts_in_one_click(users, table, staff, words):
    a, b = users[:2]
    say(b, table, "stupid")
    report = services.report(
        user=a, username=b.username, reason="insults", table_id=table.public_id
    )
    client = Client()
    client.force_login(staff)
    queue = client.get(reverse("admin:moderation_report_changelist"), follow=True)
    assert "status__exact=open" in queue.redirect_chain[0][0]
    assert b.display_name in queue.content.decode()
    page = client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    assert b'data-testid="saved-chat"' in page.content and b"******" in page.content
    # The table by its game's name, a link to its page; not as the record prints itself.
    link = f'<a href="{reverse("games:table", args=[table.public_id])}">'
    for shown in (queue.content.decode(), page.content.decode()):
        assert f"{link}{game_name(table.game)} {table.public_id}</a>" in shown
        assert str(table) not in shown
    # And the match the report was made in, a link to its Verify page.
    match = report.match
    verify = reverse("verify:match", args=[match.public_id])
    assert (
        f'<a href="{verify}">{game_name(match.game)} {match.public_id}</a>' in page.content.decode()
    )
    # Both links open their pages for the staff member.
    assert client.get(reverse("games:table", args=[table.public_id])).status_code == 200
    assert client.get(verify).status_code == 200
    # A report is closed by acting on it or dismissing it, never deleted.
    assert b"/delete/" not in page.content
    delete = reverse("admin:moderation_report_delete", args=[report.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert Report.objects.filter(pk=report.pk).exists()
    act = reverse("admin:moderation_report_act", args=[report.pk])
    assert client.post(act, {"action": "timeout_1h", "reason": ""}).status_code == 302
    assert not StaffAction.objects.exists()  # a timeout needs the reason the player is shown
    client.post(act, {"action": "timeout_1h", "reason": "Insults"})
    assert rules.running_timeout(b).reason == "Insults"
    report.refresh_from_db()
    assert report.status == Report.Status.ACTED
    # A staff member without the moderation permission cannot act.
    clerk = get_user_model().objects.create_user("clerk", password="x-Long-pass-123", is_staff=True)
    client.force_login(clerk)
    assert client.post(act, {"action": "dismiss"}).status_code in (302, 403)
    assert StaffAction.objects.count() == 1


def test_names_go_through_the_filter_at_sign_up_and_change(users, words):
    client = Client()
    data = {
        "username": "scumbag99",
        "display_name": "Nice",
        "password1": "x-Long-pass-123",
        "password2": "x-Long-pass-123",
    }
    page = client.post(reverse("accounts:signup"), data)
    assert page.status_code == 200 and not get_user_model().objects.filter(username="scumbag99")
    data["username"], data["display_name"] = "nice99", "7maar"
    page = client.post(reverse("accounts:signup"), data)
    assert not get_user_model().objects.filter(username="nice99").exists()
    client.force_login(users[0])
    client.post(reverse("accounts:profile"), {"display_name": "Stupid", "language": "en"})
    users[0].refresh_from_db()
    assert users[0].display_name != "Stupid"
    client.post(reverse("accounts:profile"), {"display_name": "Sara", "language": "en"})
    users[0].refresh_from_db()
    assert users[0].display_name == "Sara"


def test_a_team_line_and_a_watchers_line_go_through_the_filter_too(users, words):
    a, b, c, d, watcher = users[:5]
    table = make_table(a, "hand", {"players": 4, "partners": True})
    seat_humans(table, [a, b, c, d])
    assert say(a, table, "stupid plan", team=True).text == "****** plan"
    assert say(watcher, table, "stupid").text == "******"
    with pytest.raises(TableError):
        say(watcher, table, "stupid", team=True)  # a watcher still has no team
