"""bench/verify.py's output contract (not its speed: tests never judge wall-clock time), and the
match it builds: a four-player Hand match whose re-shuffles the browser's code rebuilds."""

from __future__ import annotations

import json

from bench import verify as bench
from verify import audit


def test_the_match_has_reshuffles_and_verifies_on_the_server() -> None:
    export = bench.hand_match(1)
    kinds = [e["type"] for e in export["events"]]
    assert kinds.count("deal") >= 1 and kinds.count("reshuffle") >= 1
    assert audit.check_export(export) == []


def test_the_last_line_is_json_with_both_figures(capsys) -> None:
    assert bench.main(["--quick"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    for key in ("browser_verify_ms", "server_verify_ms"):
        # A JSON number: a whole number of milliseconds reads back as an int.
        value = figures[key]
        assert isinstance(value, int | float) and not isinstance(value, bool) and value > 0
    assert figures["reshuffles"] > 0 and len(lines) > 1
