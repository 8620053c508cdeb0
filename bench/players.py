"""One table's four players in bench.rooms: their sockets (docs/protocol.md's JSON, signed in by
session cookie), the loop that plays a move about every ``pace`` seconds with the game's bot from
the seat's own view, and the tally of latencies and errors."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

MOVE_TIMEOUT_S = 10.0  # a move whose state has not reached every seat by then is an error


@dataclass
class TableSpec:
    public_id: str
    game: str
    cookies: list[str]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    server_steps: int = 0
    matches_finished: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)

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
        self.latest: list[dict[str, Any] | None] = [None] * 4
        self.changed = asyncio.Event()
        self.sockets: list[Any] = []
        self.readers: list[asyncio.Task] = []
        self.pending: tuple[str, int, float, set[int]] | None = None
        self.done_move = asyncio.Event()
        self.closing = False

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        # The JSON rendering (docs/protocol.md); without ?format=json the socket sends HTML.
        path = f"/ws/table/{self.spec.public_id}/?format=json"
        url = self.base.replace("http://", "ws://") + path
        for seat, cookie in enumerate(self.spec.cookies):
            ws = await connect(
                url,
                origin=self.base,
                additional_headers={"Cookie": cookie},
                open_timeout=60,
                close_timeout=2,
                max_size=2**22,
            )
            self.sockets.append(ws)
            self.readers.append(asyncio.create_task(self._read(seat, ws)))
        await self._until(lambda: all(self.latest), 30)

    async def _read(self, seat: int, ws: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in ws:
                frame = json.loads(raw)
                if frame["type"] == "error":
                    self.tally.error(frame.get("code", "?"))
                    continue
                if frame["type"] != "state":
                    continue
                self.latest[seat] = frame
                pending = self.pending
                if pending is not None and seat in pending[3]:
                    m = frame["match"]
                    reached = (m["id"] == pending[0] and m["seq"] > pending[1]) or (
                        frame["shown"] is not None and frame["shown"]["id"] == pending[0]
                    )
                    if reached:
                        pending[3].discard(seat)
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
        match = self.latest[3]["match"]  # type: ignore[index]
        await self.sockets[3].send(
            json.dumps(
                {
                    "type": "sit",
                    "seat": 3,
                    "seed": secrets.token_hex(16),
                    "commitment": match["commitment"],
                    "match": match["id"],
                }
            )
        )
        if not await self._until(lambda: self._status() == "playing", 30):
            self.tally.error("match_did_not_start")

    def _status(self) -> str | None:
        return self.latest[0]["match"]["status"] if self.latest[0] else None

    def _seq(self) -> tuple[str, int]:
        m = self.latest[0]["match"]  # type: ignore[index]
        return m["id"], m["seq"]

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
            views = [s["view"] for s in self.latest]  # type: ignore[index]
            match_id, seq = self._seq()
            if any(s["match"]["seq"] != seq for s in self.latest):  # type: ignore[index]
                await self._until(lambda: self._in_step(), 2)
                continue
            turn = views[0]["turn"]
            if turn is None:
                # The server's own step (Hand's next deal): the Celery timer plays it.
                if await self._until(lambda s=seq: self._seq()[1] > s, MOVE_TIMEOUT_S):
                    self.tally.server_steps += 1
                else:
                    self.tally.error("server_step_late")
                continue
            action = self.engine.bot_action(views[turn])
            self.done_move.clear()
            self.pending = (match_id, seq, time.perf_counter(), {0, 1, 2, 3})
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
        seqs = {(s["match"]["id"], s["match"]["seq"]) for s in self.latest}  # type: ignore[index]
        return len(seqs) == 1

    async def _next_match(self) -> None:
        """Every seat asks for the next match with a fresh seed for its commitment."""
        match = self.latest[0]["match"]  # type: ignore[index]
        for seat, ws in enumerate(self.sockets):
            me = self.latest[seat]["table"]["seats"][seat]  # type: ignore[index]
            if me["ready"]:
                continue
            await ws.send(
                json.dumps(
                    {
                        "type": "ready",
                        "seed": secrets.token_hex(16),
                        "commitment": match["commitment"],
                        "match": match["id"],
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
