"""bench.presence runs end to end and prints its figures (not its speed: tests never judge
wall-clock time): every change reaches exactly the friends who may see the player, and nobody
else (no leak to a hidden or blocked player's socket)."""

from __future__ import annotations

import pytest

from tests.support.bench import run_bench

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_presence_bench_delivers_to_friends_only():
    figures = run_bench("bench.presence", "--players", "120", "--changes", "30")
    assert figures["leaks"] == 0
    assert 0 < figures["sent_per_change_max"] <= figures["friends_each"]
    assert figures["memberships"] > 100 * 15  # most of the 120 see most of their 20 friends
