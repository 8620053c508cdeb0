"""The rating mathematics of a match, pure (no Django): which mode a match is rated in, the
places its outcome gives each seat, and the new ratings, from the openskill library's
Plackett-Luce model (Weng-Lin; several players and teams). docs/standing.md says what counts
and why.

- A mode per game and form: Hand solo (2 to 4 players, by places), Hand partners, Jakaro with
  two players, Jakaro partners. Ratings of different modes never meet.
- Places come from the engine's outcome (shared places are ties). A player who left (their seat
  given up) ranks last, below every place, whatever their seat's bot did; in partners the team
  of a leaver ranks last. A leaver's partner keeps their rating unchanged (they did not leave,
  and could not win alone): the match is rated, the partner's change is 0.
- A player who made no move of their own (every turn of theirs a time-out or a stand-in bot's)
  is not rated by the match, and nobody is rated against a side that no person played.
- Shown as one number: the library's ordinal (mu - 3 sigma) scaled to a familiar range, 1000
  at the start; "?" (provisional) while sigma is above PROVISIONAL_SIGMA.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODES = ("hand-solo", "hand-partners", "jakaro-2", "jakaro-partners")
START_MU = 25.0
START_SIGMA = 25.0 / 3.0
PROVISIONAL_SIGMA = 6.0  # about ten matches from the start: below it, the number is shown plain
SHOWN_BASE = 1000
SHOWN_SCALE = 40  # display = 1000 + 40 * (mu - 3 sigma): a new player 1000, a strong one ~2000

MODEL = PlackettLuce()  # the library's defaults (tau keeps a rating from freezing)


def mode_of(game: str, options: dict[str, Any]) -> str:
    """The rating mode of a match of ``game`` with ``options`` (its table's options)."""
    if game == "hand":
        return "hand-partners" if options.get("partners") else "hand-solo"
    return "jakaro-partners" if int(options.get("players", 2)) == 4 else "jakaro-2"


def shown(mu: float, sigma: float) -> int:
    """The one number a player sees."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True)
class Player:
    """One rated seat: who, their rating before, where they finished."""

    user: int
    seat: int
    mu: float
    sigma: float
    place: int  # 1 = first; shared places are equal
    team: int  # the seat's team (partners), or the seat itself
    left: bool = False
    idle: bool = False  # made no move of their own in the match: not rated by it


def places(outcome: dict[str, Any], seats: int, left: Sequence[int]) -> list[int]:
    """Each seat's place from the engine's outcome (``places``: rows of [place, seats], best
    first; units that tie share the place number), a leaver's after every other place, all
    numbered again from 1."""
    out: dict[int, int] = {}
    for place, group in outcome.get("places") or []:
        for seat in group:
            out[seat] = place
    last = max(out.values(), default=0) + 1
    for seat in left:
        out[seat] = last
    raw = [out.get(seat, last) for seat in range(seats)]
    # Numbered again as the engines number places (1 + those strictly better: 1, 2, 2, 4): with
    # a leaver moved last, whoever is now best is first (in a two-player match the one who
    # stayed wins, whatever the leaver's bot did).
    return [1 + sum(q < p for q in raw) for p in raw]


def teams_of(outcome: dict[str, Any], seats: int) -> list[int]:
    """Each seat's scoring unit (its team of partners, or itself), from the outcome."""
    out = list(range(seats))
    for i, team in enumerate(outcome.get("teams") or []):
        for seat in team:
            out[seat] = i
    return out


def rateable(players: Sequence[Player | Mapping[str, Any]]) -> bool:
    """Whether a match moves anyone's rating: at least two scoring units have a player who made
    a move of their own (an idle player is rated by nobody's match, and nobody is rated against
    a unit that only time-outs and stand-in bots played). One rule for the rating's Players and
    for a match as recorded (RatedMatch.players: dicts)."""
    rows = [
        (p["team"], p.get("idle")) if isinstance(p, Mapping) else (p.team, p.idle) for p in players
    ]
    return len({team for team, idle in rows if not idle}) >= 2


def rate(players: Sequence[Player]) -> dict[int, tuple[float, float]]:
    """The new (mu, sigma) of every player of one match who made a move of their own, by user
    (an idle player is left out: their rating does not move, nor is anyone rated against them;
    empty when the match is not ``rateable``). Teams are rated as teams (partners), each at its
    best member's place unless one left (then last), an idle leaver included."""
    if not rateable(players):
        return {}
    teams: dict[int, list[Player]] = {}
    for p in sorted(players, key=lambda p: p.seat):
        teams.setdefault(p.team, []).append(p)
    ranks: dict[int, int] = {}
    leavers: set[int] = set()
    for t, members in teams.items():
        if any(m.left for m in members):
            ranks[t] = max(m.place for m in members)
            leavers.add(t)
        else:
            ranks[t] = min(m.place for m in members)
    playing = {t: [m for m in members if not m.idle] for t, members in teams.items()}
    order = sorted(t for t, members in playing.items() if members)
    rated = MODEL.rate(
        [[MODEL.rating(mu=m.mu, sigma=m.sigma) for m in playing[t]] for t in order],
        ranks=[ranks[t] for t in order],
    )
    out: dict[int, tuple[float, float]] = {}
    for t, new_team in zip(order, rated, strict=True):
        for m, new in zip(playing[t], new_team, strict=True):
            if t in leavers and not m.left:
                out[m.user] = (m.mu, m.sigma)  # a leaver's partner: no change
            else:
                out[m.user] = (new.mu, new.sigma)
    return out


def rate_recorded(
    players: Sequence[dict[str, Any]], before: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """``rate`` for a match as recorded (RatedMatch.players: seat, user, place, team, left, idle),
    from each user's (mu, sigma) before it: what the writer applies and the rebuild redoes."""
    # An idle player's rating is not read (nor moved): the writer does not lock their row.
    start = (START_MU, START_SIGMA)
    return rate(
        [
            Player(
                user=p["user"],
                seat=p["seat"],
                mu=before.get(p["user"], start)[0],
                sigma=before.get(p["user"], start)[1],
                place=p["place"],
                team=p["team"],
                left=p["left"],
                idle=p.get("idle", False),  # recorded since issue 57; older matches had none
            )
            for p in players
        ]
    )
