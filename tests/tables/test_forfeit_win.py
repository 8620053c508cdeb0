"""Issue 57 item 3: when every other side's players have given their seats up, the side still
seated wins at once (rated, paid as docs/wallet.md says) instead of playing out a stand-in's
time-outs; a side with someone still playing, a person or a bot seated from the start, plays on.
And a forfeit before any person moved ends as a match nobody played (item 2): aborted, refunded.
Driven through games/services/, as the socket's ``forfeit`` frame and the seat-keeping task do."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games import frames, rendering, selectors, services
from games.models import Match, Seat
from standing.models import MatchRecord, RatingChange
from tests.tables.helpers import first_moves, make_table, play_out, seat_humans
from tests.verify.test_standalone_export import run
from verify import audit
from verify import selectors as verify_selectors
from wallet import services as wallet_services
from wallet.models import Transfer

pytestmark = pytest.mark.django_db


def started(creator, users, game: str, options: dict, stake: int = 0) -> Match:
    table = make_table(creator, game, options, stake=stake)
    seat_humans(table, users)
    return Match.objects.get(table=table, number=1)


def test_two_players_one_leaves_the_other_wins_at_once_rated_and_paid(creator, users):
    match = started(creator, users[:2], "jakaro", {"players": 2}, stake=50)
    match = first_moves(match, (0, 1))
    seq = match.seq
    services.seat_forfeit(user=users[0], table_id=match.table.public_id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "forfeit"
    assert match.seq == seq  # nothing more was played for the one who left
    assert match.outcome["places"] == [[1, [1]], [2, [0]]]
    assert match.secret and match.revealed_at is not None
    # The stake stayed in the pot: the one who stayed takes the prize (pot 100, fee 10).
    assert wallet_services.balance_of(users[0]) == 450
    assert wallet_services.balance_of(users[1]) == 540
    assert Transfer.objects.filter(match=match, kind=Transfer.Kind.PAYOUT).count() == 1
    # Rated: the one who stayed won, the leaver lost.
    won = MatchRecord.objects.get(match=match, user=users[1])
    lost = MatchRecord.objects.get(match=match, user=users[0])
    assert won.won and won.rated and won.rating_change > 0
    assert lost.left and lost.rated and lost.rating_change < 0
    assert RatingChange.objects.filter(rated_match__match=match).count() == 2
    # The table opened again for the next match, and Verify still finds the log sound: the
    # replay is not over (the match ended before play did) and nothing is amiss.
    assert Match.objects.get(table=match.table, number=2).status == Match.Status.WAITING
    checks = verify_selectors.match_page(match)["checks"]
    assert checks and all(c["ok"] for c in checks), checks
    export = verify_selectors.match_export(match)  # what an auditor downloads
    assert export["end_reason"] == "forfeit" and audit.check_export(export) == []
    export["end_reason"] = None  # a result the log never reached is then found out
    assert [p["code"] for p in audit.check_export(export)] == ["outcome"]
    with translation.override("en"):
        context = rendering.table_context(selectors.table_state(match.table, users[1]))
        names = [n for row in context["result"] for n in row["names"]]
        assert "لاعب 0 (left the match)" in names and "لاعب 1" in names
        html = frames.state_fragment(*selectors.table_states(match.table, users[1]), "en")
        assert 'data-testid="forfeit-won"' in html


def test_a_hand_for_two_at_a_free_table_ends_the_same_way(creator, users):
    match = started(creator, users[:2], "hand", {"players": 2, "rounds": 1})
    match = first_moves(match, (0, 1))
    services.seat_forfeit(user=users[1], table_id=match.table.public_id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "forfeit"
    assert MatchRecord.objects.get(match=match, user=users[0]).won


def test_the_seat_keeping_giving_a_seat_up_ends_it_too(creator, users, settings):
    match = started(creator, users[:2], "jakaro", {"players": 2}, stake=10)
    match = first_moves(match, (0, 1))
    seat = Seat.objects.get(table=match.table, number=0)
    Seat.objects.filter(pk=seat.pk).update(away_since=timezone.now() - timedelta(seconds=600))
    assert services.seat_expire(seat_id=seat.pk) is True
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "forfeit"
    assert [(r["seat"], r["why"]) for r in match.leavers] == [(0, "away")]


def test_partners_win_at_once_only_when_both_of_the_other_side_are_gone(creator, users):
    match = started(creator, users[:4], "jakaro", {"players": 4})
    match = first_moves(match, (0, 1, 2, 3))
    tid = match.table.public_id
    services.seat_forfeit(user=users[1], table_id=tid)  # one of seats 1 and 3: play on
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    services.seat_forfeit(user=users[0], table_id=tid)  # one of each side gone: play on
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    services.seat_forfeit(user=users[3], table_id=tid)  # seats 1 and 3 both gone
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.end_reason == "forfeit"
    assert match.outcome["places"] == [[1, [0, 2]], [2, [1, 3]]]
    assert MatchRecord.objects.get(match=match, user=users[2]).won  # stayed: won
    assert not MatchRecord.objects.get(match=match, user=users[0]).won  # left: not


def test_a_bot_seated_from_the_start_plays_on_against_the_one_who_stayed(creator, users):
    table = make_table(creator, "hand", {"players": 3, "rounds": 1})
    seat_humans(table, users[:2])
    services.seat_add_bot(user=creator, table_id=table.public_id, number=2)
    match = first_moves(Match.objects.get(table=table, number=1), (0, 1))
    services.seat_forfeit(user=users[1], table_id=table.public_id)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING  # the bot is still a side against seat 0
    assert play_out(match).end_reason == ""


def test_a_forfeit_before_anyone_moved_cancels_the_match_and_refunds(creator, users, client):
    for user in users[:2]:
        wallet_services.grant_starter(user=user)
    match = started(creator, users[:2], "jakaro", {"players": 2}, stake=50)
    services.seat_forfeit(user=users[0], table_id=match.table.public_id)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.end_reason == "unplayed"
    assert wallet_services.balance_of(users[0]) == wallet_services.balance_of(users[1]) == 500
    assert not RatingChange.objects.exists()
    # The wallet says why the stake came back: nobody played (not the staff's cancelling).
    client.force_login(users[0])
    page = client.get("/wallet/").content.decode()
    assert 'data-testid="unplayed-line"' in page and 'data-testid="cancelled-line"' not in page


@pytest.mark.parametrize("first", [0, 1])
def test_both_seats_expiring_in_one_sweep_give_nobody_a_forfeit_win(creator, users, first):
    """Both players of a coin match dropped together: whichever seat the sweeper reaches first
    is given up, and the other, as absent, must not win the pot for it (review of item 3).
    Both are given up; the match is played out by time-outs, as before the forfeit win: nobody
    stayed, so the prize goes to the house (docs/wallet.md, rule 2)."""
    for user in users[:2]:
        wallet_services.grant_starter(user=user)
    match = started(creator, users[:2], "jakaro", {"players": 2}, stake=50)
    match = first_moves(match, (0, 1))
    gone = timezone.now() - timedelta(seconds=600)
    Seat.objects.filter(table=match.table).update(connected=0, away_since=gone)
    due = services.seats_expired()
    assert len(due) == 2
    order = sorted(due, key=lambda pk: Seat.objects.get(pk=pk).number != first)
    for pk in order:
        assert services.seat_expire(seat_id=pk) is True
    match.refresh_from_db()
    assert match.end_reason != "forfeit"
    assert sorted(r["seat"] for r in match.leavers) == [0, 1]
    match = play_out(match)
    assert match.status == Match.Status.FINISHED and match.end_reason == ""
    assert not MatchRecord.objects.filter(match=match, won=True).exists()
    assert wallet_services.balance_of(users[0]) == wallet_services.balance_of(users[1]) == 450
    assert not Transfer.objects.filter(match=match, kind=Transfer.Kind.PAYOUT).exists()


def test_a_forged_forfeit_result_is_a_mismatch_for_the_audit_and_the_verify_page(
    creator, users, tmp_path
):
    """A forfeit's result is checked, not taken on trust (review of item 3): the audit of the
    export and the Verify page recompute it from the game's teams and the seats given up."""
    match = started(creator, users[:2], "jakaro", {"players": 2})
    match = first_moves(match, (0, 1))
    services.seat_forfeit(user=users[0], table_id=match.table.public_id)
    match.refresh_from_db()
    export = verify_selectors.match_export(match)
    assert export["left_seats"] == [0] and audit.check_export(export) == []
    # The wrong winner: the one who left placed first with the whole prize.
    forged = {"places": [[1, [0]], [2, [1]]], "shares": {"0": "1", "1": "0"}, "teams": [[0], [1]]}
    assert [p["code"] for p in audit.check_export({**export, "outcome": forged})] == ["outcome"]
    # Claiming the other seat left instead does not make the forged result pass either way.
    swapped = {**export, "outcome": forged, "left_seats": [0, 1]}
    assert [p["code"] for p in audit.check_export(swapped)] == ["outcome"]
    # The standalone script says so, and finds it out with --replay (the server's audit).
    path = tmp_path / "forged.json"
    path.write_text(json.dumps({**export, "outcome": forged}))
    plain, replayed = run(path), run(path, "--replay")
    assert plain.returncode == 0 and "won by forfeit" in plain.stdout
    assert replayed.returncode == 1 and "not the result its leavers give" in replayed.stdout
    Match.objects.filter(pk=match.pk).update(outcome=forged)
    match.refresh_from_db()
    checks = {c["what"]: c["ok"] for c in verify_selectors.match_page(match)["checks"]}
    assert checks["outcome"] is False and checks["replay"] is True
