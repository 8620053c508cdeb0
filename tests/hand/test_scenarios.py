"""The Hand scenario files all pass through the shared runner."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games import scenarios

ROOT = Path(__file__).resolve().parents[2]


def test_hand_scenarios_pass(capsys) -> None:
    code = scenarios.main([str(ROOT / "tests" / "scenarios" / "hand")])
    out = capsys.readouterr().out
    m = re.search(r"(\d+) passed, (\d+) failed", out.splitlines()[-1])
    assert m, out
    passed, failed = int(m.group(1)), int(m.group(2))
    assert failed == 0, out
    assert passed >= 40
    assert code == 0


def test_a_wrong_expectation_fails(tmp_path) -> None:
    # The runner and adapter really check: a scenario with a false expectation fails.
    data = json.loads(
        (ROOT / "tests" / "scenarios" / "hand" / "going_out_by_throw.json").read_text()
    )
    data["expect"]["round_scores"] = [-30, 103]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert scenarios.run_file(bad)
