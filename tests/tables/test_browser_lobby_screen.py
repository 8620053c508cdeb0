"""The lobby with many tables stays about one screen (issue 57, item 14: 16 waiting tables made
it 4,357 px tall), with the quickest way to a game on top: in Chromium, in Arabic, at 390×844
and 360×740, with 18 tables (waiting with a person, with only bots, playing), the page is
measured; quick play is in the top half, the tables where a person waits come first, and every
game's tables are a tap away."""

from __future__ import annotations

import pytest

from games import services
from games.models import Table
from tests.support.shots import screenshot
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_browser_tables import (  # the table tests' page helpers
    majlis,  # noqa: F401  (a fixture)
    open_as,
    player,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# "About one screen": the page may run on past the screen by a fifth of it at most.
AT_MOST = 1.2
WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")


def _many_tables(django_user_model) -> tuple[list, list]:
    """18 public tables: 5 waiting with a person, 9 with only bots and empty seats, 4 playing."""
    people = [player(django_user_model, f"p{i}", f"لاعب {i}") for i in range(9)]
    with_person, bots_only = [], []
    for i in range(5):
        table = make_table(people[i], "hand" if i % 2 else "jakaro", {"players": 4})
        seat_humans(table, [people[i]])
        with_person.append(table)
    for i in range(9):
        table = make_table(people[5], "hand" if i % 2 else "jakaro", {"players": 4})
        services.seat_add_bot(user=people[5], table_id=table.public_id, number=1)
        bots_only.append(table)
    for _ in range(2):
        for game in ("hand", "jakaro"):
            table = make_table(people[6], game, {"players": 2})
            seat_humans(table, [people[7], people[8]])  # the match starts
    return with_person, bots_only


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_the_lobby_with_many_tables_is_about_one_screen_quick_play_on_top(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
    size,
):
    base = live_site
    with_person, _bots_only = _many_tables(django_user_model)
    huda = player(django_user_model, "huda", "هدى")
    width, height = size
    ctx, page = open_as(chromium, base, huda, viewport={"width": width, "height": height})
    try:
        page.goto(base + "/majlis/")
        tall = page.evaluate("() => document.documentElement.scrollHeight")
        screenshot(page, f"majlis-many-ar-{width}.png", full_page=True)
        assert tall <= AT_MOST * height, tall
        # The quickest way to a game, first: quick play's button within the top half.
        quick = page.get_by_test_id("quick-play").bounding_box()
        assert quick["y"] + quick["height"] <= height / 2, quick
        # Quick play's choices stay inside the page's margins: a long choice («طاولة مجانية
        # (بلا عملات، والآليون مرحَّب بهم)») once pushed its select to the screen's edge.
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=quick-form] select')]
                .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"""
        )
        assert boxes and all(left >= 8 and right <= width - 8 for left, right in boxes), boxes
        # The tables where a person waits for company come first, and only the first few.
        rows = page.get_by_test_id("tables").locator("[data-table]")
        shown = {rows.nth(i).get_attribute("data-table") for i in range(rows.count())}
        assert 0 < len(shown) < 18 and shown <= {t.public_id for t in with_person}, shown
        # Every game's tables are one tap away, its filter saying how many.
        hand = Table.objects.filter(game="hand").count()
        chip = page.get_by_test_id("filter-hand")
        assert f"({hand})" in chip.inner_text().translate(WESTERN)
        chip.click()
        page.wait_for_url("**/majlis/?game=hand")
        assert page.get_by_test_id("tables").locator("[data-table]").count() == hand
    finally:
        ctx.close()
