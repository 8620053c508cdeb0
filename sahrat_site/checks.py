"""Deployment checks Django's own ``check --deploy`` does not make."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def allowed_hosts_not_wildcard(app_configs, **kwargs) -> list[Error]:
    """``*`` accepts any Host header: password-reset links and the WebSocket origin check would
    trust whatever host a request names."""
    if "*" in settings.ALLOWED_HOSTS:
        return [
            Error(
                "DJANGO_ALLOWED_HOSTS contains '*'.",
                hint="List the site's real host names, comma-separated.",
                id="sahrat.E001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def language_cookie_secure(app_configs, **kwargs) -> list[Error]:
    """Every cookie of an HTTPS site travels over HTTPS only."""
    if settings.SESSION_COOKIE_SECURE and not settings.LANGUAGE_COOKIE_SECURE:
        return [Error("LANGUAGE_COOKIE_SECURE is off.", id="sahrat.E002")]
    return []
