"""``{% card c look="drawn" size="small" %}``: one card drawn by templates/cards/card.html, the
one card template of every page (the Hand table, the Jakaro board, the Verify pages).

``c`` is a card item (games/faces/common.py ``card_item``, with its game's words) or a card's
text. A table frame draws dozens of cards for every socket at the table, so each card is drawn
once per look and kept: the template reads nothing but the item and the options (no words of
its own), so the same item and options always draw the same HTML.
"""

from __future__ import annotations

import functools
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.faces.common import card_item

register = template.Library()

_ITEM_KEYS = ("text", "label", "rank", "suit", "red", "joker", "name", "face")


@register.simple_tag
def card(
    c: Any,
    look: str = "label",
    size: str = "",
    tag: str = "span",
    data: bool = False,
    spoken: str = "",
    extra: str = "",
    ltr: bool = False,
) -> SafeString:
    """One card's HTML (see templates/cards/card.html for the options)."""
    item = card_item(str(c)) if isinstance(c, str) else c
    stands = item.get("stands")
    stands_key = (
        (stands["text"], stands["rank"], stands["suit"], bool(stands["red"])) if stands else None
    )
    fields = tuple(
        str(item.get(k, "")) if k not in ("red", "joker") else bool(item.get(k)) for k in _ITEM_KEYS
    )
    return _drawn(fields, stands_key, look, size, tag, bool(data), spoken, extra, bool(ltr))


@functools.lru_cache(maxsize=8192)
def _drawn(
    fields: tuple[Any, ...],
    stands: tuple[str, str, str, bool] | None,
    look: str,
    size: str,
    tag: str,
    data: bool,
    spoken: str,
    extra: str,
    ltr: bool,
) -> SafeString:
    c = dict(zip(_ITEM_KEYS, fields, strict=True))
    c["stands"] = (
        dict(zip(("text", "rank", "suit", "red"), stands, strict=True)) if stands else None
    )
    context = {
        "c": c,
        "look": look,
        "size": size,
        "tag": tag,
        "data": data,
        "spoken": spoken,
        "extra": extra,
        "ltr": ltr,
    }
    return mark_safe(get_template("cards/card.html").render(context).strip())


# The blank card the moulds are drawn from: no rank, no suit, no name; a joker's stand-in badge
# in it, which the script removes from a card that has none.
_BLANK = {"text": "", "label": "", "rank": "", "suit": "", "red": False, "name": "", "face": ""}
_BLANK_STANDS = {"text": "", "rank": "", "suit": "", "red": False}


@register.simple_tag
def card_moulds(tag: str = "span", size: str = "", spoken: str = "") -> SafeString:
    """``<template data-card-mould="TAG">``: a card and a joker, each black then red ("drawn",
    with ``size``, ``tag`` and ``spoken`` as ``{% card %}`` takes them), drawn by
    templates/cards/card.html with no card in them, which the page's script clones and fills in
    (static/js/hand_cards.js cardEl: the cards of a meld being built, the joker's choices), so
    that a card the script draws is the one card template's too."""
    shapes = [
        card(
            {**_BLANK, "joker": joker, "red": red, "stands": _BLANK_STANDS},
            look="drawn",
            size=size,
            tag=tag,
            spoken=spoken,
        )
        for joker in (False, True)
        for red in (False, True)
    ]
    return format_html('<template data-card-mould="{}">{}{}{}{}</template>', tag, *shapes)
