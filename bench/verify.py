"""How long does verifying a whole match take? ``python -m bench.verify [--quick]``.

Builds a full four-player Hand match (six rounds; the seats' turns run out, so nobody lays down,
every stock runs dry and the fire piles are re-shuffled) from the engines alone, writes its export
as the Verify page serves it, then times:

- ``server_verify_ms``: the server's check of the export (verify/audit.py: commitment, seeds,
  every event recomputed, the whole log replayed with the engines);
- ``browser_verify_ms``: the Verify page's own recomputation (static/verify/recompute.js with
  rebuild.js and fairness.js, WebCrypto) in headless Chromium (/usr/bin/chromium), the figure the
  issue asks to stay under one second.

The last line is one JSON object with both figures (medians of ``--repeats`` runs). ``--quick``
plays two rounds and repeats once. No database is needed: the page's script is served from
static/verify/ by a small local HTTP server.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import sys
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import fairness.core as fairness
import games
from bench.stats import percentile
from verify import audit
from verify.replay import audit_replay, export_events

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static" / "verify"
SECRET = bytes(range(32))
SEEDS = {seat: f"{seat:x}" * 32 for seat in range(4)}


def hand_match(rounds: int) -> dict[str, Any]:
    """A four-player Hand match of ``rounds`` rounds, every turn a time-out, as an export."""
    engine = games.get("hand")
    options = {"players": 4, "variant": "plain", "table": "strict", "rounds": rounds}
    parsed = engine.parse_options(options)
    ident = "bench-verify-1"
    source = fairness.RandomSource(SECRET, "hand", ident, SEEDS)
    state = engine.new_match(parsed, source)
    log: list[tuple[int, int | None, str]] = []
    while engine.outcome(state) is None:
        step = engine.server_step(state)
        seat = None if step else engine.to_move(state)
        action = step or "timeout"
        state = engine.apply(state, seat, action, source)
        log.append((len(log) + 1, seat, action))
    replayed = audit_replay("hand", options, SECRET.hex(), ident, SEEDS, log)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return {
        "format": "sahrat-match-v1",
        "fairness": fairness.VERSION,
        "game": "hand",
        "id": ident,
        "options": options,
        "status": "finished",
        "commitment": fairness.commitment(SECRET),
        "committed_at": start.isoformat(),
        "secret": SECRET.hex(),
        "seeds": [
            {"seat": s, "seed": v, "at": (start + timedelta(seconds=1 + s)).isoformat()}
            for s, v in SEEDS.items()
        ],
        "actions": [{"seq": q, "seat": s, "action": a, "by": "timeout"} for q, s, a in log],
        "events": export_events(replayed),
        "facts": {str(k): v for k, v in replayed.facts.items()},
        "outcome": replayed.outcome,
        "final_state": replayed.final_json,
    }


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        if self.path.endswith(".js"):
            self.send_header("Content-Type", "text/javascript")
        super().end_headers()


def browser_ms(export: dict[str, Any], repeats: int) -> tuple[list[float], dict[str, Any]]:
    """Each run's time for recompute.js in Chromium, and the last run's verdict."""
    from playwright.sync_api import sync_playwright

    from tests.conftest import launch_chromium

    handler = functools.partial(_Quiet, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    times: list[float] = []
    verdict: dict[str, Any] = {}
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = browser.new_page()
            # 127.0.0.1 is a secure context, so WebCrypto is there as on the real site.
            page.goto(base + "/fairness.js")
            for _ in range(repeats):
                ms, verdict = page.evaluate(
                    """async ([url, data]) => {
                        const m = await import(url);
                        const t = performance.now();
                        const r = await m.recompute(data);
                        return [performance.now() - t, r];
                    }""",
                    [base + "/recompute.js", export],
                )
                times.append(ms)
            browser.close()
    finally:
        server.shutdown()
    return times, verdict


def server_ms(export: dict[str, Any], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        problems = audit.check_export(export)
        times.append((time.perf_counter() - start) * 1000)
        if problems:
            raise SystemExit(f"the server's check failed: {problems}")
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.verify", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="two rounds, one run")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rounds, repeats = (2, 1) if args.quick else (args.rounds, args.repeats)
    export = hand_match(rounds)
    kinds = [e["type"] for e in export["events"]]
    print(
        f"Hand, 4 players, {rounds} rounds: {len(export['actions'])} actions, "
        f"{kinds.count('deal')} deals, {kinds.count('reshuffle')} reshuffles"
    )
    server = server_ms(export, repeats)
    print(f"server check (verify/audit.py): {percentile(server, 0.5):.1f} ms")
    browser, verdict = browser_ms(export, repeats)
    if not verdict.get("allOk"):
        print(f"the browser's check failed: {verdict}", file=sys.stderr)
        return 1
    print(f"browser check (static/verify/recompute.js): {percentile(browser, 0.5):.1f} ms")
    figures = {
        "browser_verify_ms": round(percentile(browser, 0.5), 1),
        "server_verify_ms": round(percentile(server, 0.5), 1),
        "actions": len(export["actions"]),
        "events": len(kinds),
        "reshuffles": kinds.count("reshuffle"),
        "rounds": rounds,
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
