"""Hand meld cases with melds.py's answers, for the browser's copy (static/js/melds.js).

test_melds_js.py makes them afresh at each run and hands them to Node
(tests/hand/melds.test.mjs): the answers are whatever melds.py gives today, the engine being
the truth, so a rule change needs no stored file brought up to date, only the JS made to agree.
To run Node alone: ``python -m tests.hand.make_meld_cases`` writes tests/hand/meld_cases.json
(not kept in git), then ``node --test tests/hand/melds.test.mjs``.

The cases are drawn from a fixed seed: runs of every length from 3 to 14 with and without a
joker, the Ace low, high and both; sets of three and four; random hands of cards that mostly
make no meld; lay-offs on runs and sets (the set of three whose joker moves to the missing
suit); what frees a joker; the joker picker's choices; and written edge cases (two jokers, a
joker standing for nothing or for a joker, a card that is none, one card twice).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.hand import melds  # noqa: E402
from games.hand.cards import ID_TO_CARD, JOKERS, RANKS, SUITS, make  # noqa: E402

PATH = Path(__file__).with_name("meld_cases.json")
SEED = 19
ALL = list(ID_TO_CARD)

Tokens = list[list[str | None]]


def _tokens(text: str) -> Tokens:
    """``"5H JK1=6H 7H"`` as [[card, stands|None], …]; ``JK1=`` is a joker named for nothing."""
    out: Tokens = []
    for t in text.split():
        card, _, stands = t.partition("=")
        out.append([card, stands if "=" in t else None])
    return out


def _meld_json(m: melds.Meld) -> dict[str, Any]:
    return {
        "kind": m.kind,
        "cards": list(m.cards),
        "stands": list(m.stands),
        "low": m.low,
        "points": m.points(),
    }


def _answer(fn: Any, *args: Any) -> dict[str, Any]:
    try:
        return {"ok": True, **_meld_json(fn(0, *args) if fn is melds.build else fn(*args))}
    except melds.MeldError as exc:
        return {"ok": False, "code": exc.code}


def _as_pairs(tokens: Tokens) -> list[tuple[str, str | None]]:
    return [(c, s) for c, s in tokens]  # type: ignore[misc]


def build_case(tokens: Tokens) -> dict[str, Any]:
    return {"tokens": tokens, "want": _answer(melds.build, _as_pairs(tokens))}


def _meld(tokens: Tokens) -> melds.Meld:
    return melds.build(0, _as_pairs(tokens))


def extend_case(meld: melds.Meld, tokens: Tokens) -> dict[str, Any]:
    m = _meld_json(meld)
    shown = {"kind": m["kind"], "cards": m["cards"], "stands": m["stands"]}
    return {"meld": shown, "tokens": tokens, "want": _answer(melds.extend, meld, _as_pairs(tokens))}


def choices(cards: list[str], meld: melds.Meld | None = None) -> list[str]:
    """The joker picker's answer, from melds.py: every card the first joker may stand for."""
    joker = next((c for c in cards if c in JOKERS), None)
    out = []
    for c in ALL:
        tokens = [(x, c if x == joker else None) for x in cards]
        try:
            melds.extend(meld, tokens) if meld else melds.build(0, tokens)
        except melds.MeldError:
            continue
        out.append(c)
    return out


def _run(rng: random.Random, length: int) -> list[str]:
    """A run of ``length`` cards in one suit, the Ace low or high, in a random order."""
    suit = rng.choice(SUITS)
    low = rng.randint(1, 15 - length)
    cards = [make(v, suit) for v in range(low, low + length)]
    rng.shuffle(cards)
    return cards


def _with_joker(rng: random.Random, cards: list[str]) -> Tokens:
    i = rng.randrange(len(cards))
    joker = rng.choice(JOKERS)
    return [[joker, c] if k == i else [c, None] for k, c in enumerate(cards)]


def _set(rng: random.Random, size: int) -> list[str]:
    rank = rng.choice(RANKS)
    return [rank + s for s in rng.sample(SUITS, size)]


EDGES = [
    "",
    "5H",
    "5H 6H",
    "AH 2H 3H",
    "QH KH AH",
    "KH AH 2H",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H",
    "AH AS AD",
    "AH AS AD AC",
    "AH AS AD AC AH",
    "7H 7S 7D 7C 7H",
    "7H 7H 7D",
    "5H 5H 6H",
    "5H 6H 6H 7H",
    "5H 6H 8H",
    "5H 6S 7H",
    "5H 5S 6H",
    "JK1=5H JK2=6H 7H",
    "JK1=5H JK2=6H",
    "JK1 6H 7H",
    "JK1=JK2 6H 7H",
    "JK1=JK1 6H 7H",
    "JK1=1H 6H 7H",
    "JK1=5H 6H 7H",
    "JK2=KH QH AH",
    "JK1=AH 2H 3H",
    "JK1=AH KH QH",
    "JK1=7H 6H 7H",
    "JK1=7C 7H 7S",
    "JK1=7H 7H 7S",
    "JK1=7C 7H 7S 7D",
    "JK1=7C 7H 7S 7D 7C",
    "JK1=AH AS AD",
    "5H=6H 7H 8H",
    "5H=5H 6H 7H",
    "1H 2H 3H",
    "ZZ 2H 3H",
    "10H JH QH",
    "9H 10H JH QH KH AH",
    "JK1=10C JC QC",
    "JK1=2D AD 3D",
    "JK1=AD 2D AD",
]


def build_cases(rng: random.Random) -> list[dict[str, Any]]:
    out = [build_case(_tokens(t)) for t in EDGES]
    for length in range(3, 15):
        for _ in range(12):
            cards = _run(rng, length)
            out.append(build_case([[c, None] for c in cards]))
            out.append(build_case(_with_joker(rng, cards)))
    for size in (3, 4):
        for _ in range(40):
            cards = _set(rng, size)
            out.append(build_case([[c, None] for c in cards]))
            out.append(build_case(_with_joker(rng, cards)))
    for _ in range(600):
        n = rng.choice([0, 1, 2, 3, 3, 3, 4, 4, 5, 6])
        cards = [rng.choice([*ALL, *JOKERS]) for _ in range(n)]
        tokens: Tokens = []
        for c in cards:
            named = c in JOKERS and rng.random() < 0.9
            tokens.append([c, rng.choice([*ALL, *JOKERS]) if named else None])
        out.append(build_case(tokens))
    for _ in range(150):
        # Nearly a run: one card off by a rank or a suit, or one left out.
        cards = _run(rng, rng.randint(3, 8))
        i = rng.randrange(len(cards))
        how = rng.choice(["rank", "suit", "drop", "twice"])
        if how == "rank":
            cards[i] = rng.choice(RANKS) + cards[i][-1]
        elif how == "suit":
            cards[i] = cards[i][:-1] + rng.choice(SUITS)
        elif how == "drop" and len(cards) > 3:
            cards.pop(i)
        else:
            cards.append(cards[i])
        tokens = [[c, None] for c in cards]
        out.append(build_case(_with_joker(rng, cards) if rng.random() < 0.4 else tokens))
    return out


def _open_melds(rng: random.Random) -> list[melds.Meld]:
    """Melds as they lie on a table: runs and sets, some holding a joker."""
    out = [
        _meld(_tokens(t))
        for t in ["7H 7S JK1=7D", "7H 7S 7D JK1=7C", "AH 2H JK2=3H", "QS KS JK1=AS", "4D 5D 6D"]
    ]
    for _ in range(70):
        if rng.random() < 0.5:
            cards = _run(rng, rng.randint(3, 12))
        else:
            cards = _set(rng, rng.choice([3, 3, 4]))
        tokens = _with_joker(rng, cards) if rng.random() < 0.5 else [[c, None] for c in cards]
        out.append(_meld(tokens))
    return out


def _fits(meld: melds.Meld) -> list[str]:
    """Cards that lay off on this meld on their own (some of them)."""
    return [c for c in ALL if _answer(melds.extend, meld, [(c, None)])["ok"]]


def extend_cases(rng: random.Random, table: list[melds.Meld]) -> list[dict[str, Any]]:
    out = []
    for meld in table:
        fits = _fits(meld)
        for _ in range(4):
            out.append(extend_case(meld, [[rng.choice(ALL), None]]))
        for c in fits[:4]:
            out.append(extend_case(meld, [[c, None]]))
        if len(fits) >= 2:
            out.append(extend_case(meld, [[c, None] for c in rng.sample(fits, 2)]))
        for _ in range(3):
            joker = rng.choice(JOKERS)
            out.append(extend_case(meld, [[joker, rng.choice(ALL)]]))
        out.append(extend_case(meld, [["JK1", None]]))
        if meld.joker:
            # The card the joker stands for, laid off (a set of three's joker moves).
            j = meld.cards.index(meld.joker)
            out.append(extend_case(meld, [[meld.stands[j], None]]))
    out.append(extend_case(table[0], [["ZZ", None]]))
    out.append(extend_case(table[4], [["7D", "8D"]]))
    out.append(extend_case(table[4], [["JK1", "7D"], ["JK2", "8D"]]))
    out.append(extend_case(table[4], [["3D", None], ["7D", None]]))
    out.append(extend_case(table[4], [["2D", None], ["3D", None], ["7D", None], ["8D", None]]))
    out.append(extend_case(table[0], [["7C", None], ["7C", None]]))
    return out


def swap_cases(table: list[melds.Meld]) -> list[dict[str, Any]]:
    return [
        {"meld": extend_case(m, [])["meld"], "want": list(melds.swap_needs(m))}
        for m in table
        if m.joker or m is table[4]
    ]


def choice_cases(rng: random.Random, table: list[melds.Meld]) -> list[dict[str, Any]]:
    out = []
    for _ in range(60):
        cards = rng.choice([_run(rng, rng.randint(2, 6)), _set(rng, rng.choice([2, 3]))])
        cards[rng.randrange(len(cards))] = rng.choice(JOKERS)
        out.append({"cards": cards, "meld": None, "want": choices(cards)})
    for _ in range(40):
        cards = [rng.choice(ALL) for _ in range(rng.randint(2, 4))]
        cards[0] = rng.choice(JOKERS)
        out.append({"cards": cards, "meld": None, "want": choices(cards)})
    out.append({"cards": ["JK1", "JK2", "5H"], "meld": None, "want": choices(["JK1", "JK2", "5H"])})
    for meld in table:
        if meld.joker:
            continue
        fits = _fits(meld)
        cards = ["JK2", *fits[:1]] if rng.random() < 0.5 else ["JK1"]
        shown = extend_case(meld, [])["meld"]
        out.append({"cards": cards, "meld": shown, "want": choices(cards, meld)})
    return out


def generate() -> dict[str, Any]:
    rng = random.Random(SEED)
    table = _open_melds(rng)
    cases = {
        "build": build_cases(rng),
        "extend": extend_cases(rng, table),
        "swap_needs": swap_cases(table),
        "joker_choices": choice_cases(rng, table),
    }
    return {
        "note": "Generated by tests/hand/make_meld_cases.py from games/hand/melds.py.",
        "count": sum(len(v) for v in cases.values()),
        **cases,
    }


def write(path: Path = PATH) -> int:
    """Write the cases to ``path``; the number of cases."""
    data = generate()
    path.write_text(json.dumps(data, separators=(",", ":")))
    return data["count"]


if __name__ == "__main__":
    print(f"{PATH.relative_to(ROOT)}: {write()} cases")
