"""The Content-Security-Policy, with one exception by path: the staff's admin.

Every page of the site is served under settings.CONTENT_SECURITY_POLICY (no inline script or
style anywhere). Django's admin and the project's own admin templates write ``style="…"``
attributes (the moderation queue marks the reported player's lines, sizes the reason box), which
that policy refuses, one console error each. Under ``/admin/`` only, the style directives also
allow inline styles; scripts stay 'self' there too, and nothing changes for players' pages.
"""

from __future__ import annotations

from typing import Any

from csp.constants import SELF, UNSAFE_INLINE
from csp.middleware import CSPMiddleware, PolicyParts
from django.urls import reverse

ADMIN_STYLES = {"style-src": [SELF, UNSAFE_INLINE]}


def is_admin(path: str) -> bool:
    """Whether ``path`` is one of the admin's pages (wherever admin.site.urls is mounted)."""
    return path.startswith(reverse("admin:index"))


class SahratCSPMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: Any, response: Any, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if is_admin(request.path):
            parts.replace = {**(parts.replace or {}), **ADMIN_STYLES}
        return parts
