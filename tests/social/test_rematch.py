"""Playing again: after a match, those who say "ready" within REMATCH_SECONDS keep their seats
and the others' seats open to anyone (the clock moved); the deal moves on (every player one seat
back) after a match played out, not after a cancelled one; the chain of matches at a table shows on
each match's Verify page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import frames, rendering, selectors, services
from games.models import Match, MatchSeed, Seat
from social import invitations
from tests.social.test_services import befriend
from tests.standing.test_rebuild import bots_play_to_the_end
from tests.tables.helpers import make_table, seat_humans, seed_for, sit_at

pytestmark = pytest.mark.django_db


def ready(user, match: Match) -> None:
    services.table_ready(
        user=user,
        table_id=match.table.public_id,
        seed=seed_for(user.pk + 100),
        commitment=match.commitment,
        match_id=match.public_id,
    )


def test_who_does_not_play_again_in_time_gives_the_seat_up(users, settings):
    settings.REMATCH_SECONDS = 60
    a, b, c = users[:3]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    first = bots_play_to_the_end(Match.objects.get(table=table, number=1))
    second = Match.objects.get(table=table, number=2)
    assert second.status == "waiting"
    ready(a, second)
    assert services.rematch_lapsed() == []  # within the minute: every seat kept
    Match.objects.filter(pk=first.pk).update(ended_at=timezone.now() - timedelta(seconds=61))
    lapsed = services.rematch_lapsed()
    assert lapsed == [Seat.objects.get(table=table, user=b).pk]
    assert services.seat_lapse(seat_id=lapsed[0])
    assert not services.seat_lapse(seat_id=lapsed[0])  # once
    seats = {s.number: s.user_id for s in Seat.objects.filter(table=table)}
    assert seats == {0: None, 1: a.pk}  # the deal moved on: a went from seat 0 to seat 1
    # Anyone may sit now; the next match starts, and the chain shows on the Verify pages.
    sit_at(table, c, 0)
    second.refresh_from_db()
    assert second.status == "playing"
    before = Client().get(f"/verify/m/{first.public_id}/").content.decode()
    assert f'href="/verify/m/{second.public_id}/"' in before
    after = Client().get(f"/verify/m/{second.public_id}/").content.decode()
    assert f'href="/verify/m/{first.public_id}/"' in after


@pytest.mark.parametrize("game", ["hand", "jakaro"])
def test_the_deal_moves_on_to_the_player_who_started_and_partners_stay_partners(users, game):
    a, b, c, d = users[:4]
    options = {"players": 4, "partners": True} if game == "hand" else {"players": 4}
    table = make_table(a, game, options)
    seat_humans(table, [a, b, c, d])
    first = Match.objects.get(table=table, number=1)
    engine = selectors.game_of(first)
    # d deals match 1, a starts.
    assert engine.spectator_view(selectors.load_state(first))["dealer"] == 3
    services.chat_post(user=a, table_id=table.public_id, text="ours", team=True)
    bots_play_to_the_end(first)
    second = Match.objects.get(table=table, number=2)
    seats = {s.number: s.user_id for s in Seat.objects.filter(table=table)}
    # Each player one seat back: a (who started) deals now, b starts; the order around the
    # table is the same, so a and c are still partners (seats 3 and 1), as are b and d.
    assert seats == {0: b.pk, 1: c.pk, 2: d.pk, 3: a.pk}
    # Until the next match starts the one played stays on the table as it was: each player
    # sees it from the seat they played it in, every seat by the name it had.
    table.refresh_from_db()
    first.refresh_from_db()
    state = selectors.table_state(table, a)
    assert state["you"]["seat"] == 3 and state["you"]["view_seat"] == 0
    assert state["view"] == engine.view(selectors.load_state(first), 0)
    context = rendering.table_context(state)
    if game == "hand":  # the players round the felt, as they sat
        felt = {row["seat"]: row["name"] for row in context["game_view"]["others"]}
        name = {u.pk: u.display_name or u.username for u in (a, b, c, d)}
        assert felt == {0: name[a.pk], 1: name[b.pk], 2: name[c.pk], 3: name[d.pk]}
    # The page turns the table for the seat a played it in (the own head's data-view-seat).
    assert context["view_you"] == 0 and 'data-view-seat="0"' in frames.state_fragment(
        *selectors.table_states(table, a), "en"
    )
    # The team's chat follows the team to its new seats: a and c read it, b and d never.
    for player, reads in ((a, True), (b, False), (c, True), (d, False)):
        lines = [line["text"] for line in selectors.table_state(table, player)["chat"]]
        assert ("ours" in lines) is reads
    for player in (a, b, c, d):
        ready(player, second)
    second.refresh_from_db()
    assert second.status == "playing"
    view = engine.spectator_view(selectors.load_state(second))
    assert view["dealer"] == 3 and seats[view["dealer"]] == a.pk
    # Each seed is kept under the seat its player holds in this match (what Verify replays).
    kept = dict(MatchSeed.objects.filter(match=second).values_list("seat", "user_id"))
    assert kept == seats


def test_a_bots_seating_entry_says_where_it_sits_now_like_a_persons(users):
    """Issue 57 item 20: between matches ``shown.seating`` gives a bot its ``now`` too (it moved
    one seat back like everyone); null stays for one who left the table."""
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 4})
    seat_humans(table, [a, b])
    for number in (2, 3):
        services.seat_add_bot(user=a, table_id=table.public_id, number=number, level="easy")
    Seat.objects.filter(table=table, number=3).update(bot_level="strong")
    bots_play_to_the_end(Match.objects.get(table=table, number=1))
    seats = {s.number: (s.user_id, s.is_bot, s.bot_level) for s in Seat.objects.filter(table=table)}
    # Everyone one seat back: the easy bot from seat 2 to 1, the strong one from 3 to 2.
    assert seats[1] == (None, True, "easy") and seats[2] == (None, True, "strong")
    seating = selectors.table_state(table, a)["shown"]["seating"]
    assert [(r["bot"], r["now"]) for r in seating] == [(False, 3), (False, 0), (True, 1), (True, 2)]
    assert "row" not in seating[2] and "user" not in seating[2]  # kept on the server
    # The page draws the played match from it as before (each seat by the name it had).
    assert 'data-testid="result"' in frames.state_fragment(*selectors.table_states(table, b), "en")
    # One who left the table: null (b stands up before the next match).
    services.seat_leave(user=b, table_id=table.public_id)
    seating = selectors.table_state(table, a)["shown"]["seating"]
    assert [r["now"] for r in seating] == [3, None, 1, 2]


def test_a_bots_seating_entry_saved_without_its_row_says_nothing_of_where_it_is(users):
    """A match saved before the bots' entries kept their seat's row: a bot is not found, so its
    ``now`` is null (not the first person's seat, which a missing row once matched)."""
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 4})
    seat_humans(table, [a, b])
    for number in (2, 3):
        services.seat_add_bot(user=a, table_id=table.public_id, number=number, level="easy")
    match = bots_play_to_the_end(Match.objects.get(table=table, number=1))
    match.refresh_from_db()
    old = [{k: v for k, v in r.items() if k != "row"} for r in match.seating]
    Match.objects.filter(pk=match.pk).update(seating=old)
    seating = selectors.table_state(table, a)["shown"]["seating"]
    assert [(r["bot"], r["now"]) for r in seating] == [
        (False, 3),
        (False, 0),
        (True, None),
        (True, None),
    ]


def test_a_cancelled_match_does_not_move_the_deal(users):
    a, b = users[:2]
    table = make_table(a, "hand", {"players": 2})
    seat_humans(table, [a, b])
    services.match_abort(match_id=Match.objects.get(table=table, number=1).pk)
    seats = {s.number: s.user_id for s in Seat.objects.filter(table=table)}
    assert seats == {0: a.pk, 1: b.pk}


def test_the_end_screen_asks_to_play_again_in_time(users):
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    bots_play_to_the_end(Match.objects.get(table=table, number=1))
    client = Client()
    client.force_login(a)
    html = client.get(f"/majlis/t/{table.public_id}/").content.decode()
    assert 'data-testid="play-again-note"' in html and 'data-testid="ready"' in html


def test_a_player_who_declines_to_play_again_frees_the_seat_for_an_invited_friend(users):
    a, b, c = users[:3]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    bots_play_to_the_end(Match.objects.get(table=table, number=1))
    second = Match.objects.get(table=table, number=2)
    ready(a, second)
    services.seat_leave(user=b, table_id=table.public_id)  # b does not play again
    assert {s.number: s.user_id for s in Seat.objects.filter(table=table)} == {0: None, 1: a.pk}
    # a invites a friend to the seat b left; the friend accepts and sits with their own seed.
    befriend(a, c)
    made = invitations.invite(user=a, username=c.username, table_id=table.public_id)
    invitations.answer(user=c, invitation_id=made.pk, accept=True)
    sit_at(table, c, 0)
    second.refresh_from_db()
    assert second.status == "playing"
    assert dict(MatchSeed.objects.filter(match=second).values_list("seat", "user_id")) == {
        0: c.pk,
        1: a.pk,
    }


@pytest.mark.django_db(transaction=True)
def test_a_page_opening_while_the_players_move_one_seat_counts_on_the_new_seat(users):
    """A socket opens while a match's end moves the players (its seat lookup waits for the
    seat's lock and finds the row holds someone else now): it counts on the seat the player
    holds after the move, not nowhere."""
    import threading

    from django.db import connection, transaction
    from django.utils import timezone

    from games.services import play

    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    Seat.objects.filter(table=table).update(connected=0, away_since=timezone.now())
    done = threading.Event()

    def open_a_page() -> None:
        try:
            services.seat_connected(user=a, table_id=table.public_id, process="page-1")
        finally:
            connection.close()
            done.set()

    with transaction.atomic():
        play._move_the_deal_on(table)  # holds every seat's lock until the block ends
        page = threading.Thread(target=open_a_page)
        page.start()
        assert not done.wait(1.0)  # it waits for the seats' locks
    page.join(20)
    assert done.is_set()
    moved = Seat.objects.get(table=table, user=a)
    assert moved.number == 1 and moved.connected == 1 and moved.away_since is None
