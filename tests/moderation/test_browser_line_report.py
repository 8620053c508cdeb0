"""In Chromium, in Arabic at 360×740 and 390×844 (touch): every chat line has its menu (⋮), a
44 px tap; tapping Omar's starred line's menu opens the report form with the line quoted as
Sara read it, and sending it makes a report of that line (issue 57, item 13)."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import ChatMessage
from moderation import rules
from moderation.models import BannedWord, Report
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


@pytest.mark.parametrize("size", [(360, 740), (390, 844)], ids=["360x740", "390x844"])
def test_a_chat_lines_menu_is_a_44px_tap_that_reports_that_line(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
    size,
):
    base = live_site
    sara = player(django_user_model, "sara_l", "سارة")
    omar = player(django_user_model, "omar_l", "عمر")
    BannedWord.objects.all().delete()
    BannedWord.objects.create(text="غبي", severity="mask")
    rules.forget_words()
    table = game_services.table_create(
        user=sara, game="hand", options={"players": 2}, majlis=majlis
    )
    seat_humans(table, [sara, omar])
    for text in ("السلام عليكم", "يا غبي العب"):
        game_services.chat_post(user=omar, table_id=table.public_id, text=text)
    width, height = size
    ctx, page = open_as(
        chromium, base, sara, viewport={"width": width, "height": height}, has_touch=True
    )
    try:
        page.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(page)
        chat = open_sheet(page, "sheet-chat")
        menus = chat.get_by_test_id("line-menu")
        assert menus.count() == 2
        for i in range(2):
            box = menus.nth(i).bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
        screenshot(page, f"chat-lines-ar-{width}.png")
        menus.nth(1).tap()
        form = chat.get_by_test_id("report-line-form")
        form.wait_for()
        assert form.get_by_test_id("report-line-quote").inner_text() == "عمر: يا *** العب"
        form.locator("select[name=reason]").select_option("insults")
        screenshot(page, f"report-line-ar-{width}.png")
        form.get_by_test_id("report-send").tap()
        chat.get_by_test_id("reported").wait_for()
        report = Report.objects.get()
        line = ChatMessage.objects.get(table=table, typed__text="يا غبي العب")
        assert report.line_id == line.pk and report.reporter_id == sara.pk
        assert "غبي" not in page.content()  # the word as typed stays with the staff
    finally:
        rules.forget_words()
        ctx.close()
