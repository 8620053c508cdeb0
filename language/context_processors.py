"""What every page's template needs beyond Django's own context."""

from __future__ import annotations

from django.http import HttpRequest

from language import digits


def digit_style(request: HttpRequest) -> dict[str, str]:
    """The page's digit style for ``<body data-digits>``: the page's script formats the numbers
    it writes itself (countdowns) with Intl.NumberFormat in the same style."""
    return {"digit_style": digits.current()}
