"""A coin match in play, and the engine's own shares for a made-up finishing order."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from django.utils import timezone

from games import services
from games.contract import Outcome
from games.hand import engine as hand
from games.models import Match, Seat
from tests.tables.helpers import make_table, seat_humans


def coin_match(host: Any, game: str, options: dict, stake: int, players: list[Any]) -> Match:
    """A coin table with every seat taken by ``players``: the match is playing, stakes in escrow."""
    table = make_table(host, game, options, stake=stake)
    seat_humans(table, players)
    match = Match.objects.get(table=table, number=1)
    assert match.status == Match.Status.PLAYING
    return match


def hand_outcome(players: int, partners: bool, places: list[tuple[int, tuple[int, ...]]]) -> dict:
    """The Hand engine's own outcome for a finishing order (its ``shares`` function)."""
    state = SimpleNamespace(
        status="match_over",
        options=SimpleNamespace(players=players, partners=partners),
        places=[(p, *seats) for p, seats in places],
    )
    teams = tuple(hand.units(SimpleNamespace(players=players, partners=partners)))
    return Outcome(tuple(places), hand.shares(state), teams).to_dict()


def jakaro_outcome(players: int, winner: int) -> dict:
    teams = ((0, 2), (1, 3)) if players == 4 else ((0,), (1,))
    won, lost = teams[winner], teams[1 - winner]
    shares = {s: Fraction(1, len(won)) if s in won else Fraction(0) for s in range(players)}
    return Outcome(((1, won), (2, lost)), shares, teams).to_dict()


def finish(match: Match, outcome: dict, left: tuple[int, ...] = ()) -> Match:
    """End ``match`` with ``outcome`` the way games.services does (seats that left marked), and
    settle it through the wallet's one entry point."""

    Seat.objects.filter(table=match.table, number__in=left).update(left=True)
    match.status = Match.Status.FINISHED
    match.outcome = outcome
    match.ended_at = match.revealed_at = timezone.now()
    match.deadline = None
    match.save()
    services.settle(match)
    return match


__all__ = ["coin_match", "finish", "hand_outcome", "jakaro_outcome", "services"]
