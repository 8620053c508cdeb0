"""The three strengths of the Jakaro bot, chosen when a bot is seated (docs/bots.md): easy
(bot.easy), normal (bot.choose, one move ahead) and strong (search.choose, a look-ahead over
what the seat can know). Each decides from the seat's view alone, the same view always the same
way (their random draws are seeded by the view)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.contract import BOT_LEVELS

from . import bot, search


def bot_action(v: Mapping[str, Any], level: str = "normal") -> str:
    """The bot's move at ``level`` (one of BOT_LEVELS), as an action text."""
    if level not in BOT_LEVELS:
        raise ValueError(f"no bot level {level!r}")
    if level == "strong":
        return search.choose(v).to_str()
    if level == "easy":
        return bot.easy(v, random.Random(search.seed_of(v))).to_str()
    return bot.choose(v).to_str()
