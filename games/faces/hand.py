"""The Hand's face: a seat's Hand view (docs/views/hand.md) turned into what
templates/jinja2/games/views/hand.html draws, and the Hand's own words (its actions, the spoken card
names, the hints, the threshold and score reasons). Reads views only, never the engine."""

from __future__ import annotations

import functools
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.faces.common import (
    TIMEOUT_WORDS,
    card_item,
    card_label,
    digits,
    in_digits,
    ltr,
    named,
    pretty_cards,
)
from games.faces.hand_seats import seats_round_the_felt

NAME = gettext_lazy("Hand")
TEMPLATE = "games/views/hand.html"  # the part every viewer shares
OWN_TEMPLATES = {"mine": "games/views/hand_own.html"}  # a seat's own, into TEMPLATE's slot
RULES = "games/rules/hand.html"
STYLESHEET = "css/hand.css"  # linked after css/table.css by the pages that draw a Hand table
# The table page's Hand scripts, in the order they run: the meld rules, then the shared state
# and the hand's order, the tray and the moves, and what each frame changes and the taps.
SCRIPTS = ("js/melds.js", "js/hand_cards.js", "js/hand_tray.js", "js/hand.js")

MUST_WORDS = {
    "draw": lambda: _("draw a card"),
    "use_fire_card": lambda: _("use the card taken from the fire pile"),
    "use_joker": lambda: _("lay the joker you took"),
    "throw": lambda: _("throw a card"),
}


# --------------------------------------------------------------------------------- actions


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
            "n": digits(parts[1]),
        }
    if kind == "swap" and len(parts) >= 3:
        return _("Swap %(cards)s for the joker of meld %(n)s") % {
            "cards": pretty_cards(" ".join(parts[2:])),
            "n": digits(parts[1]),
        }
    return pretty_cards(action)


def action_words(action: str, seat: int | None, seats: list[dict[str, Any]]) -> str:
    """A logged Hand action in words, the server's own included (the replay, the Verify page)."""
    text = action.strip()
    if text == "deal":
        return _("Deal the next round")
    if text == "timeout":
        return str(TIMEOUT_WORDS)
    return hand_label(text)


@in_digits
def hint_label(key: str, action: str, hints: dict[str, Any]) -> str:
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


# --------------------------------------------------------------------------------- cards

# The words a card is called by, for screen readers and the joker picker («سبعة كبة»). The two
# jokers are told apart (JK1 drawn red, JK2 black): same rules, different cards in the hand.
# The Hand's own: Jakaro's faces name the court cards their own way (games/faces/jakaro.py).
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


def card_name(card: str, lang: str | None = None) -> str:
    """The spoken name of a card in ``lang``, the active language (cached per language: a frame
    names every card for the page's script); None asks Django which it is."""
    return _card_name(card, lang if lang is not None else translation.get_language())


def card_names(lang: str | None = None) -> dict[str, str]:
    """Every card's spoken name in ``lang`` (the active language if None), for the joker
    picker."""
    return _card_names(lang if lang is not None else translation.get_language())


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


def joker_as() -> str:
    """How a joker in a meld is named with the card it stands for: «جوكر أحمر بدل سبعة كبة»."""
    return _("%(joker)s as %(card)s")


def hand_card(card: str, stands: str | None = None, lang: str | None = None) -> dict[str, Any]:
    """One card as the Hand templates draw it (templates/cards/card.html, look "drawn"): the
    common card with its spoken name in ``lang`` (the active language if None); a joker in a
    meld also shows the card it stands for."""
    if lang is None:
        lang = translation.get_language()  # once for the card and the one it stands for
    out = card_item(card)
    joker = out["joker"]
    out["name"] = card_name(card, lang)
    out["stands"] = None
    if joker and stands and stands != card:
        out["stands"] = hand_card(stands, lang=lang)
        out["name"] = joker_as() % {"joker": out["name"], "card": card_name(stands, lang)}
    return out


# --------------------------------------------------------------------------------- scores


def card_value(card: str) -> int:
    """The value of a card left in hand (rules §8): the same numbers as games/hand/cards.py,
    kept here because the face reads views only, never the engine."""
    if card.startswith("JK"):
        return 15
    rank = card[:-1]
    if rank == "A":
        return 11
    return 10 if rank in ("J", "Q", "K") else int(rank)


@in_digits
def score_words(view: dict[str, Any], seat: int) -> str:
    """Why a seat scored what it did this round (rules §8): going out, «هاند», never opened, or
    the cards left, with the «هاند» doubling spelled out."""
    result = view.get("result") or {}
    scores = result.get("scores") or []
    score = scores[seat] if seat < len(scores) else 0
    hand = bool(result.get("hand"))
    out = result.get("out")
    if out == seat:
        if hand:
            return _("went out with a «Hand»: %(n)s") % {"n": ltr(score)}
        return _("went out: %(n)s") % {"n": ltr(score)}
    if out is not None and view.get("partners") and seat % 2 == out % 2:
        return _("partner went out: the team's score is on the partner")
    opened = view.get("opened") or []
    if seat < len(opened) and not opened[seat]:
        if hand:
            return _("never opened, and the round ended with a «Hand»: 200")
        return _("never opened: 100")
    cards = (view.get("hands") or [[]] * (seat + 1))[seat]
    total = sum(card_value(c) for c in cards)
    if hand:
        return _("cards left: %(v)s, doubled after a «Hand»: %(n)s") % {"v": total, "n": score}
    return _("cards left: %(n)s") % {"n": score}


@in_digits
def threshold_words(view: dict[str, Any], you: int | None) -> str:
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


# --------------------------------------------------------------------------------- the view


def _meld_groups(
    view: dict[str, Any], seats: list[dict[str, Any]], you: int | None, lang: str | None = None
) -> list:
    """The melds on the table by owner, as they lie in front of each player: the viewer's
    first, then the others in play order (a watcher's from seat 0)."""
    players = view.get("players", 0) or 1
    first = you if you is not None and you < players else 0
    groups: dict[int, list[dict[str, Any]]] = {}
    for m in view.get("melds") or []:
        groups.setdefault(m["owner"], []).append(
            {
                "n": m["n"],
                "owner": named(seats, m["owner"]),
                "cards": [
                    hand_card(c, s, lang) for c, s in zip(m["cards"], m["stands"], strict=False)
                ],
                "points": m["points"],
            }
        )
    return [
        {"seat": seat, "owner": named(seats, seat), "you": seat == you, "melds": groups[seat]}
        for seat in sorted(groups, key=lambda s: (s - first) % players)
    ]


def _hint_moves(mine: bool, hints: dict[str, Any]) -> list[dict[str, str]]:
    moves: list[dict[str, str]] = []
    if not (mine and hints):
        return moves
    for key in ("hand", "opening", "lay"):
        if hints.get(key):
            moves.append({"action": hints[key], "label": hint_label(key, hints[key], hints)})
    for key in ("off", "swap"):
        for action in hints.get(key) or []:
            moves.append({"action": action, "label": hand_label(action)})
    return moves


def table_view(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None) -> dict:
    """The Hand's part every viewer of the table shares, as templates/jinja2/games/views/hand.html
    draws it: from a watcher's view (``you`` None; games/frames.py), which the page then marks
    for its own seat (static/js/hand.js, turnFelt)."""
    # The language asked once: a frame names every card it shows (asking Django each time,
    # through asgiref's Local, was about a tenth of a Hand seat's frame: bench.frames).
    lang = translation.get_language()
    players = view.get("players", 0)
    totals = view.get("totals") or []
    opened = view.get("opened") or []
    history = view.get("history") or []
    scores = [
        {
            "name": named(seats, seat),
            "total": totals[seat] if seat < len(totals) else 0,
            "opened": seat < len(opened) and opened[seat],
            "rounds": [row[seat] for row in history if seat < len(row)],
        }
        for seat in range(players)
    ]
    fire = view.get("fire") or []
    return {
        "status": view.get("status"),
        "easy": view.get("table") == "easy",
        "partners": bool(view.get("partners")),
        "others": seats_round_the_felt(view, seats, you),
        # The players' row above the cards shows each seat's presence: while a round is played
        # the table's own seat list would list everyone a second time (_table_live.html).
        "own_seats": True,
        "meld_groups": _meld_groups(view, seats, you, lang),
        "fire_top": hand_card(view["fire_top"], lang=lang) if view.get("fire_top") else None,
        # The last 40 under the top (only those are drawn).
        "fire_history": [hand_card(c, lang=lang) for c in fire[-2::-1][:40]],
        "fire_count": len(fire),
        "stock_count": view.get("stock_count"),
        "round": view.get("round"),
        "rounds": view.get("rounds"),
        "dealer": named(seats, view.get("dealer", 0)),
        "scores": scores,
        "round_numbers": list(range(1, len(history) + 1)),
    }


def own_view(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None) -> dict:
    """One seat's own part of the Hand table, as templates/jinja2/games/views/hand_own.html
    draws it: its cards, the lines of its turn, the round's recap, and its view for the page's
    scripts."""
    lang = translation.get_language()
    mine = you is not None and view.get("turn") == you and view.get("status") == "playing"
    totals = view.get("totals") or []
    opened = view.get("opened") or []
    result = view.get("result")
    recap = None
    if result and view.get("hands") is not None:
        recap = [
            {
                "name": named(seats, seat),
                "cards": [hand_card(c, lang=lang) for c in cards],
                "score": result["scores"][seat] if seat < len(result["scores"]) else 0,
                "why": score_words(view, seat),
                "total": totals[seat] if seat < len(totals) else 0,
            }
            for seat, cards in enumerate(view["hands"])
        ]
    hand = view.get("hand") or []
    # What the page's scripts read (static/js/hand*.js): this seat's own view exactly as the JSON
    # socket would send it (docs/views/hand.md: never another seat's cards while a round is
    # played) and the spoken words of every card, for the joker picker and the staged melds
    # (a joker standing for a card named as the server names it).
    data = {
        "view": view,
        "you": you,
        "mine": mine,
        "names": card_names(lang),
        "joker_as": joker_as(),
    }
    hints = view.get("hints") or {}
    return {
        "data": data,
        "mine": mine,
        "phase": view.get("phase"),
        "hand": [hand_card(c, lang=lang) for c in hand],
        "in_hand_points": sum(card_value(c) for c in hand),
        "fire_top": view.get("fire_top"),
        "fire_usable": view.get("fire_usable"),
        "round": view.get("round"),
        "threshold": view.get("threshold"),
        "threshold_why": threshold_words(view, you),
        "opened_me": you is not None and you < len(opened) and opened[you],
        "must": [MUST_WORDS[m]() for m in view.get("must") or [] if m in MUST_WORDS],
        "fire_card": hand_card(view["fire_card"], lang=lang) if view.get("fire_card") else None,
        "joker_due": hand_card(view["joker_due"], lang=lang) if view.get("joker_due") else None,
        "hint_moves": _hint_moves(mine, hints),
        "hint_throw": hand_card(hints["throw"], lang=lang) if mine and hints.get("throw") else None,
        "result": result,
        "out_name": named(seats, result["out"])
        if result and result.get("out") is not None
        else None,
        "recap": recap,
        # Kept for the generic "no move between matches" rule of the table's context.
        "moves": [{"action": "draw stock"}] if mine else [],
    }


# The Hand has no end-of-match recap: its round's end already shows every hand.
recap_words = None
