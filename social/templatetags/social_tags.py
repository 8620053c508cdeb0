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


@register.simple_tag(takes_context=True)
def friends_to_invite(context: Any, table_id: str) -> list[dict[str, Any]]:
    """The signed-in viewer's friends who may be invited to the table ``table_id`` (not
    hiding their presence, not at that table): for its "Invite a friend" list."""
    user = context["request"].user
    if not user.is_authenticated:
        return []
    return [
        f for f in selectors.friends_of(user) if f["state"] != "hidden" and f["table"] != table_id
    ]
