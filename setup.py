"""The build: the engine's core compiled with mypyc when it can be, else the same pure Python.

``pip install euchre`` (or ``pip install .``) compiles the core modules listed in
``euchre/_build.py`` with mypyc when mypy imports and a C compiler works, and otherwise installs
the pure-Python package, saying why. ``EUCHRE_BUILD`` chooses instead:

- ``pure``: never compile (a pure-Python install or a ``py3-none-any`` wheel);
- ``compiled``: compile or fail (what CI and the benchmarks want to know for certain).

An editable install (``pip install -e .``) is pure unless ``EUCHRE_BUILD=compiled``: compiled
modules next to the sources would be imported in place of the ``.py`` files being edited. The
Makefile builds the compiled package into ``build/compiled`` instead (docs/architecture.md).
Everything else lives in pyproject.toml.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

MODE = os.environ.get("EUCHRE_BUILD", "").strip().lower()
if MODE not in ("", "auto", "pure", "compiled"):
    sys.exit(f"EUCHRE_BUILD must be pure, compiled or unset (auto), not {MODE!r}")
EDITABLE = "editable_wheel" in sys.argv
COMPILED_MODULES: tuple[str, ...] = runpy.run_path("euchre/_build.py")["COMPILED"]


class BuildFailed(Exception):
    """The compiled core could not be built here (no compiler, or mypyc refused)."""


class OptionalBuildExt(build_ext):
    """Turns any failure to compile into :class:`BuildFailed`, so auto mode can fall back."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a missing compiler shows up as several error types
            raise BuildFailed(f"{type(exc).__name__}: {exc}") from exc

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            raise BuildFailed(f"{type(exc).__name__}: {exc}") from exc


def c_compiler_problem() -> str | None:
    """Why no C extension can be built here (no compiler, no Python headers), or None: a
    quick probe before mypyc spends a minute generating C nobody can compile."""
    import sysconfig
    import tempfile
    from distutils.ccompiler import new_compiler  # setuptools' copy (imported above)
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.c")
        with open(probe, "w") as f:
            f.write("#include <Python.h>\nint euchre_probe(void) { return 0; }\n")
        try:
            compiler.compile([probe], output_dir=tmp,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
    return None


def compiled_extensions() -> list[Any]:
    from mypyc.build import mypycify

    return mypycify([f"euchre/{m}.py" for m in COMPILED_MODULES], opt_level="3",
                    group_name="euchre._core")


def pure(why: str) -> None:
    print(f"euchre: installing the pure-Python core ({why})", file=sys.stderr)
    setup()


if MODE == "pure":
    setup()
elif EDITABLE and MODE != "compiled":
    setup()  # the sources you edit are what runs
elif MODE != "compiled" and (problem := c_compiler_problem()) is not None:
    pure(f"no working C compiler: {problem}")
else:
    try:
        extensions = compiled_extensions()
    except Exception as exc:  # mypy missing or refusing the code
        if MODE == "compiled":
            raise
        pure(f"mypyc could not compile it: {type(exc).__name__}: {exc}")
    else:
        try:
            setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
        except BuildFailed as exc:
            if MODE == "compiled":
                raise
            pure(f"the compiled core failed to build: {exc}")
