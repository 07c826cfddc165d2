"""Test-suite settings. Under CI, hypothesis draws a fixed sequence of examples, so a run of
the same commit always tests the same games; locally each run explores new ones."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# A suite started from a background job (`make test &`, nohup, some CI runners) inherits Ctrl-C's
# signal as ignored, and an ignored signal stays ignored in every child it starts: the tests
# that press Ctrl-C at `euchre play` or `euchre tournament` would then test nothing but a
# process deaf to it. A handler (unlike "ignore") is reset to the default in each child, as at
# a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Fixtures of the browser-table tests (a live server, PostgreSQL): tests/webtools.py.
pytest_plugins = ["webtools"]


#: Fixtures that put a test in a tier (see the markers in pyproject.toml): whoever uses them
#: needs that part of the system, so the tier follows the test wherever it is written.
_TIER_FIXTURES = {"pg_cluster": "postgres", "nginx": "cluster"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        params = callspec.params if callspec is not None else {}
        for fixture, tier in _TIER_FIXTURES.items():
            if fixture in names:
                item.add_marker(tier)
        if params.get("db_url") == "postgresql":  # db_url starts the cluster on demand
            item.add_marker("postgres")
