"""The one contract both rules engines satisfy (pure Python, no Django).

Everything above the engines (the scenario runner, the benches, the table services, timers,
consumers, the Verify replay) reaches a game only through ``games.get(name)``, which returns the
game's package (``games.hand``, ``games.jakaro``); each package satisfies ``Game`` below. Nothing
above the engines branches on the game's name.

A match is its log: ``new_match(options, rng)`` and then ``apply(state, seat, action, rng)`` for
every logged action, the server's included, gives the state. ``replay`` below is the only replay
code there is.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from language.errors import PlayerError

from .messages import COMMON, text

# The seat written in the log for an action the server takes on nobody's behalf (Hand's next-round
# ``deal``). A server action taken for a seat (a ``timeout``) is logged with that seat.
SERVER = None


class GameError(PlayerError):
    """A refusal with a stable machine ``code``, a ``detail`` for logs and developers, and
    ``message(lang)``: the words a player reads, in Arabic (default) or English."""

    # Per-game codes; the codes both games share live in games/messages.py (COMMON).
    messages: Mapping[str, Mapping[str, str]] = {}

    def message(self, lang: str = "ar") -> str:
        """The player-facing text for this refusal, in ``lang`` ("ar" or "en")."""
        return text(self.code, lang, self.messages)


class IllegalAction(GameError):
    """An action the engine refuses now; the state it was offered is unchanged (states are
    immutable). Each engine raises a subclass carrying its own messages, so ``except
    games.contract.IllegalAction`` catches a refusal from either game."""


class BadOptions(GameError):
    """Table options the game does not allow (``code`` is stable, e.g. ``bad_players``)."""


class MissingRandomSource(RuntimeError):
    """An action needed the match's random source (a deal, a reshuffle, a Ten burn) and none was
    given: a programming error of the caller, never a player's mistake."""


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended.

    ``places``: one row per scoring unit (a seat, or a team of partners), best first, as
    ``(place, seats)``; units that tie share the place number. ``shares``: every seat's share of
    the prize after the table fee, as Fractions summing to 1, ties pooled and split as the rules
    pages say. ``teams``: the scoring units, in seat order.
    """

    places: tuple[tuple[int, tuple[int, ...]], ...]
    shares: Mapping[int, Fraction]
    teams: tuple[tuple[int, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: shares as "n/d" texts, so nothing is lost to floating point."""
        return {
            "places": [[p, list(seats)] for p, seats in self.places],
            "shares": {str(s): str(f) for s, f in sorted(self.shares.items())},
            "teams": [list(t) for t in self.teams],
        }


def forfeit_outcome(teams: Iterable[Iterable[int]], left: Collection[int]) -> Outcome | None:
    """The result of a match won by forfeit (docs/wallet.md, "Won by forfeit"), from the scoring
    units (``Game.teams``) and the seats given up: when every unit but one has only seats given
    up, that one is first with the whole prize, shared equally among its seats, and every other
    unit shares second. None otherwise. The table services end a match with it (once they have
    also seen a person of the winning unit still present) and the Verify checks recompute it."""
    units = tuple(tuple(u) for u in teams)
    gone = [u for u in units if all(s in left for s in u)]
    if len(gone) != len(units) - 1:
        return None
    (winners,) = [u for u in units if u not in gone]
    shares = {s: Fraction(0) for u in units for s in u}
    shares.update({s: Fraction(1, len(winners)) for s in winners})
    places = ((1, winners), *((2, u) for u in gone))
    return Outcome(places=places, shares=shares, teams=units)


# The bots' three strengths, chosen when a bot is seated (docs/bots.md); a bot that plays for a
# player who left plays at "normal".
BOT_LEVELS = ("easy", "normal", "strong")

# Keys every view has, with the same name and meaning in both games (docs/views.md):
#   game, seat (None for a spectator), players, turn (seat to move, or None), status
#   ("playing" | "round_over" | "over"), hand (None for a spectator), hand_counts, legal (action
#   texts the seat may play now that the engine lists: all of them for Jakaro; the easy table's
#   accepted hints for Hand; [] otherwise), outcome (Outcome.to_dict() or None).
COMMON_VIEW_KEYS = (
    "game",
    "seat",
    "players",
    "turn",
    "status",
    "hand",
    "hand_counts",
    "legal",
    "outcome",
)


@runtime_checkable
class Game(Protocol):
    """What a game package offers. ``State`` and ``Options`` are the game's own frozen values."""

    name: str
    # Action kinds (the first word of an action text) that only the server may send.
    SERVER_ACTIONS: frozenset[str]

    def parse_options(self, data: Mapping[str, Any]) -> Any:
        """Table options from plain data (a form, a stored JSON); BadOptions if not allowed."""
        ...

    def options_to_dict(self, options: Any) -> dict[str, Any]:
        """The inverse of ``parse_options``: plain, JSON-able, stable."""
        ...

    def new_match(self, options: Any, rng: Any) -> Any:
        """A new match, first deal included, from the match's one random source."""
        ...

    def to_move(self, state: Any) -> int | None:
        """The seat whose move it is; None when the match is over or a server step is due."""
        ...

    def server_step(self, state: Any) -> str | None:
        """The server-only action due now (Hand: ``deal`` between rounds), else None."""
        ...

    def check(self, state: Any, seat: int | None, action: Any) -> None:
        """Raise IllegalAction if ``apply`` would refuse; return None if it would accept."""
        ...

    def legal_actions(self, state: Any) -> list[str] | None:
        """Every legal action text of the seat to move, or None where the game cannot list
        them (Hand's action space is too large)."""
        ...

    def apply(self, state: Any, seat: int | None, action: Any, rng: Any) -> Any:
        """The state after the action (``seat`` None for a server action on nobody's behalf).
        IllegalAction if refused; MissingRandomSource if it needed ``rng`` and got None."""
        ...

    def view(self, state: Any, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, counts of every other hand (JSON-able)."""
        ...

    def spectator_view(self, state: Any) -> dict[str, Any]:
        """What anyone may see: no hand at all (``hand`` is None)."""
        ...

    def canonical(self, seat: int | None, action: str) -> str:
        """The one canonical text of an action text (what the match log stores, never what the
        client sent); IllegalAction("bad_action") if it cannot be read."""
        ...

    def teams(self, options: Any) -> tuple[tuple[int, ...], ...]:
        """The scoring units in seat order: partners together, each seat alone in solo play."""
        ...

    def team_chat_open(self, state: Any) -> bool:
        """Whether partners may talk privately now (closed during a round at a strict table)."""
        ...

    def turn_seconds(self, options: Any) -> int:
        """The rules' time for one turn at a table with these options."""
        ...

    def auto_action(self, state: Any, seat: int) -> str:
        """The one action the server plays for ``seat`` when its turn time runs out."""
        ...

    def bot_action(self, view: Mapping[str, Any], level: str = "normal") -> str:
        """A bot's move at ``level`` (one of BOT_LEVELS), chosen from the seat's view alone."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the match is over; None while it is played."""
        ...

    def recap(self, state: Any, log: Iterable[tuple[int | None, str]]) -> dict[str, Any] | None:
        """What the end screen of a finished match shows that play hid (Jakaro: the last deck's
        moves and the cards it dealt), JSON-able, from the final state and the match's
        ``(seat, action)`` log; None while the match is played, and None where the views
        already show everything (Hand). Only called once the match is over and its secret
        revealed; a game that needs no log must not iterate it (it may be a lazy query)."""
        ...

    def tally(self, before: Any, after: Any) -> dict[int, dict[str, int]]:
        """What the action from ``before`` to ``after`` adds to each seat's statistics (counts
        by name, the game's own: docs/standing.md lists them); seats with nothing new are left
        out. Pure and cheap: it runs on every logged action."""
        ...

    def to_json(self, state: Any) -> str:
        """The whole state, hidden cards included (storage only), with a version number."""
        ...

    def from_json(self, text: str) -> Any:
        """The inverse of ``to_json``; ValueError on an unknown version."""
        ...


def replay(game: Game, options: Any, rng: Any, log: Iterable[tuple[int | None, str]]) -> Any:
    """The state a match's log leads to: the one replay for both games (tests, the table
    services' snapshot check, the Verify page)."""
    state = game.new_match(options, rng)
    for seat, action in log:
        state = game.apply(state, seat, action, rng)
    return state


__all__ = [
    "COMMON",
    "COMMON_VIEW_KEYS",
    "SERVER",
    "BadOptions",
    "Game",
    "GameError",
    "IllegalAction",
    "MissingRandomSource",
    "Outcome",
    "forfeit_outcome",
    "replay",
]
