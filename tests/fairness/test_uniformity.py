"""Is the shuffle uniform? Pearson chi-square tests over many deterministic shuffles.

Secrets are a fixed range (0, 1, 2, … as 32-byte numbers), so the counts, and so the verdict,
are the same on every run: this is a check of the algorithm, not a flaky statistical test.
Two deliberately broken shuffles show that the check can fail.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from itertools import permutations

import pytest

import fairness.core as fairness

ITEMS = ("a", "b", "c", "d", "e")
SHUFFLES = 60_000  # 500 expected per permutation, 12000 per card-position cell
ALPHA = 0.001


def chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for chi-square with k degrees of freedom: the regularised upper incomplete
    gamma Q(k/2, x/2), by its series below a + 1 and its continued fraction above (Numerical
    Recipes, gammp/gammq)."""
    a, x = k / 2, x / 2
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1 - total * math.exp(log_front)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


# Critical values from the standard chi-square table (e.g. NIST/SEMATECH e-Handbook of
# Statistical Methods, 1.3.6.7.4): (degrees of freedom, upper-tail probability, value).
TABLE = [(16, 0.05, 26.296), (16, 0.01, 32.000), (16, 0.001, 39.252), (100, 0.001, 149.449)]


@pytest.mark.parametrize(("k", "p", "value"), TABLE)
def test_chi2_sf_matches_the_published_table(k: int, p: float, value: float) -> None:
    assert chi2_sf(value, k) == pytest.approx(p, rel=2e-3)


def honest(source: fairness.RandomSource, items: tuple[str, ...]) -> list[str]:
    return source.shuffle(items, "deal/1")


def modulo_biased(source: fairness.RandomSource, items: tuple[str, ...]) -> list[str]:
    # Mask, then fold the overflow back with % instead of rejecting it: the bias rejection avoids.
    stream = fairness._Stream(source._key, "deal/1")
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        j = (stream.u32() & ((1 << (n - 1).bit_length()) - 1)) % n
        out[i], out[j] = out[j], out[i]
    return out


def naive_swap(source: fairness.RandomSource, items: tuple[str, ...]) -> list[str]:
    # The classic mistake: swap each position with any position (n**n paths onto n! orders).
    stream = fairness._Stream(source._key, "deal/1")
    out = list(items)
    for i in range(len(out) - 1, -1, -1):
        j = stream.below(len(out))
        out[i], out[j] = out[j], out[i]
    return out


Shuffler = Callable[[fairness.RandomSource, tuple[str, ...]], list[str]]


def shuffles(shuffle: Shuffler) -> list[tuple[str, ...]]:
    return [
        tuple(shuffle(fairness.RandomSource(i.to_bytes(32, "big"), "jakaro", "chi-square"), ITEMS))
        for i in range(SHUFFLES)
    ]


def card_position_p(results: list[tuple[str, ...]]) -> float:
    """p-value of the card-by-position table; (5 - 1) * (5 - 1) = 16 degrees of freedom, since
    every row and every column sums to the number of shuffles."""
    counts = Counter((card, pos) for r in results for pos, card in enumerate(r))
    expected = len(results) / len(ITEMS)
    stat = sum((counts[(c, p)] - expected) ** 2 / expected for c in ITEMS for p in range(5))
    return chi2_sf(stat, (len(ITEMS) - 1) ** 2)


def permutation_p(results: list[tuple[str, ...]]) -> float:
    """p-value of the counts of all 120 orders; 119 degrees of freedom."""
    counts = Counter(results)
    orders = list(permutations(ITEMS))
    expected = len(results) / len(orders)
    stat = sum((counts[o] - expected) ** 2 / expected for o in orders)
    return chi2_sf(stat, len(orders) - 1)


@pytest.fixture(scope="module")
def honest_results() -> list[tuple[str, ...]]:
    return shuffles(honest)


def test_card_by_position_counts_do_not_reject_uniformity(honest_results) -> None:
    assert sorted(honest_results[0]) == sorted(ITEMS)
    assert card_position_p(honest_results) > ALPHA


def test_all_120_orders_are_equally_likely(honest_results) -> None:
    assert len(set(honest_results)) == 120
    assert permutation_p(honest_results) > ALPHA


@pytest.mark.parametrize("broken", [modulo_biased, naive_swap])
def test_the_check_rejects_a_biased_shuffle(broken: Shuffler) -> None:
    results = shuffles(broken)
    assert all(sorted(r) == sorted(ITEMS) for r in results)  # still permutations, yet unfair
    assert card_position_p(results) < ALPHA
    assert permutation_p(results) < ALPHA


@pytest.mark.parametrize("n", [3, 5, 6, 7, 52])
def test_below_n_is_uniform(n: int) -> None:
    source = fairness.RandomSource(bytes(32), "hand", "chi-square-below")
    draws = 400 * n
    counts = Counter(source.below(n, f"burn/{i}") for i in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    stat = sum((counts[v] - expected) ** 2 / expected for v in range(n))
    assert chi2_sf(stat, n - 1) > ALPHA
