"""Fixtures shared by every layer of tests: real Daphne, a real Celery worker, headless Chromium.

Services are real (PostgreSQL, Redis) and are chosen by `make test` through DATABASE_URL and
REDIS_URL. Servers started here run as subprocesses against the *test* database, so tests that
use them need committed data (`transactional_db`).

`make test` runs the suite on two pytest-xdist workers, a file at a time; each worker has its own
test database (pytest-django's _gw0/_gw1 suffix), its own Redis database (tests/settings.py) and
so its own Celery queues, and starts at most one live site and one Chromium for all its files.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.pages import pool_for
from tests.support.processes import free_port, stop, wait_port
from tests.support.schedule import PLAN_VAR, make_scheduler, write_plan

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
# The browser tests' Chromium: Debian's build of Chromium's own headless shell (the same version,
# Blink and V8 as /usr/bin/chromium, without the browser's windows and their WebUI), the one
# Playwright itself runs for headless tests. It drew the same pages for a fifth less CPU: 40
# CPU-s instead of 50 for tests/tables/test_jakaro_board_browser.py, and Chromium is half of
# the suite's CPU. The benches keep the full browser (launch_chromium's default).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
# Under pytest-xdist each worker names its servers' logs apart ("-gw1"); empty in a plain run.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
WORKER_SUFFIX = f"-{WORKER}" if WORKER else ""


def _subprocess_env() -> dict[str, str]:
    """The environment for a server process: the same settings, pointed at the test database."""
    from django.conf import settings
    from django.db import connections

    db = settings.DATABASES["default"]
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "sahrat_site.settings"
    # Served as players get it, not as a developer's `make run`: no SQL query log, no debug
    # pages, static files fresh for WhiteNoise's 60 s instead of asked again on every page
    # load. A test that wants DEBUG sets it.
    env.setdefault("DJANGO_DEBUG", "0")
    if connections["default"].vendor == "postgresql":  # the tests' own backend is one too
        user, password = db.get("USER") or "", db.get("PASSWORD") or ""
        auth = f"{user}:{password}@" if password else f"{user}@" if user else ""
        host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
        env["DATABASE_URL"] = f"postgres://{auth}{host}:{port}/{db['NAME']}"
    return env


# Chromium's own address bar popup, a WebUI page of some 400 modules that the new headless mode
# builds in a renderer of its own for every window, so for every context a test opens: a third
# of the browser tests' renderer CPU and a fifth of their whole CPU (traced: 820 of the 870
# requests one two-player test made were chrome://resources and chrome://omnibox-popup).
# Tests never use the address bar.
UNUSED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def disabled_features() -> list[str]:
    """Playwright's own --disable-features list with ours added: Chromium keeps only the last
    --disable-features it is given, so ours alone would turn Playwright's back on (the
    optimisation-hint downloads, paint holding...). Read from the installed Playwright's
    chromiumSwitches, as it has no API for it."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
    found = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(), re.S)
    if not found:
        pytest.fail(f"Playwright's disabledFeatures list is no longer in {bundle}: see conftest")
    theirs = re.findall(r'^\s*"(\w+)"', found.group(1), re.M)
    return [*theirs, *UNUSED_FEATURES]


def launch_chromium(pw, executable: str = CHROMIUM):
    """Debian's Chromium (``executable``), headless, through Playwright (never a browser
    download); the flags keep it off this machine's closed network."""
    if not Path(executable).exists():
        pytest.fail(f"{executable} is missing: `make test` installs it (Debian's package)")
    return pw.chromium.launch(
        executable_path=executable,
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--disable-features={','.join(disabled_features())}",
        ],
    )


@contextmanager
def _server(name: str, *args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen]:
    """Run ``python -m <args>`` against the test database, logging to test-artifacts/<name>.log;
    ``env`` adds variables (shorter clocks, say) to the server's environment."""
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"{name}{WORKER_SUFFIX}.log", "w") as log:
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
def browser_page(chromium):
    """A page of the session's Chromium, phone-sized and in Arabic, as a fresh context would
    show it (no cookies, no storage): kept from an earlier test when one is free
    (tests/support/pages.py)."""
    context, page = pool_for(chromium).open_page(
        "", viewport={"width": 390, "height": 844}, locale="ar"
    )
    try:
        yield page
    finally:
        context.close()  # kept for another test, blank and forgetting this one


# ------------------------------------------------------------------------------ the live site
# A real Daphne and a real Celery worker with beat, both with short clocks, for the tests that
# play through the pages. Their own processes, so the clocks can be shortened through the
# environment the settings read. One per session (per xdist worker, on that worker's database
# and Redis); tests that stop, kill or re-clock their servers start their own (live_servers).

LIVE_CLOCKS = {
    # A bot answers at once (its move is still a Celery countdown task): a whole match through a
    # page waited 0.1 s a bot move, a good part of a browser match's time.
    "BOT_DELAY": "0.01",
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
    their environment; yields Daphne's base URL. The site's timers (bots, time-outs, the
    sweeper) go to a queue of its own that only its worker takes: another worker on the same
    broker (the session's plain one, with the default clocks) never plays them."""
    clocks = {"TABLES_QUEUE": f"{name}-tables-{os.getpid()}", **clocks}
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
        "-Q",
        f"celery,{clocks['TABLES_QUEUE']}",
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
        _server(f"{name}-celery", *worker, env=clocks) as celery,
    ):
        wait_port(port, server, "Daphne")
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            # Both asked to stop at once (each takes a second or two), then waited for.
            for proc in (celery, server):
                proc.terminate()
    for leftover in ARTIFACTS.glob(f"celerybeat-schedule-{name}-{os.getpid()}*"):
        leftover.unlink()


# The fixtures a test names to get the live site or a browser; pytest_collection_modifyitems
# runs the files that use them last (see there).
LIVE_FIXTURES = ("live_site",)
BROWSER_FIXTURES = ("chromium", "browser_page")


@pytest.fixture(scope="session")
def live_site(django_db_setup) -> Iterator[str]:
    """Daphne + a Celery worker running beat (-B), on the test database, with LIVE_CLOCKS;
    yields Daphne's base URL. Its beat's sweeper plays every overdue match in the test database,
    which must not happen behind the backs of other tests: the files that use it run after all
    the others (pytest_collection_modifyitems), so once it starts only its own users follow."""
    with live_servers(LIVE_CLOCKS) as base:
        yield base


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium (Debian's chromium-headless-shell) for the session; each test opens its
    own contexts (one per player), which share nothing (cookies, storage) with other tests'."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the tests' own ORM calls (and the
    # database flush after each) are plain sync code that never runs on that loop.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as pw:
        browser = launch_chromium(pw, HEADLESS_SHELL)
        try:
            yield browser
        finally:
            pool_for(browser).close()
            browser.close()
            if before is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


def _order_key(item: pytest.Item) -> int:
    names = set(getattr(item, "fixturenames", ()))
    if names & set(LIVE_FIXTURES):
        return 2
    if names & set(BROWSER_FIXTURES):
        return 1
    return 0


def pytest_configure(config: pytest.Config) -> None:
    # The controlling process of an xdist run names the file its workers write the plan to
    # (tests/support/schedule.py), before it starts them: they inherit its environment.
    if not hasattr(config, "workerinput") and config.getoption("dist", "no") == "load":
        ARTIFACTS.mkdir(exist_ok=True)
        os.environ[PLAN_VAR] = str(ARTIFACTS / f"test-plan-{os.getpid()}.json")
    if os.environ.get("SAHRAT_STORE_DURATIONS"):  # tests/support/durations.py
        from tests.support import durations

        config.pluginmanager.register(durations, "sahrat-durations")


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and (plan := os.environ.pop(PLAN_VAR, None)):
        for path in Path(plan).parent.glob(Path(plan).name + "*"):
            path.unlink()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """--dist load: one test at a time, longest first, the live site's rule kept
    (tests/support/schedule.py)."""
    if config.getvalue("dist") != "load":
        return None
    return make_scheduler(config, log)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items) -> None:
    """Files that use the session's live site run last, and those that use only a browser just
    before them; each file's tests stay together and in order. So in a run in one process the
    live site's beat sweeper, once started, never plays the matches of a test that did not ask
    for it, and servers a browser test starts for itself (other clocks, the same database) never
    run beside it. Under `make test` the scheduler keeps the same rule on each worker and
    chooses the order itself (tests/support/schedule.py), from the plan written here."""
    rank: dict[str, int] = {}
    size: dict[str, int] = {}
    for item in items:
        path = str(item.path)
        rank[path] = max(rank.get(path, 0), _order_key(item))
        size[path] = size.get(path, 0) + 1
    order = {id(item): i for i, item in enumerate(items)}
    first = {}
    for item in items:
        first.setdefault(str(item.path), order[id(item)])
    items.sort(
        key=lambda item: (
            rank[str(item.path)],
            -size[str(item.path)],
            first[str(item.path)],
            order[id(item)],
        )
    )
    write_plan(items, rank)


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
def _no_playwright_loop_outside_the_browser_tests(request) -> Iterator[None]:
    """Playwright's sync API (the session's Chromium) leaves its event loop marked as running in
    this thread between calls: pytest-asyncio refuses to start a test's loop inside it, and so
    do async_to_sync (a broadcast after commit, the health check) and another sync_playwright
    (the Verify bench). A test that asks for no browser never touches the session's, so it runs
    with the mark lifted, and the mark is put back for the browser tests after it."""
    import asyncio

    if set(request.fixturenames) & set(BROWSER_FIXTURES):
        yield
        return
    playwright_loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(playwright_loop)


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
