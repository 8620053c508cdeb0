"""Seats whose player is away or gone: an away seat's turn is
short, a seat given up (away past the seat-keeping, or left from the table) is one code path,
played at once, its player named in the result and her wallet; a match the staff cancel says so.
Driven through games/services/, as the consumers and the Celery tasks drive it."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

import games
from games import frames, rendering, selectors, services
from games.models import Match, MatchAction, Seat
from games.services import TableError
from tests.tables.helpers import (
    advance_until,
    make_table,
    play_out,
    seat_humans,
    socket_closed,
    socket_opened,
)
from wallet import services as wallet_services

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = games.get("jakaro")


def _to_move(match: Match) -> int:
    match.refresh_from_db()
    return ENGINE.to_move(selectors.load_state(match))


def _play_for(match: Match, seat: int, user) -> None:
    """``user`` makes the move the bot would, through the player's own service."""
    state = selectors.load_state(match)
    action = ENGINE.bot_action(ENGINE.view(state, seat))
    services.match_play(user=user, table_id=match.table.public_id, seq=match.seq, action=action)
    match.refresh_from_db()


def _until_turn_of(match: Match, seat: int, users) -> None:
    """Moves by the other seat (a person, present) until it is ``seat``'s turn."""
    for _ in range(20):
        mover = _to_move(match)
        if mover == seat:
            return
        _play_for(match, mover, users[mover])
    raise AssertionError(f"seat {seat} never got the turn")


def _near(gap: timedelta, want: timedelta) -> bool:
    # A deadline is set from the time of the move's transaction, its log row's time a few
    # milliseconds apart.
    return abs(gap - want) < timedelta(seconds=0.5)


def _last_at(match: Match):
    return match.actions.order_by("-seq").values_list("at", flat=True).first() or match.started_at


def test_an_away_seats_turn_is_short_and_a_player_back_gets_the_turns_time_again(
    creator, users, settings
):
    settings.AWAY_TURN_SECONDS = 3
    table = make_table(creator, "jakaro", {"players": 2})
    turn = timedelta(seconds=table.turn_seconds)
    assert turn > timedelta(seconds=3)
    seat_humans(table, users[:2])
    tid = table.public_id
    for user in users[:2]:
        socket_opened(user, tid)
    match = Match.objects.get(table=table, number=1)
    mover = _to_move(match)
    full = match.deadline
    assert _near(full - _last_at(match), turn)

    # The player to move goes away mid-turn: the turn ends AWAY_TURN_SECONDS from now at most.
    socket_closed(users[mover], tid)
    match.refresh_from_db()
    assert match.deadline < full
    assert match.deadline <= timezone.now() + timedelta(seconds=3)
    # Back before it ran out: the turn's full time from its start again.
    socket_opened(users[mover], tid)
    match.refresh_from_db()
    assert _near(match.deadline - full, timedelta(0))

    # A turn that begins while its player is away is short from its start; the other (present)
    # keeps the whole turn time.
    socket_closed(users[mover], tid)
    match = advance_until(match, lambda m: _to_move(m) != mover)  # the away seat's time-out
    timed_out = match.actions.order_by("-seq").first()
    assert timed_out.seat == mover and timed_out.by == MatchAction.By.TIMEOUT
    assert _near(match.deadline - _last_at(match), turn)
    _until_turn_of(match, mover, users)
    assert _near(match.deadline - _last_at(match), timedelta(seconds=3))


def test_leaving_a_coin_match_gives_the_seat_up_played_at_once_and_named_as_left(
    creator, users, settings, client
):
    # Four players (two, one leaving, would end at once: test_forfeit_win.py).
    settings.BOT_DELAY = 0.2
    table = make_table(creator, "jakaro", {"players": 4}, stake=50)
    seat_humans(table, users[:4])
    tid = table.public_id
    for user in users[:4]:
        socket_opened(user, tid)
    match = Match.objects.get(table=table, number=1)
    leaver, stayer = users[0], users[1]

    services.seat_forfeit(user=leaver, table_id=tid)
    forfeited = timezone.now()  # the deadline it set, if her turn had come already, is before
    seat = Seat.objects.get(table=table, number=0)
    assert seat.left and seat.user_id == leaver.pk
    match.refresh_from_db()
    assert [(r["seat"], r["name"], r["why"]) for r in match.leavers] == [(0, "لاعب 0", "forfeit")]

    # Her seat is played at once: a bot's pause, not a turn time.
    # Counted from her leaving if the turn was hers already, else from the move that gave it to
    # her: a loaded machine's milliseconds between the last move and the leaving (this failed
    # once with a fixed 50 ms for them) are not the pause.
    _until_turn_of(match, 0, users)
    since = max(forfeited, _last_at(match))
    assert match.deadline <= since + timedelta(seconds=0.2 * 1.5)
    # Her own moves are refused now, with words she understands; and leaving twice, too.
    state = selectors.load_state(match)
    action = ENGINE.bot_action(ENGINE.view(state, 0))
    with pytest.raises(TableError) as refused:
        services.match_play(user=leaver, table_id=tid, seq=match.seq, action=action)
    assert refused.value.code == "left_match"
    assert "You left this match" in refused.value.message("en")
    with pytest.raises(TableError):
        services.seat_forfeit(user=leaver, table_id=tid)
    # Coming back does not undo it.
    socket_closed(leaver, tid)
    socket_opened(leaver, tid)
    assert Seat.objects.get(pk=seat.pk).left
    match.refresh_from_db()
    assert all(a.by == MatchAction.By.TIMEOUT for a in match.actions.filter(seat=0))

    match = play_out(match)
    # The stake stayed in the pot: those who stayed share the prize (pot 200, fee 20), her
    # partner taking the team's whole share if their team won.
    assert wallet_services.balance_of(leaver) == 450
    assert sum(wallet_services.balance_of(u) for u in users[1:4]) == 3 * 450 + 180
    # The seat is emptied when the match ends (and the others moved one seat back: the deal
    # moves on)...
    assert not Seat.objects.filter(table=table, user=leaver).exists()
    assert {s.number: s.user_id for s in Seat.objects.filter(table=table)} == {
        0: stayer.pk,
        1: users[2].pk,
        2: users[3].pk,
        3: None,
    }

    with translation.override("en"):
        # ...and still the result names her, marked as left, on everyone's page.
        for viewer in (stayer, leaver):
            context = rendering.table_context(selectors.table_state(table, viewer))
            names = [n for row in context["result"] for n in row["names"]]
            assert "لاعب 0 (left the match)" in names
            assert "seat 1" not in names
        state, shared = selectors.table_states(table, leaver)
        assert state["you"]["left"] is True
        html = frames.state_fragment(state, shared, "en")
        assert 'data-testid="you-left"' in html and "stays in the pot" in html
        assert 'data-testid="you-left"' not in frames.state_fragment(
            *selectors.table_states(table, stayer), "en"
        )

    # Her wallet's stake line names the match and says she left it.
    leaver.language = "en"
    leaver.save()
    client.force_login(leaver)
    page = client.get("/wallet/").content.decode()
    assert 'data-testid="left-line"' in page
    assert "you left this match (Jakaro, match 1): your stake stayed in the pot" in page
    client.force_login(stayer)
    assert 'data-testid="left-line"' not in client.get("/wallet/").content.decode()


def test_a_coin_seat_away_past_the_keeping_is_given_up_the_same_way(creator, users, settings):
    settings.BOT_DELAY = 0.2
    table = make_table(creator, "jakaro", {"players": 4}, stake=10)
    seat_humans(table, users[:4])
    tid = table.public_id
    for user in users[:4]:
        socket_opened(user, tid)
    match = Match.objects.get(table=table, number=1)
    _until_turn_of(match, 0, users)
    socket_closed(users[0], tid)
    seat = Seat.objects.get(table=table, number=0)
    Seat.objects.filter(pk=seat.pk).update(away_since=timezone.now() - timedelta(seconds=120))
    assert services.seats_expired() == [seat.pk]
    assert services.seat_expire(seat_id=seat.pk) is True
    seat.refresh_from_db()
    assert seat.left and not seat.bot_playing
    match.refresh_from_db()
    assert [(r["seat"], r["why"]) for r in match.leavers] == [(0, "away")]
    # Its turn, pending while it was kept, is now due after a bot's pause.
    assert match.deadline <= timezone.now() + timedelta(seconds=0.2 * 1.5 + 0.05)
    with translation.override("en"):
        context = rendering.table_context(selectors.table_state(table, users[1]))
        assert context["seats"][0]["label"] == "لاعب 0 (left the match)"


def test_a_player_back_while_her_seat_was_kept_is_warned_until_her_next_move(
    creator, users, settings
):
    settings.SEAT_KEEP_SECONDS = 60
    table = make_table(creator, "jakaro", {"players": 2}, stake=10)
    seat_humans(table, users[:2])
    tid = table.public_id
    for user in users[:2]:
        socket_opened(user, tid)
    match = Match.objects.get(table=table, number=1)
    _until_turn_of(match, 0, users)
    socket_closed(users[0], tid)
    # While away, the others see the seat kept, labelled as such (not a bare number).
    with translation.override("en"):
        html = frames.state_fragment(*selectors.table_states(table, users[1]), "en")
        assert 'data-testid="away-0"' in html and "away, seat kept" in html
        assert 'data-testid="turn-away"' in html  # her turn: short, and said so
    socket_opened(users[0], tid)
    assert Seat.objects.get(table=table, number=0).back_from is not None
    with translation.override("en"):
        mine = frames.state_fragment(*selectors.table_states(table, users[0]), "en")
        theirs = frames.state_fragment(*selectors.table_states(table, users[1]), "en")
    assert 'data-testid="back-notice"' in mine and "your stake stays in the pot" in mine
    assert 'data-testid="back-notice"' not in theirs
    _play_for(match, 0, users[0])
    assert Seat.objects.get(table=table, number=0).back_from is None
    mine = frames.state_fragment(*selectors.table_states(table, users[0]), "en")
    assert 'data-testid="back-notice"' not in mine


def test_players_are_told_the_staff_cancelled_the_match_and_their_stake_came_back(
    creator, users, client
):
    table = make_table(creator, "jakaro", {"players": 2}, stake=50)
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    services.match_abort(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.end_reason == "staff"
    with translation.override("en"):
        state, shared = selectors.table_states(table, users[0])
        assert state["shown"]["end_reason"] == "staff"
        html = frames.state_fragment(state, shared, "en")
    assert 'data-testid="cancelled"' in html
    assert "cancelled by the staff; every stake was returned" in html
    users[0].language = "en"
    users[0].save()
    client.force_login(users[0])
    page = client.get("/wallet/").content.decode()
    assert 'data-testid="cancelled-line"' in page and 'data-testid="unplayed-line"' not in page
    assert "the staff cancelled this match: your stake was returned" in page
    assert wallet_services.balance_of(users[0]) == 500


async def test_the_forfeit_frame_gives_the_seat_up_and_the_other_is_told(creator, users):
    """Over the JSON socket: ``forfeit`` during a match; refused before one starts and when
    sent twice, with words and nothing changed."""
    from channels.db import database_sync_to_async

    from tests.tables.test_consumers import connect, next_state

    def setup():
        # Four players: two, one leaving, would end the match at once (test_forfeit_win.py).
        table = make_table(creator, "jakaro", {"players": 4})
        seat_humans(table, users[:4])
        waiting = make_table(creator, "jakaro", {"players": 2})
        return table, waiting

    table, waiting = await database_sync_to_async(setup)()
    early, _, _ = await connect(users[0], waiting.public_id)
    await next_state(early)
    await early.send_json_to({"type": "forfeit"})
    refused = await early.receive_json_from(timeout=10)
    assert refused["type"] == "error" and refused["code"] == "not_playing"
    await early.disconnect()

    a, _, _ = await connect(users[0], table.public_id)
    b, _, _ = await connect(users[1], table.public_id)
    await next_state(a)
    await next_state(b)
    await a.send_json_to({"type": "forfeit"})
    while True:  # the other seat's state, once the seat is given up
        seen = await next_state(b)
        if seen["table"]["seats"][0]["left"]:
            break
    assert seen["match"]["leavers"] == [{"seat": 0, "name": "لاعب 0", "why": "forfeit"}]
    # docs/protocol.md names the same keys and reasons for a leaver's entry.
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    example = re.search(r'"leavers": \[\{([^]]*)\}\]', doc).group(1)
    assert set(re.findall(r'"(\w+)":', example)) == set(seen["match"]["leavers"][0])
    assert set(re.search(r'"why": "([^"]+)"', example).group(1).split("|")) == {"away", "forfeit"}
    assert seen["you"]["left"] is False
    while True:
        mine = await next_state(a)
        if mine["you"]["left"]:
            break
    await a.send_json_to({"type": "forfeit"})
    while True:
        frame = await a.receive_json_from(timeout=10)
        if frame["type"] == "error":
            break
    assert frame["code"] == "left_match" and frame["message"]
    for comm in (a, b):
        await comm.disconnect()
