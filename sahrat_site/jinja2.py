"""The Jinja2 environment of the table's frames (templates/jinja2/; settings.TEMPLATES).

A table's frames are drawn at every change of every table (games/frames.py), and in Django's
template language that drawing was most of a web process's CPU per move (docs/scaling.md,
issue 58). Jinja2 compiles a template to Python once and draws the same frames several times
faster. Every other page stays in Django's templates.

The frames read as Django's did, so a template moved from one engine to the other draws the
same characters:

- words with Django's own tags (language/jinja.py), so ``makemessages`` extracts them; the
  pieces drawn once per values and kept with ``{% part %}`` (games/frame_parts.py);
- ``a.b`` looks ``b`` up as Django does: a key first, then an attribute (a dict's ``items`` is
  its key, not its method);
- a value is written as Django writes it (localized, escaped by Django's rule), and a missing one
  is empty (``is none`` holds for it, as Django's missing value is None in an ``if``);
- Django's filters and tags the frames use: ``digits``, ``percent``, ``count``, ``plural_forms``,
  ``join``, ``frame_json``; ``url(...)``, ``card(...)``, ``card_moulds(...)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.template.defaultfilters import join
from django.urls import reverse
from jinja2 import ChainableUndefined, Environment, Undefined, pass_context

from games.frame_parts import Parts, frame_json
from games.templatetags.cards import card, card_moulds
from language.jinja import DjangoTranslations, as_django_writes
from language.templatetags.sahrat import count, digits, percent, plural_forms


class DjangoLookups(Environment):
    """``a.b`` as Django's template language resolves it: ``a["b"]``, then ``a.b``."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, dict):
            try:
                return obj[attribute]
            except KeyError:
                pass
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError):
            return self.undefined(obj=obj, name=attribute)


def _missing_or_none(value: Any) -> bool:
    return value is None or isinstance(value, Undefined)


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def _at_render(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A filter Jinja2 must not work out once when it compiles ``'points'|plural_forms``: what
    these write depends on the language and the digits of the frame being drawn."""

    @functools.wraps(fn)
    def at_render(context: Any, value: Any, *args: Any) -> Any:
        return fn(value, *args)

    return pass_context(at_render)


def environment(**options: Any) -> Environment:
    options.update(
        extensions=[DjangoTranslations, Parts],
        finalize=as_django_writes,
        undefined=ChainableUndefined,
        keep_trailing_newline=True,  # as Django's templates: the text as written
    )
    env = DjangoLookups(**options)
    env.tests["none"] = _missing_or_none
    env.filters.update(
        digits=_at_render(digits),
        percent=_at_render(percent),
        count=_at_render(count),
        plural_forms=_at_render(plural_forms),
        frame_json=frame_json,
        join=lambda value, arg: join(value, arg, autoescape=True),
    )
    env.globals.update(url=url, card=card, card_moulds=card_moulds)
    return env
