"""One table's four players in bench.rooms: their sockets (signed in by session cookie), the loop
that plays a move about every ``pace`` seconds with the game's bot from the seat's own view, and
the tally of latencies and errors.

A socket speaks as a client of one kind (``TableSpec.kinds``): ``json`` (docs/protocol.md's JSON
frames) or ``html``, what a player's table page opens: HTML frames, each after the first sent as
a delta on the one before (realtime/delta.py), which this client rebuilds as the page does and
reads as the page does (``#table-live``'s data-match, data-seq, data-status; the own head's
data-your-turn, which the page copies onto it; the
ready and sit forms' commitment; the view a Hand page embeds for its script, the legal moves a
Jakaro page embeds for its own). A fifth socket, when there is one, watches (no seat)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from realtime.delta import pieces, rebuild_from

MOVE_TIMEOUT_S = 10.0  # a move whose state has not reached every seat by then is an error
SEATS = 4


@dataclass
class TableSpec:
    public_id: str
    game: str
    cookies: list[str]  # one per socket: the four seats, then a watcher if any
    kinds: list[str] = field(default_factory=lambda: ["json"] * SEATS)  # "json" | "html"


LIVE_TAG = re.compile(r'<section id="table-live"[^>]*>')
OWN_TAG = re.compile(r'<div id="own-head" class=[^>]*>')  # the page's own marks, not its slot
ATTR = re.compile(r'data-([a-z-]+)="([^"]*)"')
EMBEDDED = re.compile(
    r'<script id="(hand-view|jakaro-data)" type="application/json">(.*?)</script>'
)
FORM_VALUE = re.compile(r'name="(commitment|match)" value="([^"]*)"')
ERROR_TEXT = re.compile(r'id="table-error"[^>]*>([^<]+)</p>')


class PageSeen(dict):
    """``read_page``'s answer: the live table's attributes read at once, its forms and the JSON
    it embeds only when asked for (the client holds hundreds of pages and needs each frame's
    seq, but a page's forms or moves only when that page acts)."""

    def __init__(self, frame: str, attrs: dict[str, str]) -> None:
        super().__init__(
            id=attrs.get("match"),
            seq=int(attrs.get("seq", "-1")),
            status=attrs.get("status"),
            your_turn=attrs.get("your-turn") == "1",
            view=None,  # a page shows its view; the JSON it embeds is ``embedded``
        )
        self.frame = frame

    def __missing__(self, key: str) -> Any:
        if key in ("commitment", "form_match"):
            forms = dict(FORM_VALUE.findall(self.frame))
            self["commitment"], self["form_match"] = forms.get("commitment"), forms.get("match")
        elif key == "can_ready":
            self["can_ready"] = 'data-testid="ready"' in self.frame
        elif key == "embedded":
            found = EMBEDDED.search(self.frame)
            self["embedded"] = json.loads(found.group(2)) if found else None
        else:
            raise KeyError(key)
        return self[key]


def read_page(frame: str) -> PageSeen | None:
    """What a table page reads off a state frame: the same keys the JSON client keeps (match
    id, seq and status; whether it is this page's turn; whether it may still say ready; the
    commitment its forms carry) and ``embedded``: the JSON its game's script reads."""
    tag = LIVE_TAG.search(frame)
    if tag is None:
        return None
    own = OWN_TAG.search(frame, tag.end())
    attrs = dict(ATTR.findall(tag.group(0) + (own.group(0) if own else "")))
    return PageSeen(frame, attrs)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    server_steps: int = 0
    matches_finished: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    frame_bytes: list[int] = field(default_factory=list)  # each state frame as sent on the wire
    client_cpu_s: float = 0.0  # the load generator's CPU over the playing phase

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


class Table:
    """Four sockets of one table and the loop that plays its moves."""

    def __init__(self, spec: TableSpec, base: str, tally: Tally) -> None:
        import games

        self.spec = spec
        self.base = base
        self.tally = tally
        self.engine = games.get(spec.game)
        self.latest: list[dict[str, Any] | None] = [None] * len(spec.cookies)
        self.changed = asyncio.Event()
        self.sockets: list[Any] = []
        self.readers: list[asyncio.Task] = []
        self.pending: tuple[str, int, float, set[int]] | None = None
        self.done_move = asyncio.Event()
        self.closing = False

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        base = self.base.replace("http://", "ws://") + f"/ws/table/{self.spec.public_id}/"
        for i, cookie in enumerate(self.spec.cookies):
            # The JSON rendering (docs/protocol.md); without ?format=json the socket sends HTML.
            url = base + ("?format=json" if self.spec.kinds[i] == "json" else "")
            ws = await connect(
                url,
                origin=self.base,
                additional_headers={"Cookie": cookie},
                open_timeout=60,
                close_timeout=2,
                max_size=2**22,
            )
            self.sockets.append(ws)
            self.readers.append(asyncio.create_task(self._read(i, ws)))
        await self._until(lambda: all(x is not None for x in self.latest), 30)

    async def _read(self, i: int, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        page = self.spec.kinds[i] == "html"
        last: list[str] = []
        try:
            async for raw in ws:
                if page:
                    if raw.startswith('{"delta":') or raw.startswith('<section id="table-live"'):
                        text = rebuild_from(last, raw)
                        last = pieces(text)
                        seen = read_page(text)
                    else:  # a refusal or a notice, beside the table
                        refused = ERROR_TEXT.search(raw)
                        if refused:  # by its words: the page's error line carries no code
                            self.tally.error(f"error_fragment: {refused.group(1)[:80]}")
                        continue
                    if seen is None:
                        continue
                    reached_at = (seen["id"], seen["seq"])
                else:
                    frame = json.loads(raw)
                    if frame["type"] == "error":
                        self.tally.error(frame.get("code", "?"))
                        continue
                    if frame["type"] != "state":
                        continue
                    seen = _from_json(frame, i)
                    reached_at = (seen["id"], seen["seq"])
                self.tally.frame_bytes.append(len(raw.encode()))
                self.latest[i] = seen
                pending = self.pending
                if pending is not None and i in pending[3]:
                    # The move's state, or (it ended the match) the next match's.
                    if reached_at[0] != pending[0] or reached_at[1] > pending[1]:
                        pending[3].discard(i)
                        if not pending[3]:
                            self.tally.latencies.append((time.perf_counter() - pending[2]) * 1e3)
                            self.done_move.set()
                self.changed.set()
        except ConnectionClosed:
            if not self.closing:
                self.tally.error("socket_closed")

    async def _until(self, cond: Any, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while not cond():
            left = end - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True

    async def sit_last(self) -> None:
        """Seat 3 sits over its socket with a fresh seed for the commitment it was shown."""
        last = self.latest[3]
        await self.sockets[3].send(
            json.dumps(
                {
                    "type": "sit",
                    "seat": 3,
                    "seed": secrets.token_hex(16),
                    "commitment": last["commitment"],  # type: ignore[index]
                    "match": last["form_match"],  # type: ignore[index]
                }
            )
        )
        if not await self._until(lambda: self._status() == "playing", 30):
            self.tally.error("match_did_not_start")

    def _status(self) -> str | None:
        return self.latest[0]["status"] if self.latest[0] else None

    def _seq(self) -> tuple[str, int]:
        m = self.latest[0]
        return m["id"], m["seq"]  # type: ignore[index]

    async def play(self, stop_at: float, pace: float) -> None:
        """One move about every ``pace`` seconds until ``stop_at`` (time.monotonic())."""
        next_at = time.monotonic() + random.uniform(0, pace)
        for _ in range(100_000):  # bounded; the clock ends it long before
            now = time.monotonic()
            if now >= stop_at:
                return
            if next_at > now:
                await asyncio.sleep(min(next_at, stop_at) - now)
                continue
            next_at = max(next_at + pace, time.monotonic())
            status = self._status()
            if status == "waiting":
                await self._next_match()
                continue
            match_id, seq = self._seq()
            if not self._in_step():
                await self._until(lambda: self._in_step(), 2)
                continue
            turn = next((i for i in range(SEATS) if self.latest[i]["your_turn"]), None)  # type: ignore[index]
            if turn is None:
                # The server's own step (Hand's next deal): the Celery timer plays it.
                if await self._until(lambda s=seq: self._seq()[1] > s, MOVE_TIMEOUT_S):
                    self.tally.server_steps += 1
                else:
                    self.tally.error("server_step_late")
                continue
            action = self._choose(turn)
            if action is None:
                self.tally.error("no_move_offered")
                await asyncio.sleep(pace)
                continue
            self.done_move.clear()
            # Until every seat's page has it; a watcher is left out (a rated table's watchers
            # see it WATCH_DELAY_S late, by design: docs/social.md).
            self.pending = (match_id, seq, time.perf_counter(), set(range(SEATS)))
            await self.sockets[turn].send(
                json.dumps({"type": "move", "seq": seq, "action": action})
            )
            try:
                await asyncio.wait_for(self.done_move.wait(), MOVE_TIMEOUT_S)
                self.tally.moves += 1
            except TimeoutError:
                self.tally.error("move_timeout")
            self.pending = None
            if self._status() == "waiting":
                self.tally.matches_finished += 1

    def _in_step(self) -> bool:
        seats = self.latest[:SEATS]
        return len({(s["id"], s["seq"]) for s in seats}) == 1  # type: ignore[index]

    def _choose(self, seat: int) -> str | None:
        """The move of the seat whose turn it is, from what its client holds: the seat's view
        (a JSON client; a Hand page embeds it too) for the game's bot, or the legal moves a
        Jakaro page offers (one of them at random, as a player taps one)."""
        seen = self.latest[seat]
        if seen["view"] is not None:  # type: ignore[index]
            return self.engine.bot_action(seen["view"])  # type: ignore[index]
        embedded = seen["embedded"] or {}  # type: ignore[index]
        if "view" in embedded:  # Hand's page
            return self.engine.bot_action(embedded["view"])
        legal = embedded.get("legal") or []
        return random.choice(legal) if legal else None

    async def _next_match(self) -> None:
        """Every seat asks for the next match with a fresh seed for its commitment."""
        for seat in range(SEATS):
            seen = self.latest[seat]
            if not seen["can_ready"]:  # type: ignore[index]
                continue
            await self.sockets[seat].send(
                json.dumps(
                    {
                        "type": "ready",
                        "seed": secrets.token_hex(16),
                        "commitment": seen["commitment"],  # type: ignore[index]
                        "match": seen["form_match"],  # type: ignore[index]
                    }
                )
            )
        if not await self._until(lambda: self._status() == "playing", MOVE_TIMEOUT_S):
            self.tally.error("next_match_did_not_start")

    async def close(self) -> None:
        self.closing = True
        for ws in self.sockets:
            await ws.close()
        for task in self.readers:
            task.cancel()


def _from_json(frame: dict[str, Any], seat: int) -> dict[str, Any]:
    """What ``read_page`` reads off an HTML frame, read off a JSON state frame."""
    match = frame["match"]
    view = frame["view"]
    you = frame["you"]["seat"]
    seats = frame["table"]["seats"]
    mine = seats[you] if you is not None else None
    playing = match["status"] == "playing"
    return {
        "id": match["id"],
        "seq": match["seq"],
        "status": match["status"],
        "your_turn": bool(playing and view and you is not None and view.get("turn") == you),
        "can_ready": bool(
            mine and match["status"] == "waiting" and frame["shown"] and not mine["ready"]
        ),
        "commitment": match["commitment"],
        "form_match": match["id"],
        "view": view if you is not None else None,
        "embedded": None,
    }
