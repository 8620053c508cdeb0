"""The Jakaro board as an SVG drawn by the server, as numbers, so it shows with no script at all;
the page's scripts (static/js/jakaro*.js) only add the taps. The track is a ring of 20 × 20 cells
(76 squares: 19 a side), the first colour's start at the bottom middle; a colour's quarter is the
bottom one turned by a quarter turn per colour, so every colour's start, base and home column
sit the same way on its side, as on the wooden board. It is drawn once for everyone at the table
(games/frames.py), as a watcher sees it; a seat's page turns it so that its colour is at the
bottom (static/js/jakaro.js, turnBoard)."""

from __future__ import annotations

import functools
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games.faces.common import digits, in_digits, named
from language.digits import current as current_digits

CELL = 20  # SVG units per cell; the viewBox is 400 × 400
# Colour c's marbles, by colour (not seat): partners (0 and 2, 1 and 3) get cool and warm hues.
COLOURS = ("#1f6fd1", "#d1452a", "#13996b", "#e0a100")
COLOUR_WORDS = {
    0: gettext_lazy("blue marble"),
    1: gettext_lazy("red marble"),
    2: gettext_lazy("green marble"),
    3: gettext_lazy("yellow marble"),
}


def _cell(k: int) -> tuple[float, float]:
    """The cell of the square k steps past the bottom start (counter-clockwise on the screen)."""
    if k >= 66:
        return k - 66, 19
    if k <= 9:
        return k + 10, 19
    if k <= 28:
        return 19, 19 - (k - 9)
    if k <= 47:
        return 19 - (k - 28), 0
    return 0, k - 47


def _turn(x: float, y: float, quarters: int) -> tuple[float, float]:
    """A cell turned ``quarters`` quarter turns (the way the marbles go) about the centre."""
    for _i in range(quarters % 4):
        x, y = 9.5 + (y - 9.5), 9.5 - (x - 9.5)
    return x, y


def _num(v: float) -> str:
    """An SVG coordinate as text: the template would write a float with the locale's comma."""
    return f"{v:.1f}"


def _xy(x: float, y: float) -> dict[str, str]:
    return {"x": _num(x * CELL + CELL / 2), "y": _num(y * CELL + CELL / 2)}


# Where a colour's home column and base sit when that colour is at the bottom.
HOME_CELLS = ((9, 18), (9, 17), (9, 16), (9, 15))
BASE_CELLS = ((13.4, 16.4), (14.6, 16.4), (13.4, 17.6), (14.6, 17.6))
PLATE_CELL = (14, 17)  # the middle of a quarter's base (its plate), the viewer's quarter
LABEL_GAP = 2.4  # cells between a base's middle and its player's name
LABEL_IN = 0.4  # cells a side quarter's name moves in from the board's edge


def _label_cell(q: int) -> tuple[float, float]:
    """Where a quarter's name goes: straight above its base on the viewer's own quarter, straight
    below it on the others. Turned with the quarter, the name of a side quarter lay beside its
    base, over its marbles, on a phone's narrow board; the name reads across the screen, so it is
    placed across the screen, above or below (a side quarter's a little in from the edge, which
    its base nearly touches)."""
    px, py = _turn(*PLATE_CELL, q)
    if q % 2:
        return px + (LABEL_IN if px < 9.5 else -LABEL_IN), py + LABEL_GAP
    return px, py - LABEL_GAP if q % 4 == 0 else py + LABEL_GAP


# Where a quarter's name goes, by quarter turns from the viewer's quarter: "x y" each, for the
# page that turns the board (the name is not turned with it: it reads across the screen).
LABELS_AT = ",".join(
    f"{_num(x * CELL + CELL / 2)} {_num(y * CELL + CELL / 2)}"
    for x, y in map(_label_cell, range(4))
)


def colour_of(players: int, seat: int) -> int:
    """A seat's colour: four seats take the four, two take opposite ones."""
    return seat if players == 4 else seat * 2


def team_of(players: int, seat: int) -> int:
    """A seat's team: partners across the board at four, each seat alone at two."""
    return seat % 2 if players == 4 else seat


@in_digits
def _marble_words(colour: int, pos: int) -> str:
    marble = str(COLOUR_WORDS[colour])
    if pos < 0:
        return _("%(marble)s in its base") % {"marble": marble}
    if pos >= 76:
        return _("%(marble)s at home, square %(n)s of 4") % {
            "marble": marble,
            "n": digits(pos - 75),
        }
    return _("%(marble)s on square %(n)s") % {"marble": marble, "n": digits(pos)}


def board_svg(view: dict[str, Any], seats: list[dict[str, Any]]) -> dict:
    """Everything the SVG needs: squares, home columns, bases, marbles and labels, placed as a
    watcher sees them (seat 0's colour at the bottom); the page turns them for its own seat
    (static/js/jakaro.js, turnBoard), with each name where ``labels_at`` says its quarter goes."""
    players = view["players"]
    flat = [p for ms in view["marbles"] for p in ms]
    in_play = {colour_of(players, s): s for s in range(players)}
    counts = view.get("hand_counts") or []
    lang, style = get_language(), current_digits()
    squares, track = _track(0, tuple(sorted(in_play)), lang, style)
    quarters = []
    marbles = []
    for colour, seat in sorted(in_play.items()):
        row = next((s for s in seats if s["number"] == seat), {})
        name = row.get("short") or named(seats, seat)
        fixed = _quarter_fixed(colour, seat, lang, style)
        homes, bases = fixed["homes"], fixed["bases"]
        count = counts[seat] if seat < len(counts) else 0
        quarters.append(
            {
                **fixed["shown"],
                "colour": colour,
                "fill": COLOURS[colour],
                "name": name,
                "turn": view.get("turn") == seat,
                "count": count,
                "connected": row.get("connected"),
                # The turn's clock, on the seat to move only (games/rendering.py).
                "deadline": row.get("deadline"),
                "now": row.get("now"),
                # The home squares, each named with its player's name.
                "homes_svg": mark_safe(escape(name).join(fixed["homes_around"])),
                # Card backs in a row under the name.
                "backs_svg": _backs_svg(count),
            }
        )
        for k in range(4):
            mi = seat * 4 + k
            pos = flat[mi]
            if pos < 0:
                at = bases[k]
            elif pos >= 76:
                at = homes[pos - 76]
            else:
                at = squares[pos]
            marbles.append(
                {
                    "i": mi,
                    "seat": seat,
                    "colour": colour,
                    "fill": COLOURS[colour],
                    "pos": pos,
                    "x": at["x"],
                    "y": at["y"],
                    "label": _marble_label(colour, pos, lang, style),
                }
            )
    return {
        "squares": squares,
        "track": track,
        "quarters": quarters,
        "marbles": marbles,
        "labels_at": LABELS_AT,
    }


# The SVG of the many small shapes (bases, homes, card backs, marbles) is written here rather
# than in the template: the same markup the template wrote, each a few times quicker to make,
# for every seat at every move.


@functools.lru_cache(maxsize=1024)
def _quarter_fixed(q: int, seat: int, lang: str | None, style: str) -> dict[str, Any]:
    """What of a seat's quarter depends only on where it lies (``q`` quarter turns from the
    bottom), the seat, the language and digits: what its template shows (``shown``: places,
    the SVG of its bases), its homes' and bases' places, and the SVG of its home squares around
    where its player's name goes (``homes_around``). The same at every table, so made once per
    process, not per seat and move."""
    homes = [_xy(*_turn(x, y, q)) for x, y in HOME_CELLS]
    bases = [_xy(*_turn(x, y, q)) for x, y in BASE_CELLS]
    lx, ly = _label_cell(q)
    homes = [
        {**h, "pos": 76 + i, "label": _("home square %(n)s") % {"n": digits(i + 1)}}
        for i, h in enumerate(homes)
    ]
    shown = {
        "seat": seat,
        # The plate behind the base.
        "plate": _xy(*_turn(*PLATE_CELL, q)),
        "dot": _xy(*_turn(16.2, 14.4, q)),
        "count_at": _xy(*_turn(16.2, 13.2, q)),
        "label": _xy(lx, ly),
        "bases_svg": mark_safe(
            "".join(f'<circle class="jk-hole" cx="{b["x"]}" cy="{b["y"]}" r="8" />' for b in bases)
        ),
    }
    # ``shown``: what the quarter's template reads (and a kept part is keyed by); the places of
    # its homes and bases are for the marbles standing on them.
    return {
        "shown": shown,
        "homes": homes,
        "bases": bases,
        # The home squares' SVG cut where the name goes: "name".join(homes_around) is the SVG.
        "homes_around": "".join(
            f'<circle class="jk-sq jk-home" data-sq="{h["pos"]}" data-seat="{seat}" '
            f'cx="{h["x"]}" cy="{h["y"]}" r="8" role="img" '
            f'aria-label="\0: {escape(h["label"])}" />'
            for h in homes
        ).split("\0"),
    }


@functools.lru_cache(maxsize=64)
def _backs_svg(count: int) -> SafeString:
    """A quarter's ``count`` card backs in a row under its name (placed from the name)."""
    return mark_safe(
        "".join(
            f'<rect x="{_num(-24 + 8 * i)}" y="6.0" width="7" height="10" rx="1.5" />'
            for i in range(count)
        )
    )


@functools.lru_cache(maxsize=2048)
def _marble_label(colour: int, pos: int, lang: str | None, style: str) -> str:
    """A marble's words where it stands, kept per language and digits (sixteen per frame)."""
    return _marble_words(colour, pos)


def marbles_svg(marbles: list[dict[str, Any]], last: Any) -> SafeString:
    """The marbles as SVG, the last move's marked ``last`` (the page marks those a finished
    partner's seat moves for: static/js/jakaro.js, turnBoard)."""
    return mark_safe(
        "".join(
            f'<circle class="jk-marble c{m["colour"]}{" last" if m["i"] in last else ""}" '
            f'data-m="{m["i"]}" data-seat="{m["seat"]}" data-pos="{m["pos"]}" '
            f'cx="{m["x"]}" cy="{m["y"]}" r="7" role="img" aria-label="{escape(m["label"])}" />'
            for m in marbles
        )
    )


def _start_class(colour: int | None) -> str:
    return "" if colour is None else f" jk-start c{colour}"


@functools.lru_cache(maxsize=256)
def _track(
    viewer: int, in_play: tuple[int, ...], lang: str | None, style: str
) -> tuple[tuple[dict[str, Any], ...], SafeString]:
    """The 76 squares placed for a viewer's colour, and their SVG (the circles, then the
    numbers): the same for every viewer of that colour in a language and digit style, so drawn
    once per process rather than once per seat and move (it was most of a Jakaro frame)."""
    squares = []
    for p in range(76):
        x, y = _cell((p - 19 * viewer) % 76)
        start_of = p // 19 if p % 19 == 0 and p // 19 in in_play else None
        squares.append(
            {
                "n": p,
                "label": _("square %(n)s") % {"n": digits(p)},
                "start": start_of,
                "shown": digits(p),
                **_xy(x, y),
            }
        )
    circles = "".join(
        f'<circle class="jk-sq{_start_class(q["start"])}" '
        f'data-sq="{q["n"]}" cx="{q["x"]}" cy="{q["y"]}" r="8" role="img" '
        f'aria-label="{escape(q["label"])}" />'
        for q in squares
    )
    numbers = "".join(
        f'<text x="{q["x"]}" y="{q["y"]}" dy="3">{escape(q["shown"])}</text>' for q in squares
    )
    svg = mark_safe(f'{circles}\n    <g class="jk-nums" aria-hidden="true">{numbers}</g>')
    return tuple(squares), svg


def last_marbles(last: dict[str, Any] | None) -> list[int]:
    """The flat marbles the last action named (to keep the last move marked)."""
    if not last:
        return []
    out = []
    for token in last["action"].split()[2:]:
        owner, _sep, m = token.rpartition(":")
        if m[:1] == "m" and m[1:].isdigit():
            out.append((int(owner) if owner.isdigit() else last["seat"]) * 4 + int(m[1:]))
    return out
