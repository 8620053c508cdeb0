"""The wallet's pages: the wallet (balance, history paged with htmx, links to Verify), the create
form's stake levels and its refusals, the pot on the majlis and the table, and the admin (read-only
ledger, fee takings by day, escrow per match, adjustments refused clearly when wrong)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Majlis, Table
from tests.tables.helpers import make_table
from tests.wallet.conftest import balance, fund
from tests.wallet.helpers import coin_match, finish, jakaro_outcome
from wallet.models import Account, Transfer

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user, lang: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    user.language = lang
    user.save(update_fields=["language"])
    return client


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("boss", password="x-Long-pass-123")


def test_the_wallet_needs_a_log_in(client):
    resp = client.get("/wallet/")
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_the_wallet_shows_balance_history_and_links_to_verify(host, people, settings):
    settings.WALLET_HISTORY_PAGE = 3
    match = coin_match(host, "jakaro", {"players": 2}, 100, people[:2])
    finish(match, jakaro_outcome(2, 0))
    for i in range(4):
        fund(people[0], 1, key=f"page-{i}")
    page = client_for(people[0]).get("/wallet/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Balance: 584 coins" in text  # 500 − 100 + 180 + 4
    assert text.count('data-testid="transfer"') == 3  # the first page
    more = re.search(r'hx-get="([^"]+page=2)"', text)
    assert more and 'href="?page=2"' in text  # htmx, with a plain link beside it
    rows = []
    for n in (2, 3):
        part = client_for(people[0]).get(f"/wallet/?page={n}", HTTP_HX_REQUEST="true")
        assert part.status_code == 200 and "<html" not in part.content.decode()
        rows.append(part.content.decode())
    both = "".join(rows)
    assert both.count('data-testid="transfer"') == 4  # 7 transfers in all: 3 + 3 + 1
    assert "page=4" not in rows[1]
    everything = text + both
    assert f'href="/verify/m/{match.public_id}/"' in everything
    assert "winnings" in everything and 'data-kind="fee"' not in everything  # the house's
    assert "+180" in everything and "-100" in everything and "starter grant" in everything
    # Arabic first.
    ar = client_for(people[0], "ar").get("/wallet/").content.decode()
    assert "الرصيد: ٥٨٤ عملة" in ar  # Arabic-Indic digits, the plural form of 584


def test_the_create_form_offers_the_stake_levels(people, settings):
    page = client_for(people[0]).get(reverse("games:lobby")).content.decode()
    for level in settings.WALLET_STAKE_LEVELS:
        assert f'<option value="{level}">{level} coins a seat</option>' in page
    assert '<option value="0" selected>free table' in page


def test_creating_a_coin_table_and_a_bad_stake_refused_clearly(people):
    Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    client = client_for(people[0])
    ok = client.post(reverse("games:table_new"), {"game": "hand", "players": 2, "stake": 50})
    assert ok.status_code == 302
    assert Table.objects.get().stake == 50
    bad = client.post(reverse("games:table_new"), {"game": "hand", "players": 2, "stake": 7})
    assert bad.status_code == 400
    assert "Select a valid choice" in bad.content.decode()
    assert Table.objects.count() == 1 and balance(people[0]) == 500


def test_the_pot_shows_on_the_majlis_and_the_table(host, people):
    table = make_table(host, "jakaro", {"players": 4}, stake=100)
    free = make_table(host, "hand", {"players": 2})
    lobby = client_for(people[0]).get(reverse("games:lobby")).content.decode()
    assert "coin table: 100 coins a seat, pot 400 coins" in lobby
    assert lobby.count('data-testid="pot"') == 1  # not on the free table
    page = client_for(people[0]).get(reverse("games:table", args=[table.public_id]))
    assert "Pot: 400 coins, less the 10% table fee" in page.content.decode()
    page = client_for(people[0]).get(reverse("games:table", args=[free.public_id]))
    assert 'data-testid="pot"' not in page.content.decode()
    ar = client_for(people[0], "ar").get(reverse("games:lobby")).content.decode()
    assert "طاولة عملات: ١٠٠ عملة للمقعد، والجائزة ٤٠٠ عملة" in ar


def test_admin_shows_accounts_transfers_fees_and_escrow_read_only(host, people, staff):
    match = coin_match(host, "jakaro", {"players": 4}, 100, people[:4])
    finish(match, jakaro_outcome(4, 0))
    client = client_for(staff)
    accounts = client.get(reverse("admin:wallet_account_changelist") + "?kind=escrow")
    assert accounts.status_code == 200
    assert str(match) in accounts.content.decode()
    fees = client.get(reverse("admin:wallet_fees")).content.decode()
    assert re.search(r"<td>\d{1,2} [A-Z][a-z]+ \d{4}</td><td>40</td><td>1</td>", fees)  # day first
    t = Transfer.objects.filter(kind=Transfer.Kind.PAYOUT).first()
    change = client.get(reverse("admin:wallet_transfer_change", args=[t.pk]))
    assert change.status_code == 200 and 'name="_save"' not in change.content.decode()
    post = client.post(reverse("admin:wallet_transfer_change", args=[t.pk]), {"amount": 9999})
    assert post.status_code == 403
    delete = client.post(reverse("admin:wallet_transfer_delete", args=[t.pk]), {"post": "yes"})
    assert delete.status_code == 403
    assert client.get(reverse("admin:wallet_transfer_add")).status_code == 403
    assert Transfer.objects.get(pk=t.pk).amount == 180


def _adjust(client, **data):
    form = client.get(reverse("admin:wallet_adjust")).content.decode()
    key = re.search(r'name="key" value="([0-9a-f]+)"', form).group(1)
    return client.post(reverse("admin:wallet_adjust"), {"key": key, "direction": "credit", **data})


@pytest.mark.parametrize(
    ("amount", "reason", "words"),
    [
        ("-10", "fix", "from 1 to 100000"),
        ("-1", "fix", "from 1 to 100000"),
        ("0", "fix", "from 1 to 100000"),
        ("100001", "fix", "from 1 to 100000"),
        ("99999999999999999999", "fix", "from 1 to 100000"),
        ("ten", "fix", "Enter a whole number"),
        ("5", "   ", "This field is required"),
    ],
)
def test_admin_adjustment_refuses_bad_amounts_clearly(people, staff, amount, reason, words):
    before = Transfer.objects.count()
    resp = _adjust(client_for(staff), username=people[0].username, amount=amount, reason=reason)
    assert resp.status_code == 400
    assert words in resp.content.decode()
    assert Transfer.objects.count() == before and balance(people[0]) == 500


def test_admin_adjustment_debit_beyond_the_balance_is_refused(people, staff):
    resp = _adjust(
        client_for(staff),
        username=people[0].username,
        amount="501",
        reason="fix",
        direction="debit",
    )
    assert resp.status_code == 400 and "does not have enough coins" in resp.content.decode()
    assert balance(people[0]) == 500


def test_admin_adjustment_is_a_balanced_transfer_with_reason_and_staff(people, staff):
    client = client_for(staff)
    form = client.get(reverse("admin:wallet_adjust")).content.decode()
    key = re.search(r'name="key" value="([0-9a-f]+)"', form).group(1)
    data = {
        "key": key,
        "username": people[0].username,
        "direction": "debit",
        "amount": "25",
        "reason": "refund error",
    }
    assert client.post(reverse("admin:wallet_adjust"), data).status_code == 302
    assert client.post(reverse("admin:wallet_adjust"), data).status_code == 302  # double submit
    t = Transfer.objects.get(kind=Transfer.Kind.ADJUSTMENT)
    assert (t.amount, t.reason, t.created_by) == (25, "refund error", staff)
    assert t.source.user == people[0] and t.dest.kind == Account.Kind.REWARDS
    assert balance(people[0]) == 475
    assert client_for(people[1]).get(reverse("admin:wallet_adjust")).status_code == 302
