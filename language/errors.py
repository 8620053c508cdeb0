"""The one base of every refusal a player can meet: an engine's illegal move, a table's refused
request, a wallet's refused payment. Pure Python (no Django) so the engines may use it.

Each refusal has a stable machine ``code`` (clients, scenario files and logs match on it), a
``detail`` for developers and logs, and ``message(lang)``: the words the player reads, in Arabic
("ar", the default) or English. The edges (views, consumers, admin) catch ``PlayerError`` and
show ``message(lang)``; each subclass says where its words come from.
"""

from __future__ import annotations


class PlayerError(Exception):
    """A refused request: ``code``, ``detail`` and ``message(lang)``."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    def message(self, lang: str = "ar") -> str:
        """The player-facing words for this refusal in ``lang`` ("ar" or "en")."""
        raise NotImplementedError(f"{type(self).__name__} says nothing for {self.code}")
