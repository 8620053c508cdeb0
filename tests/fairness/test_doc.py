"""docs/fairness.md stays in step with the frozen vectors and names what the issue asks for."""

from __future__ import annotations

import json
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
    for purpose in ("`deal/<round>`", "`reshuffle/<k>`", "`deal/<d>`", "`burn/<k>`"):
        assert purpose in DOC
