"""How `make test` hands tests to its pytest-xdist workers (``--dist load`` with this scheduler).

The suite is bound by the machine's two cores, and a handful of browser tests take 10-50 s each:
handed out a file at a time (xdist's loadfile), one worker was left alone at the end with the last
long file (tests/tables/test_jakaro_board_browser.py, 18 tests, over a minute) while the others
had finished. So the unit of work is one test, longest first (by the durations a run measured,
tests/durations.json), and a file stays one unit only where its tests share a fixture wider than
a test (a module's), which would otherwise be built again on each worker.

One rule of order holds on each worker: once a worker has started the live site (a Daphne and a
Celery worker with beat whose sweeper plays every overdue match in the worker's test database:
tests/conftest.py ``live_site``), it runs only tests that use the live site, so the sweeper never
plays another test's match. The live tests are the longest ones, so they should not wait for the
end of the run: the first worker to ask starts on them at once, and each other worker joins them
when that finishes the run sooner (the smaller of the two queues' remaining times per worker is
the larger after a move), or when nothing else is left.

The workers know each test's fixtures, the scheduler (in the controlling process) only its id:
each worker writes the plan (each test's unit, whether it uses the live site, its expected
seconds) to the file SAHRAT_TEST_PLAN names, which the controlling process chose before the
workers started; they all collect the same tests, so they write the same plan.
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
    """On a worker: write each test's unit, live flag and seconds to the plan's file."""
    path = os.environ.get(PLAN_VAR)
    if not path or not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    seconds = expected_seconds()
    whole_files = {str(item.path) for item in items if _shared_beyond_a_test(item)}
    plan = {}
    for item in items:
        rank = rank_of[str(item.path)]
        unit = item.nodeid.split("::")[0] if str(item.path) in whole_files else item.nodeid
        plan[item.nodeid] = [unit, rank == 2, seconds.get(item.nodeid, DEFAULT_SECONDS[rank])]
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
            self.live_unit: dict[str, bool] = {}
            self.seconds: dict[str, float] = {}
            self.live_nodes: set[Any] = set()
            self._sorted = False

        def _split_scope(self, nodeid: str) -> str:
            return self.unit_of.get(nodeid, nodeid.split("::")[0])

        def schedule(self) -> None:
            if self.collection is None and self.collection_is_completed:
                plan = json.loads(Path(os.environ[PLAN_VAR]).read_text())
                for nodeid, (unit, live, seconds) in plan.items():
                    self.unit_of[nodeid] = unit
                    self.live_unit[unit] = live
                    self.seconds[unit] = self.seconds.get(unit, 0.0) + seconds
            super().schedule()

        def _remaining(self, live: bool) -> float:
            return sum(self.seconds[u] for u in self.workqueue if self.live_unit[u] == live)

        def _next_unit(self, node: Any) -> str | None:
            """The longest unit this node may take next, deciding here whether it starts the
            live site now: when that leaves the longer of the two queues' remaining seconds
            per worker shorter."""
            if not self._sorted:  # once, after xdist filled the queue in collection order
                self._sorted = True
                order = sorted(self.workqueue.items(), key=lambda kv: -self.seconds[kv[0]])
                self.workqueue = OrderedDict(order)
            plain = next((u for u in self.workqueue if not self.live_unit[u]), None)
            live = next((u for u in self.workqueue if self.live_unit[u]), None)
            if node not in self.live_nodes:
                n_plain = sum(1 for n in self.nodes if n not in self.live_nodes)
                n_live = len(self.live_nodes)
                rem_plain, rem_live = self._remaining(False), self._remaining(True)
                inf = float("inf")
                stay = max(rem_plain / n_plain, rem_live / n_live if n_live else inf)
                left = rem_plain / (n_plain - 1) if n_plain > 1 else inf if plain else 0.0
                move = max(left, rem_live / (n_live + 1))
                if plain is not None and (live is None or stay <= move):
                    return plain
                if live is not None:
                    self.live_nodes.add(node)
            return live

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
