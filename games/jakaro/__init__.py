"""Jakaro (جاكارو): the rules engine, bots and scenario adapter. Pure Python, no Django.

This package is what ``games.get("jakaro")`` returns: it satisfies ``games.contract.Game``.
Jakaro has no server-only action: a new deal is part of the action that empties the last hand,
and the time-out plays an ordinary action for the seat (``auto_action``).
"""

from __future__ import annotations

from .bot import auto_action
from .engine import (
    Action,
    IllegalAction,
    Options,
    State,
    apply,
    canonical,
    check,
    from_json,
    legal_actions,
    new_match,
    options_to_dict,
    outcome,
    parse_options,
    server_step,
    spectator_view,
    team_chat_open,
    teams,
    to_json,
    to_move,
    turn_seconds,
    view,
)
from .last_deck import recap
from .levels import bot_action
from .tally import tally

name = "jakaro"
SERVER_ACTIONS: frozenset[str] = frozenset()

__all__ = [
    "SERVER_ACTIONS",
    "Action",
    "IllegalAction",
    "Options",
    "State",
    "apply",
    "auto_action",
    "bot_action",
    "canonical",
    "check",
    "from_json",
    "legal_actions",
    "name",
    "new_match",
    "options_to_dict",
    "outcome",
    "parse_options",
    "recap",
    "server_step",
    "spectator_view",
    "tally",
    "team_chat_open",
    "teams",
    "to_json",
    "to_move",
    "turn_seconds",
    "view",
]
