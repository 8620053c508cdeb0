"""Ratings written as matches end, through the games' own services (standing/services.py
called by end_match): exactly once, unrated with a bot from the start, a leaver last and
their partner unchanged, and a rebuild that gives back every stored value."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import Match
from standing import ratings
from standing.models import MatchRecord, PlayerStanding, RatedMatch, Rating, RatingChange
from standing.selectors import head_to_head
from standing.services import match_ended, rate_match, rebuild
from standing.services.records import recount
from tests.tables.helpers import first_moves, make_table, play_out, seat_humans
from wallet import services as wallet_services
from wallet.models import Transfer

pytestmark = pytest.mark.django_db


def played(users, game: str, options: dict, *, bot_seat: int | None = None) -> Match:
    """A match at a new table, the users seated (a bot at ``bot_seat`` from the start), played
    to its end by the server's time-outs."""
    table = make_table(users[0], game, options)
    humans = [u for i, u in enumerate(users) if i != bot_seat]
    if bot_seat is None:
        seat_humans(table, humans)
    else:
        seat_humans(table, humans)  # seats 0.. for the humans
        services.seat_add_bot(user=users[0], table_id=table.public_id, number=bot_seat)
    match = Match.objects.get(table=table, number=1)
    return play_out(match)


def played_start(users, game: str, options: dict) -> Match:
    """A match at a new table, the users seated, started."""
    table = make_table(users[0], game, options)
    seat_humans(table, users)
    return Match.objects.get(table=table, number=1)


def balance_of(user) -> int:
    return wallet_services.balance_of(user)


def rating(user, mode: str) -> Rating:
    return Rating.objects.get(user=user, mode=mode)


def test_a_finished_match_is_rated_once_and_the_winner_gains(users):
    match = played(users[:2], "jakaro", {"players": 2})
    record = RatedMatch.objects.get(match=match)
    assert record.rated and record.mode == "jakaro-2"
    winner = next(p["user"] for p in record.players if p["place"] == 1)
    loser = next(p["user"] for p in record.players if p["place"] == 2)
    assert Rating.objects.get(user_id=winner, mode="jakaro-2").mu > ratings.START_MU
    assert Rating.objects.get(user_id=loser, mode="jakaro-2").mu < ratings.START_MU
    assert RatingChange.objects.filter(rated_match=record).count() == 2
    # Again for the same match (a retry): nothing more.
    before = list(Rating.objects.order_by("id").values_list("mu", "sigma", "rated"))
    assert rate_match(match, match.table.seats.all()) is None
    assert list(Rating.objects.order_by("id").values_list("mu", "sigma", "rated")) == before
    assert RatingChange.objects.count() == 2


def test_a_bot_seated_from_the_start_makes_the_match_unrated(users):
    match = played(users[:2], "jakaro", {"players": 2}, bot_seat=1)
    record = RatedMatch.objects.get(match=match)
    assert not record.rated
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_leaver_ranks_last_and_their_partner_keeps_their_rating(users):
    table = make_table(users[0], "jakaro", {"players": 4})
    seat_humans(table, users[:4])
    match = first_moves(Match.objects.get(table=table, number=1), (0, 1, 2, 3))
    services.seat_forfeit(user=users[1], table_id=table.public_id)  # seat 1 leaves
    match = play_out(match)
    record = RatedMatch.objects.get(match=match)
    places = {p["seat"]: p["place"] for p in record.players}
    assert places[1] == max(places.values())
    assert rating(users[1], "jakaro-partners").mu < ratings.START_MU  # the leaver loses
    partner = rating(users[3], "jakaro-partners")  # seat 3: seat 1's partner
    assert (partner.mu, partner.sigma) == (ratings.START_MU, ratings.START_SIGMA)
    assert partner.rated == 1


def test_a_match_no_person_played_is_aborted_refunded_and_unrated(users):
    """Issue 57 item 2: both players sat and never moved (every turn a time-out): the match is
    aborted, not rated, the stakes go back through the ledger's refund, the secret is shown."""
    table = make_table(users[0], "jakaro", {"players": 2}, stake=10)
    for user in users[:2]:
        wallet_services.grant_starter(user=user)
    before = {u.pk: balance_of(u) for u in users[:2]}
    seat_humans(table, users[:2])
    assert balance_of(users[0]) == before[users[0].pk] - 10  # the stake is in the pot
    match = play_out(Match.objects.get(table=table, number=1), idle=(0, 1))
    assert match.status == Match.Status.ABORTED and match.end_reason == "unplayed"
    assert match.outcome is None and match.secret and match.revealed_at is not None
    assert match.actions.exclude(by="player").count() == match.seq > 0  # the log is kept
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()
    assert {u.pk: balance_of(u) for u in users[:2]} == before  # refunded in full
    assert Transfer.objects.filter(match=match, kind=Transfer.Kind.REFUND).count() == 2
    records = MatchRecord.objects.filter(match=match)
    assert {r.status for r in records} == {"aborted"} and all(r.coins == 10 for r in records)
    assert not PlayerStanding.objects.exclude(recent="").exists()  # no "finished" mark
    # The next match is open at the same table, the deal not moved on.
    assert Match.objects.get(table=table, number=2).status == Match.Status.WAITING


def test_a_player_who_made_no_move_is_not_rated_by_the_match(users):
    """Issue 57 item 2: three at a Hand table, seat 2 never moves: seats 0 and 1 are rated
    between themselves, seat 2 is not; with only one person moving, nobody is rated."""
    match = play_out(
        played_start(users[:3], "hand", {"players": 3, "partners": False, "rounds": 1}), idle=(2,)
    )
    assert match.status == Match.Status.FINISHED
    record = RatedMatch.objects.get(match=match)
    assert record.rated and [p["idle"] for p in record.players] == [False, False, True]
    assert set(RatingChange.objects.values_list("user_id", flat=True)) == {
        users[0].pk,
        users[1].pk,
    }
    assert not Rating.objects.filter(user=users[2]).exists()
    assert not MatchRecord.objects.get(match=match, user=users[2]).rated
    assert MatchRecord.objects.get(match=match, user=users[0]).rated
    assert rebuild()["changes_wrong"] == 0
    duel = play_out(played_start(users[3:5], "jakaro", {"players": 2}), idle=(1,))
    assert duel.status == Match.Status.FINISHED  # one person played it: not aborted
    assert not RatedMatch.objects.get(match=duel).rated
    assert not Rating.objects.filter(user__in=users[3:5]).exists()


def test_an_idle_players_win_is_recorded_but_not_counted(users):
    """Review of issue 57 item 2: a player who made no move of their own is unrated, and the win
    their stand-in's play (or the other's leaving) brings them is no win of theirs: their line
    says won False, their totals and the head-to-head count no win (docs/standing.md)."""
    match = first_moves(played_start(users[:2], "jakaro", {"players": 2}), (0,))
    services.seat_forfeit(user=users[0], table_id=match.table.public_id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome["places"][0] == [1, [1]]
    idle = MatchRecord.objects.get(match=match, user=users[1])
    assert idle.place == 1 and not idle.rated and not idle.won
    totals = PlayerStanding.objects.get(user=users[1]).totals["jakaro-2"]
    assert totals["played"] == 1 and totals["won"] == 0
    assert [(r["matches"], r["mine"], r["theirs"]) for r in head_to_head(users[1], users[0])] == [
        (1, 0, 0)
    ]
    assert [(r["matches"], r["mine"], r["theirs"]) for r in head_to_head(users[0], users[1])] == [
        (1, 0, 0)
    ]
    assert recount()["standings_wrong"] == 0


def test_the_rebuild_gives_back_every_stored_rating(users):
    played(users[:2], "jakaro", {"players": 2})
    played([users[1], users[0]], "jakaro", {"players": 2})
    played(users[:4], "jakaro", {"players": 4})
    found = rebuild()
    # jakaro-2: users 0 and 1; jakaro-partners: 0 to 3. (A Hand match played out by time-outs
    # takes a minute; the Hand's modes go through the same code: test_ratings.py test_modes.)
    assert found["matches"] == 3 and found["ratings"] == 2 + 4
    assert found["changes_wrong"] == 0 and found["ratings_wrong"] == 0
    call_command("standing_rebuild")  # exits 0
    # A stored value changed by hand is found.
    Rating.objects.filter(user=users[0], mode="jakaro-2").update(mu=30.0)
    assert rebuild()["ratings_wrong"] == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_matches_of_the_same_players_ending_at_once_lose_no_update(users):
    """Twenty finished matches of the same two players rated at the same moment from twenty
    threads (each its own PostgreSQL connection and transaction): every one is applied, one
    after the other on the locked rows, and the rebuild finds the same values."""
    import threading
    from types import SimpleNamespace

    from django.db import connection, transaction

    table = make_table(users[0], "jakaro", {"players": 2})
    outcome = {"places": [[1, [0]], [2, [1]]], "shares": {}, "teams": [[0], [1]]}
    matches = [
        Match.objects.create(
            table=table,
            number=n + 2,
            game="jakaro",
            options={"players": 2},
            commitment="c" * 64,
            secret="s" * 64,
            status=Match.Status.FINISHED,
            outcome=outcome,
            ended_at=timezone.now(),
        )
        for n in range(20)
    ]
    seats = [
        SimpleNamespace(number=i, user_id=users[i].pk, is_bot=False, left=False) for i in (0, 1)
    ]
    start = threading.Barrier(20)
    errors = []

    def end(match):
        try:
            start.wait()
            with transaction.atomic():
                match_ended(match, seats, finished=True)
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=end, args=(m,)) for m in matches]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert rating(users[0], "jakaro-2").rated == 20 == rating(users[1], "jakaro-2").rated
    assert RatingChange.objects.count() == 40
    assert MatchRecord.objects.count() == 40
    kept = PlayerStanding.objects.get(user=users[0])
    assert kept.recent == "F" * 20 and kept.totals["jakaro-2"]["played"] == 20
    assert kept.shown["jakaro-2"][0] == ratings.shown(
        rating(users[0], "jakaro-2").mu, rating(users[0], "jakaro-2").sigma
    )
    found = rebuild()
    assert found["matches"] == 20 and found["changes_wrong"] == 0 and found["ratings_wrong"] == 0


def test_the_profile_shows_each_rating_provisional_with_its_last_change(users, client):
    from django.urls import reverse

    client.force_login(users[0])
    empty = client.get(reverse("accounts:profile")).content.decode()
    assert 'data-testid="ratings"' in empty and "لا مباراة محسوبة بعد" in empty
    match = played(users[:2], "jakaro", {"players": 2})
    record = RatedMatch.objects.get(match=match)
    mine = RatingChange.objects.get(rated_match=record, user=users[0])
    change = ratings.shown(mine.mu_after, mine.sigma_after) - ratings.shown(
        mine.mu_before, mine.sigma_before
    )
    row = rating(users[0], "jakaro-2")
    page = client.get(reverse("accounts:profile")).content.decode()
    indic = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")  # the page's digits (Arabic profile)
    shown = str(ratings.shown(row.mu, row.sigma)).translate(indic)
    assert f"{shown}?" in page  # one match: still provisional
    sign = "+" if change > 0 else ""
    digits = str(change).translate(indic)
    assert f"{sign}{digits}" in page
    assert "جاكارو، لاعبان" in page


def test_a_players_public_page_shows_their_ratings_to_anyone(users, client):
    from django.urls import reverse

    played(users[:2], "jakaro", {"players": 2})
    page = client.get(reverse("accounts:player", args=[users[1].username]))
    assert page.status_code == 200  # no log-in needed
    text = page.content.decode()
    row = rating(users[1], "jakaro-2")
    assert str(ratings.shown(row.mu, row.sigma)) in text.translate(
        str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")
    )
    assert users[1].display_name in text and 'data-testid="ratings"' in text
    assert client.get(reverse("accounts:player", args=["nobody-here"])).status_code == 404
    # The player's own profile links to it.
    client.force_login(users[1])
    own = client.get(reverse("accounts:profile")).content.decode()
    assert reverse("accounts:player", args=[users[1].username]) in own
