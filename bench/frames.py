"""What drawing a table's frames costs, in one process: ``python -m bench.frames [--quick]``.

A table page's socket draws the whole table for its seat at every move (games/rendering.py), and
that drawing is most of Daphne's CPU per move with real pages (issue 23, docs/scaling.md). This
bench measures it alone, with no server, no socket and no other process in the figures, so a
change to the drawing can be judged on a noisy machine where bench.rooms' p99 cannot.

It makes a four-seat Hand table (solo) and a four-seat Jakaro table (partners) through
games.services against PostgreSQL (``DATABASE_URL``) and Redis (``REDIS_URL``), and plays ``N``
moves at each: the seat whose turn it is plays its bot's move from its own view through
``services.match_play``; when it is nobody's turn (the server's next deal) the deadline is moved
back and ``services.match_advance`` plays it. After each move, every seat's state is read as its
socket would have it (``selectors.table_state``, not timed) and drawn as the socket draws it, in
Arabic. Each seat keeps its own delta encoder, as each socket does, and the process keeps its
drawn parts (games/templatetags/parts.py) from move to move, as Daphne does.

Figures per game, over every seat's frame after every move (CPU time of this process,
``time.process_time``, in ms; p50 and mean):

- ``frame_ms``: ``rendering.state_fragment`` (the context and the templates);
- ``context_ms``: ``rendering.table_context`` alone (the part of ``frame_ms`` before templates);
- ``delta_ms``: the socket's ``DeltaEncoder.encode`` of the frame;
- ``json_ms``: the state as a JSON socket sends it (``realtime.consumer``'s ``encode``);
- ``frame_kb`` (p50): a frame before the delta; ``delta_bytes`` (p50): what the wire carries.

``seat_frame_ms`` in the JSON line is ``frame_ms`` + ``delta_ms`` (mean), both games averaged:
what each HTML seat costs Daphne per move. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench import site
from bench.stats import percentile

GAMES = (("hand", {"players": 4}), ("jakaro", {"players": 4}))
LANG = "ar"


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.process_time()
    out = fn()
    return out, (time.process_time() - start) * 1000


def _table(game: str, options: dict[str, Any], run: str) -> tuple[Any, list[Any]]:
    """A four-seat table of ``game`` with its match started: the table and its four players."""
    from accounts.models import User
    from games.models import Match

    users = []
    for s in range(4):
        user = User.objects.create(username=f"frames-{run}-{game}{s}", display_name=f"لاعب {s + 1}")
        user.set_unusable_password()
        user.save()
        users.append(user)
    table = site.seated_table(game, options, users[0], users)
    match = Match.objects.get(table=table, number=1)
    if match.status != Match.Status.PLAYING:
        raise SystemExit(f"{game}: the match did not start ({match.status})")
    return table, users


def measure(game: str, options: dict[str, Any], moves: int, run: str) -> dict[str, Any]:
    """Play ``moves`` moves at a new four-seat table of ``game``, drawing every seat's frame
    after each; the figures of the module docstring."""
    from django.utils import translation

    from games import rendering, selectors
    from language import digits
    from realtime.consumer import encode
    from realtime.delta import DeltaEncoder

    table, users = _table(game, options, run)
    encoders = [DeltaEncoder() for _ in users]
    seen: dict[str, list[float]] = {k: [] for k in ("frame", "context", "delta", "json")}
    sizes: dict[str, list[float]] = {"frame": [], "delta": []}
    played = 0
    for _ in range(moves + 1):  # the frames of the deal, then after each move
        states = [selectors.table_state(table, user) for user in users]
        for seat, state in enumerate(states):
            style = digits.style_of(users[seat], LANG)  # as the seat's socket passes it
            frame, ms = _timed(lambda s=state, d=style: rendering.state_fragment(s, LANG, d))
            seen["frame"].append(ms)
            with translation.override(LANG), digits.override(style):
                seen["context"].append(_timed(lambda s=state: rendering.table_context(s))[1])
            sent, ms = _timed(lambda f=frame, e=encoders[seat]: e.encode(f))
            seen["delta"].append(ms)
            seen["json"].append(_timed(lambda s=state: encode({"type": "state", **s}))[1])
            sizes["frame"].append(len(frame.encode()) / 1024)
            sizes["delta"].append(len(sent.encode()))
        if played == moves or site.play_one(table.public_id) is None:
            break
        played += 1
    figures: dict[str, Any] = {"moves": played, "seat_frames": len(seen["frame"])}
    for key, values in seen.items():
        figures[f"{key}_ms_p50"] = round(percentile(values, 0.5), 3)
        figures[f"{key}_ms_mean"] = round(statistics.fmean(values), 3)
    figures["frame_kb_p50"] = round(percentile(sizes["frame"], 0.5), 1)
    figures["delta_bytes_p50"] = int(percentile(sizes["delta"], 0.5))
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=None, help="moves per table (default 60)")
    parser.add_argument("--quick", action="store_true", help="10 moves per table")
    args = parser.parse_args(argv)
    moves = args.moves if args.moves is not None else (10 if args.quick else 60)
    site.start(REDIS_URL="redis://127.0.0.1:6379/8", CHANNEL_PREFIX="bench-frames")
    run = secrets.token_hex(3)
    started = time.monotonic()
    result: dict[str, Any] = {}
    for game, options in GAMES:
        result[game] = figures = measure(game, options, moves, run)
        print(
            f"{game}: {figures['seat_frames']} seat frames over {figures['moves']} moves; "
            f"a frame {figures['frame_ms_mean']} ms (context {figures['context_ms_mean']}), "
            f"its delta {figures['delta_ms_mean']} ms, JSON {figures['json_ms_mean']} ms; "
            f"{figures['frame_kb_p50']} KB → {figures['delta_bytes_p50']} B",
            file=sys.stderr,
        )
    per_game = [result[g]["frame_ms_mean"] + result[g]["delta_ms_mean"] for g, _ in GAMES]
    result["seat_frame_ms"] = round(statistics.fmean(per_game), 3)
    result["seconds"] = round(time.monotonic() - started, 1)
    result["quick"] = args.quick
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
