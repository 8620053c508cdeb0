"""The web process's garbage collector, tuned for a server that keeps thousands of sockets.

Python's cyclic collector looks at young container objects every 700 allocations, and now and
then at every object the process holds. A Daphne process drawing table frames allocates hundreds
of thousands of short-lived objects a second, and holds a large heap that never becomes garbage
(Django's modules, settings and URL patterns, the kept parts and cards). Measured with
``gc.callbacks`` in both Daphne processes under ``bench.rooms --clients html --tables 200
--pace 4`` (2026-12-06): the collector took 4.9 % of their CPU (three full collections in 74 s
of play, each stopping the event loop, every socket of the process with it). After ``tune``:
1.5 %, and one full collection in the whole run (133 ms).

- ``gc.freeze()`` once the application is loaded: what start-up made is never looked at again
  (the documented way for a server: https://docs.python.org/3/library/gc.html#gc.freeze);
- the young generation is looked at every ``YOUNG`` allocations instead of 700: most of a
  frame's objects are freed by their reference counts before they are ever looked at, so fewer
  and larger young collections do less work in all; the older generations follow in proportion.

Cycles still go: a young collection every 50,000 allocations is a few times a second here. A
cycle that lives long enough to grow old (a closed socket's objects, say) waits for a full
collection, rarer now: ``python -m bench.soak`` opens and closes 500 sockets at once and found
Daphne's memory no larger after (``daphne_rss_growth_mb`` -0.0).

The test runner's own processes keep Python's collector: they import the application for the
consumers' tests, and their collections should not depend on which test files were collected.
The servers the tests start are tuned as any other.
"""

from __future__ import annotations

import gc
import sys

YOUNG = 50_000  # allocations between young collections (Python's default: 700)
MIDDLE = 20  # young collections between middle-aged ones (default 10)
OLD = 100  # middle-aged collections before a full one is considered (default 10)


def tune() -> None:
    """Called once the web application is loaded (sahrat_site/asgi.py)."""
    if "pytest" in sys.modules:
        return
    gc.collect()  # the garbage of start-up goes, not frozen with the rest
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
