"""Checks behind /healthz: the database, Redis, the channel layer and Celery's heartbeat."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import uuid

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

HEARTBEAT_KEY = "sahrat:celery:heartbeat"
# Seconds the channel-layer round trip may take: a stuck layer must give 503, not a hung request.
CHECK_TIMEOUT = 3.0
log = logging.getLogger(__name__)


def redis_client() -> redis.Redis:
    """One client (and so one connection pool) per Redis URL for the life of the process: a new
    client per probe left thousands of sockets in TIME_WAIT under a load balancer's probing."""
    return _client_for(settings.REDIS_URL)


@functools.cache
def _client_for(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_redis() -> None:
    if not redis_client().ping():
        raise RuntimeError("no PONG")


def check_channel_layer() -> None:
    """Wait on a fresh channel first, then send to it: the blocking receive every consumer sits
    in, not just a read of a message already there (that passed while every socket was dying)."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")

    async def round_trip() -> None:
        channel = await layer.new_channel()
        token = uuid.uuid4().hex
        waiting = asyncio.ensure_future(layer.receive(channel))
        try:
            await asyncio.sleep(0.05)  # the receive is now blocked in Redis
            await layer.send(channel, {"type": "health.check", "token": token})
            message = await waiting
        finally:
            # A failed send (Redis unreachable) leaves the receive failed or waiting: ended and
            # its error read here, not logged as "never retrieved" whenever the task is
            # collected (in the tests, in whichever test runs then).
            waiting.cancel()
            if waiting.done() and not waiting.cancelled():
                waiting.exception()
        if message.get("token") != token:
            raise RuntimeError("the channel layer returned another message")

    async def bounded() -> None:
        await asyncio.wait_for(round_trip(), timeout=CHECK_TIMEOUT)

    async_to_sync(bounded)()


def celery_heartbeat_age() -> float | None:
    """Seconds since beat and a worker last ran the heartbeat task; None if never seen."""
    raw = redis_client().get(HEARTBEAT_KEY)
    return None if raw is None else round(time.time() - float(raw), 1)


def report() -> tuple[bool, dict]:
    """Run every check; healthy when the database, Redis and the channel layer all answer."""
    checks: dict[str, dict] = {}
    for name, fn in (
        ("database", check_database),
        ("redis", check_redis),
        ("channel_layer", check_channel_layer),
    ):
        try:
            fn()
            checks[name] = {"ok": True}
        except Exception as exc:  # a health check reports every failure, it never raises
            checks[name] = _failure(name, exc)
    healthy = all(c["ok"] for c in checks.values())
    try:
        age = celery_heartbeat_age()
        # Celery is reported, not required: the pages and sockets work while a worker restarts.
        checks["celery"] = {"ok": age is not None and age < 60, "heartbeat_age_s": age}
    except Exception as exc:
        checks["celery"] = _failure("celery", exc)
    return healthy, {"status": "ok" if healthy else "unavailable", "checks": checks}


def _failure(name: str, exc: Exception) -> dict:
    # /healthz is public: the kind of failure is enough there; hosts, ports and users go to the log.
    log.warning("health check %s failed: %s: %s", name, type(exc).__name__, exc)
    return {"ok": False, "error": type(exc).__name__}
