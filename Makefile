# The two commands of the quick start: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: install run test lint format bench clean

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

test: lint
	$(PY) -m pytest -n auto --dist loadfile

bench: install
	$(PY) manage.py bench engine

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info build dist .import_linter_cache
