"""Names players can read and cannot fake.

``fold(name)`` is the form two names are compared in: two usernames with the same fold are one
name (the database enforces it, accounts.User.username_key). It is Unicode NFKC, case folding, the
Arabic folds Gulf players read as the same letter, Arabic-Indic digits as ASCII digits, and every
letter that is drawn like a Latin one (Cyrillic "ѕаrа") as that Latin letter, from the Unicode
confusables data shipped in the ``confusable_homoglyphs`` package.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables

# Letters Arabic readers treat as one: alef with hamza or madda, alef wasla; alef maksura and the
# Persian yeh; yeh and waw with hamza; the Persian keheh; heh forms; teh marbuta.
ARABIC_FOLDS = str.maketrans(
    {
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
        "ٲ": "ا",
        "ٳ": "ا",
        "ى": "ي",
        "ی": "ي",
        "ې": "ي",
        "ئ": "ي",
        "ؤ": "و",
        "ک": "ك",
        "ڪ": "ك",
        "ھ": "ه",
        "ہ": "ه",
        "ة": "ه",
    }
)
TATWEEL = "\u0640"
# Characters with a letter's or a symbol's category that draw nothing (Hangul fillers, the Braille
# blank, Khmer inherent vowels, the Mongolian vowel separator, musical-symbol spacers).
BLANK_GRAPHICS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u034f\u00ad"
    "\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178\U0001d179\U0001d17a"
)
# Joiners shape Arabic and Persian letters and build emoji sequences; every other format character
# (zero-width spaces, direction overrides and isolates) is invisible or turns the text around it.
ALLOWED_FORMAT_CHARS = frozenset("\u200c\u200d")


@functools.cache
def _latin_lookalike(ch: str) -> str:
    """The ASCII letter or digit ``ch`` is drawn like, or ``ch`` itself."""
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin", "common"])
    if found:
        for glyph in found[0]["homoglyphs"]:
            c = glyph["c"]
            if len(c) == 1 and c.isascii() and c.isalnum():
                return c.lower()
    return ch


def fold(name: str) -> str:
    """The comparison form of a name (see the module docstring)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    out: list[str] = []
    for ch in text.translate(ARABIC_FOLDS):
        if ch == TATWEEL or ch in ALLOWED_FORMAT_CHARS or unicodedata.category(ch) == "Mn":
            continue  # tatweel, joiners and harakat change how a name looks, not which it is
        digit = unicodedata.decimal(ch, None)
        if digit is not None:
            out.append(str(digit))
        elif ch.isascii():
            out.append(ch)
        else:
            out.append(_latin_lookalike(ch))
    return "".join(out)


def has_hidden_characters(name: str) -> bool:
    """Control, private, unassigned or format characters (bar the joiners), or line breaks."""
    return any(
        cat in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")
        or (cat == "Cf" and ch not in ALLOWED_FORMAT_CHARS)
        for ch, cat in ((c, unicodedata.category(c)) for c in name)
    )


def is_visible(name: str) -> bool:
    """At least one character that draws something: a letter, digit, sign or symbol that is not
    a known blank."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_GRAPHICS for ch in name)


def _letters(name: str) -> str:
    return "".join(ch for ch in fold(name) if ch.isalpha())


# Names only staff may carry (compared folded, separators and digits ignored).
RESERVED = frozenset(
    _letters(word)
    for word in (
        "admin",
        "administrator",
        "staff",
        "support",
        "moderator",
        "mod",
        "root",
        "system",
        "sahrat",
        "سهرات",
        "مشرف",
        "المشرف",
        "إدارة",
        "الإدارة",
        "مدير",
        "المدير",
        "الدعم",
        "دعم",
    )
)
# A name containing one of these anywhere reads as official.
RESERVED_PARTS = tuple(_letters(word) for word in ("admin", "sahrat", "سهرات", "مشرف", "إدارة"))


def is_reserved(name: str) -> bool:
    """A staff name, or one that reads as official."""
    letters = _letters(name)
    return letters in RESERVED or any(part in letters for part in RESERVED_PARTS)
