"""Counted words: «١٠ عملات», «ورقتان», «١١ نقطة». Arabic has six plural forms (the catalogue's
Plural-Forms header): every count a page shows goes through ``count`` so each gets its own, with
the number in the viewer's digits (language/digits.py)."""

from __future__ import annotations

from django.utils.translation import ngettext

from language.digits import digits


def _coins(n: int) -> str:
    return ngettext("%(n)s coin", "%(n)s coins", n)


def _cards(n: int) -> str:
    return ngettext("%(n)s card", "%(n)s cards", n)


def _points(n: int) -> str:
    return ngettext("%(n)s point", "%(n)s points", n)


def _seconds(n: int) -> str:
    return ngettext("%(n)s second", "%(n)s seconds", n)


def _players(n: int) -> str:
    return ngettext("%(n)s player", "%(n)s players", n)


def _marbles(n: int) -> str:
    return ngettext("%(n)s marble", "%(n)s marbles", n)


def _matches(n: int) -> str:
    return ngettext("%(n)s match", "%(n)s matches", n)


def _actions(n: int) -> str:
    return ngettext("%(n)s action", "%(n)s actions", n)


def _melds(n: int) -> str:
    return ngettext("%(n)s meld", "%(n)s melds", n)


def _rounds(n: int) -> str:
    return ngettext("%(n)s round", "%(n)s rounds", n)


def _free_seats(n: int) -> str:
    return ngettext("one seat free", "%(n)s seats free", n)


KINDS = {
    "coins": _coins,
    "cards": _cards,
    "points": _points,
    "seconds": _seconds,
    "players": _players,
    "marbles": _marbles,
    "matches": _matches,
    "actions": _actions,
    "melds": _melds,
    "rounds": _rounds,
    "free_seats": _free_seats,
}


def count(kind: str, n: int) -> str:
    """``n`` things of ``kind`` in the active language's plural form and the viewer's digits. A
    negative count (a score) takes the form of its size."""
    n = int(n)
    return KINDS[kind](abs(n)) % {"n": digits(n)}


# A count that stands for each CLDR plural category (Intl.PluralRules' names) in the languages
# the site speaks; Arabic's six forms follow the same rule as the catalogue's Plural-Forms.
_CATEGORY_COUNTS = {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 11, "other": 100}


def forms(kind: str) -> dict[str, str]:
    """The words for each plural category, with ``{n}`` where the number goes: what a page's
    script needs to count on its own (Intl.PluralRules picks the category)."""
    return {category: KINDS[kind](n) % {"n": "{n}"} for category, n in _CATEGORY_COUNTS.items()}
