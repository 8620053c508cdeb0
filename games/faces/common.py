"""The common face: what every game's page says the same way, and what the Verify pages share
with the tables (card words, option words, outcome, place and share words, bot labels, seat
names). Each game's own words live in its face (``games/faces/<game>.py``), never here, so one
game's words cannot overwrite another's.

Nothing here reads the database or an engine's state: only the dict a viewer may see. Every
text is built in the active language and the viewer's digits (language/digits.py).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

import games
from language import digits as digit_style
from language import words

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
CARD = re.compile(r"\A(?:10|[2-9AJQK])[SHDC]\Z|\AJK[12]\Z")

# The localStorage key where the page keeps its seeds (docs/protocol.md, "HTML mode"); the table
# page and the Verify page's "my own seed" read the same one.
SEEDS_KEY = "sahrat.seeds.v1"


# --------------------------------------------------------------------------------- numbers


def digits(n: int | str) -> str:
    """A number (or a text's numbers) in the viewer's digits (the profile's choice, else the
    language's: language/digits.py), as every page writes them."""
    return digit_style.digits(n)


def in_digits(words_of: Any) -> Any:
    """A word function whose text (numbers in the catalogue's words included) is written in the
    viewer's digits."""

    @functools.wraps(words_of)
    def wrapped(*args: Any, **kwargs: Any) -> str:
        return digits(words_of(*args, **kwargs))

    return wrapped


def ltr(n: int) -> str:
    """A score in right-to-left text: isolated left-to-right so −30 does not read 30−; in the
    viewer's digits like every number."""
    return f"\u2066{digits(n)}\u2069"


# --------------------------------------------------------------------------------- cards


def card_label(card: str) -> str:
    """``10H`` -> ``10♥``; a joker (``JK1``) -> the word for it."""
    if card.startswith("JK"):
        return _("Joker")
    return card[:-1] + SUITS.get(card[-1], card[-1])


def card_item(card: str) -> dict[str, Any]:
    """One card as every page draws it (templates/cards/card.html): its text, its short label,
    rank and suit symbol, colour and whether it is a joker. A game's face adds its own words
    (the Hand's spoken name, Jakaro's face words) to this one shape."""
    joker = card.startswith("JK")
    return {
        "text": card,
        "label": card_label(card),
        "rank": "" if joker else card[:-1],
        "suit": "" if joker else SUITS.get(card[-1], ""),
        # The red joker (JK1) is drawn red, the black one (JK2) black.
        "red": card == "JK1" or (not joker and card[-1:] in RED),
        "joker": joker,
    }


def pretty_cards(text: str) -> str:
    """Every card token of an action text in its readable form (``JK1=QC`` -> ``Joker=Q♣``)."""

    def one(token: str) -> str:
        if "=" in token:
            left, right = token.split("=", 1)
            return f"{one(left)}={one(right)}"
        return card_label(token) if CARD.match(token) else token

    return " ".join(one(t) for t in text.split())


# ------------------------------------------------------------------------- options

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
    out = []
    if "variant" in options:
        out.append(OPTION_WORDS["variant"].get(options["variant"], ""))
    out += [count, _("partners") if partners else _("solo")]
    if "table" in options:
        out.append(OPTION_WORDS["table"].get(options["table"], ""))
    return [str(w) for w in out if w]


def turn_words(seconds: int) -> str:
    return _("%(seconds)s a turn") % {"seconds": words.count("seconds", seconds)}


TIMEOUT_WORDS = gettext_lazy("Time ran out: the turn was played for them")


# --------------------------------------------------------------------------------- names


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


# The bots' strengths (games.contract.BOT_LEVELS) in words. A face reads no table row, so the words
# are its own; the table model's choices say the same words (one msgid, one translation).
BOT_LEVEL_WORDS = {
    "easy": pgettext_lazy("a bot's strength", "easy"),
    "normal": pgettext_lazy("a bot's strength", "normal"),
    "strong": pgettext_lazy("a bot's strength", "strong"),
}


def bot_label(index: int | None, level: str | None = None) -> str:
    """A bot's name at a table: «لاعب آلي» alone, «لاعب آلي ١», «لاعب آلي ٢» when several sit at
    one table (``index`` counts the bots in seat order from 1; None when there is only one), with
    its strength, the usual one too (issue 57: a bot with none read as no strength at all):
    «لاعب آلي (قوي)», «لاعب آلي ١ (عادي)», «لاعب آلي ٢ (سهل)»."""
    name = _("bot") if index is None else _("bot %(n)s") % {"n": digits(index)}
    if level not in BOT_LEVEL_WORDS:
        return name
    return _("%(bot)s (%(level)s)") % {"bot": name, "level": BOT_LEVEL_WORDS[level]}


def bot_indexes(seats: list[Any], is_bot: Any) -> dict[int, int | None]:
    """Position -> the index ``bot_label`` takes, for every bot among ``seats``."""
    bots = [i for i, s in enumerate(seats) if is_bot(s)]
    if len(bots) < 2:
        return dict.fromkeys(bots)
    return {i: k + 1 for k, i in enumerate(bots)}


def left_name(name: str) -> str:
    """A player who gave their seat up during the match, named and marked as left."""
    return _("%(name)s (left the match)") % {"name": name}


def named(seats: list[dict[str, Any]], number: int) -> str:
    """Seat ``number`` by the name the table shows, «المقعد N» for an empty or unknown seat."""
    row = next((s for s in seats if s["number"] == number), None)
    if row is None or row["empty"]:
        return _("seat %(n)s") % {"n": digits(number + 1)}
    return row["label"]


# --------------------------------------------------------------------------------- outcomes

PLACE_WORDS = {
    1: gettext_lazy("first place"),
    2: gettext_lazy("second place"),
    3: gettext_lazy("third place"),
    4: gettext_lazy("fourth place"),
}


def place_words(place: int, shared: bool) -> str:
    """«المركز الأول», or «تعادل على المركز الأول» when several share it."""
    words_ = PLACE_WORDS.get(int(place))
    text = str(words_) if words_ else _("place %(n)s") % {"n": digits(place)}
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
    return _("%(share)s of the pot") % {"share": f"\u2066{digits(share)}\u2069"}


def coins_words(coins: int) -> str:
    """What a seat won or paid in a match, in words («ربح ٤٠ عملة», «خسارة ٥٠ عملة»)."""
    if coins > 0:
        return _("won %(coins)s") % {"coins": words.count("coins", coins)}
    if coins < 0:
        return _("paid %(coins)s") % {"coins": words.count("coins", -coins)}
    return _("no coins won or lost")


def outcome_rows(
    outcome: dict[str, Any] | None,
    seats: list[dict[str, Any]],
    coins: dict[str, int] | None = None,
) -> list[dict] | None:
    """A played match's places in words, by the seats' names (a tie said as one); with
    ``coins`` (selectors.match_coins: the settlement's, by seat), what each seat won or paid."""
    if not outcome:
        return None
    rows = []
    for place, members in outcome.get("places", []):
        names = [named(seats, s) for s in members]
        share = ", ".join(sorted({outcome.get("shares", {}).get(str(s), "0") for s in members}))
        moved = [(named(seats, s), coins[str(s)]) for s in members if str(s) in (coins or {})]
        if len(members) == 1:
            said = [coins_words(n) for _name, n in moved]
        else:  # partners, or a tie: each seat's own coins, by name
            said = [f"{name}: {coins_words(n)}" for name, n in moved]
        coins_said = pgettext("between names in a list", ", ").join(said)
        rows.append({"place": place, "names": names, "share": share, "coins_words": coins_said})
    # A shared place: several seats in one row, or (Hand's places) one row per seat, same place.
    taken = [r["place"] for r in rows]
    for r in rows:
        r["shared"] = len(r["names"]) > 1 or taken.count(r["place"]) > 1
        # In words: «تعادل على المركز الأول: سارة وعلي», a coin table's part of the pot.
        r["place_words"] = place_words(r["place"], r["shared"])
        r["names_words"] = names_words(r["names"])
        r["share_words"] = share_words(r["share"]) if "," not in r["share"] else ""
    return rows


# --------------------------------------------------------------------------------- random events


def event_words(purpose: str) -> str:
    """A random event's purpose (``deal/2``, ``reshuffle/1/1``, ``burn/3``) in words."""
    parts = purpose.split("/")
    n = [digits(p) for p in parts[1:]]
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
