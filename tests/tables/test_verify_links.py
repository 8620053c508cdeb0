"""Every Verify link a player taps after a match reaches that match's Verify page: the
table page's fair-shuffle links (Hand and Jakaro), the Jakaro end screen's link and
the wallet history's match links, followed in headless Chromium against a real Daphne. The old
form of the link, /verify/<id>/, moves permanently to /verify/m/<id>/ (it may be shared)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Match
from tests.tables.helpers import make_table, play_out, seat_humans
from tests.tables.test_browser_tables import majlis, open_as  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)

# Every link on a page that names one match's Verify page (the nav's /verify/ is the log).
VERIFY_LINKS = """els => els.map(a => a.getAttribute('href'))
                      .filter(h => /^\\/verify\\/.+/.test(h))"""


def finished_match(owner, humans: list, game: str, options: dict, stake: int = 0) -> Match:
    """A match played to its end through games/services/: ``humans`` sit (their turns run out
    and the server's time-out plays for them), bots take the other seats of a free table."""
    table = make_table(owner, game, options, stake=stake)
    seat_humans(table, humans)
    for number in range(len(humans), table.seats.count()):
        services.seat_add_bot(user=owner, table_id=table.public_id, number=number)
    match = Match.objects.get(table=table, number=1)
    return play_out(match)


def test_the_old_link_form_moves_permanently_to_the_match_page(client, fast_clocks, creator, users):
    match = finished_match(creator, users[:1], "jakaro", {"players": 2})
    new = reverse("verify:match", args=[match.public_id])
    assert new == f"/verify/m/{match.public_id}/"
    old = client.get(f"/verify/{match.public_id}/?from=wallet")
    assert old.status_code == 301
    assert old["Location"] == f"{new}?from=wallet"
    page = client.get(old["Location"])
    assert page.status_code == 200
    assert f'data-match="{match.public_id}"' in page.content.decode()
    # The pages of their own under /verify/ are not taken for a match id.
    for name in ("log", "paste", "script"):
        assert client.get(reverse(f"verify:{name}")).status_code == 200


def follow_each(page, base: str, hrefs: list[str], match: Match) -> None:
    for href in hrefs:
        response = page.goto(base + href)
        assert response is not None and response.status == 200, href
        assert page.url == f"{base}/verify/m/{match.public_id}/", href
        assert page.locator("#verify").get_attribute("data-match") == match.public_id


@pytest.mark.browser
def test_every_verify_link_after_a_match_opens_that_matchs_page(
    live_site,
    chromium,
    majlis,  # noqa: F811
    fast_clocks,
    creator,
    users,
):
    base = live_site
    player = users[0]
    hand = finished_match(creator, [player], "hand", {"players": 2, "rounds": 1})
    jakaro = finished_match(creator, [player], "jakaro", {"players": 2})
    coins = finished_match(creator, users[1:3], "jakaro", {"players": 2}, 10)
    ctx, page = open_as(chromium, base, player)
    ctx_c, page_c = open_as(chromium, base, users[1])
    try:
        # The table pages between matches: the match just played, its secret and its links.
        for match in (hand, jakaro):
            page.goto(f"{base}/majlis/t/{match.table.public_id}/")
            page.wait_for_selector("#table-conn.on")
            page.get_by_test_id("secret").first.wait_for(state="attached")
            hrefs = page.locator("#table-live a").evaluate_all(VERIFY_LINKS)
            expected = 2 if match is jakaro else 1  # Jakaro's end screen links it as well
            assert len(hrefs) == expected, hrefs
            if match is jakaro:
                end = page.get_by_test_id("jakaro-verify-link")
                assert end.count() == 1 and end.get_attribute("href") in hrefs
            follow_each(page, base, hrefs, match)

        # The wallet: the stake and the payout (or the stake alone) each link the coin match.
        page_c.goto(f"{base}/wallet/")
        hrefs = page_c.get_by_test_id("history").locator("a").evaluate_all(VERIFY_LINKS)
        assert hrefs and len(hrefs) == page_c.get_by_test_id("verify-link").count()
        follow_each(page_c, base, hrefs, coins)
    finally:
        ctx.close()
        ctx_c.close()
