"""Look a game up by name: ``games.registry.get("hand")`` returns the ``games.hand`` package,
which satisfies ``games.contract.Game``. The only place that lists the games."""

from __future__ import annotations

import importlib

from .contract import Game

NAMES = ("hand", "jakaro")


class UnknownGame(LookupError):
    """A name that is not one of ``NAMES``."""


def get(name: str) -> Game:
    """The game package for ``name``; UnknownGame for any other name."""
    if name not in NAMES:
        raise UnknownGame(name)
    return importlib.import_module(f"games.{name}")  # type: ignore[return-value]
