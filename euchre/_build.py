"""Which build of the core is running: compiled with mypyc, or the pure-Python source.

The same typed source serves both (``setup.py`` compiles the modules named in
:data:`COMPILED` when it can). Nothing here does I/O: a compiled module is one whose
``__file__`` is an extension module.
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

#: The core modules the compiled build compiles (``setup.py`` reads this list).
COMPILED: Final = ("actions", "cards", "errors", "explain", "phases",
                   "scoring", "seats", "state", "variants", "view")


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` that are running compiled."""
    out = []
    for name in COMPILED:
        path = getattr(importlib.import_module(f"euchre.{name}"), "__file__", "") or ""
        if path.endswith(tuple(EXTENSION_SUFFIXES)):
            out.append(name)
    return out


def build() -> str:
    """``"compiled"`` when every core module runs compiled (mypyc), ``"pure"`` when none
    does, else ``"partly compiled"``: say which with :func:`compiled_modules`."""
    n = len(compiled_modules())
    return "compiled" if n == len(COMPILED) else "pure" if n == 0 else "partly compiled"


def describe() -> str:
    """The build in words, for ``euchre --version`` and the benchmarks."""
    kind = build()
    if kind == "compiled":
        return "compiled core (mypyc)"
    if kind == "pure":
        return "pure-Python core"
    return f"partly compiled core (mypyc: {', '.join(compiled_modules())})"
