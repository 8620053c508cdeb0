"""Names nobody can fake, sign-ups that race, and the log-in throttle behind a proxy."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts import names, services

User = get_user_model()
PASSWORD = "a-Long-enough-pass-42"


def signup(client: Client, username: str, display: str = "لاعب"):
    return client.post(
        reverse("accounts:signup"),
        {
            "username": username,
            "display_name": display,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def english() -> Client:
    client = Client()
    client.cookies["sahrat_language"] = "en"
    return client


# ---------------------------------------------------------------------------- look-alike usernames


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("existing", "lookalike", "why"),
    [
        ("sara", "SARA", "case"),
        ("sara", "ѕаrа", "Cyrillic letters drawn like Latin ones"),
        ("sara", "ｓａｒａ", "full-width letters"),
        ("أحمد", "احمد", "alef with hamza"),
        ("احمد", "احـمد", "tatweel"),
        ("علي", "علی", "Persian yeh"),
        ("مريم", "مریم", "Persian yeh inside"),
        ("لاعب7", "لاعب٧", "Arabic-Indic digit"),
        ("كريم", "کریم", "Persian kaf"),
        ("فاطمة", "فاطمه", "teh marbuta"),
    ],
)
def test_a_lookalike_of_an_existing_username_is_refused_in_the_players_language(
    existing, lookalike, why
):
    User.objects.create_user(existing, password=PASSWORD, display_name="أول")
    response = signup(Client(), lookalike)
    assert response.status_code == 200, why
    assert "يشبه كثيرًا اسم لاعب" in response.content.decode(), why
    assert User.objects.count() == 1, why
    # And in English for an English page.
    assert "looks too much like" in signup(english(), lookalike).content.decode()
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_distinct_names_are_still_accepted():
    User.objects.create_user("sara", password=PASSWORD, display_name="سارة")
    assert signup(Client(), "sarah").status_code == 302
    assert signup(Client(), "ساره١").status_code == 302  # a new name, not a fold of one
    assert User.objects.count() == 3


@pytest.mark.django_db
def test_log_in_works_with_any_spelling_that_folds_to_the_account():
    User.objects.create_user("sara", password=PASSWORD, display_name="سارة")
    client = Client()
    response = client.post(reverse("accounts:login"), {"username": "SARA", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="sara").pk)


@pytest.mark.django_db
def test_lookalike_spellings_share_one_throttle_count(settings):
    User.objects.create_user("sara", password=PASSWORD, display_name="سارة")
    client = Client()
    for spelling in ("sara", "SARA", "Sara", "ѕаrа", "sArA")[: settings.AXES_FAILURE_LIMIT]:
        client.post(reverse("accounts:login"), {"username": spelling, "password": "wrong"})
    locked = client.post(reverse("accounts:login"), {"username": "sara", "password": PASSWORD})
    assert locked.status_code == 429


# ---------------------------------------------------------------------------- invisible, reserved


@pytest.mark.django_db
@pytest.mark.parametrize(
    "display",
    ["\u3164", "\u3164\u3164\u3164", "\u2800", "\u2800 \u2800", "\u115f\u1160", "\uffa0"],
)
def test_a_display_name_with_no_visible_character_is_refused(display):
    response = signup(Client(), "noura", display)
    assert response.status_code == 200
    assert "بلا محارف خفية" in response.content.decode()
    assert "without invisible" in signup(english(), "noura", display).content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["\u3164\u3164", "\u3164"])
def test_a_username_with_no_visible_character_is_refused(username):
    response = signup(Client(), username)
    assert response.status_code == 200
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "display"),
    [
        ("admin", "لاعب"),
        ("Admin_2", "لاعب"),
        ("sahrat_support", "لاعب"),
        ("مشرف", "لاعب"),
        ("noura", "مشرف سهرات"),
        ("noura", "الإدارة"),
        ("noura", "ADMIN"),
    ],
)
def test_staff_names_are_reserved(username, display):
    response = signup(Client(), username, display)
    assert response.status_code == 200
    assert "محجوز لفريق سهرات" in response.content.decode()
    assert not User.objects.exists()


def test_fold_is_the_comparison_form_players_expect():
    assert names.fold("ѕаrа") == names.fold("SARA") == "sara"
    assert names.fold("أحمد") == names.fold("إحمد") == names.fold("احـمد") == "احمد"
    assert names.fold("٠١٢٣") == names.fold("۰۱۲۳") == "0123"
    assert names.fold("ﻻعب") == names.fold("لاعب")
    assert names.fold("sara") != names.fold("sarah")
    assert not names.is_visible("\u3164\u2800 ")
    assert names.is_visible("ㅤa")


# ---------------------------------------------------------------------------- the sign-up race


@pytest.mark.django_db(transaction=True)
def test_parallel_signups_of_one_name_in_different_cases_create_exactly_one_account():
    spellings = ["racer", "Racer", "RACER", "rAcer", "raCer", "racEr", "rаcеr", "RaCeR"]
    barrier = threading.Barrier(len(spellings))
    outcomes: list[str] = []
    lock = threading.Lock()

    def sign_up(name: str) -> None:
        try:
            barrier.wait(timeout=10)
            services.user_create(
                username=name, display_name="سباق", password=PASSWORD, language="ar"
            )
            result = "created"
        except services.UsernameTaken:
            result = "taken"
        finally:
            connection.close()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in spellings]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == ["created"] + ["taken"] * 7
    assert User.objects.filter(username_key="racer").count() == 1
    assert User.objects.count() == 1


# ---------------------------------------------------------------------------- behind a proxy


@pytest.fixture
def behind_one_proxy(settings):
    settings.SAHRAT_PROXY_COUNT = 1
    return settings


def login_via_proxy(username: str, password: str, real: str, claimed: str | None = None):
    """A log-in as the proxy forwards it: whatever the client claimed, then the address the
    proxy saw, appended by the proxy; the connection itself comes from the proxy."""
    forwarded = f"{claimed}, {real}" if claimed else real
    return Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded).post(
        reverse("accounts:login"), {"username": username, "password": password}
    )


@pytest.mark.django_db
def test_a_new_spoofed_address_for_every_guess_does_not_escape_the_lock(behind_one_proxy):
    User.objects.create_user("huda", password=PASSWORD, display_name="هدى")
    for i in range(behind_one_proxy.AXES_FAILURE_LIMIT):
        login_via_proxy("huda", "guess", real="203.0.113.9", claimed=f"198.51.100.{i}")
    # Locked at the guesser's real address, whatever it claims next, even with the password.
    locked = login_via_proxy("huda", PASSWORD, real="203.0.113.9", claimed="198.51.100.77")
    assert locked.status_code == 429


@pytest.mark.django_db
def test_naming_the_real_players_address_does_not_lock_them_out(behind_one_proxy):
    User.objects.create_user("huda", password=PASSWORD, display_name="هدى")
    for _ in range(behind_one_proxy.AXES_FAILURE_LIMIT + 2):
        login_via_proxy("huda", "guess", real="203.0.113.9", claimed="192.0.2.50")
    # The real player, at 192.0.2.50, is not locked: the attacker's claim was never trusted.
    assert login_via_proxy("huda", PASSWORD, real="192.0.2.50").status_code == 302
    # The attacker is.
    assert login_via_proxy("huda", PASSWORD, real="203.0.113.9").status_code == 429


@pytest.mark.django_db
def test_without_a_proxy_the_forwarded_header_is_ignored(settings):
    settings.SAHRAT_PROXY_COUNT = 0
    User.objects.create_user("huda", password=PASSWORD, display_name="هدى")
    for i in range(settings.AXES_FAILURE_LIMIT):
        Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").post(
            reverse("accounts:login"), {"username": "huda", "password": "guess"}
        )
    locked = Client(REMOTE_ADDR="203.0.113.9").post(
        reverse("accounts:login"), {"username": "huda", "password": PASSWORD}
    )
    assert locked.status_code == 429
