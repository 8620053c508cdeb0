"""Screenshots of the browser tests, taken only where they are wanted: the pictures the README
shows (refreshed from test-artifacts/), and every other one when SAHRAT_SCREENSHOTS=1 (a
reviewer's look at each screen). A full-page picture costs a browser a render and an encode,
and the suite used to take some fifty of them that nobody looked at."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# The test-artifacts/ pictures that docs/img/ (the README's) is made from.
README_PICTURES = frozenset(
    {
        "home-ar.png",
        "jakaro-board-ar.png",
        "jakaro-phone-ar.png",
        "jakaro-landscape-ar.png",
        "hand-table-phone-ar.png",
        "hand-table-landscape-ar.png",
    }
)


def wanted(name: str) -> bool:
    return name in README_PICTURES or os.environ.get("SAHRAT_SCREENSHOTS") == "1"


def screenshot(target: Any, name: str, **options: Any) -> None:
    """A picture of ``target`` (a Playwright page or locator) as test-artifacts/``name``, when
    it is wanted (see above); ``options`` are Playwright's (full_page, clip...)."""
    if not wanted(name):
        return
    ARTIFACTS.mkdir(exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / name), **options)
