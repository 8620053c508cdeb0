"""Recount tests/jakaro/perft.json: ``python -m tests.jakaro.make_perft [--resample]``.

Eight positions are written by hand (their counts are also derived by hand in test_perft.py);
the rest were taken from random games with fixed secrets, so the file covers ordinary play too.
Depth 2 is the sum, over each legal action, of the number of legal actions of the seat to play
next (a Ten burn or a new deal draws from the position's secret).

By default the stored positions are kept and only their counts are recounted (a rule change
then shows as changed counts on the same positions, which the script lists); ``--resample``
plays the random games again, which gives new positions whenever a rule or the bot changed.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from fairness.core import RandomSource
from games.jakaro.board import label
from games.jakaro.bot import bot_action
from games.jakaro.engine import Options, State, apply, legal_actions, new_match, to_json, view
from games.jakaro.scenario import build

HERE = Path(__file__).parent
B = ["base"] * 4
FILL = ["QD", "9D", "8D", "6D", "3D"]  # cards for seats whose hand does not matter

HAND_WRITTEN = [
    {
        "name": "opening, only the Ace and King can play",
        "players": 4,
        "marbles": {},
        "hands": {
            "0": ["AS", "KH", "2C", "4D", "7S"],
            "1": ["3H", "5D", "9S", "QC", "JD"],
            "2": FILL,
            "3": ["2D", "4H", "6C", "8C", "10C"],
        },
        "turn": 0,
    },
    {
        "name": "one marble out, five plain cards",
        "players": 4,
        "marbles": {"0": [5, "base", "base", "base"]},
        "hands": {
            "0": ["2S", "3S", "4S", "5S", "6S"],
            "1": ["2H", "3H", "9H", "QH", "8H"],
            "2": FILL,
            "3": ["2D", "4H", "6C", "8C", "10C"],
        },
        "turn": 0,
    },
    {
        "name": "a Seven with two free marbles",
        "players": 4,
        "marbles": {"0": [10, 30, "base", "base"]},
        "hands": {"0": ["7H"], "1": ["AS"], "2": ["2D"], "3": ["3D"]},
        "turn": 0,
    },
    {
        "name": "a Jack among protected marbles",
        "players": 4,
        "marbles": {
            "0": [10, 20, "base", "base"],
            "1": [19, 25, "base", "base"],
            "2": [40, *B[:3]],
        },
        "hands": {"0": ["JC"], "1": ["KS"], "2": ["2D"], "3": ["3D"]},
        "turn": 0,
    },
    {
        "name": "the King and Queen cannot pass a marble on its start",
        "players": 4,
        "marbles": {"0": [10, "base", "base", "base"], "1": [19, *B[:3]]},
        "hands": {"0": ["KS", "QS"], "1": ["2H"], "2": ["2D"], "3": ["3D"]},
        "turn": 0,
    },
    {
        "name": "two players, a Five",
        "players": 2,
        "marbles": {"0": [10, "base", "base", "base"], "1": [38, 50, "base", "base"]},
        "hands": {"0": ["5D"], "1": ["9C"]},
        "turn": 0,
    },
    {
        "name": "home: exact counts, no jumping",
        "players": 4,
        "marbles": {"0": [74, "H1", "base", "base"]},
        "hands": {"0": ["2S", "3S", "5S", "6S"], "1": ["2H"], "2": ["2D"], "3": ["3D"]},
        "turn": 0,
    },
    {
        "name": "the winning move",
        "players": 4,
        "marbles": {"0": ["H0", "H1", "H2", "H3"], "2": [35, "H1", "H2", "H3"]},
        "hands": {"0": ["3S"], "1": ["2H"], "2": ["2D"], "3": ["3D"]},
        "turn": 0,
    },
]


# What the engine's stored state holds that a perft position does not: the version, the last
# play, the winner and the ply count (none of them changes which actions are legal).
NOT_IN_A_POSITION = ("v", "last", "winner", "ply")


def position_of(state: State, secret: str, ident: str, name: str) -> dict:
    """A state written as a scenario/perft position: the engine's own serialiser (``to_json``),
    with the marbles as scenario labels and the hands by seat."""
    stored = json.loads(to_json(state))
    players, marbles, hands = stored.pop("players"), stored.pop("marbles"), stored.pop("hands")
    for key in NOT_IN_A_POSITION:
        stored.pop(key)
    return {
        "name": name,
        "players": players,
        "marbles": {str(s): [label(p) for p in marbles[4 * s : 4 * s + 4]] for s in range(players)},
        "hands": {str(s): hands[s] for s in range(players)},
        **stored,
        "secret": secret,
        "ident": ident,
    }


def perft(state: State, rng: RandomSource) -> tuple[int, int]:
    """(depth 1, depth 2) counts as defined in the module docstring."""
    first = legal_actions(state)
    return len(first), sum(len(legal_actions(apply(state, state.turn, a, rng))) for a in first)


def sampled() -> list[dict]:
    out = []
    for i, (players, plies) in enumerate(
        [
            (4, 6),
            (4, 30),
            (4, 61),
            (4, 90),
            (4, 140),
            (4, 201),
            (4, 260),
            (2, 9),
            (2, 45),
            (2, 88),
            (2, 130),
            (4, 333),
        ]
    ):
        secret = f"{i + 1:02x}" * 32
        ident = f"perft-{i}"
        rng = RandomSource(bytes.fromhex(secret), "jakaro", ident)
        rnd = random.Random(i)
        state = new_match(Options(players), rng)
        for k in range(plies):
            if state.winner is not None:
                break
            a = bot_action(view(state, state.turn)) if k % 3 else rnd.choice(legal_actions(state))
            state = apply(state, state.turn, a, rng)
        if state.winner is None:
            out.append(position_of(state, secret, ident, f"{players} players after {plies} plies"))
    return out


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    path = HERE / "perft.json"
    if "--resample" in args or not path.exists():
        positions = HAND_WRITTEN + sampled()
        old: dict[str, tuple[int, int]] = {}
    else:
        rows = json.loads(path.read_text(encoding="utf-8"))
        old = {r["name"]: (r["depth1"], r["depth2"]) for r in rows}
        positions = [{k: v for k, v in r.items() if k not in ("depth1", "depth2")} for r in rows]
    rows = []
    for pos in positions:
        state, rng = build(pos)
        d1, d2 = perft(state, rng)
        rows.append({**pos, "depth1": d1, "depth2": d2})
        if pos["name"] in old and old[pos["name"]] != (d1, d2):
            print(f"changed: {pos['name']}: {old[pos['name']]} -> {(d1, d2)}")
    path.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} positions written")


if __name__ == "__main__":
    main()
