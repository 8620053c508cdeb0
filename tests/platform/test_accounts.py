"""Sign-up, log-in, throttling, profile and the refusals that must change nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import DISPLAY_NAME_MAX

User = get_user_model()
PASSWORD = "a-Long-enough-pass-42"

pytestmark = pytest.mark.django_db


def signup(client: Client, username: str = "noura", display: str = "نورة", **extra):
    data = {
        "username": username,
        "display_name": display,
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }
    return client.post(reverse("accounts:signup"), data)


@pytest.fixture
def production_hashers(settings):
    """The hashers production runs with: `make test` puts a fast one first for the fixtures."""
    settings.PASSWORD_HASHERS = [h for h in settings.PASSWORD_HASHERS if "MD5" not in h]


def test_production_settings_hash_with_argon2_whatever_the_fast_test_switch_says():
    code = "from django.conf import settings; print(settings.PASSWORD_HASHERS[0])"
    env = {
        **os.environ,
        "SAHRAT_ENV": "production",
        "DJANGO_SECRET_KEY": "x" * 50,
        "DJANGO_SETTINGS_MODULE": "sahrat_site.settings",
    }
    argon2 = "django.contrib.auth.hashers.Argon2PasswordHasher"
    for switch in ("0", "1"):
        env["SAHRAT_FAST_PASSWORDS"] = switch
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == argon2, switch
    # The switch is what `make test` uses: outside production it does put a fast hasher first.
    env.update(SAHRAT_ENV="development", SAHRAT_FAST_PASSWORDS="1")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.stdout.strip() == "django.contrib.auth.hashers.MD5PasswordHasher", run.stderr


def test_signup_creates_the_player_logs_them_in_and_hashes_with_argon2(client, production_hashers):
    response = signup(client)
    assert response.status_code == 302 and response["Location"] == reverse("games:lobby")
    user = User.objects.get(username="noura")
    assert user.display_name == "نورة"
    assert user.language == "ar"
    assert user.password.startswith("argon2$")
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_signup_in_english_remembers_english(client):
    client.cookies["sahrat_language"] = "en"
    signup(client, username="sam", display="Sam")
    assert User.objects.get(username="sam").language == "en"


def test_overlong_display_name_is_refused_with_a_clear_arabic_message(client):
    response = signup(client, display="ن" * (DISPLAY_NAME_MAX + 1))
    assert response.status_code == 200
    page = response.content.decode()
    assert "تأكد أن هذه القيمة تحتوي على" in page  # Django's Arabic "at most N characters"
    assert not User.objects.filter(username="noura").exists()


def test_blank_display_name_is_refused(client):
    response = signup(client, display="   ")
    assert response.status_code == 200
    assert not User.objects.filter(username="noura").exists()


def test_duplicate_username_is_refused_and_the_first_account_is_untouched(client):
    signup(client)
    first = User.objects.get(username="noura")
    other = Client()
    other.cookies["sahrat_language"] = "en"
    response = signup(other, display="Another")
    assert response.status_code == 200
    assert "That name is taken" in response.content.decode()
    assert User.objects.filter(username="noura").count() == 1
    first.refresh_from_db()
    assert first.display_name == "نورة"


def test_missing_csrf_token_is_refused_in_the_page_language_and_creates_nothing():
    client = Client(enforce_csrf_checks=True)
    response = signup(client)
    assert response.status_code == 403
    page = response.content.decode()
    assert 'dir="rtl"' in page
    assert "لم يتغير شيء" in page
    assert not User.objects.exists()


def make_user(username: str = "huda", language: str = "ar") -> User:
    return User.objects.create_user(
        username=username, password=PASSWORD, display_name=username.title(), language=language
    )


def login(client: Client, username: str, password: str):
    return client.post(reverse("accounts:login"), {"username": username, "password": password})


def test_login_with_a_wrong_password_fails_then_the_right_one_works(client):
    make_user()
    wrong = login(client, "huda", "not-the-password")
    assert wrong.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "الرجاء إدخال" in wrong.content.decode()  # Django's Arabic invalid-login message
    right = login(client, "huda", PASSWORD)
    assert right.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="huda").pk)


def test_repeated_failed_logins_are_throttled_even_for_the_right_password(client, settings):
    make_user()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "huda", "wrong-guess")
    locked = login(client, "huda", PASSWORD)
    assert locked.status_code == 429
    assert "انتظر ١٥ دقيقة" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another account from the same address is not locked: the lock is per username and address.
    make_user("reem")
    assert login(Client(), "reem", PASSWORD).status_code == 302


def test_logout_is_a_post_and_ends_the_session(client):
    make_user()
    login(client, "huda", PASSWORD)
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_profile_changes_name_and_language(client):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "هدى", "language": "en"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.language) == ("هدى", "en")
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'lang="en" dir="ltr"' in page


def test_profile_refuses_an_unknown_language_and_keeps_the_old_one(client):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "x", "language": "xx"})
    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.display_name, user.language) == ("Huda", "ar")


def test_password_change(client):
    user = make_user()
    client.force_login(user)
    new = "another-Long-pass-77"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_admin_lists_users_with_filters_and_search(client):
    staff = User.objects.create_superuser("boss", password=PASSWORD, display_name="Boss")
    make_user("ahmad")
    make_user("layla", language="en")
    client.force_login(staff)
    page = client.get(reverse("admin:accounts_user_changelist"), {"q": "layla"}).content.decode()
    assert "layla" in page and "ahmad" not in page
    filtered = client.get(reverse("admin:accounts_user_changelist"), {"language__exact": "en"})
    assert "layla" in filtered.content.decode() and "ahmad" not in filtered.content.decode()


@pytest.mark.parametrize(
    "display",
    [
        "\u200b\u200b",  # zero-width spaces: an empty-looking seat
        "\u202enoura",  # right-to-left override: turns the text after it around
        "no\u2066ura",  # a directional isolate
        "نورة\u0007",  # a control character
    ],
)
def test_invisible_or_direction_changing_display_names_are_refused(client, display):
    response = signup(client, display=display)
    assert response.status_code == 200
    assert "has-error" in response.content.decode()
    assert not User.objects.filter(username="noura").exists()


def test_display_name_with_arabic_marks_and_an_emoji_is_accepted(client):
    response = signup(client, display="عَبْدُالله 👨\u200d👩\u200d👧")
    assert response.status_code == 302
    assert User.objects.get(username="noura").display_name == "عَبْدُالله 👨\u200d👩\u200d👧"


def test_profile_refuses_an_invisible_display_name_and_keeps_the_old_one(client):
    user = make_user()
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "\u200b", "language": "ar"}
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.display_name == "Huda"


def test_user_create_service_refuses_a_taken_username_and_keeps_the_first(production_hashers):
    from accounts import services

    first = services.user_create(
        username="noura", display_name="نورة", password=PASSWORD, language="ar"
    )
    # Two sign-ups racing past the form's check meet the database's unique constraint here.
    with pytest.raises(services.UsernameTaken):
        services.user_create(
            username="noura", display_name="Other", password=PASSWORD, language="en"
        )
    assert User.objects.filter(username="noura").count() == 1
    first.refresh_from_db()
    assert (first.display_name, first.language) == ("نورة", "ar")
    assert first.check_password(PASSWORD) and first.password.startswith("argon2$")


def test_signup_that_loses_a_race_shows_the_taken_message(client, monkeypatch):
    from accounts import services

    def taken(**kwargs):
        raise services.UsernameTaken(kwargs["username"])

    monkeypatch.setattr(services, "user_create", taken)
    response = signup(client)
    assert response.status_code == 200
    assert "هذا الاسم مأخوذ" in response.content.decode()
    assert "_auth_user_id" not in client.session
