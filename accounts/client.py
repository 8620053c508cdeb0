"""Who is asking: the client address and the username the log-in throttle (django-axes) keys on.

Behind a proxy, X-Forwarded-For is "what the client claimed, ..., what each proxy saw". Only the
entries appended by proxies we run can be trusted; the left-most one is whatever the client wrote
(Daphne's --proxy-headers takes exactly that one, which let a guesser pick a new address for every
try, or lock a real player out by naming their address). With ``SAHRAT_PROXY_COUNT`` = N trusted
proxies in front of Daphne, the client is the N-th address from the right.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from accounts.names import fold


def client_ip(request: HttpRequest) -> str:
    """The address of the client as the outermost trusted proxy saw it (README, production)."""
    remote = request.META.get("REMOTE_ADDR", "")
    count = settings.SAHRAT_PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < count:
        # The proxy always appends; fewer entries means the request did not come through it.
        return remote
    candidate = forwarded[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The throttle's key for a log-in attempt: the folded username, so look-alike spellings of
    one name share one failure count."""
    raw = ""
    if credentials:
        raw = credentials.get("username") or ""
    if not raw:
        raw = request.POST.get("username", "") if request.method == "POST" else ""
    return fold(str(raw))
