"""How fast does a table page show up on a slow network? ``python -m bench.table_page [--quick]``.

Starts a real Daphne against PostgreSQL (``DATABASE_URL``) and Redis (``REDIS_URL``), sets up a
two-player Hand table and a two-player Jakaro table through games.services with both seats
taken and the first deal made, and opens each table page as its first player in headless
Chromium (/usr/bin/chromium, driven by Playwright) at 390 × 844 in Arabic, with a cold cache and
the network throttled through the DevTools protocol to Lighthouse's "slow 4G" profile (150 ms
round trip, 1.6 Mbit/s down, 750 kbit/s up). For each page, the median of ``--repeats`` loads:

- ``<game>_first_render_ms``: navigation start to the first contentful paint. The player's own
  cards (Hand) or the board (Jakaro) are in the page's HTML, so that paint shows them; each load
  checks they are there;
- ``<game>_live_ms``: navigation start until the table's socket is open and has sent its state;
- ``<game>_js_css_gzip_kb``: the page's own scripts and stylesheets as served, gzip-compressed
  (every script and stylesheet the page loaded from the site: the site has no CDN);
- ``<game>_move_frame_bytes``: the socket frame one move brings to the page (the median over
  ``--moves`` moves made through games.services by whoever is to move, each a legal action of
  the engine), as the page receives it;
- ``<game>_move_2g_ms``: with the network throttled to a 2G-like link (1.5 s round trip,
  40 kbit/s each way), from the move made on the server to the page showing its seq. Chromium's
  emulation holds a WebSocket frame to the link's bandwidth but does not add its latency: on a
  real such link add up to 1.5 s.

The last line is one JSON object with those keys. ``--quick`` loads each page once and weighs
two moves.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench import site
from bench.processes import daphne
from bench.stats import percentile

ROOT = Path(__file__).resolve().parent.parent
SLOW_4G = {
    "offline": False,
    "latency": 150,  # ms, round trip
    "downloadThroughput": 1.6 * 1024 * 1024 / 8,  # bytes per second
    "uploadThroughput": 750 * 1024 / 8,
}
# A 2G-like link: a move must still show well within a turn.
SLOW_2G = {
    "offline": False,
    "latency": 1500,
    "downloadThroughput": 40 * 1024 / 8,
    "uploadThroughput": 40 * 1024 / 8,
}
# What "the player's own cards are on the screen" means on each game's page.
CARDS = {"hand": "#my-cards .pc", "jakaro": "[data-testid=board]"}
GAMES = {"hand": {"players": 2, "table": "easy"}, "jakaro": {"players": 2}}


def setup_tables() -> dict[str, tuple[str, str]]:
    """One started two-player table per game; {game: (table id, first player's session)}."""
    from django.test import Client
    from django.utils import timezone

    import games
    from accounts.models import User
    from games import selectors, services
    from games.models import Match

    out = {}
    for game, options in GAMES.items():
        users = []
        for seat in range(2):
            user, _ = User.objects.get_or_create(
                username=f"page-bench-{game}-{seat}", defaults={"display_name": f"لاعب {seat + 1}"}
            )
            users.append(user)
        table = site.seated_table(game, options, users[0], users)
        match = Match.objects.get(table=table, number=1)
        engine = games.get(game)
        for _ in range(5):  # the server's own steps due now (Hand's first deal)
            match.refresh_from_db()
            if engine.server_step(selectors.load_state(match)) is None:
                break
            past = timezone.now() - timedelta(seconds=1)
            Match.objects.filter(pk=match.pk).update(deadline=past)
            services.match_advance(match_id=match.pk)
        client = Client()
        client.force_login(users[0])
        out[game] = (table.public_id, client.cookies["sessionid"].value)
    return out


def load_once(browser: Any, base: str, game: str, table_id: str, session: str) -> dict[str, Any]:
    """One cold load of a table page on the throttled network."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ar")
    context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    assets: dict[str, int] = {}

    def on_response(response: Any) -> None:
        kind = response.request.resource_type
        if kind in ("script", "stylesheet") and response.url.startswith(base):
            try:
                assets[response.url] = len(gzip.compress(response.body(), 9))
            except Exception:  # a response without a body (a redirect) weighs nothing
                pass

    page.on("response", on_response)
    page.goto(f"{base}/majlis/t/{table_id}/", wait_until="commit")
    page.wait_for_selector(CARDS[game], state="attached", timeout=60_000)
    live = page.wait_for_function(
        "() => document.querySelector('#table-conn.on') && performance.now()", timeout=60_000
    ).json_value()
    page.wait_for_load_state("load")
    fcp = page.evaluate(
        "() => { const e = performance.getEntriesByName('first-contentful-paint')[0];"
        " return e ? e.startTime : null; }"
    )
    context.close()
    return {"fcp": fcp, "live": live, "kb": sum(assets.values()) / 1024}


def moves_seen(
    browser: Any, base: str, game: str, table_id: str, session: str, moves: int
) -> dict[str, Any]:
    """The page open and live; ``moves`` moves made on the server, each frame the page gets
    weighed; then the network throttled to 2G and one more move timed to the screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ar")
    context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
    page = context.new_page()
    frames: list[int] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(len(str(payload).encode())))

    page.on("websocket", on_socket)
    page.goto(f"{base}/majlis/t/{table_id}/")
    page.wait_for_selector("#table-conn.on", timeout=60_000)
    page.wait_for_timeout(500)  # the first state frame in
    sizes = []
    for _ in range(moves):
        before = len(frames)
        seq = site.play_one(table_id).seq
        page.wait_for_selector(f"#table-live[data-seq='{seq}']", state="attached", timeout=30_000)
        sizes.extend(frames[before:])
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_2G)
    started = time.perf_counter()
    seq = site.play_one(table_id).seq
    page.wait_for_selector(f"#table-live[data-seq='{seq}']", state="attached", timeout=60_000)
    slow = (time.perf_counter() - started) * 1000
    context.close()
    return {"bytes": percentile(sizes, 0.5) if sizes else None, "slow_ms": slow}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.table_page", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one load per page")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--moves", type=int, default=6, help="moves weighed per game")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else max(1, args.repeats)
    moves = 2 if args.quick else max(1, args.moves)

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/9")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sahrat_site.settings")
    # The moves are made with the ORM between Playwright's calls, in this one thread: Playwright's
    # sync API keeps an event loop here, which Django would otherwise take for async code.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    import django

    django.setup()
    from django.core.management import call_command
    from playwright.sync_api import sync_playwright

    from tests.conftest import launch_chromium

    call_command("migrate", verbosity=0)
    tables = setup_tables()
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    figures: dict[str, Any] = {"network": "slow 4G: 150 ms, 1.6 Mbit/s down, 750 kbit/s up"}
    with daphne(dict(os.environ), logs / "table-page-daphne.log") as (base, _proc):
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            for game, (table_id, session) in tables.items():
                runs = [load_once(browser, base, game, table_id, session) for _ in range(repeats)]
                fcp = [r["fcp"] for r in runs if r["fcp"] is not None]
                figures[f"{game}_first_render_ms"] = round(percentile(fcp, 0.5), 1) if fcp else None
                figures[f"{game}_live_ms"] = round(percentile([r["live"] for r in runs], 0.5), 1)
                figures[f"{game}_js_css_gzip_kb"] = round(runs[-1]["kb"], 1)
                seen = moves_seen(browser, base, game, table_id, session, moves)
                figures[f"{game}_move_frame_bytes"] = seen["bytes"]
                figures[f"{game}_move_2g_ms"] = round(seen["slow_ms"])
                print(
                    f"{game}: first paint {figures[f'{game}_first_render_ms']} ms, "
                    f"live {figures[f'{game}_live_ms']} ms, "
                    f"JS+CSS {figures[f'{game}_js_css_gzip_kb']} KB gzip ({repeats} loads); "
                    f"a move's frame {seen['bytes']} bytes, on 2G {round(seen['slow_ms'])} ms"
                )
            browser.close()
    figures["repeats"] = repeats
    figures["moves"] = moves
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
