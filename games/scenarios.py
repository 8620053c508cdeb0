"""Run scenario files for both games: ``python -m games.scenarios PATH...``.

A scenario is a JSON file (format in docs/scenarios.md): a position, then steps (seat, action text,
accepted or refused with a code), then what must hold after. The game is looked up in the registry
(``games.get(data["game"])``); the runner never names a game. Each game package has an adapter
module ``scenario`` beside it (``games.<game>.scenario``) with three functions:

- ``build(position: dict) -> tuple[State, RandomSource]``
- ``step(state, seat: int, action: str, rng) -> State`` (raises a
  ``games.contract.IllegalAction``, which carries a stable ``code``)
- ``check(state, expect: dict) -> list[str]`` (one message per thing that does not hold)

and the game's ``to_json(state)`` (from the contract) proves that a refused action changed nothing.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import games
from games.contract import IllegalAction


def _files(paths: Iterable[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.json")) if p.is_dir() else [p])
    return out


def run_file(path: Path) -> list[str]:
    """Run one scenario; return the failures (empty when it passes)."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        game = games.get(data["game"])
        adapter = importlib.import_module(f"{game.__name__}.scenario")
        state, rng = adapter.build(data["position"])
    except Exception as exc:  # a broken file is a failure to report, not a crash of the run
        return [f"cannot load: {type(exc).__name__}: {exc}"]

    failures: list[str] = []
    for n, st in enumerate(data.get("steps", []), start=1):
        seat, action = st["seat"], st["action"]
        want = st.get("expect", "accepted")
        before = game.to_json(state)
        try:
            state = adapter.step(state, seat, action, rng)
            got = "accepted"
        except IllegalAction as exc:
            got = {"refused": exc.code}
            if game.to_json(state) != before:
                failures.append(f"step {n} ({action!r}): refused but the state changed")
        except Exception as exc:  # an engine crash fails this file; the other files still run
            failures.append(f"step {n} ({action!r}): crashed: {type(exc).__name__}: {exc}")
            break
        if isinstance(want, dict) and "refused" in want and want["refused"] is None:
            ok = isinstance(got, dict)
        else:
            ok = got == want
        if not ok:
            failures.append(f"step {n} seat {seat} {action!r}: expected {want}, got {got}")
            break
    if not failures:
        failures.extend(adapter.check(state, data.get("expect", {})))
    return failures


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    files = _files(args or ["tests/scenarios"])
    passed = failed = 0
    for f in files:
        problems = run_file(f)
        if problems:
            failed += 1
            print(f"FAIL {f}")
            for p in problems:
                print(f"     {p}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not files else 0


if __name__ == "__main__":
    sys.exit(main())
