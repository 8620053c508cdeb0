"""/healthz reports the database, Redis, the channel layer and Celery, with real services."""

from __future__ import annotations

import pytest
from django.urls import reverse

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
