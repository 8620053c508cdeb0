"""The chat word filter: which listed words or phrases a line holds, through the disguises
players use (see moderation.normalise), and the line to post with the "mask" words starred.
Pure Python (standard library only): the list comes from the caller (moderation.rules reads it
from the database, moderation.words ships the starting list).

Words are matched whole, on tokens: "class" never matches a listed "ass". The tables are built
once; ``check`` reads the line once and looks each token up in dicts, however long the list.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from moderation.normalise import (
    Token,
    arabic_skeleton,
    collapse,
    fold,
    join,
    make_token,
    normalise,
    read,
    runs,
    tokens,
)

__all__ = ["MASK", "REFUSE", "Verdict", "WordFilter", "normalise"]

MASK = "mask"
REFUSE = "refuse"

# Letters Arabic attaches in front of a word ("والحمار", "ياحمار"). A listed Arabic word of at
# least MIN_STEM letters is also listed with each of them: a prefix is only ever "stripped" from a
# line's token when what remains is a listed word that long.
PREFIXES = ("و", "ف", "ب", "ل", "ك", "ال", "وال", "فال", "بال", "كال", "لل", "يا")
MIN_STEM = 3
# Skeletons drop vowels; two consonants match too many ordinary Arabizi words ("5air", good, and
# "خرا" are both خ ر), so a word whose skeleton is shorter than this is not compared by it. Only
# Arabic-script entries have their skeleton compared: an Arabizi entry ("3ars") is matched as
# written, since its skeleton may be another word's ("3rs", a wedding, is عرس too).
MIN_SKELETON = 3
# A spaced-out run ("a f u c k i n g") is searched for listed words as long as the longest listed
# word and this many letters more (repeated ones: "f u u u c k").
SPARE_LETTERS = 6
# A token with no match is cut into pieces ("you,idiot", "the_idiot_99") at the signs that join
# words in chat and in names.
_PIECE = re.compile(r"[^,،.;:?؟/\\()\[\]{}\"'«»…~_-]+")
# Signs that can be letters in leetspeak stay inside a starred span; other signs at its edges
# (the "!" after "idiot!") are left as typed.
_KEPT_FIRST = "@$|+!"
_KEPT_LAST = "$|+"


@dataclass(frozen=True)
class Verdict:
    """The filter's answer for a line."""

    text: str  # the line to post: every matched span starred (== the input when nothing matched)
    refused: bool  # a "refuse" entry matched: the line must not be posted
    matched: tuple[str, ...]  # the listed spellings that matched, in the line's order


@dataclass(frozen=True, slots=True)
class _Entry:
    listed: str
    refuse: bool
    keys: tuple[str, ...]  # per token: its word with runs collapsed
    runs: tuple[tuple[int, ...], ...]  # per token: its runs; a line's runs must be as long
    vowels: int = 0  # a skeleton's: the consonants a long vowel follows, which Arabizi must show


_Hit = tuple[int, int, _Entry]


class WordFilter:
    """Listed words and phrases, each to be masked or refused, looked up in a line."""

    def __init__(self, entries: Iterable[tuple[str, str]]) -> None:
        """``entries``: (word or phrase, "mask" or "refuse"); an entry with no letter is skipped,
        an unknown severity is a ValueError."""
        # A word by its key; a phrase by its first two keys, so "يا" alone looks nothing up.
        self._words: dict[str | tuple[str, str], list[_Entry]] = {}
        self._skeletons: dict[str | tuple[str, str], list[_Entry]] = {}
        self._widest = 1  # letters in the longest listed word (a phrase written as one word too)
        self._prefixes: set[str] = set()  # of the words' and skeletons' keys, for spaced-out runs
        for listed, severity in entries:
            if severity not in (MASK, REFUSE):
                raise ValueError(f"unknown severity {severity!r} for {listed!r}")
            self._add(listed, severity == REFUSE)
        # Longest first, refusals before masks of the same length: the first fit is the best.
        for found in self._words.values():
            found.sort(key=lambda e: (-len(e.keys), not e.refuse))

    def _add(self, listed: str, refuse: bool) -> None:
        words = [t.words[0] for t in tokens(listed)]
        if not words:
            return
        forms = [words]
        arabic = all(_is_arabic(w) for w in words)
        if len(words) > 1:
            if arabic and len(words[-1]) >= MIN_STEM and not words[-1].startswith("ال"):
                forms.append([*words[:-1], "ال" + words[-1]])  # "يا الكلب"
            forms += [["".join(f)] for f in list(forms)]  # written as one word: "ياكلب"
        elif arabic and len(words[0]) >= MIN_STEM:
            forms += [[p + words[0]] for p in PREFIXES]
            # A prefix makes a short skeleton long enough, not specific enough ("فخر", pride,
            # is "ف" + "خرا"): only a word's own skeleton decides whether it is compared.
            if len(collapse(arabic_skeleton(words[0])[0])) >= MIN_SKELETON:
                for form in forms:
                    skel, vowels = arabic_skeleton(form[0])
                    self._index(self._skeletons, listed, refuse, [skel], MIN_SKELETON, vowels)
        for form in forms:
            self._index(self._words, listed, refuse, form)

    def _index(
        self,
        table: dict[str | tuple[str, str], list[_Entry]],
        listed: str,
        refuse: bool,
        words: list[str],
        least: int = 1,
        vowels: int = 0,
    ) -> None:
        keys = tuple(collapse(w) for w in words)
        if not all(keys) or len(keys[0]) < least:
            return
        entry = _Entry(listed, refuse, keys, tuple(runs(w) for w in words), vowels)
        if len(keys) == 1:
            self._widest = max(self._widest, len(words[0]))
            self._prefixes.update(keys[0][:k] for k in range(1, len(keys[0]) + 1))
        found = table.setdefault(keys[0] if len(keys) == 1 else (keys[0], keys[1]), [])
        if entry not in found:
            found.append(entry)

    def check(self, text: str) -> Verdict:
        """Which listed entries ``text`` holds, and the line to post."""
        toks = tokens(text)
        hits: list[_Hit] = []
        i = 0
        while i < len(toks):
            entry = self._match_at(toks, i)
            if entry is not None:
                last = toks[i + len(entry.keys) - 1]
                hits.append((toks[i].start, last.end, entry))
                i += len(entry.keys)
                continue
            tok = toks[i]
            hits += self._within_run(tok.parts) if tok.parts else self._pieces(text, tok)
            i += 1
        if not hits:
            return Verdict(text, False, ())
        return Verdict(
            _starred(text, [(start, end) for start, end, _ in hits]),
            any(entry.refuse for _, _, entry in hits),
            tuple(dict.fromkeys(entry.listed for _, _, entry in hits)),
        )

    def clean(self, text: str) -> bool:
        """True when ``text`` holds no listed entry at all (for usernames and display names)."""
        return not self.check(text).matched

    def _match_at(self, toks: list[Token], i: int) -> _Entry | None:
        """The best entry that starts at token ``i``: the longest, a refusal on a tie."""
        tok = toks[i]
        best: _Entry | None = None
        if i + 1 < len(toks):
            for pair in {(k0, k1) for k0 in tok.keys for k1 in toks[i + 1].keys}:
                for entry in self._words.get(pair, ()):
                    if best is not None and _rank(entry) <= _rank(best):
                        break
                    if _fits(entry, toks, i):
                        best = entry
                        break
            if best is not None:
                return best
        for key in tok.keys:
            for entry in self._words.get(key, ()):
                if best is not None and _rank(entry) <= _rank(best):
                    break
                if _fits(entry, toks, i):
                    best = entry
                    break
        if best is None and tok.skeleton:
            for entry in self._skeletons.get(collapse(tok.skeleton), ()):
                # "7amra" (red) has حمر's letters but no vowel where حمار has its alef.
                if _covers(runs(tok.skeleton), entry.runs[0]) and not entry.vowels & ~tok.vowels:
                    return entry
        return best

    def _within_run(self, parts: tuple[Token, ...]) -> list[_Hit]:
        """Listed words among the letters of a spaced-out run that matched nothing as a whole:
        "a f u c k i n g" holds "fucking". From each letter the stretch grows while it is the
        start of a listed word, so a run costs a few reads a letter, not one per stretch."""
        folded = [p.folded for p in parts]
        hits: list[_Hit] = []
        start = 0
        while start < len(parts) - 1:
            found: tuple[_Hit, int] | None = None  # the longest match from here, where it ends
            for end in range(start + 1, min(len(parts), start + self._widest + SPARE_LETTERS)):
                words, skel, _ = read("".join(folded[start : end + 1]))
                keys = [collapse(w) for w in words]
                skel = collapse(skel)
                if not any(k in self._prefixes for k in keys) and skel not in self._prefixes:
                    break
                if any(k in self._words for k in keys) or skel in self._skeletons:
                    tok = join(parts[start : end + 1])
                    entry = self._match_at([tok], 0) if tok is not None else None
                    if tok is not None and entry is not None:
                        found = (tok.start, tok.end, entry), end + 1
            if found is not None:
                hits.append(found[0])
                start = found[1]
            else:
                start += 1
        return hits

    def _pieces(self, text: str, tok: Token) -> list[_Hit]:
        """Listed words among the pieces of a token that holds several words ("you,idiot")."""
        if tok.folded.isalnum():
            return []
        pieces = list(_PIECE.finditer(text, tok.start, tok.end))
        if len(pieces) < 2:
            return []
        hits: list[_Hit] = []
        for piece in pieces:
            found = make_token(piece.start(), piece.end(), fold(piece.group()))
            entry = self._match_at([found], 0) if found is not None else None
            if entry is not None:
                hits.append((piece.start(), piece.end(), entry))
        return hits


def _fits(entry: _Entry, toks: list[Token], i: int) -> bool:
    if i + len(entry.keys) > len(toks):
        return False
    for k, key in enumerate(entry.keys):
        tok = toks[i + k]
        if not any(
            tk == key and _covers(runs(w), entry.runs[k])
            for w, tk in zip(tok.words, tok.keys, strict=True)
        ):
            return False
    return True


def _rank(entry: _Entry) -> tuple[int, bool]:
    return len(entry.keys), entry.refuse


def _covers(have: tuple[int, ...], need: tuple[int, ...]) -> bool:
    # "ass" (runs 1, 2) is not in "as" (1, 1), though both collapse to "as".
    return all(h >= n for h, n in zip(have, need, strict=True))


def _is_arabic(word: str) -> bool:
    return "\u0621" <= word[0] <= "\u064a"


def _starred(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with every character of each span starred but the spaces: "f u c k" is
    "* * * *", so the line keeps its shape and nothing of the word shows."""
    chars = list(text)
    for start, end in spans:
        while start < end and _edge(text[start], _KEPT_FIRST):
            start += 1
        while end > start and _edge(text[end - 1], _KEPT_LAST):
            end -= 1
        for k in range(start, end):
            if not chars[k].isspace():
                chars[k] = "*"
    return "".join(chars)


def _edge(char: str, kept: str) -> bool:
    return char not in kept and unicodedata.category(char)[0] in "PSZC"
