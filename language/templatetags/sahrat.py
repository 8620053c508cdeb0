"""Template filters every page uses for numbers and dates (``{% load sahrat %}``).

``{{ n|digits }}``: a number (or any text with digits) in the viewer's digit style
(language/digits.py); ``{{ n|percent }}`` the same with the language's percent sign.
``{{ when|when }}``: a moment as a player reads it, day first with the month's name, in the
site's time zone and the viewer's digits («١ ديسمبر ٢٠٢٦، ٦:١٢ م»): never a raw timestamp.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django import template
from django.utils import dateformat, timezone
from django.utils.translation import pgettext

from language import digits as digit_style
from language import words

register = template.Library()


@register.filter(name="digits")
def digits(value: Any) -> str:
    if value is None or value == "":
        return ""
    return digit_style.digits(value)


@register.filter(name="percent")
def percent(value: Any) -> str:
    """``{{ 90|percent }}`` -> «٩٠٪» in Arabic, "90%" in English: the sign of the page's
    language (Arabic's own «٪»), the number in the viewer's digits."""
    if value is None or value == "":
        return ""
    # Translators: the percent sign written after a number; Arabic has its own («٪»).
    return digit_style.digits(value) + pgettext("after a number", "%")


def when_text(value: datetime | None, *, seconds: bool = False) -> str:
    """A moment in words: day, month's name, year, then the time (seconds only where an auditor
    compares two moments, e.g. a seed's arrival against the commitment)."""
    if value is None:
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    if seconds:
        # Translators: PHP-style date format (Django's date filter), day first.
        fmt = pgettext("date and time with seconds", "j F Y, g:i:s A")
    else:
        # Translators: PHP-style date format (Django's date filter), day first.
        fmt = pgettext("date and time", "j F Y, g:i A")
    return digit_style.digits(dateformat.format(value, fmt))


@register.filter(name="when")
def when(value: datetime | None, arg: str = "") -> str:
    return when_text(value, seconds=arg == "seconds")


@register.filter(name="count")
def count(value: Any, kind: str) -> str:
    """``{{ balance|count:"coins" }}`` -> «١٠ عملات» (language/words.py)."""
    if value is None or value == "":
        return ""
    return words.count(kind, value)


@register.filter(name="plural_forms")
def plural_forms(kind: str) -> str:
    """``{{ "points"|plural_forms }}``: the JSON of words.forms, for a data attribute."""
    return json.dumps(words.forms(kind), ensure_ascii=False)
