"""A browser page's console errors, uncaught script errors and CSP violations, collected while
a test plays through it: every live update swaps server-made HTML into the
page, and the page's own policy (style-src 'self', script-src 'self') must hold for all of it.
The whole matches played through the pages (tests/tables/test_browser_tables.py for Jakaro,
tests/tables/test_hand_table.py for Hand) end with ``Console.problems() == []``."""

from __future__ import annotations

from typing import Any

# Every CSP violation the page meets, as the browser reports it to the page itself (the console
# says it too, in words that change between Chromium versions).
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  {directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample,
   source: e.sourceFile + ':' + e.lineNumber}));
"""


class Console:
    """Collects a page's console errors and uncaught script errors from before it loads."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self._note(f"pageerror: {exc}"))
        page.add_init_script(WATCH_CSP)

    def _console(self, msg: Any) -> None:
        if msg.type == "error":
            self._note(f"console: {msg.text} @ {msg.location}")

    def _note(self, problem: str) -> None:
        # Printed too: a test that fails on the way (a wait that times out) shows them in its
        # captured output, before it reaches its own check of ``problems()``.
        print(problem)
        self.errors.append(problem)

    def problems(self) -> list:
        """What went wrong so far; the end screen's own scripts are given a moment to run."""
        self.page.wait_for_timeout(300)
        return self.errors + self.page.evaluate("window.__csp || []")
