"""A newcomer in headless Chromium: home page, sign-up, log-out, log-in, language switch."""

from __future__ import annotations

import pytest

from tests.conftest import ARTIFACTS
from tests.support.shots import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_newcomer_signs_up_logs_in_and_switches_language(daphne_server, browser_page):
    page = browser_page
    page.goto(daphne_server + "/")
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.locator("html").get_attribute("lang") == "ar"
    # htmx came from our own static files and ran (no CDN, no inline script).
    assert page.evaluate("typeof window.htmx") == "object"
    screenshot(page, "home-ar.png", full_page=True)

    page.get_by_role("link", name="حساب جديد").click()
    page.fill("#id_username", "newcomer")
    page.fill("#id_display_name", "ضيف جديد")
    page.fill("#id_password1", "a-Long-enough-pass-42")
    page.fill("#id_password2", "a-Long-enough-pass-42")
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url("**/majlis/")
    assert page.get_by_test_id("profile-link").inner_text() == "ضيف جديد"

    page.get_by_role("button", name="تسجيل الخروج").click()
    page.wait_for_url(daphne_server + "/")
    page.get_by_role("link", name="دخول", exact=True).click()
    page.fill("#id_username", "newcomer")
    page.fill("#id_password", "wrong-password")
    page.get_by_test_id("login-submit").click()
    assert page.locator(".errors").count() == 1
    page.fill("#id_password", "a-Long-enough-pass-42")
    page.get_by_test_id("login-submit").click()
    page.wait_for_url("**/majlis/")

    page.get_by_test_id("lang-en").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("dir") == "ltr"
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", level=1).inner_text().startswith("The majlis")
    page.goto(daphne_server + "/")
    page.screenshot(path=str(ARTIFACTS / "home-en.png"), full_page=True)
    assert (ARTIFACTS / "home-en.png").stat().st_size > 5_000
