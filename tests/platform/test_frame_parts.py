"""The frames' Jinja2 templates (sahrat_site/jinja2.py): ``{% part %}`` (games/frame_parts.py), a
piece of a table frame drawn once for its values and kept, must draw from its values alone (a
body that reads anything else is refused), draw again when any of them, the language or the
digit style changes, and keep what it drew for the same ones; and the frames' words and values
must come out as Django's own templates write them, character for character."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from cachetools import LRUCache
from django.template import Context, Template, engines
from django.utils import translation
from django.utils.html import json_script
from django.utils.translation import gettext_lazy
from jinja2 import TemplateSyntaxError

from games import frame_parts as parts
from language import digits


@pytest.fixture
def kept(monkeypatch):
    """An empty store of drawn parts, this test's own."""
    store: LRUCache = LRUCache(maxsize=64)
    monkeypatch.setattr(parts, "_drawn", store)
    return store


def draw(source: str, **values) -> str:
    return engines["jinja2"].env.from_string(source).render(values)


def django(source: str, **values) -> str:
    return Template("{% load i18n sahrat %}" + source).render(Context(values))


def test_a_part_reads_only_the_values_it_is_given(kept):
    assert draw('{% part "p" a=x %}[{{ a }}]{% endpart %}', x=1, y=2) == "[1]"
    # What it sets itself, the loop and the environment's functions are its own to read.
    loop = '{% part "p" xs=xs %}{% for x in xs %}{{ loop.index }}{{ x }}{% endfor %}{% endpart %}'
    assert draw(loop, xs="ab") == "1a2b"
    with pytest.raises(TemplateSyntaxError, match="not 'y'"):
        draw('{% part "p" a=x %}[{{ a }}|{{ y }}]{% endpart %}', x=1, y=2)


def test_the_same_values_are_drawn_once(kept):
    source = '{% part "p" cards=hand %}{% for c in cards %}{{ c.text }} {% endfor %}{% endpart %}'
    first = draw(source, hand=[{"text": "AH"}, {"text": "2S"}])
    assert first == "AH 2S "
    assert len(kept) == 1
    # What is served for the same values (in new objects: each socket builds its own view) is
    # what was kept, not drawn again: mark the kept HTML and see the mark come back.
    key = next(iter(kept))
    kept[key] = "kept"
    assert draw(source, hand=[{"text": "AH"}, {"text": "2S"}]) == "kept"
    assert draw(source, hand=[{"text": "AH"}, {"text": "2C"}]) == "AH 2C "
    assert len(kept) == 2


def test_a_changed_value_is_drawn_again(kept):
    source = '{% part "p" cards=hand, n=n %}{{ n }}:{{ cards|join("") }}{% endpart %}'
    assert draw(source, hand=["AH"], n=1) == "1:AH"
    assert draw(source, hand=["AH", "3C"], n=1) == "1:AH3C"
    assert draw(source, hand=["AH"], n=2) == "2:AH"
    assert draw(source, hand=["AH"], n=True) == "True:AH"  # not the same value as 1
    assert draw(source, hand=["AH"], n=1) == "1:AH"
    assert len(kept) == 4


def test_two_parts_with_the_same_values_are_two_parts(kept):
    assert draw('{% part "a" v=v %}A{{ v }}{% endpart %}', v=1) == "A1"
    assert draw('{% part "b" v=v %}B{{ v }}{% endpart %}', v=1) == "B1"


def test_a_part_is_drawn_in_each_language_and_digit_style(kept):
    source = '{% part "p" n=n %}{% translate "Your turn" %} {{ n|digits }}{% endpart %}'
    with translation.override("ar"):
        arabic = draw(source, n=12)
        with digits.override("latn"):
            latin = draw(source, n=12)
    with translation.override("en"):
        english = draw(source, n=12)
    assert arabic == "دورك ١٢"
    assert latin == "دورك 12"
    assert english == "Your turn 12"


def test_lazy_words_are_keyed_by_their_text(kept):
    from django.utils.translation import gettext_lazy

    source = '{% part "p" w=w %}{{ w }}{% endpart %}'
    with translation.override("en"):
        assert draw(source, w=gettext_lazy("Your turn")) == "Your turn"
        assert draw(source, w=gettext_lazy("Settings")) == "Settings"


def test_a_part_escapes_as_the_page_does(kept):
    assert draw('{% part "p" name=name %}{{ name }}{% endpart %}', name="<b>") == "&lt;b&gt;"


@pytest.mark.parametrize(
    "source",
    [
        "{% part %}{% endpart %}",
        "{% part name %}{% endpart %}",
        '{% part "p" x %}{% endpart %}',
        '{% part "p" 1x=2 %}{% endpart %}',
        '{% part "p" a=1 b=2 %}{% endpart %}',
    ],
)
def test_a_malformed_part_is_refused(source):
    with pytest.raises(TemplateSyntaxError):
        draw(source)


# Words and values as the frames write them, each against Django's template language writing
# the same: a quote, a "%", a context, markup in a value, a number, nothing at all.
SAME_AS_DJANGO = [
    ('{% translate "Seeds sent by the players\' browsers:" %}', {}),
    ('{% translate "s" context "seconds, after a number" %}', {}),
    ('{% translate "Your turn" %}', {}),
    (
        "{% blocktranslate with name=who %}{{ name }}'s turn{% endblocktranslate %}",
        {"who": "<Fahad> & 'Noura'"},
    ),
    (
        "{% blocktranslate with stake=s pot=p fee=f %}Coin table: {{ stake }} a seat. Pot: "
        "{{ pot }}, less the {{ fee }}% table fee.{% endblocktranslate %}",
        {"s": 10, "p": 36, "f": 10},
    ),
    ('<b title="{{ a }}">{{ b }}</b>{{ c }}{{ d }}{{ e }}', {"a": '"q"', "b": 7, "c": None}),
    ("{{ x.items }}{{ x.missing }}{% if x.gone is none %}none{% endif %}", {"x": {"items": 2}}),
]


@pytest.mark.parametrize("language", ["ar", "en"])
@pytest.mark.parametrize("source,values", SAME_AS_DJANGO)
def test_the_frames_write_what_django_writes(source, values, language):
    with translation.override(language):
        ours = draw(source, **values)
        theirs = django(source.replace("is none", "== None"), **values)
    assert ours == theirs
    assert ours  # each case writes something: a template that drew nothing proves nothing


def _script(html: str) -> tuple[str, str]:
    """A script element's id and its text."""
    match = re.fullmatch(r'<script id="([^"]*)" type="application/json">(.*)</script>', html, re.S)
    assert match, html
    return match.group(1), match.group(2)


def test_frame_json_hands_the_page_what_json_script_does():
    """The view a frame hands its page's script, made with orjson: the same data, element and
    escapes as Django's ``json_script`` (dates, decimals, lazy words and a seat's number as a key
    included), and no text inside can close the element."""
    value = {
        "name": "لاعب & <b>",
        "said": "</script><script>alert(1)</script>",
        "word": gettext_lazy("Sounds"),
        "at": datetime(2026, 12, 6, 18, 30, 5, 123456, tzinfo=UTC),
        "stake": Decimal("12.50"),
        "seats": {0: ["AH", "JK1"], 3: []},
        "turn": None,
        "easy": True,
    }
    with translation.override("ar"):
        ours = str(parts.frame_json(value, "hand-view"))
        django = str(json_script(value, "hand-view"))
    our_id, our_text = _script(ours)
    their_id, their_text = _script(django)
    assert our_id == their_id == "hand-view"
    assert json.loads(our_text) == json.loads(their_text)
    assert json.loads(our_text)["word"] == "الأصوات" and json.loads(our_text)["seats"]["0"]
    assert not set("<>&") & set(our_text)
    assert "لاعب" in our_text  # Arabic as it is: a third of the bytes of its \u escapes
