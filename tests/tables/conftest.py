"""Fixtures of the live-table tests: players, a table's creator, and short clocks."""

from __future__ import annotations

import pytest

# The live site's clocks are the session's (tests/conftest.py); the board and reconnect tests
# import them from here.
from tests.conftest import LIVE_CLOCKS  # noqa: F401


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(
            f"player{i}", password="x-Long-pass-123", display_name=f"لاعب {i}"
        )
        for i in range(6)
    ]


@pytest.fixture
def creator(django_user_model):
    return django_user_model.objects.create_user(
        "host", password="x-Long-pass-123", display_name="المضيف"
    )


@pytest.fixture
def fast_clocks(settings):
    """Bots and the server's own steps are due at once; humans keep their turn time."""
    settings.BOT_DELAY = 0
    settings.SERVER_STEP_DELAY = 0
    return settings
