"""The Verify pages through Django's test client on PostgreSQL: the public commitment log with
matches in every state, a match's page before and after the reveal, the export, the replay, the
standalone script's download, the paste form, and bad input (a clear message and a 4xx)."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

import fairness.core as fairness
from games import services
from games.models import Match, Table
from tests.tables.helpers import make_table, seat_humans
from tests.verify.helpers import dumps, tampered
from verify import audit, selectors

pytestmark = pytest.mark.django_db(transaction=True)


def _url(name: str, match: Match) -> str:
    return reverse(f"verify:{name}", args=[match.public_id])


def test_the_log_lists_waiting_playing_revealed_and_aborted_matches(
    finished, creator, users, client
):
    done = finished("jakaro", {"players": 2}, humans=1)
    waiting = Match.objects.get(table=done.table, number=2)  # the next match, already committed
    playing_table = make_table(creator, "hand", {"players": 2})
    seat_humans(playing_table, users[2:4])
    playing = Match.objects.get(table=playing_table)
    aborted_table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(aborted_table, users[4:6])
    aborted = services.match_abort(match_id=Match.objects.get(table=aborted_table).pk)

    page = client.get(reverse("verify:log"))
    assert page.status_code == 200
    html = page.content.decode()
    states = dict(re.findall(r'data-match="([0-9a-f]+)" data-state="(\w+)"', html))
    assert states[done.public_id] == "revealed"
    assert states[waiting.public_id] == "waiting"
    assert states[playing.public_id] == "playing"
    assert states[aborted.public_id] == "aborted"
    assert len(states) == Match.objects.count()  # every match ever created is listed
    for m in (done, waiting, playing, aborted):
        assert m.commitment[:16] in html

    # The aborted match's secret is revealed at once, with its check and its events.
    page = client.get(_url("match", aborted)).content.decode()
    assert aborted.secret in page and 'data-check="commitment" data-ok="1"' in page
    assert 'data-purpose="deal/1"' in page and 'data-ok="0"' not in page
    assert audit.check_export(client.get(_url("export", aborted)).json()) == []
    # A match aborted before it started dealt nothing: its secret, and no invented deal.
    never = Match.objects.get(table=aborted_table, number=2)
    never = services.match_abort(match_id=never.pk)
    page = client.get(_url("match", never)).content.decode()
    assert never.secret in page and 'class="event"' not in page
    export = client.get(_url("export", never)).json()
    assert export["started"] is False and export["events"] == []
    assert audit.check_export(export) == []

    # Search: by id, by a pasted link, by a player's name, and "my matches".
    by_id = client.get(reverse("verify:log"), {"q": playing.public_id}).content.decode()
    assert playing.public_id in by_id and done.public_id not in by_id
    link = f"https://sahrat.example/verify/m/{done.public_id}/"
    assert done.public_id in client.get(reverse("verify:log"), {"q": link}).content.decode()
    table_link = f"https://sahrat.example/majlis/t/{aborted_table.public_id}/"
    found = client.get(reverse("verify:log"), {"q": table_link}).content.decode()
    assert aborted.public_id in found and playing.public_id not in found
    by_name = client.get(reverse("verify:log"), {"q": users[2].username}).content.decode()
    assert playing.public_id in by_name and done.public_id not in by_name
    me = Client()
    me.force_login(users[0])
    mine = me.get(reverse("verify:log"), {"mine": "1"}).content.decode()
    assert done.public_id in mine and playing.public_id not in mine
    assert mine.count(f'data-match="{done.public_id}"') == 1  # once, however they played it


def test_a_pasted_link_to_a_match_finds_it_in_the_old_form_and_the_new(creator, users, client):
    """The pages once linked a match as /verify/<id>/ (still redirected, and already shared);
    pasted into the search, that link finds the match as /verify/m/<id>/ does."""
    table = make_table(creator, "hand", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, status=Match.Status.PLAYING)
    other = make_table(creator, "jakaro", {"players": 2})
    seat_humans(other, users[2:4])
    for link in (
        f"https://sahrat.example/verify/{match.public_id}/",
        f"https://sahrat.example/verify/m/{match.public_id}/",
        f"/verify/{match.public_id}/",
        f"  sahrat.example/verify/{match.public_id}  ",
    ):
        found = client.get(reverse("verify:log"), {"q": link}).content.decode()
        states = re.findall(r'data-match="([0-9a-f]+)"', found)
        assert states == [match.public_id], link
    # A link to another Verify page is no match's link.
    for page in ("paste", "sahrat_verify.py"):
        found = client.get(reverse("verify:log"), {"q": f"https://sahrat.example/verify/{page}/"})
        assert re.findall(r'data-match="([0-9a-f]+)"', found.content.decode()) == [], page


def test_a_revealed_match_page_shows_every_event_and_its_downloads(finished, client):
    match = finished("hand", {"players": 2, "variant": "plain", "table": "strict"}, humans=1)
    page = client.get(_url("match", match))
    assert page.status_code == 200
    html = page.content.decode()
    assert match.secret in html and match.commitment in html
    assert "verify/verify.js" in html and "<script>" not in html  # no inline script (CSP)
    events = selectors.match_page(match)["events"]
    assert html.count('class="event"') == len(events)
    for e in events:
        assert f'data-purpose="{e["purpose"]}"' in html
    seed = match.seeds.get()
    assert seed.seed in html
    # The standalone script: its link, and the SHA-256 shown is the file's.
    script = client.get(reverse("verify:script"))
    body = b"".join(script.streaming_content)
    assert script.status_code == 200 and b"sahrat-fair-v1" in body
    assert hashlib.sha256(body).hexdigest() in html
    # The export is JSON with everything the standalone script needs.
    export = client.get(_url("export", match)).json()
    assert export["secret"] == match.secret and len(export["actions"]) == match.seq
    assert export["events"][0]["purpose"] == "deal/1"
    # The replay: the first step, then the next through htmx (a fragment), then the end.
    first = client.get(_url("replay", match)).content.decode()
    assert 'data-step="0"' in first and "game-view" in first
    step = client.get(_url("replay", match), {"step": "1"}, HTTP_HX_REQUEST="true")
    assert step.status_code == 200 and b"<html" not in step.content
    assert b'data-step="1"' in step.content
    end = client.get(_url("replay", match), {"step": "999999"}).content.decode()
    assert f'data-step="{match.seq}"' in end


def test_before_the_reveal_a_match_shows_its_commitment_and_seeds_only(creator, users, client):
    table = make_table(creator, "hand", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table)
    assert match.status == "playing"
    page = client.get(_url("match", match))
    html = page.content.decode()
    assert page.status_code == 200 and match.commitment in html
    assert 'data-testid="not-revealed"' in html and match.secret not in html
    for s in match.seeds.all():
        assert s.seed in html
    assert client.get(_url("export", match)).status_code == 403
    assert client.get(_url("replay", match)).status_code == 403


def test_the_secret_is_nowhere_on_any_page_during_a_running_match(
    creator, users, client, django_user_model
):
    """Every URL of the site (every admin list and object page too), as anonymous, each seated
    player, a spectator and staff, while a match is played: its secret appears in none."""
    from django.contrib import admin
    from django.urls import URLPattern, URLResolver, get_resolver

    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table)
    staff = django_user_model.objects.create_superuser("boss", "b@example.com", "x-Long-pass-1")
    fill = {"table_id": table.public_id, "match_id": match.public_id}

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin/"):
                    continue
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern)

    urls = set()
    for route in walk(get_resolver().url_patterns):
        names = re.findall(r"<(?:\w+:)?(\w+)>", route)
        if any(n not in fill for n in names) or route.startswith("^"):
            continue
        urls.add("/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: fill[m.group(1)], route))
    urls.add(f"/majlis/t/{table.public_id}/?format=json")
    admin_urls = ["/admin/"]
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        admin_urls.append(reverse(f"{name}_changelist"))
        obj = model.objects.first()
        if obj is not None:
            admin_urls.append(reverse(f"{name}_change", args=[obj.pk]))
    assert "/verify/" in urls and f"/verify/m/{match.public_id}/export.json" in urls

    spectator = users[3]
    viewers = [None, users[0], users[1], spectator, staff]
    asked = 0
    for viewer in viewers:
        c = Client()
        if viewer is not None:
            c.force_login(viewer)
        for url in sorted(urls) + (admin_urls if viewer is staff else []):
            response = c.get(url)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            assert response.status_code < 500, url
            assert match.secret.encode() not in body, (url, viewer)
            asked += 1
    assert asked > 5 * 8


def test_bad_input_gets_a_clear_message_and_a_4xx(finished, client):
    match = finished("jakaro", {"players": 2}, humans=1)
    for url in ("/verify/m/0000000000000000/", "/verify/m/not..an..id/", "/verify/m/x/replay/"):
        response = client.get(url)
        assert response.status_code == 404
        assert 'data-testid="verify-error"' in response.content.decode()
    missing = client.get("/verify/m/0000000000000000/export.json")
    assert missing.status_code == 404 and missing.json()["error"]

    paste = reverse("verify:paste")
    good = {"game": "jakaro", "id": match.public_id, "secret": match.secret, "rounds": "2"}
    good["seeds"] = "\n".join(f"{s.seat}={s.seed}" for s in match.seeds.all())
    good["commitment"] = match.commitment
    bad_cases = [
        {**good, "secret": "xyz"},
        {**good, "secret": match.secret[:-1]},
        {**good, "id": "has space"},
        {**good, "seeds": "zero=abc"},
        {**good, "game": "chess"},
        {**good, "rounds": "500"},
        {**good, "seeds": "0=" + "a" * 30_000},
    ]
    for form in bad_cases:
        response = client.post(paste, form)
        assert response.status_code == 400, form
        assert 'data-testid="paste-error"' in response.content.decode()
    for text in ("{", "[]", '{"format": "sahrat-match-v1"}', "x" * 2_100_000):
        response = client.post(paste, {"export": text})
        assert response.status_code == 400
        assert 'data-testid="paste-error"' in response.content.decode()

    # The paste form with good input: the deals the match's source gives, without any record.
    response = client.post(paste, good)
    assert response.status_code == 200
    html = response.content.decode()
    seeds = {s.seat: s.seed for s in match.seeds.all()}
    source = fairness.RandomSource(bytes.fromhex(match.secret), "jakaro", match.public_id, seeds)
    for purpose in ("deal/1", "deal/2"):
        assert " ".join(source.deck(purpose)) in html
    assert 'data-testid="paste-commitment"' in html and "✓" in html

    # An export pasted whole is checked by the server's own code; a tampered one is not.
    export = client.get(_url("export", match)).json()
    ok = client.post(paste, {"export": dumps(export)})
    assert ok.status_code == 200 and b'data-testid="export-ok"' in ok.content
    for how in ("card", "secret", "seed", "seed_time"):
        bad = client.post(paste, {"export": json.dumps(tampered(export, how))})
        assert bad.status_code == 200 and b'data-testid="export-problems"' in bad.content, how


def test_the_table_page_and_the_nav_link_to_verify(client, creator):
    make_table(creator, "hand", {"players": 2})
    home = client.get("/").content.decode()
    assert 'href="/verify/"' in home
    assert Table.objects.count() == 1
