"""For other apps' pages (a player's page, a table): ``{% relation_with player as rel %}``, what
the signed-in viewer sees of that player (following, friends, blocked), without those pages
importing the social app."""

from __future__ import annotations

from typing import Any

from django import template

from social import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def relation_with(context: Any, other: Any) -> dict[str, bool] | None:
    """None for a visitor not signed in, or for the viewer's own page."""
    user = context["request"].user
    if not user.is_authenticated or other is None or user.pk == other.pk:
        return None
    return selectors.relation(user, other)
