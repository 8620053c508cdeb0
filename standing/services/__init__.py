"""The standing's writers, by use case: ratings (``rate_match``, ``rebuild``), a match's ending
kept in its players' history and standing (``match_ended``), and leaving (``player_left``, the
lock-out the tables check with ``check_may_start``)."""

from standing.services.leaving import check_may_start, player_left
from standing.services.ratings import rate_match, rebuild
from standing.services.records import match_ended, recount

__all__ = [
    "check_may_start",
    "match_ended",
    "player_left",
    "rate_match",
    "rebuild",
    "recount",
]
