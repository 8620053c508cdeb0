"""Forgot password, end to end through Django's own reset views: the mail (read from
django.core.mail.outbox), its link, a new password, a log-in with it; and an unknown address
is told exactly what a known one is."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

OLD, NEW = "old-Long-pass-123", "new-Long-pass-456"


def make_user(email: str = "huda@example.com", language: str = "ar") -> User:
    user = User(username="huda", display_name="هدى", email=email, language=language)
    user.set_password(OLD)
    user.save()
    return user


def login(client: Client, password: str):
    return client.post(reverse("accounts:login"), {"username": "huda", "password": password})


def link_in(message) -> str:
    found = re.search(r"https?://[^/\s]+(/\S+)", message.body)
    assert found, message.body
    return found.group(1)


def test_login_page_offers_the_reset(client):
    page = client.get(reverse("accounts:login")).content.decode()
    assert reverse("accounts:password_reset") in page
    assert "نسيت كلمة المرور؟" in page


def test_a_player_resets_a_forgotten_password_and_logs_in_with_the_new_one(client):
    make_user()
    page = client.get(reverse("accounts:password_reset"))
    assert page.status_code == 200 and 'dir="rtl"' in page.content.decode()

    sent = client.post(reverse("accounts:password_reset"), {"email": "HUDA@example.com"})
    assert sent.status_code == 302 and sent.url == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["huda@example.com"]
    assert "سهرات" in message.subject  # in the page's language, Arabic
    assert "huda" in message.body  # the username too, in case it was forgotten as well

    # The link: Django swaps the token for a session-held one, then shows the form.
    confirm = client.get(link_in(message), follow=True)
    assert confirm.status_code == 200
    assert confirm.context["validlink"] is True
    done = client.post(confirm.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done.url == reverse("accounts:password_reset_complete")
    assert "كلمة المرور" in client.get(done.url).content.decode()

    fresh = Client()
    assert login(fresh, OLD).status_code == 200  # refused: the form again
    assert login(fresh, NEW).status_code == 302
    assert fresh.get(reverse("accounts:profile")).status_code == 200

    # The link works once.
    again = client.get(link_in(message), follow=True)
    assert again.context["validlink"] is False
    assert "لم يعد هذا الرابط صالحًا" in again.content.decode()


def test_an_unknown_address_reveals_nothing(client):
    make_user()
    known = client.post(reverse("accounts:password_reset"), {"email": "huda@example.com"})
    unknown = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert (known.status_code, known.url) == (unknown.status_code, unknown.url)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["huda@example.com"]

    def main(url: str) -> str:
        html = client.get(url).content.decode()
        return html[html.index("<main") : html.index("</main>")]

    assert main(unknown.url) == main(known.url)


def test_a_reset_in_english_sends_an_english_mail(client):
    make_user(language="en")
    client.cookies["sahrat_language"] = "en"
    client.post(reverse("accounts:password_reset"), {"email": "huda@example.com"})
    assert mail.outbox[0].subject == "Sahrat: choose a new password"


def test_a_player_adds_an_email_at_sign_up_or_later(client):
    client.post(
        reverse("accounts:signup"),
        {
            "username": "noura",
            "display_name": "نورة",
            "email": "noura@example.com",
            "password1": OLD,
            "password2": OLD,
        },
    )
    noura = User.objects.get(username="noura")
    assert noura.email == "noura@example.com"
    assert client.post(reverse("accounts:email"), {"email": "n@example.org"}).status_code == 302
    noura.refresh_from_db()
    assert noura.email == "n@example.org"
    refused = client.post(reverse("accounts:email"), {"email": "not an address"})
    assert refused.status_code == 200 and "أدخِل عنوان بريد إلكتروني صحيح" in (
        refused.content.decode()
    )
    noura.refresh_from_db()
    assert noura.email == "n@example.org"


def test_email_backend_comes_from_the_environment(monkeypatch):
    """Console locally, SMTP in production, either overridden by EMAIL_BACKEND."""
    import importlib

    import sahrat_site.settings as live

    def settings_with(**env):
        for key in (
            "SAHRAT_ENV",
            "SAHRAT_FAST_PASSWORDS",
            "EMAIL_BACKEND",
            "EMAIL_HOST",
            "EMAIL_PORT",
        ):
            monkeypatch.delenv(key, raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        try:
            return importlib.reload(live)
        finally:
            monkeypatch.undo()

    local = settings_with()
    assert local.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
    prod = settings_with(
        SAHRAT_ENV="production",
        DJANGO_SECRET_KEY="x" * 50,
        EMAIL_HOST="smtp.example.com",
        EMAIL_PORT="2525",
    )
    assert prod.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
    assert (prod.EMAIL_HOST, prod.EMAIL_PORT) == ("smtp.example.com", 2525)
    assert prod.EMAIL_USE_TLS is True
    importlib.reload(live)  # the settings module as the environment has it
