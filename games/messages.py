"""Refusal words both games share: stable code -> what a player reads, Arabic and English.

Each engine keeps its own codes in ``games/<game>/messages.py``; a code is looked up there first,
then here. Codes are part of the contract (scenario files, clients and the match log match on
them): never rename one, add a new one instead.
"""

from __future__ import annotations

from collections.abc import Mapping

COMMON: dict[str, dict[str, str]] = {
    "bad_action": {
        "ar": "لم نفهم هذه الحركة.",
        "en": "That move could not be understood.",
    },
    "not_your_turn": {
        "ar": "ليس دورك الآن.",
        "en": "It is not your turn.",
    },
    "match_over": {
        "ar": "انتهت المباراة، لا يمكن اللعب بعد الآن.",
        "en": "The match is over; no more moves.",
    },
    "no_such_seat": {
        "ar": "لا يوجد لاعب في هذا المقعد.",
        "en": "There is no player in that seat.",
    },
    "server_only": {
        "ar": "هذه الحركة يقوم بها الخادم وحده.",
        "en": "Only the server may make that move.",
    },
    "bad_options": {
        "ar": "خيارات الطاولة هذه غير مسموحة.",
        "en": "Those table options are not allowed.",
    },
    "bad_players": {
        "ar": "عدد اللاعبين هذا غير مسموح في هذه اللعبة.",
        "en": "That number of players is not allowed in this game.",
    },
}


def text(code: str, lang: str, own: Mapping[str, Mapping[str, str]]) -> str:
    """The words for ``code`` in ``lang`` ("ar" or "en"): the game's own table first, then the
    shared one; an unknown code reads as "that move could not be understood"."""
    entry = own.get(code) or COMMON.get(code) or COMMON["bad_action"]
    return entry.get(lang) or entry["en"]
