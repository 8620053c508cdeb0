"""docs/fairness.md stays in step with the frozen vectors and names what the issue asks for."""

from __future__ import annotations

import json
import re
from pathlib import Path

from . import make_vectors

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "fairness.md").read_text()
DATA = json.loads(Path(__file__).with_name("vectors.json").read_text())


def test_the_vector_section_is_rendered_from_vectors_json() -> None:
    start = DOC.index("<!-- vectors:begin -->\n") + len("<!-- vectors:begin -->\n")
    end = DOC.index("<!-- vectors:end -->")
    assert DOC[start:end].strip() == make_vectors.render_markdown(DATA).strip()


def test_every_result_is_written_out_in_full() -> None:
    for v in DATA["vectors"]:
        assert v["secret"] in DOC and v["key"] in DOC
        for s in v["shuffles"]:
            assert make_vectors._cards(s["result"]) in DOC


def test_the_spec_is_versioned_and_names_the_games_purposes() -> None:
    assert "`sahrat-fair-v1`" in DOC
    for purpose in ("`deal/<round>`", "`reshuffle/<round>/<k>`", "`deal/<d>`", "`burn/<k>`"):
        assert purpose in DOC
    assert "`reshuffle/<k>`" not in DOC  # the per-round purpose of the old one-source-per-round


def test_the_vectors_cover_hand_matches_with_one_source() -> None:
    hand = [v for v in DATA["vectors"] if v["game"] == "hand"]
    purposes = [s["purpose"] for v in hand for s in v["shuffles"]]
    assert any(re.fullmatch(r"reshuffle/[1-9][0-9]*/[1-9][0-9]*", p) for p in purposes)
    assert any(re.fullmatch(r"deal/[1-9][0-9]*", p) for p in purposes)
    # Hand sources are matches now: one id, several rounds' deals.
    assert all(v["id"].startswith("match-") for v in hand)
    assert any(
        len([p for p in (s["purpose"] for s in v["shuffles"]) if p.startswith("deal/")]) > 1
        for v in hand
    )
    # Seats without a browser seed have no line at all in the key message.
    gaps = [v for v in hand if v["seeds"] and len(v["seeds"]) < 1 + max(map(int, v["seeds"]))]
    assert gaps
    for v in gaps:
        lines = v["key_message"].splitlines()
        assert [x.split("=")[0] for x in lines[3:]] == [f"seed/{s}" for s in v["seeds"]]


def test_the_spec_states_the_exact_forms_and_the_one_meaning_of_burn() -> None:
    assert "lowercase, no spaces, no line breaks" in DOC
    # The identifier is the site's 16-hex public id (tests/platform/test_docs_true.py checks the
    # stated pattern against games.models.new_public_id), not the old `match-<n>` form.
    assert "`match-<n>`" not in DOC and "16 lowercase hex characters" in DOC
    assert "the server never makes one" in DOC
    assert "**discard**" in DOC and "a **burn** is only the Ten's random burn" in DOC
