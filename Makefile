# `make play` and `make test` each create .venv on first use and install what they need.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_PLAY := $(VENV)/.installed-play
STAMP_TEST := $(VENV)/.installed-test

.PHONY: play test test-core lint typecheck bench bench-compiled clean serve system-deps docs

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP_PLAY): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[cli]'
	touch $@

# system-deps first: the web extra's PyICU is built against Debian's ICU
$(STAMP_TEST): pyproject.toml | $(BIN)/python system-deps
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(STAMP_PLAY)

play: $(STAMP_PLAY)
	EUCHRE_LAUNCHER='make play' $(BIN)/euchre play $(ARGS)

lint: $(STAMP_TEST)
	$(BIN)/python -m ruff check .
	$(BIN)/python -m mypy

# Debian packages the browser-table tests use (chromium, postgresql): installed when missing.
system-deps:
	bash scripts/system-deps.sh

test: $(STAMP_TEST) lint system-deps
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The engine's own tests alone (pytest marker `core`; the tiers are listed in pyproject.toml):
# rules, views, records, sampling and the OpenSpiel cross-check, in under a minute.
test-core: $(STAMP_TEST)
	$(BIN)/python -m pytest -m core $(PYTEST_ARGS)

# The docs site (Sphinx + MyST) into docs/_build/html; `make test` builds it too, warnings as errors.
docs: $(STAMP_TEST)
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html"

serve: $(STAMP_TEST)
	$(BIN)/euchre serve $(ARGS)

bench: $(STAMP_PLAY)
	$(BIN)/euchre bench engine

# The same engine compiled with mypyc, in its own venv so the editable .venv stays pure Python.
.venv-compiled/bin/euchre: pyproject.toml setup.py $(wildcard euchre/*.py)
	$(PY) -m venv .venv-compiled
	.venv-compiled/bin/python -m pip install -q --upgrade pip setuptools wheel mypy open-spiel
	EUCHRE_COMPILE=1 .venv-compiled/bin/python -m pip install -q --no-build-isolation '.[cli]'
	rm -rf build

bench-compiled: .venv-compiled/bin/euchre
	cd /tmp && $(CURDIR)/.venv-compiled/bin/euchre bench engine

clean:
	rm -rf $(VENV) .venv-compiled build docs/_build *.egg-info .mypy_cache .pytest_cache .ruff_cache
