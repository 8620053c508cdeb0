"""Reads for the live tables: what a page or a socket shows one person (DESIGN.md, selectors).

``table_state`` is the one picture of a table for one viewer: the table and its seats, the
current match (its commitment always; its secret only once revealed), the game's view for the
viewer's seat (or the spectator view, which holds no hand) and the chat the viewer may read. The
socket sends it as JSON, the page renders it as HTML: one view, two renderings.
"""

from __future__ import annotations

import time
from typing import Any

from cachetools import FIFOCache

import fairness.core as fairness
import games

# The chat's reads are games/chat_lines.py's; a chat line is read from here too.
from games.chat_lines import chat_line as chat_line
from games.chat_lines import chat_lines
from games.contract import Game
from games.kept_queries import KeptQuery
from games.models import Match, MatchAction, MatchSeed, Seat, Table
from games.picture import SeatRow, SnapshotRef, TablePicture
from games.viewers import chat_hides, viewer_state
from standing import ratings, reputation
from standing.selectors import reputation_of
from wallet.selectors import coins_by_seat

# ---------------------------------------------------------------------------------------------
# What the services and the pages both read: a match's game, state, random source and teams


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


def current_match(table: Table) -> Match:
    """The table's latest match (waiting, playing, or the last one played)."""
    return table.matches.order_by("-number").first()  # type: ignore[return-value]


def team_of(engine: Game, options: Any, seat: int) -> int | None:
    """The index of ``seat``'s team when it has a partner, else None (solo play has no team
    chat)."""
    for i, unit in enumerate(engine.teams(options)):
        if seat in unit and len(unit) > 1:
            return i
    return None


# ---------------------------------------------------------------------------------------------
# A table as its viewers see it


def seat_of(table: Table, user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return table.seats.filter(user=user).first()


def can_watch(table: Table, user: Any, invited: bool = False) -> bool:
    """Public tables are open to every signed-in player; a private one to its seats and to
    whoever holds its invite link."""
    if not table.private or invited:
        return True
    return seat_of(table, user) is not None or (user is not None and user.pk == table.created_by_id)


# Read at every move: kept compiled (games/kept_queries.py).
_seats_with_players = KeptQuery(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id).select_related("user__standing").order_by("number")
    ),
    marker=-1,
)


def seats_with_players(table_id: int) -> list[Seat]:
    """A table's seats in order, each with its player and the player's standing (what the seat
    shows) read in the same statement: a move reads them so, and the table's picture is drawn
    from them with no query more (tests/tables/test_move_statements.py)."""
    return _seats_with_players(table_id)


def _seat_row(seat: Seat, mode: str) -> dict[str, Any]:
    name = rating = rep = None
    if seat.user_id is not None:
        name = seat.user.display_name or seat.user.username
        if not seat.is_bot:
            # The player's standing as the seat shows it (read with the seat: no query more).
            kept = getattr(seat.user, "standing", None)
            rating = kept.shown.get(mode) if kept is not None else None
            rep = reputation.reputation(kept.recent if kept is not None else "")
    return {
        "number": seat.number,
        "name": name,
        # [the rating shown, provisional?] in the table's mode (None before a rated match),
        # and the reputation for finishing in percent.
        "rating": rating,
        "reputation": rep,
        "bot": seat.is_bot,
        "bot_level": seat.bot_level if seat.is_bot else None,
        "bot_playing": seat.bot_playing,
        "left": seat.left,
        "connected": seat.connected > 0 or seat.is_bot,
        "away_since": seat.away_since.isoformat() if seat.away_since else None,
        "ready": seat.ready,
        "back_from": seat.back_from.isoformat() if seat.back_from else None,
    }


def match_public(match: Match, seeds: list[MatchSeed] | None = None) -> dict[str, Any]:
    """What anyone may know of a match: never its secret before the reveal, and its recap only
    after. ``seeds``: the match's seeds when the caller already holds them (else they are
    read)."""
    if seeds is None:
        seeds = list(match.seeds.order_by("seat"))
    return {
        "id": match.public_id,
        "number": match.number,
        "status": match.status,
        "commitment": match.commitment,
        "secret": match.secret if match.revealed else None,
        "seq": match.seq,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "seeds": [{"seat": s.seat, "seed": s.seed, "at": s.at.isoformat()} for s in seeds],
        "outcome": match.outcome,
        "recap": match_recap(match),
        "coins": match_coins(match),
        "end_reason": match.end_reason or None,
        # Seats given up during the match, by name (no account id: that stays on the server).
        "leavers": [{"seat": r["seat"], "name": r["name"], "why": r["why"]} for r in match.leavers],
    }


# Match public id -> the finished match's recap. A finished match never changes, so its log is
# read once per process; old entries are dropped.
RECAP_CACHE_SIZE = 1024
_recaps: FIFOCache[str, dict[str, Any] | None] = FIFOCache(maxsize=RECAP_CACHE_SIZE)


def match_recap(match: Match) -> dict[str, Any] | None:
    """What the end screen of a finished match shows that play hid (the game's ``recap``: for
    Jakaro the last deck's moves and the cards it dealt). None unless the match is finished and
    its secret revealed, so nothing of a hand leaves the server before; a match being played
    returns here at once, so a move's broadcast never reads the log. Made once per match and
    process, the log read with it (only if the game needs it)."""
    if match.status != Match.Status.FINISHED or not match.revealed or not match.snapshot:
        return None
    ident = match.public_id
    if ident in _recaps:
        return _recaps[ident]
    engine = game_of(match)
    # Lazy: a game whose recap needs no log (Hand) never runs this query.
    log = MatchAction.objects.filter(match=match).order_by("seq").values_list("seat", "action")
    recap = engine.recap(engine.from_json(match.snapshot), log)
    _recaps[ident] = recap  # the oldest entry goes when the cache is full
    return recap


# Match public id -> what a finished match's settlement moved per seat (read once per process).
_coins: FIFOCache[str, dict[str, int]] = FIFOCache(maxsize=RECAP_CACHE_SIZE)


def match_coins(match: Match) -> dict[str, int] | None:
    """What each seat of a finished match won or paid, from the ledger's settlement (the end
    screen says it: issue 57, item 8); None before the end or for an aborted match (its
    stakes came back whole). The match is settled in the transaction that finishes it, so a
    finished match's is final."""
    if match.status != Match.Status.FINISHED:
        return None
    ident = match.public_id
    if ident not in _coins:
        _coins[ident] = coins_by_seat(match)
    return _coins[ident]


def picture_and_shown(
    table: Table,
    *,
    seats: list[Seat] | None = None,
    match: Match | None = None,
    seeds: list[MatchSeed] | None = None,
) -> tuple[TablePicture, Match]:
    """``table_picture`` and the match whose view the table shows. A service that already
    holds the rows (the seats with their users, the current match and its seeds, all as its
    transaction left them) passes them in, so a move's broadcast reads nothing more."""
    # When the reading began: of two reads of the same move, the later one saw every commit the
    # earlier one saw (a seat's presence, a chat line), so its picture is the one to keep.
    read_at = time.time()
    if seats is None:
        seats = seats_with_players(table.pk)
    if match is None:
        match, seeds = current_match(table), None
    shown = match
    if match.status == Match.Status.WAITING and match.number > 1:
        # Between matches the last one's result stays on the table until the next one starts.
        shown = table.matches.get(number=match.number - 1)
    engine = game_of(table)
    options = engine.parse_options(table.options)
    mode = ratings.mode_of(table.game, table.options)
    rows = tuple(SeatRow(s.user_id, team_of(engine, options, s.number)) for s in seats)
    teams = tuple(sorted({r.team for r in rows if r.team is not None}))
    picture = TablePicture(
        table={
            "id": table.public_id,
            "game": table.game,
            "options": table.options,
            "private": table.private,
            "stake": table.stake,
            "turn_seconds": table.turn_seconds,
            "status": table.status,
            "seats": [_seat_row(s, mode) for s in seats],
        },
        match=match_public(match, seeds),
        shown=_shown_public(shown, seats) if shown.pk != match.pk else None,
        seats=rows,
        shown_users=(
            tuple(r["user"] for r in shown.seating)
            if shown.pk != match.pk and shown.seating
            else None
        ),
        left_users=frozenset(r["user"] for m in {match, shown} for r in m.leavers),
        chat=chat_lines(table, teams),
        snapshot=SnapshotRef(shown.game, shown.public_id, shown.seq) if shown.snapshot else None,
        read_at=read_at,
    )
    return picture, shown


def _shown_public(shown: Match, seats: list[Seat]) -> dict[str, Any]:
    """The match shown between matches, with its ``seating``: each seat's name as it ended and
    where that player sits now (``now``: a seat number, or None if they left the table; a bot,
    found by its seat's row, moved one seat back like everyone, None if its seat no longer
    holds a bot); the account ids and rows stay on the server."""
    public = match_public(shown)
    users = [s.user_id for s in seats]
    bots = [s.pk if s.is_bot else None for s in seats]

    def now(r: dict[str, Any]) -> int | None:
        if r["bot"]:
            # A match saved before bots' entries kept their row has none: not found (``bots``
            # holds None for every person's seat, so a missing row must not be looked up).
            row = r.get("row")
            return bots.index(row) if row is not None and row in bots else None
        return users.index(r["user"]) if r["user"] is not None and r["user"] in users else None

    public["seating"] = [{"name": r["name"], "bot": r["bot"], "now": now(r)} for r in shown.seating]
    return public


def table_picture(table: Table) -> TablePicture:
    """What every viewer of the table shares, read once per change (the "table changed" event
    carries it); ``viewer_state`` adds one viewer's own part. Holds no hand and no secret before
    its reveal."""
    return picture_and_shown(table)[0]


def table_mark(table: Table) -> tuple[str, int] | None:
    """(public id, seq) of the table's latest match: what a page shows when it is up to date
    (its ``data-match`` and ``data-seq``)."""
    return table.matches.order_by("-number").values_list("public_id", "seq").first()


def table_state(table: Table, user: Any) -> dict[str, Any]:
    """The table as ``user`` may see it (see the module docstring)."""
    return table_states(table, user)[0]


def table_states(table: Table, user: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``table_state`` for ``user``, and for a watcher: what the part of the table every viewer
    shares is drawn from (games/frames.py), from one reading."""
    picture, shown = picture_and_shown(table)
    view = spectator = None
    if shown.snapshot:
        engine = game_of(shown)
        state = load_state(shown)
        mine = picture.view_seat_of(getattr(user, "pk", None))
        spectator = engine.spectator_view(state)
        view = spectator if mine is None else engine.view(state, mine)
    return (
        viewer_state(picture, user, table.created_by_id, view, *chat_hides(user, table)),
        viewer_state(picture, None, table.created_by_id, spectator),
    )


def open_tables() -> list[Table]:
    """The lobby's list: public tables not closed, newest first."""
    return list(
        Table.objects.filter(private=False)
        .exclude(status=Table.Status.CLOSED)
        .select_related("created_by")
        .prefetch_related("seats__user")
        .order_by("-created_at")[:100]
    )


def open_tables_of(game: str | None) -> list[Table]:
    """The lobby's list for one game (None or an unknown name: every game)."""
    tables = open_tables()
    if game in games.NAMES:
        return [t for t in tables if t.game == game]
    return tables


def quick_seat(
    user: Any, *, game: str, players: int | None, partners: bool | None, stake: int
) -> tuple[Table, int] | None:
    """Quick play: the first open seat (table, seat number) of a public table of ``game`` that
    waits for players and fits: ``players`` and ``partners`` when given, exactly ``stake``, a
    minimum reputation the player has.
    Tables with the most people already seated come first (they start soonest), then the
    oldest. None when no seat fits. A read only: the seat is taken by the player's browser,
    with its seed, like any other sit-down."""
    engine = games.get(game)
    candidates = (
        Table.objects.filter(private=False, game=game, stake=stake, status=Table.Status.OPEN)
        .filter(min_reputation__lte=reputation_of(user))
        # Neither of two players one of whom blocked the other is shown the other's table.
        .exclude(seats__user__blocking__blocked=user)
        .exclude(seats__user__blocked_by__blocker=user)
        .exclude(created_by__blocking__blocked=user)
        .exclude(seats__user=user)
        .filter(seats__user__isnull=True, seats__is_bot=False)
        .distinct()
        .prefetch_related("seats")
        .order_by("created_at")[:200]
    )
    fitting = []
    for table in candidates:
        parsed = engine.parse_options(table.options)
        if players is not None and len(table.seats.all()) != players:
            continue
        if partners is not None and any(len(u) > 1 for u in engine.teams(parsed)) != partners:
            continue
        if current_match(table).status != Match.Status.WAITING:
            continue
        empty = [s.number for s in table.seats.all() if s.empty]
        if empty:
            taken = len(table.seats.all()) - len(empty)
            fitting.append((-taken, table.created_at, table, empty[0]))
    if not fitting:
        return None
    fitting.sort(key=lambda row: row[:2])
    return fitting[0][2], fitting[0][3]
