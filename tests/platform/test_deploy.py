"""SAHRAT_ENV=production turns on the secure settings: `check --deploy` must be clean."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


SECRET = "k" * 20 + "-production-secret-from-the-environment-0123456789"


def deploy_check(**env: str) -> subprocess.CompletedProcess:
    return run_manage("check", "--deploy", "--fail-level", "WARNING", **env)


def test_check_deploy_is_clean_in_production_mode():
    result = deploy_check(
        SAHRAT_ENV="production", DJANGO_SECRET_KEY=SECRET, DJANGO_ALLOWED_HOSTS="sahrat.example"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_development_settings_would_fail_the_deploy_check():
    # The same check must be able to fail: without production mode DEBUG is on.
    result = deploy_check()
    assert result.returncode != 0
    assert "DEBUG" in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", SAHRAT_ENV="production")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_without_allowed_hosts_fails_the_deploy_check():
    # An unset DJANGO_ALLOWED_HOSTS must not pass as [""]: every request would then be a 400.
    result = deploy_check(SAHRAT_ENV="production", DJANGO_SECRET_KEY=SECRET)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stdout + result.stderr


def test_allowed_hosts_are_trimmed_and_empty_entries_dropped():
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; print(sorted(settings.ALLOWED_HOSTS))",
        SAHRAT_ENV="production",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS=" sahrat.example, www.sahrat.example ,,",
    )
    assert result.returncode == 0, result.stderr
    assert "['sahrat.example', 'www.sahrat.example']" in result.stdout


PROBE = """
from django.http import HttpResponse
from django.middleware.security import SecurityMiddleware
from django.test import RequestFactory
mw = SecurityMiddleware(lambda request: HttpResponse())
for path in ("/healthz", "/"):
    response = mw.process_request(RequestFactory().get(path, HTTP_HOST="sahrat.example"))
    print(path, "none" if response is None else response.status_code)
"""


def test_healthz_answers_a_plain_http_probe_in_production_while_pages_go_to_https():
    # A load balancer probes Daphne directly over HTTP; a 301 to HTTPS would mark it unhealthy.
    result = run_manage(
        "shell",
        "-c",
        PROBE,
        SAHRAT_ENV="production",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS="sahrat.example",
    )
    assert result.returncode == 0, result.stderr
    assert "/healthz none" in result.stdout
    assert "/ 301" in result.stdout


def test_make_test_names_the_variable_to_set_when_redis_is_down():
    result = subprocess.run(
        [
            sys.executable,
            "scripts/check_services.py",
            "--redis-url",
            "redis://127.0.0.1:1/9",  # nothing listens on port 1
            "--redis-var",
            "TEST_REDIS_URL",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "Redis does not answer at redis://127.0.0.1:1/9" in result.stderr
    assert "TEST_REDIS_URL" in result.stderr


def test_an_unknown_environment_name_is_refused_at_start_up():
    # "Production" (a capital P) used to run as development: DEBUG on, the public development key.
    for name in ("Production", "prod", "staging", ""):
        result = run_manage("check", SAHRAT_ENV=name, DJANGO_SECRET_KEY=SECRET)
        assert result.returncode != 0, name
        assert "SAHRAT_ENV must be one of development, production" in result.stderr, name


def test_a_wildcard_allowed_host_fails_the_deploy_check():
    result = deploy_check(
        SAHRAT_ENV="production", DJANGO_SECRET_KEY=SECRET, DJANGO_ALLOWED_HOSTS="sahrat.example,*"
    )
    assert result.returncode != 0
    assert "sahrat.E001" in result.stdout + result.stderr


def test_every_cookie_is_secure_in_production():
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.LANGUAGE_COOKIE_SECURE, "
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)",
        SAHRAT_ENV="production",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS="sahrat.example",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-3:] == ["True", "True", "True"]


@pytest.mark.django_db
def test_the_language_switch_sets_a_secure_cookie_when_settings_say_so(client, settings):
    settings.LANGUAGE_COOKIE_SECURE = True
    response = client.post("/accounts/language/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["sahrat_language"]["secure"] is True
    settings.LANGUAGE_COOKIE_SECURE = False
    plain = client.post("/accounts/language/", {"language": "ar", "next": "/"})
    assert not plain.cookies["sahrat_language"]["secure"]
