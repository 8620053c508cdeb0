"""One digit style for every number a page shows: Arabic-Indic («١٢٣») or Western ("123").

The player chooses it in the profile (accounts.User.digits); with no choice it follows the page's
language (Arabic-Indic in Arabic, Western in English). The style of the request or socket frame
being drawn is a context variable, set by accounts.middleware for pages and by the table socket
for its frames, so the template filter (``{{ n|digits }}``), games/faces/common.py and the page's
script (``<body data-digits>``, Intl.NumberFormat; ``Sahrat.num`` in static/js/table_kit.js) all
write the same digits. What is not a number a reader reads keeps its Western digits: a card's
rank as printed on the card («10♥»), identifiers (a match's public id, hashes, an action's
canonical text, a shuffle's purpose) and a user's own name. tests/platform/test_digits_everywhere.py
reads the pages' texts for any other.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

from django.utils import translation

ARABIC = "arab"  # Unicode CLDR's numbering-system names, as Intl.NumberFormat takes them
WESTERN = "latn"
STYLES = (ARABIC, WESTERN)

_TO_ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
# Persian digits too: a pasted or translated text may carry either set.
_TO_WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")

_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar("sahrat_digits", default=None)


def default_for(language: str | None) -> str:
    """The style a language reads by default: Arabic-Indic for Arabic, Western otherwise."""
    return ARABIC if (language or "").startswith("ar") else WESTERN


def style_of(user: Any, language: str | None) -> str:
    """A player's chosen style, else the language's."""
    chosen = getattr(user, "digits", "") or ""
    return chosen if chosen in STYLES else default_for(language)


def current() -> str:
    """The style of what is being drawn now."""
    chosen = _chosen.get()
    return chosen if chosen in STYLES else default_for(translation.get_language())


def digits(value: Any, style: str | None = None) -> str:
    """``value`` as text with every digit in the current (or given) style; other characters
    (signs, separators, words) unchanged."""
    text = str(value)
    if (style or current()) == ARABIC:
        return text.translate(_TO_ARABIC)
    return text.translate(_TO_WESTERN)


def activate(style: str | None) -> contextvars.Token:
    return _chosen.set(style if style in STYLES else None)


def reset(token: contextvars.Token) -> None:
    _chosen.reset(token)


@contextlib.contextmanager
def override(style: str | None) -> Iterator[None]:
    token = activate(style)
    try:
        yield
    finally:
        reset(token)
