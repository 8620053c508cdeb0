"""Watching a rated or coin table: the watcher's states come WATCH_DELAY_S after the players'
(here one second, set for the test), in order, never with a hand; a free table with a bot is
watched as it is; a watcher who sits down is no longer delayed; the page itself shows no game
to a delayed watcher."""

from __future__ import annotations

import asyncio
import json
import time
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import Client

import games
from games import services
from games.models import Match
from games.selectors import load_state
from tests.tables.helpers import make_table, seat_humans
from tests.tables.test_consumers import TIMEOUT, connect, next_state

pytestmark = [pytest.mark.django_db(transaction=True)]  # async tests: asyncio_mode = auto


async def first_move(match: Match, user) -> int:
    """The seated ``user`` makes the first legal move; the seq after it."""

    def move() -> int:
        match.refresh_from_db()
        engine = games.get(match.game)
        state = load_state(match)
        seat = engine.to_move(state)
        action = engine.auto_action(state, seat)
        services.match_play(user=user, table_id=match.table.public_id, seq=match.seq, action=action)
        match.refresh_from_db()
        return match.seq

    return await database_sync_to_async(move)()


async def test_a_watcher_of_a_rated_table_sees_it_late_and_without_hands(users, settings):
    settings.WATCH_DELAY_S = 1.0
    a, b, watcher = users[:3]

    def setup():
        table = make_table(a, "jakaro", {"players": 2})
        seat_humans(table, [a, b])
        return Match.objects.select_related("table").get(table=table, number=1)

    match = await database_sync_to_async(setup)()
    table_id = match.table.public_id
    player, ok, _ = await connect(a, table_id)
    assert ok
    watching, ok, _ = await connect(watcher, table_id)
    assert ok
    assert (await watching.receive_json_from(timeout=TIMEOUT))["type"] == "hello"
    # The first state itself is held back.
    assert await watching.receive_nothing(timeout=0.5)
    first = await next_state(watching)
    assert first["view"]["hand"] is None and first["you"]["seat"] is None
    await next_state(player)
    seq = await first_move(match, a)
    # The players have the move at once; the watcher a moment later, and in order.
    while (await next_state(player))["match"]["seq"] < seq:
        pass
    assert await watching.receive_nothing(timeout=0.5)
    late = await next_state(watching)
    assert late["match"]["seq"] == seq and late["view"]["hand"] is None
    # The page itself shows a delayed watcher no game, and says why.
    page = await database_sync_to_async(_page)(watcher, table_id)
    assert 'data-testid="watch-delay"' in page
    for comm in (player, watching):
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()


def _page(user, table_id: str) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/majlis/t/{table_id}/").content.decode()


async def test_a_free_table_with_a_bot_is_watched_as_it_is(users, settings):
    settings.WATCH_DELAY_S = 30.0
    a, watcher = users[:2]

    def setup():
        table = make_table(a, "jakaro", {"players": 2})
        seat_humans(table, [a])
        services.seat_add_bot(user=a, table_id=table.public_id, number=1)
        return table

    table = await database_sync_to_async(setup)()
    watching, ok, _ = await connect(watcher, table.public_id)
    assert ok
    state = await next_state(watching)  # at once: 30 s would time this out
    assert state["match"]["status"] == "playing"
    await watching.disconnect()
    await database_sync_to_async(connections.close_all)()


async def test_a_seated_players_second_tab_is_the_same_seat_and_sees_no_more(users, settings):
    settings.WATCH_DELAY_S = 30.0  # a watcher would be held back: the second tab is not one
    a, b = users[:2]

    def setup():
        table = make_table(a, "jakaro", {"players": 2})
        seat_humans(table, [a, b])
        return table

    table = await database_sync_to_async(setup)()
    first, ok, _ = await connect(a, table.public_id)
    assert ok
    second, ok, _ = await connect(a, table.public_id, query="x=2")
    assert ok
    one, two = await next_state(first), await next_state(second)
    assert one["you"] == two["you"] and one["you"]["seat"] == 0
    assert one["view"] == two["view"]
    theirs = set(
        (await database_sync_to_async(_their_hand)(table, 1)) or []
    )  # the other seat's cards, from the server's own state
    assert theirs and not theirs & set(json.dumps(two).split('"'))
    for comm in (first, second):
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()


def _their_hand(table, seat: int) -> list[str]:
    match = Match.objects.get(table=table, number=1)
    return list(load_state(match).hands[seat])


def test_the_shared_part_is_drawn_once_per_change_for_every_viewer(users, monkeypatch):
    """Every viewer of a table (two players, two watchers) is sent the same shared part of a
    change, drawn once per process, language and digit style (games/frames.py); each viewer's
    own head says whose page it is, with the server time of their own state; and the frames
    are what frames.state_fragment draws for each alone."""
    import time

    from games import frames, selectors
    from tests.tables.helpers import make_table, seat_humans

    a, b, w1, w2 = users[:4]
    table = make_table(a, "hand", {"players": 2})
    seat_humans(table, [a, b])
    pairs = [selectors.table_states(table, u) for u in (a, b, w1, w2)]
    drawn = []
    real = frames.draw_shared
    monkeypatch.setattr(frames, "draw_shared", lambda *args: drawn.append(1) or real(*args))
    change = (table.pk, pairs[0][0]["match"]["id"], time.time())
    parts = [frames.shared_part(change, lambda p=p: p[1], "ar", None) for p in pairs]
    assert len(drawn) == 1 and all(part is parts[0] for part in parts)
    assert 'data-testid="my-cards"' not in parts[0].text  # nobody's cards in the shared part
    for user, (state, _shared) in zip((a, b, w1, w2), pairs, strict=True):
        own = frames.own_parts(state, "ar", None).text()
        whole = parts[0].text + own + frames.chat_part(state, "ar", None)
        # The same text as the viewer's frame drawn alone from the same change.
        assert whole == frames.state_fragment(state, pairs[0][1], "ar")
        seat = state["you"]["seat"]
        assert (f'data-you-seat="{seat}"' in own) == (seat is not None), user
        assert f'data-now="{state["now"]}"' in own or state["match"]["status"] != "playing"
    drawn.clear()
    frames.shared_part(change, lambda: pairs[0][1], "ar", None)
    assert drawn == []  # kept
    frames.shared_part(change, lambda: pairs[0][1], "en", None)
    assert len(drawn) == 1  # another language is another drawing


async def test_an_arabic_watchers_jakaro_frames_name_nobody_as_none(users, settings):
    """Issue 57 item 23: a watcher of a Jakaro table, reading Arabic, was sent «ورقة عشوائية من
    أوراق None» (the Ten's burn button, drawn for the seat after theirs: a watcher has none) in
    nearly every frame. Every HTML frame a watcher gets, rebuilt from its deltas, names no None
    and offers no burn."""
    from channels.testing import WebsocketCommunicator

    from realtime import delta
    from sahrat_site.asgi import application
    from tests.tables.helpers import advance_until
    from tests.tables.test_consumers import _cookie

    settings.WATCH_DELAY_S = 30.0
    a, watcher = users[:2]

    def setup():
        watcher.language = "ar"
        watcher.save(update_fields=["language"])
        table = make_table(a, "jakaro", {"players": 2})
        seat_humans(table, [a])
        services.seat_add_bot(user=a, table_id=table.public_id, number=1)
        return table, Match.objects.get(table=table, status=Match.Status.PLAYING)

    table, match = await database_sync_to_async(setup)()
    cookie = await database_sync_to_async(_cookie)(watcher)
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie)]
    page = WebsocketCommunicator(application, f"/ws/table/{table.public_id}/", headers)
    assert (await page.connect(timeout=TIMEOUT))[0]
    frames = [await page.receive_from(timeout=TIMEOUT)]
    start = match.seq
    await database_sync_to_async(advance_until)(match, lambda m: m.seq >= start + 12)
    # A chat line written after the moves: the frame holding it is the last one read (no quiet
    # spell taken for "nothing more came"), and every frame before it is checked.
    await database_sync_to_async(services.chat_post)(
        user=a, table_id=table.public_id, text="qwzmarker"
    )
    while "qwzmarker" not in frames[-1]:
        frames.append(await page.receive_from(timeout=TIMEOUT))
    await page.disconnect()
    await database_sync_to_async(connections.close_all)()
    shown, drawn = None, []
    for frame in frames:
        if frame.startswith('{"delta":'):
            shown = delta.rebuild(shown, frame)
        elif frame.startswith('<section id="table-live"'):
            shown = frame
        else:
            continue
        drawn.append(shown)
    assert len(drawn) > 5 and 'id="jakaro"' in drawn[-1] and "الطاولة" in drawn[-1]
    assert "qwzmarker" in drawn[-1]
    for html in drawn:
        assert "None" not in html
        assert "ورقة عشوائية من أوراق" not in html and "data-jk-burn" not in html


async def test_a_delayed_watchers_own_line_shows_to_them_at_once_and_late_to_others(
    users, settings
):
    """Issue 57, item 12: at a coin table a watcher's own chat line showed to its writer only
    with the table, WATCH_DELAY_S late (it looked lost). The writer sees it at once, in the
    picture they already had (no newer move of the game); the other watcher only with the
    table, in a frame that holds the move made before the line."""
    settings.WATCH_DELAY_S = 1.0  # the watchers' first states come quickly...
    a, b, writer, other = users[:4]

    def setup():
        table = make_table(a, "jakaro", {"players": 2}, stake=10)
        seat_humans(table, [a, b])
        return Match.objects.select_related("table").get(table=table, number=1)

    match = await database_sync_to_async(setup)()
    table_id = match.table.public_id
    watchers = []
    for user in (writer, other):
        comm, ok, _ = await connect(user, table_id)
        assert ok
        watchers.append(comm)
    seen = [await next_state(comm) for comm in watchers]
    assert all(s["you"]["seat"] is None for s in seen)
    settings.WATCH_DELAY_S = 15.0  # ...and from now on anything else comes 15 s late
    seq = await first_move(match, a)  # a move the watchers may not see yet
    assert seq > seen[0]["match"]["seq"]
    await watchers[0].send_json_to({"type": "chat", "text": "مبروك مقدمًا"})
    mine = await next_state(watchers[0])  # at once, not 15 s late: its seq shows which
    assert [line["text"] for line in mine["chat"]] == ["مبروك مقدمًا"]
    assert mine["chat"][0]["watchers"] is True
    assert mine["match"]["seq"] == seen[0]["match"]["seq"]  # still the picture they had
    assert mine["view"] == seen[0]["view"]
    # The other watcher: every frame up to the first that holds the line (the table's, late:
    # TIMEOUT, 30 s, is well above the 15 s), which holds the move made before it too.
    while True:
        theirs = await next_state(watchers[1])
        if "مبروك مقدمًا" in [line["text"] for line in theirs["chat"]]:
            break
    assert theirs["match"]["seq"] >= seq
    for comm in watchers:
        await comm.disconnect()
    await database_sync_to_async(connections.close_all)()


async def test_a_delayed_watchers_own_line_stays_until_a_frame_of_the_table_holds_it(
    users, settings, monkeypatch
):
    """Review of issue 57, item 12: a delayed watcher's own line was dropped WATCH_DELAY_S + 1 s
    after it was written, whether or not a frame of the table had brought it by then; with the
    broadcast lost (or queued late on a busy server) it vanished for its writer. It stays until
    the table's frame holds it; at most OWN_KEPT of them, the oldest going first."""
    from games.consumers import TableConsumer
    from games.viewers import OWN_KEPT

    settings.WATCH_DELAY_S = 0.2
    settings.CHAT_MAX_IN_WINDOW = 20  # more lines than the rate limit lets through in 10 s
    a, b, writer = users[:3]

    def setup():
        table = make_table(a, "jakaro", {"players": 2}, stake=10)
        seat_humans(table, [a, b])
        return table

    table = await database_sync_to_async(setup)()
    comm, ok, _ = await connect(writer, table.public_id)
    assert ok
    first = await next_state(comm)
    assert first["you"]["seat"] is None

    async def lost(self, event):  # the channel layer loses every broadcast of the table
        return None

    monkeypatch.setattr(TableConsumer, "table_changed", lost)
    await comm.send_json_to({"type": "chat", "text": "line 0"})
    assert [x["text"] for x in (await next_state(comm))["chat"]] == ["line 0"]
    # The premise: the old fixed time (WATCH_DELAY_S + 1 s) passes with no frame of the table
    # holding the line. Nothing is awaited here but time itself.
    await asyncio.sleep(settings.WATCH_DELAY_S + 1.5)
    shown = []
    for n in range(1, OWN_KEPT + 1):
        await comm.send_json_to({"type": "chat", "text": f"line {n}"})
        shown.append([x["text"] for x in (await next_state(comm))["chat"]])
    assert shown[0] == ["line 0", "line 1"]  # the first line is still there for its writer
    assert shown[-1] == [f"line {n}" for n in range(1, OWN_KEPT + 1)]  # bounded: oldest gone
    monkeypatch.undo()
    # A frame of the table comes (another line, broadcast again): it holds every line.
    await database_sync_to_async(services.chat_post)(
        user=a, table_id=table.public_id, text="marker"
    )
    while True:
        chat = [x["text"] for x in (await next_state(comm))["chat"]]
        if "marker" in chat:
            break
    assert chat == [f"line {n}" for n in range(OWN_KEPT + 1)] + ["marker"]
    await comm.disconnect()
    await database_sync_to_async(connections.close_all)()


async def test_a_delayed_watchers_own_line_survives_a_table_frame_sent_late(
    users, settings, monkeypatch
):
    """Review of issue 57, item 12: the table's frames to a delayed watcher can go out later than
    due on a busy server. Read before the watcher wrote, such a frame does not hold their line;
    sent more than a second late it used to drop the line (kept WATCH_DELAY_S + 1 s only), which
    vanished for its writer. Here the consumer's clock jumps on (the server was busy), so the
    move's frame queued before the line goes out late: every frame after the line holds it."""
    import games.consumers

    settings.WATCH_DELAY_S = 2.0
    a, b, writer = users[:3]

    def setup():
        table = make_table(a, "jakaro", {"players": 2}, stake=10)
        seat_humans(table, [a, b])
        return Match.objects.select_related("table").get(table=table, number=1)

    match = await database_sync_to_async(setup)()
    table_id = match.table.public_id
    comm, ok, _ = await connect(writer, table_id)
    assert ok
    first = await next_state(comm)
    assert first["you"]["seat"] is None
    await first_move(match, a)  # its frame waits its time in the watcher's queue
    await comm.send_json_to({"type": "chat", "text": "مبروك مقدمًا"})
    mine = await next_state(comm)
    assert [x["text"] for x in mine["chat"]] == ["مبروك مقدمًا"]
    jump = [5.0]  # the server was busy for five seconds: the queued frames are all late now
    real = time.monotonic
    monkeypatch.setattr(
        games.consumers, "time", SimpleNamespace(monotonic=lambda: real() + jump[0], time=time.time)
    )
    await database_sync_to_async(services.chat_post)(user=a, table_id=table_id, text="marker")
    frames = []
    while not frames or "marker" not in [x["text"] for x in frames[-1]["chat"]]:
        frames.append(await next_state(comm))  # up to the frame holding the marker, sent last
    for frame in frames:
        assert "مبروك مقدمًا" in [x["text"] for x in frame["chat"]], frame["match"]["seq"]
    await comm.disconnect()
    await database_sync_to_async(connections.close_all)()
