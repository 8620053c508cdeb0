"""Write tests/fairness/vectors.json, the sahrat-fair-v1 test vectors, from fairness/core.py.

``python -m tests.fairness.make_vectors --markdown`` prints the vector section of
docs/fairness.md from the file. Run it without ``--markdown`` only on purpose: the file is
frozen, and the tests check that fairness/core.py, the standalone verifier and the browser
verifier all still give it. Regenerating it after an accidental change to the algorithm would
hide that change. (It was regenerated on purpose once, when Hand moved to one source per match:
its vectors changed their ids and purposes; every Jakaro vector stayed byte for byte the same.)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import fairness.core as fairness  # noqa: E402

PATH = Path(__file__).with_name("vectors.json")


def _h(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def _seed(label: str) -> str:
    # Shaped like a browser-made seed: 16 random-looking bytes in hex.
    return _h(label).hex()[:32]


def _flip_one_bit(text: str) -> str:
    """``text`` with one bit of its last character flipped, staying in the token alphabet."""
    for bit in range(7):
        c = chr(ord(text[-1]) ^ (1 << bit))
        if c.isascii() and (c.isalnum() or c in "_.:/-"):
            return text[:-1] + c
    raise AssertionError(text)


def _trace_below(stream: Any, n: int) -> tuple[int, list[dict[str, Any]]]:
    """below(n) as _Stream does it, but recording every 32-bit draw and whether it was kept."""
    if n == 1:
        return 0, []
    mask = (1 << (n - 1).bit_length()) - 1
    draws = []
    while True:
        word = stream.u32()
        x = word & mask
        draws.append({"u32": f"{word:08x}", "masked": x, "rejected": x >= n})
        if x < n:
            return x, draws


def _trace_shuffle(key: bytes, items: list[str], purpose: str) -> tuple[list[str], list]:
    stream = fairness._Stream(key, purpose)
    out = list(items)
    steps = []
    for i in range(len(out) - 1, 0, -1):
        j, draws = _trace_below(stream, i + 1)
        steps.append({"i": i, "n": i + 1, "draws": draws, "j": j})
        out[i], out[j] = out[j], out[i]
    return out, steps


def vector(
    name: str,
    note: str,
    secret: bytes,
    game: str,
    ident: str,
    seeds: dict[int, str],
    shuffles: list[str] = (),
    belows: list[tuple[str, int]] = (),
    items: list[str] | None = None,
    trace: bool = False,
) -> dict[str, Any]:
    """One test vector, with the intermediate values a new implementation can debug against."""
    key = fairness.derive_key(secret, game, ident, seeds)
    source = fairness.RandomSource(secret, game, ident, seeds)
    deck = list(items) if items is not None else list(fairness.DECKS[game])
    v: dict[str, Any] = {
        "name": name,
        "note": note,
        "game": game,
        "secret": secret.hex(),
        "commitment": fairness.commitment(secret),
        "id": ident,
        "seeds": {str(k): s for k, s in sorted(seeds.items())},
        "key_message": fairness.key_message(game, ident, seeds).decode(),
        "key": key.hex(),
    }
    if items is not None:
        v["items"] = list(items)
    v["shuffles"] = []
    for purpose in shuffles:
        block0 = hmac.new(key, purpose.encode() + b"\x00" + bytes(8), hashlib.sha256).hexdigest()
        result = source.shuffle(deck, purpose)
        entry = {"purpose": purpose, "stream_block_0": block0, "result": result}
        if trace:
            traced, steps = _trace_shuffle(key, deck, purpose)
            assert traced == result
            entry["trace"] = steps
        v["shuffles"].append(entry)
    v["below"] = []
    for purpose, n in belows:
        value, draws = _trace_below(fairness._Stream(key, purpose), n)
        assert value == source.below(n, purpose)
        v["below"].append({"purpose": purpose, "n": n, "value": value, "draws": draws})
    return v


def build() -> dict[str, Any]:
    """All vectors, plus the commitment-mismatch and one-bit cases."""
    s1 = bytes(range(32))
    seeds1 = {seat: _seed(f"seat {seat}") for seat in range(4)}
    hand_seeds = {seat: _seed(f"hand seat {seat}") for seat in range(4)}
    flipped = s1[:-1] + bytes([s1[-1] ^ 1])
    vectors = [
        vector(
            "jakaro-match",
            "A Jakaro match with four seeds: the first two decks and two Ten burns.",
            s1,
            "jakaro",
            "match-1",
            seeds1,
            ["deal/1", "deal/2"],
            [("burn/1", 4), ("burn/2", 5)],
            trace=True,
        ),
        vector(
            "hand-match",
            "A Hand match (public id match-1042) with four browser seeds: one source for the "
            "whole match, so rounds 1 and 7 are two purposes of it.",
            _h("sahrat vector hand-match"),
            "hand",
            "match-1042",
            hand_seeds,
            ["deal/1", "deal/7"],
        ),
        vector(
            "hand-reshuffle",
            "Same match as hand-match: in round 7 the stock ran out twice; each time the fire "
            "pile (minus its top card), oldest card first, was shuffled into a new stock.",
            _h("sahrat vector hand-match"),
            "hand",
            "match-1042",
            hand_seeds,
            ["reshuffle/7/1", "reshuffle/7/2"],
            items=["7H", "7S", "JK1", "QD", "QC", "2H", "3H", "4H", "KD", "KS", "AS", "9C"],
            trace=True,
        ),
        vector(
            "jakaro-no-seeds",
            "No seeds at all: the key message ends after the id line.",
            _h("sahrat vector no seeds"),
            "jakaro",
            "m:2026-11-29/table.3",
            {},
            ["deal/1"],
        ),
        vector(
            "hand-seat-order",
            "Seats 2 and 10: seeds are listed by seat number (2 before 10), not as text.",
            _h("sahrat vector seat order"),
            "hand",
            "match-7",
            {10: "b", 2: "a"},
            ["deal/1"],
        ),
        vector(
            "jakaro-one-bit-secret",
            "The jakaro-match secret with its last bit flipped: a different deck.",
            flipped,
            "jakaro",
            "match-1",
            seeds1,
            ["deal/1"],
        ),
        vector(
            "jakaro-one-bit-seed",
            "jakaro-match with one bit of seat 3's seed flipped: a different deck.",
            s1,
            "jakaro",
            "match-1",
            {**seeds1, 3: _flip_one_bit(seeds1[3])},
            ["deal/1"],
        ),
        vector(
            "small-lists-and-edges",
            "Shuffles of a short list and the edges of below(n): n = 1 draws nothing, "
            "n = 2**32 never rejects.",
            bytes(32),
            "jakaro",
            "edge",
            {0: "x"},
            ["test/5", "test/5b"],
            [("below/1", 1), ("below/2", 2), ("below/3", 3), ("below/max", 1 << 32)],
            items=["a", "b", "c", "d", "e"],
            trace=True,
        ),
        vector(
            "hand-seats-without-seed",
            "A four-seat Hand match where seats 1 and 3 sent no browser seed (a bot, or a "
            "browser without WebCrypto): only seats 0 and 2 have a line, and no seed is made "
            "for the others. The deals of rounds 1 and 2.",
            _h("sahrat vector bots"),
            "hand",
            "match-2044",
            {0: _seed("bots seat 0"), 2: _seed("bots seat 2")},
            ["deal/1", "deal/2"],
        ),
    ]
    other = _h("not the committed secret")
    return {
        "version": fairness.VERSION,
        # The file is frozen, its note too: the core has since moved to fairness/core.py.
        "note": "Generated by tests/fairness/make_vectors.py from verify/fairness.py; frozen.",
        "vectors": vectors,
        "commitment_mismatch": {
            "note": "The jakaro-match secret against the commitment of another secret.",
            "secret": s1.hex(),
            "commitment": fairness.commitment(other),
        },
    }


def _cards(cards: list[str], per_line: int = 13) -> str:
    rows = [" ".join(cards[i : i + per_line]) for i in range(0, len(cards), per_line)]
    return "```\n" + "\n".join(rows) + "\n```"


def _trace_table(steps: list[dict[str, Any]], items: list[str] | None) -> list[str]:
    head = "| i | n | mask | 32-bit draws (hex → masked) | j |"
    if items is not None:
        head += " list after the swap |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    order = list(items) if items is not None else None
    for step in steps:
        n = step["n"]
        mask = (1 << (n - 1).bit_length()) - 1
        draws = ", ".join(
            f"`{d['u32']}` → {d['masked']}" + (" **rejected**" if d["rejected"] else "")
            for d in step["draws"]
        )
        row = f"| {step['i']} | {n} | {mask} | {draws} | {step['j']} |"
        if order is not None:
            i, j = step["i"], step["j"]
            order[i], order[j] = order[j], order[i]
            row += f" {' '.join(order)} |"
        lines.append(row)
    return lines


def render_markdown(data: dict[str, Any]) -> str:
    """The test-vector section of docs/fairness.md, rendered from vectors.json."""
    out: list[str] = []
    for number, v in enumerate(data["vectors"], 1):
        out += [f"### Vector {number}: `{v['name']}`", "", v["note"], ""]
        seeds = ", ".join(f"seat {k} = `{s}`" for k, s in v["seeds"].items()) or "none"
        out += [
            f"- game: `{v['game']}`",
            f"- secret: `{v['secret']}`",
            f"- commitment (SHA-256 of the secret): `{v['commitment']}`",
            f"- id: `{v['id']}`",
            f"- seeds: {seeds}",
            "- key message (every line ends with one LF byte, 0x0a, the last one too):",
            "",
            "```",
            v["key_message"].rstrip("\n"),
            "```",
            "",
            f"- key: `{v['key']}`",
        ]
        if "items" in v:
            out += [f"- items shuffled (instead of the canonical deck): `{' '.join(v['items'])}`"]
        out.append("")
        for sh in v["shuffles"]:
            out += [
                f"Purpose `{sh['purpose']}`: first stream block `{sh['stream_block_0']}`; "
                f"result ({len(sh['result'])} items, position 0 first, read across):",
                "",
                _cards(sh["result"]),
                "",
            ]
            if "trace" in sh:
                steps = sh["trace"] if len(sh["trace"]) <= 12 else sh["trace"][:6]
                shown = "all steps" if steps is sh["trace"] else "the first six steps"
                out += [f"Trace of `{sh['purpose']}` ({shown}):", ""]
                out += _trace_table(steps, v.get("items") if steps is sh["trace"] else None)
                out.append("")
        for b in v["below"]:
            draws = ", ".join(
                f"`{d['u32']}` → {d['masked']}" + (" rejected" if d["rejected"] else " kept")
                for d in b["draws"]
            )
            out.append(
                f'- `below({b["n"]}, "{b["purpose"]}")` = **{b["value"]}**'
                + (f" (draws: {draws})" if draws else " (no draw is made when n = 1)")
            )
        if v["below"]:
            out.append("")
    m = data["commitment_mismatch"]
    out += [
        "### Commitment mismatch",
        "",
        m["note"],
        "",
        f"- secret: `{m['secret']}`",
        f"- published commitment: `{m['commitment']}`",
        "- SHA-256 of the secret is "
        f"`{hashlib.sha256(bytes.fromhex(m['secret'])).hexdigest()}`: a verifier must report a "
        "mismatch and show no shuffle.",
        "",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    if sys.argv[1:] == ["--markdown"]:
        print(render_markdown(json.loads(PATH.read_text())), end="")
    else:
        PATH.write_text(json.dumps(build(), indent=1) + "\n")
        print(f"wrote {PATH}")
