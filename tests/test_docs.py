"""The docs site builds with no warning: a broken link between pages, a page left out of the
table of contents or a docstring that is not valid reStructuredText fails ``make test``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_docs_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    # The API pages are the docstrings and signatures of the source: built from the pure-Python
    # modules, whichever build the tests run (a compiled class hides its members from autodoc).
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(ROOT / "docs"), str(tmp_path / "html")],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT, env=env,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    html = (tmp_path / "html" / "api.html").read_text(encoding="utf-8")
    assert "euchre.HandState" in html and "make_bot" in html  # the API pages were generated
