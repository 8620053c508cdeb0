"""Django for a bench run in its own process: the settings the site runs with in production (no
query log, quiet logs) against the test database unless the environment names another, migrated.
Each bench's own defaults (a Redis database, shorter clocks) come as keyword arguments."""

from __future__ import annotations

import os

DEFAULTS = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
    "DJANGO_SETTINGS_MODULE": "sahrat_site.settings",
    "DJANGO_DEBUG": "0",  # no query log, no debug pages
    "LOG_LEVEL": "WARNING",
}


def start(**env: str) -> None:
    """Set what the environment leaves unset (``DEFAULTS``, then ``env``), start Django and
    migrate its database."""
    for key, value in {**DEFAULTS, **env}.items():
        os.environ.setdefault(key, value)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
