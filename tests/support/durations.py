"""Store each test's measured seconds for the scheduler (opt-in).

``SAHRAT_STORE_DURATIONS=1 make test`` (tests/conftest.py registers this plugin) ends by writing
tests/durations.json: each test's setup, call and teardown seconds added up, for the tests that
took half a second or more (the scheduler takes a default for the others:
tests/support/schedule.py). Under xdist the
controlling process sees every worker's reports, so one run writes the whole file. The figures
only order the tests (longest first); a stale file makes a run slower, never wrong.
"""

from __future__ import annotations

import json

import pytest

from tests.support.schedule import DURATIONS

_seconds: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _seconds[report.nodeid] = _seconds.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput") or not _seconds:
        return
    kept = {k: round(v, 1) for k, v in sorted(_seconds.items()) if v >= 0.5}
    DURATIONS.write_text(json.dumps(kept, indent=0, ensure_ascii=False) + "\n")
