"""static/js/melds.js, the browser's copy of games/hand/melds.py, against melds.py under Node.

The cases are made afresh from melds.py at each run (make_meld_cases.py, about 0.3 s) rather
than kept in a file: melds.py is the truth, so its answers of today are the expectations, and a
rule change cannot leave a stale file that still passes. The seed is fixed, so a failure names
the same cases on every machine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from . import make_meld_cases

ROOT = Path(__file__).resolve().parents[2]
NODE_TESTS = Path(__file__).with_name("melds.test.mjs")


def test_the_cases_are_the_same_at_every_run() -> None:
    assert make_meld_cases.generate() == make_meld_cases.generate()


def test_node_gives_melds_py_answer_on_every_generated_case(tmp_path: Path) -> None:
    node = shutil.which("node")
    # No skip: an easy Hand table offers only what this copy accepts, and only Node can run it.
    assert node, "node (v20 or newer) is needed to test static/js/melds.js"
    cases = tmp_path / "meld_cases.json"
    count = make_meld_cases.write(cases)
    assert count >= 2000
    out = subprocess.run(
        [node, "--test", str(NODE_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SAHRAT_MELD_CASES": str(cases)},
    )
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", out.stdout, re.M)
    failed = re.search(r"^# fail (\d+)$", out.stdout, re.M)
    assert passed and int(passed.group(1)) >= 6 and failed and failed.group(1) == "0"
