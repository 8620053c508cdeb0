"""The majlis in headless Chromium at phone size, in Arabic:
the create form shows only the chosen game's options and seats its creator at once on the
seat chosen, with a seed made by the creator's browser; the list filters by game; quick play
sits a player at the first open seat that fits, or offers the create form filled in; a private
table's invite link is copied and shared. Real Daphne and Celery (``live_site``)."""

from __future__ import annotations

import pytest

from games.models import Match, Table
from tests.support.shots import screenshot
from tests.tables.helpers import make_table
from tests.tables.test_browser_tables import (  # the table tests' page helpers
    POLL_MS,
    kept_seeds,
    majlis,  # noqa: F401  (a fixture)
    open_as,
    player,
    wait_live,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown(page, selector: str) -> bool:
    return page.locator(selector).evaluate("el => !el.closest('[hidden]') && !el.disabled")


def test_the_create_form_follows_the_game_and_seats_its_creator_at_once(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ctx, page = open_as(chromium, base, sara)
    try:
        page.goto(base + "/majlis/")
        page.get_by_test_id("start-table").click()
        form = page.get_by_test_id("create-form")
        # Hand: its variant, its table and three players are offered.
        assert shown(page, "#id_variant") and shown(page, "#id_table")
        assert shown(page, "#id_players option[value='3']")
        form.locator("[name=players]").select_option("3")
        # Jakaro: no Hand option, no "three players"; the count falls back to one that fits.
        form.locator("[name=game]").select_option("jakaro")
        for hand_only in ("#id_variant", "#id_table", "#id_partners"):
            assert not shown(page, hand_only), hand_only
        assert not shown(page, "#id_players option[value='3']")
        assert form.locator("[name=players]").input_value() == "2"
        # Two players: seats 3 and 4 are not offered; four: they are.
        assert not shown(page, "#id_seat option[value='2']")
        form.locator("[name=players]").select_option("4")
        assert shown(page, "#id_seat option[value='3']")
        screenshot(page, "create-form-jakaro-ar.png", full_page=True)
        # Back to Hand with four: its options and the partners box come back.
        form.locator("[name=game]").select_option("hand")
        assert shown(page, "#id_variant") and shown(page, "#id_partners")
        form.locator("[name=game]").select_option("jakaro")

        form.locator("[name=seat]").select_option("2")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/majlis/t/**")
        # Seated on seat 3 with no tap: the page sent its own seed for the commitment shown.
        page.wait_for_selector("#table-live[data-you-seat='2']")
        assert "sit=" not in page.url  # a reload never sits again
        table = Table.objects.get(public_id=page.locator("#table").get_attribute("data-table"))
        assert table.game == "jakaro" and table.options == {"players": 4}
        match = Match.objects.get(table=table)
        seed = match.seeds.get(seat=2)
        assert seed.user == sara
        kept = kept_seeds(page)[-1]
        assert (kept["seat"], kept["seed"], kept["commitment"]) == (
            2,
            seed.seed,
            match.commitment,
        )
        assert table.seats.get(number=2).user == sara
        screenshot(page, "create-seated-ar.png", full_page=True)
    finally:
        ctx.close()


def test_the_lobby_filters_by_game_and_quick_play_sits_at_the_first_fitting_seat(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    host = player(django_user_model, "host", "المضيف")
    ali = player(django_user_model, "ali", "علي")
    hand = make_table(host, "hand", {"players": 2})
    make_table(host, "jakaro", {"players": 4})
    two = make_table(host, "jakaro", {"players": 2})
    ctx, page = open_as(chromium, base, ali)
    try:
        page.goto(base + "/majlis/")
        tables = page.get_by_test_id("tables")
        assert tables.locator(f"[data-table='{hand.public_id}']").count() == 1
        page.get_by_test_id("filter-jakaro").click()
        page.wait_for_url("**/majlis/?game=jakaro")
        assert tables.locator("[data-table]").count() == 2
        assert tables.locator(f"[data-table='{hand.public_id}']").count() == 0
        screenshot(page, "majlis-filter-ar.png", full_page=True)

        # Quick play, Jakaro for two: the one such table, its first seat, with Ali's seed.
        quick = page.get_by_test_id("quick-form")
        assert quick.locator("[name=game]").input_value() == "jakaro"  # the filter's game
        assert not shown(page, "#quick_mode option[value='3']")  # Jakaro has no game for three
        quick.locator("[name=mode]").select_option("2")
        page.get_by_test_id("quick-play").click()
        page.wait_for_url(f"**/majlis/t/{two.public_id}/")
        page.wait_for_selector("#table-live[data-you-seat='0']")
        match = Match.objects.get(table=two)
        assert match.seeds.get(seat=0).seed == kept_seeds(page)[-1]["seed"]

        # Hand for three: no such table, so the create form opens, filled in.
        page.goto(base + "/majlis/")
        quick.locator("[name=game]").select_option("hand")
        quick.locator("[name=mode]").select_option("3")
        page.get_by_test_id("quick-play").click()
        page.get_by_test_id("no-seat").wait_for()
        assert page.get_by_test_id("create").evaluate("d => d.open")
        create = page.get_by_test_id("create-form")
        assert create.locator("[name=game]").input_value() == "hand"
        assert create.locator("[name=players]").input_value() == "3"
        screenshot(page, "majlis-quick-none-ar.png", full_page=True)
    finally:
        ctx.close()


def test_the_invite_link_is_copied_and_shared(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    host = player(django_user_model, "host", "المضيف")
    table = make_table(host, "hand", {"players": 2}, private=True)
    url = f"{base}/majlis/t/{table.public_id}/?invite={table.invite_token}"
    ctx, page = open_as(chromium, base, host, permissions=["clipboard-read", "clipboard-write"])
    try:
        # A browser with no share sheet (the desktop's): Share copies, as Copy does.
        page.add_init_script("Object.defineProperty(navigator, 'share', {value: undefined})")
        page.goto(url)
        wait_live(page)
        link = page.get_by_test_id("invite-link").input_value()
        assert link == url
        page.get_by_test_id("invite-copy").click()
        page.get_by_test_id("invite-status").get_by_text("نُسخ الرابط").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == link
        page.evaluate("navigator.clipboard.writeText('')")
        page.get_by_test_id("invite-share").click()
        page.wait_for_function(
            "async () => (await navigator.clipboard.readText()) !== ''", polling=POLL_MS
        )
        assert page.evaluate("navigator.clipboard.readText()") == link
        screenshot(page, "invite-copied-ar.png", full_page=True)
    finally:
        ctx.close()

    ctx, page = open_as(chromium, base, host)
    try:
        # A phone's share sheet: navigator.share gets the link.
        page.add_init_script(
            """Object.defineProperty(navigator, 'share', {value: async (data) => {
                 window.sharedWith = data; }})"""
        )
        page.goto(url)
        wait_live(page)
        page.get_by_test_id("invite-share").click()
        page.get_by_test_id("invite-status").get_by_text("تمت مشاركة الرابط").wait_for()
        shared = page.evaluate("window.sharedWith")
        assert shared["url"] == url and "سهرات" in shared["text"]
    finally:
        ctx.close()


def test_a_seat_taken_before_the_page_opens_is_said_and_nothing_else_is_taken(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    """Quick play's seat went to someone else between the lookup and the page: the page says so
    in words and sits the player nowhere (the other free seat stays free for them to choose)."""
    from games import services
    from tests.tables.helpers import seed_for

    base = live_site
    host = player(django_user_model, "host", "المضيف")
    ali = player(django_user_model, "ali", "علي")
    table = make_table(host, "hand", {"players": 3})
    match = Match.objects.get(table=table)
    services.seat_take(
        user=host,
        table_id=table.public_id,
        number=0,
        seed=seed_for(1),
        commitment=match.commitment,
        match_id=match.public_id,
    )
    ctx, page = open_as(chromium, base, ali)
    try:
        page.goto(f"{base}/majlis/t/{table.public_id}/?sit=0")
        wait_live(page)
        page.get_by_test_id("table-error").get_by_text("لم يعد شاغرًا").wait_for()
        assert page.locator("#table-live[data-you-seat]").count() == 0
        assert "sit=" not in page.url
        assert not table.seats.filter(user=ali).exists()
        assert page.get_by_test_id("sit-1").is_visible()
    finally:
        ctx.close()
