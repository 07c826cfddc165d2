"""Optional compiled build: ``EUCHRE_COMPILE=1 pip install --no-build-isolation .`` compiles the
pure-Python core with mypyc (needs mypy and a C compiler); without it, a plain pure-Python
install. Everything else lives in pyproject.toml."""

import os

from setuptools import setup

CORE = ["cards", "actions", "errors", "rules", "phases", "seats", "scoring", "explain", "view",
        "state", "match"]

ext_modules = []
if os.environ.get("EUCHRE_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify([f"euchre/{m}.py" for m in CORE], opt_level="3")

setup(ext_modules=ext_modules)
