"""A table page's frames (the table socket's HTML mode, docs/protocol.md): the part of the table
every viewer shares, drawn once per change in each process, and each viewer's own parts.

The shared part (``templates/jinja2/games/_table_live.html`` and the game's ``TEMPLATE``: the felt,
the piles, the melds, the board, the seats, the result, the fair shuffle) is drawn from a
watcher's state (no seat, the spectator view), so it holds nothing one seat may not see, in one
frame of reference: seat 0's. The page turns and marks it for its own seat
(static/js/table_kit.js ``turnTable`` and the game's ``turn-game`` step). Each viewer's own
parts (``_own_head.html``: the turn's words, their notices and the seat the page turns the
table for; ``_own_actions.html``; the game's ``OWN_TEMPLATE``: their cards and moves) follow it
in the frame and are swapped into the shared part's slots by id; then the chat they may read.

A frame is ``shared`` + ``own`` + ``chat``, and the socket sends it as a delta against its last
(realtime/delta.py): the shared part's delta is made once per process for every socket that had
the previous one.

The process keeps what it drew in one cache (``_drawn``): a shared part by the change it shows
(match, seq and when the table was read), language and digit style; a chat by its lines.
Entries are dropped oldest first once ``DRAWN_KEPT`` are held: a change is sent within a moment
of its arrival, so an entry that old is never asked for again (and would only be drawn again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import orjson
from cachetools import FIFOCache
from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from games import rendering
from language import digits as digit_style
from realtime.delta import Shared

# A change is drawn for its sockets within a moment of its arrival (a delayed watcher's a few
# seconds later, drawn again if it is gone by then), so a few seconds of changes are kept: at
# 100 changes a second, 512 (a shared part with its pieces is about 200 KB of memory: at 4,096
# a process held some 600 MB more, bench.rooms' peak_rss_mb).
DRAWN_KEPT = 512
_drawn: FIFOCache[tuple[Any, ...], Any] = FIFOCache(maxsize=DRAWN_KEPT)


def draw_template(name: str, context: dict[str, Any]) -> SafeString:
    """A frame's template (templates/jinja2/) drawn by the frames' Jinja2 environment
    (sahrat_site/jinja2.py)."""
    return mark_safe(engines["jinja2"].env.get_template(name).render(context))


class Own(NamedTuple):
    """One viewer's own parts of the table, each drawn into its slot of the shared part: the
    head, the actions and the game's (``game``: the face's OWN_TEMPLATES slot -> HTML)."""

    head: str
    actions: str
    game: dict[str, str]

    def text(self) -> str:
        return self.head + self.actions + "".join(self.game.values())


def shared_part(
    change: tuple[Any, ...], state: Callable[[], dict[str, Any]], lang: str, style: str | None
) -> Shared:
    """The shared part of ``change`` (the table's id, its match, seq and reading time), drawn
    once per process, language and digit style from ``state()``: a watcher's state (asked for
    only when it is not drawn yet)."""
    key = ("shared", change, lang, style)
    part = _drawn.get(key)
    if part is None:
        part = _drawn[key] = Shared(draw_shared(state(), lang, style))
    return part


def draw_shared(
    state: dict[str, Any], lang: str | None, style: str | None, own: Own | None = None
) -> str:
    """The shared part for a watcher's ``state``; with ``own``, a page's whole live table
    (each own part in its slot); without, a socket's (its slots empty, to be swapped in)."""
    with translation.override(lang), digit_style.override(style):
        ctx = rendering.shared_context(state)
        ctx["oob"] = own is None
        ctx["own"] = own
        # Ending on its closing tag: a frame is cut into pieces after each ">" (realtime/delta.py).
        return mark_safe(draw_template("games/_table_live.html", ctx).rstrip())


def own_parts(
    state: dict[str, Any], lang: str | None, style: str | None, *, oob: bool = True
) -> Own:
    """A viewer's own parts from their ``state``; ``oob``: each swapped into its slot by id (a
    socket's frame), else drawn in place (the page)."""
    with translation.override(lang), digit_style.override(style):
        ctx = rendering.own_context(state)
        ctx["oob"] = oob
        game = {}
        if ctx["own_view"] is not None:
            mine = {**ctx, "g": ctx["own_view"]}
            game = {slot: draw_template(t, mine) for slot, t in ctx["own_templates"].items()}
        return Own(
            draw_template("games/_own_head.html", ctx),
            draw_template("games/_own_actions.html", ctx),
            game,
        )


def chat_part(
    state: dict[str, Any], lang: str | None, style: str | None, *, oob: bool = True
) -> str:
    """The chat a viewer may read (``state["chat"]``), swapped by id (``oob``; else as the
    page first draws it); drawn once per process for the same lines, language and digit style
    (most viewers of a table read the same)."""
    off = bool(state["you"].get("chat_off"))
    key = ("chat", lang, style, off, oob, orjson.dumps(state["chat"]))
    text = _drawn.get(key)
    if text is None:
        with translation.override(lang), digit_style.override(style):
            ctx = {"chat": state["chat"], "chat_off": off, "oob": oob}
            text = _drawn[key] = draw_template("games/_table_chat.html", ctx)
    return text


def state_fragment(
    state: dict[str, Any], shared: dict[str, Any], lang: str, style: str | None = None
) -> str:
    """One viewer's whole frame, drawn on its own (no part kept): ``shared`` is the watcher's
    state of the same change (selectors.table_states). What a socket sends is the same text."""
    return (
        draw_shared(shared, lang, style)
        + own_parts(state, lang, style).text()
        + (chat_part(state, lang, style))
    )


def page_live(
    state: dict[str, Any], shared: dict[str, Any], lang: str | None, style: str | None
) -> str:
    """The live table as the table page first draws it for one viewer: the shared part with
    the viewer's own parts in their slots."""
    return draw_shared(shared, lang, style, own_parts(state, lang, style, oob=False))
