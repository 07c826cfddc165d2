"""Test-suite settings. Under CI, hypothesis draws a fixed sequence of examples, so a run of
the same commit always tests the same games; locally each run explores new ones."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Fixtures of the browser-table tests (a live server, PostgreSQL): tests/webtools.py.
pytest_plugins = ["webtools"]
