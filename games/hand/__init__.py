"""Saudi Hand and plain Hand: the rules engine (pure Python, no Django).

Public API: ``Options``, ``State``, ``new_match``, ``next_round``, ``check``, ``apply``, ``view``,
``to_json``, ``from_json``, ``IllegalAction``, ``standings``, ``shares``, ``threshold``; the action
grammar in ``actions``; the meld finder in ``finder``; bots and auto-play in ``bot``.
"""

from .actions import Action, parse
from .engine import (
    IllegalAction,
    Options,
    State,
    apply,
    check,
    from_json,
    new_match,
    next_round,
    shares,
    standings,
    threshold,
    to_json,
    view,
)

__all__ = [
    "Action",
    "IllegalAction",
    "Options",
    "State",
    "apply",
    "check",
    "from_json",
    "new_match",
    "next_round",
    "parse",
    "shares",
    "standings",
    "threshold",
    "to_json",
    "view",
]
