"""Settings for Sahrat, read from the environment (one file, no production-only code paths).

- No DATABASE_URL: SQLite in the project folder (local runs); DATABASE_URL: that database.
- REDIS_URL (default redis://127.0.0.1:6379/0): the channel layer and the Celery broker.
- CHANNEL_REDIS_URLS (default REDIS_URL): the channel layer's Redis servers, comma separated,
  sharded by channels-redis (the same list in every process).
- SAHRAT_ENV=production: DEBUG off and the secure settings on (``check --deploy`` is clean).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

# Exactly one of these. Anything else (a typo, "Production") is refused at start-up: failing open
# would run a public site with DEBUG on and the development key.
ENVIRONMENTS = ("development", "production")
ENV = os.environ.get("SAHRAT_ENV", "development")
if ENV not in ENVIRONMENTS:
    raise ImproperlyConfigured(f"SAHRAT_ENV must be one of {', '.join(ENVIRONMENTS)}; got {ENV!r}")
PRODUCTION = ENV == "production"
DEBUG = not PRODUCTION and os.environ.get("DJANGO_DEBUG", "1") == "1"

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise RuntimeError("SAHRAT_ENV=production needs DJANGO_SECRET_KEY")
    SECRET_KEY = "django-insecure-local-development-only-key-not-for-production"


def _env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated variable as a list; blanks dropped so that an unset one is really empty."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Empty in production unless set, so `check --deploy` complains instead of passing with [""].
ALLOWED_HOSTS = _env_list(
    "DJANGO_ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver"
)
CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # first, so runserver is Daphne's ASGI server too
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "csp",
    "language",
    "realtime",
    "accounts",
    "wallet",
    "games",
    "verify",
    "standing",
    "social",
    "moderation",
    "sahrat_site",  # the project's own system checks (sahrat_site/checks.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "language.http.JsonErrorsMiddleware",  # a program's 4xx as JSON (docs/protocol.md)
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "sahrat_site.csp.SahratCSPMiddleware",  # the admin's exception: sahrat_site/csp.py
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "sahrat_site.urls"
ASGI_APPLICATION = "sahrat_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "language.context_processors.digit_style",
            ],
            # The digits and dates filters on every page without a {% load %} each.
            "builtins": ["language.templatetags.sahrat"],
        },
    },
    {
        # The table's frames, drawn at every change of every table (games/frames.py): Jinja2,
        # with Django's words and lookups (sahrat_site/jinja2.py). Every other page is above.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "sahrat_site.jinja2.environment"},
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
# PostgreSQL connections per process: at most DB_POOL_MAX_SIZE (docs/deployment.md). Under ASGI,
# Django's persistent connections (CONN_MAX_AGE) are kept per thread and every request may run on
# a new thread, so they pile up until the server refuses more; psycopg's pool bounds them and
# hands the same few to every thread. CONN_MAX_AGE must be 0 with the pool: "closing" returns the
# connection to the pool instead of to the server.
DB_POOL_MIN_SIZE = int(os.environ.get("DB_POOL_MIN_SIZE", "2"))
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE", "10"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": DB_POOL_MIN_SIZE,
            "max_size": DB_POOL_MAX_SIZE,
            # A request waits this long for a free connection before it fails (503, not a hang).
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
            "max_idle": 300,
        }
        # Behind a pooler in transaction mode (PgBouncer; docs/scaling.md), each transaction may
        # run on another server connection, so nothing may outlive one: a server-side cursor
        # (QuerySet.iterator) would. Django already leaves psycopg's prepared statements off.
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = (
            os.environ.get("DB_POOLER", "") == "transaction"
        )
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            # IMMEDIATE takes the write lock at BEGIN, so concurrent services queue instead of
            # failing with "database is locked" half-way through a transaction.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
# `make test` sets SAHRAT_FAST_PASSWORDS=1: the suite's fixtures hash hundreds of passwords, and
# Argon2 (slow on purpose) was a minute of it. The servers the tests start inherit it, so a user
# made by a test still logs in there. Production never honours it: Argon2 stays first there.
if os.environ.get("SAHRAT_FAST_PASSWORDS") == "1" and not PRODUCTION:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *PASSWORD_HASHERS]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "home"

# Throttle guessing: five failures for one username from one address lock it for 15 minutes.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
# Behind a proxy the client address is the one the trusted proxy appended to X-Forwarded-For,
# never the left-most one a client can write itself (accounts/client.py, README "In production").
SAHRAT_PROXY_COUNT = int(os.environ.get("SAHRAT_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "accounts.client.client_ip"
# "Sara", "SARA" and a Cyrillic "Ѕаrа" are one account: they share one failure count.
AXES_USERNAME_CALLABLE = "accounts.client.axes_username"

# E-mail (the "forgot password" link). Locally the console backend prints each mail; in
# production Django's SMTP backend sends it, with the server and its log-in from the
# environment. EMAIL_BACKEND chooses another backend in either.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
# STARTTLS on 587 by default; EMAIL_USE_SSL=1 for implicit TLS (port 465) instead (not both).
EMAIL_USE_SSL = os.environ.get("EMAIL_USE_SSL", "0") == "1"
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "0" if EMAIL_USE_SSL else "1") == "1"
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Sahrat <no-reply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(60 * 60 * 3)))

LANGUAGE_CODE = "ar"
LANGUAGES = [("ar", _("Arabic")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Day-first date formats for both languages (language/formats/): the admin and every |date.
FORMAT_MODULE_PATH = ["language.formats"]
LANGUAGE_COOKIE_NAME = "sahrat_language"
USE_I18N = True
TIME_ZONE = "Asia/Riyadh"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Outside production WhiteNoise serves straight from the app folders, so Daphne needs no
# collectstatic step for a local run or a test.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = DEBUG

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# The channel layer's Redis connections (realtime/channel_layer.py). channels-redis blocks in
# BZPOPMIN for up to 5 s waiting for a message; redis-py's default socket timeout is also 5 s, so
# the read timed out just before Redis answered "nothing yet" and every socket died with 1011
# after about 5 s. The read timeout must be longer than the blocking pop.
CHANNEL_LAYER_SOCKET_TIMEOUT = 15.0
# Connections in one process's pool: a burst of sockets connecting at once waits for a free
# connection (blocking pool) instead of failing; size it for the sockets a process serves.
CHANNEL_LAYER_MAX_CONNECTIONS = int(os.environ.get("CHANNEL_LAYER_MAX_CONNECTIONS", "200"))
# The channel layer's Redis servers: REDIS_URL alone, or several (CHANNEL_REDIS_URLS, comma
# separated, the same list in the same order in every process): channels-redis shards the
# tables' and the players' channels over them by a hash of each name (docs/scaling.md).
CHANNEL_REDIS_URLS = [
    url.strip() for url in os.environ.get("CHANNEL_REDIS_URLS", REDIS_URL).split(",") if url.strip()
]
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "realtime.channel_layer.SahratChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": url,
                    "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
                    "socket_connect_timeout": 5,
                    "max_connections": CHANNEL_LAYER_MAX_CONNECTIONS,
                    # Wait this long for a free pooled connection before failing.
                    "timeout": 10,
                }
                for url in CHANNEL_REDIS_URLS
            ],
            "prefix": os.environ.get("CHANNEL_PREFIX", "sahrat"),
        },
    }
}

# WebSocket limits per connection and per account (realtime/limits.py, docs/protocol.md).
WS_MAX_FRAME = 8192  # characters in one frame
# Objects and arrays inside one another in a frame; no frame of docs/protocol.md nests past 2.
WS_MAX_DEPTH = 32
WS_RATE_PER_S = float(os.environ.get("WS_RATE_PER_S", "10"))  # frames per second, sustained
WS_RATE_BURST = int(os.environ.get("WS_RATE_BURST", "30"))  # frames at once after a quiet spell
WS_MAX_SOCKETS_PER_USER = int(os.environ.get("WS_MAX_SOCKETS_PER_USER", "10"))

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    # The heartbeat lets /healthz say whether beat and a worker are alive.
    "heartbeat": {"task": "sahrat_site.tasks.heartbeat", "schedule": 10.0},
    # The safety net for turn timers and seat-keeping (games/tasks.py).
    "sweep": {
        "task": "games.tasks.sweep",
        "schedule": float(os.environ.get("SWEEP_S", "1.5")),
        "options": {"queue": os.environ.get("TABLES_QUEUE", "celery")},
    },
}
# The Celery queue of the tables' timers (countdowns and the sweeper): a deployment can give the
# timers workers of their own (`celery worker -Q tables`); tests give a worker its own queue.
TABLES_QUEUE = os.environ.get("TABLES_QUEUE", "celery")

# The live tables' clocks (games/services/clock.py). Tests shorten them through the environment.
TURN_SECONDS_OVERRIDE = float(os.environ.get("TURN_SECONDS_OVERRIDE", "0"))  # 0: the game's own
SEAT_KEEP_SECONDS = float(os.environ.get("SEAT_KEEP_SECONDS", "60"))
# A seat being kept (its player away, not yet given up) has this long for each of its turns, so
# the others do not wait out a whole turn time for someone who is not there (docs/rules/*.md).
AWAY_TURN_SECONDS = float(os.environ.get("AWAY_TURN_SECONDS", "5"))
# A watcher of a coin table or a rated one (every seat a person) sees the table this much later
# than the players, so nobody can help a player in real time (docs/social.md, "Watching").
WATCH_DELAY_S = float(os.environ.get("WATCH_DELAY_S", "20"))
# A table waiting for players that no person has sat at for this long (bots and empty seats
# only, nobody with its page open) is closed by the sweeper, so the lobby lists tables people
# may join (games/services/tables.py tables_idle; docs/social.md, "The lobby").
TABLE_IDLE_MINUTES = float(os.environ.get("TABLE_IDLE_MINUTES", "10"))
# After a match, its players have this long to play again ("ready" with a fresh seed); the seats
# of those who have not are then opened to anyone (games/services/seats.py rematch_lapsed).
REMATCH_SECONDS = float(os.environ.get("REMATCH_SECONDS", "60"))
# Each web process says it is alive this often; one silent for PRESENCE_LEASE_S has ended without
# closing its sockets, and the seats it held are counted again (games.services.processes_gone).
PRESENCE_BEAT_S = float(os.environ.get("PRESENCE_BEAT_S", "10"))
PRESENCE_LEASE_S = float(os.environ.get("PRESENCE_LEASE_S", "30"))
BOT_DELAY = float(os.environ.get("BOT_DELAY", "1.2"))  # a bot "thinks" this long
SERVER_STEP_DELAY = float(os.environ.get("SERVER_STEP_DELAY", "6"))  # e.g. the next round's deal
CHAT_MAX_LENGTH = 200
CHAT_WINDOW_SECONDS = 10
CHAT_MAX_IN_WINDOW = 5

# The coin wallet (wallet/, docs/wallet.md). Coins are earned by playing, never sold: a starter
# grant at sign-up and a reward per finished match at a free table, both from the rewards
# account and capped per day; coin tables take a stake from these levels.
WALLET_STARTER_GRANT = 500
WALLET_MATCH_REWARD = 20
WALLET_DAILY_REWARD_CAP = 200  # reward coins one player may earn per calendar day (TIME_ZONE)
WALLET_STAKE_LEVELS = (10, 50, 100, 500)
WALLET_FEE_PERCENT = 10  # of the pot, to the house fee account
WALLET_ADJUST_MAX = 100_000  # the largest amount staff may move in one adjustment
WALLET_HISTORY_PAGE = 20  # transfers per page of the wallet's history

# No inline scripts or styles anywhere: every script is a file under static/. (The staff's admin
# alone also allows inline styles, which Django's admin writes: sahrat_site/csp.py.)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}

SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "sahrat_site.views.csrf_failure"
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # Load balancers probe Daphne directly over plain HTTP; a 301 would read as "unhealthy".
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
