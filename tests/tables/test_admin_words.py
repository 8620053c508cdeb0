"""The admin in Arabic: every column header and field label of the tables'
and coins' pages is translated (verbose_name on each field), and dates read day first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Match
from tests.tables.helpers import advance_until, make_table, seat_humans
from wallet import services as wallet_services

pytestmark = pytest.mark.django_db(transaction=True)

# What Django shows for a field without a verbose_name: its name, capitalised.
MONTHS = "يناير|فبراير|مارس|أبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر"
RAW_HEADERS = ("Public id", "Seq", "Is bot", "Bot playing", "Created at", "Away since", "Number")


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_superuser(
        "boss", password="x-Long-pass-123", display_name="Boss", language="ar"
    )
    client.force_login(staff)
    return client


def headers(html: str) -> list[str]:
    cells = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', html, re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in cells]


def test_the_admin_speaks_arabic_headers_and_labels(staff_client, creator, users, fast_clocks):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = advance_until(Match.objects.get(table=table, number=1), lambda m: m.seq >= 2)
    wallet_services.grant_starter(user=users[0])

    matches = staff_client.get(reverse("admin:games_match_changelist")).content.decode()
    shown = headers(matches)
    for word in ("الرقم", "اللعبة", "الطاولة", "الحالة", "الحركات المسجلة", "الموعد النهائي"):
        assert word in shown, (word, shown)
    tables = staff_client.get(reverse("admin:games_table_change", args=[table.pk])).content
    seats = staff_client.get(reverse("admin:games_match_change", args=[match.pk])).content
    transfers = staff_client.get(reverse("admin:wallet_transfer_changelist")).content.decode()
    for page in (matches, tables.decode(), seats.decode(), transfers):
        for raw in RAW_HEADERS:
            assert f">{raw}<" not in page and f">{raw}:<" not in page, raw
    assert "لاعب آلي" in tables.decode() and "غائب منذ" in tables.decode()
    assert "أُنشئت في" in transfers or "الوقت" in transfers
    # Dates day first with the month's name (language/formats/ar), not «ديسمبر 1, 2026».
    assert not re.search(
        rf"({MONTHS}) \d+,",
        transfers,
    )
    assert re.search(
        rf"\d{{1,2}} ({MONTHS}) \d{{4}}",
        transfers,
    )
