"""The word functions: counted words in Arabic's six plural forms, one
digit style, dates a player reads, names joined as a sentence says them, results, bots and the
replay in words, and the catalogue's own rules (a context where one English word means two
things, «كلمة المرور» for every password)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.translation import gettext, pgettext

from games import faces
from games.faces import common
from games.faces import jakaro as jakaro_face
from language import digits, words
from language.templatetags.sahrat import when_text

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "ar" / "LC_MESSAGES" / "django.po"


@pytest.fixture
def arabic():
    with translation.override("ar"):
        yield


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("kind", "n", "text"),
    [
        ("coins", 0, "٠ عملة"),
        ("coins", 1, "عملة واحدة"),
        ("coins", 2, "عملتان"),
        ("coins", 3, "٣ عملات"),
        ("coins", 10, "١٠ عملات"),
        ("coins", 11, "١١ عملة"),
        ("coins", 100, "١٠٠ عملة"),
        ("coins", 103, "١٠٣ عملات"),
        ("cards", 4, "٤ ورقات"),
        ("cards", 14, "١٤ ورقة"),
        ("cards", 2, "ورقتان"),
        ("points", 51, "٥١ نقطة"),
        ("points", 5, "٥ نقاط"),
        ("seconds", 15, "١٥ ثانية"),
        ("seconds", 5, "٥ ثوانٍ"),
        ("players", 3, "٣ لاعبين"),
        ("players", 11, "١١ لاعبًا"),
        ("players", 100, "١٠٠ لاعب"),
        ("marbles", 4, "٤ كرات"),
        ("marbles", 2, "كرتان"),
    ],
)
def test_counts_take_each_arabic_plural_form(arabic, kind, n, text):
    assert words.count(kind, n) == text


def test_counts_in_english_and_in_western_digits(english):
    assert words.count("coins", 1) == "1 coin"
    assert words.count("coins", 10) == "10 coins"
    with translation.override("ar"), digits.override(digits.WESTERN):
        assert words.count("cards", 4) == "4 ورقات"


def test_the_digit_style_follows_the_language_unless_chosen():
    with translation.override("ar"):
        assert digits.current() == digits.ARABIC
        assert digits.digits("-30 / 1/2") == "-٣٠ / ١/٢"
        with digits.override(digits.WESTERN):
            assert digits.digits("٣٠") == "30"  # an Arabic-Indic number from the catalogue too
    with translation.override("en"):
        assert digits.current() == digits.WESTERN
        with digits.override(digits.ARABIC):
            assert digits.digits(2026) == "٢٠٢٦"

    class Player:
        digits = ""

    assert digits.style_of(Player(), "ar") == digits.ARABIC
    assert digits.style_of(Player(), "en") == digits.WESTERN
    Player.digits = "latn"
    assert digits.style_of(Player(), "ar") == digits.WESTERN


def test_rendering_numbers_use_the_one_style(arabic):
    assert common.digits(76) == "٧٦"
    assert common.ltr(-30) == "\u2066-٣٠\u2069"
    with digits.override(digits.WESTERN):
        assert common.ltr(-30) == "\u2066-30\u2069"
        # A card's face words: the catalogue writes «١٠ أو احرق», the viewer asked for 10.
        assert jakaro_face.card_face("10H")["face"] == "10 أو احرق"
    assert jakaro_face.card_face("10H")["face"] == "١٠ أو احرق"


def test_the_template_filters(arabic):
    page = Template('{{ n|digits }} · {{ n|count:"coins" }} · {{ when|when }}').render(
        Context({"n": 10, "when": datetime(2026, 12, 1, 15, 12, 7, 123456, tzinfo=UTC)})
    )
    # 15:12 UTC is 18:12 in Riyadh (the site's time zone): 6:12 in the evening.
    assert page == "١٠ · ١٠ عملات · ١ ديسمبر ٢٠٢٦، ٦:١٢ م"


def test_dates_are_day_first_with_the_month_and_never_microseconds(arabic):
    moment = datetime(2026, 3, 9, 6, 5, 4, 987654, tzinfo=UTC)
    assert when_text(moment) == "٩ مارس ٢٠٢٦، ٩:٠٥ ص"
    assert when_text(moment, seconds=True) == "٩ مارس ٢٠٢٦، ٩:٠٥:٠٤ ص"
    with translation.override("en"):
        assert when_text(moment) == "9 March 2026, 9:05 AM"
    assert "987" not in when_text(moment, seconds=True)


def test_names_join_as_a_sentence_never_with_a_latin_ampersand(arabic):
    assert common.names_words(["سارة"]) == "سارة"
    assert common.names_words(["سارة", "علي"]) == "سارة وعلي"
    assert common.names_words(["سارة", "علي", "منى"]) == "سارة وعلي ومنى"
    with translation.override("en"):
        assert common.names_words(["Sara", "Ali", "Mona"]) == "Sara, Ali and Mona"


def test_results_in_words(arabic):
    assert common.place_words(1, False) == "المركز الأول"
    assert common.place_words(1, True) == "تعادل على المركز الأول"
    assert common.place_words(2, False) == "المركز الثاني"
    assert common.share_words("1/2") == "نصف الجائزة"
    assert common.share_words("1") == "الجائزة كلها"
    assert common.share_words("0") == ""
    assert common.share_words("7/10") == "\u2066٧/١٠\u2069 من الجائزة"
    seats = [
        {"number": 0, "label": "سارة", "empty": False},
        {"number": 1, "label": "علي", "empty": False},
    ]
    rows = common.outcome_rows({"places": [[1, [0, 1]]], "shares": {"0": "1/2", "1": "1/2"}}, seats)
    assert rows[0]["place_words"] == "تعادل على المركز الأول"
    assert rows[0]["names_words"] == "سارة وعلي"
    assert rows[0]["share_words"] == "نصف الجائزة"


def test_two_bots_at_one_table_are_told_apart(arabic):
    seats = [{"bot": False}, {"bot": True}, {"bot": True}, {"bot": False}]
    indexes = common.bot_indexes(seats, lambda s: s["bot"])
    assert indexes == {1: 1, 2: 2}
    assert [common.bot_label(indexes[i]) for i in (1, 2)] == ["لاعب آلي ١", "لاعب آلي ٢"]
    alone = common.bot_indexes([{"bot": True}, {"bot": False}], lambda s: s["bot"])
    assert common.bot_label(alone[0]) == "لاعب آلي"


def test_the_replay_speaks_words_not_engine_notation(arabic):
    assert faces.action_words("hand", "draw stock", 0, []) == "اسحب من الكومة"
    assert faces.action_words("hand", "draw fire", 0, []) == "خذ الورقة من النار"
    assert faces.action_words("hand", "deal", None, []) == "وزّع الجولة التالية"
    assert "timeout" not in faces.action_words("hand", "timeout", 1, [])
    assert faces.action_words("jakaro", "move 8H m2", 0, []) == "8♥: الكرة ٣ للأمام"
    assert common.event_words("deal/2") == "خُلطت الأوراق ووُزّعت (التوزيع ٢)"
    assert "reshuffle" not in common.event_words("reshuffle/1/1")


def test_one_english_word_with_two_meanings_has_two_translations(arabic):
    # The Verify page's verb («مطابق») and the admin's noun («المباريات»).
    assert pgettext("the browser agrees with the server", "matches") == "مطابق"
    assert gettext("matches") == "المباريات"


def _entries() -> list[tuple[str | None, str, str]]:
    text = CATALOGUE.read_text(encoding="utf-8")
    out = []
    for block in text.split("\n\n"):
        if block.lstrip().startswith("#~"):
            continue
        ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
        mid = re.search(r'^msgid "(.*(?:\n".*")*)', block, re.M)
        strs = re.findall(r'^msgstr(?:\[\d\])? "(.*(?:\n".*")*)', block, re.M)
        if mid:
            # A long entry is wrapped over several quoted lines: each string is their join.
            join = lambda s: "".join(re.findall(r'"?(.*?)"?$', s, re.M))  # noqa: E731
            out.append(
                (ctx.group(1) if ctx else None, join(mid.group(1)), " ".join(map(join, strs)))
            )
    return out


def test_every_password_is_kalimat_al_murur():
    """«كلمة المرور» everywhere a password is named, Django's own log-in message included."""
    for _ctx, msgid, msgstr in _entries():
        if "password" in msgid.lower():
            assert "كلمة السر" not in msgstr and "الرقم السري" not in msgstr, msgid
            assert "كلمة المرور" in msgstr or "كلمة مرور" in msgstr, msgid
    with translation.override("ar"):
        message = gettext(
            "Please enter a correct %(username)s and password. Note that both fields may "
            "be case-sensitive."
        )
    assert "كلمة المرور" in message and "كلمة السر" not in message


def test_no_two_meanings_share_one_entry():
    """The words a new player's walk named: each appears once per context, and the verb
    «matches» has one."""
    keys = [(ctx, msgid) for ctx, msgid, _s in _entries()]
    assert len(keys) == len(set(keys))
    assert ("the browser agrees with the server", "matches") in keys
    assert ("a step of the replay", "Last") in keys


def test_a_pages_script_gets_every_plural_form_to_count_on_its_own(arabic):
    forms = words.forms("points")
    assert forms == {
        "zero": "{n} نقطة",
        "one": "نقطة واحدة",
        "two": "نقطتان",
        "few": "{n} نقاط",
        "many": "{n} نقطة",
        "other": "{n} نقطة",
    }
    html = Template('{{ "points"|plural_forms }}').render(Context({}))
    assert "{n} نقاط" in html
