"""Pages: Arabic first (rtl), English second (ltr), the language switch, htmx from static/."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "ar" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

pytestmark = pytest.mark.django_db


def test_home_is_arabic_and_right_to_left_by_default(client):
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="ar" dir="rtl">' in page
    assert "ادخل المجلس" in page
    assert "هاند" in page and "جاكارو" in page


def test_language_switch_to_english_and_back(client):
    response = client.post(reverse("accounts:language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="en" dir="ltr">' in page
    assert "Enter the majlis" in page
    client.post(reverse("accounts:language"), {"language": "ar", "next": "/"})
    assert '<html lang="ar" dir="rtl">' in client.get(reverse("home")).content.decode()


def test_language_switch_refuses_an_unknown_language_and_an_outside_redirect(client):
    bad = client.post(reverse("accounts:language"), {"language": "fr"})
    assert bad.status_code == 400
    assert "sahrat_language" not in bad.cookies
    away = client.post(
        reverse("accounts:language"), {"language": "en", "next": "https://evil.example/"}
    )
    assert away["Location"] == reverse("home")


def test_a_signed_in_players_language_follows_the_profile(client, django_user_model):
    user = django_user_model.objects.create_user(
        "u1", password="x-Long-pass-123", display_name="U", language="ar"
    )
    client.force_login(user)
    client.post(reverse("accounts:language"), {"language": "en"})
    user.refresh_from_db()
    assert user.language == "en"
    fresh = type(client)()  # another device, no cookie: the profile decides
    fresh.force_login(user)
    assert 'dir="ltr"' in fresh.get(reverse("home")).content.decode()


def test_htmx_is_served_from_static_and_no_page_loads_from_outside(client):
    page = client.get(reverse("home")).content.decode()
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', page)
    assert "/static/vendor/htmx/htmx.min.js" in scripts
    assert all(src.startswith("/static/") for src in scripts)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "inline script found"
    assert "https://" not in page.split("<body")[0]
    assert (ROOT / "static" / "vendor" / "htmx" / "htmx.min.js").stat().st_size > 10_000


def test_content_security_policy_forbids_inline_scripts(client):
    csp = client.get(reverse("home"))["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]+)", csp).group(1)
    assert "'self'" in script_src and "'unsafe-inline'" not in script_src


def test_every_arabic_string_is_translated_and_compiled():
    text = PO.read_text(encoding="utf-8")
    entries = re.findall(r'\nmsgid "(.*?)"\n((?:".*"\n)*)msgstr "(.*?)"\n((?:".*"\n)*)', text)
    assert len(entries) > 40
    untranslated = [m[0] + m[1] for m in entries if m[0] + m[1] and not (m[2] + m[3])]
    assert untranslated == []
    assert "#, fuzzy\nmsgid" not in text
    catalog = gettext.GNUTranslations(MO.open("rb"))
    assert catalog.gettext("Enter the majlis") == "ادخل المجلس"
    assert catalog.gettext("Log in") == "تسجيل الدخول"


def test_lobby_page_renders_for_visitors(client):
    page = client.get(reverse("games:lobby")).content.decode()
    assert "المجلس" in page


def test_a_missing_page_is_refused_in_arabic_in_the_site_layout(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert '<html lang="ar" dir="rtl">' in page
    assert "الصفحة غير موجودة" in page
    assert reverse("home") in page  # a way back, inside the normal layout


def test_a_missing_page_follows_the_english_cookie(client):
    client.cookies["sahrat_language"] = "en"
    page = client.get("/no-such-page/").content.decode()
    assert '<html lang="en" dir="ltr">' in page
    assert "Page not found" in page


@pytest.mark.parametrize(
    ("view", "status", "words"),
    [
        ("server_error", 500, "حدث خطأ"),
        ("bad_request", 400, "لم يتغير شيء"),
        ("permission_denied", 403, "لم يتغير شيء"),
    ],
)
def test_error_pages_are_in_the_page_language(rf, view, status, words):
    from django.core.exceptions import PermissionDenied
    from django.utils import translation
    from django.views import defaults

    request = rf.get("/")
    with translation.override("ar"):
        if view == "server_error":
            response = defaults.server_error(request)
        else:
            response = getattr(defaults, view)(request, PermissionDenied())
    assert response.status_code == status
    page = response.content.decode()
    assert 'dir="rtl"' in page
    assert words in page


def test_language_switch_keeps_https_pages_on_https(client):
    away = client.post(
        reverse("accounts:language"),
        {"language": "en", "next": "http://testserver/majlis/"},
        secure=True,
    )
    assert away["Location"] == reverse("home")
    same = client.post(
        reverse("accounts:language"), {"language": "en", "next": "/majlis/"}, secure=True
    )
    assert same["Location"] == "/majlis/"


def test_a_visitor_who_never_chose_sees_arabic_even_with_an_english_browser(client):
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="ar" dir="rtl">' in page
    client.cookies["sahrat_language"] = "en"
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<html lang="en" dir="ltr">' in page
    client.cookies["sahrat_language"] = "xx"  # a forged cookie falls back to Arabic
    assert 'dir="rtl"' in client.get(reverse("home")).content.decode()
