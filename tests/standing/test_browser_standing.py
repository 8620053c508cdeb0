"""The standing in headless Chromium at phone size, in Arabic and English: a player's page
(reputation, a rating with its chart, the history) with its Verify link followed, and a
leaderboard with the player's own rank; axe-core finds no serious or critical violation, and
nothing is wider than the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from games.models import Match
from standing.models import Rating
from tests.standing.test_rebuild import bots_play_to_the_end
from tests.support.pages import pool_for
from tests.support.shots import screenshot
from tests.tables.helpers import make_table, seat_humans

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}


def signed_in(chromium, base: str, user, lang: str):
    user.language = lang
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    context, page = pool_for(chromium).open_page(
        base, viewport=PHONE, locale=lang, bypass_csp=True, reduced_motion="reduce"
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context, page


def no_serious_violation(page) -> None:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    assert isinstance(found, list)
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, bad


def fits_the_screen(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_players_page_history_verify_link_and_leaderboard(
    daphne_server, chromium, django_user_model, lang
):
    base = daphne_server
    sara = django_user_model.objects.create_user(f"sara_{lang}", display_name="سارة")
    omar = django_user_model.objects.create_user(f"omar_{lang}", display_name="عمر")
    played = []
    for _ in range(3):
        table = make_table(sara, "jakaro", {"players": 2})
        seat_humans(table, [sara, omar])
        played.append(bots_play_to_the_end(Match.objects.get(table=table, number=1)))
    context, page = signed_in(chromium, base, sara, lang)
    try:
        page.goto(f"{base}/accounts/u/{sara.username}/")
        assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
        rep = page.get_by_test_id("reputation")
        assert ("١٠٠٪" if lang == "ar" else "100%") in rep.inner_text()
        assert page.get_by_test_id("chart-jakaro-2").is_visible()
        rows = page.locator(".history-row")
        assert rows.count() == 3
        assert page.get_by_test_id("rating-change").count() == 3
        fits_the_screen(page)
        screenshot(page, f"standing-player-{lang}.png", full_page=True)
        no_serious_violation(page)
        # The newest match's Verify link leads to its Verify page.
        newest = played[-1]
        rows.first.get_by_test_id("verify-link").click()
        page.wait_for_url(f"**/verify/m/{newest.public_id}/")
        assert newest.commitment in page.content()

        # The leaderboard: Sara is not settled enough for the rating board (3 matches); with
        # twenty more rated she is on it, her own row marked.
        Rating.objects.filter(user=sara).update(rated=25, sigma=3.0)
        page.goto(f"{base}/leaders/jakaro-2/")
        board = page.get_by_test_id("board-rating")
        assert board.locator("tr.you").count() == 1
        assert page.get_by_test_id("your-rank").first.is_visible()
        fits_the_screen(page)
        screenshot(page, f"standing-leaders-{lang}.png", full_page=True)
        no_serious_violation(page)
    finally:
        context.close()
