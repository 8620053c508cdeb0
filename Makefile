# Sahrat: the two commands a newcomer needs are `make run` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

# make run: a local SQLite database unless DATABASE_URL says otherwise.
REDIS_URL ?= redis://127.0.0.1:6379/0
# Where `make run` listens (the Procfile's web process reads them: sahrat_site/serve.py).
WEB_HOST ?= 127.0.0.1
WEB_PORT ?= 8000
# make test: always the real PostgreSQL and Redis (a separate Redis database from `make run`).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
TEST_REDIS_URL ?= redis://127.0.0.1:6379/9
# make test runs the suite on both cores (pytest-xdist), one test at a time, longest first, by
# tests/support/schedule.py (the live site's order kept on each worker); each worker has its own
# test database (test_<name>_gw0, _gw1, _gw2) and Redis database (/9, /10, /11: see
# tests/settings.py). Three workers on two cores, because the browser and live-server tests
# spend much of their time waiting (a socket held, a timer run out): on a two-core machine
# pytest took 394 s with two workers, 319 s with three and 315 s with four. TEST_WORKERS=0 runs
# it in one process; PYTEST_ARGS adds pytest options.
TEST_WORKERS ?= 3

.PHONY: run test install browser pgbouncer lint messages bench clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# uv (from PyPI, pinned) installs the same pinned packages as pip would, in a third of the
	# time: a clean clone's `make test` spent 24 s of its minutes in pip. Unlike pip, uv leaves
	# the packages uncompiled unless told: where PYTHONDONTWRITEBYTECODE is set (as on these machines),
	# every process would then compile Django, Celery and Twisted again at each start (3.5 s of
	# CPU for django.setup() instead of 1 s, and the suite starts a hundred-odd processes).
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt uv
	$(BIN)/python -m uv pip install --quiet --compile-bytecode --python $(BIN)/python -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python scripts/check_services.py --start-redis --redis-url "$(REDIS_URL)"
	REDIS_URL="$(REDIS_URL)" $(BIN)/python manage.py migrate --noinput
	REDIS_URL="$(REDIS_URL)" $(BIN)/python manage.py compilemessages --ignore=.venv -v 0
	REDIS_URL="$(REDIS_URL)" $(BIN)/python manage.py demo_data
	@echo "Sahrat is starting at http://$(WEB_HOST):$(WEB_PORT) (Ctrl-C stops everything)"
	REDIS_URL="$(REDIS_URL)" WEB_HOST="$(WEB_HOST)" WEB_PORT="$(WEB_PORT)" $(BIN)/honcho start -f Procfile

# $(call debian,COMMAND,WHAT FOR): install Debian's package COMMAND when it is missing (as root;
# otherwise say how), for the tests that drive it.
define debian
	@if ! command -v $(1) >/dev/null 2>&1 && [ ! -x /usr/sbin/$(1) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's $(1) for $(2)..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null; \
	  else \
	    echo "Debian's $(1) is needed for $(2): run 'sudo apt-get install $(1)'." >&2; exit 1; \
	  fi; \
	fi
endef

# Debian's Chromium for the browser tests (its headless shell, tests/conftest.py) and the benches
# (the full browser); Playwright never downloads a browser here.
browser:
	$(call debian,chromium,the benches and a browser test)
	$(call debian,chromium-headless-shell,the browser tests)

# Debian's PgBouncer for the test of the site behind a pooler in transaction mode
# (tests/tables/test_live_servers.py, docs/scaling.md); the test starts its own on a free port.
pgbouncer:
	$(call debian,pgbouncer,the pooler test)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(STAMP) browser pgbouncer lint
	$(BIN)/python scripts/check_services.py --database-url "$(TEST_DATABASE_URL)" --redis-url "$(TEST_REDIS_URL)" --redis-var TEST_REDIS_URL
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python manage.py check
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python manage.py makemigrations --check --dry-run
	# Each of the hundred-odd processes the suite starts would compile the project's modules
	# again where PYTHONDONTWRITEBYTECODE is set; compiled once here, they are only read.
	$(BIN)/python -m compileall -q -j 0 accounts bench fairness games language moderation realtime sahrat_site scripts social standing tests verify wallet
	SAHRAT_FAST_PASSWORDS=1 DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/pytest -n $(TEST_WORKERS) --dist load $(PYTEST_ARGS)

messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l ar --ignore=.venv --ignore=staticfiles --ignore='tests/*'
	$(BIN)/python manage.py compilemessages --ignore=.venv

bench: $(STAMP)
	$(BIN)/python -m bench.fairness --quick
	$(BIN)/python -m bench.hand --quick
	$(BIN)/python -m bench.jakaro --quick
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python -m bench.soak --quick
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python -m bench.ledger --quick
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python -m bench.standing --quick
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python -m bench.rooms --quick
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python -m bench.table_page --quick
	DATABASE_URL="$(TEST_DATABASE_URL)" REDIS_URL="$(TEST_REDIS_URL)" $(BIN)/python -m bench.frames --quick
	$(BIN)/python -m bench.verify --quick
	$(BIN)/python -m bench.chat --quick

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache test-artifacts
