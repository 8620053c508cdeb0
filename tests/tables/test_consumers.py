"""The table socket (games.consumers.TableConsumer) through Channels' WebsocketCommunicator, over
the real Redis channel layer and PostgreSQL: join, move, broadcast, refusals, reconnect, and a
record of every frame each seat receives during whole matches of both games."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

import games
from games import services
from games.models import Match
from sahrat_site.asgi import application
from tests.engines.test_contract import card_tokens
from tests.tables.helpers import make_table, seat_humans

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TIMEOUT = 30  # bounds a broken run; a loaded two-core machine can be slow


def _cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(user, table_id: str, origin: bytes = b"http://testserver", query: str = ""):
    cookie = await database_sync_to_async(_cookie)(user)
    # The JSON rendering (docs/protocol.md); without ?format=json the socket speaks HTML.
    path = f"/ws/table/{table_id}/?format=json" + (f"&{query}" if query else "")
    comm = WebsocketCommunicator(
        application, path, headers=[(b"origin", origin), (b"cookie", cookie)]
    )
    connected, code = await comm.connect(timeout=TIMEOUT)
    return comm, connected, code


async def next_state(comm: WebsocketCommunicator, record: list | None = None) -> dict[str, Any]:
    while True:
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        if record is not None:
            record.append(frame)
        if frame["type"] == "state":
            return frame


async def state_at(comm, seq: int, record: list | None = None) -> dict[str, Any]:
    """Read states until one shows the current match at ``seq`` or later."""
    while True:
        state = await next_state(comm, record)
        if state["match"]["seq"] >= seq or state["match"]["status"] != "playing":
            return state


async def both_seats(table, users) -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
    """Both players of a two-seat table connected, with the first state each received."""
    a, _, _ = await connect(users[0], table.public_id)
    b, _, _ = await connect(users[1], table.public_id)
    return a, b, await next_state(a), await next_state(b)


@pytest.fixture
def table_2p(creator, users):
    def make(game: str, options: dict | None = None):
        table = make_table(creator, game, options or {"players": 2})
        seat_humans(table, users[:2])
        return table

    return make


async def test_join_move_broadcast_and_a_wrong_seat_refused(table_2p, users, fast_clocks):
    table = await database_sync_to_async(table_2p)("jakaro")
    a, ok_a, _ = await connect(users[0], table.public_id)
    b, ok_b, _ = await connect(users[1], table.public_id)
    assert ok_a and ok_b
    sa, sb = await next_state(a), await next_state(b)
    assert sa["you"]["seat"] == 0 and sb["you"]["seat"] == 1
    assert sa["view"]["hand"] and sa["view"]["hand"] != sb["view"]["hand"]
    assert sa["match"]["secret"] is None and sa["match"]["commitment"]
    engine = games.get("jakaro")
    turn = sa["view"]["turn"]
    mover, other = (a, b) if turn == 0 else (b, a)
    mover_view = sa["view"] if turn == 0 else sb["view"]

    # The other seat tries to move: refused in words, nothing changes.
    await other.send_json_to({"type": "move", "seq": 0, "action": mover_view["legal"][0]})
    refusal = await other.receive_json_from(timeout=TIMEOUT)
    assert refusal["type"] == "error" and refusal["code"] in ("not_your_turn", "card_not_in_hand")
    assert refusal["message"]

    action = engine.bot_action(mover_view)
    await mover.send_json_to({"type": "move", "seq": 0, "action": action})
    after_a, after_b = await state_at(a, 1), await state_at(b, 1)
    assert after_a["match"]["seq"] == after_b["match"]["seq"] == 1
    assert after_a["view"]["turn"] == after_b["view"]["turn"] != turn
    for comm in (a, b):
        await comm.disconnect()


async def test_a_stale_move_gets_the_table_as_it_is_now(table_2p, users, fast_clocks):
    table = await database_sync_to_async(table_2p)("jakaro")
    a, _, _ = await connect(users[0], table.public_id)
    state = await next_state(a)
    assert state["view"]["turn"] == 0  # seat 0 starts a Jakaro match (rules decision 12)
    await a.send_json_to({"type": "move", "seq": 7, "action": state["view"]["legal"][0]})
    error = await a.receive_json_from(timeout=TIMEOUT)
    assert error["code"] == "stale_seq" and "الطاولة" in error["message"]
    fresh = await next_state(a)
    assert fresh["match"]["seq"] == 0
    await a.disconnect()


async def test_reconnecting_gives_the_full_view_again(table_2p, users, fast_clocks):
    table = await database_sync_to_async(table_2p)("hand")
    a, _, _ = await connect(users[0], table.public_id)
    first = await next_state(a)
    await a.disconnect()
    again, ok, _ = await connect(users[0], table.public_id)
    assert ok
    second = await next_state(again)
    assert second["view"] == first["view"] and second["match"] == first["match"]
    await again.disconnect()


async def test_a_foreign_origin_and_a_missing_table_are_refused(table_2p, users):
    table = await database_sync_to_async(table_2p)("jakaro")
    _, ok, _ = await connect(users[0], table.public_id, origin=b"http://evil.example")
    assert not ok
    _, ok, _ = await connect(users[0], "no-such-table")
    assert not ok


async def test_a_private_table_needs_a_seat_or_the_invite(creator, users):
    table = await database_sync_to_async(make_table)(
        creator, "jakaro", {"players": 2}, private=True
    )
    _, ok, _ = await connect(users[3], table.public_id)
    assert not ok
    _, ok, _ = await connect(users[3], table.public_id, query="invite=wrong")
    assert not ok
    comm, ok, _ = await connect(users[3], table.public_id, query=f"invite={table.invite_token}")
    assert ok
    await comm.disconnect()


async def test_bad_frames_are_refused_and_the_socket_stays_up(table_2p, users):
    table = await database_sync_to_async(table_2p)("jakaro")
    a, _, _ = await connect(users[0], table.public_id)
    await next_state(a)
    for frame in (
        {"type": "move"},
        {"type": "move", "seq": 0, "action": 42},
        {"type": "move", "seq": 0, "action": "x" * 300},
        {"type": "sit", "seat": 0},
        {"type": "chat", "text": ""},
    ):
        await a.send_json_to(frame)
        reply = await a.receive_json_from(timeout=TIMEOUT)
        assert reply["type"] == "error" and reply["message"], (frame, reply)
    await a.send_json_to({"type": "ping", "seq": 3})
    assert await a.receive_json_from(timeout=TIMEOUT) == {"type": "pong", "seq": 3}
    await a.disconnect()


# ------------------------------------------------------------------------------ what seats see


async def _play_recording(table, users, spectator_user) -> tuple[dict, list[dict], Match]:
    """Play a whole two-player match over the sockets, bots' choices sent by the players'
    sockets; record every frame each seat and a spectator receive."""
    engine = games.get(table.game)
    comms = [(await connect(users[s], table.public_id))[0] for s in range(2)]
    watcher = (await connect(spectator_user, table.public_id))[0]
    frames: dict[Any, list] = {0: [], 1: [], "spectator": []}
    latest = [await next_state(c, frames[s]) for s, c in enumerate(comms)]
    await next_state(watcher, frames["spectator"])
    for _ in range(3000):
        match = latest[0]["match"]
        if match["status"] != "playing":
            break
        turn = latest[0]["view"]["turn"]
        seq = match["seq"]
        if turn is None:
            # The server's own step (Hand's next deal) is due: the timer would play it.
            m = await database_sync_to_async(Match.objects.get)(public_id=match["id"])
            await database_sync_to_async(_force_due)(m)
        else:
            action = engine.bot_action(latest[turn]["view"])
            await comms[turn].send_json_to({"type": "move", "seq": seq, "action": action})
        latest = [await state_at(c, seq + 1, frames[s]) for s, c in enumerate(comms)]
        await state_at(watcher, seq + 1, frames["spectator"])
    for c in [*comms, watcher]:
        await c.disconnect()
    # Once a match ends the table shows the next one (waiting, a fresh commitment) as "match" and
    # the finished one as "shown".
    played = latest[0]["shown"] or latest[0]["match"]
    match = await database_sync_to_async(Match.objects.get)(public_id=played["id"])
    return frames, latest, match


def _force_due(match: Match) -> None:
    from datetime import timedelta

    from django.utils import timezone

    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    services.match_advance(match_id=match.pk)


@pytest.mark.parametrize(
    ("game", "watch_delay"),
    # The last: the watcher of this rated table sees it late (docs/social.md), as in production
    # (a short delay here), and their held-back states still show no hand.
    [("jakaro", 0.0), ("hand", 0.0), ("jakaro", 0.02)],
)
async def test_every_frame_of_a_whole_match_shows_no_other_hand_and_no_early_secret(
    game, watch_delay, table_2p, users, fast_clocks, monkeypatch
):
    # Bots answer at once here, far faster than any person: lift the per-socket frame limit, and
    # let no time-out (from a Celery worker another test started) play for the players.
    fast_clocks.WS_RATE_PER_S, fast_clocks.WS_RATE_BURST = 10_000, 10_000
    fast_clocks.TURN_SECONDS_OVERRIDE = 3600
    fast_clocks.WATCH_DELAY_S = watch_delay
    # What goes over the channel layer to every process, as published.
    published: list[str] = []
    publish = services.events.group_send

    def recorded(layer: Any, group: str, event: dict[str, Any]) -> None:
        published.append(json.dumps(event))
        publish(layer, group, event)

    monkeypatch.setattr(services.events, "group_send", recorded)
    table = await database_sync_to_async(table_2p)(game)
    frames, latest, match = await _play_recording(table, users, users[4])
    assert match.status == Match.Status.FINISHED
    secret = match.secret
    # The table's picture in every event while the match is played: no card (the views, which
    # hold the hands, are made in each socket from the snapshot) and no secret.
    pictures = [json.loads(e) for e in published if '"table.changed"' in e]
    assert all("picture" in event for event in pictures)
    during = [e for e in pictures if e["picture"]["match"]["status"] == "playing"]
    assert len(during) > 20
    for event in during:
        assert secret not in json.dumps(event)
        assert not card_tokens(event), event
    spectator_by_seq = {f["match"]["seq"]: f for f in frames["spectator"] if f["type"] == "state"}
    checked = 0
    for seat in (0, 1):
        for frame in frames[seat]:
            raw = json.dumps(frame)
            playing = frame["type"] != "state" or frame["shown"] is None
            if playing:
                assert secret not in raw, "the secret left the server before the reveal"
            if frame["type"] != "state" or frame["view"] is None:
                continue
            public = spectator_by_seq.get(frame["match"]["seq"])
            if public is None or public["match"]["status"] != frame["match"]["status"]:
                continue
            own = set(frame["view"]["hand"] or [])
            leaked = card_tokens(frame) - own - card_tokens(public)
            assert not leaked, (seat, frame["match"]["seq"], leaked)
            checked += 1
    assert checked > 20
    for frame in frames["spectator"]:
        if frame["type"] == "state" and frame["view"] is not None:
            assert frame["view"]["hand"] is None
            if frame["shown"] is None:
                assert secret not in json.dumps(frame)
    # Once the match is over, the secret is shown to everyone, and it matches the commitment.
    final = latest[0]
    shown = final["shown"] or final["match"]
    assert shown["secret"] == secret


async def test_a_dropped_update_is_repaired_by_the_seq_rules(
    table_2p, users, fast_clocks, monkeypatch
):
    # The channel layer may drop a broadcast (at-most-once delivery, or a full channel): the
    # players' pictures go stale, and the seq rules bring them back without losing a move.
    table = await database_sync_to_async(table_2p)("jakaro")
    a, b, sa, sb = await both_seats(table, users)
    assert sa["view"]["turn"] == 0
    real = services.broadcast
    dropped: list[int] = []
    monkeypatch.setattr(services.events, "broadcast", lambda t, m, **held: dropped.append(m.seq))
    engine = games.get("jakaro")
    await a.send_json_to({"type": "move", "seq": 0, "action": engine.bot_action(sa["view"])})
    await asyncio.sleep(0.5)
    assert dropped == [1]
    assert await a.receive_nothing(timeout=0.3) and await b.receive_nothing(timeout=0.3)
    monkeypatch.setattr(services.events, "broadcast", real)

    # B still thinks it is seat 0's turn at seq 0; whatever it sends is refused as stale, and
    # the table as it is now follows.
    await b.send_json_to({"type": "move", "seq": 0, "action": sb["view"]["hand"][0]})
    error = await b.receive_json_from(timeout=TIMEOUT)
    assert error["code"] == "stale_seq"
    fresh = await next_state(b)
    assert fresh["match"]["seq"] == 1 and fresh["view"]["turn"] == 1
    # B plays on from there; A's next state jumps from seq 0 to 2 and is whole.
    await b.send_json_to({"type": "move", "seq": 1, "action": engine.bot_action(fresh["view"])})
    jumped = await next_state(a)
    assert jumped["match"]["seq"] == 2 and jumped["view"]["hand"]
    for comm in (a, b):
        await comm.disconnect()


async def test_the_idle_check_answers_only_a_page_that_is_behind(
    table_2p, users, fast_clocks, monkeypatch
):
    # The page's idle check (docs/protocol.md): a sync carrying what the page shows gets nothing
    # back while that is the table as it is, and the whole state once an update was lost.
    table = await database_sync_to_async(table_2p)("jakaro")
    a, b, sa, sb = await both_seats(table, users)
    match_id = sb["match"]["id"]
    await b.send_json_to({"type": "sync", "match": match_id, "seq": 0})
    assert await b.receive_nothing(timeout=0.5)

    real = services.broadcast
    monkeypatch.setattr(
        services.events, "broadcast", lambda t, m, **held: None
    )  # the update is lost
    engine = games.get("jakaro")
    await a.send_json_to({"type": "move", "seq": 0, "action": engine.bot_action(sa["view"])})
    await asyncio.sleep(0.5)
    monkeypatch.setattr(services.events, "broadcast", real)
    assert await b.receive_nothing(timeout=0.3)

    await b.send_json_to({"type": "sync", "match": match_id, "seq": 0})
    caught_up = await next_state(b)
    assert caught_up["match"]["seq"] == 1 and caught_up["view"]["turn"] == 1
    assert "hand" in caught_up["view"] and caught_up["view"]["hand"] != sa["view"]["hand"]
    # Now current: the next check is quiet again; a check naming another match is answered.
    await b.send_json_to({"type": "sync", "match": match_id, "seq": 1})
    assert await b.receive_nothing(timeout=0.5)
    await b.send_json_to({"type": "sync", "match": "not-this-one", "seq": 1})
    assert (await next_state(b))["match"]["id"] == match_id
    for comm in (a, b):
        await comm.disconnect()


# ------------------------------------------------------------------------------ protocol defects


BAD_SEQS = ["0", 0.0, 0.5, True, False, None, [0], {"n": 0}, "missing"]


async def test_a_move_whose_seq_is_not_a_json_integer_is_a_bad_frame(table_2p, users):
    table = await database_sync_to_async(table_2p)("jakaro")
    a, _, _ = await connect(users[0], table.public_id)
    state = await next_state(a)
    assert state["view"]["turn"] == 0 and state["match"]["seq"] == 0
    for seq in BAD_SEQS:
        frame = {"type": "move", "action": state["view"]["legal"][0]}
        if seq != "missing":
            frame["seq"] = seq
        await a.send_json_to(frame)
        reply = await a.receive_json_from(timeout=TIMEOUT)
        assert reply["type"] == "error" and reply["code"] == "bad_frame", (seq, reply)
        assert reply["message"]
        # Nothing changed and no state follows (a stale_seq would send one).
        assert await a.receive_nothing(timeout=0.3), seq
    match = await database_sync_to_async(Match.objects.get)(public_id=state["match"]["id"])
    assert match.seq == 0
    # The same move with the integer seq is played.
    await a.send_json_to({"type": "move", "seq": 0, "action": state["view"]["legal"][0]})
    assert (await state_at(a, 1))["match"]["seq"] == 1
    await a.disconnect()


BAD_SEEDS = [
    "ABCDEF0123456789ABCDEF0123456789",  # upper case: the key holds lower case
    "AbCdEf0123456789abcdef0123456789",
    " abcdef0123456789abcdef0123456789",  # padding is not part of a seed
    "abcdef0123456789abcdef0123456789\n",
]


async def test_a_seed_not_exactly_lowercase_hex_is_refused(creator, users):
    table = await database_sync_to_async(make_table)(creator, "jakaro", {"players": 2})
    a, _, _ = await connect(users[0], table.public_id)
    state = await next_state(a)
    match = state["match"]
    sit = {"type": "sit", "seat": 0, "commitment": match["commitment"], "match": match["id"]}
    for seed in BAD_SEEDS:
        await a.send_json_to({**sit, "seed": seed})
        reply = await a.receive_json_from(timeout=TIMEOUT)
        assert reply["type"] == "error" and reply["code"] == "bad_seed", (seed, reply)
    kept = await database_sync_to_async(
        lambda: list(Match.objects.get(public_id=match["id"]).seeds.all())
    )()
    assert kept == []
    # The seed in lower case, byte for byte, is taken and kept as sent.
    good = BAD_SEEDS[0].lower()
    await a.send_json_to({**sit, "seed": good})
    seated = await next_state(a)
    assert seated["you"]["seat"] == 0
    assert [s["seed"] for s in seated["match"]["seeds"]] == [good]
    await a.disconnect()


async def _majlis_opens(user, origin: bytes | None, headers: list[tuple[bytes, bytes]]) -> bool:
    """Does a signed-in lobby socket open with this Origin and these headers? (The Origin rule
    guards every socket; the lobby's needs no table.)"""
    cookie = await database_sync_to_async(_cookie)(user)
    sent = [(b"cookie", cookie), *headers] + ([(b"origin", origin)] if origin else [])
    comm = WebsocketCommunicator(application, "/ws/majlis/", headers=sent)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    if connected:
        await comm.disconnect()
    return connected


async def test_the_origin_must_be_the_sites_own_scheme_host_and_port(users, settings):
    for headers, origin, ok in [
        # The site's own origin: the request's scheme, host and port.
        ([(b"host", b"testserver:8000")], b"http://testserver:8000", True),
        ([(b"host", b"testserver")], b"http://testserver", True),
        # The same host on another port or scheme is another site.
        ([(b"host", b"testserver:8000")], b"http://testserver:9000", False),
        ([(b"host", b"testserver:8000")], b"http://testserver", False),
        ([(b"host", b"testserver")], b"https://testserver", False),
        ([(b"host", b"testserver")], b"http://testserver:8080", False),
        ([(b"host", b"evil.example")], b"http://evil.example", False),  # not an allowed host
        ([(b"host", b"testserver")], b"null", False),
        ([(b"host", b"testserver")], None, False),  # a client must send Origin
        ([], b"https://testserver", False),  # in-process: allowed hosts, the request's scheme
    ]:
        assert await _majlis_opens(users[0], origin, headers) is ok, (headers, origin)

    # Behind a proxy: the scheme the trusted header names, and the trusted origins.
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com", "https://*.sahrat.example"]
    proxied = [(b"host", b"testserver"), (b"x-forwarded-proto", b"https")]
    for origin, ok, headers in [
        (b"https://testserver", True, proxied),
        (b"http://testserver", False, proxied),
        (b"https://testserver", False, [(b"host", b"testserver")]),  # no header: plain ws
        (b"https://play.example.com", True, proxied),
        (b"https://play.example.com:8443", False, proxied),
        (b"http://play.example.com", False, proxied),
        (b"https://ar.sahrat.example", True, proxied),
        (b"https://sahrat.example.evil", False, proxied),
    ]:
        assert await _majlis_opens(users[0], origin, headers) is ok, (headers, origin)
