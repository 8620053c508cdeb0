"""The games' words for pages of other apps, which name a game by its key and load this library
(``{% load game_words %}``) rather than import the games: ``{{ key|game_name }}``,
``{{ options|options_words:key }}``."""

from __future__ import annotations

from django import template

from games import faces
from games.faces.common import options_words

register = template.Library()


@register.filter(name="game_name")
def game_name_filter(game: str) -> str:
    """A game's name in the active language (``hand`` -> «هاند»); nothing for no game."""
    return faces.game_name(str(game)) if game else ""


@register.filter(name="options_words")
def options_words_filter(options: dict, game: str) -> str:
    """A table's options as words, joined (``{{ match.options|options_words:match.game }}``):
    «لاعبان · فردي»."""
    return " · ".join(options_words(str(game), options or {}))
