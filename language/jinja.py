"""Django's ``{% translate %}`` and ``{% blocktranslate %}`` in Jinja2 templates.

The table's frames are Jinja2 templates (templates/jinja2/, sahrat_site/jinja2.py) and every
other page is Django's. Both write their words with Django's two tags, in Django's syntax, so
``manage.py makemessages`` (Django's own, which reads tags, not engines) extracts them all into
the one catalogue, and a word has one msgid whichever engine draws it:

- ``{% translate "Sit here" %}``, ``{% translate "s" context "seconds, after a number" %}``;
- ``{% blocktranslate with n=stake|count("coins") name=turn_name %}…{{ n }}…``
  ``{% endblocktranslate %}``: the ``with`` values are Jinja2 expressions (what makemessages does
  not read); the body is text and ``{{ name }}`` only, as in Django.

They draw what Django's tags draw, character for character: a word as translated (the template's
own text: not escaped); a block's text as translated, its values each escaped as Django escapes
them and put in (``%(name)s``); a literal ``%`` is ``%%`` in the msgid.
"""

from __future__ import annotations

import html
from typing import Any

from django.template.base import render_value_in_context
from django.template.context import Context
from django.utils.translation import get_language, gettext, pgettext
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from markupsafe import Markup

# Django's own way of writing a value into a page (localized, escaped), with autoescaping on.
_PAGE = Context(autoescape=True)


def as_django_writes(value: Any) -> Markup:
    """A value as Django's ``{{ value }}`` writes it into a page (localized, escaped by
    Django's rule): the Jinja2 environment's ``finalize``, which escapes every value its
    templates write (sahrat_site/jinja2.py)."""
    kind = type(value)
    # The commonest first, as Django writes them: text escaped (html.escape is Django's
    # escape), a whole number as its digits, marked-up text as it is.
    if kind is str:
        return Markup(html.escape(value))
    if kind is int:
        return Markup(value)
    if hasattr(value, "__html__"):
        return value if isinstance(value, Markup) else Markup(value.__html__())
    return Markup(render_value_in_context(value, _PAGE))


class DjangoTranslations(Extension):
    tags = {"translate", "blocktranslate"}

    def parse(self, parser: Parser) -> nodes.Node:
        token = next(parser.stream)
        if token.value == "translate":
            return self._translate(parser, token.lineno)
        return self._block(parser, token.lineno)

    def _translate(self, parser: Parser, lineno: int) -> nodes.Node:
        message = parser.stream.expect("string").value
        context = None
        if parser.stream.skip_if("name:context"):
            context = parser.stream.expect("string").value
        call = self.call_method("_word", [nodes.Const(message), nodes.Const(context)])
        return nodes.Output([call], lineno=lineno)

    def _block(self, parser: Parser, lineno: int) -> nodes.Node:
        given: list[nodes.Pair] = []
        if parser.stream.skip_if("name:with"):
            while parser.stream.current.type != "block_end":
                name = parser.stream.expect("name")
                parser.stream.expect("assign")
                given.append(nodes.Pair(nodes.Const(name.value), parser.parse_expression()))
        parser.stream.expect("block_end")
        named = {pair.key.value for pair in given}  # type: ignore[attr-defined]
        text: list[str] = []
        while True:
            token = parser.stream.current
            if token.type == "data":
                text.append(token.value.replace("%", "%%"))
                next(parser.stream)
            elif token.type == "variable_begin":
                next(parser.stream)
                name = parser.stream.expect("name").value
                parser.stream.expect("variable_end")
                text.append(f"%({name})s")
                if name not in named:  # read from the page, as Django's tag reads it
                    named.add(name)
                    given.append(nodes.Pair(nodes.Const(name), nodes.Name(name, "load")))
            elif token.type == "block_begin":
                next(parser.stream)
                parser.stream.expect("name:endblocktranslate")
                break  # its block_end is the parser's to read, as after any tag
            else:
                parser.fail("a blocktranslate holds text and {{ name }} only", token.lineno)
        call = self.call_method("_block_words", [nodes.Const("".join(text)), nodes.Dict(given)])
        return nodes.Output([call], lineno=lineno)

    @staticmethod
    def _word(message: str, context: str | None) -> Markup:
        # As Django's tag: the template's own text, so not escaped (its translation is the
        # translators' markup); a "%" is "%%" in the msgid. Kept per language: a frame holds
        # dozens of words, and Django's gettext is a few microseconds each.
        key = (get_language(), message, context)
        word = _words.get(key)
        if word is None:
            msgid = message.replace("%", "%%")
            text = pgettext(context, msgid) if context else gettext(msgid)
            word = _words[key] = Markup(text.replace("%%", "%"))
        return word

    @staticmethod
    def _block_words(message: str, values: dict[str, Any]) -> Markup:
        return Markup(gettext(message) % {k: as_django_writes(v) for k, v in values.items()})


# The words of the templates (a few hundred) in the site's languages: a few thousand at most.
_words: dict[tuple[str | None, str, str | None], Markup] = {}
