"""The shape DESIGN.md promises: pure engines and a pure fairness core, independent verifiers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = {"django", "channels", "celery", "daphne", "redis", "psycopg"}
PURE = [
    "games/hand",
    "games/jakaro",
    "games/contract.py",
    "games/messages.py",
    "games/registry.py",
    "verify/fairness.py",
    "verify/standalone",
]


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def python_files(rel: str) -> list[Path]:
    target = ROOT / rel
    return [target] if target.is_file() else sorted(target.rglob("*.py"))


@pytest.mark.parametrize("rel", PURE)
def test_engines_and_fairness_core_import_no_framework(rel):
    files = python_files(rel)
    assert files, f"{rel} has no Python files"
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & FRAMEWORKS)
        for f in files
        if imported_roots(f) & FRAMEWORKS
    }
    assert offenders == {}


def test_the_standalone_verifier_shares_no_code_with_the_server():
    script = ROOT / "verify" / "standalone" / "sahrat_verify.py"
    roots = imported_roots(script)
    assert "verify" not in roots and "games" not in roots and "sahrat_site" not in roots


def test_the_checker_sees_a_framework_import(tmp_path):
    bad = tmp_path / "engine.py"
    bad.write_text("from django.db import models\nimport celery.app\n")
    assert imported_roots(bad) & FRAMEWORKS == {"django", "celery"}
