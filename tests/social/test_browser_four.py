"""Four friends in four browser contexts, in Arabic at phone size, and a fifth who watches: Sara
invites the other three from her table while each waits on a different page (the friends list,
their own profile, the Verify page: each hears the invitation live), they accept and are seated,
each plays a turn from the page, the match is played out, all four play again (each one seat on:
the deal moves on), a friend watches with no hand, and one player blocks another from the table's
"Players" sheet, after which her chat lines no longer reach him."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import Match
from tests.social.test_services import befriend
from tests.standing.test_browser_standing import no_serious_violation
from tests.support.shots import screenshot
from tests.tables.helpers import play_out
from tests.tables.test_browser_tables import (  # noqa: F401
    POLL_MS,
    majlis,
    open_as,
    open_sheet,
    play_jakaro_as_the_bot,
    player,
    sit,
    wait_live,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def accept_from_notice(page, table_id: str) -> None:
    """The live notice's link opens the invitations; "Accept" seats the player at the table."""
    notice = page.get_by_test_id("notice")
    notice.wait_for()
    assert "سارة" in notice.inner_text()
    notice.locator("a").click()
    page.wait_for_url("**/friends/**")
    page.locator("[data-testid^=accept-]").first.click()
    page.wait_for_url(f"**/majlis/t/{table_id}/**")


def test_four_friends_invite_play_again_watch_and_block(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    sara = player(django_user_model, "sara_4", "سارة")
    omar = player(django_user_model, "omar_4", "عمر")
    huda = player(django_user_model, "huda_4", "هدى")
    ali = player(django_user_model, "ali_4", "علي")
    noor = player(django_user_model, "noor_4", "نور")
    for friend in (omar, huda, ali, noor):
        befriend(sara, friend)
    # Omar's page runs axe-core on the players sheet (an injected script: bypass the CSP).
    people = {
        u.username: (u, *open_as(chromium, base, u, bypass_csp=u is omar))
        for u in (sara, omar, huda, ali)
    }
    pages = {name: page for name, (_, _, page) in people.items()}
    s, o, h, a = (pages[u.username] for u in (sara, omar, huda, ali))
    try:
        # Each waits on another page: the friends list (the lobby socket), their own profile
        # and the Verify page (the notices-only socket every other page opens).
        o.goto(f"{base}/friends/")
        h.goto(f"{base}/accounts/u/{huda.username}/")
        a.goto(f"{base}/verify/")

        table = game_services.table_create(
            user=sara, game="jakaro", options={"players": 4}, majlis=majlis
        )
        s.goto(f"{base}/majlis/t/{table.public_id}/")
        wait_live(s)
        sit(s, 0)
        for friend in (omar, huda, ali):
            s.get_by_test_id("invite-friends").locator("summary").click()
            s.get_by_test_id(f"invite-{friend.username}").click()
            wait_live(s)

        for page in (o, h, a):
            accept_from_notice(page, table.public_id)
        for page, seat in ((o, 1), (h, 2), (a, 3)):
            page.wait_for_selector(f"#table-live[data-you-seat='{seat}']")
        for page in pages.values():
            page.wait_for_selector("#table-live[data-status='playing']")
        screenshot(s, "four-friends-table-ar.png")

        # Noor, Sara's friend, watches from her friends list: no seat, no hand.
        noor_ctx, n = open_as(chromium, base, noor)
        try:
            n.goto(f"{base}/friends/")
            n.get_by_test_id(f"join-{sara.username}").click()
            n.wait_for_url(f"**/majlis/t/{table.public_id}/")
            wait_live(n)
            assert n.locator("#table-live").get_attribute("data-you-seat") is None
            assert n.locator(".jk-hand").count() == 0
            assert s.locator(".jk-hand").count() == 1  # a player's own page has hers
        finally:
            noor_ctx.close()

        # Each of the four plays a turn from the page (seat 0 starts, then 1, 2, 3).
        match = Match.objects.get(table=table, number=1)
        for page in (s, o, h, a):
            assert play_jakaro_as_the_bot(page, match, turns_at_most=1) == 1
        # The rest is played out by time-outs while the four wait on their friends pages (four
        # table pages would each draw every one of its hundreds of moves), then come back.
        for page in pages.values():
            page.goto(f"{base}/friends/")
        match = play_out(match)
        for page in pages.values():
            page.goto(f"{base}/majlis/t/{table.public_id}/")
            page.get_by_test_id("result").wait_for()
            wait_live(page)  # "ready" goes by the socket: a tap before it opens is refused

        # All four play again, one after the other: the next match starts with every player
        # one seat back (Sara, who started, deals now: seat 3; Omar starts: seat 0).
        for page in (s, o, h, a):
            page.get_by_test_id("ready").click()
            page.get_by_test_id("ready").wait_for(state="detached")
        nxt = Match.objects.get(table=table, number=2)
        for page, seat in ((s, 3), (o, 0), (h, 1), (a, 2)):
            page.wait_for_selector(
                f"#table-live[data-match='{nxt.public_id}'][data-status='playing']"
                f"[data-you-seat='{seat}']"
            )

        # Omar blocks Sara from the table's "Players" sheet.
        sheet = open_sheet(o, "sheet-players")
        sheet.get_by_test_id(f"block-{sara.username}").click()
        sheet.get_by_test_id(f"unblock-{sara.username}").wait_for()
        screenshot(o, "table-players-sheet-ar.png")
        no_serious_violation(o)
        sheet.get_by_test_id("sheet-close").click()
        # Her lines no longer reach him; Huda still reads them.
        game_services.chat_post(user=sara, table_id=table.public_id, text="مرحبا يا جماعة")
        h.wait_for_function(
            "() => document.getElementById('table-chat').textContent.includes('مرحبا يا جماعة')",
            polling=POLL_MS,
        )
        assert "مرحبا يا جماعة" not in o.locator("#table-chat").text_content()
    finally:
        for _, ctx, _ in people.values():
            ctx.close()
