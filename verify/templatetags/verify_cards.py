"""Cards on the Verify pages in the tables' words (``10H`` -> ``10♥``, a joker by name), from
the common face."""

from __future__ import annotations

from django import template

from games.faces.common import card_label

register = template.Library()


@register.filter(name="card_label")
def card_label_filter(card: str) -> str:
    return card_label(str(card))
