"""Who may open a socket: the rule that the handshake's ``Origin`` is one of the site's own,
as Django's CSRF check reads a form post's, applied as ASGI middleware before the session is read
(sahrat_site/asgi.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_parts(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://example.com:8443``; None for anything
    that is not an http(s) origin (``null``, a path, a bad port)."""
    try:
        parsed = urlsplit(origin.lower())
        port = parsed.port
    except ValueError:
        return None
    if parsed.scheme not in _DEFAULT_PORTS or not parsed.hostname:
        return None
    if parsed.path not in ("", "/") or parsed.query or parsed.fragment or parsed.username:
        return None
    return parsed.scheme, parsed.hostname, port or _DEFAULT_PORTS[parsed.scheme]


def request_scheme(scope: dict[str, Any]) -> str:
    """The scheme the browser used, as Django's ``request.scheme`` reads it: ``wss`` is https,
    and behind a proxy ``settings.SECURE_PROXY_SSL_HEADER`` (when set) says which it was."""
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, secure = proxy
        wanted = name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin-1")
        for header, value in scope.get("headers", []):
            if header == wanted:
                first = value.decode("latin-1").split(",", 1)[0].strip()
                scheme = "https" if first == secure else "http"
                break
    return scheme


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:  # Django's own default while debugging
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Is the socket's ``Origin`` one of the site's own origins? The same rule as Django's CSRF
    check for a form post: scheme, host and port equal to the request's own (its ``Host``, which
    must be an allowed host, with the request's scheme), or one of ``CSRF_TRUSTED_ORIGINS``
    (``https://*.example.com`` for its subdomains). No Origin, no socket."""
    headers = dict(scope.get("headers", []))
    raw = headers.get(b"origin")
    if raw is None:
        return False
    origin = _origin_parts(raw.decode("latin-1"))
    if origin is None:
        return False
    scheme = request_scheme(scope)
    host = headers.get(b"host")
    if host is not None:
        domain, port = split_domain_port(host.decode("latin-1").lower())
        if domain and validate_host(domain, _allowed_hosts()):
            if port and not port.isdigit():
                return False
            own = (scheme, domain.strip("[]"), int(port) if port else _DEFAULT_PORTS[scheme])
            if origin == own:
                return True
    else:
        # Only an in-process caller (a test's communicator) sends no Host: every HTTP/1.1
        # handshake has one. The site is then each allowed host at the scheme's default port.
        if (
            origin[0] == scheme
            and origin[2] == _DEFAULT_PORTS[scheme]
            and validate_host(origin[1], _allowed_hosts())
        ):
            return True
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:
            pattern = _origin_parts(trusted.replace("*", "wildcard", 1))
            if pattern is None:
                continue
            base = "." + pattern[1].split(".", 1)[1] if "." in pattern[1] else None
            if (
                base
                and (origin[0], origin[2]) == (pattern[0], pattern[2])
                and is_same_domain(origin[1], base)
            ):
                return True
        elif origin == _origin_parts(trusted):
            return True
    return False


class SiteOriginValidator:
    """ASGI middleware: a WebSocket handshake whose Origin is not the site's own is refused
    (HTTP 403) before the session is even read, so another site's page (or another port or scheme
    of this host) cannot open a socket with the player's cookies."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
