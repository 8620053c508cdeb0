"""The HTML rendering of a table: the page and the table socket's HTML mode draw the SAME
``selectors.table_state`` dict (one view, two renderings; the other is the socket's JSON).

Nothing here reads the database or the engine's state: only the dict a viewer may see, so a
fragment can never hold more than that viewer's own JSON frame would. This module keeps the
table's frame (seats, turn, result, what the viewer may do) and the socket's fragments; each
game's part and words come from its face (``games.faces.get(game)``), the words both games
share from the common face (games/faces/common.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

import games
from games import faces
from games.faces.common import (
    SEEDS_KEY,
    bot_indexes,
    bot_label,
    left_name,
    named,
    options_words,
    outcome_rows,
    turn_words,
)
from language import digits as digit_style
from wallet.payouts import fee_of

# --------------------------------------------------------------------------------- the lobby


def lobby_row(table: Any) -> dict[str, Any]:
    """One table of the lobby's list (a ``Table`` with its seats prefetched)."""
    seats = []
    rows = list(table.seats.all())
    bots = bot_indexes(rows, lambda s: s.is_bot)
    for i, seat in enumerate(rows):
        if seat.is_bot:
            label = bot_label(bots[i], seat.bot_level)
            seats.append({"label": label, "bot": True, "empty": False})
        elif seat.user_id is not None:
            name = seat.user.display_name or seat.user.username
            seats.append({"label": name, "bot": False, "empty": False})
        else:
            seats.append({"label": _("empty seat"), "bot": False, "empty": True})
    return {
        "id": table.public_id,
        "game": table.game,
        "options": options_words(table.game, table.options),
        "turn": turn_words(table.turn_seconds),
        "seats": seats,
        "taken": sum(not s["empty"] for s in seats),
        "playing": table.status == "playing",
        "free": table.stake == 0,
        # The wallet: a coin table's stake and pot (every seat's stake, escrowed at the start).
        "stake": table.stake,
        "pot": table.stake * len(seats),
        "min_reputation": table.min_reputation,
    }


def lobby_groups(tables: list[Any]) -> list[dict[str, Any]]:
    """The lobby's tables by game, Hand first."""
    return [
        {
            "game": game,
            "name": faces.game_name(game),
            "tables": [lobby_row(t) for t in tables if t.game == game],
        }
        for game in games.NAMES
    ]


# --------------------------------------------------------------------------------- a table


def _parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _seats(state: dict[str, Any]) -> list[dict[str, Any]]:
    view = state.get("view") or {}
    # Cards in hand only while a match is played: between matches the view is the last match's,
    # whose seats the players have left one seat since (the deal moves on).
    counts = (view.get("hand_counts") or []) if state["match"]["status"] == "playing" else []
    you = state["you"]["seat"]
    turn = view.get("turn") if state["match"]["status"] == "playing" else None
    rows = []
    bots = bot_indexes(state["table"]["seats"], lambda s: s["bot"])
    for i, seat in enumerate(state["table"]["seats"]):
        n = seat["number"]
        if seat["bot"]:
            label = bot_label(bots[i], seat.get("bot_level"))
        elif seat["name"] and seat.get("left"):
            label = left_name(seat["name"])
        elif seat["name"]:
            label = seat["name"]
        else:
            label = None
        away_until = None
        away = _parse_time(seat["away_since"])
        if away is not None and not seat["bot"] and seat["name"]:
            away_until = (away + timedelta(seconds=settings.SEAT_KEEP_SECONDS)).isoformat()
        rows.append(
            {
                **seat,
                "label": label,
                # Where room is short (a name on the Jakaro board, among the marbles), a bot's
                # name without its strength, which the seats' chips say.
                "short": bot_label(bots[i]) if seat["bot"] else label,
                "empty": label is None,
                "you": n == you,
                "turn": n == turn,
                "count": counts[n] if n < len(counts) else None,
                "away_until": away_until,
                "human": seat["name"] is not None and not seat["bot"],
                # The clocks a seat shows (its turn's, its seat kept while away) count against
                # the server's time of this state: only those seats carry it, so a seat drawn
                # as a part ({% part %}) is the same from one state to the next unless it moved.
                "deadline": state["match"]["deadline"] if n == turn else None,
                "now": state["now"] if n == turn or away_until is not None else None,
            }
        )
    return rows


def _as_played(seats: list[dict[str, Any]], played: dict[str, Any]) -> list[dict[str, Any]]:
    """The seats as the played match shown between matches had them (its ``seating``): each by
    the name it had then, with the live part (presence, rating, ready) of where that player
    sits now; the players have moved one seat since (the deal moves on). A match without a
    seating (the one being played, or one kept before seatings were) is named from the seats
    as they are."""
    seating = played.get("seating")
    if not seating:
        return seats
    bots = bot_indexes(seating, lambda r: r["bot"])
    out = []
    for number, was in enumerate(seating):
        now = seats[was["now"]] if was["now"] is not None and was["now"] < len(seats) else {}
        label = bot_label(bots[number], was.get("level")) if was["bot"] else was["name"]
        out.append(
            {
                **now,
                "number": number,
                "name": was["name"],
                "bot": was["bot"],
                "label": label,
                "empty": label is None,
                "you": bool(now.get("you")),
                "turn": False,
                "connected": bool(now.get("connected")) or was["bot"],
            }
        )
    return out


def _with_leavers(seats: list[dict[str, Any]], leavers: list[dict[str, Any]]) -> list[dict]:
    """The seats as a played match's result and end screen name them: a seat given up during
    the match by the name the match kept (the seat itself is emptied when it ends, and may be
    taken since), marked as left."""
    gone = {r["seat"]: r["name"] for r in leavers}
    if not gone:
        return seats
    return [
        {**s, "label": left_name(gone[s["number"]]), "empty": False} if s["number"] in gone else s
        for s in seats
    ]


def _fair(match: dict[str, Any]) -> dict[str, Any]:
    """What the fairness block shows of a match: its commitment, seeds and revealed secret."""
    return {k: match.get(k) for k in ("id", "number", "commitment", "seeds", "secret")}


def _played(state: dict[str, Any], seats: list[dict[str, Any]]) -> tuple[Any, list, Any]:
    """The match whose result and view the table shows (the one being played, or between
    matches the one just played), its seats by the names it had (its seating; its leavers
    kept, though their seats were emptied at its end) and the viewer's seat in it."""
    match, shown = state["match"], state["shown"]
    played = shown or (match if match["status"] in ("finished", "aborted") else None)
    if not played:
        return None, seats, state["you"]["seat"]
    played_seats = _with_leavers(_as_played(seats, played), played.get("leavers") or [])
    return played, played_seats, state["you"].get("view_seat", state["you"]["seat"])


def shared_context(state: dict[str, Any]) -> dict[str, Any]:
    """What the part of the table every viewer shares draws (templates/jinja2/games/_table_live.html
    and the game's ``TEMPLATE``), from a watcher's ``state`` (no seat, the spectator view):
    drawn once per change for all the table's sockets of a process (games/frames.py)."""
    table, match, shown, view = state["table"], state["match"], state["shown"], state["view"]
    seats = _seats(state)
    waiting = match["status"] == "waiting"
    playing = match["status"] == "playing"
    any_empty = any(s["empty"] for s in seats)
    played, played_seats, _you = _played(state, seats)
    face = faces.get(table["game"])
    game_view = None
    if view is not None:
        game_view = face.table_view(view, played_seats, None)
        # The end screen's recap of a finished match (selectors.match_recap: only once the
        # match is over and its secret revealed), in words, by the game's own face.
        recap = played.get("recap") if played else None
        if face.recap_words is not None:
            game_view["match_recap"] = face.recap_words(recap, played_seats) if recap else None
    return {
        "state": state,
        "t": table,
        "seats": seats,
        "match": match,
        "shown": shown,
        "played": played,
        "result": (
            outcome_rows(played["outcome"], played_seats, played.get("coins")) if played else None
        ),
        "waiting": waiting,
        "playing": playing,
        # Drawn for everyone; the page shows «اجلس هنا» only to a viewer with no seat, and
        # "Add a bot" only to the table's creator (static/css/table.css, from the own head).
        "can_sit": waiting and any_empty,
        "can_bot": table["stake"] == 0 and waiting and any_empty,
        "cancelled": bool(played and played.get("end_reason") == "staff"),
        # Every other side gave its seats up: the side still seated won at once.
        "forfeit_won": bool(played and played.get("end_reason") == "forfeit"),
        "game_view": game_view,
        "game_template": face.TEMPLATE,
        # The fairness block's own values (a part drawn once per change: games/frame_parts.py).
        "fair": _fair(match),
        "fair_shown": _fair(shown) if shown else None,
        # The wallet: a coin table's stake and pot (every seat's stake, escrowed at the start).
        "stake": table["stake"],
        "pot": table["stake"] * len(seats),
        "fee_percent": settings.WALLET_FEE_PERCENT,
        # What the winners take: the pot less the house's fee (docs/wallet.md, Settlement).
        "prize": table["stake"] * len(seats)
        - fee_of(table["stake"] * len(seats), settings.WALLET_FEE_PERCENT),
    }


def own_context(state: dict[str, Any]) -> dict[str, Any]:
    """What one viewer's own parts draw (templates/jinja2/games/_own_head.html,
    _own_actions.html and the game's ``OWN_TEMPLATE``) from their ``state``: the turn's words,
    their notices and buttons, and their own part of the game."""
    table, match, shown, view = state["table"], state["match"], state["shown"], state["view"]
    seats = _seats(state)
    you = state["you"]["seat"]
    mine = next((s for s in seats if s["you"]), None)
    waiting = match["status"] == "waiting"
    playing = match["status"] == "playing"
    played, played_seats, view_you = _played(state, seats)
    face = faces.get(table["game"])
    own_view = None
    if view is not None:
        own_view = face.own_view(view, played_seats, view_you)
        if not playing or (mine is not None and mine.get("left")):
            # A finished match shown between matches takes no move, nor a seat given up.
            own_view["moves"] = []
            if "mine" in own_view:
                own_view["mine"] = False
    turn = view["turn"] if playing and view else None
    return {
        "state": state,
        "t": table,
        "match": match,
        "shown": shown,
        "played": played,
        "you": you,
        "view_you": view_you if view is not None else you,
        "mine": mine,
        "waiting": waiting,
        "playing": playing,
        "stake": table["stake"],
        "can_leave": mine is not None and waiting,
        # Leaving the match being played (the "forfeit" frame), after a confirmation.
        "can_forfeit": mine is not None and playing and not mine.get("left"),
        # The viewer gave their seat up in this match or the one shown; or came back while
        # their seat was kept (until their next move); or the staff cancelled the match shown.
        "you_left": bool(state["you"].get("left")),
        "back_notice": bool(mine and mine.get("back_from") and playing and not mine.get("left")),
        "keep_seconds": int(settings.SEAT_KEEP_SECONDS),
        "away_turn_seconds": int(min(settings.AWAY_TURN_SECONDS, table["turn_seconds"])),
        "cancelled": bool(played and played.get("end_reason") == "staff"),
        # Nobody seated made a move of their own: the match was aborted (docs/standing.md).
        "unplayed": bool(played and played.get("end_reason") == "unplayed"),
        "can_ready": mine is not None and waiting and shown is not None and not mine["ready"],
        "rematch_seconds": round(settings.REMATCH_SECONDS),
        "your_turn": (
            turn is not None and you is not None and turn == you and not (mine and mine["left"])
        ),
        "turn_name": named(seats, turn) if turn is not None else None,
        # The seat to move is away (its seat kept): its turn is short (AWAY_TURN_SECONDS).
        "turn_away": turn is not None
        and any(s["number"] == turn and s.get("away_until") for s in seats),
        "own_view": own_view,
        "own_templates": face.OWN_TEMPLATES,
    }


def table_context(state: dict[str, Any]) -> dict[str, Any]:
    """Everything the table page needs for one viewer's ``state``: what its shared part and
    its own parts draw, and the page's own (the game's name, rules, stylesheet and scripts,
    the chat)."""
    table = state["table"]
    face = faces.get(table["game"])
    ctx = {**shared_context(state), **own_context(state)}
    ctx.update(
        game_name=str(face.NAME),
        options=options_words(table["game"], table["options"]),
        turn_words=turn_words(table["turn_seconds"]),
        rules_template=face.RULES,
        game_stylesheet=face.STYLESHEET,
        # The game's own scripts, loaded in the table page's head so they run before the first
        # state frame swaps the game's part in.
        game_scripts=face.SCRIPTS,
        chat=state["chat"],
        chat_off=state["you"].get("chat_off", False),
        seeds_key=SEEDS_KEY,
        view=state["view"],
    )
    return ctx


# --------------------------------------------------------------------------------- socket frames


# Refusals of a chat line: shown in the chat sheet, where the player wrote (a sheet lies over the
# table's own error line), a chat timeout's end and reason among them.
CHAT_REFUSALS = frozenset(
    {"chat_empty", "chat_too_long", "chat_too_fast", "chat_refused", "chat_timeout"}
    | {"team_chat_closed", "no_team"}
)


def error_fragment(message: str, code: str = "") -> str:
    """The HTML-mode frame for a refusal: words beside the moves (or, for a chat line, under
    the chat), for screen readers too."""
    where = "chat-error" if code in CHAT_REFUSALS else "table-error"
    return (
        f'<p id="{where}" class="{where}" role="alert" data-testid="{where}" '
        'hx-swap-oob="true">'
        f"{escape(message)}</p>"
    )


def notice_fragment(text: str, link: str, language: str) -> str:
    """The HTML-mode frame for a notice meant for this player (a friend's invitation, an
    answer): words and a link above the table, read out by screen readers. The link's label in
    the page's ``language``, as the words are (a socket's frames are drawn outside any request,
    in the site's default language unless told)."""
    with translation.override(language):
        label = _("Open")
    more = f' <a href="{escape(link)}">{escape(label)}</a>' if link else ""
    return (
        '<p id="table-notice" class="table-notice" role="status" data-testid="table-notice" '
        f'hx-swap-oob="true">{escape(text)}{more}</p>'
    )


def coins_fragment(coins: int, lang: str, style: str | None = None) -> str:
    """The HTML-mode frame for the player's coins having moved (wallet/ledger.py): the thin
    bar's count, swapped by id."""
    with translation.override(lang), digit_style.override(style):
        return render_to_string("games/_bar_coins.html", {"coins": coins, "oob": True})
