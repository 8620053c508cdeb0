"""The browser tests' Chromium (tests/conftest.py launch_chromium) leaves out the address bar's
popup, a WebUI page that the new headless mode builds for every window (a third of the browser
tests' renderer CPU), and keeps the features Playwright itself turns off."""

from __future__ import annotations

import time

import pytest

from tests.conftest import CHROMIUM, UNUSED_FEATURES, disabled_features

pytestmark = [pytest.mark.browser]

PAGE = "data:text/html,<p>hello</p>"


def popups(browser) -> list[str]:
    """The address bar popups (chrome://omnibox-popup...) the browser has built."""
    session = browser.new_browser_cdp_session()
    try:
        targets = session.send("Target.getTargets")["targetInfos"]
    finally:
        session.detach()
    return [t["url"] for t in targets if t["url"].startswith("chrome://omnibox-popup")]


def test_playwrights_disabled_features_are_kept_and_ours_added():
    features = disabled_features()
    # Chromium keeps only the last --disable-features: Playwright's list must be in ours.
    assert {"PaintHolding", "OptimizationHints", "MediaRouter"} <= set(features)
    assert set(UNUSED_FEATURES) <= set(features)
    assert len(features) == len(set(features))


def test_no_window_of_the_tests_chromium_builds_the_address_bar_popup(chromium):
    ours = chromium.new_context()
    try:
        ours.new_page().goto(PAGE)
        # The same window in a Chromium launched with Playwright's flags only: it builds the
        # popup (so the check below can fail), and ours, opened before it, had as long.
        plain = chromium.browser_type.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            plain.new_context().new_page().goto(PAGE)
            deadline = time.monotonic() + 20
            while not popups(plain) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert popups(plain), "a plain Chromium built no popup: the check means nothing"
        finally:
            plain.close()
        assert popups(chromium) == []
    finally:
        ours.close()
