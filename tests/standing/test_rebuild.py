"""The rebuild after a few hundred matches of every mode: the players' moves chosen by the
engines' own bots from each seat's view, on the match's real shuffle (its secret and the seats'
seeds), logged, and the match ended by the services' one ending (coins, rating, history,
standing). Among them leavers (through the services' forfeit), bots seated from the start
(unrated) and matches the staff cancel. ``standing_rebuild`` must give back every stored rating
and every player's standing exactly."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction

from games import services
from games.models import Match, MatchAction
from games.selectors import game_of, load_state, random_source
from games.services import play
from standing.models import MatchRecord, PlayerStanding, Rating
from standing.services import rebuild, recount
from tests.tables.helpers import first_moves, make_table, seat_humans

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MODES = [
    ("hand", {"players": 2, "rounds": 1}, 2),
    ("hand", {"players": 3, "rounds": 1}, 3),
    ("hand", {"players": 4, "partners": True, "rounds": 1}, 4),
    ("jakaro", {"players": 2}, 2),
    ("jakaro", {"players": 4}, 4),
]
PER_MODE = 50


def bots_play_to_the_end(match: Match, idle: tuple[int, ...] = ()) -> Match:
    """Every remaining move chosen by the game's bot from the seat's own view (the server's
    steps as the server makes them), logged as the match's actions (a person's as their own
    move, except the seats in ``idle`` and those given up: their time-outs; a bot's as a
    bot's), then the match ended by ``end_match`` under its lock, as the last move's service
    would."""
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("table").get(pk=match.pk)
        seats = list(match.table.seats.order_by("number"))
        engine = game_of(match)
        state, rng = load_state(match), random_source(match)
        logged = []
        while (result := engine.outcome(state)) is None:
            text = engine.server_step(state)
            seat = None if text is not None else engine.to_move(state)
            if text is None:
                text = engine.bot_action(engine.view(state, seat))
            text = engine.canonical(seat, text)
            new = engine.apply(state, seat, text, rng)
            play._add_tally(match, engine.tally(state, new))
            match.seq += 1
            by = MatchAction.By.SERVER
            if seat is not None and seats[seat].is_bot:
                by = MatchAction.By.BOT
            elif seat is not None:
                away = seats[seat].left or seat in idle
                by = MatchAction.By.TIMEOUT if away else MatchAction.By.PLAYER
            logged.append(MatchAction(match=match, seq=match.seq, seat=seat, action=text, by=by))
            state = new
        MatchAction.objects.bulk_create(logged)
        match.snapshot = engine.to_json(state)
        play.end_match(match, Match.Status.FINISHED, outcome=result)
    return match


def test_a_few_hundred_matches_rebuild_to_the_stored_ratings_and_standing(users):
    people = users + [get_user_model().objects.create_user(f"more-{i}") for i in range(4)]
    rotation = itertools.cycle(range(len(people)))
    played = 0
    for game, options, n in MODES:
        for k in range(PER_MODE):
            start = next(rotation)
            seated = [people[(start + i) % len(people)] for i in range(n)]
            bot_seat = n - 1 if k % 9 == 4 else None
            table = make_table(seated[0], game, options)
            seat_humans(table, seated[: n - 1] if bot_seat is not None else seated)
            if bot_seat is not None:
                services.seat_add_bot(user=seated[0], table_id=table.public_id, number=bot_seat)
            match = Match.objects.get(table=table, number=1)
            if k % 11 == 5:
                services.match_abort(match_id=match.pk)
                continue
            if k % 7 == 3:
                # The people move once first (a match nobody played is aborted, issue 57); a
                # two-player match a person leaves then ends at once, won by forfeit.
                match = first_moves(match, range(n))
                services.seat_forfeit(user=seated[k % (n - 1)], table_id=table.public_id)
                # Leaving again within a day locks a player out (tested on its own): lifted
                # here, so the same few players can go on playing.
                PlayerStanding.objects.update(locked_until=None)
                match.refresh_from_db()
            if match.status == Match.Status.PLAYING:
                # Now and then a person makes no move of their own (issue 57: not rated).
                match = bots_play_to_the_end(match, idle=(1,) if k % 13 == 7 else ())
            assert match.status == Match.Status.FINISHED
            played += 1
    assert played >= 200
    assert MatchRecord.objects.filter(status="aborted").exists()
    assert MatchRecord.objects.filter(left=True).exists()
    assert MatchRecord.objects.filter(status="finished", rated=False).exists()
    assert {r.mode for r in Rating.objects.all()} == {
        "hand-solo",
        "hand-partners",
        "jakaro-2",
        "jakaro-partners",
    }
    assert max(Rating.objects.values_list("rated", flat=True)) >= 20
    found = {**rebuild(), **recount()}
    assert found["changes_wrong"] == found["ratings_wrong"] == found["standings_wrong"] == 0
    assert found["standings"] == len(people) and found["records"] > played
    # The stored statistics are the games' own: each Jakaro winner brought its marbles home
    # (where nobody left: a leaver's bot may bring them home and still rank last).
    winners = MatchRecord.objects.filter(mode="jakaro-2", won=True).exclude(
        match__records__left=True
    )
    assert winners.exists() and all(r.stats.get("home", 0) >= 4 for r in winners)
    assert PlayerStanding.objects.exclude(recent="").count() == len(people)
    call_command("standing_rebuild")  # exits 0
