"""The games: each engine is a pure-Python package (``games.hand``, ``games.jakaro``) behind one
contract (``games.contract``); ``games.get(name)`` looks one up. The Django side of the games
(consumers, routing, views) lives beside them in this app."""

from .registry import NAMES, UnknownGame, get

__all__ = ["NAMES", "UnknownGame", "get"]
