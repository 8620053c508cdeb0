"""Issue 57 item 17: the admin in Chromium, as staff use it, in Arabic: not one console error,
CSP violation or failed request (a 404 /favicon.ico included) on its pages, and every model's
name translated. The site's own pages keep their strict policy (style-src 'self'); only the
admin's pages allow the inline styles Django's admin writes (sahrat_site/csp.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.urls import reverse
from django.utils import translation

from games.models import Match
from games.services import chat_post
from moderation.models import Report
from social.moderation import report
from tests.support.console import Console
from tests.tables.conftest import users  # noqa: F401 (a fixture)
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_browser_tables import open_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARABIC = re.compile("[\u0600-\u06ff]")


def admin_pages(staff) -> list[str]:
    """The admin's index, every registered model's list and add page, and a few change pages."""
    pages = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        if model_admin.has_add_permission(type("R", (), {"user": staff})()):
            pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
    match = Match.objects.order_by("pk").first()
    pages.append(reverse("admin:games_match_change", args=[match.pk]))
    pages.append(reverse("admin:accounts_user_change", args=[staff.pk]))
    report = Report.objects.order_by("pk").first()
    if report is not None:
        pages.append(reverse("admin:moderation_report_change", args=[report.pk]))
    return pages


def test_every_admin_page_opens_without_a_console_error_or_a_404(
    live_site,
    chromium,
    django_user_model,
    users,  # noqa: F811
):
    staff = django_user_model.objects.create_superuser(
        "boss", password="x-Long-pass-123", display_name="Boss", language="ar"
    )
    table = make_table(users[0], "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    # A report from the table, with its chat kept (the report's page shows it, marked).
    chat_post(user=users[1], table_id=table.public_id, text="hello there")
    chat_post(user=users[0], table_id=table.public_id, text="hi")
    report(user=users[0], username=users[1].username, reason="insults", table_id=table.public_id)
    context, page = open_as(chromium, live_site, staff, viewport={"width": 1280, "height": 900})
    console = Console(page)
    failed: list[str] = []
    untranslated: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    try:
        for url in admin_pages(staff):
            page.goto(live_site + url)
            page.wait_for_load_state("load")
            assert page.locator("#content").count() == 1, url
            # Every column of a list is named in Arabic (a field with no verbose_name is not).
            for name in page.locator("#result_list thead th").all_inner_texts():
                if name.strip() and not ARABIC.search(name):
                    untranslated.append(f"{url}: {name.strip()}")
        problems = console.problems()
    finally:
        context.close()
    assert problems == []
    assert failed == []
    assert untranslated == []


def test_every_admin_model_has_an_arabic_name():
    with translation.override("ar"):
        untranslated = [
            str(model._meta.verbose_name_plural)
            for model in admin.site._registry
            if not ARABIC.search(str(model._meta.verbose_name_plural))
        ]
    assert untranslated == []


def test_only_the_admin_allows_inline_styles(client, django_user_model):
    staff = django_user_model.objects.create_superuser("boss", password="x-Long-pass-123")
    client.force_login(staff)

    def policy(url: str) -> dict[str, str]:
        header = client.get(url)["Content-Security-Policy"]
        return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())

    site, staff_pages = policy(reverse("home")), policy(reverse("admin:index"))
    assert site["style-src"] == "'self'" and site["script-src"] == "'self'"
    assert staff_pages["style-src"] == "'self' 'unsafe-inline'"
    assert staff_pages["script-src"] == "'self'"
    # And /favicon.ico is the site's icon.
    icon = client.get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].endswith(".svg")
