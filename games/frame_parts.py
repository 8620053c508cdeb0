"""``{% part "name" a=x, b=y %}…{% endpart %}`` in the table's frames (Jinja2, templates/jinja2/):
a piece of a frame drawn once for the values it is given, and kept.

Most of a table's frame is the same from one change to the next: the score sheet changes once a
round, the fairness block once a match, a seat's row or a player's cards only when they play. A
part is drawn from the values named in its tag ALONE, so the same values, language and digit
style always draw the same HTML; the process keeps the HTML of the last ``PARTS_CACHED`` (name,
language, digit style, values) and draws again only what changed. A part's body that reads a
name it was not given (besides what it sets itself, ``loop`` and the environment's functions)
is refused when the template is compiled.

The values are keyed by a digest of their JSON (lazily translated words as the text they stand
for in the language drawn; anything else JSON does not know by its ``str``): two values with the
same JSON are the same value to a part. A value the body marks up (a ``SafeString``) and plain
text with the same characters would share a key, so a part's value must always be one or always
the other: each comes from one line of a face (games/faces/).

Also here: ``frame_json``, the data a frame hands its page's scripts.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import orjson
from cachetools import LRUCache
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup

from language import digits

# A seat's frame holds ten to fifteen parts (each seat's row, the board's quarters, its own
# cards...), most of them its own; a process serving 2,000 seats (1,000 tables on two) keeps
# about 25,000 in use, each 0.1 to 5 KB (about 1 KB on average): kept parts are evicted least
# recently used, and an evicted one is only drawn again.
PARTS_CACHED = 32_768
_drawn: LRUCache[tuple[str, str, str, bytes], Markup] = LRUCache(maxsize=PARTS_CACHED)
# The sockets draw on the event loop's thread, the table page in a request's: one at a time.
_lock = threading.Lock()


def _plain(value: Any) -> str:
    return str(value)  # a lazy word (as the active language says it), a date, a Decimal


def _key(values: dict[str, Any]) -> bytes:
    # orjson: a frame's dozen parts are keyed at every move for every seat (a key 7 µs with the
    # standard library's encoder, 1.5 µs with orjson).
    text = orjson.dumps(values, default=_plain, option=orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(text, digest_size=16).digest()


class Parts(Extension):
    tags = {"part"}

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        name = parser.stream.expect("string").value
        keys: list[str] = []
        values: list[nodes.Expr] = []
        while parser.stream.current.type != "block_end":
            if keys:
                parser.stream.expect("comma")
            keys.append(parser.stream.expect("name").value)
            parser.stream.expect("assign")
            values.append(parser.parse_expression())
        body = parser.parse_statements(("name:endpart",), drop_needle=True)
        self._reads_only(body, keys, parser, lineno)
        call = self.call_method(
            "_part", [nodes.Const(name), nodes.Const(tuple(keys)), nodes.List(values)]
        )
        params = [nodes.Name(k, "param") for k in keys]
        return nodes.CallBlock(call, params, [], body).set_lineno(lineno)

    def _reads_only(self, body: list[nodes.Node], keys: list[str], parser: Parser, at: int) -> None:
        """Refuse a body that reads a name it was not given: its HTML would be kept for values
        that do not say everything it drew from."""
        known = {*keys, "loop", *self.environment.globals}
        for node in body:
            for name in node.find_all(nodes.Name):
                if name.ctx in ("store", "param"):
                    known.add(name.name)
        for node in body:
            for name in node.find_all(nodes.Name):
                if name.ctx == "load" and name.name not in known:
                    parser.fail(f"a part reads only what it is given, not {name.name!r}", at)

    @staticmethod
    def _part(name: str, keys: tuple[str, ...], values: list[Any], caller: Any) -> Markup:
        key = (
            name,
            translation.get_language() or "",
            digits.current(),
            _key(dict(zip(keys, values, strict=True))),
        )
        with _lock:
            html = _drawn.get(key)
        if html is None:
            html = Markup(caller(*values))
            with _lock:
                _drawn[key] = html
        return html


# --------------------------------------------------------------- the data a frame hands its page

# Django's own escapes for json_script, so no text inside can close the script element. Made
# with str.replace: str.translate maps a text with Arabic in it character by character, a
# hundred times slower.
_SCRIPT_ESCAPES = (("&", "\\u0026"), ("<", "\\u003C"), (">", "\\u003E"))
_DJANGO_JSON = DjangoJSONEncoder()


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
