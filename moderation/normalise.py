"""The chat filter's reading of a line: Unicode folded, cut into tokens, each token with the
spellings it may stand for. Pure Python (standard library only), so it is tested without Django.

A token is what lies between spaces. Its *words* are the spellings looked up among the listed
words: the letters once punctuation is removed, the leetspeak reading ("sh!t" is "shit"), and
for Arabic script the letters with Arabizi digits read as letters ("7ـمار" is "حمار"). A Latin
token that mixes letters and Arabizi digits ("7mar") also has a consonant *skeleton* in Arabic
letters ("حمر"), compared with the skeletons of the Arabic listed words. Repeated letters are
kept here: the filter compares runs (see ``runs``), so "shiiit" keeps its three "i".
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

# Deleted before anything is compared: marks that only decorate a letter (Arabic tashkeel,
# U+0670, the Quranic signs, Latin accents once NFKD has split them off), tatweel, and the
# invisible characters a sender can slip between letters (zero-width joiners, bidi controls,
# the blank Hangul letters).
_DELETED = [
    (0x0300, 0x036F),
    (0x0610, 0x061A),
    (0x061C, 0x061C),
    (0x0640, 0x0640),
    (0x064B, 0x065F),
    (0x0670, 0x0670),
    (0x06D6, 0x06ED),
    (0x08D3, 0x08FF),
    (0x00AD, 0x00AD),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x20D0, 0x20FF),
    (0xFE00, 0xFE0F),
    (0xFE20, 0xFE2F),
    (0xFEFF, 0xFEFF),
    (0x115F, 0x1160),  # Hangul fillers: letters that show nothing
    (0x3164, 0x3164),
    (0xFFA0, 0xFFA0),
]

# One letter for each family of Arabic spellings chat uses interchangeably (NFKD already splits
# the hamza off أ إ آ ؤ ئ), and the Persian/Urdu letters that look like Arabic ones (the Gulf
# writes چ for its "ch" sound of ك, گ for its "g" sound of ق).
_ARABIC = {
    "ٱ": "ا",
    "ى": "ي",
    "ة": "ه",
    "ک": "ك",
    "ڪ": "ك",
    "چ": "ك",
    "گ": "ق",
    "ی": "ي",
    "ې": "ي",
    "ے": "ي",
    "ھ": "ه",
    "ە": "ه",
    "ۃ": "ه",
    "ڤ": "ف",
    "پ": "ب",
    "ژ": "ز",
}

# Cyrillic and Greek letters that pass for Latin ones (after casefold), and Latin letters
# without a decomposition.
_LOOKALIKES = {
    **dict(zip("авекмнорстухіјѕԁԛԝүһӏпь", "abekmhopctyxijsdqwyhlnb", strict=True)),
    **dict(zip("αβεηικμνορτυχγως", "abenikuvoptuxyws", strict=True)),
    **dict(zip("ıøłđħɡ", "ioldhg", strict=True)),
}

_FOLD: dict[int, str | None] = {cp: None for lo, hi in _DELETED for cp in range(lo, hi + 1)}
_FOLD.update({ord(k): v for k, v in {**_ARABIC, **_LOOKALIKES}.items()})
_FOLD.update({0x0660 + d: str(d) for d in range(10)})  # Arabic-Indic digits
_FOLD.update({0x06F0 + d: str(d) for d in range(10)})  # their Persian forms
_FOLD.update({ord(c): "'" for c in "’‘`ʼ"})

# Arabizi: the digits that stand for Arabic letters Latin has none for. In an Arabic-script token
# they are read as those letters (and 1 as the alef it looks like); Latin letters there too.
ARABIZI_DIGITS = {"2": "ء", "3": "ع", "5": "خ", "6": "ط", "7": "ح", "8": "ق", "9": "ص"}
_IN_ARABIC = str.maketrans(
    {
        **ARABIZI_DIGITS,
        "1": "ا",
        "|": "ا",
        **dict(zip("abtjgdrzsfqklmnhwyoiue", "ابتججدرزسفقكلمنهويويوي", strict=True)),
    }
)

# Leetspeak for English: digits and signs read as the letters they imitate.
_LEET = str.maketrans("01345789@$!|+", "oieastbgasilt")

# Arabizi letters to the Arabic consonants they write; vowels, y, w and 2 (hamza) are dropped,
# as the Arabic side drops ا و ي ء (Arabizi writes long vowels or not, as it likes).
_DIGRAPHS = {"kh": "خ", "sh": "ش", "ch": "ش", "th": "ث", "gh": "غ", "dh": "ذ"}
_DIGRAPHS.update({"3'": "غ", "6'": "ظ", "7'": "خ", "9'": "ض"})  # the apostrophe adds the dot
_CONSONANTS = {
    **dict(zip("btjgdrzsfvqpklmnhc", "بتججدرزسففقبكلمنهك", strict=True)),
    **{d: a for d, a in ARABIZI_DIGITS.items() if d != "2"},
}
_VOWELS = set("aeiouyw")
_SILENT = _VOWELS | set("0142'")
_UNITS = re.compile("[3679]'|kh|sh|ch|th|gh|dh|.")
# Letters Arabizi writes alike (z for ذ ز ظ, d for د ض) are one letter in a skeleton.
_MERGED = str.maketrans("ذظض", "ززد")

_ARABIC_LETTER = re.compile("[\u0621-\u064a]")
_LATIN_LETTER = re.compile("[a-z]")
_ARABIZI_DIGIT = re.compile("[235-9]")
_LEET_CHAR = re.compile(r"[0-9@$!|+]")
_NON_WORD = re.compile(r"[\W_]+")
_RUN = re.compile(r"(.)\1*")
_REPEAT = re.compile(r"(.)\1+")
_RAW_TOKEN = re.compile(r"\S+")
_TRAILING = "!?.,;:'\")]}"
_APOSTROPHES = re.compile(r"[^\w']|_")
# An English contraction or possessive is not part of the word: "who're" is not "whore".
_CONTRACTION = re.compile(r"'(?:re|s|t|ll|ve|d|m)$")


def fold(text: str) -> str:
    """``text`` with presentation forms, full-width and styled letters (NFKD), case, marks,
    tatweel and invisible characters, Arabic letter variants, look-alikes and digits folded."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFKD", text).casefold().translate(_FOLD)


def collapse(word: str) -> str:
    """``word`` with each run of one letter written once ("shiiit" → "shit")."""
    return _REPEAT.sub(_first, word) if _REPEAT.search(word) else word


def _first(run: re.Match[str]) -> str:
    return run.group(1)


def runs(word: str) -> tuple[int, ...]:
    """How long each run of one letter is in ``word`` ("shiiit" → (1, 1, 3, 1))."""
    return tuple(len(m.group()) for m in _RUN.finditer(word))


def skeleton(latin: str) -> tuple[str, int]:
    """The Arabic consonants an Arabizi token writes ("7mar" → "حمر"), and which of them a vowel
    follows (bit i: the i-th run of one consonant). A first vowel is the alef Arabic writes for
    it: "a7mar" (red) is "احمر", not "حمر"."""
    letters: list[str] = []
    voweled: list[bool] = []
    for i, unit in enumerate(_UNITS.findall(latin)):
        letter = _DIGRAPHS.get(unit) or _CONSONANTS.get(unit)
        if letter is None and unit not in _SILENT:
            letter = unit  # a letter Arabizi has no use for: it can match nothing
        elif letter is None and i == 0 and unit in "aeiou2":
            letter = "ا"
        if letter is not None:
            letters.append(letter)
            voweled.append(False)
        elif letters and unit in _VOWELS:
            voweled[-1] = True
    return _finish(letters, voweled)


def arabic_skeleton(arabic: str) -> tuple[str, int]:
    """The consonant skeleton of an Arabic word and the consonants a long vowel follows, as
    ``skeleton`` gives them ("حمار" → "حمر", a vowel after the م)."""
    letters: list[str] = []
    voweled: list[bool] = []
    for i, c in enumerate(arabic):
        if (c == "ا" and i == 0) or c not in "اويء":
            letters.append(c)
            voweled.append(False)
        elif letters and c != "ء":
            voweled[-1] = True
    return _finish(letters, voweled)


def _finish(letters: list[str], voweled: list[bool]) -> tuple[str, int]:
    # A final ة (folded to ه) is the "a" Arabizi drops: "7mara" and "حمارة" agree.
    if len(letters) > 1 and letters[-1] == "ه":
        letters, voweled = letters[:-1], voweled[:-1]
    skel = "".join(letters).translate(_MERGED)
    mask = 0
    run = -1
    for i, c in enumerate(skel):
        run += i == 0 or c != skel[i - 1]
        if voweled[i]:
            mask |= 1 << run
    return skel, mask


def read(folded: str) -> tuple[tuple[str, ...], str, int]:
    """The words a folded token may stand for (the canonical one first), and its Arabizi
    skeleton with its vowel mask ("", 0 when it is not read as Arabizi)."""
    if folded.isalpha():  # most tokens: letters only, nothing to remove
        if folded.isascii() or not _LATIN_LETTER.search(folded):
            return (folded,), "", 0
        return (folded.translate(_IN_ARABIC) if _ARABIC_LETTER.search(folded) else folded,), "", 0
    if _ARABIC_LETTER.search(folded):
        word = _NON_WORD.sub("", folded.translate(_IN_ARABIC))
        return ((word,) if word else ()), "", 0
    if not _LEET_CHAR.search(folded):
        plain = _NON_WORD.sub("", _CONTRACTION.sub("", folded) if "'" in folded else folded)
        return ((plain,) if plain else ()), "", 0
    plain = _NON_WORD.sub("", folded)
    skel, mask = "", 0
    if _LATIN_LETTER.search(plain) and _ARABIZI_DIGIT.search(plain):
        # Only a token that really has an Arabizi digit is read as Arabizi: "clip" stays English.
        skel, mask = skeleton(_APOSTROPHES.sub("", folded))
    # A trailing "!" is punctuation more often than an "i"; both readings are kept.
    leet = _NON_WORD.sub("", folded.rstrip(_TRAILING).translate(_LEET))
    words = [leet, plain] if leet and not skel else [plain, leet]
    if folded.endswith("!") and _LATIN_LETTER.search(plain):
        words.append(_NON_WORD.sub("", folded.translate(_LEET)))
    return tuple(dict.fromkeys(w for w in words if w)), skel, mask


# A named tuple, not a frozen dataclass: one is made for every token of every line, and a frozen
# dataclass's __init__ costs several times more.
class Token(NamedTuple):
    """A token of a line: its span in the original text, its words (and their keys, the words
    with runs collapsed), its skeleton, its folded text, and for letters that were spaced
    apart and joined ("f u c k"), the single-letter tokens it was joined from."""

    start: int
    end: int
    words: tuple[str, ...]
    keys: tuple[str, ...]
    skeleton: str
    vowels: int
    folded: str
    parts: tuple[Token, ...] = ()


def make_token(start: int, end: int, folded: str, parts: tuple[Token, ...] = ()) -> Token | None:
    """The token for ``folded`` at ``start:end``; None when it has no letter or digit."""
    words, skel, vowels = read(folded)
    if not words:
        return None
    keys = tuple([collapse(w) for w in words])
    return Token(start, end, words, keys, skel, vowels, folded, parts)


def tokens(text: str) -> list[Token]:
    """The tokens of ``text``, tokens of signs alone dropped, and each run of two or more
    single-letter tokens ("f u c k", "ك ل ب") joined into one that spans them all."""
    found = []
    for m in _RAW_TOKEN.finditer(text):
        tok = make_token(m.start(), m.end(), fold(m.group()))
        if tok is not None:
            found.append(tok)
    if sum(len(t.words[0]) == 1 for t in found) < 2:
        return found
    joined: list[Token] = []
    run: list[Token] = []
    for tok in [*found, None]:
        if tok is not None and len(tok.words[0]) == 1:
            run.append(tok)
            continue
        if len(run) >= 2:
            whole = join(run)
            joined.extend([whole] if whole is not None else run)
        else:
            joined.extend(run)
        run = []
        if tok is not None:
            joined.append(tok)
    return joined


def join(run: list[Token] | tuple[Token, ...]) -> Token | None:
    """One token for the consecutive single-letter tokens ``run``."""
    return make_token(run[0].start, run[-1].end, "".join(t.folded for t in run), tuple(run))


def normalise(text: str) -> str:
    """The canonical text of ``text``: each token's first word, joined by single spaces."""
    return " ".join(t.words[0] for t in tokens(text))
