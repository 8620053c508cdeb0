"""Small helpers of the Verify tests."""

from __future__ import annotations

import copy
import json
from typing import Any


def tampered(export: dict[str, Any], how: str) -> dict[str, Any]:
    """The export with one thing changed, as a dishonest server or a forger would."""
    x = copy.deepcopy(export)
    if how == "card":
        # One card changed in the first recorded deal: swap it for a card of another position.
        deal = next(e for e in x["events"] if e["type"] == "deal")
        first = deal["result"][0]
        other = next(c for c in deal["result"] if c != first)
        deal["result"][0] = other
    elif how == "secret":
        last = x["secret"][-1]
        x["secret"] = x["secret"][:-1] + ("0" if last != "0" else "1")
    elif how == "seed":
        x["seeds"][0]["seed"] = "f" * 32 if x["seeds"][0]["seed"] != "f" * 32 else "e" * 32
    elif how == "seed_time":
        x["seeds"][0]["at"] = "2000-01-01T00:00:00+00:00"
    else:
        raise ValueError(how)
    return x


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def node_recompute(export: dict[str, Any], tmp_path: Any) -> dict[str, Any]:
    """static/verify/recompute.js (the Verify page's own recomputation, with rebuild.js and
    fairness.js) run under Node on an export: the browser's verdict without a browser."""
    import shutil
    import subprocess

    from tests.conftest import ROOT

    node = shutil.which("node")
    assert node, "node (v20 or newer) is needed to run the Verify page's script"
    path = tmp_path / "export-for-node.json"
    path.write_text(json.dumps(export))
    module = (ROOT / "static" / "verify" / "recompute.js").as_uri()
    script = (
        f"const m = await import({json.dumps(module)});"
        "const fs = await import('node:fs');"
        "const data = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));"
        "console.log(JSON.stringify(await m.recompute(data)));"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
