"""Jakaro's face: a seat's Jakaro view (docs/views/jakaro.md) turned into what
templates/jinja2/games/views/jakaro.html draws (the board in games/faces/jakaro_board.py), and
Jakaro's own words: its actions, the marbles, the words on a card's face, why a card cannot
move, the end screen's last deck. The face of the game, so it may ask the game's own helper
(``games.jakaro.guide.explain``) what a seat's legal actions do."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.faces.common import (
    TIMEOUT_WORDS,
    card_item,
    card_label,
    digits,
    named,
    names_words,
    pretty_cards,
)
from games.faces.jakaro_board import board_svg, last_marbles, marbles_svg, team_of
from games.jakaro.guide import explain

NAME = gettext_lazy("Jakaro")
TEMPLATE = "games/views/jakaro.html"  # the part every viewer shares, turned by the page
# A seat's own parts, each into its slot of TEMPLATE (games/frames.py).
OWN_TEMPLATES = {"side": "games/views/jakaro_side.html", "moves": "games/views/jakaro_moves.html"}
RULES = "games/rules/jakaro.html"
STYLESHEET = "css/jakaro.css"  # linked after css/table.css by the pages that draw a board
# The table page's Jakaro scripts, in the order they run: the board as drawn, the choices and
# the move sent, then each board set up, the settings and sounds, and the taps.
SCRIPTS = ("js/jakaro_board.js", "js/jakaro_pick.js", "js/jakaro.js")


def _jakaro_pos(pos: int, start: int) -> str:
    if pos < 0:
        return _("in base")
    if pos >= 76:
        return _("home %(n)s") % {"n": digits(pos - 75)}
    return _("square %(n)s (%(k)s from start)") % {
        "n": digits(pos),
        "k": digits((pos - start) % 76),
    }


def _marble(token: str, actor: int, seats: list[dict[str, Any]]) -> str:
    """``m2`` -> "marble 3"; ``1:m0`` -> "Sara's marble 1" (a marble of another seat)."""
    owner, _sep, m = token.rpartition(":")
    number = digits(int(m[1:]) + 1) if m[1:].isdigit() else m
    if owner and owner.isdigit() and int(owner) != actor:
        return _("marble %(m)s of %(name)s") % {"m": number, "name": named(seats, int(owner))}
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
                "n": digits(rest[1]),
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
                "x": digits(rest[1]),
                "b": _marble(rest[2], actor, seats),
                "y": digits(rest[3]),
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


def action_words(action: str, seat: int | None, seats: list[dict[str, Any]]) -> str:
    """A logged Jakaro action in words (the same as the table's last move)."""
    if action.strip() == "timeout":
        return str(TIMEOUT_WORDS)
    return jakaro_label(action, seat if seat is not None else -1, seats)


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
# card names of the Hand table (games/faces/hand.py): their own context keeps the two apart.
FACE_RANKS = {
    "A": pgettext_lazy("card face", "Ace"),
    "K": pgettext_lazy("card face", "King"),
    "Q": pgettext_lazy("card face", "Queen"),
    "J": pgettext_lazy("card face", "Jack"),
}


def card_face(card: str) -> dict[str, Any]:
    """A card with the words on its face: «الشايب: اطلع أو ١٣»."""
    r = card[:-1]
    item = card_item(card)
    does = FACE_WORDS.get(r)
    if r in FACE_RANKS:
        item["face"] = f"{FACE_RANKS[r]}: {does}"
    else:
        item["face"] = str(does) if does else _("%(n)s forward") % {"n": r}
    # The catalogue writes the faces' numbers in Arabic-Indic: the viewer's digits win.
    item["face"] = digits(item["face"])
    return item


def stuck_words(why: dict[str, dict[str, str]]) -> list[dict[str, str]]:
    """With no legal move: per card, the reasons its marbles cannot move (each reason once)."""
    rows = []
    for card, reasons in why.items():
        codes = list(dict.fromkeys(reasons.values()))
        words = "، ".join(str(WHY_WORDS.get(c, c)) for c in codes) if codes else _("no marble")
        rows.append({"card": card_label(card), "words": words})
    return rows


def table_view(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None) -> dict:
    """The Jakaro part every viewer shares, as templates/jinja2/games/views/jakaro.html draws it:
    from a watcher's view (``you`` None), the board as a watcher sees it (the page turns it)."""
    starts = view.get("starts") or []
    board = []
    for seat, marbles in enumerate(view.get("marbles") or []):
        start = starts[seat] if seat < len(starts) else 0
        board.append(
            {
                "seat": seat,
                "name": named(seats, seat),
                "marbles": [
                    {"n": i + 1, "where": _jakaro_pos(p, start), "home": p >= 76, "base": p < 0}
                    for i, p in enumerate(marbles)
                ],
            }
        )
    last = view.get("last")
    last_words = None
    if last:
        played = last["action"].split()
        last_words = {
            "name": named(seats, last["seat"]),
            "seat": last["seat"],
            "words": jakaro_label(last["action"], last["seat"], seats),
            "card": card_face(played[1]) if len(played) > 1 else None,
            "burned": card_face(last["burned"]) if last.get("burned") else None,
            "burn": last["action"].startswith("burn10"),
        }
    winner = view.get("winner")
    players = view.get("players", 2)
    winners = None
    if winner is not None:
        members = [s for s in range(players) if team_of(players, s) == winner]
        winners = [named(seats, s) for s in members]
    svg = board_svg(view, seats)
    return {
        "players": players,
        "partners": players == 4,
        "board": board,
        "svg": svg,
        "marbles_svg": marbles_svg(svg["marbles"], last_marbles(last)),
        "discard": [card_item(c) for c in (view.get("discard") or [])],
        "deck_left": view.get("deck_left"),
        "deck_no": view.get("deck_no"),
        "last": last_words,
        "winner": winner,
        "winners": winners,
        "winners_words": names_words(winners) if winners else "",
    }


def own_view(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None) -> dict:
    """One seat's own part of the Jakaro table, as views/jakaro_side.html and jakaro_moves.html
    draw it: its cards, its moves and their words, and its view for the page's scripts."""
    actor = you if you is not None else -1
    help_ = explain(view)
    players = view.get("players", 2)
    why_words = {
        card: {ref: str(WHY_WORDS.get(code, code)) for ref, code in reasons.items()}
        for card, reasons in help_["why"].items()
    }
    legal = list(view["legal"])
    stuck = bool(legal) and all(a.startswith("discard ") for a in legal)
    nxt = (you + 1) % players if you is not None else None
    controls = view.get("controls")
    labels = {a: jakaro_label(a, actor, seats) for a in legal}  # each move's words, made once
    client = {
        "seat": you,
        "players": players,
        "controls": controls,
        "marbles": [p for ms in view.get("marbles") or [] for p in ms],
        "legal": legal,
        "after": help_["after"],
        "targets": help_["targets"],
        "why": why_words,
        "labels": labels,
    }
    return {
        "hand": [card_face(c) for c in view.get("hand") or []],
        "moves": [{"action": a, "label": labels[a]} for a in legal],
        "stuck": stuck,
        "stuck_why": stuck_words(help_["why"]) if stuck else [],
        "partner_now": you is not None and controls is not None and controls != you,
        "partner_name": named(seats, controls) if controls is not None else None,
        "next_name": named(seats, nxt) if nxt is not None else None,
        "client": client,
    }


def recap_words(recap: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
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
                "name": named(seats, seat),
                "action": move["action"],
                "words": jakaro_label(move["action"], seat, seats),
                "burned": card_item(burned) if burned else None,
                "victim": named(seats, move["victim"]) if burned else None,
            }
        )
    hands = [
        {
            "seat": seat,
            "name": named(seats, seat),
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
