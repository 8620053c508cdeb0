"""WebSockets through a real Daphne with a real client: who may connect, and bad frames."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

pytestmark = pytest.mark.django_db(transaction=True)


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws/majlis/"


@pytest.fixture
def session_cookie(django_user_model) -> str:
    user = django_user_model.objects.create_user(
        "wsplayer", password="x-Long-pass-123", display_name="لاعب", language="ar"
    )
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_anonymous_socket_is_refused(daphne_server):
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(daphne_server), origin=daphne_server, open_timeout=10)
    assert refused.value.response.status_code == 403


def test_foreign_origin_is_refused_even_with_a_valid_session(daphne_server, session_cookie):
    with pytest.raises(InvalidStatus) as refused:
        connect(
            ws_url(daphne_server),
            origin="http://evil.example",
            additional_headers={"Cookie": session_cookie},
            open_timeout=10,
        )
    assert refused.value.response.status_code == 403


def test_signed_in_player_connects_and_bad_frames_get_clear_errors_and_change_nothing(
    daphne_server, session_cookie
):
    with connect(
        ws_url(daphne_server),
        origin=daphne_server,
        additional_headers={"Cookie": session_cookie},
        open_timeout=10,
    ) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello == {"type": "hello", "user": "لاعب"}

        bad_frames = [
            ("not json at all", "bad_frame", "JSON"),
            ("[1, 2, 3]", "bad_frame", "type"),
            ('{"seq": 1}', "bad_frame", "type"),
            ('{"type": "ping", "seq": "one"}', "bad_frame", "seq"),
            ('{"type": "ping", "seq": true}', "bad_frame", "seq"),
            ('{"type": "launch_missiles"}', "unknown_type", "غير معروف"),
            ("x" * 10_000, "bad_frame", "أطول"),
            (b"\x00\x01binary", "bad_frame", "JSON"),
            # Short but nested too deep for Python's JSON parser (RecursionError, not ValueError):
            # refused for its depth, in the player's words (docs/protocol.md, "Limits").
            ("[" * 5_000, "bad_frame", "متداخلة"),
            ('{"a":' * 1_200 + "1" + "}" * 1_200, "bad_frame", "متداخلة"),
        ]
        for frame, code, words in bad_frames:
            ws.send(frame)
            reply = json.loads(ws.recv(timeout=10))
            assert reply["type"] == "error" and reply["code"] == code, (frame, reply)
            assert words in reply["message"], (frame, reply)

        # The socket still works exactly as before: nothing was changed by the bad frames.
        ws.send(json.dumps({"type": "ping", "seq": 7}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "seq": 7}


def test_errors_follow_the_players_language(daphne_server, django_user_model):
    user = django_user_model.objects.create_user(
        "english", password="x-Long-pass-123", display_name="Sam", language="en"
    )
    client = Client()
    client.force_login(user)
    with connect(
        ws_url(daphne_server),
        origin=daphne_server,
        additional_headers={"Cookie": f"sessionid={client.cookies['sessionid'].value}"},
        open_timeout=10,
    ) as ws:
        ws.recv(timeout=10)
        ws.send("{broken")
        reply = json.loads(ws.recv(timeout=10))
        assert reply["message"] == "The message is not valid JSON."
