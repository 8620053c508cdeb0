"""Every state change of the live tables: one function per use case (DESIGN.md, "Services").

Each function is ``@transaction.atomic``, locks the rows it changes (``select_for_update``), goes
to the game only through the registry (``games.get``), and broadcasts after commit. A refused
request raises ``TableError`` (a stable code and words in the player's language) or the engine's
``IllegalAction``, and changes nothing.

How a match moves: players' actions come through ``match_play``; everything else that is due
(the server's own step, a bot's move, a time-out) is played by ``match_advance`` when the match's
``deadline`` passes, called by the Celery countdown task scheduled on commit and by the beat
sweeper (games/tasks.py). A match is its log: each applied action is appended to
``MatchAction`` and the snapshot updated in the same transaction.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import os
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

import games
from games.contract import SERVER, BadOptions, Game, IllegalAction
from games.models import (
    ChatMessage,
    EndReason,
    Majlis,
    Match,
    MatchAction,
    MatchSeed,
    Presence,
    Seat,
    Table,
    WebProcess,
)
from verify import fairness
from wallet import services as wallet_services

log = logging.getLogger(__name__)

_pause = random.Random()
SEED_PATTERN = re.compile(r"\A[0-9a-f]{32,64}\Z")

MESSAGES = {
    "no_such_table": _("There is no such table."),
    "no_such_seat": _("There is no such seat at this table."),
    "seat_taken": _("That seat is taken."),
    "table_full": _("This table is full."),
    "already_seated": _("You already have a seat at this table."),
    "not_seated": _("You have no seat at this table."),
    "not_waiting": _("The match has already started."),
    "not_playing": _("No match is being played at this table."),
    "stale_seq": _("The table has moved on since you looked; here is what it shows now."),
    "server_only": _("Only the server may make that move."),
    "bad_seed": _("Your browser's seed is missing or malformed; reload the page."),
    "wrong_commitment": _(
        "The commitment you were shown is not this match's; reload the page before you sit."
    ),
    "bots_free_tables_only": _("Bots sit only at free tables."),
    "not_creator": _("Only the player who created the table may do that."),
    "bad_options": _("Those table options are not allowed."),
    "no_such_majlis": _("There is no such majlis."),
    "chat_empty": _("Write something first."),
    "chat_too_long": _("That message is too long."),
    "chat_too_fast": _("You are writing too fast; wait a moment."),
    "team_chat_closed": _("Team chat is closed during a round at a strict table."),
    "no_team": _("This table has no teams."),
    "not_over": _("The match is not over yet."),
    "already_ready": _("You are already ready for the next match."),
    "left_match": _("You left this match; your seat is played for you until it ends."),
    # The coin wallet (wallet/services.py)
    "not_enough_coins": _("You do not have enough coins for this table's stake."),
    "bad_stake": _("That stake is not one of the coin table levels."),
}


class TableError(Exception):
    """A refused request at a table: a stable ``code`` and ``message(lang)``."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    def message(self, lang: str = "ar") -> str:
        with translation.override(lang):
            return str(MESSAGES.get(self.code, MESSAGES["no_such_table"]))


# ---------------------------------------------------------------------------------------------
# Helpers


def game_of(match_or_table: Match | Table) -> Game:
    return games.get(match_or_table.game)


def players_of(game: Game, options: Any) -> int:
    return int(game.options_to_dict(options)["players"])


def random_source(match: Match, seeds: list[MatchSeed] | None = None) -> fairness.RandomSource:
    """The match's one random source: its secret, game, public id and the browsers' seeds
    (``seeds``: the match's seed rows when the caller already holds them)."""
    rows = match.seeds.all() if seeds is None else seeds
    by_seat = {s.seat: s.seed for s in rows}
    return fairness.RandomSource(bytes.fromhex(match.secret), match.game, match.public_id, by_seat)


def load_state(match: Match) -> Any:
    return game_of(match).from_json(match.snapshot)


def _new_match(table: Table, number: int) -> Match:
    secret = fairness.new_secret()
    return Match.objects.create(
        table=table,
        number=number,
        game=table.game,
        options=table.options,
        secret=secret.hex(),
        commitment=fairness.commitment(secret),
    )


def current_match(table: Table) -> Match:
    """The table's latest match (waiting, playing, or the last one played)."""
    return table.matches.order_by("-number").first()  # type: ignore[return-value]


def _group_send(layer: Any, group: str, event: dict[str, Any]) -> None:
    """Publish a group message after commit. In the web server the service runs in a worker
    thread of the server's event loop (``database_sync_to_async``): the publish is handed to
    that loop and not waited for. Waiting held the thread for nothing (the change is committed),
    and for ever once the loop had stopped: a socket closing as Daphne got SIGTERM kept it from
    exiting until it was killed. Anywhere else (Celery, commands) it runs to the end here."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    here = getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()
    try:
        asyncio.get_running_loop()
        in_a_loop = True
    except RuntimeError:
        in_a_loop = False
    try:
        if loop is not None and here and not in_a_loop:
            if loop.is_running():
                done = asyncio.run_coroutine_threadsafe(layer.group_send(group, event), loop)
                done.add_done_callback(functools.partial(_published, group))
            else:  # the server is stopping: the other processes' sockets still get it
                asyncio.run(layer.group_send(group, event))
            return
        async_to_sync(layer.group_send)(group, event)
    except Exception as exc:
        log.warning("broadcast to %s failed: %r", group, exc)


def _published(group: str, done: concurrent.futures.Future) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.warning("broadcast to %s failed: %r", group, done.exception())


def broadcast(table: Table, match: Match, *, held: Held | None = None) -> None:
    """After commit: tell everyone at the table that it changed. The event carries what every
    viewer shares (games.selectors.table_public: no hand, no secret before its reveal); the
    match's snapshot goes to Redis for the sockets to make their own seat's view from
    (games/snapshots.py). Never a hand in the group's message.

    ``held``: the rows a move's transaction already holds (its seats with their users, the match
    it changed and that match's seeds). The shared part is then made from them now, inside the
    transaction, with no query at all: a move is the commonest change, and re-reading the table
    for it cost Daphne about a third of its CPU per move (bench.rooms). Without it the shared
    part is read after commit."""
    from games import selectors, snapshots

    group, table_pk, seq, public_id = table.group, table.pk, match.seq, match.public_id
    ready: tuple[dict[str, Any], Match] | None = None
    if held is not None:
        ready = selectors.public_and_shown(table, seats=held.seats, match=match, seeds=held.seeds)

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        event: dict[str, Any] = {"type": "table.changed", "seq": seq, "match": public_id}
        try:
            # Re-read unless held: the caller's table row may predate what the transaction changed.
            public, shown = ready or selectors.public_and_shown(Table.objects.get(pk=table_pk))
            if shown.snapshot:
                snapshots.publish(shown.public_id, shown.seq, shown.snapshot)
            event["public"] = public
        except Exception as exc:  # the sockets read the table from the database instead
            log.warning("table %s: no shared state for the broadcast: %r", group, exc)
        _group_send(layer, group, event)  # a lost one is repaired by the clients' seq rules

    transaction.on_commit(send)


@dataclass
class Held:
    """Rows a move's transaction has read already: the table's seats with their users (in seat
    order) and the match's seeds (in seat order)."""

    seats: list[Seat]
    seeds: list[MatchSeed]

    @classmethod
    def read(cls, match: Match) -> Held:
        seats = Seat.objects.filter(table_id=match.table_id).select_related("user")
        return cls(list(seats.order_by("number")), _seeds_of(match))


# A playing match's seeds never change (they are all in before it starts), so each process
# reads them once per match instead of once per move.
_seeds: dict[int, list[MatchSeed]] = {}
SEEDS_CACHE_SIZE = 4096


def _seeds_of(match: Match) -> list[MatchSeed]:
    if match.status != Match.Status.PLAYING:
        return list(match.seeds.order_by("seat"))
    rows = _seeds.get(match.pk)
    if rows is None:
        rows = _seeds[match.pk] = list(match.seeds.order_by("seat"))
        while len(_seeds) > SEEDS_CACHE_SIZE:
            _seeds.pop(next(iter(_seeds)), None)  # the oldest
    return rows


# A queued countdown whose time passed this long ago is taken as lost (a killed worker): the next
# deadline gets a task of its own again. The sweeper plays what is overdue meanwhile.
TIMER_LOST_S = 5.0


def _schedule(match: Match) -> None:
    """A countdown task for the match's deadline, sent after commit (the fast path; the beat
    sweeper catches any that is lost). At most one is kept queued per match: if the one already
    queued fires no later than the deadline, it is left to re-queue itself for the deadline when
    it fires (``match_advance``), so a person's move, whose deadline is always later than the
    last one, sends no task. Sets ``match.timer_at``; the caller saves it (``TIMER_FIELDS``)."""
    if match.deadline is None or match.status != Match.Status.PLAYING:
        match.timer_at = None
        return
    pending = match.timer_at
    lost = timezone.now() - timedelta(seconds=TIMER_LOST_S)
    if pending is not None and lost < pending <= match.deadline:
        return
    match_id, eta = match.pk, match.deadline
    match.timer_at = eta
    queue = settings.TABLES_QUEUE

    def send() -> None:
        from games import tasks

        try:
            tasks.match_due.apply_async((match_id, eta.isoformat()), eta=eta, queue=queue)
        except Exception as exc:  # the sweeper plays it instead
            log.warning("could not schedule match %s: %r", match_id, exc)

    transaction.on_commit(send)


TIMER_FIELDS = ("deadline", "timer_at")


def _parse_time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------
# Tables and seats


def table_create(
    *,
    user: Any,
    game: str,
    options: dict[str, Any],
    majlis: Majlis | None = None,
    private: bool = False,
    stake: int = 0,
) -> Table:
    """A new table and its first match, whose commitment is fixed now, before anyone sits."""
    try:
        engine = games.get(game)
        parsed = engine.parse_options(options)
    except (games.UnknownGame, BadOptions) as exc:
        raise TableError("bad_options", str(exc)) from None
    plain = engine.options_to_dict(parsed)
    # Wallet: a coin table's stake is one of the levels in settings (0 is a free table).
    if type(stake) is not int or (stake != 0 and stake not in settings.WALLET_STAKE_LEVELS):
        raise TableError("bad_stake")
    if majlis is None:
        majlis = Majlis.objects.filter(active=True).first()
        if majlis is None:
            raise TableError("no_such_majlis")
    with transaction.atomic():
        table = Table.objects.create(
            majlis=majlis,
            game=game,
            options=plain,
            private=private,
            stake=stake,
            turn_seconds=engine.turn_seconds(parsed),
            created_by=user,
        )
        Seat.objects.bulk_create(
            Seat(table=table, number=n) for n in range(players_of(engine, parsed))
        )
        _new_match(table, 1)
        broadcast_lobby()
    return table


def broadcast_lobby() -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            _group_send(layer, "majlis", {"type": "majlis.changed"})

    transaction.on_commit(send)


def _locked_table(public_id: str) -> Table:
    try:
        return Table.objects.select_for_update().get(public_id=public_id)
    except Table.DoesNotExist:
        raise TableError("no_such_table") from None


def _waiting_seats(table: Table, number: Any) -> tuple[Match, list[Seat]]:
    """The waiting match and the locked seats, with ``number`` checked to be one of them."""
    match = current_match(table)
    if match.status != Match.Status.WAITING:
        raise TableError("not_waiting")
    seats = list(table.seats.select_for_update().order_by("number"))
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(seats):
        raise TableError("no_such_seat")
    return match, seats


def _my_seat(table: Table, user: Any) -> Seat | None:
    """``user``'s seat at ``table``, locked. Only the seat: Seat's default ordering joins the
    table, and a plain FOR UPDATE would lock the table's row too: that deadlocked a match's end
    (which updates the table, then its seats) against a player's socket closing, once sockets'
    calls ran in parallel (seen in bench.rooms)."""
    return table.seats.select_for_update(of=("self",)).filter(user=user).first()


def _check_seed(match: Match, seed: str, commitment: str, match_id: str) -> str:
    # Byte for byte as sent: the seed the browser keeps to verify later must be the one in the
    # key, so "ABCD…" or " abcd…" is refused, not quietly changed into another seed.
    if not isinstance(seed, str) or not SEED_PATTERN.match(seed):
        raise TableError("bad_seed")
    if commitment != match.commitment or match_id != match.public_id:
        raise TableError("wrong_commitment")
    return seed


@transaction.atomic
def seat_take(
    *, user: Any, table_id: str, number: int, seed: str, commitment: str, match_id: str
) -> Seat:
    """Sit down before the match starts, with the seed the browser made after it was shown this
    match's commitment. The match starts when every seat is taken."""
    table = _locked_table(table_id)
    match, seats = _waiting_seats(table, number)
    if any(s.user_id == user.pk for s in seats):
        raise TableError("already_seated")
    if all(not s.empty for s in seats):
        raise TableError("table_full")
    seat = seats[number]
    if not seat.empty:
        raise TableError("seat_taken")
    seed = _check_seed(match, seed, commitment, match_id)
    # Wallet: enough coins for the stake, checked under the wallet's lock.
    if not wallet_services.can_stake(user=user, table=table):
        raise TableError("not_enough_coins")
    seat.user = user
    seat.ready = True
    # The sockets this person already has open to the table (they were watching) hold the seat.
    seat.connected = _sockets_of(table, user)
    seat.away_since = None
    seat.save(update_fields=["user", "ready", "connected", "away_since"])
    MatchSeed.objects.create(match=match, seat=number, seed=seed, user=user)
    _start_if_full(table, match, seats)
    broadcast(table, match)
    broadcast_lobby()
    return seat


@transaction.atomic
def seat_add_bot(*, user: Any, table_id: str, number: int) -> Seat:
    """The creator of a free table puts a bot («لاعب آلي») in an empty seat. Bots add no seed."""
    table = _locked_table(table_id)
    if table.created_by_id != user.pk:
        raise TableError("not_creator")
    if not table.is_free:
        raise TableError("bots_free_tables_only")
    match, seats = _waiting_seats(table, number)
    seat = seats[number]
    if not seat.empty:
        raise TableError("seat_taken")
    seat.is_bot = True
    seat.ready = True
    seat.save(update_fields=["is_bot", "ready"])
    _start_if_full(table, match, seats)
    broadcast(table, match)
    broadcast_lobby()
    return seat


@transaction.atomic
def seat_leave(*, user: Any, table_id: str) -> None:
    """Stand up before the match starts (the seat's seed is withdrawn with it)."""
    table = _locked_table(table_id)
    match = current_match(table)
    if match.status != Match.Status.WAITING:
        raise TableError("not_waiting")
    seat = _my_seat(table, user)
    if seat is None:
        raise TableError("not_seated")
    MatchSeed.objects.filter(match=match, seat=seat.number).delete()
    seat.user, seat.ready = None, False
    seat.save(update_fields=["user", "ready"])
    broadcast(table, match)
    broadcast_lobby()


def _start_if_full(table: Table, match: Match, seats: list[Seat]) -> None:
    if any(s.empty for s in seats) or not all(s.ready for s in seats):
        return
    match = Match.objects.select_for_update().get(pk=match.pk)
    # Wallet: every stake into the match's escrow, all or nothing. A player who can no longer
    # cover it (coins spent since sitting down) is stood up and the match waits.
    broke = wallet_services.escrow_stakes(match=match, seats=seats)
    if broke:
        for seat in broke:
            MatchSeed.objects.filter(match=match, seat=seat.number).delete()
            seat.user, seat.ready = None, False
            seat.save(update_fields=["user", "ready"])
        return
    engine = game_of(match)
    state = engine.new_match(engine.parse_options(match.options), random_source(match))
    now = timezone.now()
    match.status = Match.Status.PLAYING
    match.started_at = now
    match.snapshot = engine.to_json(state)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    Seat.objects.filter(table=table).update(ready=False)
    _set_deadline(match, engine, state, seats, now)
    _schedule(match)
    match.save()


@transaction.atomic
def table_ready(*, user: Any, table_id: str, seed: str, commitment: str, match_id: str) -> Match:
    """After a match ends, a seated player asks for the next one at the same table, with a fresh
    seed made after the next match's commitment was shown."""
    table = _locked_table(table_id)
    match = current_match(table)
    if match.status == Match.Status.WAITING:
        nxt = match
    elif match.over:
        raise TableError("not_over")  # the next match is created when this one ends
    else:
        raise TableError("not_over")
    seat = _my_seat(table, user)
    if seat is None:
        raise TableError("not_seated")
    if seat.ready:
        raise TableError("already_ready")
    seed = _check_seed(nxt, seed, commitment, match_id)
    # Wallet: enough coins for the next match's stake, checked under the wallet's lock.
    if not wallet_services.can_stake(user=user, table=table):
        raise TableError("not_enough_coins")
    MatchSeed.objects.create(match=nxt, seat=seat.number, seed=seed, user=user)
    seat.ready = True
    seat.save(update_fields=["ready"])
    seats = list(table.seats.select_for_update().order_by("number"))
    _start_if_full(table, nxt, seats)
    broadcast(table, nxt)
    return nxt


# ---------------------------------------------------------------------------------------------
# Playing


@dataclass(frozen=True)
class Due:
    """What a match waits for: ``seat`` (None for the server's own step) and who acts."""

    seat: int | None
    by: str  # MatchAction.By: player (a person, so a time-out), bot, or server
    delay: float  # seconds from the last change until it is played


def due(engine: Game, state: Any, seats: list[Seat], turn_s: float) -> Due | None:
    """The next thing the match waits for, or None when it is over."""
    step = engine.server_step(state)
    if step is not None:
        return Due(SERVER, MatchAction.By.SERVER, settings.SERVER_STEP_DELAY)
    seat = engine.to_move(state)
    if seat is None:
        return None
    if seats[seat].played_by_bot:
        # A person's pause is never the same twice; the jitter is for looks, not for fairness
        # (every card a bot sees and plays comes from the match's random source).
        return Due(seat, MatchAction.By.BOT, settings.BOT_DELAY * _pause.uniform(0.75, 1.5))
    if seats[seat].left:
        # A seat given up: its time-out play (never a bot at a coin table), after a bot's short
        # pause instead of a turn time: the others never wait for someone who is gone.
        return Due(seat, MatchAction.By.PLAYER, settings.BOT_DELAY * _pause.uniform(0.75, 1.5))
    if _is_away(seats[seat]):
        # A seat being kept: a short turn, then the time-out play (docs/rules/*.md).
        return Due(seat, MatchAction.By.PLAYER, min(turn_s, settings.AWAY_TURN_SECONDS))
    return Due(seat, MatchAction.By.PLAYER, turn_s)


def _is_away(seat: Seat) -> bool:
    """A person's seat being kept: their last socket closed and the seat is not given up."""
    return (
        seat.user_id is not None
        and not seat.is_bot
        and seat.connected == 0
        and seat.away_since is not None
        and not seat.left
        and not seat.bot_playing
    )


def _turn_start(match: Match) -> datetime:
    """When the current turn began: the last logged action, or the match's start."""
    last = match.actions.order_by("-seq").values_list("at", flat=True).first()
    return last or match.started_at or timezone.now()


def _follow(match: Match, seats: list[Seat]) -> bool:
    """Who is at a seat changed (its player went away, came back, or gave it up): the locked,
    playing match's deadline follows, for the seat whose turn it is only (never resetting
    someone else's clock). An away seat's turn ends AWAY_TURN_SECONDS from now at the latest;
    a player back gets their turn's full time from its start again; a seat now played at once
    (given up) is due after the bot's pause. True if the deadline changed (the caller has
    saved it)."""
    if match.status != Match.Status.PLAYING or match.deadline is None:
        return False
    d = due(game_of(match), load_state(match), seats, _turn_time(match))
    if d is None:
        return False
    now = timezone.now()
    if d.by == MatchAction.By.PLAYER and d.seat is not None and not seats[d.seat].left:
        if _is_away(seats[d.seat]):
            new = min(match.deadline, now + timedelta(seconds=d.delay))
        else:
            full = _turn_start(match) + timedelta(seconds=_turn_time(match))
            new = max(match.deadline, full)
    else:
        new = min(match.deadline, now + timedelta(seconds=d.delay))
    if new == match.deadline:
        return False
    match.deadline = new
    _schedule(match)
    match.save(update_fields=TIMER_FIELDS)
    return True


def _presence_changed(table: Table) -> None:
    """A seat's presence changed as the others see it (away, back): they are told after commit.
    During a match its deadline follows first (an away seat's turn is short, a player back gets
    their turn's time again), in a transaction of its own: no seat lock is held then while the
    match's is taken (a move and a match's end lock the match first, then seats)."""
    if table.status != Table.Status.PLAYING:
        broadcast(table, current_match(table))
        return
    transaction.on_commit(functools.partial(_clock_follows, table.pk), robust=True)


def _clock_follows(table_pk: int) -> None:
    with transaction.atomic():
        rows = Match.objects.select_for_update(of=("self",)).select_related("table")
        match = rows.filter(table_id=table_pk).order_by("-number").first()
        if match is None:
            return
        seats = list(Seat.objects.filter(table_id=table_pk).order_by("number"))
        _follow(match, seats)
        broadcast(match.table, match)  # one message for the seat and the clock


def _set_deadline(
    match: Match, engine: Game, state: Any, seats: list[Seat], since: datetime
) -> None:
    d = due(engine, state, seats, _turn_time(match))
    match.deadline = None if d is None else since + timedelta(seconds=d.delay)


def _turn_time(match: Match) -> float:
    """The table's turn time (settings.TURN_SECONDS_OVERRIDE shortens every turn for tests)."""
    return settings.TURN_SECONDS_OVERRIDE or match.table.turn_seconds


# What a logged action changes on the match row (saved with update_fields: a move's UPDATE
# stays small).
MOVE_FIELDS = ("seq", "snapshot", "status", "outcome", "ended_at", "revealed_at", *TIMER_FIELDS)


def _append(
    match: Match, engine: Game, state: Any, seat: int | None, action: str, by: str, held: Held
) -> Any:
    """Apply one action, log it, and update the snapshot, outcome and deadline (the caller holds
    the match row's lock and saves ``MOVE_FIELDS``)."""
    text = engine.canonical(seat, action)
    new = engine.apply(state, seat, text, random_source(match, held.seeds))
    match.seq += 1
    MatchAction.objects.create(match=match, seq=match.seq, seat=seat, action=text, by=by)
    match.snapshot = engine.to_json(new)
    result = engine.outcome(new)
    now = timezone.now()
    if result is not None:
        match.status = Match.Status.FINISHED
        match.outcome = result.to_dict()
        match.ended_at = match.revealed_at = now
        match.deadline = None
        wallet_services.settle(match)  # Wallet: the pot (or free-table rewards), once
        _after_match(match)
    else:
        _set_deadline(match, engine, new, held.seats, now)
    return new


def _logged(table: Table, match: Match, held: Held) -> None:
    """After an action was appended: save the match, and broadcast and schedule after commit.
    A match that goes on is broadcast from the rows in hand; one that ended changed the table
    (the next match, the seats' "ready"), which is read again after commit."""
    _schedule(match)
    match.save(update_fields=MOVE_FIELDS)
    broadcast(table, match, held=held if match.status == Match.Status.PLAYING else None)


def _after_match(match: Match) -> None:
    """The table goes back to waiting, with the next match's commitment fixed at once, so the
    players' browsers can show it before they send their "ready" seeds."""
    table = match.table
    table.status = Table.Status.OPEN
    table.save(update_fields=["status"])
    # A player who left a coin table during the match (settled without a share by now) gives the
    # seat up: kept, it would stop the next match from ever starting.
    Seat.objects.filter(table=table, left=True).update(
        user=None, left=False, connected=0, away_since=None
    )
    Seat.objects.filter(table=table, back_from__isnull=False).update(back_from=None)
    Seat.objects.filter(table=table).update(ready=False)
    Seat.objects.filter(table=table, is_bot=True).update(ready=True)
    _new_match(table, match.number + 1)
    broadcast_lobby()


def _playing_match(table_id: str) -> Match:
    """The table's match being played, locked, in one query with its table (not locked: a move
    or a forfeit changes no table row)."""
    rows = Match.objects.select_for_update(of=("self",)).select_related("table")
    match = rows.filter(table__public_id=table_id).order_by("-number").first()
    if match is None:
        raise TableError("no_such_table")
    if match.status != Match.Status.PLAYING:
        raise TableError("not_playing")
    return match


@transaction.atomic
def match_play(*, user: Any, table_id: str, seq: int, action: str) -> Match:
    """A seated player's move. ``seq`` is what the player last saw: a stale or repeated move is
    refused, never applied twice."""
    if not isinstance(action, str) or not action.strip() or len(action) > 200:
        raise IllegalAction("bad_action")
    match = _playing_match(table_id)
    held = Held.read(match)
    seat = next((s for s in held.seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated")
    if seat.left:
        raise TableError("left_match")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq != match.seq:
        raise TableError("stale_seq")
    engine = game_of(match)
    if action.split()[0].lower() in engine.SERVER_ACTIONS:
        raise TableError("server_only")
    state = load_state(match)
    _append(match, engine, state, seat.number, action, MatchAction.By.PLAYER, held)
    if seat.back_from is not None:  # they play again: the "you were away" warning has done
        Seat.objects.filter(pk=seat.pk).update(back_from=None)
        seat.back_from = None
    _logged(match.table, match, held)
    return match


def match_advance(*, match_id: int, timer: str | None = None, skip_locked: bool = False) -> bool:
    """Play whatever is due if the match's deadline has passed: the server's step, a bot's move,
    or the time-out move for an absent player. Called by the countdown task (``timer``: the time
    it was queued for, so it can tell it is the match's queued one) and by the sweeper. A
    countdown that fires before the deadline (people moved meanwhile) queues itself again for
    the deadline. True if an action was played."""
    with transaction.atomic():
        rows = Match.objects.select_for_update(skip_locked=skip_locked, of=("self",))
        rows = rows.filter(pk=match_id)
        match = rows.select_related("table").first()
        if match is None or match.status != Match.Status.PLAYING or match.deadline is None:
            return False
        if timer is not None and match.timer_at == _parse_time(timer):
            match.timer_at = None  # this is the match's queued countdown, and it has fired
            if match.deadline > timezone.now():
                _schedule(match)
                match.save(update_fields=["timer_at"])
                return False
        if match.deadline > timezone.now():
            return False
        engine = game_of(match)
        state = load_state(match)
        held = Held.read(match)
        d = due(engine, state, held.seats, _turn_time(match))
        if d is None:
            return False
        if d.by == MatchAction.By.SERVER:
            action = engine.server_step(state)
        elif d.by == MatchAction.By.BOT:
            action = engine.bot_action(engine.view(state, d.seat))
        else:
            action = engine.auto_action(state, d.seat)
        by = MatchAction.By.TIMEOUT if d.by == MatchAction.By.PLAYER else d.by
        _append(match, engine, state, d.seat, action, by, held)
        _logged(match.table, match, held)
        return True


def matches_due(limit: int = 100) -> list[int]:
    """Ids of playing matches whose deadline has passed (the sweeper's work list)."""
    return list(
        Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=timezone.now())
        .order_by("deadline")
        .values_list("pk", flat=True)[:limit]
    )


@transaction.atomic
def match_abort(*, match_id: int, reason: str = EndReason.STAFF) -> Match:
    """Staff end a stuck match: it ends cleanly and its secret is revealed (the wallet refunds
    stakes). ``reason`` is kept on the match, so the players' table page, end screen and wallet
    say why it ended."""
    match = Match.objects.select_for_update().select_related("table").get(pk=match_id)
    if match.over:
        return match
    now = timezone.now()
    was_playing = match.status == Match.Status.PLAYING
    match.end_reason = reason
    match.status = Match.Status.ABORTED
    match.ended_at = match.revealed_at = now
    match.deadline = None
    match.save()
    if was_playing:
        wallet_services.refund(match)  # Wallet: every stake back in full
        _after_match(match)
    else:
        # A waiting match is replaced by a fresh one with a new commitment.
        table = match.table
        Seat.objects.filter(table=table).update(ready=False, user=None, is_bot=False)
        _new_match(table, match.number + 1)
    broadcast(match.table, match)
    return match


# ---------------------------------------------------------------------------------------------
# Presence: seats are kept while a player is away


def _presence_add(table: Table, user: Any, process: str, delta: int) -> None:
    """One socket more (``delta`` 1) or fewer (-1) for ``user`` at ``table`` in ``process``."""
    rows = Presence.objects.filter(table=table, user=user, process=process)
    if delta < 0:
        rows.filter(sockets__gt=0).update(sockets=F("sockets") - 1)
        rows.filter(sockets=0).delete()
        return
    if rows.update(sockets=F("sockets") + 1):
        return
    try:
        with transaction.atomic():  # a savepoint: the same person's second socket may race us
            Presence.objects.create(table=table, user=user, process=process, sockets=1)
    except IntegrityError:
        rows.update(sockets=F("sockets") + 1)


def _sockets_of(table: Table, user: Any) -> int:
    """Sockets ``user`` has open to ``table``, over every web process not yet found gone."""
    found = Presence.objects.filter(table=table, user=user).aggregate(n=Sum("sockets"))["n"]
    return min(found or 0, 32767)


def _recount(table: Table, seat: Seat, away_from: datetime | None = None) -> bool:
    """The locked seat's ``connected`` from its player's presence rows. A player who is back
    stands their bot up; the last socket gone starts the seat's keeping (SEAT_KEEP_SECONDS from
    ``away_from``, default now). True if the others' picture of the seat changed."""
    count = _sockets_of(table, seat.user)
    was_here = seat.connected > 0
    came_back = count > 0 and (seat.away_since is not None or seat.bot_playing)
    stood_up = count > 0 and seat.bot_playing
    in_play = table.status == Table.Status.PLAYING
    seat.connected = count
    if count > 0:
        if came_back and in_play and not seat.left:
            # Back while the seat was kept (or played by a bot): their page warns them what a
            # longer absence costs, on every socket of theirs, until their next move.
            seat.back_from = seat.away_since or timezone.now()
        seat.away_since = None
        seat.bot_playing = False
    elif was_here:
        seat.away_since = away_from or timezone.now()
    seat.save(update_fields=["connected", "away_since", "bot_playing", "back_from"])
    if stood_up:
        _reset_deadline(table)
    # The others are told when a seat's keeping starts or ends (their countdown, the bot's
    # tag), not for each extra tab.
    return came_back or (was_here and count == 0)


@transaction.atomic
def seat_connected(*, user: Any, table_id: str, process: str) -> None:
    """A socket of ``user`` to the table opened in web process ``process`` (a watcher's too: if
    they sit down, it holds the seat). A seated player is back: their bot stands up."""
    table = Table.objects.filter(public_id=table_id).first()
    if table is None or getattr(user, "pk", None) is None:
        return
    _presence_add(table, user, process, 1)
    seat = _my_seat(table, user)
    if seat is not None and _recount(table, seat):
        _presence_changed(table)


@transaction.atomic
def seat_disconnected(*, user: Any, table_id: str, process: str) -> None:
    """A socket closed; with none left anywhere the seat is kept for SEAT_KEEP_SECONDS (the
    others see a countdown)."""
    table = Table.objects.filter(public_id=table_id).first()
    if table is None or getattr(user, "pk", None) is None:
        return
    _presence_add(table, user, process, -1)
    seat = _my_seat(table, user)
    if seat is not None and _recount(table, seat):
        _presence_changed(table)


def process_seen(*, process: str) -> bool:
    """Web process ``process`` is alive (every PRESENCE_BEAT_S). True if it had no row: new, or
    found gone by ``processes_gone`` after a stall, so its open sockets must be counted again."""
    now = timezone.now()
    if WebProcess.objects.filter(id=process).update(seen_at=now):
        return False
    WebProcess.objects.get_or_create(id=process, defaults={"seen_at": now})
    return True


@transaction.atomic
def sockets_restored(*, process: str, sockets: dict[tuple[str, int], int]) -> None:
    """A process found gone (it stalled) is back: its open sockets, ``{(table id, user pk):
    count}``, are its presence again."""
    tables = {t.public_id: t for t in Table.objects.filter(public_id__in={t for t, _ in sockets})}
    users = get_user_model().objects.in_bulk({u for _, u in sockets})
    for (table_id, user_pk), count in sockets.items():
        table, user = tables.get(table_id), users.get(user_pk)
        if table is None or user is None or count <= 0:
            continue
        Presence.objects.update_or_create(
            table=table, user=user, process=process, defaults={"sockets": count}
        )
        seat = _my_seat(table, user)
        if seat is not None and _recount(table, seat):
            _presence_changed(table)


def processes_gone() -> int:
    """Web processes not seen for PRESENCE_LEASE_S ended without closing their sockets (killed,
    crashed, or stopped for a deploy: Daphne says nothing to its sockets then). Their presence
    rows go, and every seat they held is counted again: one nobody else holds is kept from the
    process's last sign of life. Returns how many processes were found gone."""
    limit = timezone.now() - timedelta(seconds=settings.PRESENCE_LEASE_S)
    alive = WebProcess.objects.filter(seen_at__gte=limit).values("id")
    stale = Presence.objects.exclude(process__in=alive)
    gone = set(stale.values_list("process", flat=True))
    if not gone:
        WebProcess.objects.filter(seen_at__lt=limit).delete()
        return 0
    last_seen = dict(WebProcess.objects.filter(id__in=gone).values_list("id", "seen_at"))
    for process in gone:
        with transaction.atomic():
            rows = list(Presence.objects.select_for_update().filter(process=process))
            Presence.objects.filter(pk__in=[r.pk for r in rows]).delete()
            WebProcess.objects.filter(id=process).delete()
            for table_id, user_id in sorted({(r.table_id, r.user_id) for r in rows}):
                table = Table.objects.get(pk=table_id)
                seat = (
                    Seat.objects.select_for_update(of=("self",))
                    .filter(table=table, user_id=user_id)
                    .first()
                )
                if seat is not None and _recount(table, seat, last_seen.get(process)):
                    _presence_changed(table)
    WebProcess.objects.filter(seen_at__lt=limit).delete()
    return len(gone)


def seats_expired() -> list[int]:
    """Seats whose player has been away longer than SEAT_KEEP_SECONDS at a table in play."""
    limit = timezone.now() - timedelta(seconds=settings.SEAT_KEEP_SECONDS)
    return list(
        Seat.objects.filter(
            away_since__lte=limit,
            connected=0,
            bot_playing=False,
            left=False,
            user__isnull=False,
            table__status=Table.Status.PLAYING,
        ).values_list("pk", flat=True)
    )


@transaction.atomic
def seat_expire(*, seat_id: int) -> bool:
    """The player stayed away too long: at a free table a bot plays on with the same hand (the
    player takes the seat back by coming back); at a coin table the seat is given up
    (``_give_up``: the player has left the match, the seat is played at once). True if the seat
    changed."""
    table_pk = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    if table_pk is None:
        return False
    # The match first, then the seat: the order a move and a match's end take them in.
    rows = Match.objects.select_for_update(of=("self",)).select_related("table")
    match = rows.filter(table_id=table_pk).order_by("-number").first()
    seats = Seat.objects.select_for_update(of=("self",)).select_related("table", "user")
    seat = seats.filter(pk=seat_id).first()
    if seat is None or seat.connected or seat.away_since is None or seat.user_id is None:
        return False
    if seat.bot_playing or seat.left or match is None or match.status != Match.Status.PLAYING:
        return False
    limit = timezone.now() - timedelta(seconds=settings.SEAT_KEEP_SECONDS)
    if seat.away_since > limit:
        return False
    if seat.table.is_free:
        seat.bot_playing = True
        seat.save(update_fields=["bot_playing"])
        _follow(match, list(Seat.objects.filter(table_id=table_pk).order_by("number")))
    else:
        _give_up(match, seat, "away")
    broadcast(seat.table, match)
    return True


def _give_up(match: Match, seat: Seat, why: str) -> None:
    """The one path for a seat given up during a match (away past SEAT_KEEP_SECONDS at a coin
    table, or the player left from the table): the seat is marked as left for good (coming
    back does not undo it), the leaver is recorded on the match by name (its result, end screen
    and their wallet line name them, marked as left, after the seat is emptied at the end), and
    the seat's time-out play is made at once from now on. The caller holds the match's lock,
    then the seat's, and broadcasts. Coins: nothing moves now; the stake stays in the pot and
    the settlement gives a leaver nothing (wallet/payouts.py)."""
    seat.left = True
    seat.bot_playing = False
    seat.back_from = None
    seat.save(update_fields=["left", "bot_playing", "back_from"])
    user = seat.user
    record = {
        "seat": seat.number,
        "user": user.pk,
        "name": user.display_name or user.username,
        "why": why,
        "at": timezone.now().isoformat(),
    }
    match.leavers = [*(r for r in match.leavers if r.get("seat") != seat.number), record]
    match.save(update_fields=["leavers"])
    _follow(match, list(Seat.objects.filter(table_id=match.table_id).order_by("number")))


@transaction.atomic
def seat_forfeit(*, user: Any, table_id: str) -> Match:
    """A seated player leaves the match being played, from the table (after the page asked them
    to confirm what it costs). Exactly what a seat given up after SEAT_KEEP_SECONDS away does
    (``_give_up``), at a free table too: the player earns no reward and the seat is played at
    once to the end."""
    match = _playing_match(table_id)
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(table_id=match.table_id, user=user)
        .first()
    )
    if seat is None:
        raise TableError("not_seated")
    if seat.left:
        raise TableError("left_match")
    _give_up(match, seat, "forfeit")
    broadcast(match.table, match)
    return match


def _reset_deadline(table: Table) -> None:
    """Who plays a seat changed: the match's deadline follows (a bot moves after BOT_DELAY)."""
    match = Match.objects.select_for_update().filter(table=table).order_by("-number").first()
    if match is None or match.status != Match.Status.PLAYING:
        return
    engine = game_of(match)
    state = load_state(match)
    seats = list(table.seats.order_by("number"))
    _set_deadline(match, engine, state, seats, timezone.now())
    _schedule(match)
    match.save(update_fields=TIMER_FIELDS)


# ---------------------------------------------------------------------------------------------
# Chat


@transaction.atomic
def chat_post(*, user: Any, table_id: str, text: str, team: bool = False) -> ChatMessage:
    """A line of table chat, or of the player's team chat. At a strict table the team chat is
    closed while a round is played (open between rounds and matches)."""
    table = _locked_table(table_id)
    text = " ".join(str(text or "").split())
    if not text:
        raise TableError("chat_empty")
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise TableError("chat_too_long")
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise TableError("not_seated")
    team_no = None
    match = current_match(table)
    if team:
        engine = game_of(table)
        team_no = team_of(engine, engine.parse_options(table.options), seat.number)
        if team_no is None:
            raise TableError("no_team")
        if match.status == Match.Status.PLAYING and not engine.team_chat_open(load_state(match)):
            raise TableError("team_chat_closed")
    since = timezone.now() - timedelta(seconds=settings.CHAT_WINDOW_SECONDS)
    recent = ChatMessage.objects.filter(table=table, user=user, at__gte=since).count()
    if recent >= settings.CHAT_MAX_IN_WINDOW:
        raise TableError("chat_too_fast")
    msg = ChatMessage.objects.create(table=table, user=user, team=team_no, text=text)
    chat_changed(table)
    broadcast(table, match)
    return msg


def chat_changed(table: Table) -> None:
    """The table's chat changed (a line posted or hidden): the next read of its chat lines goes
    to the database (games.selectors.chat_lines)."""
    table.chat_seq += 1
    Table.objects.filter(pk=table.pk).update(chat_seq=F("chat_seq") + 1)


def chat_hide(*, message_ids: list[int]) -> int:
    """Staff hide chat lines; every table concerned shows its chat without them at its next
    change. Returns how many lines were hidden."""
    with transaction.atomic():
        lines = ChatMessage.objects.filter(pk__in=message_ids, hidden=False)
        tables = set(lines.values_list("table_id", flat=True))
        done = lines.update(hidden=True)
        Table.objects.filter(pk__in=tables).update(chat_seq=F("chat_seq") + 1)
    return done


def team_of(engine: Game, options: Any, seat: int) -> int | None:
    """The index of ``seat``'s team when it has a partner, else None (solo play has no team
    chat)."""
    for i, unit in enumerate(engine.teams(options)):
        if seat in unit and len(unit) > 1:
            return i
    return None
