"""Disguised spellings of listed words, made the ways players make them to slip a word past a
filter: for the tests and for ``python -m bench.chat``, which count how many the filter catches.
Pure Python (standard library only) and deterministic for a seed.

Each kind is a function of a word (or phrase) and a random source that returns the disguised
text, or None where the kind does not apply (no alef to put a hamza on, no Arabizi digit letter).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

Kind = Callable[[str, random.Random], "str | None"]

_TASHKEEL = [chr(c) for c in range(0x064B, 0x0653)]
_QURANIC = [chr(c) for c in [*range(0x06D6, 0x06DD), *range(0x06DF, 0x06E5), 0x06E7, 0x06E8]]
_INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u200f", "\u2060", "\u00ad"]
_HAMZA = {"ا": "أإآٱ", "و": "ؤ", "ي": "ئى", "ه": "ة", "ة": "ه"}
_PERSIAN = {"ك": "ک", "ي": "ی"}
_INDIC = {"ح": "٧", "ع": "٣", "خ": "٥", "ص": "٩", "ط": "٦", "ق": "٨", "ء": "٢"}
_ARABIZI = dict(
    zip(
        "بتثجحخدذرزسشصضطظعغفقكلمنهءا",
        "b t th j 7 5 d dh r z s sh 9 d 6 z 3 gh f 8 k l m n h 2 a".split(),
        strict=True,
    )
)
_LEET = {
    "a": "4@",
    "e": "3",
    "i": "1!",
    "o": "0",
    "s": "5$",
    "t": "7+",
    "b": "8",
    "g": "9",
    "l": "|",
}
_CYRILLIC = dict(zip("aeopcxykmthbijs", "аеорсхукмтнвіјѕ", strict=True))
_GREEK = dict(zip("aoeptukinvxyw", "αοερτυκιηνχγω", strict=True))
_ACCENTS = ["\u0300", "\u0301", "\u0302", "\u0308", "\u030a"]
_ARABIC_LINES = ["والله انت {} يا رجال", "{} والله", "شفيك {}؟ العب زين", "هههه {} هههه"]
_LATIN_LINES = ["you are such a {} lol", "gg {} !!", "{} go play", "wallah {} ya rajal"]


@dataclass(frozen=True)
class Disguise:
    """A disguised line made from a listed entry."""

    listed: str
    severity: str
    kind: str
    text: str


class Checker(Protocol):
    """What ``caught`` needs of a filter: moderation.wordfilter.WordFilter, or a naive one."""

    def check(self, text: str) -> Any: ...


def is_arabic(text: str) -> bool:
    """Whether ``text`` has an Arabic letter."""
    return any("\u0621" <= c <= "\u064a" for c in text)


def _presentation_forms() -> dict[str, list[str]]:
    forms: dict[str, list[str]] = {}
    for cp in [*range(0xFB50, 0xFDFF), *range(0xFE70, 0xFEFF)]:
        base = unicodedata.normalize("NFKC", chr(cp))
        if len(base) == 1 and is_arabic(base):
            forms.setdefault(base, []).append(chr(cp))
    return forms


_FORMS = _presentation_forms()


def _some(w: str, r: random.Random, change: Callable[[str], str | None]) -> str | None:
    """``w`` with ``change`` applied to about half of the letters it applies to (at least one);
    None when it applies to none."""
    spots = [i for i, c in enumerate(w) if c != " " and change(c) is not None]
    if not spots:
        return None
    chosen = set(r.sample(spots, max(1, len(spots) // 2)))
    return "".join((change(c) or c) if i in chosen else c for i, c in enumerate(w))


def _between(w: str, r: random.Random, signs: list[str]) -> str:
    """``w`` with signs slipped between some of its letters (never at a space)."""
    spots = [i for i in range(1, len(w)) if w[i] != " " and w[i - 1] != " "]
    chosen = set(r.sample(spots, max(1, len(spots) // 2))) if spots else set()
    return "".join((r.choice(signs) if i in chosen else "") + c for i, c in enumerate(w))


def _repeat(w: str, r: random.Random) -> str:
    i = r.choice([i for i, c in enumerate(w) if c.isalpha()])
    return w[:i] + w[i] * r.randint(2, 4) + w[i:]


def _spaced(w: str, r: random.Random) -> str:
    return " ".join(c for c in w if c != " ")


def _punctuated(w: str, r: random.Random) -> str:
    return r.choice(".-_*").join(c for c in w if c != " ")


def _sentence(w: str, r: random.Random) -> str:
    return r.choice(_ARABIC_LINES if is_arabic(w) else _LATIN_LINES).format(w)


def _invisible(w: str, r: random.Random) -> str:
    return _between(w, r, _INVISIBLE)


def _tashkeel(w: str, r: random.Random) -> str | None:
    return _some(w, r, lambda c: c + r.choice(_TASHKEEL))


def _tatweel(w: str, r: random.Random) -> str:
    return _between(w, r, ["ـ", "ـــ"])


def _quranic(w: str, r: random.Random) -> str | None:
    return _some(w, r, lambda c: c + r.choice(_QURANIC))


def _hamza(w: str, r: random.Random) -> str | None:
    return _some(w, r, lambda c: r.choice(_HAMZA[c]) if c in _HAMZA else None)


def _persian(w: str, r: random.Random) -> str | None:
    return _some(w, r, _PERSIAN.get)


def _presentation(w: str, r: random.Random) -> str:
    return "".join(r.choice(_FORMS.get(c, [c])) for c in w)


def _indic_digit(w: str, r: random.Random) -> str | None:
    return _some(w, r, _INDIC.get)


def _prefix(w: str, r: random.Random) -> str | None:
    if " " in w or len(w) < 3:
        return None
    return r.choice(["و", "ف", "ب", "ال", "وال", "بال", "كال", "يا "]) + w


def _arabizi(w: str, r: random.Random) -> str | None:
    """``w`` in Latin letters with Arabizi digits, vowels spelt as players spell them; None for a
    phrase or a word with no letter written by a digit."""
    if " " in w or not any(c in _INDIC for c in w):
        return None
    w = unicodedata.normalize("NFKD", w)
    w = "".join(c for c in w if not unicodedata.combining(c)).replace("ى", "ي")
    out: list[str] = []
    for i, c in enumerate(w):
        if i > 0 and c in "اوي":
            latin = r.choice({"ا": ["a", "aa"], "و": ["o", "oo", "u"], "ي": ["i", "ee"]}[c])
        elif i == len(w) - 1 and c in "ةه":
            latin = r.choice(["a", "ah", "eh"])
        else:
            latin = _ARABIZI.get(c, {"و": "w", "ي": "y"}.get(c, ""))
        if out and out[-1][-1:] in ("k", "s", "t", "c", "g", "d") and latin[:1] == "h":
            latin = "a" + latin  # "k" then "h" would read as خ
        out.append(latin)
        if i < len(w) - 1 and c not in "اوي" and w[i + 1] not in "اويةه" and r.random() < 0.5:
            out.append(r.choice(["a", "e"]))
    text = "".join(out)
    return text.upper() if r.random() < 0.2 else text


def _mixed(w: str, r: random.Random) -> str:
    return _repeat(_tatweel(_tashkeel(w, r) or w, r), r)


def _case(w: str, r: random.Random) -> str:
    mixed = "".join(c.upper() if r.random() < 0.5 else c for c in w)
    return mixed if mixed != w else w.upper()


def _leet(w: str, r: random.Random) -> str | None:
    if any(c.isdigit() for c in w):
        return None  # an Arabizi spelling: its digits are letters already
    return _some(w, r, lambda c: r.choice(_LEET[c]) if c in _LEET else None)


def _cyrillic(w: str, r: random.Random) -> str | None:
    return _some(w, r, _CYRILLIC.get)


def _greek(w: str, r: random.Random) -> str | None:
    return _some(w, r, _GREEK.get)


def _fullwidth(w: str, r: random.Random) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in w)


def _accents(w: str, r: random.Random) -> str | None:
    return _some(w, r, lambda c: c + r.choice(_ACCENTS) if c in "aeiouy" else None)


def _latin_mixed(w: str, r: random.Random) -> str:
    return _repeat(_case(_leet(w, r) or w, r), r)


ARABIC_KINDS: dict[str, Kind] = {
    "tashkeel": _tashkeel,
    "tatweel": _tatweel,
    "quranic": _quranic,
    "hamza": _hamza,
    "persian": _persian,
    "presentation": _presentation,
    "indic_digit": _indic_digit,
    "repeat": _repeat,
    "spaced": _spaced,
    "punctuated": _punctuated,
    "invisible": _invisible,
    "prefix": _prefix,
    "arabizi": _arabizi,
    "sentence": _sentence,
    "mixed": _mixed,
}
LATIN_KINDS: dict[str, Kind] = {
    "case": _case,
    "repeat": _repeat,
    "spaced": _spaced,
    "punctuated": _punctuated,
    "leet": _leet,
    "cyrillic": _cyrillic,
    "greek": _greek,
    "fullwidth": _fullwidth,
    "accents": _accents,
    "invisible": _invisible,
    "sentence": _sentence,
    "mixed": _latin_mixed,
}


def disguises(entries: Iterable[tuple[str, str]], rounds: int = 1, seed: int = 0) -> list[Disguise]:
    """``rounds`` disguises of every kind that applies, for each (word or phrase, severity)."""
    rng = random.Random(seed)
    made = []
    for listed, severity in entries:
        kinds = ARABIC_KINDS if is_arabic(listed) else LATIN_KINDS
        for kind, make in kinds.items():
            for _ in range(rounds):
                text = make(listed, rng)
                if text is not None and text != listed:
                    made.append(Disguise(listed, severity, kind, text))
    return made


def caught(checker: Checker, disguise: Disguise) -> bool:
    """Whether the filter acted on the disguise as its entry asks: found the entry, or refused
    the line (a "refuse" entry) / matched anything in it (a "mask" entry)."""
    verdict = checker.check(disguise.text)
    if disguise.listed in verdict.matched:
        return True
    return verdict.refused if disguise.severity == "refuse" else bool(verdict.matched)


def missed(checker: Checker, made: Iterable[Disguise]) -> list[Disguise]:
    """The disguises ``checker`` did not catch."""
    return [d for d in made if not caught(checker, d)]
