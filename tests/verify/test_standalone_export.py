"""``sahrat_verify.py --export`` run as a player runs it (a subprocess, from another directory,
standard library only), and with ``--replay`` from the project: a finished match's export
verifies; each tampering (a card of a deal, the secret, a seed, a seed's time) is a mismatch
(exit 1); a malformed export is exit 2 with a message, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.verify.helpers import node_recompute, tampered
from verify import selectors

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT = ROOT / "verify" / "standalone" / "sahrat_verify.py"


def run(path, *extra: str, cwd=None) -> subprocess.CompletedProcess:
    """The script in isolated mode (-I: the project is not importable); --replay is told where
    the checkout is, as a player with a clone would run it."""
    env = {"PATH": "/usr/bin:/bin"}
    if "--replay" in extra:
        env["SAHRAT_CHECKOUT"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), "--export", str(path), *extra],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("game", "options"),
    [("hand", {"players": 2, "variant": "plain", "table": "strict"}), ("jakaro", {"players": 4})],
    ids=str,
)
def test_the_standalone_script_verifies_an_export_and_flags_every_tampering(
    finished, tmp_path, game, options
):
    match = finished(game, options, humans=1)
    export = selectors.match_export(match)
    good = tmp_path / "match.json"
    good.write_text(json.dumps(export))

    alone = run(good, cwd=tmp_path)
    assert alone.returncode == 0, alone.stdout + alone.stderr
    assert "commitment OK" in alone.stdout and "ALL OK" in alone.stdout
    assert f"{len(export['events'])} random events recomputed" in alone.stdout
    replayed = run(good, "--replay", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "replay OK" in replayed.stdout

    # --replay away from a checkout says what it needs.
    outside = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), "--export", str(good), "--replay"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert outside.returncode == 2 and "Sahrat checkout" in outside.stderr

    # The browser's own code (static/verify/recompute.js, under Node here; in Chromium in
    # test_browser_verify.py) agrees with every event.
    browser = node_recompute(export, tmp_path)
    assert browser["allOk"] and browser["count"] == len(export["events"]) > 0
    assert browser["matched"] == browser["count"] and not browser["problems"]

    for how in ("card", "secret", "seed", "seed_time"):
        path = tmp_path / f"{how}.json"
        path.write_text(json.dumps(tampered(export, how)))
        result = run(path, cwd=tmp_path)
        assert result.returncode == 1, (how, result.stdout, result.stderr)
        assert "MISMATCH" in result.stdout
        assert "Traceback" not in result.stderr
        assert not node_recompute(tampered(export, how), tmp_path)["allOk"], how

    # The one thing the standard-library check takes on trust, a re-shuffle's pile or a burned
    # hand, is what --replay checks: a final state changed behind the log is caught there.
    changed = dict(export, final_state=export["final_state"].replace("1", "2", 1))
    path = tmp_path / "state.json"
    path.write_text(json.dumps(changed))
    assert run(path, cwd=tmp_path).returncode == 0
    replayed = run(path, "--replay", cwd=tmp_path)
    assert replayed.returncode == 1 and "replay MISMATCH" in replayed.stdout


def test_a_malformed_export_is_exit_2_with_a_message(tmp_path):
    cases = {
        "not-json.json": "{",
        "list.json": "[]",
        "other.json": json.dumps({"format": "x"}),
        "no-secret.json": json.dumps({"format": "sahrat-match-v1", "game": "hand", "id": "m1"}),
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        result = run(path, cwd=tmp_path)
        assert result.returncode == 2, name
        assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr
    missing = run(tmp_path / "nope.json", cwd=tmp_path)
    assert missing.returncode == 2 and "cannot read" in missing.stderr
