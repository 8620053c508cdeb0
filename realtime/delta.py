"""A page's state frames sent as what changed since the last one on the same socket (issue 20).

A table's HTML frame is the whole table drawn for one viewer, 15 to 25 KB; a move changes a
few hundred bytes of it. On a 2G-like link (40 kbit/s) the whole frame took 5 to 7 s to show a
move. So after the first, each state frame of a socket is sent as a delta against the one before
it: the text cut into pieces after every ``>`` and ``,`` (a tag, or an item of the embedded JSON),
and a list of operations, each either ``[start, count]`` (copy that many pieces of the last
frame, from ``start``) or a string (new text). The page (static/js/frame_delta.js, an htmx
extension) rebuilds the whole frame from the last one and swaps it in as before, so nothing on
the page works differently; the wire carries only what changed.

The same socket carries the frames in order, and its first state frame is always whole, so both
ends hold the same last frame. A page that ever cannot rebuild (it never should) asks for a whole
one ("sync" with ``full``), which resets the encoder. A delta that would be longer than the frame
itself is not sent: the frame goes whole.

Pure Python, no Django: the consumer holds one encoder per socket.
"""

from __future__ import annotations

import json
import re
from difflib import SequenceMatcher

PIECES = re.compile(r"(?<=[>,])")
PREFIX = '{"delta":'


def pieces(text: str) -> list[str]:
    """``text`` cut after every ``>`` and ``,`` (no empty piece): the page cuts the same way."""
    return [p for p in PIECES.split(text) if p]


class DeltaEncoder:
    """One socket's state frames, each as a delta against the one sent before it."""

    def __init__(self) -> None:
        self._last: list[str] | None = None

    def reset(self) -> None:
        """The next frame goes whole (the page asked for it)."""
        self._last = None

    def encode(self, frame: str) -> str:
        """What to send for ``frame``: the frame itself, or its delta when that is shorter."""
        new = pieces(frame)
        old, self._last = self._last, new
        if old is None:
            return frame
        ops: list[list[int] | str] = []
        matcher = SequenceMatcher(None, old, new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                ops.append([i1, i2 - i1])
            elif j2 > j1:
                ops.append("".join(new[j1:j2]))
        text = PREFIX + json.dumps(ops, ensure_ascii=False, separators=(",", ":")) + "}"
        return text if len(text.encode()) < len(frame.encode()) else frame


def rebuild(last: str, message: str) -> str:
    """The frame a message stands for, given the last frame (what the page does, in Python: for
    tests and for clients written in Python). A message that is not a delta is the frame."""
    if not message.startswith(PREFIX):
        return message
    old = pieces(last)
    out = []
    for op in json.loads(message)["delta"]:
        if isinstance(op, str):
            out.append(op)
        else:
            start, count = op
            out.extend(old[start : start + count])
    return "".join(out)
