"""Two players in separate browser contexts, in Arabic at phone size: they befriend each other
from their pages, one invites the other from the table, the other sees the invitation arrive
live on the friends page, accepts and is seated, the match starts; a third context watches from
the friends list; then a block. axe-core on the friends page."""

from __future__ import annotations

import pytest

from games import services as game_services
from tests.social.test_services import befriend
from tests.standing.test_browser_standing import no_serious_violation
from tests.support.shots import screenshot
from tests.tables.test_browser_tables import majlis, open_as, player, sit, wait_live  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_befriend_invite_accept_watch_and_block(live_site, chromium, majlis, django_user_model):  # noqa: F811
    base = live_site
    sara = player(django_user_model, "sara_s", "سارة")
    omar = player(django_user_model, "omar_s", "عمر")
    huda = player(django_user_model, "huda_s", "هدى")
    sara_ctx, sara_page = open_as(chromium, base, sara, bypass_csp=True)
    omar_ctx, omar_page = open_as(chromium, base, omar, bypass_csp=True)
    try:
        # Sara follows Omar from his page; Omar follows back from hers: friends.
        sara_page.goto(f"{base}/accounts/u/{omar.username}/")
        sara_page.get_by_test_id("follow").click()
        sara_page.get_by_test_id("unfollow").wait_for()
        omar_page.goto(f"{base}/accounts/u/{sara.username}/")
        omar_page.get_by_test_id("follow").click()
        omar_page.get_by_test_id("friends-tag").wait_for()

        # Omar waits on his friends page (its lobby socket open).
        omar_page.goto(f"{base}/friends/")
        assert omar_page.locator(f'[data-friend="{sara.username}"]').is_visible()
        no_serious_violation(omar_page)

        # Sara makes a table, sits, and invites Omar from it.
        table = game_services.table_create(
            user=sara, game="jakaro", options={"players": 2}, majlis=majlis
        )
        sara_page.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(sara_page)
        sit(sara_page, 0)
        sara_page.get_by_test_id("invite-friends").locator("summary").click()
        sara_page.get_by_test_id(f"invite-{omar.username}").click()
        wait_live(sara_page)

        # Omar is told at once, and the invitation is in his list: he accepts and is seated.
        notice = omar_page.get_by_test_id("notice")
        notice.wait_for()
        assert "سارة" in notice.inner_text()
        screenshot(omar_page, "friends-invited-ar.png", full_page=True)
        omar_page.locator("[data-testid^=accept-]").click()
        omar_page.wait_for_url(f"**/majlis/t/{table.public_id}/**")
        omar_page.wait_for_selector("#table-live[data-you-seat='1']")
        for page in (sara_page, omar_page):
            page.wait_for_selector("#table-live[data-status='playing']")
        # Sara hears Omar accepted (on her table page).
        sara_page.wait_for_function("document.getElementById('table-notice').textContent")
        assert "عمر" in sara_page.get_by_test_id("table-notice").inner_text()

        # Huda, Sara's friend, watches from her friends list.
        befriend(huda, sara)
        huda_ctx, huda_page = open_as(chromium, base, huda)
        try:
            huda_page.goto(f"{base}/friends/")
            huda_page.get_by_test_id(f"join-{sara.username}").click()
            huda_page.wait_for_url(f"**/majlis/t/{table.public_id}/")
            wait_live(huda_page)
            assert huda_page.locator("#table-live").get_attribute("data-you-seat") in (None, "")
        finally:
            huda_ctx.close()

        # Omar blocks Sara: no longer friends, and she cannot follow him again.
        omar_page.goto(f"{base}/accounts/u/{sara.username}/")
        omar_page.get_by_test_id("block").click()
        omar_page.get_by_test_id("unblock").wait_for()
        sara_page.goto(f"{base}/accounts/u/{omar.username}/")
        assert sara_page.get_by_test_id("friends-tag").count() == 0
        sara_page.get_by_test_id("follow").click()
        assert sara_page.locator(".messages .error").count() == 1
    finally:
        sara_ctx.close()
        omar_ctx.close()
