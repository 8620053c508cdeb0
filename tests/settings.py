"""The settings the test process loads (pyproject's DJANGO_SETTINGS_MODULE): the site's own, with
each pytest-xdist worker on a Redis database of its own, and commits that do not wait for the disk.

pytest-django gives each worker its own PostgreSQL database (test_<name>_gw0, _gw1, ...), but the
site reads one REDIS_URL at import for the channel layer, the Celery broker and its own keys (the
sockets counted per account, the heartbeat). Two workers sharing it would count each other's
sockets for their users of the same number, and one worker's Celery would take the other's
tasks. So worker ``gwK`` uses database ``N + K`` of the Redis that REDIS_URL names (``/9``: gw0
on 9, gw1 on 10), and a channel prefix of its own (CHANNEL_PREFIX ``sahrat-gwK``: pub/sub knows
no databases). Both are set in the environment before the site's settings are read, so the
servers a worker starts (tests/conftest.py ``_subprocess_env``) inherit them. A run without
xdist keeps REDIS_URL and CHANNEL_PREFIX as they are.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # Redis's default `databases`


def redis_url_for_worker(url: str, worker: str) -> str:
    """``url`` with its database number moved up by the worker's index (``gw1``: +1)."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    number = base + int(worker.removeprefix("gw"))
    if number >= REDIS_DATABASES:
        raise RuntimeError(
            f"REDIS_URL {url} leaves no Redis database for xdist worker {worker} (it would be "
            f"/{number}; Redis has {REDIS_DATABASES}): give the run a lower database number"
        )
    return urlunsplit(parts._replace(path=f"/{number}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker:
    os.environ["REDIS_URL"] = redis_url_for_worker(
        os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), _worker
    )
    # The channel layer is pub/sub, and Redis's PUBLISH reaches every subscriber whatever
    # database it selected: the database number parts the workers' keys but not their groups.
    # Both workers number their users from 1, so a "user.3" or "presence.3" message of one
    # reached the other's sockets of user 3 (the presence bench counted two such changes as 40
    # leaks). A prefix of each worker's own parts them.
    os.environ["CHANNEL_PREFIX"] = f"{os.environ.get('CHANNEL_PREFIX', 'sahrat')}-{_worker}"

# The suite commits thousands of small transactions (every move of every match it plays, the
# flush after each transactional test); waiting for each one's WAL flush to reach the disk was a
# good part of its time. Without it a commit is as visible to every other connection as before;
# only a crash of the PostgreSQL server could lose the last few, which a test database can
# afford. libpq reads PGOPTIONS when it connects, so the servers the tests start inherit it.
if "synchronous_commit" not in os.environ.get("PGOPTIONS", ""):
    os.environ["PGOPTIONS"] = f"{os.environ.get('PGOPTIONS', '')} -c synchronous_commit=off".strip()

# Watchers see a rated or coin table as it is, not WATCH_DELAY_S late: the suite's many
# watchers would otherwise wait it out at every step. The tests of the delay set it themselves
# (tests/social/test_watching.py). The servers the tests start inherit it.
os.environ.setdefault("WATCH_DELAY_S", "0")

from sahrat_site.settings import *  # noqa: E402, F403

# The flush after each transactional test (one TRUNCATE of every table) can deadlock with a live
# site's own query that takes two tables (its beat sweeper's, every half second). PostgreSQL
# aborts the side that finds the deadlock, the first to have waited deadlock_timeout: the test
# process's own connections wait longer (the site's keep the default 1 s), so it is the site's
# query that gives way (its sweeper runs again) and never the flush, which failed a test's
# teardown. Only this process's connections: the servers it starts read PGOPTIONS alone.
if DATABASES["default"]["ENGINE"].endswith("postgresql"):  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = (  # noqa: F405
        f"{os.environ['PGOPTIONS']} -c deadlock_timeout=10s"
    )
    # The flush after each transactional test: DELETE under TRUNCATE's locks, not TRUNCATE
    # (tests/support/postgres/base.py says why).
    DATABASES["default"]["ENGINE"] = "tests.support.postgres"  # noqa: F405
