"""A table page whose socket closes comes back by itself, in headless
Chromium against a real Daphne and Celery worker.

The htmx ws extension retried only after 1006, 1011, 1012 and 1013; after a clean close (1000),
a "going away" (1001) or the protocol's own 4409 and 4429 the page said «جارٍ إعادة الاتصال…»
for ever. Each close here is made on purpose: by the server (a ``socket.close`` message on the
table's channel-layer group, which only server-side code can send; or a real flood of frames
past the rate limit; or real sockets of the same account past the limit), or, for the codes
Daphne's autobahn never sends by choice (1001, 1011, 1012, 1013: a proxy, a restart, a crash),
by a proxy in front of the page's socket (Playwright's route_web_socket). Each time the page
shows the banner with its own dot away, then comes back live on its own with the table as it is
now (a change it was never told of: the state comes with the new socket)."""

from __future__ import annotations

import threading
from contextlib import ExitStack

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connections
from django.test import Client
from websockets.sync.client import connect

from games.models import Match
from tests.support.shots import screenshot
from tests.tables.conftest import LIVE_CLOCKS
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_browser_tables import POLL_MS, open_as, player, wait_live
from tests.tables.test_hand_table import RICH, goto, majlis, rig, start  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Test-side watch over the page: every close code it saw, and the first moment the banner
# showed (what it said, and the player's own presence dot then).
WATCH = """() => {
  window.__codes = [];
  window.__down = [];
  document.addEventListener('htmx:wsClose', e => window.__codes.push(e.detail.event.code));
  const banner = document.getElementById('table-down');
  new MutationObserver(() => {
    if (banner.hidden) return;
    const own = document.querySelector(
      '#table-live .you .dot, #table-live .jk-quarter.you .jk-dot');
    window.__down.push({own: own ? own.getAttribute('class') : null,
                        text: banner.innerText.trim()});
  }).observe(banner, {attributes: true, childList: true, subtree: true, characterData: true});
}"""


def server_close(table, code: int) -> None:
    """Every socket of the table closed by the server with ``code`` (from a thread without
    Playwright's event loop, where async_to_sync may run)."""

    def send() -> None:
        try:
            async_to_sync(get_channel_layer().group_send)(
                table.group, {"type": "socket.close", "code": code}
            )
        finally:
            connections.close_all()

    worker = threading.Thread(target=send)
    worker.start()
    worker.join()


def banner_seen(page) -> dict:
    page.wait_for_function("() => window.__down.length > 0", polling=POLL_MS)
    return page.evaluate("window.__down[0]")


def back_live(page, seq: int) -> None:
    page.wait_for_selector(f"#table-live[data-seq='{seq}']")
    page.wait_for_selector("#table-conn.on")
    page.wait_for_selector("#table-down", state="hidden")


# The page counts the closes it has handled (an init script: it runs before the page's own).
COUNT_CLOSES = (
    "window.__closes = 0;"
    "document.addEventListener('htmx:wsClose', () => { window.__closes += 1; });"
)
# Longer than any wait of the page's before its next try while these tests run it (docs above
# static/js/table.js's backoff: the floors, then the first tries' exponential back-off).
NEXT_TRY_MS = 8_000


def hurried(page) -> None:
    """The page's timers on Playwright's clock (installed before it loads), so a test passes a
    back-off at once (``next_try``) instead of waiting it out; time still flows meanwhile."""
    page.clock.install()
    page.add_init_script(COUNT_CLOSES)


def next_try(page) -> None:
    """Pass the page's wait before its next try, and wait for that try: refused (one more
    close handled) or accepted (the page is live)."""
    seen = page.evaluate("window.__closes")
    page.clock.fast_forward(NEXT_TRY_MS)
    page.wait_for_function(
        "n => window.__closes > n || document.querySelector('#table-conn.on')",
        arg=seen,
        polling=POLL_MS,
    )


def until_live(page, tries: int = 10) -> None:
    """``next_try`` until the page is live again: a try may still be refused for a moment (the
    server counting a closed socket yet, a proxy letting sockets through again)."""
    for _ in range(tries):
        if page.locator("#table-conn.on").count():
            return
        next_try(page)


CASES = [
    ("server", 1000),
    ("server", 4409),
    ("server", 4429),
    ("server", 4503),
    ("flood", 4429),
    ("proxy", 1001),
    ("proxy", 1011),
    ("proxy", 1012),
    ("proxy", 1013),
]


@pytest.mark.parametrize(("how", "code"), CASES, ids=[f"{h}-{c}" for h, c in CASES])
def test_the_page_shows_the_outage_and_comes_back_by_itself(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
    how,
    code,
):
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ali = player(django_user_model, "ali", "Ali", lang="en")
    match = start([sara, ali], RICH["options"])
    context, page = open_as(chromium, base, sara, lang="ar")
    hurried(page)
    routes: list = []
    if how == "proxy":

        def proxy(ws) -> None:
            routes.append((ws, ws.connect_to_server()))

        page.route_web_socket("**/ws/table/**", proxy)
    try:
        goto(page, base, match)
        page.evaluate(WATCH)
        # The table moves on without telling the page; then its socket closes.
        seq = rig(match, RICH, told=False)
        if how == "server":
            server_close(match.table, code)
        elif how == "flood":  # past the burst of the rate limit (LIVE_CLOCKS: 100)
            page.evaluate(
                """() => { for (let i = 0; i < 300; i++) document.dispatchEvent(
                     new CustomEvent('sahrat:send', {detail: {type: 'ping', seq: i}})); }"""
            )
        else:
            page_side, server_side = routes[-1]
            page_side.close(code=code, reason="test")
            server_side.close()
        seen = banner_seen(page)
        assert "انقطع الاتصال" in seen["text"], seen
        assert seen["own"] and "off" in seen["own"].split(), seen  # your own dot: away
        until_live(page)  # past the wait its code asks for (4409, 4429, 4503: seconds)
        back_live(page, seq)
        assert page.evaluate("window.__codes")[0] == code
        # Your own dot comes back on with the state that counts the new socket, which may
        # follow the first state after the reconnection on a loaded machine.
        page.wait_for_selector("#table-live .you .dot.on")
        if how == "proxy":
            assert len(routes) >= 2  # a new socket through the proxy
    finally:
        context.close()


def test_a_refusal_of_who_you_are_is_final_and_offers_a_reload(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    base = live_site
    sara = player(django_user_model, "sara", "Sara", lang="en")
    ali = player(django_user_model, "ali", "Ali", lang="en")
    match = start([sara, ali], RICH["options"])
    context, page = open_as(chromium, base, sara, lang="en")
    hurried(page)
    sockets: list = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        goto(page, base, match)
        page.evaluate(WATCH)
        server_close(match.table, 4403)
        seen = banner_seen(page)
        assert "Reload the page" in seen["text"], seen
        reload = page.get_by_test_id("reload")
        reload.wait_for()
        opened = len(sockets)
        # Past any back-off and the reload offer's time: a retry would have been made by now;
        # its socket would show within the half second after.
        page.clock.fast_forward(30_000)
        page.wait_for_timeout(500)
        assert len(sockets) == opened and page.locator("#table-conn.on").count() == 0
        reload.click()
        wait_live(page)
        assert page.get_by_test_id("table-down").is_hidden()
    finally:
        context.close()


def test_a_long_outage_offers_a_reload_and_the_page_still_comes_back(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    """The account's other sockets fill its limit (10), so each try of the page is refused with
    4409; after several the banner offers a reload. Once the others close, the page is live."""
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ali = player(django_user_model, "ali", "Ali", lang="en")
    match = start([sara, ali], RICH["options"])
    client = Client()
    client.force_login(sara)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    ws_base = base.replace("http://", "ws://")
    # Each socket opened as a context (websockets 14+ deprecates a bare connect()); closing the
    # stack closes them all.
    others = ExitStack()
    sockets = [
        others.enter_context(
            connect(f"{ws_base}/ws/majlis/", additional_headers={"Cookie": cookie, "Origin": base})
        )
        for _ in range(10)
    ]
    context, page = open_as(chromium, base, sara, lang="ar")
    hurried(page)
    try:
        for ws in sockets:
            assert '"hello"' in ws.recv(timeout=30)
        page.goto(f"{base}/majlis/t/{match.table.public_id}/")
        # Its first try refused.
        page.wait_for_function("() => window.__closes > 0", polling=POLL_MS)
        reload = page.get_by_test_id("reload")
        for _ in range(10):  # the offer comes after five tries (OFFER_RELOAD_TRIES)
            if reload.is_visible():
                break
            next_try(page)
        reload.wait_for()
        assert "ما زال الاتصال منقطعًا" in page.get_by_test_id("table-down-text").inner_text()
        assert page.locator("#table-conn.on").count() == 0
        screenshot(page, "table-down-ar.png")
        others.close()
        until_live(page)
        wait_live(page)
        page.wait_for_selector("#table-down", state="hidden")
        assert reload.is_hidden()
    finally:
        others.close()
        context.close()


ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩"


def kept_seconds(page) -> str:
    return page.get_by_test_id("keep-left").inner_text().strip()


def test_a_seated_coin_player_whose_socket_goes_is_told_her_seat_is_kept_and_what_it_costs(
    live_site,
    chromium,
    majlis,  # noqa: F811
    django_user_model,
):
    """The server closes every socket of a coin table in play while the pages cannot get a new
    one for a while (their socket URL refused by a stand-in proxy). Each seated player's down
    banner says her seat is kept, counting the seat-keeping down in her digits, and that past it
    she leaves the match and her stake stays in the pot; a watcher, who has no seat to keep, is
    told nothing of the kind. Once sockets go through again, both are back in their seats."""
    base = live_site
    sara = player(django_user_model, "sara", "سارة")
    ali = player(django_user_model, "ali", "Ali", lang="en")
    mona = player(django_user_model, "mona", "منى")
    table = make_table(sara, "hand", RICH["options"], stake=50)
    seat_humans(table, [sara, ali])
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    blocked = threading.Event()

    def gate(ws) -> None:
        if blocked.is_set():
            ws.close(code=1011, reason="test: no socket yet")
        else:
            ws.connect_to_server()

    pages = {}
    contexts = []
    try:
        for user, lang in ((sara, "ar"), (ali, "en"), (mona, "ar")):
            context, page = open_as(chromium, base, user, lang=lang)
            contexts.append(context)
            hurried(page)
            page.route_web_socket("**/ws/table/**", gate)
            goto(page, base, match)
            page.evaluate(WATCH)
            pages[user.username] = page
        blocked.set()
        server_close(table, 1000)
        for page in pages.values():
            banner_seen(page)

        sara_page, ali_page, mona_page = pages["sara"], pages["ali"], pages["mona"]
        keep = sara_page.get_by_test_id("table-down-keep")
        keep.wait_for()
        said = " ".join(keep.inner_text().split())
        assert "مقعدك محجوز لك" in said, said
        assert "بعدها تغادر هذه المباراة" in said and "يبقى في الجائزة" in said, said
        assert "٥٠" in said, said  # the stake, in her digits
        left = kept_seconds(sara_page)
        assert left and all(c in ARABIC_INDIC for c in left), left
        first = int(left.translate(str.maketrans(ARABIC_INDIC, "0123456789")))
        assert 0 < first <= float(LIVE_CLOCKS["SEAT_KEEP_SECONDS"])  # the live server's
        # It counts down (the next second shown is a smaller number).
        sara_page.clock.fast_forward(1_000)
        sara_page.wait_for_function(
            "s => document.querySelector('[data-testid=keep-left]').textContent.trim() !== s",
            arg=left,
            polling=POLL_MS,
        )
        screenshot(sara_page, "table-down-seat-kept-ar.png")

        ali_keep = ali_page.get_by_test_id("table-down-keep")
        ali_keep.wait_for()
        said = " ".join(ali_keep.inner_text().split())
        assert "Your seat is kept for you:" in said, said
        assert "you leave this match and your stake of 50 coins stays in the pot" in said, said
        assert kept_seconds(ali_page).isdigit()

        # The watcher's banner says the connection is lost, and nothing about a seat.
        assert mona_page.get_by_test_id("table-down").is_visible()
        assert mona_page.get_by_test_id("table-down-keep").is_hidden()

        blocked.clear()
        for page in (sara_page, ali_page):
            until_live(page)  # past the back-off its refused tries have grown to
            page.wait_for_selector("#table-down", state="hidden")
            wait_live(page)
            assert page.get_by_test_id("table-down-keep").is_hidden()
            assert page.locator("#table-live .you").count() >= 1
            assert page.get_by_test_id("you-left").count() == 0
    finally:
        for context in contexts:
            context.close()
