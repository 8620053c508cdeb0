"""The Hand engine: state, actions, scoring, views and JSON (rules in docs/rules/hand.md).

Seats are 0..n-1 and play goes from seat s to seat (s + 1) % n: the tables draw seats
counter-clockwise, so "the next seat" is the player on your right. Round 1's dealer is seat
n - 1, so seat 0 starts; the deal moves one seat on each round. In partners, seats 0 and 2 play
against 1 and 3.

Where a rule lives: the turn (draw / lay / off / swap / throw) in ``apply`` and the ``_do_*``
functions; the server's actions (``deal`` between rounds, a seat's ``timeout``) in ``_do_deal``
and ``_do_timeout``; opening thresholds in ``threshold``; going out, «هاند» and round scores in
``_end_round``; the match (five rounds, the extra round, places and shares) in ``standings``.

Randomness: one random source per match (fairness/core.py). Round r is dealt with purpose
``deal/<r>``; the k-th stock rebuilt within round r with ``reshuffle/<r>/<k>``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from games import contract

from . import bot, finder, search
from .actions import Action, ActionError, parse
from .cards import hand_value, is_joker, sort_cards
from .melds import Meld, MeldError, build, extend, swap
from .messages import MESSAGES

OPENING = 51
MAX_RESHUFFLES = 4  # after this many rebuilt stocks, an empty stock ends the round (a safety valve)
MAX_ROUNDS = 20  # a bound on the table option, so a stored option can never hold a match forever
JSON_VERSION = 2  # 2: one random source per match, the server's deal in the log

# Action kinds only the server may send (the table layer refuses them from a client).
SERVER_ACTIONS = frozenset({"deal", "timeout"})


class IllegalAction(contract.IllegalAction):
    """A refused action: a stable ``code``, a ``detail`` and ``message(lang)`` (ar/en)."""

    messages = MESSAGES


class BadOptions(contract.BadOptions):
    """Table options Hand does not allow (``code``: bad_options, bad_players, …)."""

    messages = MESSAGES


@dataclass(frozen=True)
class Options:
    """Table options: every one of them is free (rules §1, §5, §10)."""

    players: int = 4  # 2, 3 or 4
    partners: bool = False  # four players, partner across
    variant: str = "saudi"  # "saudi": each later opening beats the last; "plain": 51 for all
    table: str = "easy"  # "easy": hints in the view; "strict": none
    rounds: int = 5

    def __post_init__(self) -> None:
        # type() is not isinstance(): a bool must not pass for an int (True players), nor 1 for
        # True partners.
        if type(self.players) is not int or self.players not in (2, 3, 4):
            raise BadOptions("bad_players", f"players={self.players!r}: Hand is for 2, 3 or 4")
        if type(self.partners) is not bool:
            raise BadOptions("bad_options", f"partners={self.partners!r}: true or false")
        if self.partners and self.players != 4:
            raise BadOptions("partners_need_four", f"players={self.players}")
        if self.variant not in ("saudi", "plain"):
            raise BadOptions("bad_options", f"variant={self.variant!r}: 'saudi' or 'plain'")
        if self.table not in ("easy", "strict"):
            raise BadOptions("bad_options", f"table={self.table!r}: 'easy' or 'strict'")
        if type(self.rounds) is not int or not 1 <= self.rounds <= MAX_ROUNDS:
            raise BadOptions("bad_options", f"rounds={self.rounds!r}: 1 to {MAX_ROUNDS}")


_OPTION_NAMES = tuple(f.name for f in fields(Options))


def parse_options(data: Mapping[str, Any]) -> Options:
    """Table options from plain data (missing keys take their defaults); BadOptions for an
    unknown key, a wrong type (a bool for a number, a number for a bool) or a value out of range."""
    if not isinstance(data, Mapping):
        raise BadOptions("bad_options", "options must be a mapping")
    unknown = sorted(str(k) for k in data if k not in _OPTION_NAMES)
    if unknown:
        raise BadOptions("bad_options", f"unknown option {unknown[0]!r}")
    return Options(**data)


def options_to_dict(options: Options) -> dict[str, Any]:
    """The options as plain JSON-able data; ``parse_options`` reads it back."""
    return {name: getattr(options, name) for name in _OPTION_NAMES}


@dataclass(frozen=True)
class Result:
    """How a round ended: who went out (None if the stock ran dry), whether with a «هاند»."""

    out: int | None
    hand: bool
    scores: tuple[int, ...]
    blocked: bool = False


@dataclass(frozen=True)
class Round:
    number: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]  # drawn from the front
    fire: tuple[str, ...]  # the top is the last card
    melds: tuple[Meld, ...] = ()
    opened: tuple[int, ...] = ()  # opening points per seat, 0 = not opened
    openings: tuple[tuple[int, int], ...] = ()  # (seat, points) in order
    turn: int = 0
    phase: str = "play"  # draw | play | over
    first_turn: bool = True
    fire_card: str | None = None  # taken from the fire pile this turn, not laid down yet
    joker_due: str | None = None  # taken by a swap this turn, not laid down yet
    # To put a swap back on timeout: (meld index, meld before, cards given, the fire card those
    # cards used or None — undoing the swap makes that fire card unused again).
    swap_undo: tuple[int, Meld, tuple[str, ...], str | None] | None = None
    reshuffles: int = 0
    result: Result | None = None


@dataclass(frozen=True)
class State:
    """A match: options, cumulative totals, per-round scores and the current round."""

    options: Options
    round: Round
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...] = ()
    status: str = "playing"  # playing | round_over | match_over
    places: tuple[tuple[int, ...], ...] = field(default=())  # per unit: (place, *seats)


# --------------------------------------------------------------------------- building


class _DryRun:
    """The random source ``check`` passes: it shuffles nothing. A dry run decides only whether an
    action is accepted, and no rule depends on the order of a rebuilt stock."""

    def shuffle(self, items: list[str], purpose: str) -> list[str]:
        return list(items)


_DRY = _DryRun()


def _need(rng: Any, purpose: str) -> Any:
    if rng is None:
        raise contract.MissingRandomSource(f"Hand needs the match's random source for {purpose}")
    return rng


def _deal(options: Options, number: int, dealer: int, rng: Any) -> Round:
    """Deal a round: starter (dealer's right) takes the first 15 cards, each next seat 14."""
    n = options.players
    purpose = f"deal/{number}"
    deck = _need(rng, purpose).deck(purpose)
    if len(deck) != 106:
        raise ValueError("the random source must be a Hand source (106 cards)")
    starter = (dealer + 1) % n
    hands: list[tuple[str, ...]] = [()] * n
    pos = 0
    for k in range(n):
        seat = (starter + k) % n
        take = 15 if k == 0 else 14
        hands[seat] = sort_cards(deck[pos : pos + take])
        pos += take
    return Round(
        number=number,
        dealer=dealer,
        hands=tuple(hands),
        stock=tuple(deck[pos:]),
        fire=(),
        opened=(0,) * n,
        turn=starter,
        phase="play",
        first_turn=True,
    )


def new_match(options: Options, rng: Any) -> State:
    """A new match and its first round, dealt from the match's random source (``deal/1``)."""
    n = options.players
    return State(options, _deal(options, 1, n - 1, rng), totals=(0,) * n)


def next_round(state: State, rng: Any) -> State:
    """Deal the next round from the match's source (``deal/<round>``); the deal moves one seat
    on. Internal: outside the engine the next round is the server action ``deal``."""
    if state.status == "match_over":
        raise IllegalAction("match_over")
    if state.status != "round_over":
        raise IllegalAction("round_in_play")
    r = state.round
    dealer = (r.dealer + 1) % state.options.players
    return replace(state, round=_deal(state.options, r.number + 1, dealer, rng), status="playing")


def to_move(state: State) -> int | None:
    """The seat to play; None between rounds (the server's ``deal`` is due) and after the match."""
    return state.round.turn if state.status == "playing" else None


def server_step(state: State) -> str | None:
    """``deal`` when a round is over and the match is not; otherwise no server step is due."""
    return "deal" if state.status == "round_over" else None


def legal_actions(state: State) -> None:
    """Hand's actions cannot be listed (every lay-down of a 15-card hand): use ``check``."""
    return None


def auto_action(state: State, seat: int) -> str:
    """What the server plays for a seat whose time ran out: ``timeout``, one whole turn."""
    return "timeout"


# Turn time by table kind (rules: an easy table gives more time to think).
TURN_SECONDS = {"easy": 20, "strict": 15}


def turn_seconds(options: Options) -> int:
    """The time for one turn: 20 s at an easy table, 15 s at a strict one."""
    return TURN_SECONDS[options.table]


def canonical(seat: int | None, action: Action | str) -> str:
    """The canonical text of an action (what the match log stores)."""
    return _read(action).to_str()


def teams(options: Options) -> tuple[tuple[int, ...], ...]:
    """The scoring units: (0, 2) and (1, 3) in partners, one seat each otherwise."""
    return tuple(units(options))


def team_chat_open(state: State) -> bool:
    """Partners may talk privately except while a round is played at a strict table."""
    return state.options.table != "strict" or state.status != "playing"


def bot_action(view: Mapping[str, Any], level: str = "normal") -> str:
    """The bot's move at ``level`` (easy: the naive bot; normal: the good bot; strong: the good
    bot with a look-ahead, search.choose) from a seat's view, as action text."""
    if level not in contract.BOT_LEVELS:
        raise ValueError(f"no bot level {level!r}")
    if level == "easy":
        return bot.naive(view).to_str()
    if level == "strong":
        return search.choose(view).to_str()
    return bot.choose(view).to_str()


# --------------------------------------------------------------------------- rules helpers


def team_of(options: Options, seat: int) -> int:
    """The scoring unit of a seat: its team (0 or 1) in partners, else the seat itself."""
    return seat % 2 if options.partners else seat


def units(options: Options) -> list[tuple[int, ...]]:
    """Scoring units: teams (0, 2) and (1, 3) in partners, else one per seat."""
    if options.partners:
        return [(0, 2), (1, 3)]
    return [(s,) for s in range(options.players)]


def threshold(state: State, seat: int) -> int:
    """Points the seat's opening must reach now (rules §5)."""
    opts, r = state.options, state.round
    if opts.variant == "plain" or not r.openings:
        return OPENING
    if not opts.partners:
        return max(OPENING, r.openings[-1][1] + 1)
    first_team = team_of(opts, r.openings[0][0])
    if team_of(opts, seat) == first_team:
        return OPENING
    best = max(p for s, p in r.openings if team_of(opts, s) == first_team)
    return max(OPENING, best + 1)


def _take(hand: tuple[str, ...], cards: list[str]) -> tuple[str, ...]:
    """The hand without these cards, or card_not_in_hand."""
    need = Counter(cards)
    have = Counter(hand)
    if need - have:
        raise IllegalAction("card_not_in_hand", " ".join(sorted((need - have).elements())))
    return sort_cards(list((have - need).elements()))


def _throwable(hand: tuple[str, ...]) -> bool:
    return any(not is_joker(c) for c in hand)


def _set(t: tuple, i: int, v: Any) -> tuple:
    return (*t[:i], v, *t[i + 1 :])


# --------------------------------------------------------------------------- actions


def _read(action: object) -> Action:
    """The action, read from its text. An Action object is re-read from its canonical text, so
    one built by hand (no card to throw, an unknown draw source) is refused like bad text."""
    if isinstance(action, Action):
        try:
            text = action.to_str()
        except Exception:  # a malformed Action cannot even be written: it is no action
            raise IllegalAction("bad_action") from None
    elif isinstance(action, str):
        text = action
    else:
        raise IllegalAction("bad_action")
    try:
        return parse(text)
    except ActionError as exc:
        raise IllegalAction(exc.code, exc.detail) from None


def check(state: State, seat: int | None, action: Action | str) -> None:
    """Raise IllegalAction if the action is refused now; return None if it would be accepted."""
    _apply(state, seat, action, _DRY)


def apply(state: State, seat: int | None, action: Action | str, rng: Any) -> State:
    """The state after ``seat`` plays ``action``; IllegalAction (state unchanged) if refused.

    ``seat`` is None only for the server's ``deal``. ``rng`` is the match's random source, used
    by ``deal`` and to rebuild an empty stock; MissingRandomSource if that is due and it is None.
    """
    return _apply(state, seat, action, rng)


def _apply(state: State, seat: int | None, action: Action | str, rng: Any) -> State:
    action = _read(action)
    kind = action.kind
    if kind == "deal":
        return _do_deal(state, seat, rng)
    # bool is an int subclass: True must not pass for seat 1.
    if type(seat) is not int or not 0 <= seat < state.options.players:
        raise IllegalAction("no_such_seat", str(seat))
    if state.status == "match_over":
        raise IllegalAction("match_over")
    if state.status == "round_over":
        raise IllegalAction("round_over")
    r = state.round
    if seat != r.turn:
        raise IllegalAction("not_your_turn")
    if kind == "draw":
        return _do_draw(state, seat, action.source, rng)
    if kind == "timeout":
        return _do_timeout(state, seat, rng)
    if r.phase == "draw":
        raise IllegalAction("must_draw")
    try:
        if kind == "lay":
            return _do_lay(state, seat, action)
        if kind == "off":
            return _do_off(state, seat, action)
        if kind == "swap":
            return _do_swap(state, seat, action)
    except MeldError as exc:
        raise IllegalAction(exc.code, exc.detail) from None
    return _do_throw(state, seat, action.cards[0][0])


def _do_deal(state: State, seat: int | None, rng: Any) -> State:
    """The server deals the next round: logged for no seat, and only when a round is over."""
    if seat is not None:
        raise IllegalAction("server_only", "deal is the server's, for no seat")
    if state.status == "match_over":
        raise IllegalAction("match_over")
    if state.status != "round_over":
        raise IllegalAction("round_in_play")
    if rng is _DRY:
        return state
    return next_round(state, _need(rng, f"deal/{state.round.number + 1}"))


def _draw_stock(state: State, r: Round, seat: int, rng: Any) -> State:
    stock, fire, reshuffles = r.stock, r.fire, r.reshuffles
    if not stock:
        if len(fire) < 2 or reshuffles >= MAX_RESHUFFLES:
            return _end_round(state, replace(r, phase="over"), None, False, blocked=True)
        reshuffles += 1
        purpose = f"reshuffle/{r.number}/{reshuffles}"
        stock = tuple(_need(rng, purpose).shuffle(list(fire[:-1]), purpose))
        fire = fire[-1:]
    hand = sort_cards([*r.hands[seat], stock[0]])
    r = replace(
        r,
        hands=_set(r.hands, seat, hand),
        stock=stock[1:],
        fire=fire,
        reshuffles=reshuffles,
        phase="play",
    )
    return replace(state, round=r)


def _do_draw(state: State, seat: int, source: str, rng: Any) -> State:
    r = state.round
    if r.first_turn:
        raise IllegalAction("no_draw_first_turn")
    if r.phase != "draw":
        raise IllegalAction("already_drew")
    if source == "stock":
        return _draw_stock(state, r, seat, rng)
    if not r.fire:
        raise IllegalAction("fire_empty")
    card = r.fire[-1]
    hand = sort_cards([*r.hands[seat], card])
    if r.opened[seat]:
        usable = finder.can_use(list(hand), card, r.melds)
    else:
        usable = (
            finder.best_opening(hand, threshold(state, seat), must=card) is not None
            or finder.complete_hand(hand) is not None
        )
    if not usable:
        raise IllegalAction("fire_unusable", card)
    r = replace(r, hands=_set(r.hands, seat, hand), fire=r.fire[:-1], phase="play", fire_card=card)
    return replace(state, round=r)


def _used(r: Round, laid: list[str]) -> Round:
    """Clear the fire-card and joker obligations that these laid cards meet."""
    # The two jokers are alike (cards.py): laying either one puts a joker back on the table. A
    # joker laid meets one obligation: the fire pile's joker first, then a swapped one.
    jokers = sum(1 for c in laid if is_joker(c))
    if r.fire_card is not None:
        if is_joker(r.fire_card) and jokers:
            r = replace(r, fire_card=None)
            jokers -= 1
        elif r.fire_card in laid:
            r = replace(r, fire_card=None)
    if r.joker_due is not None and jokers:
        r = replace(r, joker_due=None, swap_undo=None)
    return r


def _do_lay(state: State, seat: int, action: Action) -> State:
    r = state.round
    laid = [c for m in action.melds for c, _ in m]
    rest = _take(r.hands[seat], laid)
    new = [build(seat, list(m)) for m in action.melds]
    points = sum(m.points() for m in new)
    opened = r.opened
    openings = r.openings
    if not opened[seat]:
        if not rest:
            # «هاند»: every card at once, never having opened (so never having laid off).
            r = replace(r, hands=_set(r.hands, seat, ()), melds=r.melds + tuple(new))
            return _end_round(state, r, seat, True)
        if points < threshold(state, seat):
            raise IllegalAction("opening_too_low", f"{points} < {threshold(state, seat)}")
        if r.fire_card is not None and r.fire_card not in laid:
            raise IllegalAction("opening_needs_fire_card", r.fire_card)
        opened = _set(opened, seat, points)
        openings = (*openings, (seat, points))
    if not _throwable(rest):
        raise IllegalAction("no_card_to_throw")
    r = replace(
        r,
        hands=_set(r.hands, seat, rest),
        melds=r.melds + tuple(new),
        opened=opened,
        openings=openings,
    )
    return replace(state, round=_used(r, laid))


def _meld_at(r: Round, index: int) -> Meld:
    if not 1 <= index <= len(r.melds):
        raise IllegalAction("bad_meld_index", str(index))
    return r.melds[index - 1]


def _do_off(state: State, seat: int, action: Action) -> State:
    r = state.round
    if not r.opened[seat]:
        raise IllegalAction("not_opened")
    meld = _meld_at(r, action.index)
    laid = [c for c, _ in action.cards]
    rest = _take(r.hands[seat], laid)
    out = extend(meld, list(action.cards))
    if not _throwable(rest):
        raise IllegalAction("no_card_to_throw")
    r = replace(r, hands=_set(r.hands, seat, rest), melds=_set(r.melds, action.index - 1, out))
    return replace(state, round=_used(r, laid))


def _do_swap(state: State, seat: int, action: Action) -> State:
    r = state.round
    if not r.opened[seat]:
        raise IllegalAction("not_opened")
    meld = _meld_at(r, action.index)
    if r.joker_due is not None:
        raise IllegalAction("swap_used_this_turn")
    given = [c for c, _ in action.cards]
    rest = _take(r.hands[seat], given)
    out, joker = swap(meld, given)
    hand = sort_cards([*rest, joker])
    if not _throwable(hand):
        raise IllegalAction("no_card_to_throw")
    table = _set(r.melds, action.index - 1, out)
    if not finder.joker_usable(list(hand), joker, table):
        raise IllegalAction("joker_no_use")
    r = replace(
        r,
        hands=_set(r.hands, seat, hand),
        melds=_set(r.melds, action.index - 1, out),
        joker_due=joker,
        swap_undo=(
            action.index - 1,
            meld,
            tuple(given),
            r.fire_card if r.fire_card in given else None,
        ),
    )
    # The given card is laid down in a meld: it meets the fire-card obligation too.
    return replace(state, round=_used(r, given))


def _do_throw(state: State, seat: int, card: str) -> State:
    r = state.round
    hand = r.hands[seat]
    rest = _take(hand, [card])
    # A joker is never thrown, except by a seat holding nothing else (see docs/rules/hand.md).
    if is_joker(card) and _throwable(hand):
        raise IllegalAction("cannot_throw_joker")
    if r.fire_card is not None:
        raise IllegalAction("fire_card_unused", r.fire_card)
    if r.joker_due is not None:
        raise IllegalAction("joker_unused", r.joker_due)
    r = replace(r, hands=_set(r.hands, seat, rest), fire=(*r.fire, card))
    if not rest:
        return _end_round(state, r, seat, False)
    n = state.options.players
    r = replace(r, turn=(seat + 1) % n, phase="draw", first_turn=False, swap_undo=None)
    return replace(state, round=r)


def _do_timeout(state: State, seat: int, rng: Any) -> State:
    """The turn ran out (rules §9): the server plays the whole rest of the turn in one action.

    A swapped joker not laid down goes back in its meld (and the cards given come back); a card
    taken from the fire pile and not laid down goes back on the pile and the seat draws from the
    stock instead; a seat that has not drawn draws from the stock. Then the seat throws its least
    useful card (never a joker while it holds another card). Nothing is ever laid for it.
    """
    state = _timeout_undo(state, seat, rng)
    if state.status != "playing":
        return state  # the draw met a dry stock: the round ended blocked
    r = state.round
    card = bot.least_useful_card(
        list(r.hands[seat]),
        seat,
        state.options.players,
        state.options.partners,
        [p > 0 for p in r.opened],
        list(r.melds),
    )
    return _do_throw(state, seat, card)


def _timeout_undo(state: State, seat: int, rng: Any) -> State:
    """Undo what cannot be left half done and draw if the seat has not, so a throw can follow."""
    r = state.round
    if r.phase == "draw":
        return _draw_stock(state, r, seat, rng)
    if r.joker_due is not None and r.swap_undo is not None:
        idx, old, given, fire_used = r.swap_undo
        cur = r.melds[idx]
        # The jokers are alike: the one still in hand goes back (a fire-pile joker may have been
        # laid in place of the swapped one).
        joker = _a_joker(r.hands[seat], r.joker_due)
        pos = old.cards.index(r.joker_due)
        if cur.kind == "run":
            # Lay-offs may have lengthened the run since the swap: put the joker back in place.
            pos = cur.stands.index(old.stands[pos])
            cur = replace(cur, cards=_set(cur.cards, pos, joker))
        else:
            cur = replace(old, cards=_set(old.cards, pos, joker))
        hand = _take(r.hands[seat], [joker])
        r = replace(
            r,
            hands=_set(r.hands, seat, sort_cards([*hand, *given])),
            melds=_set(r.melds, idx, cur),
            joker_due=None,
            swap_undo=None,
            # A fire card given in the swap is back in hand, unused: it goes back below.
            fire_card=fire_used if fire_used is not None else r.fire_card,
        )
    if r.fire_card is not None:
        card = _a_joker(r.hands[seat], r.fire_card) if is_joker(r.fire_card) else r.fire_card
        hand = _take(r.hands[seat], [card])
        r = replace(
            r,
            hands=_set(r.hands, seat, hand),
            fire=(*r.fire, card),
            fire_card=None,
        )
        return _draw_stock(state, r, seat, rng)
    return replace(state, round=r)


def _a_joker(hand: tuple[str, ...], preferred: str) -> str:
    """``preferred`` if the hand holds it, else the hand's other joker."""
    return preferred if preferred in hand else next(c for c in hand if is_joker(c))


# --------------------------------------------------------------------------- scoring


def round_scores(options: Options, r: Round, out: int | None, hand: bool) -> tuple[int, ...]:
    """Scores of a round (rules §8): −30 / −60 for going out, cards left or a flat 100 / 200."""
    mult = 2 if hand else 1
    scores = []
    for s in range(options.players):
        if s == out:
            scores.append(-30 * mult)
        elif out is not None and options.partners and s % 2 == out % 2:
            scores.append(0)  # the team went out together: −30 / −60 is the team's score
        elif not r.opened[s]:
            scores.append(100 * mult)
        else:
            scores.append(mult * sum(hand_value(c) for c in r.hands[s]))
    return tuple(scores)


def _end_round(state: State, r: Round, out: int | None, hand: bool, blocked: bool = False) -> State:
    scores = round_scores(state.options, r, out, hand)
    r = replace(
        r,
        phase="over",
        fire_card=None,
        joker_due=None,
        swap_undo=None,
        result=Result(out, hand, scores, blocked),
    )
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    state = replace(state, round=r, totals=totals, history=(*state.history, scores))
    status = "round_over"
    if r.number >= state.options.rounds:
        table = standings(state)
        first = [u for u in table if u[0] == 1]
        if not (len(first) > 1 and r.number == state.options.rounds):
            status = "match_over"
            return replace(state, status=status, places=tuple(table))
    return replace(state, status=status)


def standings(state: State) -> list[tuple[int, ...]]:
    """(place, *seats) per unit, lowest total first; equal totals share the place."""
    opts = state.options
    rows = sorted(
        ((sum(state.totals[s] for s in u), u) for u in units(opts)), key=lambda x: (x[0], x[1])
    )
    out = []
    for i, (total, u) in enumerate(rows):
        place = 1 + sum(1 for t, _ in rows[:i] if t < total)
        out.append((place, *u))
    return out


def shares(state: State) -> dict[int, Fraction]:
    """Each seat's share of the pot after the table fee (rules §9), ties pooled and split.

    Two players: the winner takes all. Three or four: first 70%, second 30%. Partners: the winning
    team takes all, split equally between the partners.
    """
    if state.status != "match_over":
        raise IllegalAction("round_in_play")
    opts = state.options
    prizes = (
        [Fraction(1)]
        if (opts.players == 2 or opts.partners)
        else [Fraction(7, 10), Fraction(3, 10)]
    )
    table = list(state.places)
    out = {s: Fraction(0) for s in range(opts.players)}
    for place in sorted({row[0] for row in table}):
        tied = [row[1:] for row in table if row[0] == place]
        pool = sum(prizes[place - 1 : place - 1 + len(tied)], Fraction(0))
        for u in tied:
            for s in u:
                out[s] += pool / len(tied) / len(u)
    return out


def outcome(state: State) -> contract.Outcome | None:
    """Places, shares and scoring units once the match is over; None while it is played."""
    if state.status != "match_over":
        return None
    return contract.Outcome(
        places=tuple((row[0], tuple(row[1:])) for row in state.places),
        shares=shares(state),
        teams=tuple(units(state.options)),
    )


def recap(state: State, log: Iterable[tuple[int | None, str]]) -> dict | None:
    """Nothing: a Hand match ends with a round, and a round's end already shows every hand in
    the views (``hands``), so its end screen needs nothing more from the log (which is never
    read here)."""
    return None


# --------------------------------------------------------------------------- views


def _meld_view(n: int, m: Meld) -> dict:
    return {
        "n": n,
        "owner": m.owner,
        "kind": m.kind,
        "cards": list(m.cards),
        "stands": list(m.stands),
        "low": m.low,
        "points": m.points(),
        "text": m.to_text(),
    }


_STATUS = {"playing": "playing", "round_over": "round_over", "match_over": "over"}


def view(state: State, seat: int) -> dict:
    """What ``seat`` may see (JSON-able): its own cards, counts of everyone else's."""
    if type(seat) is not int or not 0 <= seat < state.options.players:
        raise IllegalAction("no_such_seat", str(seat))
    return _view(state, seat)


def spectator_view(state: State) -> dict:
    """What anyone may see: the view of no seat (``hand`` None, no hints, no threshold)."""
    return _view(state, None)


def _view(state: State, seat: int | None) -> dict:
    opts, r = state.options, state.round
    result = outcome(state)
    must: list[str] = []
    if seat is not None and r.phase != "over" and r.turn == seat:
        if r.phase == "draw":
            must.append("draw")
        else:
            if r.fire_card:
                must.append("use_fire_card")
            if r.joker_due:
                must.append("use_joker")
            must.append("throw")
    out: dict[str, Any] = {
        "game": "hand",
        "seat": seat,
        "players": opts.players,
        "turn": to_move(state),
        "status": _STATUS[state.status],
        "hand": None if seat is None else list(r.hands[seat]),
        "hand_counts": [len(h) for h in r.hands],
        "legal": [],
        "outcome": None if result is None else result.to_dict(),
        "partners": opts.partners,
        "variant": opts.variant,
        "table": opts.table,
        "rounds": opts.rounds,
        "round": r.number,
        "dealer": r.dealer,
        "phase": r.phase,
        "first_turn": r.first_turn,
        "stock_count": len(r.stock),
        "fire": list(r.fire),
        "fire_top": r.fire[-1] if r.fire else None,
        "melds": [_meld_view(i, m) for i, m in enumerate(r.melds, start=1)],
        "opened": [p > 0 for p in r.opened],
        "openings": [list(o) for o in r.openings],
        "threshold": None if seat is None else threshold(state, seat),
        "fire_card": r.fire_card,
        "joker_due": r.joker_due,
        "must": must,
        "totals": list(state.totals),
        "history": [list(h) for h in state.history],
        "result": None,
        "places": [list(p) for p in state.places],
        "hints": None,
        "fire_usable": None,
    }
    if r.result is not None:
        out["result"] = {
            "out": r.result.out,
            "hand": r.result.hand,
            "scores": list(r.result.scores),
            "blocked": r.result.blocked,
        }
        # The round is over: every hand is shown, as at a real table.
        out["hands"] = [list(h) for h in r.hands]
    if seat is not None and opts.table == "easy" and to_move(state) == seat and r.phase == "play":
        hints = _legal_hints(state, seat)
        out["hints"] = hints
        out["legal"] = [hints[k] for k in ("hand", "opening", "lay") if hints.get(k)]
        out["legal"] += hints["off"] + hints["swap"]
    if (
        seat is not None
        and opts.table == "easy"
        and to_move(state) == seat
        and r.phase == "draw"
        and r.fire
    ):
        # The easy table blocks illegal moves, so its page must know before the tap whether
        # taking the fire card would be refused (fire_unusable); a strict table learns it from
        # the refusal. Only this seat's hand, the fire top and the open melds are consulted.
        out["fire_usable"] = _accepted(state, seat, DRAW_FIRE_ACTION)
    return out


DRAW_FIRE_ACTION = Action("draw", source="fire")


def _accepted(state: State, seat: int, action: Action) -> bool:
    try:
        check(state, seat, action)
    except IllegalAction:
        return False
    return True


def _legal_hints(state: State, seat: int) -> dict:
    """The finder's hints, keeping only moves the engine accepts now: the easy table blocks
    illegal moves, so it must never suggest one (a lay-off leaving only a joker, a second swap
    while a swapped joker is due). Only the seat's own hand and the open melds are consulted.
    Actions become text here, at the edge."""
    r = state.round
    found = finder.hints(
        r.hands[seat], r.opened[seat] > 0, threshold(state, seat), r.melds, r.fire_card
    )
    hints: dict[str, Any] = {}
    for key in ("opening", "hand", "lay"):
        plan = found[key]
        hints[key] = plan.to_str() if plan is not None and _accepted(state, seat, plan) else None
        if key == "opening" and hints[key] is not None:
            hints["opening_points"] = found["opening_points"]
    for key in ("off", "swap"):
        hints[key] = [a.to_str() for a in found[key] if _accepted(state, seat, a)]
    # The best throw: the card a time-out would throw for this seat (bot.least_useful_card),
    # once nothing is due that forbids a throw (a fire card or a swapped joker not laid yet).
    hints["throw"] = None
    if r.fire_card is None and r.joker_due is None and r.hands[seat]:
        card = bot.least_useful_card(
            list(r.hands[seat]),
            seat,
            state.options.players,
            state.options.partners,
            [p > 0 for p in r.opened],
            list(r.melds),
        )
        if _accepted(state, seat, Action("throw", cards=((card, None),))):
            hints["throw"] = card
    return hints


# --------------------------------------------------------------------------- JSON


def _meld_json(m: Meld) -> list:
    return [m.owner, m.kind, list(m.cards), list(m.stands), m.low]


def _meld_from(x: list) -> Meld:
    return Meld(x[0], x[1], tuple(x[2]), tuple(x[3]), x[4])


def to_json(state: State) -> str:
    """The whole state (hidden cards included: for storage, never for a player) as JSON."""
    r = state.round
    data = {
        "version": JSON_VERSION,
        "options": options_to_dict(state.options),
        "totals": list(state.totals),
        "history": [list(h) for h in state.history],
        "status": state.status,
        "places": [list(p) for p in state.places],
        "round": {
            "number": r.number,
            "dealer": r.dealer,
            "hands": [list(h) for h in r.hands],
            "stock": list(r.stock),
            "fire": list(r.fire),
            "melds": [_meld_json(m) for m in r.melds],
            "opened": list(r.opened),
            "openings": [list(o) for o in r.openings],
            "turn": r.turn,
            "phase": r.phase,
            "first_turn": r.first_turn,
            "fire_card": r.fire_card,
            "joker_due": r.joker_due,
            "swap_undo": None
            if r.swap_undo is None
            else [
                r.swap_undo[0],
                _meld_json(r.swap_undo[1]),
                list(r.swap_undo[2]),
                r.swap_undo[3],
            ],
            "reshuffles": r.reshuffles,
            "result": None
            if r.result is None
            else [r.result.out, r.result.hand, list(r.result.scores), r.result.blocked],
        },
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> State:
    """The state that ``to_json`` wrote; ValueError for another version (an older snapshot is
    rebuilt by replaying its match's log, never read with today's meaning)."""
    d = json.loads(text)
    if not isinstance(d, dict) or d.get("version") != JSON_VERSION:
        got = d.get("version") if isinstance(d, dict) else None
        raise ValueError(f"Hand state version {got!r}; this engine reads {JSON_VERSION}")
    rd = d["round"]
    su = rd["swap_undo"]
    res = rd["result"]
    r = Round(
        number=rd["number"],
        dealer=rd["dealer"],
        hands=tuple(tuple(h) for h in rd["hands"]),
        stock=tuple(rd["stock"]),
        fire=tuple(rd["fire"]),
        melds=tuple(_meld_from(m) for m in rd["melds"]),
        opened=tuple(rd["opened"]),
        openings=tuple(tuple(o) for o in rd["openings"]),
        turn=rd["turn"],
        phase=rd["phase"],
        first_turn=rd["first_turn"],
        fire_card=rd["fire_card"],
        joker_due=rd["joker_due"],
        swap_undo=None if su is None else (su[0], _meld_from(su[1]), tuple(su[2]), su[3]),
        reshuffles=rd["reshuffles"],
        result=None if res is None else Result(res[0], res[1], tuple(res[2]), res[3]),
    )
    return State(
        options=parse_options(d["options"]),
        round=r,
        totals=tuple(d["totals"]),
        history=tuple(tuple(h) for h in d["history"]),
        status=d["status"],
        places=tuple(tuple(p) for p in d["places"]),
    )
