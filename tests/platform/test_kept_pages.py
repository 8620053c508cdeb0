"""The browser pages kept between tests (tests/support/pages.py) start each test as a fresh
context would, and a page a test changed for good is never handed to another."""

from __future__ import annotations

import pytest

from tests.support.pages import pool_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_kept_page_comes_back_blank_without_cookies_storage_or_its_viewport(
    daphne_server, chromium
):
    pool = pool_for(chromium)
    options = {"viewport": PHONE, "locale": "ar", "reduced_motion": "reduce"}
    context, page = pool.open_page(daphne_server, **options)
    heard: list[str] = []
    page.on("console", lambda message: heard.append(message.text))
    context.add_cookies([{"name": "sessionid", "value": "someone", "url": daphne_server}])
    page.goto(daphne_server + "/")
    page.evaluate("() => localStorage.setItem('kept-test', 'left behind')")
    page.evaluate("() => console.log('first test')")
    page.set_viewport_size({"width": 1280, "height": 900})
    context.close()  # given back

    again, same = pool.open_page(daphne_server, **options)
    try:
        assert same is page and again is context  # the same page, not a new one
        assert same.url == "about:blank"
        assert again.cookies() == []
        assert same.viewport_size == PHONE
        same.goto(daphne_server + "/")
        assert same.evaluate("() => localStorage.getItem('kept-test')") is None
        assert same.evaluate("() => localStorage.length") == 0
        same.evaluate("() => console.log('next test')")  # the first test's listener is gone
        same.wait_for_timeout(200)
        assert heard == ["first test"]
    finally:
        again.close()


@pytest.mark.parametrize(
    "spoil",
    [
        lambda context, page: context.on("console", lambda message: None),
        lambda context, page: page.add_init_script("window.x = 1"),
        lambda context, page: page.clock.install(),
        lambda context, page: page.route("**/nothing", lambda route: route.abort()),
        lambda context, page: page.emulate_media(reduced_motion="no-preference"),
        lambda context, page: context.new_page(),
        lambda context, page: context.add_init_script("window.x = 1"),
    ],
    ids=[
        "context-listener",
        "init-script",
        "clock",
        "route",
        "media",
        "second-page",
        "context-script",
    ],
)
def test_a_page_a_test_changed_for_good_is_closed_not_kept(daphne_server, chromium, spoil):
    pool = pool_for(chromium)
    options = {"viewport": PHONE, "locale": "en", "reduced_motion": "reduce"}
    context, page = pool.open_page(daphne_server, **options)
    spoil(context, page)
    context.close()
    assert page.is_closed()
    again, other = pool.open_page(daphne_server, **options)
    try:
        assert other is not page and not other.is_closed()
    finally:
        again.close()
