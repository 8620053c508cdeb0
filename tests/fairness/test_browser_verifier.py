"""static/verify/fairness.js, the Verify page's own implementation, run under Node's test runner."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "verify" / "fairness.js"
NODE_TESTS = Path(__file__).with_name("fairness.test.mjs")


def test_node_runs_the_vector_mismatch_one_bit_and_bad_input_tests() -> None:
    node = shutil.which("node")
    # No skip: the browser verifier is a deliverable, and only Node can check it here.
    assert node, "node (v20 or newer) is needed to test static/verify/fairness.js"
    out = subprocess.run(
        [node, "--test", str(NODE_TESTS)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", out.stdout, re.M)
    failed = re.search(r"^# fail (\d+)$", out.stdout, re.M)
    assert passed and int(passed.group(1)) >= 10 and failed and failed.group(1) == "0"


def test_the_browser_verifier_has_no_imports_and_no_network() -> None:
    source = JS.read_text()
    assert not re.search(r"^\s*import\b|\brequire\(|\bfetch\(|XMLHttpRequest", source, re.M)
    assert "crypto" in source and "subtle" in source
