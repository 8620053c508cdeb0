"""How a coin match's pot is split: pure arithmetic, no database (docs/wallet.md).

The engine's ``outcome`` says the places and each seat's share of what is left after the fee
(rules: Hand §9, Jakaro §11; ties pooled and split by the engine). This module adds what the
engines do not know: who left the table, and whole coins.

1. The fee: ``pot × WALLET_FEE_PERCENT // 100`` coins to the house (rounded down, in the players'
   favour). The rest is the prize.
2. Leavers get nothing. A scoring unit (a seat, or partners) keeps its share if anyone in it
   stayed, split equally among those who stayed (a partner who stayed takes the whole team
   share). A unit where everyone left passes its share on to the next place: the best-placed
   units, tied with it or below it, that have someone who stayed (split equally between them).
   If nobody at or below its place stayed, the share goes up to the nearest place above with
   someone who stayed. If nobody stayed at all, the prize goes to the house.
3. Whole coins: every seat gets the whole part of its exact amount; the coins left over (fewer
   than the seats paid) go one each to the paid seats in order of place, best first, then by
   seat number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any


@dataclass(frozen=True)
class Split:
    """Coins for the house (``fee``, plus any prize nobody who stayed could take) and each
    seat's payout (seats that get nothing are left out)."""

    fee: int
    payouts: dict[int, int]

    @property
    def total(self) -> int:
        return self.fee + sum(self.payouts.values())


def fee_of(pot: int, percent: int) -> int:
    return pot * percent // 100


def _rows(outcome: Mapping[str, Any]) -> list[tuple[int, tuple[int, ...]]]:
    return [(int(place), tuple(int(s) for s in seats)) for place, seats in outcome["places"]]


def shares_after_leavers(outcome: Mapping[str, Any], left: Iterable[int]) -> dict[int, Fraction]:
    """Each seat's share of the prize once leavers' shares have moved on (rule 2 above); the
    shares sum to 1 if anyone stayed, else to 0."""
    gone = set(left)
    rows = _rows(outcome)
    shares = {int(s): Fraction(v) for s, v in outcome["shares"].items()}
    unit_share = [
        sum((shares.get(s, Fraction(0)) for s in seats), Fraction(0)) for _p, seats in rows
    ]
    stayed = [[s for s in seats if s not in gone] for _p, seats in rows]
    extra = [Fraction(0)] * len(rows)
    for i, (place, _seats) in enumerate(rows):
        if stayed[i] or not unit_share[i]:
            continue
        below = [j for j, (p, _s) in enumerate(rows) if j != i and p >= place and stayed[j]]
        if below:
            best = min(rows[j][0] for j in below)
            heirs = [j for j in below if rows[j][0] == best]
        else:
            above = [j for j, (p, _s) in enumerate(rows) if p < place and stayed[j]]
            if not above:
                continue  # nobody stayed anywhere: the house takes it (see ``split``)
            best = max(rows[j][0] for j in above)
            heirs = [j for j in above if rows[j][0] == best]
        for j in heirs:
            extra[j] += unit_share[i] / len(heirs)
    out: dict[int, Fraction] = {}
    for i, (_place, _seats) in enumerate(rows):
        if not stayed[i]:
            continue
        total = unit_share[i] + extra[i]
        for s in stayed[i]:
            out[s] = out.get(s, Fraction(0)) + total / len(stayed[i])
    return out


def split(pot: int, outcome: Mapping[str, Any], left: Iterable[int], fee_percent: int) -> Split:
    """The whole-coin split of ``pot`` (rules 1–3 above); ``fee + payouts == pot`` always."""
    if type(pot) is not int or pot < 0:
        raise ValueError(f"pot must be a non-negative integer: {pot!r}")
    fee = fee_of(pot, fee_percent)
    prize = pot - fee
    shares = shares_after_leavers(outcome, left)
    if sum(shares.values()) > 1 or any(f < 0 for f in shares.values()):
        raise ValueError(f"shares must be non-negative and sum to at most 1: {shares}")
    exact = {s: prize * f for s, f in shares.items() if f > 0}
    if not exact:
        return Split(fee=pot, payouts={})
    paid = {s: floor(v) for s, v in exact.items()}
    place_of = {s: place for place, seats in _rows(outcome) for s in seats}
    order = sorted(paid, key=lambda s: (place_of.get(s, 99), s))
    left_over = prize - sum(paid.values())
    for s in order[:left_over]:
        paid[s] += 1
    # Shares sum to 1, so fewer coins are left over than seats paid; were the engine ever to
    # give less, the house keeps the difference and the pot still balances.
    fee += prize - sum(paid.values())
    return Split(fee=fee, payouts={s: c for s, c in paid.items() if c > 0})
