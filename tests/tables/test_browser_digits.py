"""Issue 57 item 15, the numbers the table page's scripts write: in Arabic they take the page's
digit style (static/js/table_kit.js ``Sahrat.num``) as the server's words do. Sara plays on a
phone in Arabic, Ali on a desktop in English (tests/tables/test_jakaro_board_browser.py's
``pair``)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games.services import chat_post
from tests.support.shots import screenshot
from tests.tables.test_browser_tables import open_sheet
from tests.tables.test_jakaro_board_browser import (  # noqa: F401 (fixtures)
    card,
    majlis,
    marble,
    pair,
    scripted,
    square,
    tap,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(360, 740), (390, 844)])
def test_the_sevens_steps_left_and_the_unread_count_in_arabic_digits(pair, size):  # noqa: F811
    table_id, a, b = pair
    a.set_viewport_size({"width": size[0], "height": size[1]})
    scripted(
        table_id,
        (a, b),
        {
            "marbles": {0: [5, 30, "base", "base"], 1: [50, "base", "base", "base"]},
            "hands": {0: ["7D", "3C"], 1: ["3D", "4D"]},
        },
    )
    card(a, "7D").click()
    tap(marble(a, 0))
    tap(square(a, 8))  # three steps for the first marble: four left for the second
    hint = a.get_by_test_id("jk-hint").inner_text()
    assert "٤" in hint and not re.search(r"[0-9]", hint), hint
    screenshot(a, f"digits-seven-hint-ar-{size[0]}.png")

    # Ali's chat line, counted on Sara's closed chat sheet's dock button.
    ali = get_user_model().objects.get(username="ali")
    chat_post(user=ali, table_id=table_id, text="hello")
    a.get_by_test_id("chat-toast").get_by_text("hello").wait_for()
    unread = a.get_by_test_id("chat-unread")
    assert unread.inner_text() == "١"
    assert unread.get_attribute("aria-label").startswith("١ ")
    # And Ali, in English, reads Western digits on his closed sheet (his own line and Sara's).
    open_sheet(a, "sheet-chat")
    sara = get_user_model().objects.get(username="sara")
    chat_post(user=sara, table_id=table_id, text="مرحبا")
    b.get_by_test_id("chat-toast").get_by_text("مرحبا").wait_for()
    assert re.fullmatch("[0-9]+", b.get_by_test_id("chat-unread").inner_text())
