"""Browser pages kept open from one browser test to the next (one set per xdist worker).

A new page costs Chromium about a second of CPU (a renderer process, then a first load that
compiles the site's scripts); the same page sent to the next test's table costs a quarter of
that, and some hundred pages are opened in a run. So ``open_page`` hands out a kept page when
one made with the same options (viewport, locale, reduced motion, touch...) is free, and the
context's ``close()`` gives it back instead of closing it.

A page given back starts the next test as a fresh context would: blank (its sockets closed, so
the server counts the player gone), no cookies, no local storage in any origin it visited, and
its first viewport. A test that changed the page or its context in a way that outlives a
navigation (an init script, a route, Playwright's clock, emulated media, a second page, a CDP
session, permissions, a listener on the context) spoils it: its ``close()`` really closes it,
so nothing it set reaches another test. The page's own listeners are removed when it is given
back. Spoiling is noticed by the methods themselves (``KeptPage`` and
``KeptContext`` below), so a new test needs nothing to be safe.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, BrowserContext, Page

log = logging.getLogger(__name__)

# Methods whose effect outlives a navigation: calling one spoils the page and its context.
SPOILING_PAGE = (
    "add_init_script",
    "route",
    "route_from_har",
    "route_web_socket",
    "expose_binding",
    "expose_function",
    "set_extra_http_headers",
    "emulate_media",
)
SPOILING_CONTEXT = (
    *(name for name in SPOILING_PAGE if name != "emulate_media"),
    "on",
    "once",
    "new_page",
    "new_cdp_session",
    "grant_permissions",
    "clear_permissions",
    "set_geolocation",
    "set_offline",
)


def _spoiling(base: type, name: str):
    original = getattr(base, name)

    def method(self, *args: Any, **kwargs: Any) -> Any:
        self._kept_spoilt = True
        return original(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"{base.__name__}.{name}, after which the page is not kept."
    return method


def _spoiling_clock(base: type) -> property:
    """Playwright's clock belongs to the context and cannot be uninstalled."""

    def clock(self) -> Any:
        self._kept_spoilt = True
        return base.clock.fget(self)

    return property(clock)


class KeptPage(Page):
    """A kept page: the same Playwright page, noting every change that would outlive it."""

    _kept_spoilt = False
    _kept_listeners: list[tuple[str, Any]]
    clock = _spoiling_clock(Page)
    locals().update({name: _spoiling(Page, name) for name in SPOILING_PAGE})

    def on(self, event: str, f: Any) -> None:
        """Page.on; the listener is removed when the page is given back."""
        self._kept_listeners.append((event, f))
        super().on(event, f)

    def once(self, event: str, f: Any) -> None:
        """Page.once; the listener is removed when the page is given back."""
        self._kept_listeners.append((event, f))
        super().once(event, f)


@dataclass
class _Kept:
    """What a kept context carries: its pool, the options it was made with, its one page, and
    the origins the page visited since it was last cleared."""

    pool: PagePool
    key: tuple
    page: KeptPage
    viewport: dict | None
    origins: set[str] = field(default_factory=set)


class KeptContext(BrowserContext):
    """A kept page's context: ``close()`` gives the page back to its pool."""

    _kept_spoilt = False
    _kept: _Kept
    clock = _spoiling_clock(BrowserContext)
    locals().update({name: _spoiling(BrowserContext, name) for name in SPOILING_CONTEXT})

    def close(self, reason: str | None = None) -> None:
        self._kept.pool.give_back(self)


def _key(options: dict[str, Any]) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in options.items()))


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    return f"{parts.scheme}://{parts.netloc}"


class PagePool:
    """The kept pages of one browser (the session's Chromium)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.free: dict[tuple, list[KeptContext]] = {}

    def open_page(self, origin: str, **options: Any) -> tuple[BrowserContext, Page]:
        """A context with ``options`` and its one page, blank, for a test on ``origin``."""
        key = _key(options)
        free = self.free.get(key)
        if free:
            context = free.pop()
        else:
            context = self.browser.new_context(**options)
            page = context.new_page()
            context.__class__ = KeptContext
            page.__class__ = KeptPage
            page._kept_listeners = []
            context._kept = _Kept(self, key, page, options.get("viewport"))
        if origin:
            context._kept.origins.add(origin)
        return context, context._kept.page

    def give_back(self, context: KeptContext) -> None:
        """Keep the page for another test, blank and forgetting this one; or close it if this
        test spoilt it (or it broke)."""
        kept = context._kept
        page, origins = kept.page, kept.origins
        if context._kept_spoilt or page._kept_spoilt or page.is_closed():
            BrowserContext.close(context)
            return
        try:
            if origin := _origin(page.url):
                origins.add(origin)
            for event, f in page._kept_listeners:
                Page.remove_listener(page, event, f)
            page._kept_listeners.clear()
            page.goto("about:blank")  # the page's sockets close: the server sees it leave
            cdp = BrowserContext.new_cdp_session(context, page)
            try:
                for origin in origins:
                    cdp.send(
                        "Storage.clearDataForOrigin",
                        {"origin": origin, "storageTypes": "local_storage,session_storage"},
                    )
            finally:
                cdp.detach()
            origins.clear()
            context.clear_cookies()
            if kept.viewport is not None and page.viewport_size != kept.viewport:
                page.set_viewport_size(kept.viewport)
        except Exception:  # a page that cannot be made blank again is not kept
            log.warning("a kept page could not be cleared; closing it", exc_info=True)
            BrowserContext.close(context)
            return
        self.free.setdefault(kept.key, []).append(context)

    def close(self) -> None:
        for contexts in self.free.values():
            for context in contexts:
                BrowserContext.close(context)
        self.free.clear()


_pools: WeakKeyDictionary[Browser, PagePool] = WeakKeyDictionary()


def pool_for(browser: Browser) -> PagePool:
    """The kept pages of ``browser`` (made on first use)."""
    if browser not in _pools:
        _pools[browser] = PagePool(browser)
    return _pools[browser]
