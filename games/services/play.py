"""Play: a player's move, whatever is due at a deadline, and the one way a match ends.

A match is its log: each applied action is appended to ``MatchAction`` and the snapshot updated
in the same transaction (``_apply_and_log``). Players' actions come through ``match_play``;
everything else that is due (the server's own step, a bot's move, a time-out) is played by
``match_advance`` when the match's deadline passes, called by the countdown task and by the beat
sweeper (games/tasks.py). Every ending, a match played out or one aborted, goes through
``end_match``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from games import kept_queries
from games.contract import Game, IllegalAction, Outcome
from games.models import ChatMessage, EndReason, Match, MatchAction, Seat, Table
from games.selectors import game_of, load_state, random_source, team_of
from games.services import clock, coins, events
from games.services.chat import chat_changed
from games.services.errors import TableError
from games.services.tables import new_match, playing_match
from standing import services as standing

# What a logged action changes on the match row (a move's UPDATE stays small: kept_queries).
MOVE_FIELDS = (
    "seq",
    "snapshot",
    "tally",
    "status",
    "outcome",
    "ended_at",
    "revealed_at",
    *clock.TIMER_FIELDS,
)
# What an ending changes on it, besides the last action's fields.
ENDING_FIELDS = (*MOVE_FIELDS, "end_reason")


def _apply_and_log(
    match: Match,
    engine: Game,
    state: Any,
    seat: int | None,
    action: str,
    by: str,
    rows: events.RowsInHand,
) -> Outcome | None:
    """Apply one action, log it, and update the snapshot and the deadline (the caller holds the
    match row's lock and then calls ``_after_action``). Returns the match's outcome if the
    action ended it."""
    text = engine.canonical(seat, action)
    new = engine.apply(state, seat, text, random_source(match, rows.seeds))
    match.seq += 1
    at = timezone.now()
    row = {"match": match.pk, "seq": match.seq, "seat": seat, "action": text, "by": by, "at": at}
    kept_queries.insert_row(MatchAction, row)
    match.snapshot = engine.to_json(new)
    _add_tally(match, engine.tally(state, new))
    result = engine.outcome(new)
    if result is None:
        # The next turn starts when this action was logged (its ``at``), not a moment later when
        # the snapshot is written: a turn's time is counted from what the log shows.
        clock.set_deadline(match, engine, new, rows.seats, at)
    return result


def _add_tally(match: Match, counts: dict[int, dict[str, int]]) -> None:
    """The action's statistics added to the match's (JSON: the seats' keys are strings)."""
    for seat, row in counts.items():
        mine = match.tally.setdefault(str(seat), {})
        for key, n in row.items():
            mine[key] = mine.get(key, 0) + n


def _after_action(match: Match, rows: events.RowsInHand, result: Outcome | None) -> None:
    """After an action was logged: a match it ended ends (``end_match``); one that goes on is
    saved, its countdown scheduled and the change broadcast from the rows in hand, after
    commit."""
    if result is not None:
        end_match(match, Match.Status.FINISHED, outcome=result)
        return
    clock.schedule(match)
    kept_queries.update_row(match, MOVE_FIELDS)
    events.broadcast(match.table, match, rows=rows)


def end_match(
    match: Match, status: str, *, outcome: Outcome | None = None, reason: str = ""
) -> None:
    """The one way a match ends, played out (``FINISHED`` with its ``outcome``) or aborted
    (``ABORTED`` with its ``reason``): its clock stops and its secret is revealed; the coins
    move (a finished match is settled, an aborted one refunded); the table opens again with the
    next match's commitment fixed at once; everyone at the table is told after commit. The
    caller holds the match row's lock."""
    was_playing = match.status == Match.Status.PLAYING
    table = match.table
    idle: set[int] = set()
    if was_playing:
        # The seats as the match ended (a leaver's seat still holds them: it is emptied when
        # the table reopens, below).
        seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
        match.seating = [_sitter(s) for s in seats]
        idle = _idle_seats(match, seats)
        people = [s for s in seats if s.user_id is not None and not s.is_bot]
        if status == Match.Status.FINISHED and people and all(s.number in idle for s in people):
            # No person made a move: stand-in bots and time-outs played it all. Aborted as
            # Lichess aborts a game before both sides moved: stakes back, nothing rated.
            status, outcome, reason = Match.Status.ABORTED, None, EndReason.UNPLAYED
    match.status = status
    if outcome is not None:
        match.outcome = outcome.to_dict()
    if reason:
        match.end_reason = reason
    match.ended_at = match.revealed_at = timezone.now()
    match.deadline = None
    clock.schedule(match)  # an ended match has no countdown
    match.save(update_fields=(*ENDING_FIELDS, "seating") if was_playing else ENDING_FIELDS)
    if was_playing:
        if status == Match.Status.FINISHED:
            coins.settle(match)  # the pot (or free-table rewards), once
        else:
            coins.refund(match)  # every stake back in full
        # The players' ratings, history and standing, once, from the seats as the match ended.
        standing.match_ended(match, seats, finished=status == Match.Status.FINISHED, idle=idle)
        events.presence_changed(*(s.user_id for s in seats if s.user_id is not None))
        _reopen(table, match, deal_moves_on=status == Match.Status.FINISHED)
    else:
        # A waiting match is replaced by a fresh one with a new commitment, its seats emptied.
        Seat.objects.filter(table=table).update(ready=False, user=None, is_bot=False)
        new_match(table, match.number + 1)
    events.broadcast(table, match)


def _idle_seats(match: Match, seats: list[Seat]) -> set[int]:
    """The seats of people who made no move of their own in the match (every turn of theirs a
    time-out or a stand-in bot's): they are not rated by it (docs/standing.md)."""
    moved = set(
        MatchAction.objects.filter(match=match, by=MatchAction.By.PLAYER)
        .values_list("seat", flat=True)
        .distinct()
    )
    return {s.number for s in seats if s.user_id is not None and s.number not in moved}


def _sitter(seat: Seat) -> dict[str, Any]:
    """A seat's occupant as the match's ``seating`` keeps it; ``row`` is the seat's row, which
    the deal's move renumbers with its occupant: where a bot sits now (it has no account)."""
    user = seat.user
    name = (user.display_name or user.username) if user is not None else None
    level = seat.bot_level if seat.is_bot else None
    return {"user": seat.user_id, "name": name, "bot": seat.is_bot, "level": level, "row": seat.pk}


def _reopen(table: Table, match: Match, *, deal_moves_on: bool) -> None:
    """The table goes back to waiting, with the next match's commitment fixed at once, so the
    players' browsers can show it before they send their "ready" seeds. After a match played
    out, the deal moves on (``_move_the_deal_on``)."""
    table.status = Table.Status.OPEN
    table.save(update_fields=["status"])
    # A player who left a coin table during the match (settled without a share by now) gives the
    # seat up: kept, it would stop the next match from ever starting.
    Seat.objects.filter(table=table, left=True).update(
        user=None, left=False, connected=0, away_since=None
    )
    if deal_moves_on:
        _move_the_deal_on(table)
    Seat.objects.filter(table=table, back_from__isnull=False).update(back_from=None)
    Seat.objects.filter(table=table).update(ready=False)
    Seat.objects.filter(table=table, is_bot=True).update(ready=True)
    new_match(table, match.number + 1)
    events.broadcast_lobby()


def _move_the_deal_on(table: Table) -> None:
    """Every occupant moves one seat back (seat k's to seat k - 1, seat 0's to the last), so the
    player who started this match deals the next one and the player after them starts: the deal
    moves on around the table as it does from round to round (Hand) and deck to deck (Jakaro),
    while the engines, the fair shuffle and its verifiers keep the one rule "match 1's dealer is
    the last seat" (docs/rules). The order around the table is kept, so partners stay partners
    and everyone sees the same neighbours. The caller holds the table's lock.

    The seat rows themselves are renumbered, so everything about an occupant (the player or
    bot, their sockets, their absence) moves with its row, and a lookup of a player's seat that
    waits for the row's lock meanwhile still finds it. Two UPDATEs, each free of clashes with
    seat_unique_number: every number first moves past the last seat, then to its new place."""
    seats = Seat.objects.filter(table=table)
    n = len(seats.select_for_update())
    seats.update(number=F("number") + n)
    seats.update(number=Case(When(number=n, then=Value(n - 1)), default=F("number") - n - 1))
    _team_chat_follows(table, n)


def _team_chat_follows(table: Table, n: int) -> None:
    """A team's chat lines are kept under the team's number, which is its seats': when the
    players move one seat, each team's lines take their new number, so partners keep reading
    their own and never the other team's."""
    engine = game_of(table)
    options = engine.parse_options(table.options)
    moved = {}
    for k in range(n):
        old, new = team_of(engine, options, k), team_of(engine, options, (k - 1) % n)
        if old is not None and new is not None and old != new:
            moved[old] = new
    if moved:  # one UPDATE: the numbers swap
        ChatMessage.objects.filter(table=table, team__in=list(moved)).update(
            team=Case(*(When(team=old, then=Value(new)) for old, new in moved.items()))
        )
        chat_changed(table)  # the lines cached under the last chat_seq are stale


@transaction.atomic
def match_play(*, user: Any, table_id: str, seq: int, action: str) -> Match:
    """A seated player's move. ``seq`` is what the player last saw: a stale or repeated move is
    refused, never applied twice."""
    if not isinstance(action, str) or not action.strip() or len(action) > 200:
        raise IllegalAction("bad_action")
    match = playing_match(table_id)
    rows = events.RowsInHand.read(match)
    seat = next((s for s in rows.seats if s.user_id == user.pk), None)
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
    result = _apply_and_log(match, engine, state, seat.number, action, MatchAction.By.PLAYER, rows)
    if seat.back_from is not None:  # they play again: the "you were away" warning has done
        Seat.objects.filter(pk=seat.pk).update(back_from=None)
        seat.back_from = None
    _after_action(match, rows, result)
    return match


def match_advance(*, match_id: int, timer: str | None = None, skip_locked: bool = False) -> bool:
    """Play whatever is due if the match's deadline has passed: the server's step, a bot's move,
    or the time-out move for an absent player. Called by the countdown task (``timer``: the time
    it was queued for, so it can tell it is the match's queued one) and by the sweeper. A
    countdown that fires before the deadline (people moved meanwhile) queues itself again for
    the deadline. True if an action was played."""
    with transaction.atomic():
        found = Match.objects.select_for_update(skip_locked=skip_locked, of=("self",))
        match = found.filter(pk=match_id).select_related("table").first()
        if match is None or match.status != Match.Status.PLAYING or match.deadline is None:
            return False
        if timer is not None and match.timer_at == clock.parse_time(timer):
            match.timer_at = None  # this is the match's queued countdown, and it has fired
            if match.deadline > timezone.now():
                clock.schedule(match)
                match.save(update_fields=["timer_at"])
                return False
        if match.deadline > timezone.now():
            return False
        engine = game_of(match)
        state = load_state(match)
        rows = events.RowsInHand.read(match)
        d = clock.due(engine, state, rows.seats, clock.turn_time(match))
        if d is None:
            return False
        if d.by == MatchAction.By.SERVER:
            action = engine.server_step(state)
        elif d.by == MatchAction.By.BOT:
            seat = rows.seats[d.seat]
            # A bot seated from the start plays at its strength; one that plays for a player
            # who is away or left plays at "normal" (docs/bots.md).
            level = seat.bot_level if seat.is_bot else "normal"
            action = engine.bot_action(engine.view(state, d.seat), level)
        else:
            action = engine.auto_action(state, d.seat)
        by = MatchAction.By.TIMEOUT if d.by == MatchAction.By.PLAYER else d.by
        result = _apply_and_log(match, engine, state, d.seat, action, by, rows)
        _after_action(match, rows, result)
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
    end_match(match, Match.Status.ABORTED, reason=reason)
    return match
