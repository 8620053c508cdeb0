"""The chat word filter (moderation.wordfilter over moderation.normalise): each disguise the
normaliser sees through, the matcher's spans, and the shipped list against the clean corpus and
the generated disguises. No database: the filter is pure Python."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bench.chat import CHAT_LINES, clean_corpus
from moderation.disguises import ARABIC_KINDS, LATIN_KINDS, Disguise, caught, disguises, missed
from moderation.normalise import arabic_skeleton, collapse, read, runs, skeleton
from moderation.wordfilter import MASK, REFUSE, Verdict, WordFilter, normalise
from moderation.words import STARTING_WORDS

ROOT = Path(__file__).resolve().parents[2]

SMALL = WordFilter(
    [
        ("حمار", MASK),
        ("غبي", MASK),
        ("يا كلب", MASK),
        ("زب", REFUSE),
        ("idiot", MASK),
        ("ass", MASK),
        ("shit", MASK),
        ("cunt", REFUSE),
        ("fuck", REFUSE),
        ("bitch", REFUSE),
        ("son of a bitch", REFUSE),
    ]
)


@pytest.fixture(scope="module")
def shipped() -> WordFilter:
    return WordFilter(STARTING_WORDS)


# --- the normaliser: one case per disguise ---------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        pytest.param("حَمَارٌ", "حمار", id="tashkeel"),
        pytest.param("هٰذا", "هذا", id="superscript-alef-U+0670"),
        pytest.param("حم\u06d6ا\u06e4ر", "حمار", id="quranic-marks"),
        pytest.param("حـــمـار", "حمار", id="tatweel"),
        pytest.param("أحمق إبن آس ٱلله", "احمق ابن اس الله", id="alef-forms"),
        pytest.param("مؤمن رئيس", "مومن رييس", id="hamza-on-waw-and-yeh"),
        pytest.param("على قحبة", "علي قحبه", id="alef-maqsura-and-teh-marbuta"),
        pytest.param("ﺣﻤﺎﺭ", "حمار", id="arabic-presentation-forms"),
        pytest.param("ｆｕｃｋ", "fuck", id="full-width"),
        pytest.param("𝐟𝐮𝐜𝐤", "fuck", id="mathematical-bold"),
        pytest.param("کلب غبی", "كلب غبي", id="persian-kaf-and-yeh"),
        pytest.param("FuCk", "fuck", id="case"),
        pytest.param("fück", "fuck", id="latin-accents"),
        pytest.param("f\u200bu\u200dc\u2060k", "fuck", id="invisible-characters"),
        pytest.param("f u c k", "fuck", id="spaced-letters"),
        pytest.param("f.u.c.k", "fuck", id="dotted"),
        pytest.param("f-u-c-k", "fuck", id="hyphenated"),
        pytest.param("f_u_c_k", "fuck", id="underscored"),
        pytest.param("f*u*c*k", "fuck", id="starred"),
        pytest.param("ك ل ب", "كلب", id="spaced-arabic"),
        pytest.param("7مار", "حمار", id="arabizi-digit-in-arabic"),
        pytest.param("٧مار", "حمار", id="arabic-indic-digit"),
        pytest.param("sh!t", "shit", id="leet-signs"),
        pytest.param("1d10t", "idiot", id="leet-digits"),
        pytest.param("іdіоt", "idiot", id="cyrillic-lookalikes"),
        pytest.param("ιdιοτ", "idiot", id="greek-lookalikes"),
        pytest.param("idіot", "idiot", id="mixed-scripts"),
        pytest.param("hello ,  world !", "hello world", id="signs-alone-dropped"),
    ],
)
def test_normalise_sees_through(typed: str, canonical: str) -> None:
    assert normalise(typed) == canonical


def test_repeated_letters_are_compared_by_runs() -> None:
    assert collapse("shiiiit") == "shit" and runs("shiiiit") == (1, 1, 4, 1)
    assert collapse("كلللب") == "كلب" and runs("كلللب") == (1, 3, 1)
    assert collapse("هههههه") == "ه"


def test_a_listed_run_needs_as_many_letters_in_the_line() -> None:
    assert not SMALL.check("as").matched
    assert SMALL.check("ass").matched == ("ass",)
    assert SMALL.check("asssss").matched == ("ass",)
    assert SMALL.check("shiiiiit").matched == ("shit",)


def test_arabizi_reads_as_the_arabic_skeleton() -> None:
    assert skeleton("7mar")[0] == arabic_skeleton("حمار")[0] == "حمر"
    for typed in ["7mar", "7maar", "7mmar", "7MAR", "el7mar", "ya7mar"]:
        assert SMALL.check(typed).matched == ("حمار",), typed


def test_only_a_token_with_an_arabizi_digit_is_read_as_arabizi() -> None:
    assert read("clip")[1] == "" and read("kalb")[1] == ""
    assert read("k4lb")[1] == ""  # 4 is not an Arabizi letter
    assert read("3alb")[1] != ""


def test_a_skeleton_keeps_the_long_vowels_the_arabic_word_has() -> None:
    # "a7mar" and "7amra" (red) have حمار's consonants, not its alef after the م.
    for red in ["a7mar", "7amra", "el warda el 7amra"]:
        assert SMALL.clean(red), red


def test_leetspeak_readings() -> None:
    assert "shit" in read("$h1t")[0]
    assert "ass" in read("@$$")[0]
    assert "idiot" in read("idio+")[0]
    assert read("idiot!")[0][0] == "idiot"  # a trailing "!" is punctuation first


# --- the matcher ------------------------------------------------------------------------------


def test_nothing_matched_gives_the_line_back_as_it_is() -> None:
    line = "يلا نلعب، good game!"
    assert SMALL.check(line) == Verdict(line, False, ())
    assert SMALL.clean(line)


def test_masking_stars_exactly_the_word_and_keeps_the_rest() -> None:
    verdict = SMALL.check("انت حمار والله")
    assert verdict == Verdict("انت **** والله", False, ("حمار",))
    assert SMALL.check("you idiot!").text == "you *****!"
    assert SMALL.check("حَمَـــارٌ يا رجال").text == "********** يا رجال"  # every character


def test_a_refused_word_refuses_the_line() -> None:
    verdict = SMALL.check("ok fuck this")
    assert verdict.refused and verdict.matched == ("fuck",)
    assert not SMALL.clean("fuck")


def test_a_phrase_matches_across_words_and_its_word_alone_does_not() -> None:
    assert SMALL.check("يا كلب").matched == ("يا كلب",)
    assert SMALL.check("والله يا    كلللب").text == "والله **    *****"
    assert SMALL.clean("عندي كلب صغير")  # a dog
    assert SMALL.check("ياكلب").matched == ("يا كلب",)  # written as one word


def test_the_longest_entry_wins() -> None:
    assert SMALL.check("you son of a bitch").matched == ("son of a bitch",)


def test_no_match_inside_a_longer_word() -> None:
    for line in ["class", "assist", "Scunthorpe", "shitake", "passion", "bitchy? no: bitcoin"]:
        assert SMALL.clean(line), line


def test_spaced_letters_are_starred_with_their_spaces_kept() -> None:
    assert SMALL.check("f u c k").text == "* * * *"
    assert SMALL.check("a f u c k x").text == "a * * * * x"  # found inside a longer run
    assert SMALL.check("يا ك ل ب").text == "** * * *"


def test_words_joined_by_signs_are_looked_at_one_by_one() -> None:
    assert SMALL.check("you,idiot").text == "you,*****"
    assert not SMALL.clean("the_idiot_99") and not SMALL.clean("xX-fuck-Xx")  # names


def test_arabic_prefixes_are_seen_when_three_letters_remain() -> None:
    for typed in ["والحمار", "بالحمار", "فالحمار", "للغبي", "ياغبي", "كالحمار"]:
        assert SMALL.check(typed).matched, typed
    assert SMALL.check("يا الحمار").text == "يا ******"
    assert SMALL.clean("وزب")  # "زب" has two letters: no prefix is taken off for it
    assert SMALL.clean("زبدة زبون زبيب")


def test_an_unknown_severity_is_refused_and_an_empty_entry_skipped() -> None:
    with pytest.raises(ValueError, match="severity"):
        WordFilter([("idiot", "ban")])
    assert WordFilter([("!!!", MASK), ("", REFUSE)]).clean("!!! anything")


def test_the_shipped_list_is_a_list_of_entries() -> None:
    assert 60 <= len(STARTING_WORDS) <= 140
    assert len({w for w, _ in STARTING_WORDS}) == len(STARTING_WORDS)
    assert {s for _, s in STARTING_WORDS} == {MASK, REFUSE}


def test_the_filter_modules_import_no_django() -> None:
    code = (
        "import sys, moderation.wordfilter, moderation.words, moderation.disguises\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# --- the shipped list against the clean corpus and the disguises -----------------------------


def test_the_clean_corpus_is_neither_refused_nor_masked(shipped: WordFilter) -> None:
    corpus = clean_corpus()
    assert len(corpus) > 1000 and set(CHAT_LINES) <= set(corpus)
    matched = [(line, shipped.check(line).matched) for line in corpus]
    assert [m for m in matched if m[1]] == []


def test_generated_disguises_of_every_listed_word_are_caught(shipped: WordFilter) -> None:
    made = disguises(STARTING_WORDS, rounds=2)
    lost = missed(shipped, made)
    assert 1 - len(lost) / len(made) >= 0.95, Counter(d.kind for d in lost)
    per_kind = Counter(d.kind for d in made)
    for kind, n in Counter(d.kind for d in lost).items():
        assert n / per_kind[kind] <= 0.2, (kind, [d.text for d in lost if d.kind == kind][:5])
    # every listed entry has disguises, and every kind of disguise was made
    assert {d.listed for d in made} == {w for w, _ in STARTING_WORDS}
    assert set(per_kind) == set(ARABIC_KINDS) | set(LATIN_KINDS)


class _ExactFilter:
    """A filter that sees no disguise at all: listed words as written, lower-cased."""

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        self.entries = entries

    def check(self, text: str) -> Verdict:
        padded = f" {text.lower()} "
        found = [(w, s) for w, s in self.entries if f" {w} " in padded]
        return Verdict(text, any(s == REFUSE for _, s in found), tuple(w for w, _ in found))


def test_the_checker_notices_a_disguise_the_filter_misses() -> None:
    made = disguises(STARTING_WORDS)
    naive = _ExactFilter(list(STARTING_WORDS))
    assert len(missed(naive, made)) / len(made) > 0.7  # the disguises really disguise
    plain = Disguise("حمار", MASK, "none", "حمار")
    assert caught(naive, plain) and not caught(naive, Disguise("حمار", MASK, "tatweel", "حـمار"))
