"""The downloadable verifier (verify/standalone/sahrat_verify.py), run as a player would run it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "verify" / "standalone" / "sahrat_verify.py"
DATA = json.loads(Path(__file__).with_name("vectors.json").read_text())
VECTORS = DATA["vectors"]
FIRST = VECTORS[0]


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    # Run from an empty directory so that nothing of the project can be imported by accident.
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), *args],
        cwd=SCRIPT.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )


def vector_args(v: dict, **change: str) -> list[str]:
    opts = {"game": v["game"], "secret": v["secret"], "commitment": v["commitment"], "id": v["id"]}
    opts.update(change)
    args = [x for k, val in opts.items() for x in (f"--{k}", val)]
    for seat, seed in v["seeds"].items():
        args += ["--seed", f"{seat}={seed}"]
    return args


def test_it_shares_no_code_with_the_server() -> None:
    tree = ast.parse(SCRIPT.read_text())
    imported = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert imported and all(m.split(".")[0] in sys.stdlib_module_names for m in imported)


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(v: dict) -> None:
    args = [*vector_args(v), "--json"]
    args += [x for s in v["shuffles"] for x in ("--purpose", s["purpose"])]
    args += [x for b in v["below"] for x in ("--below", f"{b['purpose']}={b['n']}")]
    if "items" in v:
        args += ["--items", ",".join(v["items"])]
    out = run(args)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["commitment_ok"] is True and report["commitment"] == v["commitment"]
    assert report["shuffles"] == {s["purpose"]: s["result"] for s in v["shuffles"]}
    assert report["below"] == {b["purpose"]: b["value"] for b in v["below"]}


def test_text_output_prints_each_shuffle_and_draw() -> None:
    out = run([*vector_args(FIRST), "--purpose", "deal/1", "--below", "burn/1=4"])
    assert out.returncode == 0, out.stderr
    assert "commitment OK" in out.stdout
    assert "deal/1: " + " ".join(FIRST["shuffles"][0]["result"]) in out.stdout
    assert f"burn/1 below(4): {FIRST['below'][0]['value']}" in out.stdout


def test_a_mismatched_commitment_is_reported_and_nothing_shuffled() -> None:
    m = DATA["commitment_mismatch"]
    out = run(
        [*vector_args(FIRST, secret=m["secret"], commitment=m["commitment"]), "--purpose", "deal/1"]
    )
    assert out.returncode == 1
    assert "MISMATCH" in out.stdout and "deal/1:" not in out.stdout
    as_json = run(
        [*vector_args(FIRST, commitment=m["commitment"]), "--json", "--purpose", "deal/1"]
    )
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout)["commitment_ok"] is False


def _deal(args: list[str], purpose: str = "deal/1") -> list[str]:
    out = run([*args, "--json", "--purpose", purpose])
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["shuffles"][purpose]


def test_one_bit_of_secret_seed_or_purpose_changes_the_deck() -> None:
    import hashlib

    base = _deal(vector_args(FIRST))
    secret = bytearray.fromhex(FIRST["secret"])
    secret[5] ^= 0x10
    flipped = bytes(secret).hex()
    commitment = hashlib.sha256(bytes(secret)).hexdigest()
    assert _deal(vector_args(FIRST, secret=flipped, commitment=commitment)) != base
    args = vector_args(FIRST)
    seed_arg = args.index("--seed") + 1
    args[seed_arg] = args[seed_arg][:-1] + chr(ord(args[seed_arg][-1]) ^ 1)
    assert _deal(args) != base
    assert _deal(vector_args(FIRST), "deal/0") != base


BAD = [
    ("short secret", {"secret": "ab" * 31}, "secret must be exactly 64 hexadecimal"),
    ("non-hex secret", {"secret": "xy" * 32}, "secret must be exactly 64 hexadecimal"),
    ("bad commitment", {"commitment": "12"}, "commitment must be exactly 64 hexadecimal"),
    ("unknown game", {"game": "poker"}, "unknown game 'poker'"),
    ("empty id", {"id": ""}, "identifier"),
    ("empty purpose", {"purpose": ""}, "purpose '' is not valid"),
    ("purpose with space", {"purpose": "deal 1"}, "purpose"),
    ("seed without seat", {"seed": "abc"}, "SEAT=SEED"),
    ("seed with bad seat", {"seed": "-1=abc"}, "SEAT=SEED"),
    ("empty seed", {"seed": "0="}, "seed of seat 0"),
    ("below without n", {"below": "burn/1"}, "PURPOSE=N"),
    ("below zero", {"below": "burn/1=0"}, "from 1 to 4294967296"),
    ("empty items", {"items": " , "}, "nothing to shuffle"),
]


@pytest.mark.parametrize(("change", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_a_clear_error_without_traceback(change: dict[str, str], words: str) -> None:
    opts = {k: v for k, v in change.items() if k in ("game", "secret", "commitment", "id")}
    args = vector_args(FIRST, **opts)
    if "seed" in change:  # the seed alone: drop the vector's own, valid seeds
        args = [*vector_args({**FIRST, "seeds": {}}), f"--seed={change['seed']}"]
    for flag in ("purpose", "below", "items"):
        if flag in change:
            args.append(f"--{flag}={change[flag]}")
    out = run(args)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.startswith("error: ") and words in out.stderr
    assert "Traceback" not in out.stdout + out.stderr


def test_missing_arguments_are_refused_by_the_parser() -> None:
    out = run(["--game", "hand"])
    assert out.returncode == 2 and "required" in out.stderr and "Traceback" not in out.stderr
