"""/healthz reports the database, Redis, the channel layer and Celery, with real services."""

from __future__ import annotations

import threading

import pytest
from channels.layers import InMemoryChannelLayer
from django.db import connection
from django.urls import reverse

from sahrat_site import health
from sahrat_site.tasks import heartbeat, ping


@pytest.mark.django_db
def test_healthz_is_200_with_every_service_up(client):
    response = client.get(reverse("healthz"))
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    for name in ("database", "redis", "channel_layer"):
        assert body["checks"][name] == {"ok": True}


@pytest.mark.django_db
def test_healthz_is_503_when_redis_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [settings.REDIS_URL]},
        }
    }
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True
    # The public report names the failure but not the internal address (that goes to the log).
    assert body["checks"]["redis"]["error"] == "ConnectionError"
    assert "127.0.0.1" not in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_runs_tasks_and_the_heartbeat_shows_in_healthz(
    client, celery_worker_process
):
    assert ping.delay("sahrat").get(timeout=60) == "pong:sahrat"
    stamp = heartbeat.delay().get(timeout=30)
    assert stamp > 0
    celery = client.get(reverse("healthz")).json()["checks"]["celery"]
    assert celery["ok"] is True and celery["heartbeat_age_s"] < 60


@pytest.mark.django_db
def test_healthz_answers_head_probes(client):
    # Some load balancers and uptime monitors probe with HEAD.
    assert client.head(reverse("healthz")).status_code == 200


class SilentLayer(InMemoryChannelLayer):
    """A channel layer that accepts messages and never delivers them (a stuck Redis)."""

    async def send(self, channel, message):
        return None


@pytest.mark.django_db
def test_a_channel_layer_that_never_answers_gives_503_instead_of_hanging(settings, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.SilentLayer"}}
    monkeypatch.setattr(health, "CHECK_TIMEOUT", 0.5)
    result: list = []

    # A thread with a join limit, so that a hanging check fails this test instead of stalling it.
    def run() -> None:
        try:
            result.append(health.report())
        finally:
            connection.close()  # this thread's own database connection

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=15)
    assert result, "the health report hung on the channel layer"
    healthy, body = result[0]
    assert healthy is False
    assert body["checks"]["channel_layer"] == {"ok": False, "error": "TimeoutError"}


def test_health_checks_reuse_their_redis_connection(monkeypatch):
    # A new client per probe left thousands of sockets in TIME_WAIT under a balancer's probing.
    # The sockets this process opens are counted (not the Redis server's total, which every
    # other test process and server sharing that Redis moves too).
    import redis.connection

    health.check_redis()
    health.celery_heartbeat_age()
    opened = []
    connect = redis.connection.Connection._connect

    def counted(self):
        opened.append(self)
        return connect(self)

    monkeypatch.setattr(redis.connection.Connection, "_connect", counted)
    for _ in range(30):
        health.check_redis()
        health.celery_heartbeat_age()
    assert opened == []
    # The count sees a new client's connection: the check would fail if each probe made one.
    import redis
    from django.conf import settings

    fresh = redis.Redis.from_url(settings.REDIS_URL)
    try:
        fresh.ping()
    finally:
        fresh.close()
    assert len(opened) == 1


def test_the_channel_layer_reads_longer_than_its_blocking_pop(settings):
    from channels.layers import get_channel_layer

    from realtime.channel_layer import SahratChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, SahratChannelLayer)
    (host,) = layer.hosts
    assert host["socket_timeout"] > layer.brpop_timeout
    # The guard refuses the configuration that killed every socket after 5 s.
    with pytest.raises(ValueError, match="must exceed the blocking pop"):
        SahratChannelLayer(hosts=[{"address": settings.REDIS_URL, "socket_timeout": 5}])
