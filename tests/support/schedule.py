"""How `make test` hands tests to its pytest-xdist workers (``--dist load`` with this scheduler).

The suite is bound by the machine's two cores, and a handful of browser tests take 10-50 s each:
handed out a file at a time (xdist's loadfile), one worker was left alone at the end with the last
long file (tests/tables/test_jakaro_board_browser.py, 18 tests, over a minute) while the others
had finished. So the unit of work is one test, longest first (by the durations a run measured,
tests/durations.json), and a file stays one unit only where its tests share a fixture wider than
a test (a module's), which would otherwise be built again on each worker.

The order of phases the suite always had holds on each worker: its plain tests, then those that
use a browser (once Chromium runs, Playwright's loop is marked running in the worker's thread and
DJANGO_ALLOW_ASYNC_UNSAFE is set, which a plain test must not run under: its database connection
would not be the one its transaction is in, and a sync ORM call in async code would pass), then
those that use the live site (a Daphne and a Celery worker with beat whose sweeper plays every
overdue match in the worker's test database: tests/conftest.py ``live_site``), whose sweeper
must not play another test's match. A worker never goes back to an earlier phase. The live
tests are the longest ones, so they should not wait for the end of the run: the first worker to
ask starts on them at once; each other worker moves on to a later phase when the run's end as
the phases allow it (the work of each phase and those before it, over the workers that can
still take it) comes sooner, or when nothing is left in its own.

The workers know each test's fixtures, the scheduler (in the controlling process) only its id:
each worker writes the plan (each test's unit, its rank of the three, its expected seconds) to
the file SAHRAT_TEST_PLAN names, which the controlling process chose before the workers
started; they all collect the same tests, so they write the same plan.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

DURATIONS = Path(__file__).resolve().parent.parent / "durations.json"
PLAN_VAR = "SAHRAT_TEST_PLAN"
# A test tests/durations.json does not know yet: most are quick, a browser test is not.
DEFAULT_SECONDS = (0.2, 2.0, 3.0)  # by rank: plain, browser only, live site


def expected_seconds() -> dict[str, float]:
    """Each test's seconds (setup, call and teardown) as a measured run found them."""
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


def _shared_beyond_a_test(item: pytest.Item) -> bool:
    """Whether the test uses a fixture that lives for its module, class or package."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(
        defs[-1].scope in ("module", "class", "package")
        for defs in info.name2fixturedefs.values()
        if defs
    )


def write_plan(items: list[pytest.Item], rank_of: dict[str, int]) -> None:
    """On a worker: write each test's unit, rank and seconds to the plan's file."""
    path = os.environ.get(PLAN_VAR)
    if not path or not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    seconds = expected_seconds()
    whole_files = {str(item.path) for item in items if _shared_beyond_a_test(item)}
    plan = {}
    for item in items:
        rank = rank_of[str(item.path)]
        unit = item.nodeid.split("::")[0] if str(item.path) in whole_files else item.nodeid
        plan[item.nodeid] = [unit, rank, seconds.get(item.nodeid, DEFAULT_SECONDS[rank])]
    tmp = Path(f"{path}.{os.environ['PYTEST_XDIST_WORKER']}")
    tmp.write_text(json.dumps(plan))
    tmp.replace(path)


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class LongestFirst(LoadScopeScheduling):
        """xdist's scope scheduling with the units above, chosen as the module says."""

        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self.unit_of: dict[str, str] = {}
            self.rank: dict[str, int] = {}
            self.seconds: dict[str, float] = {}
            self.phase: dict[Any, int] = {}
            self._sorted = False

        def _split_scope(self, nodeid: str) -> str:
            return self.unit_of.get(nodeid, nodeid.split("::")[0])

        def schedule(self) -> None:
            if self.collection is None and self.collection_is_completed:
                plan = json.loads(Path(os.environ[PLAN_VAR]).read_text())
                for nodeid, (unit, rank, seconds) in plan.items():
                    self.unit_of[nodeid] = unit
                    self.rank[unit] = rank
                    self.seconds[unit] = self.seconds.get(unit, 0.0) + seconds
            super().schedule()

        def _bound(self, phases: list[int], left: list[float]) -> float:
            """The run's end as far as the phases allow (the work of ranks up to k falls to the
            workers still at phase k or before), in seconds from now."""
            worst = 0.0
            for k in range(len(left)):
                work, hands = sum(left[: k + 1]), sum(1 for p in phases if p <= k)
                worst = max(worst, work / hands if hands else float("inf") if work else 0.0)
            return worst

        def _next_unit(self, node: Any) -> str | None:
            """The longest unit this node may take next, moving it to a later phase when that
            ends the run sooner, or when it is the first to start the live site."""
            if not self._sorted:  # once, after xdist filled the queue in collection order
                self._sorted = True
                order = sorted(self.workqueue.items(), key=lambda kv: -self.seconds[kv[0]])
                self.workqueue = OrderedDict(order)
            head: dict[int, str] = {}
            left = [0.0, 0.0, 0.0]
            for unit in self.workqueue:
                head.setdefault(self.rank[unit], unit)
                left[self.rank[unit]] += self.seconds[unit]
            now = self.phase.get(node, 0)
            choices = [q for q in (0, 1, 2) if q >= now and q in head]
            if not choices:
                return None
            others = [self.phase.get(n, 0) for n in self.nodes if n is not node]
            if 2 in choices and 2 not in others and self.phase.get(node) != 2 and others:
                chosen = 2  # the live tests are the longest: one worker starts on them at once
            else:
                chosen = min(choices, key=lambda q: (self._bound([*others, q], left), q))
            self.phase[node] = chosen
            return head[chosen]

        def _assign_work_unit(self, node: Any) -> None:
            unit = self._next_unit(node)
            if unit is None:
                node.shutdown()
                return
            work = self.workqueue.pop(unit)
            self.assigned_work.setdefault(node, {})[unit] = work
            collection = self.registered_collections[node]
            node.send_runtest_some([collection.index(i) for i, done in work.items() if not done])

        def _reschedule(self, node: Any) -> None:
            """One unit ahead at most (xdist's own hands out the next when two tests are left,
            so a worker could sit on a long test it will not start before the others finish)."""
            if node.shutting_down:
                return
            if not self.workqueue:
                node.shutdown()
                return
            if self._pending_of(self.assigned_work[node]) > 1:
                return
            self._assign_work_unit(node)

    return LongestFirst(config, log)
