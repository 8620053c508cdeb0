"""The shape DESIGN.md promises, as rules a change cannot break quietly: pure engines and a pure
fairness core, neither game reaching into the other, the ledger below the tables, a game's code
reached only through the registry or its face, no import circle, an independent standalone
verifier, and the apps below the project package never importing it.

Every rule reads the product's Python files with ``ast`` (imports inside functions count as much
as those at the top, relative imports are resolved), and a failure names each offending file,
line and import.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
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
    "fairness/core.py",
    "verify/standalone",
]
# The product: the project package and its apps (not the tests, the benchmarks or the scripts).
PRODUCT = [
    "accounts",
    "fairness",
    "games",
    "language",
    "moderation",
    "realtime",
    "sahrat_site",
    "social",
    "standing",
    "verify",
    "wallet",
]
GAMES = ["games.hand", "games.jakaro"]
# The apps below the project package: sahrat_site may import them, never the other way round.
BELOW_THE_PROJECT = [
    "accounts",
    "games",
    "language",
    "moderation",
    "realtime",
    "social",
    "standing",
    "verify",
    "wallet",
]


# ------------------------------------------------------------------------------ reading imports


@dataclass(frozen=True)
class Import:
    """One imported module, resolved to its dotted name, and where the import is written."""

    path: Path
    line: int
    target: str
    text: str

    def where(self, root: Path = ROOT) -> str:
        return f"{self.path.relative_to(root)}:{self.line}: {self.text}"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_files(rel: str, root: Path = ROOT) -> list[Path]:
    target = root / rel
    return [target] if target.is_file() else sorted(target.rglob("*.py"))


def product_modules(root: Path = ROOT, packages: Iterable[str] = PRODUCT) -> dict[str, Path]:
    return {module_name(f, root): f for p in packages for f in python_files(p, root)}


def imports_of(path: Path, root: Path = ROOT, known: Iterable[str] = ()) -> list[Import]:
    """Every module ``path`` imports, anywhere in the file. ``from pkg import name`` is the
    module ``pkg.name`` when that is one of ``known`` (or a file under ``root``), else ``pkg``."""
    known = set(known)
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]

    def is_module(name: str) -> bool:
        if name in known:
            return True
        base = root.joinpath(*name.split("."))
        return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()

    found: list[Import] = []
    lines = source.splitlines()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        # The import as written, on one line (a parenthesised one spans several).
        text = " ".join(lines[node.lineno - 1 : node.end_lineno]).strip()
        text = " ".join(text.split())
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(path, node.lineno, alias.name, text))
        else:
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                target = sub if alias.name != "*" and is_module(sub) else module
                found.append(Import(path, node.lineno, target, text))
    return list(dict.fromkeys(found))  # ``from m import a, b`` is one import of m


def imported_roots(path: Path) -> set[str]:
    """The top-level names of the absolute imports in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def within(target: str, package: str) -> bool:
    return target == package or target.startswith(package + ".")


def offending(files: Iterable[Path], forbidden: Iterable[str], root: Path = ROOT) -> list[str]:
    """Each import in ``files`` of one of the ``forbidden`` packages (or their modules)."""
    forbidden = list(forbidden)
    return [
        i.where(root)
        for f in files
        for i in imports_of(f, root)
        if any(within(i.target, p) for p in forbidden)
    ]


# ------------------------------------------------------------------------------- import circles


def import_graph(root: Path = ROOT, packages: Iterable[str] = PRODUCT) -> dict[str, list[Import]]:
    """module -> its imports of other product modules (each resolved to the longest product
    module its dotted name starts with)."""
    modules = product_modules(root, packages)
    graph: dict[str, list[Import]] = {}
    for name, path in modules.items():
        edges = []
        for imp in imports_of(path, root, modules):
            parts = imp.target.split(".")
            for n in range(len(parts), 0, -1):
                target = ".".join(parts[:n])
                if target in modules:
                    if target != name:
                        edges.append(Import(imp.path, imp.line, target, imp.text))
                    break
        graph[name] = edges
    return graph


def circles(graph: dict[str, list[Import]]) -> list[list[str]]:
    """The groups of modules that import one another, directly or not (Tarjan's strongly
    connected components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for edge in graph.get(node, []):
            if edge.target not in index:
                visit(edge.target)
                low[node] = min(low[node], low[edge.target])
            elif edge.target in on_stack:
                low[node] = min(low[node], index[edge.target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def shortest_circle(graph: dict[str, list[Import]], group: list[str]) -> list[str]:
    """The shortest way from the group's first module back to itself, inside the group."""
    members, start = set(group), group[0]
    paths: dict[str, list[str]] = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for edge in graph[node]:
            if edge.target == start:
                return [*paths[node], start]
            if edge.target in members and edge.target not in paths:
                paths[edge.target] = [*paths[node], edge.target]
                queue.append(edge.target)
    raise AssertionError(f"{group} is not a circle")


def describe(graph: dict[str, list[Import]], group: list[str], root: Path = ROOT) -> str:
    """A circle of the group, then every import among the group's modules (each is on a
    circle: removing enough of them breaks the group)."""
    members = set(group)
    inside = [e.where(root) for m in group for e in graph[m] if e.target in members]
    return " -> ".join(shortest_circle(graph, group)) + "\n" + "\n".join(f"    {w}" for w in inside)


# ------------------------------------------------------------------------------------ the rules


@pytest.mark.parametrize("rel", PURE)
def test_engines_and_fairness_core_import_no_framework(rel):
    files = python_files(rel)
    assert files, f"{rel} has no Python files"
    offenders = offending(files, FRAMEWORKS)
    assert offenders == [], "a pure module imports a framework:\n" + "\n".join(offenders)


# Run in a fresh interpreter: which framework modules importing both engines loads, and for
# each framework, the chain of the project's import lines that first asked for it.
_ENGINES_ALONE = """
import json, os, sys, traceback
FRAMEWORKS = set(sys.argv[1].split(","))
first = {}
class Watch:
    def find_spec(self, name, path=None, target=None):
        root = name.split(".")[0]
        if root in FRAMEWORKS and root not in first:
            here = os.getcwd() + os.sep
            chain = [
                f"{f.filename.removeprefix(here)}:{f.lineno}: {f.line}"
                for f in traceback.extract_stack()[:-1]
                if f.filename.startswith(here)
            ]
            first[root] = chain
        return None
sys.meta_path.insert(0, Watch())
try:
    import games.hand, games.jakaro
    error = None
except Exception as exc:  # a framework that needs set-up: still report what was loaded
    error = repr(exc)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in FRAMEWORKS)
print(json.dumps({"loaded": loaded, "first": first, "error": error}))
"""


def test_importing_the_engines_loads_no_framework_at_all():
    """Transitively: a fresh interpreter that imports both engines (and so the games package,
    the contract, the registry and whatever they import) loads no Django, Channels, Celery,
    Daphne, Redis or psycopg module."""
    result = subprocess.run(
        [sys.executable, "-c", _ENGINES_ALONE, ",".join(sorted(FRAMEWORKS))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    roots = sorted({m.split(".")[0] for m in seen["loaded"]})
    chains = "\n".join(
        f"  {root}, first by the imports:\n" + "\n".join(f"    {hop}" for hop in chain)
        for root, chain in seen["first"].items()
    )
    assert roots == [], f"importing the engines loads {roots}:\n{chains}"
    assert seen["error"] is None, seen["error"]


@pytest.mark.parametrize("game", GAMES)
def test_neither_game_imports_the_other(game):
    others = [g for g in GAMES if g != game]
    offenders = offending(python_files(game.replace(".", "/")), others)
    assert offenders == [], f"{game} imports another game:\n" + "\n".join(offenders)


def test_the_ledger_imports_no_table_code():
    """wallet/ never imports games, not even inside a function: settle and the refund take the
    seats from their caller. Until that change lands this rule fails on exactly
    wallet/services.py and wallet/selectors.py (their imports of games inside functions)."""
    offenders = offending(python_files("wallet"), ["games"])
    assert offenders == [], "the ledger imports table code:\n" + "\n".join(offenders)


def _may_import_a_game(path: Path, game: str) -> bool:
    """The game's own package and the game faces (games/faces/) import a game package directly;
    everything else above the engines goes through the registry (``games.get(name)``)."""
    rel = path.relative_to(ROOT).as_posix()
    return rel.startswith(game.replace(".", "/") + "/") or rel.startswith("games/faces/")


def test_nothing_above_the_engines_imports_a_game_package_but_its_face():
    offenders = [
        i.where()
        for p in PRODUCT
        for f in python_files(p)
        for i in imports_of(f)
        for game in GAMES
        if within(i.target, game) and not _may_import_a_game(f, game)
    ]
    assert offenders == [], (
        "a game package imported outside its own package and games/faces/ "
        "(use the registry, or the game's face):\n" + "\n".join(offenders)
    )


def test_the_games_never_import_the_app_that_audits_them():
    """The shuffle's commitment and derivation sit below both (fairness/): the games draw from
    it and the Verify app checks with it, so nothing under games/ imports verify/."""
    offenders = offending(python_files("games"), ["verify"])
    assert offenders == [], "games imports verify (use fairness.core):\n" + "\n".join(offenders)


def test_the_faces_read_no_table_row():
    """A face turns a view into words: it imports neither the tables' models nor their
    services and selectors, which read the rows."""
    forbidden = ["games.models", "games.services", "games.selectors"]
    offenders = offending(python_files("games/faces"), forbidden)
    assert offenders == [], "a face reads table rows:\n" + "\n".join(offenders)


def test_no_import_circle_among_the_products_modules():
    graph = import_graph()
    found = circles(graph)
    assert found == [], "import circles:\n" + "\n".join(describe(graph, g) for g in found)


def test_the_standalone_verifier_shares_no_code_with_the_server():
    """verify/standalone/ runs on a player's own machine from its one file: it imports nothing
    of the project (no app, no project package, not the tests or the benchmarks)."""
    project = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    project |= {p.stem for p in ROOT.glob("*.py")}
    project |= set(PRODUCT)
    offenders = [
        i.where()
        for f in python_files("verify/standalone")
        for i in imports_of(f)
        if i.target.split(".")[0] in project and not within(i.target, "verify.standalone")
    ]
    assert offenders == [], "the standalone verifier imports project code:\n" + "\n".join(offenders)


@pytest.mark.parametrize("app", BELOW_THE_PROJECT)
def test_the_apps_never_import_the_project_package(app):
    offenders = offending(python_files(app), ["sahrat_site"])
    assert offenders == [], f"{app} imports the project package:\n" + "\n".join(offenders)


# ---------------------------------------------------------------------- the checkers themselves


def test_the_checker_sees_a_framework_import(tmp_path):
    bad = tmp_path / "engine.py"
    bad.write_text("from django.db import models\nimport celery.app\n")
    assert imported_roots(bad) & FRAMEWORKS == {"django", "celery"}


def test_the_checker_resolves_relative_imports_and_sees_them_inside_functions(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    for name in ("pkg/__init__.py", "pkg/sub/__init__.py", "pkg/other.py", "pkg/sub/deep.py"):
        (tmp_path / name).write_text("")
    (tmp_path / "pkg" / "sub" / "mod.py").write_text(
        "from . import deep\nfrom .. import other\n\ndef later():\n    from ..other import x\n"
    )
    found = imports_of(tmp_path / "pkg" / "sub" / "mod.py", tmp_path)
    assert [(i.line, i.target) for i in found] == [
        (1, "pkg.sub.deep"),
        (2, "pkg.other"),
        (5, "pkg.other"),
    ]
    assert found[2].where(tmp_path) == "pkg/sub/mod.py:5: from ..other import x"


def test_the_circle_finder_names_each_import_of_a_circle(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "a.py").write_text("from app import b\n")
    (tmp_path / "app" / "b.py").write_text("import app.c\n")
    (tmp_path / "app" / "c.py").write_text("def f():\n    from .a import thing\n")
    (tmp_path / "app" / "d.py").write_text("from app import a\n")  # into the circle, not of it
    graph = import_graph(tmp_path, ["app"])
    assert circles(graph) == [["app.a", "app.b", "app.c"]]
    assert describe(graph, ["app.a", "app.b", "app.c"], tmp_path).splitlines() == [
        "app.a -> app.b -> app.c -> app.a",
        "    app/a.py:1: from app import b",
        "    app/b.py:1: import app.c",
        "    app/c.py:2: from .a import thing",
    ]


# Where a newcomer reads: every file of the product, the benchmarks, the scripts, the pages and
# their assets. The engines are exempt (a game's rules read best whole), as are migrations
# (generated) and the vendored assets. The standalone verifier is held to it too, though it must
# stay one file (an auditor downloads that one file and runs it with nothing else).
LONGEST = 400
READ = [*PRODUCT, "bench", "scripts", "templates", "static"]
EXEMPT = ["games/hand", "games/jakaro", "static/vendor"]
SOURCES = {".py", ".js", ".mjs", ".css", ".html"}


def long_files(root: Path = ROOT, read: Iterable[str] = READ, limit: int = LONGEST) -> list[str]:
    """Each file above ``limit`` lines, as "path: N lines"."""
    found = []
    for top in read:
        for path in sorted((root / top).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.suffix not in SOURCES or "migrations" in path.parts:
                continue
            if any(rel == e or rel.startswith(e + "/") for e in EXEMPT):
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found.append(f"{rel}: {lines} lines")
    return found


def test_no_file_a_newcomer_reads_is_above_four_hundred_lines():
    assert long_files() == [], "split these by what they do"


def test_the_length_rule_sees_a_long_file_and_skips_the_exempt(tmp_path):
    (tmp_path / "games" / "hand").mkdir(parents=True)
    (tmp_path / "games" / "hand" / "engine.py").write_text("x = 1\n" * 500)
    (tmp_path / "games" / "long.py").write_text("x = 1\n" * 401)
    (tmp_path / "games" / "short.py").write_text("x = 1\n" * 400)
    assert long_files(tmp_path, ["games"]) == ["games/long.py: 401 lines"]
