"""docs/fairness.md §6.2, "The standalone verifier, exactly": each statement run against the
verifier itself (verify/standalone/sahrat_verify.py), with inputs from the frozen vectors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .test_standalone import DATA, FIRST, ROOT, run, vector_args

DOC = (ROOT / "docs" / "fairness.md").read_text()
SECTION = DOC.split("### 6.2 The standalone verifier, exactly", 1)[1].split("\n## ", 1)[0]
RESHUFFLE = next(v for v in DATA["vectors"] if v["name"] == "hand-reshuffle")
SMALL = next(v for v in DATA["vectors"] if v["name"] == "small-lists-and-edges")


def statement(words: str) -> str:
    """The bullet of §6.2 that holds ``words``: a test fails if the statement it checks is gone."""
    bullets = re.split(r"\n- ", SECTION)
    found = [b for b in bullets if words in b]
    assert found, f"§6.2 no longer says {words!r}"
    return found[0]


def shuffles(v: dict, *extra: str) -> dict:
    done = run([*vector_args(v), *extra, "--json"])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_items_apply_to_every_purpose_and_not_to_below() -> None:
    statement("replaces the canonical deck for **every** `--purpose`")
    items = ",".join(RESHUFFLE["items"])
    purposes = [s["purpose"] for s in RESHUFFLE["shuffles"]]
    out = shuffles(
        RESHUFFLE,
        "--items",
        items,
        *[x for p in purposes for x in ("--purpose", p)],
        "--purpose",
        "deal/1",
        "--below",
        "burn/1=4",
    )
    for s in RESHUFFLE["shuffles"]:
        assert out["shuffles"][s["purpose"]] == s["result"]
    # deal/1 in the same run shuffles the items too, not the 106-card deck.
    assert sorted(out["shuffles"]["deal/1"]) == sorted(RESHUFFLE["items"])
    without = shuffles(RESHUFFLE, "--below", "burn/1=4")
    assert out["below"] == without["below"]


def test_items_are_split_on_commas_and_whitespace_and_not_checked_as_cards() -> None:
    statement("separated by commas,\n  whitespace or both")
    purpose = SMALL["shuffles"][0]["purpose"]
    listed = " ,".join(SMALL["items"][:2]) + ",,\t" + "\n".join(SMALL["items"][2:])
    out = shuffles(SMALL, "--items", listed, "--purpose", purpose)
    assert out["shuffles"][purpose] == SMALL["shuffles"][0]["result"]  # a b c d e: not cards


@pytest.mark.parametrize("around", [" ", "\t", "\n", "\r\n", " \t\n "])
def test_whitespace_around_the_secret_and_commitment_is_ignored(around: str) -> None:
    statement("whitespace before and after ignored (spaces, tabs, line breaks)")
    args = vector_args(
        FIRST,
        secret=around + FIRST["secret"].upper() + around,
        commitment=around + FIRST["commitment"] + around,
    )
    done = run([*args, "--json"])
    assert done.returncode == 0 and json.loads(done.stdout)["commitment_ok"] is True


def test_a_malformed_commitment_is_exit_2_and_a_mismatch_exit_1() -> None:
    statement("A **malformed** secret or commitment")
    inside = FIRST["commitment"][:10] + " " + FIRST["commitment"][10:]
    for bad in (FIRST["commitment"][:-1], FIRST["commitment"][:-1] + "g", inside):
        done = run(vector_args(FIRST, commitment=bad))
        assert done.returncode == 2 and done.stderr.startswith("error: "), bad
        assert "Traceback" not in done.stderr
    mismatch = DATA["commitment_mismatch"]
    done = run(vector_args(FIRST, commitment=mismatch["commitment"]))
    assert done.returncode == 1 and "commitment MISMATCH" in done.stdout


def test_tokens_are_taken_exactly() -> None:
    statement("nothing is trimmed")
    for change in ({"id": FIRST["id"] + " "}, {"id": FIRST["id"] + "\n"}):
        assert run(vector_args(FIRST, **change)).returncode == 2
    assert run([*vector_args(FIRST), "--purpose", "deal/1 "]).returncode == 2


def test_seat_numbers_are_six_digits_and_leading_zeros_name_the_same_seat() -> None:
    text = statement("SEAT is 1 to 6 decimal digits")
    top = int(re.search(r"seats 0\s+to (\d+)", text).group(1))
    base = vector_args(FIRST)[:8]  # game, secret, commitment, id; no seeds
    ok = run([*base, "--seed", f"{top}=abc", "--json"])
    assert ok.returncode == 0 and json.loads(ok.stdout)["seeds"] == {str(top): "abc"}
    assert run([*base, "--seed", f"{top + 1}=abc"]).returncode == 2
    same = run([*base, "--seed", "007=abc", "--json"])
    assert json.loads(same.stdout)["seeds"] == {"7": "abc"}
    assert run([*base, "--seed", "7=abc", "--seed", "007=abd"]).returncode == 2


def test_below_bounds_and_one_draw_per_purpose() -> None:
    statement("1 ≤ N ≤ 2³², each P once")
    base = vector_args(FIRST)
    assert run([*base, "--below", f"x={2**32}"]).returncode == 0
    for bad in ("x=0", f"x={2**32 + 1}", "x=-1"):
        assert run([*base, "--below", bad]).returncode == 2, bad
    assert run([*base, "--below", "x=3", "--below", "x=4"]).returncode == 2


def test_a_fifth_reshuffle_is_computed_like_any_purpose() -> None:
    statement("The cap of 4 re-shuffles")
    out = shuffles(RESHUFFLE, "--items", ",".join(RESHUFFLE["items"]), "--purpose", "reshuffle/7/5")
    assert sorted(out["shuffles"]["reshuffle/7/5"]) == sorted(RESHUFFLE["items"])


def test_the_text_output_lines() -> None:
    statement("**Text output**")
    v = FIRST
    done = run(
        [*vector_args(v), "--purpose", "deal/2", "--purpose", "deal/1", "--below", "burn/1=4"]
    )
    lines = done.stdout.splitlines()
    seeds = ", ".join(f"{k}={s}" for k, s in sorted(v["seeds"].items(), key=lambda kv: int(kv[0])))
    assert lines[0] == f"sahrat-fair-v1  game={v['game']}  id={v['id']}  seeds: {seeds}"
    assert lines[1] == f"commitment OK: sha256(secret) = {v['commitment']}"
    by = {s["purpose"]: s["result"] for s in v["shuffles"]}
    assert lines[2] == "deal/2: " + " ".join(by["deal/2"])
    assert lines[3] == "deal/1: " + " ".join(by["deal/1"])
    burn = next(b for b in v["below"] if b["purpose"] == "burn/1")
    assert lines[4] == f"burn/1 below(4): {burn['value']}" and len(lines) == 5
    no_seeds = run(vector_args({**v, "seeds": {}}))
    assert no_seeds.stdout.splitlines()[0].endswith("seeds: none")
    mismatch = run(vector_args(v, commitment=DATA["commitment_mismatch"]["commitment"]))
    out = mismatch.stdout.splitlines()
    assert out[1].startswith("commitment MISMATCH: ")
    assert out[2] == "  sha256(secret) = " + v["commitment"]
    assert out[3] == "  published      = " + DATA["commitment_mismatch"]["commitment"]
    assert len(out) == 5 and not any(line.startswith("deal/") for line in out)


def test_the_json_output() -> None:
    text = statement("**`--json`**")
    keys = re.findall(r"`(\w+)`(?=\s*(?:\(|,|and\b))", text)
    v = FIRST
    done = run([*vector_args(v), "--purpose", "deal/1", "--below", "burn/1=4", "--json"])
    assert len(done.stdout.splitlines()) == 1
    out = json.loads(done.stdout)
    assert (
        set(out)
        == set(keys)
        == {"version", "game", "id", "seeds", "commitment_ok", "commitment", "shuffles", "below"}
    )
    assert out["version"] == "sahrat-fair-v1" and out["seeds"] == v["seeds"]
    assert out["commitment_ok"] is True and out["commitment"] == v["commitment"]
    assert out["shuffles"] == {"deal/1": v["shuffles"][0]["result"]}
    assert out["below"] == {"burn/1": v["below"][0]["value"]}
    wrong = DATA["commitment_mismatch"]
    bad = json.loads(
        run(
            [
                *vector_args(v, commitment=wrong["commitment"]),
                "--purpose",
                "deal/1",
                "--below",
                "burn/1=4",
                "--json",
            ]
        ).stdout
    )
    assert bad["commitment_ok"] is False and bad["shuffles"] == {} and bad["below"] == {}
    assert bad["commitment"] == v["commitment"]  # the secret's hash, not the published value


def test_export_mode_takes_no_other_option() -> None:
    statement("Export mode has no `--json`")
    done = run(["--export", "-", "--json"])
    assert done.returncode == 2 and done.stderr.startswith("error: usage")


def _export(v: dict) -> dict:
    """A minimal export of a vector's shuffles, with its seeds dated after the commitment."""
    return {
        "format": "sahrat-match-v1",
        "game": v["game"],
        "id": v["id"],
        "secret": v["secret"],
        "commitment": v["commitment"],
        "committed_at": "2026-12-01T10:00:00+00:00",
        "seeds": [
            {"seat": int(k), "seed": s, "at": "2026-12-01T10:01:00+00:00"}
            for k, s in v["seeds"].items()
        ],
        "events": [
            {
                "kind": "shuffle",
                "purpose": s["purpose"],
                "items": v.get("items"),
                "result": s["result"],
            }
            for s in v["shuffles"]
        ]
        + [
            {"kind": "below", "purpose": b["purpose"], "n": b["n"], "result": b["value"]}
            for b in v["below"]
        ],
    }


def test_export_mode_output_and_exit_status(tmp_path: Path) -> None:
    statement("**Export mode output**")
    statement("**Exit status**")
    good = _export(FIRST)
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good))
    done = run(["--export", str(path)])
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1] == "ALL OK"
    assert lines[0] == "commitment OK: sha256(secret) = " + FIRST["commitment"]
    assert lines[1:-2] == [f"{e['purpose']}: OK" for e in good["events"]]
    assert lines[-2] == f"{len(good['events'])} random events recomputed"
    # A seed dated at the commitment and a wrong burn position: two mismatches, exit 1.
    bad = json.loads(json.dumps(good))
    bad["seeds"][0]["at"] = bad["committed_at"]
    bad["events"][-1]["result"] += 1
    path.write_text(json.dumps(bad))
    done = run(["--export", str(path)])
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and lines[-1] == "2 MISMATCH(ES)"
    assert lines[0].startswith("seed MISMATCH: seat 0")
    assert lines[-3].startswith(bad["events"][-1]["purpose"] + ": MISMATCH (recomputed")
    # An export seat is any JSON integer; a malformed export is exit 2 with words, no traceback.
    odd = json.loads(json.dumps(good))
    odd["seeds"][0]["seat"] = 1_000_000
    path.write_text(json.dumps(odd))
    assert run(["--export", str(path)]).returncode == 1  # read, and a different key: mismatch
    path.write_text("{not json")
    done = run(["--export", str(path)])
    assert done.returncode == 2 and done.stderr.startswith("error: ")
    assert "Traceback" not in done.stderr


def test_the_help_says_what_the_verifier_does() -> None:
    shown = " ".join(run(["--help"]).stdout.split())
    assert "for every --purpose of this run (not --below)" in shown
    keys = re.search(r"print one JSON object: (.*?)\s*$", shown).group(1)
    named = {
        k.split()[0] for k in re.split(r", | and ", keys.replace(" (the secret's SHA-256)", ""))
    }
    out = json.loads(run([*vector_args(FIRST), "--json"]).stdout)
    assert named == set(out)
    assert "SEAT 0 to 999999" in shown
