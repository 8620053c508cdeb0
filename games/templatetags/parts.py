"""``{% part "name" a=x b=y %}…{% endpart %}``: a piece of a table frame drawn once for the values
it is given, and kept.

Every seat's socket draws the whole table at every move (games/rendering.py), yet most of a
frame is the same as the one before: the score sheet changes once a round, the fairness block
once a match, a player's own cards only when she moves, the melds when someone lays down. A part
is drawn from the values named in its tag ALONE (its body sees nothing else of the page: not the
state, not the request), so the same values, language and digit style always draw the same
HTML; the process keeps the HTML of the last ``PARTS_CACHED`` (name, language, digit style,
values) and draws again only what changed. What a part's body uses must be passed to it: a
name it reads and was not given is empty, as in an ``{% include … only %}``.

The values are keyed by a digest of their JSON (lazily translated words as the text they stand
for in the language drawn; anything else JSON does not know by its ``str``): two values with the
same JSON are the same value to a part. A value the body marks up (a ``SafeString``) and plain
text with the same characters would share a key, so a part's value must always be one or always
the other: each comes from one line of a face (games/faces/).
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import orjson
from cachetools import LRUCache
from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from language import digits

register = template.Library()

# A seat's frame holds ten to fifteen parts (each seat's row, the board's quarters, its own
# cards...), most of them its own; a process serving 2,000 seats (1,000 tables on two) keeps
# about 25,000 in use, each 0.1 to 5 KB (about 1 KB on average): kept parts are evicted least
# recently used, and an evicted one is only drawn again.
PARTS_CACHED = 32_768
_drawn: LRUCache[tuple[str, str, str, bytes], SafeString] = LRUCache(maxsize=PARTS_CACHED)
# The sockets draw on the event loop's thread, the table page in a request's: one at a time.
_lock = threading.Lock()


def _plain(value: Any) -> str:
    return str(value)  # a lazy word (as the active language says it), a date, a Decimal


def _key(values: dict[str, Any]) -> bytes:
    # orjson: a frame's dozen parts are keyed at every move for every seat (a key 7 µs with the
    # standard library's encoder, 1.5 µs with orjson).
    text = orjson.dumps(values, default=_plain, option=orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(text, digest_size=16).digest()


class PartNode(template.Node):
    def __init__(self, name: str, values: dict[str, FilterExpression], body: NodeList) -> None:
        self.name = name
        self.values = values
        self.body = body

    def render(self, context: template.Context) -> SafeString:
        values = {k: v.resolve(context) for k, v in self.values.items()}
        key = (self.name, translation.get_language() or "", digits.current(), _key(values))
        with _lock:
            html = _drawn.get(key)
        if html is None:
            # context.new: the page's template and autoescaping, none of its values.
            html = mark_safe(self.body.render(context.new(values)))
            with _lock:
                _drawn[key] = html
        return html


@register.tag("part")
def part(parser: Parser, token: Token) -> PartNode:
    """``{% part "name" key=value … %}`` … ``{% endpart %}`` (see the module docstring)."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError('{% part %} needs a quoted name: {% part "name" … %}')
    values = {}
    for bit in bits[2:]:
        name, eq, expression = bit.partition("=")
        if not eq or not name.isidentifier():
            raise template.TemplateSyntaxError(f"{{% part %}} takes name=value, not {bit!r}")
        values[name] = parser.compile_filter(expression)
    body = parser.parse(("endpart",))
    parser.delete_first_token()
    return PartNode(bits[1][1:-1], values, body)


# --------------------------------------------------------------- the data a frame hands its page

# Django's own escapes for json_script, so no text inside can close the script element. Made
# with str.replace: str.translate maps a text with Arabic in it character by character, a
# hundred times slower.
_SCRIPT_ESCAPES = (("&", "\\u0026"), ("<", "\\u003C"), (">", "\\u003E"))
_DJANGO_JSON = DjangoJSONEncoder()


@register.filter(is_safe=True)
def frame_json(value: Any, element_id: str) -> SafeString:
    """``json_script`` made with orjson: the view a seat's page script reads, drawn into every
    seat's frame at every move. The same element and escapes; a date, a Decimal or a lazy word
    as Django's encoder writes it; Arabic as it is rather than as \\u escapes (a third of the
    bytes)."""
    text = orjson.dumps(
        value,
        default=_DJANGO_JSON.default,
        option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME,
    ).decode()
    for char, escape in _SCRIPT_ESCAPES:
        text = text.replace(char, escape)
    return format_html(
        '<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text)
    )
