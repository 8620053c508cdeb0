"""What each game looks like: one face per game (``games/faces/<game>.py``), looked up by the
game's name like the engines (``games.faces.get("hand")``), over the common face
(``games/faces/common.py``: card, option, outcome and seat words both games share).

A face turns one seat's view (never the engine's state) into what the game's template draws,
and owns the game's words: its name, its actions, its cards. Pages above the engines (the table,
the Verify pages) reach a game's looks only through here, never by importing the game."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol, cast

import games
from games.faces.common import pretty_cards


class Face(Protocol):
    """What every game's face offers the pages."""

    NAME: Any  # the game's name in the active language (a lazy text)
    # The templates of the game's part of a table (games/frames.py): TEMPLATE what every viewer
    # shares, drawn from ``table_view`` of the spectator view, with a slot for each of
    # OWN_TEMPLATES (slot name -> template): a seat's own parts, from ``own_view``, each one
    # element swapped into its slot by its id.
    TEMPLATE: str
    OWN_TEMPLATES: dict[str, str]
    RULES: str  # the game's rules in short, in the table's "More" sheet: games/rules/<game>.html
    STYLESHEET: str  # its part of the stylesheet (static/css/<game>.css), after css/table.css
    # Its table page's own scripts (static paths), in the order they run: classic deferred
    # scripts after static/js/table_kit.js and table.js, sharing window.Sahrat.
    SCRIPTS: tuple[str, ...]
    # A finished match's recap (the engine's ``recap``) in words; None for a game without one.
    recap_words: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]] | None

    def table_view(
        self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None
    ) -> dict[str, Any]:
        """The spectator view (``you`` None) as TEMPLATE draws it."""
        ...

    def own_view(
        self, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None
    ) -> dict[str, Any]:
        """One seat's view (``you`` None for a spectator) as OWN_TEMPLATE draws it."""
        ...

    def action_words(self, action: str, seat: int | None, seats: list[dict[str, Any]]) -> str:
        """A logged action in words, the server's own included."""
        ...


def get(game: str) -> Face:
    """The face of ``game``; games.UnknownGame for a name that is not a game."""
    if game not in games.NAMES:
        raise games.UnknownGame(game)
    return cast(Face, importlib.import_module(f"games.faces.{game}"))


def game_name(game: str) -> str:
    """A game's name in the active language; an unknown name as it is."""
    try:
        return str(get(game).NAME)
    except games.UnknownGame:
        return game


def action_words(game: str, action: str, seat: int | None, seats: list[dict[str, Any]]) -> str:
    """A logged action of ``game`` in words (the Verify page's replay and action log)."""
    try:
        face = get(game)
    except games.UnknownGame:
        return pretty_cards(action)
    return face.action_words(action, seat, seats)
