"""The Jakaro rules engine: state, complete legal actions, apply, per-seat view, JSON.

Pure Python (no Django). Every rule lives in one of the small functions below; the names say
which: ``_out`` (Ace/King bring a marble out), ``_forward`` (every forward count, the King's
knock-outs, home entry), ``_backward`` (the Four), ``_effect`` (what each card may do with which
marble, the Five, the split Seven, the Jack), ``_deal`` (decks and deals), ``apply`` (turn order,
Ten burns, burning a card when stuck, winning). The decisions taken where the printed rules are
silent are listed in docs/rules/jakaro.md.

Actions have one canonical text (the match log and scenario files store it):

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
from dataclasses import dataclass, replace
from typing import Any

from verify.fairness import JAKARO_DECK, RandomSource

from .board import BASE, HOME0, TRACK, partner, start_square, team, team_seats
from .messages import message

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


class IllegalAction(Exception):
    """A refused action: ``code`` is stable, ``message(lang)`` is for the player."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail or message(code, 'en')}")

    def message(self, lang: str = "ar") -> str:
        return message(self.code, lang)


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
        if self.players not in (2, 4):
            raise ValueError("Jakaro is played by 2 or 4 players")


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
    turn: int  # seat to play; -1 once the match is over
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
        refs = [_ref(self.seat, m) for m in self.marbles]
        if self.kind == "move":
            tail = f" {self.nums[0]}" if rank(self.card) == "A" else ""
            return f"move {self.card} {refs[0]}{tail}"
        if self.kind == "back":
            return f"back {self.card} {refs[0]}"
        if self.kind == "split":
            return f"split {self.card} {refs[0]} {self.nums[0]} {refs[1]} {self.nums[1]}"
        if self.kind == "swap":
            return f"swap {self.card} {refs[0]} {refs[1]}"
        return f"{self.kind} {self.card}"

    @staticmethod
    def parse(text: str, seat: int) -> Action:
        """Read an action text played by ``seat``; raises IllegalAction("bad_action")."""
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


def _is_count(token: str) -> bool:
    """ASCII digits only: str.isdigit() also says yes to "²" (which int() refuses) and to
    Arabic-Indic digits, which are not the canonical text."""
    return token.isascii() and token.isdigit()


def _ref(seat: int, mi: int) -> str:
    return f"m{mi & 3}" if mi >> 2 == seat else f"{mi >> 2}:m{mi & 3}"


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
# They return the new marble tuple, or a refusal code as a str (cheap to test in legal_actions).


def _occupancy(marbles: tuple[int, ...]) -> list[int]:
    occ = [-1] * TRACK
    for i, p in enumerate(marbles):
        if 0 <= p < TRACK:
            occ[p] = i
    return occ


def all_home(marbles: tuple[int, ...], seat: int) -> bool:
    """Are the seat's four marbles home?"""
    b = seat * 4
    return min(marbles[b : b + 4]) >= HOME0


def controlled(marbles: tuple[int, ...], players: int, seat: int) -> int:
    """Whose marbles the seat's cards move: its own, or its partner's once its own are home."""
    if players == 4 and all_home(marbles, seat):
        return (seat + 2) % 4
    return seat


def _out(marbles: tuple[int, ...], occ: list[int], starts: tuple[int, ...], who: int) -> Any:
    b = who * 4
    for mi in range(b, b + 4):
        if marbles[mi] == BASE:
            break
    else:
        return "no_marble_in_base"
    st = starts[who]
    o = occ[st]
    new = list(marbles)
    if o >= 0:
        if o >> 2 == who:
            return "start_blocked_own"
        new[o] = BASE  # coming out knocks out another colour sitting on our start
    new[mi] = st
    return tuple(new)


def _forward(
    marbles: tuple[int, ...],
    occ: list[int],
    starts: tuple[int, ...],
    mi: int,
    n: int,
    home_ok: bool,
    king: bool,
) -> Any:
    """Move marble ``mi`` n squares forward.

    ``home_ok``: the marble is moved by its own team, so it must turn into its home column at its
    entry (it never passes its home); otherwise (an opponent's Five) it stays on the track and goes
    past its home. ``king``: every marble passed is knocked out as well as the one landed on.
    """
    pos = marbles[mi]
    if pos == BASE:
        return "marble_in_base"
    owner = mi >> 2
    b = owner * 4
    if pos >= HOME0:
        if not home_ok:
            return "marble_home"
        t = pos + n
        if t > HOME0 + 3:
            return "overshoot_home"
        for q in range(pos + 1, t + 1):
            if q in marbles[b : b + 4]:
                return "home_blocked"
        new = list(marbles)
        new[mi] = t
        return tuple(new)
    start = starts[owner]
    p = (pos - start) % TRACK
    if home_ok and p + n > TRACK + 3:
        return "overshoot_home"
    knocked: list[int] = []
    dest = -1
    for i in range(1, n + 1):
        q = p + i
        if home_ok and q >= TRACK:
            slot = HOME0 + q - TRACK
            if slot in marbles[b : b + 4]:
                return "home_blocked"
            dest = slot
            continue
        sq = (pos + i) % TRACK
        dest = sq
        o = occ[sq]
        if o < 0:
            continue
        if sq == starts[o >> 2]:
            return "blocked_protected"  # nobody passes or lands on a marble on its own start
        if i < n:
            if king:
                knocked.append(o)  # the King knocks out everything it passes, own colour too
        elif o >> 2 == owner:
            return "land_on_own"
        else:
            knocked.append(o)
    new = list(marbles)
    for o in knocked:
        new[o] = BASE
    new[mi] = dest
    return tuple(new)


def _backward(marbles: tuple[int, ...], occ: list[int], starts: tuple[int, ...], mi: int) -> Any:
    """The Four: four squares back on the track. From its start a marble lands four squares
    before its home column (progress 72), which is the short cut; no special case is needed."""
    pos = marbles[mi]
    if pos == BASE:
        return "marble_in_base"
    if pos >= HOME0:
        return "marble_home"
    knocked = -1
    for i in range(1, 5):
        sq = (pos - i) % TRACK
        o = occ[sq]
        if o < 0:
            continue
        if sq == starts[o >> 2]:
            return "blocked_protected"
        if i == 4:
            if o >> 2 == mi >> 2:
                return "land_on_own"
            knocked = o
    new = list(marbles)
    if knocked >= 0:
        new[knocked] = BASE
    new[mi] = (pos - 4) % TRACK
    return tuple(new)


def _effect(
    marbles: tuple[int, ...],
    players: int,
    seat: int,
    kind: str,
    r: str,
    refs: tuple[int, ...],
    nums: tuple[int, ...],
    occ: list[int] | None = None,
) -> Any:
    """The marbles after ``seat`` plays a card of rank ``r`` as ``kind``, or a refusal code."""
    starts = STARTS[players]
    n_marbles = 4 * players
    for mi in refs:
        if mi >= n_marbles:
            return "unknown_marble"
    if occ is None:
        occ = _occupancy(marbles)
    who = controlled(marbles, players, seat)
    if kind == "out":
        if r not in ("A", "K"):
            return "wrong_card"
        return _out(marbles, occ, starts, who)
    if kind == "move":
        mi, n = refs[0], nums[0]
        if n not in FORWARD.get(r, ()):
            return "wrong_card"
        owner = mi >> 2
        if owner == who:
            return _forward(marbles, occ, starts, mi, n, True, r == "K")
        if r != "5":
            return "not_your_marble"
        # The Five moves any marble on the track, except one on its own start (unless it is the
        # mover's own to play); a marble of the mover's team still turns into its home.
        pos = marbles[mi]
        if pos == BASE:
            return "marble_in_base"
        if pos >= HOME0:
            return "marble_home"
        if pos == starts[owner]:
            return "marble_protected"
        same_team = team(players, owner) == team(players, seat)
        return _forward(marbles, occ, starts, mi, 5, same_team, False)
    if kind == "back":
        if r != "4":
            return "wrong_card"
        if refs[0] >> 2 != who:
            return "not_your_marble"
        return _backward(marbles, occ, starts, refs[0])
    if kind == "split":
        if r != "7":
            return "wrong_card"
        a, b = refs
        x, y = nums
        if a == b or x < 1 or y < 1 or x + y != 7:
            return "bad_split"
        if a >> 2 != who:
            return "not_your_marble"
        mid = _forward(marbles, occ, starts, a, x, True, False)
        if isinstance(mid, str):
            return mid
        # If the first part brought your last marble home, the rest moves your partner's.
        if b >> 2 != controlled(mid, players, seat):
            return "not_your_marble"
        return _forward(mid, _occupancy(mid), starts, b, y, True, False)
    if kind == "swap":
        if r != "J":
            return "wrong_card"
        a, b = refs
        if a >> 2 != who or b >> 2 == who:
            return "bad_swap"
        pa, pb = marbles[a], marbles[b]
        if not (0 <= pa < TRACK and 0 <= pb < TRACK):
            return "bad_swap"
        if pa == starts[a >> 2] or pb == starts[b >> 2]:
            return "marble_protected"
        new = list(marbles)
        new[a], new[b] = pb, pa
        return tuple(new)
    return "wrong_card"


def effect(marbles: tuple[int, ...], players: int, seat: int, action: Action | str) -> tuple:
    """The marbles after an action (public information only; a Ten burn or a discard leaves them
    as they are). Raises IllegalAction. Bots use this to look one move ahead."""
    act = Action.parse(action, seat) if isinstance(action, str) else action
    if act.kind in ("burn10", "discard"):
        return tuple(marbles)
    res = _effect(tuple(marbles), players, seat, act.kind, rank(act.card), act.marbles, act.nums)
    if isinstance(res, str):
        raise IllegalAction(res)
    return res


# ---------------------------------------------------------------------------------------------
# Legal actions: complete and in a fixed order (hand order, then the order below).


def _rank_moves(marbles: tuple[int, ...], players: int, seat: int, r: str, can_burn: bool) -> list:
    """(kind, tail) pairs for one rank; the card text goes between them."""
    starts = STARTS[players]
    occ = _occupancy(marbles)
    who = controlled(marbles, players, seat)
    mine = range(who * 4, who * 4 + 4)
    out: list[tuple[str, str]] = []
    if r in ("A", "K") and not isinstance(_out(marbles, occ, starts, who), str):
        out.append(("out", ""))
    if r == "4":
        for mi in mine:
            if not isinstance(_backward(marbles, occ, starts, mi), str):
                out.append(("back", " " + _ref(seat, mi)))
        return out
    if r == "J":
        for a in mine:
            for b in range(4 * players):
                res = _effect(marbles, players, seat, "swap", "J", (a, b), (), occ)
                if not isinstance(res, str):
                    out.append(("swap", f" {_ref(seat, a)} {_ref(seat, b)}"))
        return out
    if r == "5":
        for mi in range(4 * players):
            if not isinstance(_effect(marbles, players, seat, "move", "5", (mi,), (5,), occ), str):
                out.append(("move", " " + _ref(seat, mi)))
        return out
    for n in FORWARD[r]:
        tail = f" {n}" if r == "A" else ""
        for mi in mine:
            if not isinstance(_forward(marbles, occ, starts, mi, n, True, r == "K"), str):
                out.append(("move", f" {_ref(seat, mi)}{tail}"))
    if r == "7":
        for a in mine:
            for x in range(1, 7):
                mid = _forward(marbles, occ, starts, a, x, True, False)
                if isinstance(mid, str):
                    continue
                occ2 = _occupancy(mid)
                who2 = controlled(mid, players, seat)
                for b in range(who2 * 4, who2 * 4 + 4):
                    if b != a and not isinstance(
                        _forward(mid, occ2, starts, b, 7 - x, True, False), str
                    ):
                        ra, rb = _ref(seat, a), _ref(seat, b)
                        out.append(("split", f" {ra} {x} {rb} {7 - x}"))
    if r == "10" and can_burn:
        out.append(("burn10", ""))
    return out


def _moves(state: State, seat: int) -> list[str]:
    """Every legal card play for ``seat`` (no discards)."""
    can_burn = bool(state.hands[(seat + 1) % state.players])
    cache: dict[str, list] = {}
    out: list[str] = []
    for card in state.hands[seat]:
        r = rank(card)
        pairs = cache.get(r)
        if pairs is None:
            pairs = cache[r] = _rank_moves(state.marbles, state.players, seat, r, can_burn)
        out.extend(f"{kind} {card}{tail}" for kind, tail in pairs)
    return out


def legal_actions(state: State) -> list[str]:
    """Every legal action of the seat to play, as canonical texts, in a fixed order. With no
    legal card play, each card of the hand may be burned (``discard``)."""
    if state.winner is not None or state.turn < 0:
        return []
    moves = _moves(state, state.turn)
    if moves:
        return moves
    return [f"discard {c}" for c in state.hands[state.turn]]


# ---------------------------------------------------------------------------------------------
# Deals, turns, apply.


def _deal(state: State, rng: RandomSource) -> State:
    """Deal the next packet of the schedule, opening a new deck (and the next dealer) when the
    current one is used up. Cards go one at a time, starting with the player after the dealer."""
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


def apply(state: State, seat: int, action: Action | str, rng: RandomSource | None = None) -> State:
    """Play ``action`` for ``seat`` and return the new state, or raise IllegalAction (the given
    state is immutable, so a refusal changes nothing). ``rng`` is needed for Ten burns and deals."""
    if state.winner is not None or state.turn < 0:
        raise IllegalAction("game_over")
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
    hand = state.hands[seat]
    if act.card not in hand:
        raise IllegalAction("card_not_in_hand", act.card)
    n = state.players
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hand if c != act.card)
    discard = (*state.discard, act.card)
    burn_no = state.burn_no
    burned = ""
    marbles = state.marbles
    if act.kind == "discard":
        if _moves(state, seat):
            raise IllegalAction("must_play")
    elif act.kind == "burn10":
        if rank(act.card) != "10":
            raise IllegalAction("wrong_card")
        victim = (seat + 1) % n
        if not state.hands[victim]:
            raise IllegalAction("nothing_to_burn")
        if rng is None:
            raise ValueError("a Ten burn needs the match's random source")
        burn_no += 1
        vh = state.hands[victim]
        burned = vh[rng.below(len(vh), f"burn/{burn_no}")]
        hands[victim] = tuple(c for c in vh if c != burned)
        discard = (*discard, burned)  # face up on the pile: everyone sees what was burned
    else:
        res = _effect(marbles, n, seat, act.kind, rank(act.card), act.marbles, act.nums)
        if isinstance(res, str):
            raise IllegalAction(res)
        marbles = res
    new = replace(
        state,
        marbles=marbles,
        hands=tuple(hands),
        discard=discard,
        burn_no=burn_no,
        last=(seat, act.to_str(), burned),
        ply=state.ply + 1,
    )
    won = winner_team(marbles, n)
    if won is not None:
        return replace(new, winner=won, turn=-1)
    return _next_turn(new, seat, rng)


def _next_turn(state: State, seat: int, rng: RandomSource | None) -> State:
    n = state.players
    for i in range(1, n + 1):
        s = (seat + i) % n
        if state.hands[s]:
            return replace(state, turn=s)
    if rng is None:
        raise ValueError("dealing needs the match's random source")
    return _deal(state, rng)


# ---------------------------------------------------------------------------------------------
# What a seat sees, and JSON.


def view(state: State, seat: int) -> dict:
    """Everything ``seat`` may know: its own hand, the other hands' sizes, the whole board (all
    marbles are public), the face-up pile, whose turn, and its legal actions when it is to play."""
    n = state.players
    last = None
    if state.last is not None:
        last = {"seat": state.last[0], "action": state.last[1], "burned": state.last[2] or None}
    return {
        "game": "jakaro",
        "seat": seat,
        "players": n,
        "turn": state.turn,
        "dealer": state.dealer,
        "deck_no": state.deck_no,
        "deal_no": state.deal_no,
        "ply": state.ply,
        "hand": list(state.hands[seat]),
        "hand_counts": [len(h) for h in state.hands],
        "deck_left": len(state.deck),
        "discard": list(state.discard),
        "marbles": [list(state.marbles[s * 4 : s * 4 + 4]) for s in range(n)],
        "starts": list(STARTS[n]),
        "partner": partner(n, seat),
        "controls": controlled(state.marbles, n, seat),
        "last": last,
        "winner": state.winner,
        "legal_actions": legal_actions(state) if state.turn == seat else [],
    }


def to_json(state: State) -> str:
    """The whole state (hidden cards included: for storage, never for a player)."""
    d = {
        "v": 1,
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
    """Inverse of ``to_json``."""
    d = json.loads(text)
    if d.get("v") != 1:
        raise ValueError("unknown Jakaro state version")
    last = d["last"]
    return State(
        players=d["players"],
        marbles=tuple(d["marbles"]),
        hands=tuple(tuple(h) for h in d["hands"]),
        deck=tuple(d["deck"]),
        deck_no=d["deck_no"],
        deal_no=d["deal_no"],
        dealer=d["dealer"],
        turn=d["turn"],
        burn_no=d["burn_no"],
        discard=tuple(d["discard"]),
        last=(last[0], last[1], last[2]) if last is not None else None,
        winner=d["winner"],
        ply=d["ply"],
    )
