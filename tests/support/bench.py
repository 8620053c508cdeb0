"""Running a bench the way a developer does, for the tests that check it runs end to end:
``run_bench("bench.standing", "--quick")`` starts ``python -m bench.standing --quick`` on the
test database and returns the figures of the JSON line it ends with."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from tests.conftest import ROOT, _subprocess_env


def run_bench(module: str, *args: str, timeout: int = 300) -> dict[str, Any]:
    """The bench's figures; AssertionError (with its error output) if it failed."""
    run = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=_subprocess_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])
