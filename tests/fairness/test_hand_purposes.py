"""The Hand engine's randomness, checked by both verifiers from public data alone: a match's
deals (``deal/<round>``) and rebuilt stocks (``reshuffle/<round>/<k>``) come from one source per
match, and a seat without a browser seed adds no seed line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import fairness.core as fairness
import games
from games.hand.scenario import build_state

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "verify" / "standalone" / "sahrat_verify.py"
JS = ROOT / "static" / "verify" / "fairness.js"

HAND = games.get("hand")
SECRET = bytes(range(100, 132))
IDENT = "match-77"
SEEDS = {0: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", 2: "00112233445566778899aabbccddeeff"}
FIRE = ["2H", "9S", "JK2", "QD", "QD", "5C", "KH", "AS", "3D", "10C", "7H"]


def _engine_results() -> dict:
    """What the engine did, seen from outside, with one source for the match (seats 1 and 3 sent
    no seed): round 3's stock rebuilt a second time, then round 4 dealt by the server."""
    rng = fairness.RandomSource(SECRET, "hand", IDENT, SEEDS)
    position = {
        "options": {"players": 4},
        "round": 3,
        "dealer": 1,
        "turn": 2,
        "hands": ["KD", "KD", "KD", "KD"],
        "opened": [55, 55, 55, 55],
    }
    state, _ = build_state({**position, "reshuffles": 1, "stock": [], "fire": FIRE})
    state = HAND.apply(state, 2, "draw stock", rng)
    r = state.round
    assert r.reshuffles == 2 and r.fire == (FIRE[-1],)
    (drawn,) = (c for c in r.hands[2] if c != "KD")  # the pile holds no KD
    reshuffle = [drawn, *r.stock]

    state, _ = build_state({**position, "phase": "play"})
    state = HAND.apply(state, 2, "throw KD", rng)
    assert HAND.server_step(state) == "deal"
    state = HAND.apply(state, None, "deal", rng)
    assert state.round.number == 4 and state.round.dealer == 2
    # The starter (seat 3) took the first 15 cards, then seats 0, 1 and 2 took 14 each.
    hands = [sorted(state.round.hands[seat]) for seat in (3, 0, 1, 2)]
    return {
        "reshuffle/3/2": reshuffle,
        "deal/4": {"hands": hands, "stock": list(state.round.stock)},
    }


def _standalone(purpose: str, items: list[str] | None) -> list[str]:
    args = [sys.executable, "-I", str(SCRIPT), "--game", "hand", "--secret", SECRET.hex()]
    args += ["--commitment", fairness.commitment(SECRET), "--id", IDENT, "--json"]
    args += [x for seat, seed in SEEDS.items() for x in ("--seed", f"{seat}={seed}")]
    args += ["--purpose", purpose]
    if items is not None:
        args += ["--items", ",".join(items)]
    out = subprocess.run(args, cwd=SCRIPT.parent, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["shuffles"][purpose]


def _browser(purpose: str, items: list[str] | None) -> list[str]:
    node = shutil.which("node")
    assert node, "node (v20 or newer) is needed to test static/verify/fairness.js"
    request = {
        "game": "hand",
        "secret": SECRET.hex(),
        "commitment": fairness.commitment(SECRET),
        "id": IDENT,
        "seeds": {str(k): v for k, v in SEEDS.items()},
        "purposes": [purpose],
        "items": items,
    }
    code = (
        f"import * as fair from {json.dumps(JS.as_uri())};\n"
        f"const r = await fair.verify({json.dumps(request)});\n"
        "if (!r.commitmentOk) process.exit(1);\n"
        "console.log(JSON.stringify(r.shuffles));\n"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", code], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)[purpose]


def _deal_of(deck: list[str]) -> dict:
    hands, pos = [], 0
    for k in range(4):
        take = 15 if k == 0 else 14
        hands.append(sorted(deck[pos : pos + take]))
        pos += take
    return {"hands": hands, "stock": deck[pos:]}


def test_both_verifiers_replay_the_engines_deal_and_reshuffle_from_public_data() -> None:
    got = _engine_results()
    pile = FIRE[:-1]  # the fire pile below its top card, oldest first, as the Verify page shows
    for verify in (_standalone, _browser):
        assert verify("reshuffle/3/2", pile) == got["reshuffle/3/2"], verify.__name__
        assert _deal_of(verify("deal/4", None)) == got["deal/4"], verify.__name__
    # The purpose names the round and the count within it: another k or round is another stock.
    assert _standalone("reshuffle/3/1", pile) != got["reshuffle/3/2"]
    assert _standalone("reshuffle/4/2", pile) != got["reshuffle/3/2"]


def test_a_seat_without_a_seed_has_no_line_in_the_key_message() -> None:
    message = fairness.key_message("hand", IDENT, SEEDS).decode()
    assert message.splitlines()[3:] == [f"seed/0={SEEDS[0]}", f"seed/2={SEEDS[2]}"]
