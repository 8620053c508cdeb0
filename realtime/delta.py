"""A page's state frames sent as what changed since the last one on the same socket.

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

import itertools
import json
import re

import orjson

PIECES = re.compile(r"(?<=[>,])")
CUT = "\x00"
PREFIX = '{"delta":'


def pieces(text: str) -> list[str]:
    """``text`` cut after every ``>`` and ``,`` (no empty piece): the page cuts the same way."""
    if CUT in text:  # never in a frame of ours; the regular expression cuts any text
        return [p for p in PIECES.split(text) if p]
    # The same cut with C string methods, several times quicker than the expression's split on
    # a 20 KB frame (drawn and cut for every seat at every move).
    # A cut follows a character of the text, so only the last piece can be empty.
    out = text.replace(">", ">" + CUT).replace(",", "," + CUT).split(CUT)
    if not out[-1]:
        out.pop()
    return out


class Shared:
    """The head of a frame that every socket of a process sends alike (a table's part that all
    its viewers share: games/frames.py): cut into pieces once, and its delta from an earlier
    head made once, for every socket that had that one."""

    _serials = itertools.count()
    KEPT_DELTAS = 8  # deltas from earlier heads kept: a socket is rarely more than one behind

    def __init__(self, text: str) -> None:
        if text and text[-1] not in ">,":
            # Cut after its last character, so a frame's pieces are the head's, then the rest's.
            raise ValueError("a shared head must end with '>' or ','")
        self.text = text
        self.pieces = pieces(text)
        self.size = len(text.encode())
        self.serial = next(Shared._serials)  # not the object: an old head is not kept alive
        self._deltas: dict[int, str] = {}

    def delta_from(self, old: Shared) -> str:
        """This head as operations on ``old``'s pieces, as JSON list items (no brackets): made
        and written once for every socket that had ``old``."""
        ops = self._deltas.get(old.serial)
        if ops is None:
            if len(self._deltas) >= self.KEPT_DELTAS:
                self._deltas.clear()
            if old is self:
                made = [[0, len(self.pieces)]] if self.pieces else []
            else:
                made = delta_ops(old.pieces, self.pieces)
            ops = self._deltas[old.serial] = orjson.dumps(made).decode()[1:-1]
        return ops


class DeltaEncoder:
    """One socket's state frames, each as a delta against the one sent before it. A frame may
    come as a shared head (``Shared``) and the socket's own rest: the head's delta is then made
    once per process, the rest's per socket, and the page rebuilds the whole frame as before."""

    def __init__(self) -> None:
        self._head: Shared | None = None
        self._last: list[str] | None = None  # the last frame's pieces after its head

    def reset(self) -> None:
        """The next frame goes whole (the page asked for it)."""
        self._head = self._last = None

    def encode(self, frame: str, head: Shared | None = None) -> str:
        """What to send for ``head`` then ``frame``: the two as one text, or their delta when
        that is shorter."""
        new = pieces(frame)
        old_head, old, self._head, self._last = self._head, self._last, head, new
        whole = frame if head is None else head.text + frame
        if old is None:
            return whole
        if head is not None and old_head is not None:
            # The head's operations are on the old head's pieces; the rest's follow them.
            shift = len(old_head.pieces)
            rest = [
                op if isinstance(op, str) else [op[0] + shift, op[1]] for op in delta_ops(old, new)
            ]
            items = [
                part
                for part in (head.delta_from(old_head), orjson.dumps(rest)[1:-1].decode())
                if part
            ]
            text = PREFIX + "[" + ",".join(items) + "]}"
        else:
            before = (old_head.pieces if old_head is not None else []) + old
            ops = delta_ops(before, (head.pieces if head is not None else []) + new)
            text = PREFIX + orjson.dumps(ops).decode() + "}"
        size = len(frame.encode()) + (head.size if head is not None else 0)
        return text if len(text.encode()) < size else whole


# A copy costs about this many bytes on the wire ("[1234,56],"): a run of pieces shorter than it
# goes as text.
COPY_BYTES = 10


def delta_ops(old: list[str], new: list[str]) -> list[list[int] | str]:
    """``new`` as copies of runs of ``old`` and new text, in one pass (a frame's pieces number in
    the thousands, and difflib's matcher took as long as drawing the frame): each piece of
    ``new`` is looked for where the last copy left off, else at its next place in ``old`` from
    there (else its first), and the run of equal pieces from that place is copied."""
    # Each piece's first place in ``old``, the dictionary built in C (the later places written
    # first, so the first stays); a later place is found by list.index, in C too.
    first = dict(zip(reversed(old), range(len(old) - 1, -1, -1), strict=True))
    ops: list[list[int] | str] = []
    text: list[str] = []
    expect, j, n = 0, 0, len(new)
    while j < n:
        piece = new[j]
        if expect < len(old) and old[expect] == piece:
            start = expect
        else:
            start = first.get(piece, -1)
            if start < 0:
                text.append(piece)
                j += 1
                continue
            if start < expect:
                try:
                    start = old.index(piece, expect)
                except ValueError:
                    pass  # not after the last copy: its first place
        run = 0
        while j + run < n and start + run < len(old) and old[start + run] == new[j + run]:
            run += 1
        # A piece is never empty: a run of COPY_BYTES pieces or more is worth a copy.
        if run < COPY_BYTES and sum(len(p) for p in new[j : j + run]) < COPY_BYTES:
            text.extend(new[j : j + run])
        else:
            if text:
                ops.append("".join(text))
                text = []
            ops.append([start, run])
        j += run
        expect = start + run
    if text:
        ops.append("".join(text))
    return ops


def rebuild(last: str, message: str) -> str:
    """The frame a message stands for, given the last frame (what the page does, in Python: for
    tests and for clients written in Python). A message that is not a delta is the frame."""
    return rebuild_from(pieces(last), message)


def rebuild_from(old: list[str], message: str) -> str:
    """``rebuild`` with the last frame already cut into ``pieces`` (a client that keeps them cuts
    each frame once)."""
    if not message.startswith(PREFIX):
        return message
    out = []
    for op in json.loads(message)["delta"]:
        if isinstance(op, str):
            out.append(op)
        else:
            start, count = op
            out.extend(old[start : start + count])
    return "".join(out)
