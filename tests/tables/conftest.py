"""Fixtures of the live-table tests: players, a table's creator, and short clocks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.conftest import ARTIFACTS, _server, launch_chromium
from tests.support.processes import free_port, wait_port


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


# ------------------------------------------------------------------------------ browser tests
# A real Daphne and a real Celery worker with beat, both with short clocks, for the tests that
# play through the pages (tests/tables/test_browser_tables.py). Their own processes, so the
# clocks can be shortened through the environment the settings read.

LIVE_CLOCKS = {
    "BOT_DELAY": "0.1",  # a bot answers at once (its move is a Celery countdown task)
    "SERVER_STEP_DELAY": "0.3",  # Hand's next deal
    "SWEEP_S": "0.5",  # the beat sweeper's safety net
    "SEAT_KEEP_SECONDS": "60",
    # People never time out here: a slow, loaded machine must not play a browser's turn for it.
    "TURN_SECONDS_OVERRIDE": "300",
    "WS_RATE_PER_S": "50",
    "WS_RATE_BURST": "100",
}


@contextmanager
def live_servers(clocks: dict[str, str], name: str = "live") -> Iterator[str]:
    """Daphne + a Celery worker running beat (-B), on the test database, with ``clocks`` in
    their environment; yields Daphne's base URL."""
    port = free_port()
    app = "sahrat_site.asgi:application"
    schedule = ARTIFACTS / f"celerybeat-schedule-{name}-{os.getpid()}"
    worker = [
        "celery",
        "-A",
        "sahrat_site",
        "worker",
        "-B",
        "-s",
        str(schedule),
        "--pool=solo",
        "--loglevel=INFO",
        "--without-gossip",
        "--without-mingle",
        "-n",
        f"pages-{name}-{os.getpid()}@%h",
    ]
    daphne = ["daphne", "-b", "127.0.0.1", "-p", str(port), app]
    with (
        _server(f"{name}-daphne", *daphne, env=clocks) as server,
        _server(f"{name}-celery", *worker, env=clocks),
    ):
        wait_port(port, server, "Daphne")
        yield f"http://127.0.0.1:{port}"
    for leftover in ARTIFACTS.glob(f"celerybeat-schedule-{name}-{os.getpid()}*"):
        leftover.unlink()


@pytest.fixture(scope="module")
def live_site(django_db_setup) -> Iterator[str]:
    """Daphne + a Celery worker running beat (-B), on the test database, with LIVE_CLOCKS;
    yields Daphne's base URL. Module-scoped: its beat's sweeper plays every overdue match in the
    test database, which must not happen behind the backs of other modules' tests."""
    with live_servers(LIVE_CLOCKS) as base:
        yield base


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium (Debian's /usr/bin/chromium) for the table tests; each test opens
    its own contexts (one per player)."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the tests' own ORM calls (and the
    # database flush after each) are plain sync code that never runs on that loop.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            yield browser
        finally:
            browser.close()
            if before is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before
