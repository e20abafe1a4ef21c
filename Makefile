# The two commands of the quick start: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3
PYTEST_ARGS ?=

.PHONY: install run test test-quick test-fast lint format messages bench clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(PY) manage.py run

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports  # the layers (pyproject.toml, docs/architecture.md)

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# The tests' databases and files go to /dev/shm where it has room (no disk syncs); else $TMPDIR.
# worksteal: a worker out of tests takes some of another's, so no long file is left alone at the end.
TEST_TMPDIR ?= $(shell df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 && $$4 > 2000000 { print "/dev/shm" }')
test: lint
	TMPDIR=$(or $(TEST_TMPDIR),$${TMPDIR:-/tmp}) $(PY) -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

# The everyday loop while working: the lint, then the suite on SQLite alone, without the browser and the
# tests marked slow (CI and `make test` run them all): 4,724 tests, 2.6 minutes on two cores (CI's run on 3.13, 2026-11-28).
test-quick: lint
	TMPDIR=$(or $(TEST_TMPDIR),$${TMPDIR:-/tmp}) SCOREKEEPER_TEST_POSTGRES_URL= $(PY) -m pytest -q -n auto --dist worksteal --ignore=tests/browser -m 'not slow' $(PYTEST_ARGS)

# No database, no app, no browser: the engine's rules, the deal, the draw, the standings, the
# settlement and its doctests: 1,488 tests, 20 s with the start on two cores (2026-11-28).
test-fast: install
	$(PY) -m pytest -q -n auto tests/engine scorekeeper/engine

# The German catalog in step with the code: new texts come in untranslated, unused ones go (docs/using.md).
messages: install
	$(PY) -m tools.messages

bench: install
	$(PY) manage.py bench engine

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info build dist .import_linter_cache
