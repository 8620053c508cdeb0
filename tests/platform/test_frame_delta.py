"""The table page's state frames as deltas (realtime/delta.py, static/js/frame_delta.js): what
the server encodes, the page rebuilds exactly, in Python and in the page's own script under
Node; and a delta is only sent when it is shorter than the frame."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from realtime.delta import PIECES, PREFIX, DeltaEncoder, Shared, delta_ops, pieces, rebuild

ROOT = Path(__file__).resolve().parents[2]
NODE_TESTS = Path(__file__).with_name("frame_delta.test.mjs")

WORDS = ["دورك", "الكومة", "ورقة", "لاعب ١", "Ali", "7D", "JK1", "١٥", "«هاند»", "a, b", "x>y"]


def frame(rnd: random.Random, n: int) -> str:
    """A table-like frame: nested tags with attributes, Arabic words, an embedded JSON list."""
    items = [
        f'<li class="c{rnd.randrange(4)}" data-n="{i}"><b>{rnd.choice(WORDS)}</b>'
        f"{rnd.choice(WORDS)}</li>"
        for i in range(n)
    ]
    data = json.dumps({"hand": rnd.sample(WORDS, 4), "seq": rnd.randrange(99)}, ensure_ascii=False)
    return (
        f'<section id="table-live" data-seq="{rnd.randrange(99)}"><ol>{"".join(items)}</ol>'
        f'<script type="application/json">{data}</script></section>'
    )


def edited(rnd: random.Random, text: str) -> str:
    """``text`` with a few pieces changed, dropped or added (as a move changes a frame)."""
    parts = pieces(text)
    for _ in range(rnd.randrange(1, 6)):
        i = rnd.randrange(len(parts))
        kind = rnd.randrange(3)
        if kind == 0:
            parts[i] = f"<i>{rnd.choice(WORDS)}</i>"
        elif kind == 1 and len(parts) > 2:
            del parts[i]
        else:
            parts.insert(i, f'<span data-x="{rnd.random():.3f}">,</span>')
    return "".join(parts)


def cases(count: int = 300) -> list[dict]:
    rnd = random.Random(20)
    out = []
    while len(out) < count:
        encoder = DeltaEncoder()
        last = frame(rnd, rnd.randrange(5, 40))
        assert encoder.encode(last) == last  # a socket's first frame goes whole
        for _ in range(8):
            now = edited(rnd, last) if rnd.random() < 0.85 else frame(rnd, rnd.randrange(5, 40))
            message = encoder.encode(now)
            out.append({"last": last, "message": message, "frame": now, "pieces": pieces(now)})
            last = now
    return out


def test_every_message_rebuilds_its_frame_and_a_delta_is_shorter_than_it():
    made = cases()
    deltas = [c for c in made if c["message"].startswith(PREFIX)]
    assert len(deltas) > len(made) / 2
    for c in made:
        assert rebuild(c["last"], c["message"]) == c["frame"]
        assert "".join(c["pieces"]) == c["frame"] and all(c["pieces"])
    for c in deltas:
        assert len(c["message"].encode()) < len(c["frame"].encode())


def test_a_frame_unlike_the_last_goes_whole_and_a_reset_sends_the_next_whole():
    encoder = DeltaEncoder()
    first = "<p>" + "a," * 50 + "</p>"
    assert encoder.encode(first) == first
    same = encoder.encode(first)
    assert same.startswith(PREFIX) and json.loads(same) == {"delta": [[0, len(pieces(first))]]}
    other = "<div>" + "zz>" * 40 + "</div>"
    assert encoder.encode(other) == other  # nothing in common: the delta would be longer
    encoder.reset()
    assert encoder.encode(other) == other


def test_a_shared_head_and_each_sockets_rest_rebuild_as_one_frame(monkeypatch):
    """Issue 58: a frame is the part every viewer shares (one ``Shared`` per change in a
    process) and each socket's own rest; the page rebuilds the whole as before, and the head's
    delta is made once for every socket that had the same last head."""
    rnd = random.Random(58)
    made = []
    real = delta_ops
    monkeypatch.setattr("realtime.delta.delta_ops", lambda *a: made.append(1) or real(*a))
    sockets = [DeltaEncoder() for _ in range(3)]
    lasts = [""] * 3
    head = Shared(frame(rnd, 20))
    for _ in range(30):
        if rnd.random() < 0.8:
            head = Shared(edited(rnd, head.text) if rnd.random() < 0.9 else frame(rnd, 20))
        made.clear()
        for k, encoder in enumerate(sockets):
            rest = f'<div id="own-{k}">{rnd.choice(WORDS)}</div>' + frame(rnd, 3)
            message = encoder.encode(rest, head)
            whole = head.text + rest
            got = rebuild(lasts[k], message) if lasts[k] else message
            assert got == whole
            lasts[k] = whole
        # Each socket's rest is its own delta; the head's, once for all three (or none: whole).
        assert len(made) <= len(sockets) + 1
    with pytest.raises(ValueError):
        Shared("<p>ends with text")  # its pieces would not end where the rest's begin


def test_the_pages_script_rebuilds_what_the_server_meant_under_node(tmp_path: Path):
    node = shutil.which("node")
    assert node, "node (v20 or newer) is needed to test static/js/frame_delta.js"
    file = tmp_path / "delta_cases.json"
    file.write_text(json.dumps(cases(), ensure_ascii=False), encoding="utf-8")
    out = subprocess.run(
        [node, "--test", str(NODE_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SAHRAT_DELTA_CASES": str(file)},
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", out.stdout, re.M)
    assert passed and int(passed.group(1)) == 4


def test_the_quick_cut_is_the_expressions_cut():
    """``pieces`` cuts with string methods; the regular expression (PIECES) says what the cut is,
    and takes over for a text holding the marker the quick cut uses."""
    rng = random.Random(7)
    parts = ["<p class='x'>", "a,", "b", "></p>", ",", ">", "\x00", "é,", ""]
    texts = ["", ">", ",", ">>,,", "abc"] + [
        "".join(rng.choice(parts) for _ in range(rng.randrange(1, 60))) for _ in range(300)
    ]
    for text in texts:
        assert pieces(text) == [p for p in PIECES.split(text) if p], repr(text)
