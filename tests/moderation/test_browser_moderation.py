"""In the browser, in Arabic at phone size: Omar's rude line reaches Sara starred; she reports
him from the table's "Players" sheet; a staff member opens the report in the moderation queue,
reads the chat it kept and times Omar out of chat in one click; Omar, writing again, reads why
and until when, in his language."""

from __future__ import annotations

import pytest

from games import services as game_services
from moderation import rules
from moderation.models import BannedWord, Report, StaffAction
from tests.support.shots import screenshot
from tests.tables.helpers import seat_humans
from tests.tables.test_browser_tables import (  # noqa: F401
    POLL_MS,
    majlis,
    open_as,
    open_sheet,
    player,
    wait_live,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_report_staff_act_and_the_player_reads_the_timeout(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    sara = player(django_user_model, "sara_m", "سارة")
    omar = player(django_user_model, "omar_m", "عمر")
    staff = django_user_model.objects.create_superuser(
        "mod_m", password="x-Long-pass-123", display_name="المشرف", language="ar"
    )
    BannedWord.objects.all().delete()
    BannedWord.objects.create(text="غبي", severity="mask")
    rules.forget_words()
    table = game_services.table_create(
        user=sara, game="hand", options={"players": 2}, majlis=majlis
    )
    seat_humans(table, [sara, omar])
    people = [open_as(chromium, base, who) for who in (sara, omar, staff)]
    (_, s), (_, o), (_, m) = people
    try:
        for page in (s, o):
            page.goto(f"{base}/majlis/t/{table.public_id}/")
            wait_live(page)
        # Omar writes from his page; the filter stars the word for everyone.
        open_sheet(o, "sheet-chat").locator("input[name=text]").fill("يا غبي العب")
        o.locator("#sheet-chat").get_by_role("button", name="أرسل", exact=True).click()
        s.wait_for_function(
            "() => document.getElementById('table-chat').textContent.includes('يا *** العب')",
            polling=POLL_MS,
        )
        assert "غبي" not in s.locator("#table-chat").text_content()

        # Sara reports him from the Players sheet.
        sheet = open_sheet(s, "sheet-players")
        sheet.get_by_test_id(f"report-{omar.username}").click()
        form = sheet.get_by_test_id("report-form")
        form.locator("select[name=reason]").select_option("insults")
        form.locator("textarea[name=words]").fill("يشتم من أول الجولة")
        screenshot(s, "moderation-report-form-ar.png")
        form.get_by_test_id("report-send").click()
        sheet.get_by_test_id("reported").wait_for()
        report = Report.objects.get()
        assert report.reported == omar and report.chat[-1]["text"] == "يا *** العب"

        # The staff member opens the queue, reads the kept chat and acts in one click.
        m.goto(f"{base}/admin/moderation/report/")
        m.locator("#result_list tbody tr a").first.click()
        m.get_by_test_id("saved-chat").wait_for()
        assert "يا *** العب" in m.get_by_test_id("saved-chat").inner_text()
        screenshot(m, "moderation-queue-report.png", full_page=True)
        m.get_by_test_id("act-timeout-24h").click()
        m.locator(".messagelist .success").wait_for()  # back in the queue, told what was done
        action = StaffAction.objects.get()
        assert (action.staff, action.player, action.kind) == (staff, omar, "timeout")

        # Omar writes again and reads why and until when (the reason in his language).
        o.locator("#sheet-chat input[name=text]").fill("مرحبا")
        o.locator("#sheet-chat").get_by_role("button", name="أرسل", exact=True).click()
        error = o.get_by_test_id("chat-error")  # under the chat, where he wrote
        error.wait_for()
        words = error.inner_text()
        assert "شتائم" in words or "إهانات" in words or "كلام" in words, words
        assert "حتى" in words, words
        # What he typed is given back, not lost with the refusal.
        assert o.locator("#sheet-chat input[name=text]").input_value() == "مرحبا"
        screenshot(o, "moderation-timeout-ar.png")
    finally:
        for ctx, _ in people:
            ctx.close()
