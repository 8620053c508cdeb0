"""The games' words for pages of other apps, which name a game by its key and load this library
(``{% load game_words %}``) rather than import the games: ``{{ key|game_name }}``."""

from __future__ import annotations

from django import template

from games import faces

register = template.Library()


@register.filter(name="game_name")
def game_name_filter(game: str) -> str:
    """A game's name in the active language (``hand`` -> «هاند»); nothing for no game."""
    return faces.game_name(str(game)) if game else ""
