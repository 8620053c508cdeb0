"""fairness/core.py against the frozen sahrat-fair-v1 vectors, its bad inputs and its CLI."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairness.core as fairness
from fairness.core import FairnessError, RandomSource

from . import make_vectors

ROOT = Path(__file__).resolve().parents[2]
DATA = json.loads(Path(__file__).with_name("vectors.json").read_text())
VECTORS = DATA["vectors"]
FIRST = VECTORS[0]


def _seeds(v: dict) -> dict[int, str]:
    return {int(k): s for k, s in v["seeds"].items()}


def _source(v: dict, **change: object) -> RandomSource:
    args = {"secret": bytes.fromhex(v["secret"]), "seeds": _seeds(v), **change}
    return RandomSource(args["secret"], v["game"], v["id"], args["seeds"])


def _flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def test_the_vector_file_is_still_what_the_core_computes() -> None:
    # The file is frozen: if this fails, the algorithm changed and every old deal would replay
    # differently. Do not regenerate the file to make it pass.
    assert make_vectors.build() == DATA


def test_there_are_six_vectors_or_more_and_some_show_a_rejection() -> None:
    assert len(VECTORS) >= 6
    traced = [
        d
        for v in VECTORS
        for s in v["shuffles"]
        for step in s.get("trace", ())
        for d in step["draws"]
    ]
    assert any(d["rejected"] for d in traced)
    assert any(d["rejected"] for v in VECTORS for b in v["below"] for d in b["draws"])


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector(v: dict) -> None:
    secret = bytes.fromhex(v["secret"])
    assert fairness.commitment(secret) == v["commitment"]
    assert fairness.key_message(v["game"], v["id"], _seeds(v)).decode() == v["key_message"]
    key = fairness.derive_key(secret, v["game"], v["id"], _seeds(v))
    assert key.hex() == v["key"]
    source = _source(v)
    items = v.get("items", fairness.DECKS[v["game"]])
    for s in v["shuffles"]:
        block = hmac.new(key, s["purpose"].encode() + bytes(9), hashlib.sha256).hexdigest()
        assert block == s["stream_block_0"]
        assert source.shuffle(items, s["purpose"]) == s["result"]
        if "items" not in v:
            assert source.deck(s["purpose"]) == s["result"]
    for b in v["below"]:
        assert source.below(b["n"], b["purpose"]) == b["value"]


def test_canonical_decks_and_notation() -> None:
    card = re.compile(r"^(A|[2-9]|10|J|Q|K)[SHDC]$|^JK[12]$")
    assert len(fairness.JAKARO_DECK) == len(set(fairness.JAKARO_DECK)) == 52
    assert len(fairness.HAND_DECK) == 106 and len(set(fairness.HAND_DECK)) == 54
    assert all(card.match(c) for c in fairness.HAND_DECK)
    assert fairness.JAKARO_DECK[:3] == ("AS", "2S", "3S") and fairness.JAKARO_DECK[-1] == "KC"
    assert fairness.HAND_DECK[-2:] == ("JK1", "JK2")


def test_commitment_mismatch_is_reported() -> None:
    m = DATA["commitment_mismatch"]
    secret = bytes.fromhex(m["secret"])
    assert not fairness.matches_commitment(secret, m["commitment"])
    assert fairness.matches_commitment(secret, fairness.commitment(secret).upper())
    r = fairness.replay(m["secret"], m["commitment"], "jakaro", "match-1", {}, ["deal/1"])
    assert not r.commitment_ok and r.shuffles == {}
    ok = fairness.replay(FIRST["secret"], FIRST["commitment"], "jakaro", "match-1", _seeds(FIRST))
    assert ok.commitment_ok


@pytest.mark.parametrize("bit", [0, 1, 8, 128, 255])
def test_one_bit_of_the_secret_changes_the_deck(bit: int) -> None:
    base = _source(FIRST).deck("deal/1")
    other = _source(FIRST, secret=_flip(bytes.fromhex(FIRST["secret"]), bit)).deck("deal/1")
    assert other != base and sorted(other) == sorted(base)


def test_one_bit_of_a_seed_or_the_purpose_changes_the_deck() -> None:
    base = _source(FIRST).deck("deal/1")
    seeds = _seeds(FIRST)
    for seat in seeds:
        changed = {**seeds, seat: seeds[seat][:-1] + chr(ord(seeds[seat][-1]) ^ 1)}
        assert _source(FIRST, seeds=changed).deck("deal/1") != base
    swapped = {**seeds, 0: seeds[1], 1: seeds[0]}
    assert _source(FIRST, seeds=swapped).deck("deal/1") != base  # seeds are bound to seats
    assert _source(FIRST).deck("deal/0") != base  # "1" and "0" differ in one bit


def test_new_secret_has_the_published_form_and_the_server_makes_no_seed() -> None:
    secret = fairness.new_secret()
    assert len(secret) == 32 and secret != fairness.new_secret()
    assert re.fullmatch(r"[0-9a-f]{64}", secret.hex())  # published: lowercase, no whitespace
    assert fairness.parse_secret(secret.hex()) == secret
    assert re.fullmatch(r"[0-9a-f]{64}", fairness.commitment(secret))
    # Seeds come only from players' browsers (docs/fairness.md §5): no server-made seed.
    assert not hasattr(fairness, "new_seed")


SECRET = bytes(32)
BAD_CALLS = [
    ("secret too short", lambda: fairness.parse_secret("ab" * 31), "64 hexadecimal"),
    ("secret not hex", lambda: fairness.parse_secret("zz" * 32), "64 hexadecimal"),
    ("secret not text", lambda: fairness.parse_secret(None), "64 hexadecimal"),
    ("secret 31 bytes", lambda: fairness.commitment(bytes(31)), "32 bytes"),
    ("secret as text", lambda: RandomSource("0" * 32, "hand", "r1"), "32 bytes"),
    ("bad commitment", lambda: fairness.matches_commitment(SECRET, "ü" * 64), "commitment"),
    ("unknown game", lambda: RandomSource(SECRET, "poker", "r1"), "unknown game"),
    ("unhashable game", lambda: RandomSource(SECRET, ["hand"], "r1"), "unknown game"),
    ("empty id", lambda: RandomSource(SECRET, "hand", ""), "identifier"),
    ("id with newline", lambda: RandomSource(SECRET, "hand", "r1\n"), "identifier"),
    ("id too long", lambda: RandomSource(SECRET, "hand", "x" * 129), "identifier"),
    ("seat negative", lambda: RandomSource(SECRET, "hand", "r1", {-1: "a"}), "seat"),
    ("seat as text", lambda: RandomSource(SECRET, "hand", "r1", {"0": "a", 1: "b"}), "seat"),
    ("seat a bool", lambda: RandomSource(SECRET, "hand", "r1", {True: "a"}), "seat"),
    ("seeds a list", lambda: RandomSource(SECRET, "hand", "r1", ["a"]), "seeds"),
    ("seed empty", lambda: RandomSource(SECRET, "hand", "r1", {0: ""}), "seed"),
    ("seed with =", lambda: RandomSource(SECRET, "hand", "r1", {0: "a=b"}), "seed"),
    ("empty purpose", lambda: RandomSource(SECRET, "hand", "r1").deck(""), "purpose"),
    ("purpose newline", lambda: RandomSource(SECRET, "hand", "r1").deck("deal/1\n"), "purpose"),
    ("purpose not text", lambda: RandomSource(SECRET, "hand", "r1").below(2, 7), "purpose"),
    ("below 0", lambda: RandomSource(SECRET, "hand", "r1").below(0, "x"), "below"),
    ("below 2**32+1", lambda: RandomSource(SECRET, "hand", "r1").below(2**32 + 1, "x"), "below"),
    ("below a bool", lambda: RandomSource(SECRET, "hand", "r1").below(True, "x"), "below"),
    ("shuffle a set", lambda: RandomSource(SECRET, "hand", "r1").shuffle({1, 2}, "x"), "ordered"),
    (
        "below purpose twice",
        lambda: fairness.replay(SECRET.hex(), "0" * 64, "hand", "r1", {}, (), [("b", 2), ("b", 3)]),
        "only once",
    ),
]


@pytest.mark.parametrize(
    ("call", "words"), [c[1:] for c in BAD_CALLS], ids=[c[0] for c in BAD_CALLS]
)
def test_bad_input_is_a_fairness_error(call, words: str) -> None:
    with pytest.raises(FairnessError, match=words):
        call()


@given(
    n=st.integers(min_value=0, max_value=120),
    purpose=st.from_regex(r"\A[0-9A-Za-z_.:/-]{1,20}\Z"),
    secret=st.binary(min_size=32, max_size=32),
)
@settings(max_examples=150, deadline=None)
def test_shuffle_is_a_replayable_permutation(n: int, purpose: str, secret: bytes) -> None:
    source = RandomSource(secret, "hand", "prop", {0: "s"})
    items = list(range(n))
    out = source.shuffle(items, purpose)
    assert sorted(out) == items and items == list(range(n))  # input left untouched
    assert RandomSource(secret, "hand", "prop", {0: "s"}).shuffle(items, purpose) == out
    value = source.below(n + 1, purpose)
    assert 0 <= value <= n and source.below(n + 1, purpose) == value


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fairness", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _vector_args(v: dict) -> list[str]:
    args = ["--game", v["game"], "--secret", v["secret"], "--commitment", v["commitment"]]
    args += ["--id", v["id"]]
    for seat, seed in v["seeds"].items():
        args += ["--seed", f"{seat}={seed}"]
    return args


def test_cli_replays_a_vector_and_reports_a_mismatch() -> None:
    ok = _cli(*_vector_args(FIRST), "--purpose", "deal/2", "--below", "burn/2=5")
    assert ok.returncode == 0, ok.stderr
    assert "commitment OK" in ok.stdout
    assert "deal/2: " + " ".join(FIRST["shuffles"][1]["result"]) in ok.stdout
    assert f"burn/2 below(5): {FIRST['below'][1]['value']}" in ok.stdout
    m = DATA["commitment_mismatch"]
    args = _vector_args(FIRST)
    args[args.index("--commitment") + 1] = m["commitment"]
    bad = _cli(*args, "--purpose", "deal/1")
    assert bad.returncode == 1 and "MISMATCH" in bad.stdout and "deal/1:" not in bad.stdout


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"--secret": "abc"}, "secret must be 64 hexadecimal"),
        ({"--game": "poker"}, "unknown game"),
        ({"--purpose": ""}, "purpose"),
        ({"--seed": "zero=abc"}, "SEAT=SEED"),
        ({"--commitment": "xyz"}, "commitment must be 64 hexadecimal"),
        ({"--below": "burn/1=-3"}, "PURPOSE=N"),
    ],
)
def test_cli_bad_input_is_a_clear_error(change: dict[str, str], words: str) -> None:
    args = _vector_args(FIRST)
    for flag, value in change.items():
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    out = _cli(*args)
    assert out.returncode == 2
    assert words in out.stderr
    assert "Traceback" not in out.stderr + out.stdout
