"""Check that Redis (and, when asked, PostgreSQL) answers, with a clear word when one is down; for
a local run, start Redis if it does not. PostgreSQL is never started here.

Used by the Makefile: `make run` may start Redis; `make test` only checks, and stops with a message
instead of letting tests fail or skip in confusing ways.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from urllib.parse import urlparse


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def start_redis(url: str) -> bool:
    if not shutil.which("redis-server"):
        return False
    port = str(urlparse(url).port or 6379)
    subprocess.run(
        ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", port, "--save", ""],
        check=False,
        stdout=subprocess.DEVNULL,
    )
    for _ in range(50):
        if redis_answers(url):
            return True
        time.sleep(0.1)
    return False


def database_answers(url: str) -> str | None:
    """None when PostgreSQL answers, else the reason."""
    import psycopg

    parsed = urlparse(url)
    try:
        with psycopg.connect(
            host=parsed.hostname,
            port=parsed.port or 5432,
            user=parsed.username or None,
            password=parsed.password or None,
            dbname=parsed.path.lstrip("/") or "postgres",
            connect_timeout=3,
        ) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--database-url")
    parser.add_argument("--start-redis", action="store_true")
    # The variable a newcomer should set: `make test` reads TEST_REDIS_URL, `make run` REDIS_URL.
    parser.add_argument("--redis-var", default="REDIS_URL")
    args = parser.parse_args()

    ok = True
    if not redis_answers(args.redis_url):
        if args.start_redis and start_redis(args.redis_url):
            print(f"Started redis-server for {args.redis_url}")
        elif args.start_redis and not shutil.which("redis-server"):
            print(
                f"Redis does not answer at {args.redis_url} and redis-server is not installed.\n"
                "Install it (Debian/Ubuntu: sudo apt-get install redis-server) "
                f"or set {args.redis_var}.",
                file=sys.stderr,
            )
            ok = False
        else:
            print(
                f"Redis does not answer at {args.redis_url}. Start it or set {args.redis_var}.",
                file=sys.stderr,
            )
            ok = False
    if args.database_url:
        reason = database_answers(args.database_url)
        if reason:
            print(
                f"PostgreSQL does not answer at {args.database_url}: {reason}\n"
                "Start PostgreSQL or set TEST_DATABASE_URL (make test runs against PostgreSQL).",
                file=sys.stderr,
            )
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
