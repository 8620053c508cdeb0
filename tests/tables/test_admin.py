"""Staff run the tables from the admin: they see matches with their state, seats, log and
deadline, abort a stuck match (its secret is revealed), hide chat, and can never edit a logged
action. A majlis exists after ``migrate``."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import ChatMessage, Match, MatchAction
from tests.conftest import ROOT
from tests.tables.helpers import advance_until, make_table, seat_humans
from wallet import services as wallet_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_superuser(
        "boss", password="x-Long-pass-123", display_name="Boss"
    )
    client.force_login(staff)
    return client


def test_staff_see_a_match_with_its_log_and_abort_it(staff_client, creator, users, fast_clocks):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    match = advance_until(match, lambda m: m.seq >= 3)
    page = staff_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert match.commitment in text
    assert match.secret not in text  # not revealed yet: not even staff pages show it
    for act in match.actions.all():
        assert act.action in text
    # The log cannot be edited or added to from the admin: no action has its own page.
    assert "games_matchaction_change" not in text
    # The action asks first: the intermediate page, and nothing changes yet.
    asked = staff_client.post(
        reverse("admin:games_match_changelist"),
        {"action": "abort", "_selected_action": [match.pk]},
    )
    assert asked.status_code == 200 and "abort-confirm" in asked.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    response = staff_client.post(
        reverse("admin:games_match_changelist"),
        {"action": "abort", "_selected_action": [match.pk], "confirm": "yes"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.revealed_at is not None
    before = list(MatchAction.objects.filter(match=match).values_list("seq", "action"))
    # A POST that tries to change the log through the match page changes nothing.
    staff_client.post(
        reverse("admin:games_match_change", args=[match.pk]),
        {"actions-0-action": "out AS", "actions-0-id": match.actions.first().pk},
    )
    assert list(MatchAction.objects.filter(match=match).values_list("seq", "action")) == before


def test_staff_hide_a_chat_line(staff_client, creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    msg = services.chat_post(user=users[0], table_id=table.public_id, text="كلام")
    staff_client.post(
        reverse("admin:games_chatmessage_changelist"),
        {"action": "hide", "_selected_action": [msg.pk]},
    )
    msg.refresh_from_db()
    assert msg.hidden
    assert ChatMessage.objects.get(pk=msg.pk).text == "كلام"  # hidden, not edited


def test_a_hidden_line_leaves_every_view_of_the_table(staff_client, creator, users):
    """The table's chat lines are cached per change of its chat (Table.chat_seq): hiding a line,
    by the action or by the list's checkbox, must reach the next state every viewer gets."""
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    first = services.chat_post(user=users[0], table_id=table.public_id, text="سطر أول")
    second = services.chat_post(user=users[1], table_id=table.public_id, text="سطر ثان")

    def texts() -> list[str]:
        table.refresh_from_db()
        return [line["text"] for line in selectors.table_state(table, users[1])["chat"]]

    assert texts() == ["سطر أول", "سطر ثان"]  # read once, and now cached
    staff_client.post(
        reverse("admin:games_chatmessage_changelist"),
        {"action": "hide", "_selected_action": [first.pk]},
    )
    assert texts() == ["سطر ثان"]
    # The changelist's "hidden" checkbox (list_editable) saves through save_model.
    response = staff_client.post(
        reverse("admin:games_chatmessage_changelist"),
        {
            "form-TOTAL_FORMS": "2",
            "form-INITIAL_FORMS": "2",
            "form-0-id": str(second.pk),
            "form-0-hidden": "on",
            "form-1-id": str(first.pk),
            "form-1-hidden": "on",
            "_save": "Save",
        },
    )
    assert response.status_code == 302
    assert ChatMessage.objects.get(pk=second.pk).hidden
    assert texts() == []


def test_a_majlis_exists_after_migrate(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    shown = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from games.models import Majlis; "
            "print(list(Majlis.objects.values_list('slug', flat=True)))",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "['main']" in shown.stdout, shown.stderr


def test_aborting_a_coin_match_asks_first_and_says_whose_coins_go_back(
    staff_client, creator, users
):
    table = make_table(creator, "jakaro", {"players": 2}, stake=50)
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    assert match.status == Match.Status.PLAYING
    url = reverse("admin:games_match_abort", args=[match.pk])
    # The match's page links to the confirmation; the confirmation names each refund.
    change = staff_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert url in change.content.decode()
    asked = staff_client.get(url)
    text = asked.content.decode()
    assert asked.status_code == 200 and 'data-testid="abort-confirm"' in text
    refunds = re.findall(r'<li data-testid="refund">([^<]*)</li>', text)
    assert len(refunds) == 2
    for line, user in zip(refunds, users[:2], strict=True):
        assert "50" in line and user.username in line
    # A POST without the confirmation changes nothing.
    assert staff_client.post(url, {}).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert wallet_services.balance_of(users[0]) == 450
    # Confirmed: aborted, every stake back, and the match keeps why it ended.
    done = staff_client.post(url, {"confirm": "yes"})
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.end_reason == "staff"
    assert wallet_services.balance_of(users[0]) == 500
    assert wallet_services.balance_of(users[1]) == 500
