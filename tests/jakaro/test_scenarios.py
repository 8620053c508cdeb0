"""The project's Jakaro scenario files all pass through the shared runner."""

from __future__ import annotations

import json
from pathlib import Path

from games import scenarios

DIR = Path(__file__).resolve().parents[1] / "scenarios" / "jakaro"


def test_all_jakaro_scenarios_pass(capsys) -> None:
    code = scenarios.main([str(DIR)])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    passed, failed = (int(part.split()[0]) for part in last.split(", "))
    assert failed == 0, last
    assert passed >= 40
    assert code == 0


def test_a_wrong_expectation_is_caught(tmp_path: Path) -> None:
    # The runner (with our adapter) must be able to fail: change one expected square.
    src = json.loads((DIR / "01_ace_brings_a_marble_out.json").read_text(encoding="utf-8"))
    src["expect"]["marbles"] = {"0": [1, "base", "base", "base"]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(src), encoding="utf-8")
    assert scenarios.run_file(bad) != []
    src["steps"][0]["expect"] = {"refused": "wrong_card"}
    bad.write_text(json.dumps(src), encoding="utf-8")
    assert scenarios.run_file(bad) != []


def test_the_runner_finds_games_only_through_the_registry(tmp_path: Path) -> None:
    bad = tmp_path / "chess.json"
    bad.write_text(json.dumps({"game": "chess", "position": {}}), encoding="utf-8")
    assert scenarios.run_file(bad) == ["cannot load: UnknownGame: chess"]


def test_an_engine_crash_fails_the_file_instead_of_the_run(tmp_path: Path, monkeypatch) -> None:
    from games.jakaro import scenario

    def boom(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(scenario, "step", boom)
    failures = scenarios.run_file(DIR / "01_ace_brings_a_marble_out.json")
    assert len(failures) == 1 and "crashed: RuntimeError: boom" in failures[0]
