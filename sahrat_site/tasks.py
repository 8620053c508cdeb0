"""Platform-wide Celery tasks."""

from __future__ import annotations

import time

from celery import shared_task

from sahrat_site import health


@shared_task(name="sahrat_site.tasks.heartbeat")
def heartbeat() -> float:
    """Run by beat every few seconds; /healthz reads the stamp to tell whether Celery is alive."""
    now = time.time()
    health.redis_client().set(health.HEARTBEAT_KEY, str(now), ex=120)
    return now


@shared_task(name="sahrat_site.tasks.ping")
def ping(value: str) -> str:
    """Echo, so a test can prove a real worker takes tasks from the broker."""
    return f"pong:{value}"
