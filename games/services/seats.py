"""Seats: sitting down with a seed, a bot in a seat, standing up, "ready" for the next match, the
match's start once every seat is ready, and a seat given up during a match (left, or kept too
long while its player was away).
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.contract import BOT_LEVELS, Outcome, forfeit_outcome
from games.models import EndReason, Match, MatchSeed, Seat, Table
from games.selectors import current_match, game_of, random_source
from games.services import clock, coins, events
from games.services.errors import TableError
from games.services.play import end_match
from games.services.presence import sockets_of
from games.services.tables import locked_table, my_seat, playing_match
from moderation import rules as moderation
from standing import services as standing
from standing.selectors import reputation_of

SEED_PATTERN = re.compile(r"\A[0-9a-f]{32,64}\Z")


def _waiting_seats(table: Table, number: Any) -> tuple[Match, list[Seat]]:
    """The waiting match and the locked seats, with ``number`` checked to be one of them."""
    if table.status == Table.Status.CLOSED:
        raise TableError("table_closed")  # idle, closed by the sweeper (tables_idle)
    match = current_match(table)
    if match.status != Match.Status.WAITING:
        raise TableError("not_waiting")
    seats = list(table.seats.select_for_update().order_by("number"))
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(seats):
        raise TableError("no_such_seat")
    return match, seats


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
    table = locked_table(table_id)
    match, seats = _waiting_seats(table, number)
    if any(s.user_id == user.pk for s in seats):
        raise TableError("already_seated")
    if all(not s.empty for s in seats):
        raise TableError("table_full")
    seat = seats[number]
    if not seat.empty:
        raise TableError("seat_taken")
    seed = _check_seed(match, seed, commitment, match_id)
    _check_may_play(user, table)
    # Wallet: enough coins for the stake, checked under the wallet's lock.
    if not coins.can_cover(user, table):
        raise TableError("not_enough_coins")
    seat.user = user
    seat.ready = True
    # The sockets this person already has open to the table (they were watching) hold the seat.
    seat.connected = sockets_of(table, user)
    seat.away_since = None
    seat.save(update_fields=["user", "ready", "connected", "away_since"])
    MatchSeed.objects.create(match=match, seat=number, seed=seed, user=user)
    _start_if_full(table, match, seats)
    events.broadcast(table, match)
    events.broadcast_lobby()
    events.presence_changed(user.pk)
    return seat


@transaction.atomic
def seat_add_bot(*, user: Any, table_id: str, number: int, level: str | None = None) -> Seat:
    """The creator of a free table puts a bot («لاعب آلي») in an empty seat, of strength
    ``level`` (easy, normal or strong: games.contract.BOT_LEVELS), by default the one chosen for
    the table. Bots add no seed."""
    if level is not None and level not in BOT_LEVELS:
        raise TableError("bad_bot_level")
    table = locked_table(table_id)
    level = level or table.bot_level
    if table.created_by_id != user.pk:
        raise TableError("not_creator")
    if not table.is_free:
        raise TableError("bots_free_tables_only")
    match, seats = _waiting_seats(table, number)
    seat = seats[number]
    if not seat.empty:
        raise TableError("seat_taken")
    seat.is_bot, seat.bot_level = True, level
    seat.ready = True
    seat.save(update_fields=["is_bot", "bot_level", "ready"])
    _start_if_full(table, match, seats)
    events.broadcast(table, match)
    events.broadcast_lobby()
    events.presence_changed(user.pk)
    return seat


@transaction.atomic
def seat_leave(*, user: Any, table_id: str) -> None:
    """Stand up before the match starts (the seat's seed is withdrawn with it)."""
    table = locked_table(table_id)
    if table.status == Table.Status.CLOSED:
        raise TableError("table_closed")  # idle, closed by the sweeper (tables_idle)
    match = current_match(table)
    if match.status != Match.Status.WAITING:
        raise TableError("not_waiting")
    seat = my_seat(table, user)
    if seat is None:
        raise TableError("not_seated")
    MatchSeed.objects.filter(match=match, seat=seat.number).delete()
    seat.user, seat.ready = None, False
    seat.save(update_fields=["user", "ready"])
    _end_mutes(user, table)
    events.broadcast(table, match)
    events.broadcast_lobby()
    events.presence_changed(user.pk)


def _check_may_play(user: Any, table: Table) -> None:
    """A player locked out for leaving starts no match (LockedOut says until when), a table's
    minimum reputation keeps out those below it, and its creator's block the one blocked."""
    standing.check_may_start(user)
    if table.min_reputation and reputation_of(user) < table.min_reputation:
        raise TableError("reputation_low")
    # A player the table's creator blocked does not sit at their table (the block is private:
    # the words do not say why). Read through the user's reverse relation (social.Block).
    if user.blocked_by.filter(blocker_id=table.created_by_id).exists():
        raise TableError("not_at_this_table")
    if not table.is_free:
        moderation.check_coin_table(user)  # the staff may ban a player from coin tables


def _end_mutes(user: Any, table: Table) -> None:
    """A player who gives up their seat leaves the table: their mutes there end (moderation's
    ChatMute, read through the user's reverse relation, as social.Block is above)."""
    user.chat_mutes.filter(table=table).delete()


def _start_if_full(table: Table, match: Match, seats: list[Seat]) -> None:
    if any(s.empty for s in seats) or not all(s.ready for s in seats):
        return
    match = Match.objects.select_for_update().get(pk=match.pk)
    # Wallet: every stake into the match's escrow, all or nothing. A player who can no longer
    # cover it (coins spent since sitting down) is stood up and the match waits.
    broke = coins.escrow_stakes(match, seats)
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
    clock.set_deadline(match, engine, state, seats, now)
    clock.schedule(match)
    match.save()
    events.presence_changed(*(s.user_id for s in seats if s.user_id is not None))  # playing


@transaction.atomic
def table_ready(*, user: Any, table_id: str, seed: str, commitment: str, match_id: str) -> Match:
    """After a match ends, a seated player asks for the next one at the same table, with a fresh
    seed made after the next match's commitment was shown."""
    table = locked_table(table_id)
    nxt = current_match(table)
    if nxt.status != Match.Status.WAITING:
        raise TableError("not_over")  # the next match is created when this one ends
    seat = my_seat(table, user)
    if seat is None:
        raise TableError("not_seated")
    if seat.ready:
        raise TableError("already_ready")
    seed = _check_seed(nxt, seed, commitment, match_id)
    _check_may_play(user, table)
    # Wallet: enough coins for the next match's stake, checked under the wallet's lock.
    if not coins.can_cover(user, table):
        raise TableError("not_enough_coins")
    MatchSeed.objects.create(match=nxt, seat=seat.number, seed=seed, user=user)
    seat.ready = True
    seat.save(update_fields=["ready"])
    seats = list(table.seats.select_for_update().order_by("number"))
    _start_if_full(table, nxt, seats)
    events.broadcast(table, nxt)
    return nxt


def _give_up(match: Match, seat: Seat, why: str) -> bool:
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
    standing.player_left(user.pk)  # the run of leaves, and the lock-out it may bring
    seats = list(Seat.objects.filter(table_id=match.table_id).order_by("number"))
    outcome = _forfeit_outcome(match, seats)
    if outcome is not None:
        end_match(match, Match.Status.FINISHED, outcome=outcome, reason=EndReason.FORFEIT)
        return True
    clock.follow(match, seats)
    return False


def _forfeit_outcome(match: Match, seats: list[Seat]) -> Outcome | None:
    """The result when every side but one has only seats given up and the one left has a person
    still seated and present (two players, one left; or, at any table, every other person gone
    and no bot seated from the start against them): that side is first, every other side shares
    second, and the winners' share is the whole prize (docs/wallet.md, "Won by forfeit"). None
    while someone on another side plays on, a person or a bot seated from the start."""
    engine = game_of(match)
    units = engine.teams(engine.parse_options(match.options))
    outcome = forfeit_outcome(units, {s.number for s in seats if s.left})
    if outcome is None:
        return None
    winners = outcome.places[0][1]
    # The winners need a person still there: seated and not away past SEAT_KEEP_SECONDS. One as
    # absent as the leavers (both dropped at once, the sweeper reaching the other seat first)
    # wins nothing for it: their seat is given up in turn, and the match is played out.
    limit = timezone.now() - timedelta(seconds=settings.SEAT_KEEP_SECONDS)
    return outcome if any(_present(seats[s], limit) for s in winners) else None


def _present(seat: Seat, limit: Any) -> bool:
    """A person in the seat who has not left it and has not been away since before ``limit``."""
    if seat.user_id is None or seat.is_bot or seat.left:
        return False
    return seat.connected > 0 or seat.away_since is None or seat.away_since > limit


@transaction.atomic
def seat_forfeit(*, user: Any, table_id: str) -> Match:
    """A seated player leaves the match being played, from the table (after the page asked them
    to confirm what it costs). Exactly what a seat given up after SEAT_KEEP_SECONDS away does
    (``_give_up``), at a free table too: the player earns no reward and the seat is played at
    once to the end."""
    match = playing_match(table_id)
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
    ended = _give_up(match, seat, "forfeit")
    _end_mutes(user, match.table)
    if not ended:  # an ending has told the table already
        events.broadcast(match.table, match)
    return match


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
        clock.follow(match, list(Seat.objects.filter(table_id=table_pk).order_by("number")))
    elif _give_up(match, seat, "away"):
        return True  # the match ended: its ending has told the table
    events.broadcast(seat.table, match)
    return True


def _lapsed() -> Any:
    """The seats whose player has not said "ready" (played again) REMATCH_SECONDS after their
    table's last match ended (docs/social.md, "Play again")."""
    limit = timezone.now() - timedelta(seconds=settings.REMATCH_SECONDS)
    recent = Match.objects.filter(table=OuterRef("table"), ended_at__gt=limit)
    return Seat.objects.filter(
        user__isnull=False,
        is_bot=False,
        ready=False,
        table__status=Table.Status.OPEN,
        table__matches__status=Match.Status.WAITING,
        table__matches__number__gt=1,
    ).filter(~Exists(recent))


def rematch_lapsed() -> list[int]:
    """The seats to open: their player did not play again in time."""
    return list(_lapsed().values_list("pk", flat=True).distinct())


@transaction.atomic
def seat_lapse(*, seat_id: int) -> bool:
    """Open the seat of a player who did not play again in time (checked again under the
    table's lock); True if it was opened."""
    table_pk = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    if table_pk is None:
        return False
    table = Table.objects.select_for_update().get(pk=table_pk)
    seat = _lapsed().select_for_update(of=("self",)).filter(pk=seat_id).first()
    if seat is None:
        return False
    user_id = seat.user_id
    seat.user, seat.connected, seat.away_since, seat.back_from = None, 0, None, None
    seat.save(update_fields=["user", "connected", "away_since", "back_from"])
    events.broadcast(table, current_match(table))
    events.broadcast_lobby()
    events.presence_changed(user_id)
    return True
