"""Fixtures shared by every layer of tests: real Daphne, a real Celery worker, headless Chromium.

Services are real (PostgreSQL, Redis) and are chosen by `make test` through DATABASE_URL and
REDIS_URL. Servers started here run as subprocesses against the *test* database, so tests that
use them need committed data (`transactional_db`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.processes import free_port, stop, wait_port

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"


def _subprocess_env() -> dict[str, str]:
    """The environment for a server process: the same settings, pointed at the test database."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "sahrat_site.settings"
    if db["ENGINE"].endswith("postgresql"):
        user, password = db.get("USER") or "", db.get("PASSWORD") or ""
        auth = f"{user}:{password}@" if password else f"{user}@" if user else ""
        host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
        env["DATABASE_URL"] = f"postgres://{auth}{host}:{port}/{db['NAME']}"
    return env


def launch_chromium(pw):
    """Debian's /usr/bin/chromium, headless, through Playwright (never a browser download); the
    flags keep it off this machine's closed network."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    return pw.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    )


@contextmanager
def _server(name: str, *args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen]:
    """Run ``python -m <args>`` against the test database, logging to test-artifacts/<name>.log;
    ``env`` adds variables (shorter clocks, say) to the server's environment."""
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"{name}.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT,
            env={**_subprocess_env(), **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            yield proc
        finally:
            stop(proc)


@pytest.fixture(scope="session")
def daphne_server(django_db_setup) -> Iterator[str]:
    """A real Daphne serving the ASGI app on a free port; yields its base URL."""
    port = free_port()
    app = "sahrat_site.asgi:application"
    with _server("daphne", "daphne", "-b", "127.0.0.1", "-p", str(port), app) as proc:
        wait_port(port, proc, "Daphne")
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup) -> Iterator[subprocess.Popen]:
    """A real Celery worker on the test broker (REDIS_URL), run as its own process."""
    worker = ["celery", "-A", "sahrat_site", "worker", "--pool=solo", "--loglevel=INFO"]
    quiet = ["--without-gossip", "--without-mingle", "-n", f"test-{os.getpid()}@%h"]
    with _server("celery-worker", *worker, *quiet) as proc:
        yield proc


@pytest.fixture
def browser_page():
    """A fresh headless Chromium page (Debian's /usr/bin/chromium, driven by Playwright)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ar")
        page = context.new_page()
        try:
            yield page
        finally:
            context.close()
            browser.close()


@pytest.fixture(scope="session", autouse=True)
def _forget_sockets_of_earlier_runs() -> None:
    """Each run's test database numbers its users from 1 again, so per-account socket counts a
    previous run left in the test Redis (its Daphne was stopped with sockets open) would count
    against this run's users of the same number."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        for key in client.scan_iter(match="*:sockets:*"):
            client.delete(key)
    finally:
        client.close()


# The countdown tasks that services called in the test process queue go to a queue no worker
# takes. Otherwise the session's Celery worker (started for tests/platform) would play them
# against the test database while later tests run, and a test's closing TRUNCATE deadlocked with
# such a task. Tests that want timers played start a worker on a queue of their own
# (tests/tables/test_timers.py); servers the tests start keep their own settings.
UNTAKEN_QUEUE = f"tests-untaken-{os.getpid()}"


@pytest.fixture(autouse=True)
def _timers_stay_queued(settings) -> None:
    settings.TABLES_QUEUE = UNTAKEN_QUEUE


@pytest.fixture(scope="session", autouse=True)
def _drop_the_untaken_queue() -> Iterator[None]:
    yield
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.delete(UNTAKEN_QUEUE)
    finally:
        client.close()


@pytest.fixture(autouse=True)
def _fresh_database_pool_after_an_async_test(request) -> Iterator[None]:
    """Each async test runs on an event loop of its own, whose executor threads die with it.
    A thread that dies holding one of psycopg's pooled connections (a call still under way when
    the loop closed) never gives it back, so after a dozen socket tests the test process's pool
    (DB_POOL_MAX_SIZE) was empty and the next test waited 10 s for a PoolTimeout. A server
    process keeps one loop and its threads for its whole life; only the test process makes and
    drops loops, so it starts each async test's successor with a fresh pool."""
    yield
    import inspect

    if not inspect.iscoroutinefunction(getattr(request.node, "obj", None)):
        return
    from django.db import connections

    connections.close_all()
    for conn in connections.all(initialized_only=True):
        if hasattr(conn, "close_pool"):
            conn.close_pool()
