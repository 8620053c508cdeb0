"""A small line chart of a player's last ratings, drawn on the server as SVG points (no chart
library, no CDN): pure arithmetic, the template draws the polyline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

WIDTH, HEIGHT, PAD = 200, 48, 4


def line(values: Sequence[int]) -> dict[str, Any] | None:
    """The polyline ``points`` ("x,y ...") of ``values`` oldest first, scaled into a
    WIDTH x HEIGHT box (higher is up), with the lowest and highest value; None for fewer than
    two values (nothing to draw)."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{PAD + (high - v) * (HEIGHT - 2 * PAD) / span:.1f}"
        for i, v in enumerate(values)
    )
    return {
        "points": points,
        "low": low,
        "high": high,
        "first": values[0],
        "last": values[-1],
        "width": WIDTH,
        "height": HEIGHT,
    }
