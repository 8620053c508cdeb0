"""Issue 57 item 19: every 4xx of the HTTP side, asked for JSON, is the one documented error
(docs/protocol.md, "Refusals over HTTP"): ``{"type": "error", "code", "message"}`` with a code
the doc lists and words in the player's language; a refused form says which fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from games.models import Majlis, Table
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
ARABIC = re.compile("[\u0600-\u06ff]")


def documented_codes() -> set[str]:
    """The codes of the doc's "Refusals over HTTP" table."""
    text = Path(ROOT / "docs/protocol.md").read_text()
    section = text.split("### Refusals over HTTP", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {code for row in rows for code in re.findall(r"`([a-z_]+)`", row.split("|")[1])}


def check(response, status: int, code: str | None = None, lang: str = "en") -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["type"] == "error" and body["code"] in documented_codes(), body
    assert isinstance(body["message"], str) and body["message"].strip(), body
    assert bool(ARABIC.search(body["message"])) == (lang == "ar"), body
    if code is not None:
        assert body["code"] == code, body
    return body


@pytest.fixture
def player(django_user_model):
    Majlis.objects.get_or_create(slug="main", defaults={"name": "المجلس"})
    return django_user_model.objects.create_user(
        "sam", password="x-Long-pass-123", display_name="Sam", language="en"
    )


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_jakaro_table_sent_partners_is_refused_with_the_field_named(player):
    client = signed_in(player)
    said = {"en": "Jakaro has no such option", "ar": "ليس في جاكارو هذا الخيار"}
    for lang in ("en", "ar"):
        player.language = lang
        player.save(update_fields=["language"])
        sent = {"game": "jakaro", "players": "4", "partners": "on"}
        body = check(client.post("/majlis/new/", sent, **JSON), 400, "invalid_table", lang)
        assert said[lang] in body["message"]
    sent = {"game": "jakaro", "players": "3"}
    body = check(client.post("/majlis/new/", sent, **JSON), 400, "invalid_table", "ar")
    assert body["fields"]["players"] == [body["message"]]
    assert "٢" in body["message"] and not re.search("[0-9]", body["message"])  # item 15
    assert not Table.objects.exists()  # nothing was made
    # A page still gets the form again.
    page = client.post("/majlis/new/", {"game": "jakaro", "players": "4", "partners": "on"})
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_every_refusal_of_the_http_side_is_the_documented_json(player, settings):
    client = signed_in(player)
    check(client.get("/majlis/t/nosuchtable/", **JSON), 404, "not_found")
    check(client.get("/no/such/page/", **JSON), 404, "not_found")
    check(client.get("/majlis/new/", **JSON), 405, "method_not_allowed")
    check(Client().get("/friends/", **JSON), 401, "not_signed_in", "ar")
    assert Client().get("/friends/").status_code == 302  # a page: to the log-in form
    check(client.get("/verify/m/nosuchmatch/export.json", **JSON), 404, "no_such_match")
    # Signing up and in, refused: the fields named, in the visitor's language (Arabic first).
    visitor = Client()
    sent = {"username": "new", "display_name": "N", "password1": "a", "password2": "b"}
    body = check(visitor.post("/accounts/signup/", sent, **JSON), 400, "invalid_form", "ar")
    assert "password2" in body["fields"]
    # A POST without its CSRF token, from a client that enforces it.
    strict = Client(enforce_csrf_checks=True)
    check(strict.post("/accounts/login/", {"username": "x"}, **JSON), 403, "forbidden", "ar")
    # The log-in throttle: refused sign-ins, then too many.
    wrong = {"username": "sam", "password": "not-it-at-all"}
    codes = [
        check(visitor.post("/accounts/login/", wrong, **JSON), s, lang="ar")["code"]
        for s in [400] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    ]
    assert codes[:-1] == ["invalid_form"] * (settings.AXES_FAILURE_LIMIT - 1)
    # (The words said once: the catalogue had the log-in's refusal twice over.)
    said = check(visitor.post("/accounts/login/", wrong, **JSON), 429, lang="ar")["message"]
    refused = Client().post("/accounts/login/", {"username": "x", "password": "y"}, **JSON)
    words = check(refused, 400, "invalid_form", "ar")["message"]
    assert words.count("الرجاء") == 1 and said
    assert codes[-1] == "too_many_attempts"


def test_every_documented_code_is_one_the_site_answers():
    """The doc's table holds what language/http.py and the views answer, no more."""
    from language.http import CODES

    named = {code for code, _words in CODES.values()}
    assert named <= documented_codes()
