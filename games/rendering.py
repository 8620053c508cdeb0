"""The HTML rendering of a table: the page and the table socket's HTML mode draw the SAME
``selectors.table_state`` dict (one view, two renderings; the other is the socket's JSON).

Nothing here reads the database or the engine's state: only the dict a viewer may see, so a
fragment can never hold more than that viewer's own JSON frame would. The words of options,
cards and actions are built here, in the active language, for the templates.

Per-game parts are small: ``_hand_view`` / ``_jakaro_view`` and the templates
``games/views/<game>.html``, which draw the Hand's cards and the Jakaro board; even without
their script the table lets a player see everything and make every legal move.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import translation
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

import games
from language import digits as digit_style
from language import words

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
CARD = re.compile(r"\A(?:10|[2-9AJQK])[SHDC]\Z|\AJK[12]\Z")

# The localStorage key where the page keeps its seeds (docs/protocol.md, "HTML mode").
SEEDS_KEY = "sahrat.seeds.v1"


# --------------------------------------------------------------------------------- words


def card_label(card: str) -> str:
    """``10H`` -> ``10♥``; a joker (``JK1``) -> the word for it."""
    if card.startswith("JK"):
        return _("Joker")
    return card[:-1] + SUITS.get(card[-1], card[-1])


def card_item(card: str) -> dict[str, Any]:
    return {"text": card, "label": card_label(card), "red": card[-1:] in RED}


def pretty_cards(text: str) -> str:
    """Every card token of an action text in its readable form (``JK1=QC`` -> ``Joker=Q♣``)."""

    def one(token: str) -> str:
        if "=" in token:
            left, right = token.split("=", 1)
            return f"{one(left)}={one(right)}"
        return card_label(token) if CARD.match(token) else token

    return " ".join(one(t) for t in text.split())


# Words for the option values a game may have; a game without an option simply has no word for
# it (Jakaro has no variant or table kind).
OPTION_WORDS: dict[str, dict[Any, Any]] = {
    "variant": {"saudi": gettext_lazy("Saudi Hand"), "plain": gettext_lazy("plain Hand")},
    "table": {"easy": gettext_lazy("easy"), "strict": gettext_lazy("strict")},
}


def options_words(game: str, options: dict[str, Any]) -> list[str]:
    """A table's options as words: «هاند سعودي، أربعة لاعبين، شراكة، سهل»; partners or solo as
    the game's own teams say."""
    engine = games.get(game)
    parsed = engine.parse_options(options)
    players = int(engine.options_to_dict(parsed)["players"])
    count = {2: _("two players"), 3: _("three players"), 4: _("four players")}.get(players, "")
    partners = any(len(unit) > 1 for unit in engine.teams(parsed))
    words = []
    if "variant" in options:
        words.append(OPTION_WORDS["variant"].get(options["variant"], ""))
    words += [count, _("partners") if partners else _("solo")]
    if "table" in options:
        words.append(OPTION_WORDS["table"].get(options["table"], ""))
    return [str(w) for w in words if w]


def game_name(game: str) -> str:
    return {"hand": _("Hand"), "jakaro": _("Jakaro")}.get(game, game)


def turn_words(seconds: int) -> str:
    return _("%(seconds)s a turn") % {"seconds": words.count("seconds", seconds)}


def names_words(names: list[str]) -> str:
    """Several names as a sentence says them: «سارة وعلي», "Sara, Ali and Mona" (never a Latin
    «&» in Arabic text)."""
    names = [str(n) for n in names]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    head = pgettext("between names in a list", ", ").join(names[:-1])
    return pgettext("the last two names of a list", "%(a)s and %(b)s") % {"a": head, "b": names[-1]}


def bot_label(index: int | None) -> str:
    """A bot's name at a table: «لاعب آلي» alone, «لاعب آلي ١», «لاعب آلي ٢» when several sit at
    one table (``index`` counts the bots in seat order from 1; None when there is only one)."""
    if index is None:
        return _("bot")
    return _("bot %(n)s") % {"n": _digits(index)}


def bot_indexes(seats: list[Any], is_bot: Any) -> dict[int, int | None]:
    """Position -> the index ``bot_label`` takes, for every bot among ``seats``."""
    bots = [i for i, s in enumerate(seats) if is_bot(s)]
    if len(bots) < 2:
        return dict.fromkeys(bots)
    return {i: k + 1 for k, i in enumerate(bots)}


PLACE_WORDS = {
    1: gettext_lazy("first place"),
    2: gettext_lazy("second place"),
    3: gettext_lazy("third place"),
    4: gettext_lazy("fourth place"),
}


def place_words(place: int, shared: bool) -> str:
    """«المركز الأول», or «تعادل على المركز الأول» when several share it."""
    words_ = PLACE_WORDS.get(int(place))
    text = str(words_) if words_ else _("place %(n)s") % {"n": _digits(place)}
    return _("tied for %(place)s") % {"place": text} if shared else text


SHARE_WORDS = {
    "1": gettext_lazy("the whole pot"),
    "1/2": gettext_lazy("half the pot"),
    "1/3": gettext_lazy("a third of the pot"),
    "2/3": gettext_lazy("two thirds of the pot"),
    "1/4": gettext_lazy("a quarter of the pot"),
    "3/4": gettext_lazy("three quarters of the pot"),
}


def share_words(share: str) -> str:
    """A seat's part of a coin table's pot in words («نصف الجائزة»); nothing for no part."""
    share = str(share).strip()
    if share in ("", "0"):
        return ""
    known = SHARE_WORDS.get(share)
    if known:
        return str(known)
    return _("%(share)s of the pot") % {"share": f"\u2066{_digits(share)}\u2069"}


# --------------------------------------------------------------------------------- the lobby


def lobby_row(table: Any) -> dict[str, Any]:
    """One table of the lobby's list (a ``Table`` with its seats prefetched)."""
    seats = []
    rows = list(table.seats.all())
    bots = bot_indexes(rows, lambda s: s.is_bot)
    for i, seat in enumerate(rows):
        if seat.is_bot:
            seats.append({"label": bot_label(bots[i]), "bot": True, "empty": False})
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
    }


def lobby_groups(tables: list[Any]) -> list[dict[str, Any]]:
    """The lobby's tables by game, Hand first."""
    return [
        {
            "game": game,
            "name": game_name(game),
            "tables": [lobby_row(t) for t in tables if t.game == game],
        }
        for game in games.NAMES
    ]


# --------------------------------------------------------------------------------- a table


def _parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _seats(state: dict[str, Any]) -> list[dict[str, Any]]:
    view = state.get("view") or {}
    counts = view.get("hand_counts") or []
    you = state["you"]["seat"]
    turn = view.get("turn") if state["match"]["status"] == "playing" else None
    rows = []
    bots = bot_indexes(state["table"]["seats"], lambda s: s["bot"])
    for i, seat in enumerate(state["table"]["seats"]):
        n = seat["number"]
        if seat["bot"]:
            label = bot_label(bots[i])
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
                "empty": label is None,
                "you": n == you,
                "turn": n == turn,
                "count": counts[n] if n < len(counts) else None,
                "away_until": away_until,
                "human": seat["name"] is not None and not seat["bot"],
            }
        )
    return rows


def left_name(name: str) -> str:
    """A player who gave their seat up during the match, named and marked as left."""
    return _("%(name)s (left the match)") % {"name": name}


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


def _named(seats: list[dict[str, Any]], number: int) -> str:
    row = next((s for s in seats if s["number"] == number), None)
    if row is None or row["empty"]:
        return _("seat %(n)s") % {"n": _digits(number + 1)}
    return row["label"]


def _outcome(outcome: dict[str, Any] | None, seats: list[dict[str, Any]]) -> list[dict] | None:
    if not outcome:
        return None
    rows = []
    for place, members in outcome.get("places", []):
        names = [_named(seats, s) for s in members]
        share = ", ".join(sorted({outcome.get("shares", {}).get(str(s), "0") for s in members}))
        rows.append({"place": place, "names": names, "share": share})
    # A shared place: several seats in one row, or (Hand's places) one row per seat, same place.
    taken = [r["place"] for r in rows]
    for r in rows:
        r["shared"] = len(r["names"]) > 1 or taken.count(r["place"]) > 1
        # In words: «تعادل على المركز الأول: سارة وعلي», a coin table's part of the pot.
        r["place_words"] = place_words(r["place"], r["shared"])
        r["names_words"] = names_words(r["names"])
        r["share_words"] = share_words(r["share"]) if "," not in r["share"] else ""
    return rows


@functools.cache
def game_script(game: str) -> str | None:
    """The URL of a game's own page script (static/js/<game>.js), if it has one: loaded in the
    table page's head, so it runs before the first state frame swaps the game's part in."""
    path = f"js/{game}.js"
    return static(path) if finders.find(path) else None


def table_context(state: dict[str, Any]) -> dict[str, Any]:
    """Everything the table templates need, from one viewer's ``table_state``."""
    table, match, shown, view = state["table"], state["match"], state["shown"], state["view"]
    seats = _seats(state)
    you = state["you"]["seat"]
    mine = next((s for s in seats if s["you"]), None)
    waiting = match["status"] == "waiting"
    playing = match["status"] == "playing"
    any_empty = any(s["empty"] for s in seats)
    game_view = None
    played = shown or (match if match["status"] in ("finished", "aborted") else None)
    # A played match's own names: its leavers kept, though their seats were emptied at its end.
    named = _with_leavers(seats, played.get("leavers") or []) if played else seats
    if view is not None:
        prepare = GAME_VIEWS.get(table["game"])
        game_view = prepare(view, named, you) if prepare else None
        if game_view is not None and not playing:
            game_view["moves"] = []  # a finished match shown between matches takes no move
        if game_view is not None and mine is not None and mine.get("left"):
            game_view["moves"] = []  # a seat given up takes no move from its player any more
            if "mine" in game_view:
                game_view["mine"] = False
        # The end screen's recap of a finished match (selectors.match_recap: only once the
        # match is over and its secret revealed), in words, by the game's own part.
        recap = played.get("recap") if played else None
        words = GAME_RECAPS.get(table["game"])
        if game_view is not None and words is not None:
            game_view["match_recap"] = words(recap, named) if recap else None
    return {
        "state": state,
        "t": table,
        "game_name": game_name(table["game"]),
        "options": options_words(table["game"], table["options"]),
        "turn_words": turn_words(table["turn_seconds"]),
        "seats": seats,
        "you": you,
        "mine": mine,
        "match": match,
        "shown": shown,
        "played": played,
        "result": _outcome(played["outcome"], named) if played else None,
        "waiting": waiting,
        "playing": playing,
        "can_sit": you is None and waiting and any_empty,
        "can_bot": table["creator"] and table["stake"] == 0 and waiting and any_empty,
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
        "can_ready": mine is not None and waiting and shown is not None and not mine["ready"],
        "your_turn": (
            playing
            and view is not None
            and you is not None
            and view["turn"] == you
            and not (mine and mine.get("left"))
        ),
        "turn_name": (
            _named(seats, view["turn"]) if playing and view and view["turn"] is not None else None
        ),
        # The seat to move is away (its seat kept): its turn is short (AWAY_TURN_SECONDS).
        "turn_away": bool(
            playing
            and view
            and view["turn"] is not None
            and any(s["number"] == view["turn"] and s.get("away_until") for s in seats)
        ),
        "view": view,
        "game_view": game_view,
        "game_template": f"games/views/{table['game']}.html",
        "game_script": game_script(table["game"]),
        "chat": state["chat"],
        "seeds_key": SEEDS_KEY,
        # The wallet: a coin table's stake and pot (every seat's stake, escrowed at the start).
        "stake": table["stake"],
        "pot": table["stake"] * len(seats),
        "fee_percent": settings.WALLET_FEE_PERCENT,
    }


# --------------------------------------------------------------------------------- Jakaro


def _jakaro_pos(pos: int, start: int) -> str:
    if pos < 0:
        return _("in base")
    if pos >= 76:
        return _("home %(n)s") % {"n": _digits(pos - 75)}
    return _("square %(n)s (%(k)s from start)") % {
        "n": _digits(pos),
        "k": _digits((pos - start) % 76),
    }


def _marble(token: str, actor: int, seats: list[dict[str, Any]]) -> str:
    """``m2`` -> "marble 3"; ``1:m0`` -> "Sara's marble 1" (a marble of another seat)."""
    owner, _sep, m = token.rpartition(":")
    number = _digits(int(m[1:]) + 1) if m[1:].isdigit() else m
    if owner and owner.isdigit() and int(owner) != actor:
        return _("marble %(m)s of %(name)s") % {"m": number, "name": _named(seats, int(owner))}
    return _("marble %(m)s") % {"m": number}


def jakaro_label(action: str, actor: int, seats: list[dict[str, Any]]) -> str:
    """Readable words for a Jakaro action text (docs/scenarios.md, "Action texts")."""
    parts = action.split()
    if len(parts) < 2:
        return action
    kind, card = parts[0], card_label(parts[1])
    rest = parts[2:]
    try:
        if kind == "out":
            return _("%(card)s: bring a marble out") % {"card": card}
        if kind == "move" and len(rest) == 2:
            return _("%(card)s: %(marble)s forward %(n)s") % {
                "card": card,
                "marble": _marble(rest[0], actor, seats),
                "n": _digits(rest[1]),
            }
        if kind == "move" and len(rest) == 1:
            return _("%(card)s: %(marble)s forward") % {
                "card": card,
                "marble": _marble(rest[0], actor, seats),
            }
        if kind == "back":
            return _("%(card)s: %(marble)s four back") % {
                "card": card,
                "marble": _marble(rest[0], actor, seats),
            }
        if kind == "split" and len(rest) == 4:
            return _("%(card)s: %(a)s forward %(x)s, then %(b)s forward %(y)s") % {
                "card": card,
                "a": _marble(rest[0], actor, seats),
                "x": _digits(rest[1]),
                "b": _marble(rest[2], actor, seats),
                "y": _digits(rest[3]),
            }
        if kind == "swap" and len(rest) == 2:
            return _("%(card)s: swap %(a)s with %(b)s") % {
                "card": card,
                "a": _marble(rest[0], actor, seats),
                "b": _marble(rest[1], actor, seats),
            }
        if kind == "burn10":
            return _("%(card)s: burn a card of the next player") % {"card": card}
        if kind == "discard":
            return _("Throw away %(card)s (no move)") % {"card": card}
    except (ValueError, IndexError):
        pass
    return pretty_cards(action)


# The board: an SVG drawn here as numbers, so it shows with no script at all; the
# page's script (static/js/jakaro.js) only adds the taps. The track is a ring of 20 × 20 cells
# (76 squares: 19 a side), the viewer's start at the bottom middle; a colour's quarter is the
# bottom one turned by a quarter turn per colour, so every colour's start, base and home column
# sit the same way on its side, as on the wooden board.
CELL = 20  # SVG units per cell; the viewBox is 400 × 400
# Colour c's marbles, by colour (not seat): partners (0 and 2, 1 and 3) get cool and warm hues.
COLOURS = ("#1f6fd1", "#d1452a", "#13996b", "#e0a100")
COLOUR_WORDS = {
    0: gettext_lazy("blue marble"),
    1: gettext_lazy("red marble"),
    2: gettext_lazy("green marble"),
    3: gettext_lazy("yellow marble"),
}
# Short reasons for the marbles a card cannot move (the engine's codes; guide.py adds two).
WHY_WORDS = {
    "marble_in_base": gettext_lazy("in its base"),
    "marble_home": gettext_lazy("home: this card cannot move it"),
    "marble_protected": gettext_lazy("protected on its start"),
    "blocked_protected": gettext_lazy("blocked by a marble on its start"),
    "land_on_own": gettext_lazy("would land on your own marble"),
    "overshoot_home": gettext_lazy("would overshoot home"),
    "home_blocked": gettext_lazy("blocked inside home"),
    "start_blocked_own": gettext_lazy("your own marble is on your start"),
    "no_marble_in_base": gettext_lazy("no marble in the base"),
    "no_swap_target": gettext_lazy("nothing to swap with"),
    "no_split_partner": gettext_lazy("no second marble takes the rest"),
    "not_your_marble": gettext_lazy("not a marble this card moves"),
}
# The words on a card's face (as printed on the Arabic decks): what the rank does.
FACE_WORDS = {
    "A": gettext_lazy("out, 1 or 11"),
    "K": gettext_lazy("out or 13"),
    "Q": gettext_lazy("12"),
    "J": gettext_lazy("swap"),
    "10": gettext_lazy("10 or burn"),
    "7": gettext_lazy("7, may split"),
    "5": gettext_lazy("5, any marble"),
    "4": gettext_lazy("4 back"),
}
# The court cards' names as printed on a Jakaro face («الشايب»), with the article, unlike the
# card names of the Hand table (RANK_WORDS below): their own context keeps the two apart.
FACE_RANKS = {
    "A": pgettext_lazy("card face", "Ace"),
    "K": pgettext_lazy("card face", "King"),
    "Q": pgettext_lazy("card face", "Queen"),
    "J": pgettext_lazy("card face", "Jack"),
}


def _digits(n: int | str) -> str:
    """A number (or a text's numbers) in the viewer's digits (the profile's choice, else the
    language's: sahrat_site/digits.py), as every page writes them."""
    return digit_style.digits(n)


def _cell(k: int) -> tuple[float, float]:
    """The cell of the square k steps past the bottom start (counter-clockwise on the screen)."""
    if k >= 66:
        return k - 66, 19
    if k <= 9:
        return k + 10, 19
    if k <= 28:
        return 19, 19 - (k - 9)
    if k <= 47:
        return 19 - (k - 28), 0
    return 0, k - 47


def _turn(x: float, y: float, quarters: int) -> tuple[float, float]:
    """A cell turned ``quarters`` quarter turns (the way the marbles go) about the centre."""
    for _i in range(quarters % 4):
        x, y = 9.5 + (y - 9.5), 9.5 - (x - 9.5)
    return x, y


def _num(v: float) -> str:
    """An SVG coordinate as text: the template would write a float with the locale's comma."""
    return f"{v:.1f}"


def _xy(x: float, y: float) -> dict[str, str]:
    return {"x": _num(x * CELL + CELL / 2), "y": _num(y * CELL + CELL / 2)}


# Where a colour's home column and base sit when that colour is at the bottom.
HOME_CELLS = ((9, 18), (9, 17), (9, 16), (9, 15))
BASE_CELLS = ((13.4, 16.4), (14.6, 16.4), (13.4, 17.6), (14.6, 17.6))
LABEL_CELL = (14, 14.6)


def _colour_of(players: int, seat: int) -> int:
    return seat if players == 4 else seat * 2


def _team_of(players: int, seat: int) -> int:
    return seat % 2 if players == 4 else seat


def _in_digits(words_of: Any) -> Any:
    """A word function whose text (numbers in the catalogue's words included) is written in the
    viewer's digits."""

    @functools.wraps(words_of)
    def wrapped(*args: Any, **kwargs: Any) -> str:
        return _digits(words_of(*args, **kwargs))

    return wrapped


@_in_digits
def _marble_words(colour: int, pos: int) -> str:
    marble = str(COLOUR_WORDS[colour])
    if pos < 0:
        return _("%(marble)s in its base") % {"marble": marble}
    if pos >= 76:
        return _("%(marble)s at home, square %(n)s of 4") % {
            "marble": marble,
            "n": _digits(pos - 75),
        }
    return _("%(marble)s on square %(n)s") % {"marble": marble, "n": _digits(pos)}


def _face(card: str) -> dict[str, Any]:
    """A card with the words on its face: «الشايب: اطلع أو ١٣»."""
    r = card[:-1]
    item = card_item(card)
    does = FACE_WORDS.get(r)
    item["rank"] = r
    item["suit"] = SUITS.get(card[-1], "")
    if r in FACE_RANKS:
        item["face"] = f"{FACE_RANKS[r]}: {does}"
    else:
        item["face"] = str(does) if does else _("%(n)s forward") % {"n": r}
    # The catalogue writes the faces' numbers in Arabic-Indic: the viewer's digits win.
    item["face"] = _digits(item["face"])
    return item


def _board_svg(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None) -> dict:
    """Everything the SVG needs: squares, home columns, bases, marbles and labels, placed."""
    players = view["players"]
    flat = [p for ms in view["marbles"] for p in ms]
    viewer = _colour_of(players, you if you is not None and you < players else 0)
    in_play = {_colour_of(players, s): s for s in range(players)}
    counts = view.get("hand_counts") or []
    my_team = _team_of(players, you) if you is not None else None
    squares = []
    for p in range(76):
        x, y = _cell((p - 19 * viewer) % 76)
        start_of = p // 19 if p % 19 == 0 and p // 19 in in_play else None
        squares.append(
            {
                "n": p,
                "label": _("square %(n)s") % {"n": _digits(p)},
                "start": start_of,
                "shown": _digits(p),
                **_xy(x, y),
            }
        )
    quarters = []
    marbles = []
    for colour, seat in sorted(in_play.items()):
        q = colour - viewer
        homes = [_xy(*_turn(x, y, q)) for x, y in HOME_CELLS]
        bases = [_xy(*_turn(x, y, q)) for x, y in BASE_CELLS]
        lx, ly = _turn(*LABEL_CELL, q)
        team = _team_of(players, seat)
        quarters.append(
            {
                "colour": colour,
                "seat": seat,
                "fill": COLOURS[colour],
                "name": _named(seats, seat),
                "you": seat == you,
                "ours": my_team is not None and team == my_team,
                "turn": view.get("turn") == seat,
                # Card backs in a row under the name; the plate behind the base.
                "cards": [
                    {
                        "x": _num(lx * CELL + CELL / 2 - 24 + 8 * i),
                        "y": _num(ly * CELL + 16),
                    }
                    for i in range(counts[seat] if seat < len(counts) else 0)
                ],
                "plate": _xy(*_turn(14, 17, q)),
                "dot": _xy(*_turn(16.2, 14.4, q)),
                "count_at": _xy(*_turn(16.2, 13.2, q)),
                "count": counts[seat] if seat < len(counts) else 0,
                "homes": [
                    {**h, "pos": 76 + i, "label": _("home square %(n)s") % {"n": _digits(i + 1)}}
                    for i, h in enumerate(homes)
                ],
                "bases": bases,
                "label": _xy(lx, ly),
                "connected": next((s.get("connected") for s in seats if s["number"] == seat), None),
            }
        )
        for k in range(4):
            mi = seat * 4 + k
            pos = flat[mi]
            if pos < 0:
                at = bases[k]
            elif pos >= 76:
                at = homes[pos - 76]
            else:
                at = squares[pos]
            marbles.append(
                {
                    "i": mi,
                    "seat": seat,
                    "colour": colour,
                    "fill": COLOURS[colour],
                    "pos": pos,
                    "x": at["x"],
                    "y": at["y"],
                    "label": _marble_words(colour, pos),
                }
            )
    return {"squares": squares, "quarters": quarters, "marbles": marbles}


def _last_marbles(last: dict[str, Any] | None) -> list[int]:
    """The flat marbles the last action named (to keep the last move marked)."""
    if not last:
        return []
    out = []
    for token in last["action"].split()[2:]:
        owner, _sep, m = token.rpartition(":")
        if m[:1] == "m" and m[1:].isdigit():
            out.append((int(owner) if owner.isdigit() else last["seat"]) * 4 + int(m[1:]))
    return out


def _jakaro_view(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None) -> dict:
    from games.jakaro.guide import explain  # the Jakaro part of the table page only

    starts = view.get("starts") or []
    board = []
    for seat, marbles in enumerate(view.get("marbles") or []):
        start = starts[seat] if seat < len(starts) else 0
        board.append(
            {
                "seat": seat,
                "name": _named(seats, seat),
                "you": seat == you,
                "partner": seat == view.get("partner"),
                "marbles": [
                    {"n": i + 1, "where": _jakaro_pos(p, start), "home": p >= 76, "base": p < 0}
                    for i, p in enumerate(marbles)
                ],
            }
        )
    last = view.get("last")
    last_words = None
    if last:
        last_words = {
            "name": _named(seats, last["seat"]),
            "seat": last["seat"],
            "words": jakaro_label(last["action"], last["seat"], seats),
            "card": _face(last["action"].split()[1]) if len(last["action"].split()) > 1 else None,
            "burned": _face(last["burned"]) if last.get("burned") else None,
            "burn": last["action"].startswith("burn10"),
        }
    actor = you if you is not None else -1
    winner = view.get("winner")
    help_ = explain(view)
    players = view.get("players", 2)
    why_words = {
        card: {ref: str(WHY_WORDS.get(code, code)) for ref, code in reasons.items()}
        for card, reasons in help_["why"].items()
    }
    hand = [_face(c) for c in view.get("hand") or []]
    legal = list(view["legal"])
    stuck = bool(legal) and all(a.startswith("discard ") for a in legal)
    nxt = (you + 1) % players if you is not None else None
    controls = view.get("controls")
    winners = None
    if winner is not None:
        members = [s for s in range(players) if _team_of(players, s) == winner]
        winners = [_named(seats, s) for s in members]
    client = {
        "seat": you,
        "players": players,
        "controls": controls,
        "marbles": [p for ms in view.get("marbles") or [] for p in ms],
        "legal": legal,
        "after": help_["after"],
        "targets": help_["targets"],
        "why": why_words,
        "labels": {a: jakaro_label(a, actor, seats) for a in legal},
    }
    return {
        "hand": hand,
        "board": board,
        "svg": _board_svg(view, seats, you),
        "discard": [card_item(c) for c in (view.get("discard") or [])],
        "deck_left": view.get("deck_left"),
        "deck_no": view.get("deck_no"),
        "last": last_words,
        "last_marbles": _last_marbles(last),
        "winner": winner,
        "winners": winners,
        "winners_words": names_words(winners) if winners else "",
        "moves": [{"action": a, "label": jakaro_label(a, actor, seats)} for a in legal],
        "stuck": stuck,
        "stuck_why": _stuck_words(help_["why"]) if stuck else [],
        "partner_now": you is not None and controls is not None and controls != you,
        "partner_name": _named(seats, controls) if controls is not None else None,
        "next_name": _named(seats, nxt) if nxt is not None else None,
        "client": client,
    }


def _jakaro_recap(recap: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The last deck of a finished match in words (games/jakaro/last_deck.py): every move in
    order with the same words as the last move's, each burn with the card it took and from
    whom, and the cards the deck dealt each seat with those still held at the end."""
    moves = []
    for move in recap["moves"]:
        seat = move["seat"]
        burned = move.get("burned")
        moves.append(
            {
                "seat": seat,
                "name": _named(seats, seat),
                "action": move["action"],
                "words": jakaro_label(move["action"], seat, seats),
                "burned": card_item(burned) if burned else None,
                "victim": _named(seats, move["victim"]) if burned else None,
            }
        )
    hands = [
        {
            "seat": seat,
            "name": _named(seats, seat),
            "cards": [card_item(c) for c in cards],
            "kept": [card_item(c) for c in recap["kept"][seat]],
        }
        for seat, cards in enumerate(recap["dealt"])
    ]
    return {
        "deck_no": recap["deck_no"],
        "moves": moves,
        "hands": hands,
        "undealt": recap["undealt"],
    }


def _stuck_words(why: dict[str, dict[str, str]]) -> list[dict[str, str]]:
    """With no legal move: per card, the reasons its marbles cannot move (each reason once)."""
    rows = []
    for card, reasons in why.items():
        codes = list(dict.fromkeys(reasons.values()))
        words = "، ".join(str(WHY_WORDS.get(c, c)) for c in codes) if codes else _("no marble")
        rows.append({"card": card_label(card), "words": words})
    return rows


# --------------------------------------------------------------------------------- Hand

MUST_WORDS = {
    "draw": lambda: _("draw a card"),
    "use_fire_card": lambda: _("use the card taken from the fire pile"),
    "use_joker": lambda: _("lay the joker you took"),
    "throw": lambda: _("throw a card"),
}


def hand_label(action: str) -> str:
    """Readable words for a Hand action text (docs/scenarios.md, "Action texts")."""
    parts = action.split()
    if not parts:
        return action
    kind = parts[0]
    if action == "draw stock":
        return _("Draw from the stock")
    if action == "draw fire":
        return _("Take the fire pile's top card")
    if kind == "throw" and len(parts) == 2:
        return _("Throw %(card)s") % {"card": card_label(parts[1])}
    if kind == "lay":
        return _("Lay down: %(melds)s") % {"melds": pretty_cards(" ".join(parts[1:]))}
    if kind == "off" and len(parts) >= 3:
        return _("Lay off %(cards)s on meld %(n)s") % {
            "cards": pretty_cards(" ".join(parts[2:])),
            "n": _digits(parts[1]),
        }
    if kind == "swap" and len(parts) >= 3:
        return _("Swap %(cards)s for the joker of meld %(n)s") % {
            "cards": pretty_cards(" ".join(parts[2:])),
            "n": _digits(parts[1]),
        }
    return pretty_cards(action)


# The words a card is called by, for screen readers and the joker picker («سبعة كبة»). The two
# jokers are told apart (JK1 drawn red, JK2 black): same rules, different cards in the hand.
RANK_WORDS = {
    "A": gettext_lazy("Ace"),
    "2": gettext_lazy("Two"),
    "3": gettext_lazy("Three"),
    "4": gettext_lazy("Four"),
    "5": gettext_lazy("Five"),
    "6": gettext_lazy("Six"),
    "7": gettext_lazy("Seven"),
    "8": gettext_lazy("Eight"),
    "9": gettext_lazy("Nine"),
    "10": gettext_lazy("Ten"),
    "J": gettext_lazy("Jack"),
    "Q": gettext_lazy("Queen"),
    "K": gettext_lazy("King"),
}
SUIT_WORDS = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
}
ALL_CARDS = [r + s for s in "SHDC" for r in RANK_WORDS] + ["JK1", "JK2"]


def card_name(card: str) -> str:
    """The spoken name of a card in the active language (cached per language: a frame names
    every card for the page's script)."""
    return _card_name(card, translation.get_language())


def card_names() -> dict[str, str]:
    """Every card's spoken name in the active language, for the joker picker."""
    return _card_names(translation.get_language())


@functools.lru_cache(maxsize=16)
def _card_names(lang: str | None) -> dict[str, str]:
    return {c: _card_name(c, lang) for c in ALL_CARDS}


@functools.lru_cache(maxsize=1024)
def _card_name(card: str, lang: str | None) -> str:
    """The spoken name of a card in the active language: ``7H`` -> «سبعة كبة», "Seven of hearts"."""
    if card == "JK1":
        return _("red joker")
    if card == "JK2":
        return _("black joker")
    return _("%(rank)s of %(suit)s") % {
        "rank": RANK_WORDS.get(card[:-1], card[:-1]),
        "suit": SUIT_WORDS.get(card[-1], card[-1]),
    }


def hand_card(card: str, stands: str | None = None) -> dict[str, Any]:
    """One card as the Hand templates draw it (rank, suit symbol, colour, spoken name); a joker
    in a meld also shows the card it stands for."""
    joker = card.startswith("JK")
    out = {
        "text": card,
        "rank": "" if joker else card[:-1],
        "suit": "" if joker else SUITS.get(card[-1], ""),
        "red": card == "JK1" or (not joker and card[-1] in RED),
        "joker": joker,
        "name": card_name(card),
        "stands": None,
    }
    if joker and stands and stands != card:
        out["stands"] = hand_card(stands)
        out["name"] = _("%(joker)s as %(card)s") % {"joker": out["name"], "card": card_name(stands)}
    # The face, built here once rather than by a template include per card (a frame draws dozens
    # of cards for every socket at the table).
    face = format_html(
        '<span class="pc-r" aria-hidden="true">{}</span>'
        '<span class="pc-s" aria-hidden="true">{}</span>',
        "★" if joker else out["rank"],
        "JK" if joker else out["suit"],
    )
    if out["stands"]:
        face += format_html(
            '<span class="pc-as{}" aria-hidden="true">{}{}</span>',
            " red" if out["stands"]["red"] else "",
            out["stands"]["rank"],
            out["stands"]["suit"],
        )
    out["face"] = face
    return out


def _ltr(n: int) -> str:
    # A score in right-to-left text: isolated left-to-right so −30 does not read 30−; in the
    # viewer's digits like every number.
    return f"\u2066{_digits(n)}\u2069"


@_in_digits
def _hand_score_words(view: dict[str, Any], seat: int) -> str:
    """Why a seat scored what it did this round (rules §8): going out, «هاند», never opened, or
    the cards left, with the «هاند» doubling spelled out."""
    result = view.get("result") or {}
    scores = result.get("scores") or []
    score = scores[seat] if seat < len(scores) else 0
    hand = bool(result.get("hand"))
    out = result.get("out")
    if out == seat:
        if hand:
            return _("went out with a «Hand»: %(n)s") % {"n": _ltr(score)}
        return _("went out: %(n)s") % {"n": _ltr(score)}
    if out is not None and view.get("partners") and seat % 2 == out % 2:
        return _("partner went out: the team's score is on the partner")
    opened = view.get("opened") or []
    if seat < len(opened) and not opened[seat]:
        if hand:
            return _("never opened, and the round ended with a «Hand»: 200")
        return _("never opened: 100")
    cards = (view.get("hands") or [[]] * (seat + 1))[seat]
    total = sum(_hand_value(c) for c in cards)
    if hand:
        return _("cards left: %(v)s, doubled after a «Hand»: %(n)s") % {"v": total, "n": score}
    return _("cards left: %(n)s") % {"n": score}


def _hand_value(card: str) -> int:
    # The value of a card left in hand (rules §8): the same numbers as games/hand/cards.py, kept
    # here because this module reads views only, never the engine.
    if card.startswith("JK"):
        return 15
    rank = card[:-1]
    if rank == "A":
        return 11
    return 10 if rank in ("J", "Q", "K") else int(rank)


@_in_digits
def _threshold_words(view: dict[str, Any], you: int | None) -> str:
    """Which rule sets this seat's opening threshold (rules §4), from the view alone."""
    openings = view.get("openings") or []
    if you is None or view.get("variant") == "plain":
        return ""
    if not openings:
        return _("the first opening of the round")
    if not view.get("partners"):
        return _("the last opening, %(n)s + 1") % {"n": openings[-1][1]}
    first_team = openings[0][0] % 2
    if you % 2 == first_team:
        return _("your team opened first")
    best = max(p for s, p in openings if s % 2 == first_team)
    return _("the other team's best opening, %(n)s + 1") % {"n": best}


def _hand_view(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None) -> dict:
    mine = you is not None and view.get("turn") == you and view.get("status") == "playing"
    players = view.get("players", 0)
    totals = view.get("totals") or []
    opened = view.get("opened") or []
    counts = view.get("hand_counts") or []
    history = view.get("history") or []
    opening_points: dict[int, int] = {}
    for seat, points in view.get("openings") or []:
        opening_points.setdefault(seat, points)
    by_number = {s["number"]: s for s in seats}
    others = []
    for seat in range(players):
        row = by_number.get(seat, {})
        others.append(
            {
                "seat": seat,
                "name": _named(seats, seat),
                "you": seat == you,
                "count": counts[seat] if seat < len(counts) else 0,
                "backs": mark_safe("<i></i>" * min(counts[seat] if seat < len(counts) else 0, 15)),
                "opened": seat < len(opened) and opened[seat],
                "opening": opening_points.get(seat),
                "turn": view.get("status") == "playing" and view.get("turn") == seat,
                "connected": row.get("connected", True) or row.get("bot", False),
                "bot_playing": row.get("bot_playing", False),
                "away_until": row.get("away_until"),
                "left": row.get("left", False),
                "total": totals[seat] if seat < len(totals) else 0,
            }
        )
    scores = [
        {
            "name": _named(seats, seat),
            "total": totals[seat] if seat < len(totals) else 0,
            "opened": seat < len(opened) and opened[seat],
            "rounds": [row[seat] for row in history if seat < len(row)],
        }
        for seat in range(players)
    ]
    result = view.get("result")
    recap = None
    if result and view.get("hands") is not None:
        recap = [
            {
                "name": _named(seats, seat),
                "cards": [hand_card(c) for c in cards],
                "score": result["scores"][seat] if seat < len(result["scores"]) else 0,
                "why": _hand_score_words(view, seat),
                "total": totals[seat] if seat < len(totals) else 0,
            }
            for seat, cards in enumerate(view["hands"])
        ]
    hand = view.get("hand") or []
    # What the page's script reads (static/js/hand.js): this seat's own view exactly as the JSON
    # socket would send it (docs/views/hand.md: never another seat's cards while a round is
    # played) and the spoken words of every card, for the joker picker and the staged melds.
    data = {
        "view": view,
        "you": you,
        "mine": mine,
        "names": card_names(),
    }
    hints = view.get("hints") or {}
    hint_moves = []
    if mine and hints:
        for key in ("hand", "opening", "lay"):
            if hints.get(key):
                hint_moves.append(
                    {"action": hints[key], "label": hand_hint_label(key, hints[key], hints)}
                )
        for key in ("off", "swap"):
            for action in hints.get(key) or []:
                hint_moves.append({"action": action, "label": hand_label(action)})
    fire = view.get("fire") or []
    return {
        "data": data,
        "mine": mine,
        "phase": view.get("phase"),
        "status": view.get("status"),
        "easy": view.get("table") == "easy",
        "hand": [hand_card(c) for c in hand],
        "in_hand_points": sum(_hand_value(c) for c in hand),
        "others": others,
        # The players' row above the cards shows each seat's presence: while a round is played
        # the table's own seat list would list everyone a second time (_table_live.html).
        "own_seats": True,
        "melds": [
            {
                "n": m["n"],
                "owner": _named(seats, m["owner"]),
                "owner_seat": m["owner"],
                "kind": m["kind"],
                "cards": [hand_card(c, s) for c, s in zip(m["cards"], m["stands"], strict=False)],
                "points": m["points"],
                "text": pretty_cards(m["text"]),
            }
            for m in view.get("melds") or []
        ],
        "fire_top": hand_card(view["fire_top"]) if view.get("fire_top") else None,
        "fire_history": [hand_card(c) for c in reversed(fire[:-1])][:40],
        "fire_count": len(fire),
        "fire_usable": view.get("fire_usable"),
        "stock_count": view.get("stock_count"),
        "round": view.get("round"),
        "rounds": view.get("rounds"),
        "dealer": _named(seats, view.get("dealer", 0)),
        "threshold": view.get("threshold"),
        "threshold_why": _threshold_words(view, you),
        "opened_me": you is not None and you < len(opened) and opened[you],
        "must": [MUST_WORDS[m]() for m in view.get("must") or [] if m in MUST_WORDS],
        "fire_card": hand_card(view["fire_card"]) if view.get("fire_card") else None,
        "joker_due": hand_card(view["joker_due"]) if view.get("joker_due") else None,
        "hint_moves": hint_moves,
        "hint_throw": hand_card(hints["throw"]) if mine and hints.get("throw") else None,
        "scores": scores,
        "round_numbers": list(range(1, len(history) + 1)),
        "result": result,
        "out_name": _named(seats, result["out"])
        if result and result.get("out") is not None
        else None,
        "recap": recap,
        # Kept for the generic "no move between matches" rule of table_context.
        "moves": [{"action": "draw stock"}] if mine else [],
    }


@_in_digits
def hand_hint_label(key: str, action: str, hints: dict[str, Any]) -> str:
    """An easy table's hint as one tap: «انزل هذه الثلاث: ٥٧ نقطة»."""
    melds = action.removeprefix("lay ").count("|") + 1
    if key == "opening" and hints.get("opening_points") is not None:
        return _("Open with these %(n)s melds: %(p)s points") % {
            "n": melds,
            "p": hints["opening_points"],
        }
    if key == "hand":
        return _("Lay every card: a «Hand»!")
    return _("Lay these %(n)s melds") % {"n": melds}


def hand_action_words(action: str, seat: int | None, seats: list[dict[str, Any]]) -> str:
    """A logged Hand action in words, the server's own included (the replay, the Verify page)."""
    text = action.strip()
    if text == "deal":
        return _("Deal the next round")
    if text == "timeout":
        return _("Time ran out: the turn was played for them")
    return hand_label(text)


def jakaro_action_words(action: str, seat: int | None, seats: list[dict[str, Any]]) -> str:
    """A logged Jakaro action in words (the same as the table's last move)."""
    if action.strip() == "timeout":
        return _("Time ran out: the turn was played for them")
    return jakaro_label(action, seat if seat is not None else -1, seats)


def event_words(purpose: str) -> str:
    """A random event's purpose (``deal/2``, ``reshuffle/1/1``, ``burn/3``) in words."""
    parts = purpose.split("/")
    n = [_digits(p) for p in parts[1:]]
    if parts[0] == "deal" and len(n) == 1:
        return _("The cards are shuffled and dealt (deal %(n)s)") % {"n": n[0]}
    if parts[0] == "reshuffle" and len(n) == 2:
        return _("The fire pile is shuffled into a new stock (round %(r)s, time %(k)s)") % {
            "r": n[0],
            "k": n[1],
        }
    if parts[0] == "burn" and len(n) == 1:
        return _("A Ten burns a random card (burn %(n)s)") % {"n": n[0]}
    return purpose


# A logged action in words, by game (the Verify page's replay and action log).
ACTION_WORDS = {"hand": hand_action_words, "jakaro": jakaro_action_words}


def action_words(game: str, action: str, seat: int | None, seats: list[dict[str, Any]]) -> str:
    words_of = ACTION_WORDS.get(game)
    return words_of(action, seat, seats) if words_of else pretty_cards(action)


GAME_VIEWS = {"hand": _hand_view, "jakaro": _jakaro_view}
# A finished match's recap in words (Game.recap; Hand has none: its round's end shows every hand).
GAME_RECAPS = {"jakaro": _jakaro_recap}


# --------------------------------------------------------------------------------- socket frames


def state_fragment(state: dict[str, Any], lang: str, style: str | None = None) -> str:
    """The HTML-mode frame for a state: the live table and the chat, each swapped by id, in the
    viewer's language and digit style (sahrat_site/digits.py)."""
    with translation.override(lang), digit_style.override(style):
        ctx = table_context(state)
        ctx["oob"] = True
        return render_to_string("games/_table_live.html", ctx) + render_to_string(
            "games/_table_chat.html", ctx
        )


def error_fragment(message: str) -> str:
    """The HTML-mode frame for a refusal: words beside the moves, for screen readers too."""
    return (
        '<p id="table-error" class="table-error" role="alert" data-testid="table-error" '
        'hx-swap-oob="true">'
        f"{escape(message)}</p>"
    )
