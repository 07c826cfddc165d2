"""Test-suite settings. Under CI, hypothesis draws a fixed sequence of examples, so a run of
the same commit always tests the same games; locally each run explores new ones."""

from __future__ import annotations

import os
import signal

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
