"""The standing's pages through Django's test client, in Arabic and English: a player's page
(reputation, ratings with their chart, totals, statistics, head-to-head, the paginated history
with its Verify links, cancelled matches only in one's own), the leaderboards (who qualifies,
the viewer's own rank beyond the top), the lobby's minimum reputation and the seat's standing
at the table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Match
from standing import ratings
from standing.models import MatchRecord, PlayerStanding, Rating
from tests.standing.test_rebuild import bots_play_to_the_end
from tests.tables.helpers import make_table, seat_humans

pytestmark = pytest.mark.django_db


def finished(users, game="jakaro", options=None) -> Match:
    table = make_table(users[0], game, options or {"players": 2})
    seat_humans(table, users)
    return bots_play_to_the_end(Match.objects.get(table=table, number=1))


def ended_match(table, number: int, ended_at) -> Match:
    """A finished Jakaro match of ``table`` (no moves: a page reads only its history lines)."""
    return Match.objects.create(
        table=table,
        number=number,
        game="jakaro",
        options={"players": 2},
        commitment="0" * 64,
        secret="0" * 64,
        status=Match.Status.FINISHED,
        ended_at=ended_at,
    )


def page(user, url: str, lang: str = "ar") -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang  # a visitor's choice
    if user is not None:
        user.language = lang
        user.save(update_fields=["language"])
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_a_players_page_shows_their_standing_and_history(users):
    a, b = users[:2]
    first = finished([a, b])
    finished([a, b])
    html = page(a, f"/accounts/u/{a.username}/")
    assert 'data-testid="reputation"' in html and "١٠٠٪" in html  # Arabic digits and percent sign
    assert 'data-testid="chart-jakaro-2"' in html and "<polyline" in html
    assert "جاكارو" in html
    assert f'href="/verify/m/{first.public_id}/"' in html
    assert f'href="/verify/m/{first.public_id}/replay/"' in html
    assert html.count('class="history-row') == 2
    assert "الكرات التي أوصلتها للبيت" in html  # the game's statistics, in Arabic
    # The Verify link leads to the match's page.
    assert Client().get(f"/verify/m/{first.public_id}/").status_code == 200
    english = page(a, f"/accounts/u/{a.username}/", "en")
    assert "Finishes what they start" in english and "Marbles brought home" in english
    assert "Verify the shuffle" in english


def test_head_to_head_is_shown_to_another_signed_in_player(users):
    a, b = users[:2]
    finished([a, b])
    finished([a, b])
    won_a = MatchRecord.objects.filter(user=a, won=True).count()
    html = page(b, f"/accounts/u/{a.username}/", "en")
    assert 'data-testid="head-to-head"' in html
    assert f"Together: 2 matches. You won {2 - won_a}, they won {won_a}." in html
    assert 'data-testid="head-to-head"' not in page(a, f"/accounts/u/{a.username}/", "en")
    assert 'data-testid="head-to-head"' not in page(None, f"/accounts/u/{a.username}/", "en")


def test_head_to_head_counts_only_the_matches_both_sat_in_per_mode(users):
    """Issue 57 item 1: the other's wins against anyone else are not theirs against you, and
    someone you never played shows no head-to-head at all."""
    a, b, c = users[:3]
    for _ in range(20):  # a wins a match against c (a real shuffle: who wins is not fixed)
        finished([a, c])
        if MatchRecord.objects.filter(user=a, won=True).exists():
            break
    assert MatchRecord.objects.filter(user=a, won=True).exists()
    html = page(b, f"/accounts/u/{a.username}/", "en")
    assert 'data-testid="head-to-head"' not in html  # b never sat with a: nothing said
    duel = finished([a, b])
    trio = finished([a, b, c], "hand", {"players": 3, "partners": False})
    html = page(b, f"/accounts/u/{a.username}/", "en")
    assert 'data-testid="head-to-head"' in html
    assert 'data-testid="h2h-jakaro-2"' in html and 'data-testid="h2h-hand-solo"' in html
    assert 'data-testid="h2h-hand-partners"' not in html
    for match, mode in ((duel, "jakaro-2"), (trio, "hand-solo")):
        won_a = MatchRecord.objects.get(match=match, user=a).won
        won_b = MatchRecord.objects.get(match=match, user=b).won
        mine, theirs = int(won_b and not won_a), int(won_a and not won_b)
        line = html.split(f'data-testid="h2h-{mode}">')[1].split("</p>")[0]
        assert f"Together: 1 match. You won {mine}, they won {theirs}." in line, line
    arabic = page(b, f"/accounts/u/{a.username}/")
    assert "معًا: مباراة واحدة" in arabic


def test_cancelled_matches_are_in_ones_own_history_only(users):
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 2}, stake=10)
    seat_humans(table, [a, b])
    services.match_abort(match_id=Match.objects.get(table=table, number=1).pk)
    own = page(a, f"/accounts/u/{a.username}/", "en")
    assert "cancelled by the staff" in own and "refunded 10 coins" in own
    other = page(b, f"/accounts/u/{a.username}/", "en")
    assert "cancelled by the staff" not in other


def test_the_history_is_paginated(users):
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 2})
    now = timezone.now()
    for n in range(45):
        match = ended_match(table, n + 2, now - timedelta(minutes=n))
        for user, seat in ((a, 0), (b, 1)):
            MatchRecord.objects.create(
                user=user,
                match=match,
                game="jakaro",
                mode="jakaro-2",
                seat=seat,
                status="finished",
                place=seat + 1,
                won=seat == 0,
                ended_at=match.ended_at,
            )
    first = page(None, f"/accounts/u/{a.username}/", "en")
    assert first.count('class="history-row') == 20 and 'data-testid="older"' in first
    last = page(None, f"/accounts/u/{a.username}/?page=3", "en")
    assert last.count('class="history-row') == 5 and "page 3 of 3" in last


def test_the_rating_board_keeps_settled_active_players_and_shows_your_rank(django_user_model):
    now = timezone.now()
    people = [django_user_model.objects.create_user(f"r{i}") for i in range(60)]
    Rating.objects.bulk_create(
        [
            Rating(user=u, mode="hand-solo", mu=40 - i * 0.1, sigma=3, rated=25)
            for i, u in enumerate(people)
        ]
    )
    # Not on the board: too few matches, provisional, or nothing in the last 7 days.
    few, unsure, idle = (
        django_user_model.objects.create_user(n) for n in ("few", "unsure", "idle")
    )
    Rating.objects.create(user=few, mode="hand-solo", mu=50, sigma=3, rated=19)
    Rating.objects.create(user=unsure, mode="hand-solo", mu=50, sigma=7, rated=40)
    Rating.objects.create(user=idle, mode="hand-solo", mu=50, sigma=3, rated=40)
    Rating.objects.filter(user=idle).update(updated_at=now - timedelta(days=8))
    html = page(people[54], "/leaders/hand-solo/", "en")
    board = html.split('data-testid="board-rating"')[1].split("</section>")[0]
    assert board.count("<tr") == 51  # the head and the top 50
    for name in ("few", "ok", "idle"):
        assert f"/accounts/u/{name}/" not in board
    assert "Your rank: 55" in board
    top = page(people[0], "/leaders/hand-solo/", "en")
    assert 'class="you"' in top.split('data-testid="board-month"')[0]


def test_the_30_day_board_counts_wins_over_finished_and_left(users):
    cache.clear()  # the board is kept a minute: none from another test
    a, b = users[:2]
    table = make_table(a, "jakaro", {"players": 2})
    now = timezone.now()
    for n in range(16):
        match = ended_match(table, n + 2, now - timedelta(days=n))
        a_won = n % 4 != 0  # 12 of 16
        for user, won, left in ((a, a_won, False), (b, not a_won, n == 1)):
            MatchRecord.objects.create(
                user=user,
                match=match,
                game="jakaro",
                mode="jakaro-2",
                seat=0 if user == a else 1,
                status="finished",
                place=1 if won else 2,
                won=won and not left,
                left=left,
                ended_at=match.ended_at,
            )
    html = page(b, "/leaders/jakaro-2/", "en")
    month = html.split('data-testid="board-month"')[1]
    # 31 days back is out: a's 16 matches in 30 days are 16 (n = 0..15), 12 wins = 75 %.
    assert f"/accounts/u/{a.username}/" in month and "75%" in month
    assert "Your rank: 2" in month


def test_the_lobby_shows_a_minimum_reputation_and_bars_those_below(users):
    make_table(users[0], "jakaro", {"players": 2}, min_reputation=90)
    PlayerStanding.objects.create(user=users[3], recent="L" * 5 + "F" * 5)  # 50 %
    barred = page(users[3], "/majlis/", "en")
    assert 'data-testid="min-rep"' in barred
    assert "your reputation for finishing is below this table's" in barred
    assert 'data-open="0"' in barred
    welcome = page(users[1], "/majlis/", "en")
    assert 'data-open="1"' in welcome


def test_the_table_shows_each_players_rating_and_reputation(users):
    a, b = users[:2]
    finished([a, b])
    table = make_table(a, "jakaro", {"players": 2})
    seat_humans(table, [a, b])
    html = page(a, f"/majlis/t/{table.public_id}/", "en")
    assert 'data-testid="standing-0"' in html and 'data-testid="standing-1"' in html
    rating = Rating.objects.get(user=a, mode="jakaro-2")
    assert f"{ratings.shown(rating.mu, rating.sigma)}?" in html  # provisional after one match
    assert "100%" in html


def test_the_own_profile_shows_the_reputation_and_a_lock_out(users):
    PlayerStanding.objects.create(
        user=users[0], recent="F" * 9 + "L", locked_until=timezone.now() + timedelta(minutes=20)
    )
    html = page(users[0], "/accounts/profile/", "en")
    assert 'data-testid="reputation"' in html and "90%" in html
    assert 'data-testid="locked-out"' in html and "minutes" in html
    PlayerStanding.objects.filter(user=users[0]).update(locked_until=timezone.now())
    assert 'data-testid="locked-out"' not in page(users[0], "/accounts/profile/", "en")
