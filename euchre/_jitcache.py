"""Keep numba's on-disk cache honest about the modules a kernel reads constants from.

numba's ``cache=True`` checks only the timestamp and size of the file that defines a compiled
function. Tables and numbers the kernel takes from other modules (card tables, action ids, the
observation layout) are frozen into the cached machine code, so after an edit or a ``git pull``
that changes one of those modules the old kernel would load and silently compute with the old
values (seen: the RL batch simulator kept an old observation layout). Before a module defines
its kernels it calls :func:`forget_if_changed` with the files it depends on; when their digest
differs from the one stored beside the cache, that module's cached kernels are deleted and
compiled afresh.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def _digest(files: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for f in sorted(set(files)):
        h.update(f.name.encode())
        try:
            h.update(f.read_bytes())
        except OSError:
            h.update(b"<missing>")
    return h.hexdigest()


def forget_if_changed(module_file: str, depends_on: Iterable[str | Path]) -> bool:
    """Delete ``module_file``'s cached numba kernels if any file in ``depends_on`` changed since
    they were compiled; True when something was deleted. Best effort: a read-only install (numba
    then caches elsewhere) or a race with another process only costs a recompilation."""
    src = Path(module_file)
    cache = src.parent / "__pycache__"
    stamp = cache / f"{src.stem}.jitdeps"
    digest = _digest(Path(p) for p in depends_on)
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    removed = False
    try:
        for f in cache.glob(f"{src.stem}.*.nb[ic]"):
            f.unlink(missing_ok=True)
            removed = True
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass
    return removed


def package_sources(*extra: str | Path) -> list[Path]:
    """The rules engine's own modules (``euchre/*.py``: cards, actions, rules, state, ...),
    which every kernel may take constants from, plus ``extra`` files."""
    root = Path(__file__).parent
    return [*root.glob("*.py"), *(Path(p) for p in extra)]
