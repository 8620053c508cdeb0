"""The live tables' services on PostgreSQL: whole bot matches, the log, races and refusals.

Every match here is driven only through games/services/ (as the consumers and the Celery tasks
drive it) and, when it ends, its action log is replayed from the revealed secret and must give the
snapshot the service stored.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

import games
from games import selectors, services
from games.contract import IllegalAction, replay
from games.models import Match, MatchAction, MatchSeed, Seat, Table
from games.services import TableError, clock
from tests.tables.helpers import (
    advance_until,
    make_table,
    play_out,
    replay_state,
    seat_humans,
    seed_for,
    socket_closed,
    socket_opened,
)

pytestmark = pytest.mark.django_db(transaction=True)

BOT_MATCHES = [
    ("hand", {"players": 2}),
    ("hand", {"players": 3, "variant": "plain", "table": "strict"}),
    ("hand", {"players": 4}),
    ("hand", {"players": 4, "variant": "plain"}),
    ("hand", {"players": 4, "partners": True}),
    ("hand", {"players": 4, "partners": True, "variant": "plain", "table": "strict"}),
    ("jakaro", {"players": 2}),
    ("jakaro", {"players": 4}),
]


@pytest.mark.parametrize(("game", "options"), BOT_MATCHES, ids=str)
def test_bot_matches_play_to_the_end_and_the_log_replays_to_the_snapshot(
    game, options, fast_clocks, creator
):
    table = make_table(creator, game, options)
    n = table.seats.count()
    for number in range(n):
        services.seat_add_bot(user=creator, table_id=table.public_id, number=number)
    match = Match.objects.get(table=table, number=1)
    assert match.status == Match.Status.PLAYING and match.revealed_at is None
    assert MatchSeed.objects.filter(match=match).count() == 0  # bots add no seed

    match = play_out(match)

    engine = games.get(game)
    assert match.revealed_at is not None and match.outcome is not None
    assert engine.to_json(replay_state(match)) == match.snapshot
    seqs = list(match.actions.values_list("seq", flat=True))
    assert seqs == list(range(1, match.seq + 1))
    # Every logged action is the canonical text, and bots' moves are marked as the bot's.
    for act in match.actions.all():
        assert engine.canonical(act.seat, act.action) == act.action
        assert act.by in (MatchAction.By.BOT, MatchAction.By.SERVER)
    assert sum(__import__("fractions").Fraction(v) for v in match.outcome["shares"].values()) == 1
    # The table is ready for the next match: a new commitment, fixed before anyone is ready.
    nxt = Match.objects.get(table=table, number=2)
    assert nxt.status == Match.Status.WAITING and nxt.commitment != match.commitment
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_twenty_threads_sending_the_same_move_apply_it_exactly_once(fast_clocks, creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    engine = games.get("jakaro")
    state = selectors.load_state(match)
    mover = users[engine.to_move(state)]
    action = engine.legal_actions(state)[0]
    barrier = threading.Barrier(20)
    results: list[str] = []
    lock = threading.Lock()

    def send() -> None:
        try:
            barrier.wait(timeout=10)
            services.match_play(user=mover, table_id=table.public_id, seq=0, action=action)
            outcome = "applied"
        except (TableError, IllegalAction) as exc:
            outcome = exc.code
        finally:
            connection.close()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=send) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert results.count("applied") == 1, results
    assert set(results) - {"applied"} == {"stale_seq"}
    match.refresh_from_db()
    assert match.seq == 1 and match.actions.count() == 1


def _snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    return match.seq, match.snapshot, match.actions.count(), match.deadline


def test_refused_moves_change_nothing(fast_clocks, creator, users):
    table = make_table(creator, "hand", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    engine = games.get("hand")
    state = selectors.load_state(match)
    mover = engine.to_move(state)
    other = 1 - mover
    before = _snapshot(match)
    cases = [
        (users[mover], 5, "draw stock", "stale_seq"),  # a seq from the future
        (users[mover], -1, "draw stock", "stale_seq"),
        (users[mover], "0", "draw stock", "stale_seq"),  # not a number
        (users[other], 0, "draw stock", "not_your_turn"),  # someone else's turn
        (users[mover], 0, "deal", "server_only"),
        (users[mover], 0, "timeout", "server_only"),
        (users[mover], 0, "TIMEOUT", "server_only"),
        (users[mover], 0, "fly to the moon", "bad_action"),
        (users[mover], 0, "", "bad_action"),
        (users[mover], 0, "x" * 500, "bad_action"),
        (users[2], 0, "draw stock", "not_seated"),  # not at this table
    ]
    for user, seq, action, code in cases:
        with pytest.raises((TableError, IllegalAction)) as refused:
            services.match_play(user=user, table_id=table.public_id, seq=seq, action=action)
        assert refused.value.code == code, (action, refused.value.code)
        assert refused.value.message("ar") and refused.value.message("en")
        assert _snapshot(match) == before, action
    with pytest.raises(TableError) as missing:
        services.match_play(user=users[mover], table_id="nope", seq=0, action="draw stock")
    assert missing.value.code == "no_such_table"


def test_a_finished_match_refuses_moves(fast_clocks, creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    services.match_abort(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.revealed_at is not None
    with pytest.raises(TableError) as refused:
        services.match_play(user=users[0], table_id=table.public_id, seq=0, action="out AS")
    assert refused.value.code == "not_playing"
    assert match.actions.count() == 0


def test_sitting_down_is_checked(creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    match = Match.objects.get(table=table)
    good = {"commitment": match.commitment, "match_id": match.public_id}
    take = services.seat_take
    for kwargs, code in [
        ({"number": 0, "seed": "not-hex", **good}, "bad_seed"),
        ({"number": 0, "seed": "", **good}, "bad_seed"),
        (
            {"number": 0, "seed": seed_for(0), "commitment": "0" * 64, "match_id": match.public_id},
            "wrong_commitment",
        ),
        (
            {"number": 0, "seed": seed_for(0), "commitment": match.commitment, "match_id": "x"},
            "wrong_commitment",
        ),
        ({"number": 7, "seed": seed_for(0), **good}, "no_such_seat"),
        ({"number": True, "seed": seed_for(0), **good}, "no_such_seat"),
    ]:
        with pytest.raises(TableError) as refused:
            take(user=users[0], table_id=table.public_id, **kwargs)
        assert refused.value.code == code
    assert not MatchSeed.objects.exists()
    assert all(s.empty for s in Seat.objects.filter(table=table))

    take(user=users[0], table_id=table.public_id, number=0, seed=seed_for(0), **good)
    with pytest.raises(TableError) as again:
        take(user=users[0], table_id=table.public_id, number=1, seed=seed_for(1), **good)
    assert again.value.code == "already_seated"
    with pytest.raises(TableError) as taken:
        take(user=users[1], table_id=table.public_id, number=0, seed=seed_for(1), **good)
    assert taken.value.code == "seat_taken"
    take(user=users[1], table_id=table.public_id, number=1, seed=seed_for(1), **good)
    with pytest.raises(TableError) as full:
        take(user=users[2], table_id=table.public_id, number=1, seed=seed_for(2), **good)
    assert full.value.code in ("table_full", "not_waiting")
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    # The seeds that started the match came from the two browsers, after the commitment.
    seeds = list(MatchSeed.objects.filter(match=match).order_by("seat"))
    assert [s.seed for s in seeds] == [seed_for(0), seed_for(1)]
    assert all(s.at >= match.created_at for s in seeds)


def test_bots_only_at_free_tables(creator):
    table = make_table(creator, "jakaro", {"players": 2}, stake=50)
    with pytest.raises(TableError) as refused:
        services.seat_add_bot(user=creator, table_id=table.public_id, number=0)
    assert refused.value.code == "bots_free_tables_only"
    assert not Seat.objects.filter(table=table, is_bot=True).exists()


def test_only_the_creator_adds_bots(creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    with pytest.raises(TableError) as refused:
        services.seat_add_bot(user=users[0], table_id=table.public_id, number=0)
    assert refused.value.code == "not_creator"


def test_bad_table_options_are_refused(creator):
    for game, options in [("hand", {"players": 5}), ("jakaro", {"players": 3}), ("chess", {})]:
        with pytest.raises(TableError) as refused:
            services.table_create(user=creator, game=game, options=options)
        assert refused.value.code == "bad_options"
    assert not Table.objects.exists()


def test_a_timeout_plays_for_an_absent_player(fast_clocks, creator, users):
    table = make_table(creator, "hand", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_advance(match_id=match.pk) is True
    act = match.actions.get()
    assert act.by == MatchAction.By.TIMEOUT and act.action == "timeout"
    # A countdown that fires while the deadline is still ahead plays nothing and queues itself
    # again for the deadline.
    match.refresh_from_db()
    # The countdown queued at the start fires no later than the new deadline: it stays queued.
    assert match.timer_at is not None and match.timer_at <= match.deadline
    Match.objects.filter(pk=match.pk).update(timer_at=timezone.now() - timedelta(seconds=1))
    match.refresh_from_db()
    assert services.match_advance(match_id=match.pk, timer=match.timer_at.isoformat()) is False
    match.refresh_from_db()
    assert match.seq == 1 and match.timer_at == match.deadline


def test_one_countdown_per_match_a_persons_move_queues_none(
    fast_clocks, creator, users, monkeypatch
):
    """Each queued countdown is a Celery message and later a transaction: a person's move, whose
    deadline always comes after the one already queued, leaves that one to re-queue itself; a
    sooner deadline (a bot's move) gets its own."""
    queued: list[tuple] = []
    monkeypatch.setattr(
        clock, "send_countdown", lambda args, **kw: queued.append((args, kw["eta"]))
    )
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    assert len(queued) == 1 and queued[0][1] == match.deadline  # the first turn's countdown
    for _ in range(3):
        match.refresh_from_db()
        state = selectors.load_state(match)
        turn = games.get("jakaro").to_move(state)
        view = games.get("jakaro").view(state, turn)
        services.match_play(
            user=users[turn],
            table_id=table.public_id,
            seq=match.seq,
            action=games.get("jakaro").bot_action(view),
        )
    match.refresh_from_db()
    assert len(queued) == 1  # three moves, no new task
    assert match.timer_at == queued[0][1] < match.deadline
    # The player to move goes away and a bot plays for them: its deadline is sooner, so it gets
    # a countdown of its own.
    away = games.get("jakaro").to_move(selectors.load_state(match))
    Seat.objects.filter(table=table, number=away).update(bot_playing=True)
    with transaction.atomic():
        clock.reset_deadline(table)
    match.refresh_from_db()
    assert len(queued) == 2 and queued[1][1] == match.deadline == match.timer_at


def test_seat_keeping_at_a_free_table_gives_the_seat_to_a_bot_and_back(fast_clocks, creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    tid = table.public_id
    socket_opened(users[0], tid)
    socket_closed(users[0], tid)
    seat = Seat.objects.get(table=table, number=0)
    assert seat.away_since is not None and not seat.bot_playing
    assert services.seats_expired() == []  # kept for SEAT_KEEP_SECONDS
    Seat.objects.filter(pk=seat.pk).update(away_since=timezone.now() - timedelta(seconds=120))
    assert services.seats_expired() == [seat.pk]
    # The hand the player left with (a worker may let the bot move as soon as it sits).
    match = Match.objects.get(table=table, number=1)
    engine = games.get("jakaro")
    before = engine.view(selectors.load_state(match), 0)["hand"]
    assert services.seat_expire(seat_id=seat.pk) is True
    seat.refresh_from_db()
    assert seat.bot_playing and seat.user_id == users[0].pk
    # The bot plays on with the same hand (leaving never re-deals): its first move for seat 0
    # plays a card the player held.
    match = advance_until(match, lambda m: m.actions.filter(seat=0).exists())
    first = match.actions.filter(seat=0).order_by("seq").first()
    assert first.by == MatchAction.By.BOT
    assert first.action.split()[1] in before
    # The player comes back: the seat is theirs again.
    socket_opened(users[0], tid)
    seat.refresh_from_db()
    assert not seat.bot_playing and seat.away_since is None


def test_at_a_coin_table_no_bot_ever_sits(fast_clocks, creator, users):
    # Four players: with two, the other's seat given up would end the match at once, won by
    # forfeit (issue 57, test_forfeit_win.py); here the other three play on.
    table = make_table(creator, "jakaro", {"players": 4}, stake=10)
    seat_humans(table, users[:4])
    socket_closed(users[0], table.public_id)
    seat = Seat.objects.get(table=table, number=0)
    Seat.objects.filter(pk=seat.pk).update(away_since=timezone.now() - timedelta(seconds=120))
    assert services.seat_expire(seat_id=seat.pk) is True
    seat.refresh_from_db()
    assert seat.left and not seat.bot_playing and not seat.is_bot
    match = Match.objects.get(table=table, number=1)
    match = advance_until(match, lambda m: m.actions.filter(seat=0).exists())
    assert set(match.actions.filter(seat=0).values_list("by", flat=True)) == {"timeout"}
    # When the match is over the seat is given up, so the table can play again with someone else.
    services.match_abort(match_id=match.pk)
    seat.refresh_from_db()
    assert seat.user_id is None and not seat.left
    nxt = Match.objects.get(table=table, number=2)
    for user, hexit in zip(users[1:4], "bcd", strict=True):
        services.table_ready(
            user=user,
            table_id=table.public_id,
            seed=hexit * 32,
            commitment=nxt.commitment,
            match_id=nxt.public_id,
        )
    seat_humans(table, [users[4]])  # seat 0, the one given up
    nxt.refresh_from_db()
    assert nxt.status == Match.Status.PLAYING


def test_chat_is_escaped_limited_and_team_chat_follows_the_table(fast_clocks, creator, users):
    table = make_table(creator, "hand", {"players": 4, "partners": True, "table": "strict"})
    seat_humans(table, users[:4])
    tid = table.public_id
    msg = services.chat_post(user=users[0], table_id=tid, text="  <b>يلا</b>   نلعب ")
    assert msg.text == "<b>يلا</b> نلعب" and msg.team is None  # stored as typed; escaped on output
    for text, code in [("", "chat_empty"), ("   ", "chat_empty"), ("x" * 500, "chat_too_long")]:
        with pytest.raises(TableError) as refused:
            services.chat_post(user=users[0], table_id=tid, text=text)
        assert refused.value.code == code
    with pytest.raises(TableError) as closed:
        services.chat_post(user=users[0], table_id=tid, text="خذ الهاند", team=True)
    assert closed.value.code == "team_chat_closed"
    # Someone without a seat writes as a watcher, in the watchers' chat (docs/social.md).
    assert services.chat_post(user=users[5], table_id=tid, text="hello").watchers
    for i in range(fast_clocks.CHAT_MAX_IN_WINDOW):
        services.chat_post(user=users[1], table_id=tid, text=f"line {i}")
    with pytest.raises(TableError) as fast:
        services.chat_post(user=users[1], table_id=tid, text="one more")
    assert fast.value.code == "chat_too_fast"


def test_team_chat_opens_between_rounds_at_a_strict_table(fast_clocks, creator, users):
    # The next round's deal must not be due at once, or a Celery worker another test started
    # would deal it before the partners could speak.
    fast_clocks.SERVER_STEP_DELAY = 3600
    table = make_table(creator, "hand", {"players": 4, "partners": True, "table": "strict"})
    seat_humans(table, users[:4])
    match = Match.objects.get(table=table, number=1)
    engine = games.get("hand")
    match = advance_until(
        match,
        lambda m: engine.server_step(selectors.load_state(m)) is not None,
    )
    msg = services.chat_post(user=users[0], table_id=table.public_id, text="زين", team=True)
    assert msg.team == 0
    # Once the next round is dealt, it is closed again.
    match = advance_until(match, lambda m: selectors.load_state(m).status == "playing")
    with pytest.raises(TableError) as closed:
        services.chat_post(user=users[0], table_id=table.public_id, text="ثاني", team=True)
    assert closed.value.code == "team_chat_closed"


def test_a_solo_table_has_no_team_chat(creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    with pytest.raises(TableError) as refused:
        services.chat_post(user=users[0], table_id=table.public_id, text="hi", team=True)
    assert refused.value.code == "no_team"


def test_replay_of_the_log_is_the_snapshot_at_every_step(fast_clocks, creator, users):
    table = make_table(creator, "hand", {"players": 2})
    seat_humans(table, users[:2])
    match = Match.objects.get(table=table, number=1)
    engine = games.get("hand")
    for _ in range(15):
        match = advance_until(match, lambda m, s=match.seq: m.seq > s)
        log = [(a.seat, a.action) for a in match.actions.order_by("seq")]
        rng = selectors.random_source(match)
        state = replay(engine, engine.parse_options(match.options), rng, log)
        assert engine.to_json(state) == match.snapshot


def test_a_seats_presence_never_waits_on_its_tables_row(creator, users):
    """Presence changes lock only the seat. A match's end (or staff's abort) updates the table's
    row and then its seats; if a seat's presence update also locked the table's row (Seat's
    default ordering joins the table), the two deadlocked once sockets ran in parallel."""
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    holding, release = threading.Event(), threading.Event()

    def hold_the_table_row() -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table.pk)
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_table_row)
    holder.start()
    try:
        assert holding.wait(30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")  # waiting on the table would raise
        socket_opened(users[0], table.public_id)
        socket_closed(users[0], table.public_id)
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert Seat.objects.get(table=table, number=0).connected == 0
