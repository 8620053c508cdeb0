"""The Jakaro rules engine: state, complete legal actions, apply, per-seat view, outcome, JSON.

Pure Python (no Django). Every rule lives in one of the small functions below; the names say
which: ``_out`` (Ace/King bring a marble out), ``_dest`` / ``_forward`` (every forward count, the
King's knock-outs, home entry), ``_back_dest`` / ``_backward`` (the Four), ``_effect_<kind>``
(what each card may do with which marble: the Five, the split Seven, the Jack), ``_deal`` (decks
and deals), ``apply`` and the ``_do_<kind>`` functions (turn order, Ten burns, burning a card when
stuck, winning). The decisions taken where the printed rules are silent are listed in
docs/rules/jakaro.md.

Actions have one canonical text (the match log and scenario files store it), written only by
``Action.to_str`` (through ``_text``) and read only by ``Action.parse``:

    out AS              bring a marble out (Ace or King)
    move 8H m2          move your marble 2 forward by the card (Ace needs 1 or 11: move AS m1 11)
    move 5S 1:m0        the Five on seat 1's marble 0 (any seat's marble is written s:mK)
    back 4C m0          the Four, backwards
    split 7D m0 3 m1 4  the Seven in two parts, played in the order written
    swap JH m1 3:m2     the Jack: your marble 1 with seat 3's marble 2
    burn10 10D          the Ten burns a random card from the next player's hand
    discard 9C          burn a card of your choice (only when you have no legal move)

``mK`` always means a marble of the acting seat; once your four are home your cards move your
partner's marbles, written ``p:mK`` with the partner's seat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

from fairness.core import JAKARO_DECK, RandomSource
from games import contract
from games.contract import BadOptions, MissingRandomSource, Outcome

from .board import BASE, HOME0, TRACK, partner, start_square, team, team_seats
from .messages import MESSAGES

JSON_VERSION = 2
DEAL_SCHEDULE: dict[int, tuple[int, ...]] = {4: (5, 4, 4), 2: (5, 4, 4, 4, 4, 5)}
CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(JAKARO_DECK)}
# Plain forward counts; A (1/11), K (13), 4 (back), 7 (split), 5 (anyone) and J (swap) are special.
FORWARD: dict[str, tuple[int, ...]] = {
    "A": (1, 11),
    "2": (2,),
    "3": (3,),
    "5": (5,),
    "6": (6,),
    "7": (7,),
    "8": (8,),
    "9": (9,),
    "10": (10,),
    "Q": (12,),
    "K": (13,),
}
STARTS: dict[int, tuple[int, ...]] = {
    n: tuple(start_square(n, s) for s in range(n)) for n in (2, 4)
}
KINDS = ("out", "move", "back", "split", "swap", "burn10", "discard")
_SHAPES = {"out": "", "burn10": "", "discard": "", "back": "m", "swap": "mm", "split": "mnmn"}
_OPTION_KEYS = frozenset({"players"})


class IllegalAction(contract.IllegalAction):
    """A refused action: ``code`` is stable, ``message(lang)`` is for the player. Codes both
    games share (bad_action, not_your_turn, match_over, no_such_seat) are in games/messages.py."""

    messages = MESSAGES


def rank(card: str) -> str:
    """The rank of a card text: ``"10H"`` -> ``"10"``."""
    return card[:-1]


def sort_hand(cards: Any) -> tuple[str, ...]:
    """Hands are kept in canonical deck order (S, H, D, C; A..K): the Ten's burn draws an index
    into this order, so it is part of what the Verify page recomputes."""
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


@dataclass(frozen=True)
class Options:
    """Table options the engine needs: two or four players."""

    players: int = 4

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in (2, 4):
            raise BadOptions("bad_players", "Jakaro is played by 2 or 4 players")


def parse_options(data: Mapping[str, Any]) -> Options:
    """Options from plain data (``{"players": 2 | 4}``, 4 when left out); BadOptions for
    anything else: unknown keys, a non-int (a bool is not a count), another number."""
    if not isinstance(data, Mapping):
        raise BadOptions("bad_options", "options are a mapping")
    unknown = set(data) - _OPTION_KEYS
    if unknown:
        raise BadOptions("bad_options", f"unknown options {sorted(map(str, unknown))}")
    players = data.get("players", 4)
    if type(players) is not int:
        raise BadOptions("bad_options", f"players is a whole number, not {players!r}")
    return Options(players)


def options_to_dict(options: Options) -> dict[str, Any]:
    """The inverse of ``parse_options``."""
    return {"players": options.players}


@dataclass(frozen=True)
class State:
    """A whole match. ``marbles`` is flat, seat-major (seat s owns 4s..4s+3); see board.py for the
    position encoding. ``deck`` is what is left to deal of the current deck and ``discard`` what
    has been played (or burned) from it, so hands + deck + discard is always the 52 cards."""

    players: int
    marbles: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    deck_no: int  # 1, 2, ...: the current deck was shuffled with purpose deal/<deck_no>
    deal_no: int  # deals already made from the current deck
    dealer: int
    turn: int | None  # seat to play; None once the match is over
    burn_no: int  # Ten burns so far in the match (the next uses burn/<burn_no + 1>)
    discard: tuple[str, ...]
    last: tuple[int, str, str] | None = None  # (seat, action text, burned card or "")
    winner: int | None = None  # winning team
    ply: int = 0


@dataclass(frozen=True)
class Action:
    """One move in canonical form. ``marbles`` are flat marble indices (4·seat + k)."""

    seat: int
    kind: str
    card: str
    marbles: tuple[int, ...] = ()
    nums: tuple[int, ...] = ()

    def to_str(self) -> str:
        """The canonical text (see the module docstring)."""
        tail = _tail(self.seat, self.kind, rank(self.card), self.marbles, self.nums)
        return _text(self.kind, self.card, tail)

    @staticmethod
    def parse(text: str, seat: int) -> Action:
        """Read an action text played by ``seat``; raises IllegalAction("bad_action")."""
        action = _PARSED.get((text, seat)) if isinstance(text, str) else None
        if action is None:
            action = Action._read(text, seat)  # raises for anything but a valid text
            if len(_PARSED) >= PARSED_KEPT:
                _PARSED.clear()
            _PARSED[(text, seat)] = action
        return action

    @staticmethod
    def _read(text: str, seat: int) -> Action:
        if not isinstance(text, str):
            raise IllegalAction("bad_action", "an action is a text")
        parts = text.split()
        if len(parts) < 2 or parts[0].lower() not in KINDS:
            raise IllegalAction("bad_action", f"unknown action {text!r}")
        kind, card, rest = parts[0].lower(), parts[1].upper(), parts[2:]
        if card not in CARD_INDEX:
            raise IllegalAction("bad_action", f"unknown card {parts[1]!r}")
        # m = a marble, n = a count; the Ace's move needs its count, other moves may omit it.
        shape = ("mn" if len(rest) == 2 else "m") if kind == "move" else _SHAPES[kind]
        if len(rest) != len(shape):
            raise IllegalAction("bad_action", f"wrong number of parts in {text!r}")
        marbles: list[int] = []
        nums: list[int] = []
        for token, what in zip(rest, shape, strict=True):
            if what == "m":
                marbles.append(_parse_ref(token, seat))
            elif _is_count(token) and len(token) <= 2:
                nums.append(int(token))
            else:
                raise IllegalAction("bad_action", f"{token!r} is not a count")
        if kind == "move":
            allowed = FORWARD.get(rank(card), ())
            if not allowed:
                raise IllegalAction("wrong_card", f"{card} does not move forward")
            if not nums:
                if len(allowed) != 1:
                    raise IllegalAction("bad_action", "say how far: 1 or 11")
                nums = [allowed[0]]
            elif nums[0] not in allowed:
                raise IllegalAction("wrong_card", f"{card} cannot move {nums[0]}")
        return Action(seat, kind, card, tuple(marbles), tuple(nums))


# Texts read before, by (text, seat): a bot reads every legal action of its view at each turn, and
# a seat's legal texts repeat from turn to turn. Only what was read without an error is kept (an
# Action is frozen); a plain dict, cleared when full.
PARSED_KEPT = 1 << 14
_PARSED: dict[tuple[str, int], Action] = {}


def _text(kind: str, card: str, tail: str) -> str:
    """The one writer of action texts: kind, card, then the tail from ``_tail``."""
    return f"{kind} {card}{tail}"


def _tail(seat: int, kind: str, r: str, marbles: tuple[int, ...], nums: tuple[int, ...]) -> str:
    """What follows the card in an action text (marbles and counts); "" for out/burn10/discard.
    Only the Ace's move names its count: every other forward card has one."""
    if kind == "move":
        count = f" {nums[0]}" if r == "A" else ""
        return f" {_ref(seat, marbles[0])}{count}"
    if kind == "back":
        return f" {_ref(seat, marbles[0])}"
    if kind == "split":
        return f" {_ref(seat, marbles[0])} {nums[0]} {_ref(seat, marbles[1])} {nums[1]}"
    if kind == "swap":
        return f" {_ref(seat, marbles[0])} {_ref(seat, marbles[1])}"
    return ""


def _is_count(token: str) -> bool:
    """ASCII digits only: str.isdigit() also says yes to "²" (which int() refuses) and to
    Arabic-Indic digits, which are not the canonical text."""
    return token.isascii() and token.isdigit()


def _ref(seat: int, mi: int) -> str:
    return _REFS[seat][mi]


# How seat s writes marble mi: its own "mK", any other seat's "t:mK" (a table: the listing
# writes thousands of these).
_REFS = tuple(
    tuple(f"m{mi & 3}" if mi >> 2 == s else f"{mi >> 2}:m{mi & 3}" for mi in range(16))
    for s in range(4)
)


def _parse_ref(token: str, seat: int) -> int:
    owner, _, m = token.rpartition(":")
    if not (len(m) == 2 and m[:1] in "mM" and _is_count(m[1:]) and int(m[1:]) < 4):
        raise IllegalAction("bad_action", f"{token!r} is not a marble (m0..m3 or s:m0..s:m3)")
    if owner == "":
        return seat * 4 + int(m[1:])
    if not _is_count(owner) or int(owner) > 3:
        raise IllegalAction("bad_action", f"{token!r} names no seat")
    return int(owner) * 4 + int(m[1:])


# ---------------------------------------------------------------------------------------------
# Movement. These work on a marble tuple alone (public information), so bots can use them too.
# Refusals are returned as a code (a str), which is cheap to test while listing legal actions.
#
# ``occ`` maps each track square to the marble on it (-1: empty); ``prot`` lists the start
# squares where a marble sits on its own start (at most four): nothing passes or lands there, so
# a path is checked against these few squares instead of square by square.


def occupancy(marbles: tuple[int, ...]) -> list[int]:
    """Track square -> index of the marble on it, or -1."""
    occ = [-1] * TRACK
    for i, p in enumerate(marbles):
        if 0 <= p < TRACK:
            occ[p] = i
    return occ


def protected_squares(occ: list[int], starts: tuple[int, ...]) -> tuple[int, ...]:
    """The start squares on which a marble of that start's colour sits."""
    return tuple([st for s, st in enumerate(starts) if occ[st] >= 0 and occ[st] >> 2 == s])


def all_home(marbles: Sequence[int], seat: int) -> bool:
    """Are the seat's four marbles home?"""
    b = seat * 4
    return min(marbles[b : b + 4]) >= HOME0


def controlled(marbles: Sequence[int], players: int, seat: int) -> int:
    """Whose marbles the seat's cards move: its own, or its partner's once its own are home."""
    if players == 4 and all_home(marbles, seat):
        return (seat + 2) % 4
    return seat


def _out_marble(marbles: tuple[int, ...], occ: list[int], starts: tuple[int, ...], who: int) -> Any:
    """The marble an Ace or King brings out (the lowest-numbered in base), or a refusal code."""
    b = who * 4
    for mi in range(b, b + 4):
        if marbles[mi] == BASE:
            break
    else:
        return "no_marble_in_base"
    o = occ[starts[who]]
    if o >= 0 and o >> 2 == who:
        return "start_blocked_own"
    return mi


def _out(marbles: tuple[int, ...], occ: list[int], starts: tuple[int, ...], who: int) -> Any:
    """The marbles after bringing one of ``who``'s out, or a refusal code."""
    mi = _out_marble(marbles, occ, starts, who)
    if isinstance(mi, str):
        return mi
    st = starts[who]
    new = list(marbles)
    if occ[st] >= 0:
        new[occ[st]] = BASE  # coming out knocks out another colour sitting on our start
    new[mi] = st
    return tuple(new)


def _dest(
    marbles: Sequence[int],
    occ: list[int],
    prot: tuple[int, ...],
    starts: tuple[int, ...],
    mi: int,
    n: int,
    home_ok: bool,
) -> int | str:
    """Where marble ``mi`` ends ``n`` squares forward (a track square or a home slot), or the
    refusal code. ``home_ok``: the marble is moved by its own team, so it turns into its home
    column at its entry (it never passes its home); otherwise (an opponent's Five) it stays on
    the track and goes past its home. Codes come in the order a square-by-square walk meets
    them: a protected marble on the track part, then the landing square, then the home part."""
    pos = marbles[mi]
    if pos == BASE:
        return "marble_in_base"
    if pos >= HOME0:
        if not home_ok:
            return "marble_home"
        t = pos + n
        if t > HOME0 + 3:
            return "overshoot_home"
        b = (mi >> 2) * 4
        own = marbles[b : b + 4]
        for q in range(pos + 1, t + 1):
            if q in own:
                return "home_blocked"
        return t
    steps = n  # squares walked on the track
    if home_ok:
        p = (pos - starts[mi >> 2]) % TRACK
        if p + n > TRACK + 3:
            return "overshoot_home"
        if p + n >= TRACK:
            steps = TRACK - 1 - p
    for sq in prot:
        if 0 < (sq - pos) % TRACK <= steps:
            return "blocked_protected"  # nobody passes or lands on a marble on its own start
    if steps < n:
        slot = HOME0 + p + n - TRACK
        b = (mi >> 2) * 4
        own = marbles[b : b + 4]
        for q in range(HOME0, slot + 1):
            if q in own:
                return "home_blocked"
        return slot
    dest = pos + n
    if dest >= TRACK:
        dest -= TRACK
    o = occ[dest]
    if o >= 0 and o >> 2 == mi >> 2:
        return "land_on_own"
    return dest


def _forward(
    marbles: tuple[int, ...],
    occ: list[int],
    prot: tuple[int, ...],
    starts: tuple[int, ...],
    mi: int,
    n: int,
    home_ok: bool,
    king: bool,
) -> Any:
    """The marbles after moving ``mi`` n squares forward (see ``_dest``), or a refusal code.
    ``king``: every marble passed is knocked out as well as the one landed on."""
    dest = _dest(marbles, occ, prot, starts, mi, n, home_ok)
    if isinstance(dest, str):
        return dest
    new = list(marbles)
    pos = marbles[mi]
    if pos < HOME0:
        if king:
            # Passed squares: all n - 1 before the landing, or every track square up to the
            # entry when the move ends in the home column.
            passed = n - 1 - (dest - HOME0 if dest >= HOME0 else 0)
            for i in range(1, passed + 1):
                o = occ[(pos + i) % TRACK]
                if o >= 0:
                    new[o] = BASE  # the King knocks out everything it passes, own colour too
        if dest < HOME0 and occ[dest] >= 0:
            new[occ[dest]] = BASE
    new[mi] = dest
    return tuple(new)


def _back_dest(
    marbles: tuple[int, ...], prot: tuple[int, ...], occ: list[int], mi: int
) -> int | str:
    """Where the Four takes marble ``mi`` (four squares back on the track), or a refusal code.
    From its start a marble lands four squares before its home column (progress 72), which is
    the short cut; no special case is needed."""
    pos = marbles[mi]
    if pos == BASE:
        return "marble_in_base"
    if pos >= HOME0:
        return "marble_home"
    for sq in prot:
        if 0 < (pos - sq) % TRACK <= 4:
            return "blocked_protected"
    dest = (pos - 4) % TRACK
    o = occ[dest]
    if o >= 0 and o >> 2 == mi >> 2:
        return "land_on_own"
    return dest


def _backward(marbles: tuple[int, ...], occ: list[int], prot: tuple[int, ...], mi: int) -> Any:
    """The marbles after the Four moves ``mi``, or a refusal code."""
    dest = _back_dest(marbles, prot, occ, mi)
    if isinstance(dest, str):
        return dest
    new = list(marbles)
    if occ[dest] >= 0:
        new[occ[dest]] = BASE
    new[mi] = dest
    return tuple(new)


class _Board(NamedTuple):
    """What every rule about one position needs, computed once per position (a NamedTuple:
    built once per legal_actions call, so it must be cheap)."""

    marbles: tuple[int, ...]
    players: int
    seat: int
    who: int  # whose marbles the seat's cards move
    occ: list[int]
    prot: tuple[int, ...]
    starts: tuple[int, ...]
    movable: tuple[int, ...]  # ``who``'s marbles out of the base (the only ones cards move)


def _board(marbles: tuple[int, ...], players: int, seat: int) -> _Board:
    starts = STARTS[players]
    occ = occupancy(marbles)
    who = controlled(marbles, players, seat)
    b = who * 4
    movable = tuple([mi for mi in range(b, b + 4) if marbles[mi] != BASE])
    return _Board(marbles, players, seat, who, occ, protected_squares(occ, starts), starts, movable)


def _effect_out(bd: _Board, r: str, refs: tuple[int, ...], nums: tuple[int, ...]) -> Any:
    if r not in ("A", "K"):
        return "wrong_card"
    return _out(bd.marbles, bd.occ, bd.starts, bd.who)


def _effect_move(bd: _Board, r: str, refs: tuple[int, ...], nums: tuple[int, ...]) -> Any:
    mi, n = refs[0], nums[0]
    if n not in FORWARD.get(r, ()):
        return "wrong_card"
    owner = mi >> 2
    pos = bd.marbles[mi]
    if r == "5":
        # The Five moves any marble on the track except one on its own start, whoever's it is
        # (the owner's own Five included: decision 4).
        if owner != bd.who and pos == BASE:
            return "marble_in_base"
        if owner != bd.who and pos >= HOME0:
            return "marble_home"
        if pos == bd.starts[owner]:
            return "marble_protected"
        if owner != bd.who:
            # A marble of the mover's team still turns into its home; an opponent's goes past.
            same_team = team(bd.players, owner) == team(bd.players, bd.seat)
            return _forward(bd.marbles, bd.occ, bd.prot, bd.starts, mi, 5, same_team, False)
    elif owner != bd.who:
        return "not_your_marble"
    return _forward(bd.marbles, bd.occ, bd.prot, bd.starts, mi, n, True, r == "K")


def _effect_back(bd: _Board, r: str, refs: tuple[int, ...], nums: tuple[int, ...]) -> Any:
    if r != "4":
        return "wrong_card"
    if refs[0] >> 2 != bd.who:
        return "not_your_marble"
    return _backward(bd.marbles, bd.occ, bd.prot, refs[0])


def _effect_split(bd: _Board, r: str, refs: tuple[int, ...], nums: tuple[int, ...]) -> Any:
    if r != "7":
        return "wrong_card"
    a, b = refs
    x, y = nums
    if a == b or x < 1 or y < 1 or x + y != 7:
        return "bad_split"
    if a >> 2 != bd.who:
        return "not_your_marble"
    mid = _forward(bd.marbles, bd.occ, bd.prot, bd.starts, a, x, True, False)
    if isinstance(mid, str):
        return mid
    # If the first part brought your last marble home, the rest moves your partner's.
    second = _board(mid, bd.players, bd.seat)
    if b >> 2 != second.who:
        return "not_your_marble"
    return _forward(mid, second.occ, second.prot, bd.starts, b, y, True, False)


def _effect_swap(bd: _Board, r: str, refs: tuple[int, ...], nums: tuple[int, ...]) -> Any:
    if r != "J":
        return "wrong_card"
    a, b = refs
    if a >> 2 != bd.who or b >> 2 == bd.who:
        return "bad_swap"
    pa, pb = bd.marbles[a], bd.marbles[b]
    if not (0 <= pa < TRACK and 0 <= pb < TRACK):
        return "bad_swap"
    if pa == bd.starts[a >> 2] or pb == bd.starts[b >> 2]:
        return "marble_protected"
    new = list(bd.marbles)
    new[a], new[b] = pb, pa
    return tuple(new)


_EFFECTS = {
    "out": _effect_out,
    "move": _effect_move,
    "back": _effect_back,
    "split": _effect_split,
    "swap": _effect_swap,
}


def _effect(
    marbles: tuple[int, ...], players: int, act: Action, board: _Board | None = None
) -> Any:
    """The marbles after ``act`` (a card that moves marbles), or a refusal code. ``board``: the
    one of ``marbles`` for ``act``'s seat when the caller has it (the effects read it only)."""
    n_marbles = 4 * players
    for mi in act.marbles:
        if mi >= n_marbles:
            return "unknown_marble"
    kind = _EFFECTS.get(act.kind)
    if kind is None:
        return "wrong_card"
    bd = board if board is not None else _board(marbles, players, act.seat)
    return kind(bd, rank(act.card), act.marbles, act.nums)


def effect(marbles: tuple[int, ...], players: int, seat: int, action: Action | str) -> tuple:
    """The marbles after an action (public information only; a Ten burn or a discard leaves them
    as they are). Raises IllegalAction. Bots use this to look one move ahead."""
    act = Action.parse(action, seat) if isinstance(action, str) else action
    return effects(marbles, players, act.seat, [act])[0]


def effects(marbles: tuple[int, ...], players: int, seat: int, acts: list[Action]) -> list[tuple]:
    """``effect`` of each of ``seat``'s ``acts`` on the same marbles, the board read once (a bot
    weighs every legal action of its turn, the strong bot in each world it deals)."""
    marbles = tuple(marbles)
    bd = _board(marbles, players, seat)
    out = []
    for act in acts:
        if act.kind in ("burn10", "discard"):
            out.append(marbles)
            continue
        res = _effect(marbles, players, act, bd)
        if isinstance(res, str):
            raise IllegalAction(res)
        out.append(res)
    return out


# ---------------------------------------------------------------------------------------------
# Legal actions: complete and in a fixed order (hand order, then the order below). Candidates
# are tested with ``_dest`` / ``_back_dest``, which build nothing; a marble tuple is built only
# for the first part of a split Seven, which the second part moves on.


def _rank_plays(bd: _Board, r: str, can_burn: bool) -> list[tuple[str, str]]:
    """(kind, tail) pairs for one rank; the card text goes between them (``_text``)."""
    m, players, seat, who, occ, prot, starts, mine = bd
    out: list[tuple[str, str]] = []
    if r in ("A", "K") and not isinstance(_out_marble(m, occ, starts, who), str):
        out.append(("out", ""))
    if r == "4":
        for mi in mine:
            if not isinstance(_back_dest(m, prot, occ, mi), str):
                out.append(("back", _tail(seat, "back", r, (mi,), ())))
        return out
    if r == "J":
        own_start = starts[who]
        for a in mine:
            pa = m[a]
            if not 0 <= pa < TRACK or pa == own_start:
                continue
            for b in range(4 * players):
                pb = m[b]
                if b >> 2 != who and 0 <= pb < TRACK and pb != starts[b >> 2]:
                    out.append(("swap", _tail(seat, "swap", r, (a, b), ())))
        return out
    if r == "5":
        my_team = team(players, seat)
        for mi in range(4 * players):
            owner = mi >> 2
            pos = m[mi]
            if pos == BASE or pos == starts[owner]:
                continue  # no Five moves a marble in base or on its own start (decision 4)
            if owner == who:
                home_ok = True
            elif pos >= HOME0:
                continue
            else:
                home_ok = team(players, owner) == my_team
            if not isinstance(_dest(m, occ, prot, starts, mi, 5, home_ok), str):
                out.append(("move", _tail(seat, "move", r, (mi,), (5,))))
        return out
    for n in FORWARD[r]:
        for mi in mine:
            # The King's knock-outs never make a move illegal, so its test is the plain one.
            if not isinstance(_dest(m, occ, prot, starts, mi, n, True), str):
                out.append(("move", _tail(seat, "move", r, (mi,), (n,))))
    if r == "7":
        out.extend(_split_plays(bd))
    if r == "10" and can_burn:
        out.append(("burn10", ""))
    return out


def _split_plays(bd: _Board) -> list[tuple[str, str]]:
    """Every legal split Seven: part one on ``a``, then part two on the board it leaves."""
    m, players, seat, who, occ, prot, starts, mine = bd
    out: list[tuple[str, str]] = []
    # The board after part one is patched in place (``mid`` and the board's own ``occ``) and
    # restored before the next part one, instead of building a new tuple and square map each.
    mid = list(m)
    for a in mine:
        pos = m[a]
        # Leaving its own start, ``a`` stops protecting that square.
        prot2 = tuple([sq for sq in prot if sq != pos]) if pos == starts[who] else prot
        for x in range(1, 7):
            d = _dest(m, occ, prot, starts, a, x, True)
            if isinstance(d, str):
                continue
            knocked = -1
            if pos < HOME0:
                occ[pos] = -1
            if d < HOME0:
                knocked = occ[d]
                if knocked >= 0:
                    mid[knocked] = BASE  # part one knocks out what it lands on
                occ[d] = a
            mid[a] = d
            # If part one brought the seat's last marble home, part two moves the partner's.
            who2 = who if d < HOME0 else controlled(mid, players, seat)
            y = 7 - x
            for b in range(who2 * 4, who2 * 4 + 4):
                if b == a or mid[b] == BASE:
                    continue
                if not isinstance(_dest(mid, occ, prot2, starts, b, y, True), str):
                    out.append(("split", _tail(seat, "split", "7", (a, b), (x, y))))
            mid[a] = pos
            if d < HOME0:
                occ[d] = knocked
                if knocked >= 0:
                    mid[knocked] = m[knocked]
            if pos < HOME0:
                occ[pos] = a
    return out


def _moves(state: State, seat: int) -> list[str]:
    """Every legal card play for ``seat`` (no discards)."""
    bd = _board(state.marbles, state.players, seat)
    can_burn = bool(state.hands[(seat + 1) % state.players])
    cache: dict[str, list[tuple[str, str]]] = {}
    out: list[str] = []
    for card in state.hands[seat]:
        r = card[:-1]
        plays = cache.get(r)
        if plays is None:
            plays = cache[r] = _rank_plays(bd, r, can_burn)
        out.extend([_text(kind, card, tail) for kind, tail in plays])
    return out


def legal_actions(state: State) -> list[str]:
    """Every legal action of the seat to play, as canonical texts, in a fixed order. With no
    legal card play, each card of the hand may be burned (``discard``). [] once it is over."""
    if state.turn is None:
        return []
    moves = _moves(state, state.turn)
    if moves:
        return moves
    return [_text("discard", c, "") for c in state.hands[state.turn]]


# ---------------------------------------------------------------------------------------------
# Deals, turns, apply.


def _deal(state: State, rng: RandomSource | None) -> State:
    """Deal the next packet of the schedule, opening a new deck (and the next dealer) when the
    current one is used up. Cards go one at a time, starting with the player after the dealer."""
    if rng is None:
        raise MissingRandomSource("dealing needs the match's random source")
    players, deck, deck_no, deal_no = state.players, state.deck, state.deck_no, state.deal_no
    dealer, discard = state.dealer, state.discard
    sched = DEAL_SCHEDULE[players]
    if deal_no >= len(sched) or len(deck) < sched[deal_no] * players:
        deck_no += 1
        deck = tuple(rng.deck(f"deal/{deck_no}"))
        deal_no, dealer, discard = 0, (dealer + 1) % players, ()
    k = sched[deal_no]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(k * players):
        hands[(dealer + 1 + i) % players].append(deck[i])
    return replace(
        state,
        hands=tuple(sort_hand(h) for h in hands),
        deck=deck[k * players :],
        deck_no=deck_no,
        deal_no=deal_no + 1,
        dealer=dealer,
        discard=discard,
        turn=(dealer + 1) % players,
    )


def new_match(options: Options, rng: RandomSource) -> State:
    """A fresh match: all marbles in base, deck 1 (purpose ``deal/1``) dealt by the last seat,
    so seat 0 plays first."""
    if rng is None:
        raise MissingRandomSource("a match starts with a deal from its random source")
    n = options.players
    fresh = State(
        players=n,
        marbles=(BASE,) * (4 * n),
        hands=((),) * n,
        deck=tuple(rng.deck("deal/1")),
        deck_no=1,
        deal_no=0,
        dealer=n - 1,
        turn=0,
        burn_no=0,
        discard=(),
    )
    return _deal(fresh, rng)


def winner_team(marbles: tuple[int, ...], players: int) -> int | None:
    """The team with every marble home (four players: eight; two players: four), if any."""
    for t in range(2):
        if all(all_home(marbles, s) for s in team_seats(players, t)):
            return t
    return None


def to_move(state: State) -> int | None:
    """The seat to play, or None once the match is over (Jakaro has no server step: a new deal
    happens inside the action that empties the last hand)."""
    return state.turn


def server_step(state: State) -> str | None:
    """Always None: every Jakaro action is a player's (or the time-out's, played for a seat)."""
    return None


TURN_SECONDS = 15


def turn_seconds(options: Options) -> int:
    """The time for one turn."""
    return TURN_SECONDS


def canonical(seat: int | None, action: Action | str) -> str:
    """The canonical text of an action played by ``seat`` (what the match log stores)."""
    if type(seat) is not int or not 0 <= seat < 4:
        raise IllegalAction("no_such_seat", str(seat))
    if isinstance(action, Action):
        action = action.to_str()
    return Action.parse(action, seat).to_str()


def teams(options: Options) -> tuple[tuple[int, ...], ...]:
    """Seats 0 and 2 against 1 and 3; two players, one seat each."""
    return tuple(team_seats(options.players, t) for t in range(2))


def team_chat_open(state: State) -> bool:
    """Partners may always talk privately in Jakaro."""
    return True


def _read(state: State, seat: Any, action: Action | str) -> Action:
    """The checks every action shares (match over, whose turn, the text, the card held); the
    parsed action."""
    if state.turn is None:
        raise IllegalAction("match_over")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", f"seat {seat!r}")  # Jakaro has no server action
    if seat != state.turn:
        raise IllegalAction("not_your_turn")
    given = action
    if not isinstance(action, str):
        if getattr(action, "seat", seat) != seat:
            raise IllegalAction("not_your_turn")
        try:
            action = action.to_str()  # re-read below, so a malformed Action is refused too
        except (AttributeError, IndexError, TypeError) as exc:
            raise IllegalAction("bad_action", "malformed action") from exc
    act = Action.parse(action, seat)
    if isinstance(given, Action) and given != act:
        # Its text says less than it does (a plain card's count, stray marbles): refuse it rather
        # than play what the text happens to mean.
        raise IllegalAction("bad_action", f"{given!r} is not the canonical {act!r}")
    if act.card not in state.hands[seat]:
        raise IllegalAction("card_not_in_hand", act.card)
    return act


def _check_discard(state: State, act: Action) -> None:
    if _moves(state, act.seat):
        raise IllegalAction("must_play")


def _burn_victim(state: State, act: Action) -> int:
    """The seat whose card a Ten burns (the next seat), or IllegalAction."""
    if rank(act.card) != "10":
        raise IllegalAction("wrong_card")
    victim = (act.seat + 1) % state.players
    if not state.hands[victim]:
        raise IllegalAction("nothing_to_burn")
    return victim


def _marbles_after(state: State, act: Action) -> tuple[int, ...]:
    res = _effect(state.marbles, state.players, act)
    if isinstance(res, str):
        raise IllegalAction(res)
    return res


def check(state: State, seat: int | None, action: Action | str) -> None:
    """Raise IllegalAction if ``apply`` would refuse the action; None if it would accept it."""
    act = _read(state, seat, action)
    if act.kind == "discard":
        _check_discard(state, act)
    elif act.kind == "burn10":
        _burn_victim(state, act)
    else:
        _marbles_after(state, act)


def _played(
    state: State,
    act: Action,
    rng: RandomSource | None,
    marbles: tuple[int, ...],
    burned: str = "",
    victim: int = -1,
) -> State:
    """The state after ``act``'s card left the hand (and ``burned`` left ``victim``'s): the pile,
    the log line, then the win or the next turn (or the next deal)."""
    hands = list(state.hands)
    hands[act.seat] = tuple(c for c in hands[act.seat] if c != act.card)
    discard = (*state.discard, act.card)
    if burned:
        hands[victim] = tuple(c for c in hands[victim] if c != burned)
        discard = (*discard, burned)  # face up on the pile: everyone sees what was burned
    new = replace(
        state,
        marbles=marbles,
        hands=tuple(hands),
        discard=discard,
        last=(act.seat, act.to_str(), burned),
        ply=state.ply + 1,
    )
    won = winner_team(marbles, state.players)
    if won is not None:
        return replace(new, winner=won, turn=None)
    return _next_turn(new, act.seat, rng)


def _do_discard(state: State, act: Action, rng: RandomSource | None) -> State:
    _check_discard(state, act)
    return _played(state, act, rng, state.marbles)


def _do_burn10(state: State, act: Action, rng: RandomSource | None) -> State:
    victim = _burn_victim(state, act)
    if rng is None:
        raise MissingRandomSource("a Ten burn needs the match's random source")
    burn_no = state.burn_no + 1
    vh = state.hands[victim]
    burned = vh[rng.below(len(vh), f"burn/{burn_no}")]
    return _played(replace(state, burn_no=burn_no), act, rng, state.marbles, burned, victim)


def _do_marbles(state: State, act: Action, rng: RandomSource | None) -> State:
    """out, move, back, split, swap: the card's rule is in ``_effect_<kind>``."""
    return _played(state, act, rng, _marbles_after(state, act))


_DO = {
    "discard": _do_discard,
    "burn10": _do_burn10,
    "out": _do_marbles,
    "move": _do_marbles,
    "back": _do_marbles,
    "split": _do_marbles,
    "swap": _do_marbles,
}


def apply(state: State, seat: int | None, action: Action | str, rng: RandomSource | None) -> State:
    """Play ``action`` for ``seat`` and return the new state, or raise IllegalAction (the given
    state is immutable, so a refusal changes nothing). ``rng`` is needed for Ten burns and deals
    (MissingRandomSource without it)."""
    act = _read(state, seat, action)
    return _DO[act.kind](state, act, rng)


def _next_turn(state: State, seat: int, rng: RandomSource | None) -> State:
    n = state.players
    for i in range(1, n + 1):
        s = (seat + i) % n
        if state.hands[s]:
            return replace(state, turn=s)
    return _deal(state, rng)


# ---------------------------------------------------------------------------------------------
# The result.


def outcome(state: State) -> Outcome | None:
    """None while playing; then the winning team first (place 1), the other second. The
    winning team splits the prize equally (two players: the winner takes it all)."""
    if state.winner is None:
        return None
    n = state.players
    teams = tuple(team_seats(n, t) for t in range(2))
    won, lost = teams[state.winner], teams[1 - state.winner]
    shares = {s: Fraction(1, len(won)) if s in won else Fraction(0) for s in range(n)}
    return Outcome(places=((1, won), (2, lost)), shares=shares, teams=teams)


# ---------------------------------------------------------------------------------------------
# What a seat sees, and JSON.


def _view(state: State, seat: int | None) -> dict[str, Any]:
    n = state.players
    last = None
    if state.last is not None:
        last = {"seat": state.last[0], "action": state.last[1], "burned": state.last[2] or None}
    result = outcome(state)
    return {
        "game": "jakaro",
        "seat": seat,
        "players": n,
        "turn": state.turn,
        "status": "over" if state.turn is None else "playing",
        "hand": list(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(h) for h in state.hands],
        "legal": legal_actions(state) if seat is not None and state.turn == seat else [],
        "outcome": result.to_dict() if result is not None else None,
        "dealer": state.dealer,
        "deck_no": state.deck_no,
        "deal_no": state.deal_no,
        "ply": state.ply,
        "deck_left": len(state.deck),
        "discard": list(state.discard),
        "marbles": [list(state.marbles[s * 4 : s * 4 + 4]) for s in range(n)],
        "starts": list(STARTS[n]),
        "partner": partner(n, seat) if seat is not None else None,
        "controls": controlled(state.marbles, n, seat) if seat is not None else None,
        "last": last,
        "winner": state.winner,
    }


def view(state: State, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know: its own hand, the other hands' sizes, the whole board (all
    marbles are public), the face-up pile, whose turn, and its legal actions when it is to play
    (the keys are listed in docs/views/jakaro.md)."""
    return _view(state, seat)


def spectator_view(state: State) -> dict[str, Any]:
    """What anyone may see: the board, the pile and the hand sizes, no hand at all."""
    return _view(state, None)


def to_json(state: State) -> str:
    """The whole state (hidden cards included: for storage, never for a player)."""
    d = {
        "v": JSON_VERSION,
        "players": state.players,
        "marbles": list(state.marbles),
        "hands": [list(h) for h in state.hands],
        "deck": list(state.deck),
        "deck_no": state.deck_no,
        "deal_no": state.deal_no,
        "dealer": state.dealer,
        "turn": state.turn,
        "burn_no": state.burn_no,
        "discard": list(state.discard),
        "last": list(state.last) if state.last is not None else None,
        "winner": state.winner,
        "ply": state.ply,
    }
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> State:
    """Inverse of ``to_json``. Version 1 (before the contract) wrote -1 for the turn of a
    finished match; it is read as None. Any other version is a ValueError."""
    d = json.loads(text)
    version = d.get("v") if isinstance(d, dict) else None
    if version not in (1, JSON_VERSION):
        raise ValueError(f"unknown Jakaro state version {version!r}")
    last = d["last"]
    turn = d["turn"]
    if version == 1 and turn == -1:
        turn = None
    return State(
        players=d["players"],
        marbles=tuple(d["marbles"]),
        hands=tuple(tuple(h) for h in d["hands"]),
        deck=tuple(d["deck"]),
        deck_no=d["deck_no"],
        deal_no=d["deal_no"],
        dealer=d["dealer"],
        turn=turn,
        burn_no=d["burn_no"],
        discard=tuple(d["discard"]),
        last=(last[0], last[1], last[2]) if last is not None else None,
        winner=d["winner"],
        ply=d["ply"],
    )
