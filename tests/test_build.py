"""The two builds of one source: the compiled core is the one ``make test`` runs (a test here
fails if it stops building or stops being imported), ``euchre --version`` says which build runs,
and where no C compiler works ``setup.py`` installs the same package in pure Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import euchre
from euchre._build import COMPILED, build, compiled_modules, describe
from euchre.cli import main

pytestmark = pytest.mark.core

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_running_is_the_one_make_expects() -> None:
    """``make test`` runs every tier against the compiled build wherever a C compiler works
    (``EUCHRE_EXPECT_BUILD=compiled``) and ``make test-core`` against the pure source: if the
    compiled core stops building (setup.py then falls back to pure Python) or stops being the
    one imported, this fails. Run by hand, either build passes, but never a mix."""
    kind = build()
    assert kind in ("compiled", "pure"), f"partly compiled: {compiled_modules()}"
    expected = os.environ.get("EUCHRE_EXPECT_BUILD")
    if expected:
        assert kind == expected, f"expected the {expected} build, but running {describe()}"
    on_disk = [Path(getattr(sys.modules[f"euchre.{m}"], "__file__", "")).name for m in COMPILED]
    compiled = [n for n in on_disk if n.endswith(tuple(EXTENSION_SUFFIXES))]
    assert len(compiled) == (len(COMPILED) if kind == "compiled" else 0), on_disk


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"euchre {euchre.__version__}: {describe()}, Python ")
    assert ("compiled core (mypyc)" in out) == (build() == "compiled")


def _source_copy(tmp: Path) -> Path:
    """The files ``setup.py`` needs, copied so that nothing is built in the checkout."""
    dst = tmp / "src"
    shutil.copytree(ROOT / "euchre", dst / "euchre",
                    ignore=shutil.ignore_patterns("__pycache__", *(f"*{s}" for s in
                                                                   EXTENSION_SUFFIXES)))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, dst / name)
    return dst


def _build_ext(src: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", "out",
         "--build-temp", "tmp"],
        cwd=src, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONSAFEPATH": "1", **env})


def test_without_a_c_compiler_the_pure_package_builds_and_says_why(tmp_path: Path) -> None:
    src = _source_copy(tmp_path)
    auto = _build_ext(src, CC="false", EUCHRE_BUILD="")
    assert auto.returncode == 0, auto.stderr
    assert "euchre: installing the pure-Python core (no working C compiler" in auto.stderr
    assert not [p for p in (src / "out").rglob("*") if p.name.endswith(
        tuple(EXTENSION_SUFFIXES))]
    forced = _build_ext(src, CC="false", EUCHRE_BUILD="compiled")
    assert forced.returncode != 0  # compiled was asked for: no quiet fallback
    bad = _build_ext(src, EUCHRE_BUILD="fast")
    assert bad.returncode != 0
    assert "EUCHRE_BUILD must be pure, compiled or unset (auto), not 'fast'" in bad.stderr
