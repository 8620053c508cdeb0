"""The site's header takes one line on a phone (390 and 360 px wide), in Arabic and in English,
signed in or not: every item sits on one row, the header is no taller than its tallest item and
its padding, nothing is pushed out of sight, and the page never scrolls sideways. Screenshots in
test-artifacts/."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.support.shots import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MEASURE = """() => {
  const header = document.querySelector("header.topbar");
  const items = [...header.querySelectorAll(".brand, .nav > *, .lang-switch button")]
    .filter((el) => el.getClientRects().length)
    .map((el) => el.getBoundingClientRect());
  const nav = header.querySelector(".nav");
  const pad = parseFloat(getComputedStyle(header).paddingTop)
    + parseFloat(getComputedStyle(header).paddingBottom);
  return {
    height: header.getBoundingClientRect().height,
    tallest: Math.max(...items.map((r) => r.height)),
    pad,
    lowestTop: Math.max(...items.map((r) => r.top)),
    highestBottom: Math.min(...items.map((r) => r.bottom)),
    items: items.length,
    hiddenInNav: nav.scrollWidth - nav.clientWidth,
    pageWidth: document.documentElement.scrollWidth,
    offRight: Math.max(...items.map((r) => r.right)),
    offLeft: Math.min(...items.map((r) => r.left)),
  };
}"""


@pytest.mark.parametrize("width", [390, 360])
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_header_is_one_line_on_a_phone(daphne_server, chromium, lang, width):
    # A long display name, the widest a player is likely to choose.
    user = User(username="header", display_name="عبدالرحمن بن سليمان", language=lang)
    user.set_password("x-Long-pass-123")
    user.save()
    client = Client()
    client.force_login(user)
    for signed_in in (False, True):
        context = chromium.new_context(viewport={"width": width, "height": 844}, locale=lang)
        cookies = [{"name": "sahrat_language", "value": lang, "url": daphne_server}]
        if signed_in:
            session = client.cookies["sessionid"].value
            cookies.append({"name": "sessionid", "value": session, "url": daphne_server})
        context.add_cookies(cookies)
        page = context.new_page()
        page.goto(daphne_server + "/majlis/")
        assert page.locator("html").get_attribute("lang") == lang
        m = page.evaluate(MEASURE)
        who = "in" if signed_in else "out"
        screenshot(
            page,
            f"header-{lang}-{who}-{width}.png",
            clip={"x": 0, "y": 0, "width": width, "height": 120},
        )
        where = f"{lang}, signed {who}: {m}"
        assert m["items"] >= (7 if signed_in else 5), where
        assert m["lowestTop"] < m["highestBottom"], where  # every item on one row
        assert m["height"] <= m["tallest"] + m["pad"] + 1, where
        assert m["hiddenInNav"] <= 1, where  # nothing scrolled out of sight
        assert m["pageWidth"] <= width and 0 <= m["offLeft"] and m["offRight"] <= width, where
        if signed_in:  # the profile's and log-out's words are there for screen readers
            assert page.get_by_test_id("profile-link").inner_text() == user.display_name
            logout = "تسجيل الخروج" if lang == "ar" else "Log out"
            assert page.get_by_role("button", name=logout).is_visible()
        context.close()
