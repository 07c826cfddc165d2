# `make play` and `make test` each create .venv on first use, install what they need and build
# the compiled core, which is what they run: the build `pip install euchre` gives users.
#
# Two builds of one typed source. The editable .venv is the pure-Python source: `pytest` and
# `python` run there directly always run the files you edit. build/compiled is the same package
# with the core compiled by mypyc (setup.py; pure Python where no C compiler works): its modules
# are links to the sources, except the compiled ones, rebuilt whenever a core source changes.
# The targets that run it put it first on PYTHONPATH, with PYTHONSAFEPATH=1 so that the
# source tree in the current directory does not come first. docs/architecture.md has more.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_PLAY := $(VENV)/.installed-play
STAMP_TEST := $(VENV)/.installed-test
COMPILED := build/compiled
CORE_SRC := $(wildcard euchre/*.py)
# EUCHRE_BUILD=pure skips compiling; =compiled fails where it cannot compile (setup.py).
COMPILED_ENV := PYTHONSAFEPATH=1 PYTHONPATH=$(CURDIR)/$(COMPILED)

.PHONY: play test test-core test-pure lint typecheck bench clean serve system-deps docs \
	compiled dist

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP_PLAY): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[cli,compile]'
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(STAMP_PLAY)

# The compiled modules, built from the core's sources (and again whenever one changes).
build/mypyc/.built: $(CORE_SRC) setup.py | $(STAMP_PLAY)
	rm -rf build/mypyc build/temp*
	$(BIN)/python setup.py -q build_ext --build-lib build/mypyc --build-temp build/temp
	touch $@

# build/compiled/euchre: a link to every source file and subpackage, and the compiled modules,
# which Python imports in place of the .py beside them. Remade on every use (it takes no time),
# so files added or removed in euchre/ are there too.
compiled: build/mypyc/.built
	$(BIN)/python scripts/compiled_tree.py build/mypyc $(COMPILED)

play: $(STAMP_PLAY) compiled
	EUCHRE_LAUNCHER='make play' $(COMPILED_ENV) $(BIN)/euchre play $(ARGS)

lint: $(STAMP_TEST)
	$(BIN)/python -m ruff check .
	$(BIN)/python -m mypy

# Debian packages the browser-table tests use (chromium, postgresql): installed when missing.
system-deps:
	bash scripts/system-deps.sh

# Every tier against the compiled build (a test fails if it is not the one imported while a C
# compiler works); `make test-pure` runs the engine's tests against the pure-Python source.
# The tests run in pytest-xdist workers, one a CPU up to four, each test file whole on one
# worker (its browser, server or database starts once): the browser and cluster tests spend
# much of their time waiting on the processes they drive, which another worker's tests fill.
# TEST_WORKERS=0 runs them all in this one process.
TEST_WORKERS ?= auto
test: $(STAMP_TEST) lint system-deps compiled
	$(COMPILED_ENV) EUCHRE_EXPECT_BUILD=$(if $(shell command -v cc),compiled,pure) \
		$(BIN)/python -m pytest -n $(TEST_WORKERS) --maxprocesses 4 --dist loadfile \
		$(PYTEST_ARGS)

# The engine's own tests alone (pytest marker `core`; the tiers are listed in pyproject.toml):
# rules, views, records, sampling and the OpenSpiel cross-check, in under a minute, against
# the pure-Python source (what `pytest` runs by itself).
test-core: $(STAMP_TEST)
	EUCHRE_EXPECT_BUILD=pure $(BIN)/python -m pytest -m core $(PYTEST_ARGS)

# The pure-Python build's check in CI: the core tier with no compiled module importable.
test-pure: test-core

# The docs site (Sphinx + MyST) into docs/_build/html; `make test` builds it too, warnings as errors.
docs: $(STAMP_TEST)
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html"

serve: $(STAMP_TEST) compiled
	$(COMPILED_ENV) $(BIN)/euchre serve $(ARGS)

bench: $(STAMP_PLAY) compiled
	$(COMPILED_ENV) $(BIN)/euchre bench engine

# Both wheels and the sdist into dist/: the compiled one for this platform and the pure-Python
# one (py3-none-any) that pip falls back to elsewhere.
dist: $(STAMP_TEST)
	rm -rf dist
	$(BIN)/python -m build
	EUCHRE_BUILD=pure $(BIN)/python -m build --wheel
	ls dist

clean:
	rm -rf $(VENV) build dist docs/_build *.egg-info .mypy_cache .pytest_cache .ruff_cache
