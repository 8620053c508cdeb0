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
socket would have it (``selectors.table_states``, not timed) and drawn as two web processes
draw it (games/frames.py): seats 0 and 1 on one, 2 and 3 on the other, so the part every viewer
shares is drawn twice a change and each seat's own part four times, in Arabic. Each seat keeps
its own delta encoder, as each socket does, and the process keeps its drawn parts
(games/frame_parts.py) from move to move, as Daphne does.

Figures per game (CPU time of this process, ``time.process_time``, in ms; p50 and mean):

- ``shared_ms``: the shared part drawn and cut once (``frames.draw_shared``, ``Shared``);
- ``own_ms``: a seat's own parts and its chat (``frames.own_parts``, ``frames.chat_part``);
- ``delta_ms``: the socket's ``DeltaEncoder.encode`` of its frame (the shared part's delta made
  by the first socket of a process, the others reusing it);
- ``move_ms``: all of the above for one change: the table's four seats over two processes;
- ``json_ms``: the state as a JSON socket sends it (``realtime.consumer``'s ``encode``);
- ``frame_kb`` (p50): a frame before the delta; ``delta_bytes`` (p50): what the wire carries.

``seat_frame_ms`` in the JSON line is ``move_ms`` / 4 (mean), both games averaged: what each
HTML seat costs Daphne per move (before issue 58 each seat drew its whole frame: the frame and
its delta). The last line is one JSON object.
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
    after each as two web processes would (seats 0 and 1 on one, 2 and 3 on the other); the
    figures of the module docstring."""
    from games import frames, selectors
    from language import digits
    from realtime.consumer import encode
    from realtime.delta import DeltaEncoder, Shared

    table, users = _table(game, options, run)
    encoders = [DeltaEncoder() for _ in users]
    keys = ("shared", "own", "delta", "json", "move")
    seen: dict[str, list[float]] = {k: [] for k in keys}
    sizes: dict[str, list[float]] = {"frame": [], "delta": []}
    played = 0
    for _ in range(moves + 1):  # the frames of the deal, then after each move
        pairs = [selectors.table_states(table, user) for user in users]
        move = 0.0
        heads: dict[int, Shared] = {}
        for seat, (state, shared_state) in enumerate(pairs):
            style = digits.style_of(users[seat], LANG)  # as the seat's socket passes it
            process = seat // 2
            if process not in heads:  # the first socket of each process draws the shared part
                text, ms = _timed(lambda s=shared_state, d=style: frames.draw_shared(s, LANG, d))
                head, cut = _timed(lambda t=text: Shared(t))
                heads[process] = head
                seen["shared"].append(ms + cut)
                move += ms + cut
            own, ms = _timed(
                lambda s=state, d=style: (
                    frames.own_parts(s, LANG, d).text() + frames.chat_part(s, LANG, d)
                )
            )
            seen["own"].append(ms)
            sent, dms = _timed(lambda o=own, e=encoders[seat], h=heads[process]: e.encode(o, h))
            seen["delta"].append(dms)
            move += ms + dms
            seen["json"].append(_timed(lambda s=state: encode({"type": "state", **s}))[1])
            sizes["frame"].append((heads[process].size + len(own.encode())) / 1024)
            sizes["delta"].append(len(sent.encode()))
        seen["move"].append(move)
        if played == moves or site.play_one(table.public_id) is None:
            break
        played += 1
    figures: dict[str, Any] = {"moves": played, "seat_frames": len(seen["own"])}
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
    # The frames' templates compiled first, as a running Daphne has them after its first frame:
    # compiling is paid once per process, not per move.
    from django.template import engines

    env = engines["jinja2"].env
    for name in env.list_templates():
        env.get_template(name)
    run = secrets.token_hex(3)
    started = time.monotonic()
    result: dict[str, Any] = {}
    for game, options in GAMES:
        result[game] = figures = measure(game, options, moves, run)
        print(
            f"{game}: {figures['seat_frames']} seat frames over {figures['moves']} moves; "
            f"the shared part {figures['shared_ms_mean']} ms (twice a move), a seat's own "
            f"{figures['own_ms_mean']} ms, its delta {figures['delta_ms_mean']} ms, a move's "
            f"four seats {figures['move_ms_mean']} ms, JSON {figures['json_ms_mean']} ms; "
            f"{figures['frame_kb_p50']} KB → {figures['delta_bytes_p50']} B",
            file=sys.stderr,
        )
    # A move's four seats over two processes, a quarter each: what an HTML seat costs Daphne.
    per_game = [result[g]["move_ms_mean"] / 4 for g, _ in GAMES]
    result["seat_frame_ms"] = round(statistics.fmean(per_game), 3)
    result["seconds"] = round(time.monotonic() - started, 1)
    result["quick"] = args.quick
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
