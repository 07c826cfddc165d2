"""Assemble the compiled package that ``make play`` and ``make test`` run: TARGET/euchre holds a
link to every entry of the source package (files and subpackages) and the compiled modules of
BUILT/euchre, which Python imports in place of the ``.py`` beside them.

Usage: python scripts/compiled_tree.py BUILT TARGET

Remade from scratch on every call (a few dozen links), so a file added to or removed from
euchre/ is there at once and nothing stale survives; only the compiled modules need a build
(the Makefile redoes it whenever a core source changes). With no compiled module in BUILT (no C
compiler, or EUCHRE_BUILD=pure) the tree is the pure-Python package.
"""

from __future__ import annotations

import os
import shutil
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path


def assemble(built: Path, target: Path, source: Path) -> list[str]:
    pkg = target / "euchre"
    if pkg.exists():
        shutil.rmtree(pkg)
    pkg.mkdir(parents=True)
    for entry in sorted(source.iterdir()):
        if entry.name == "__pycache__" or entry.name.endswith(tuple(EXTENSION_SUFFIXES)):
            continue
        (pkg / entry.name).symlink_to(os.path.relpath(entry, pkg))
    compiled = []
    for so in sorted((built / "euchre").glob("*")):
        if so.name.endswith(tuple(EXTENSION_SUFFIXES)):
            shutil.copy2(so, pkg / so.name)
            compiled.append(so.name.split(".")[0])
    return compiled


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = Path(__file__).resolve().parent.parent
    compiled = assemble(Path(sys.argv[1]), Path(sys.argv[2]), root / "euchre")
    what = f"{len(compiled)} compiled modules" if compiled else "pure Python (nothing compiled)"
    print(f"{sys.argv[2]}/euchre: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
