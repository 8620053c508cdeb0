"""The one percentile helper every bench uses (nearest rank, so a reported p99 is a real sample)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-quantile (0 < q <= 1) of ``values``; ValueError when empty."""
    if not values:
        raise ValueError("no values")
    if not 0 < q <= 1:
        raise ValueError("q is in (0, 1]")
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]
