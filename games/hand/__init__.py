"""Saudi Hand and plain Hand: the rules engine (pure Python, no Django).

This package satisfies ``games.contract.Game`` (``games.get("hand")`` returns it): options,
``new_match``, ``to_move`` / ``server_step``, ``check`` / ``apply``, the views, ``auto_action``,
``bot_action``, ``outcome`` and versioned JSON. Besides those: ``Options``, ``State``,
``IllegalAction``, ``standings``, ``shares``, ``threshold``; the action grammar in ``actions``;
the meld finder in ``finder``; the bots in ``bot``. The view is documented in docs/views/hand.md.
"""

from .actions import Action, parse
from .engine import (
    SERVER_ACTIONS,
    BadOptions,
    IllegalAction,
    Options,
    State,
    apply,
    auto_action,
    bot_action,
    canonical,
    check,
    from_json,
    legal_actions,
    new_match,
    options_to_dict,
    outcome,
    parse_options,
    recap,
    server_step,
    shares,
    spectator_view,
    standings,
    team_chat_open,
    teams,
    threshold,
    to_json,
    to_move,
    turn_seconds,
    view,
)
from .tally import tally

name = "hand"

__all__ = [
    "SERVER_ACTIONS",
    "Action",
    "BadOptions",
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
    "parse",
    "parse_options",
    "recap",
    "server_step",
    "shares",
    "spectator_view",
    "standings",
    "tally",
    "team_chat_open",
    "teams",
    "threshold",
    "to_json",
    "to_move",
    "turn_seconds",
    "view",
]
