"""The numba cache guard: a kernel cached against other versions of the modules it reads
constants from is dropped, one cached against the same versions is kept."""

from __future__ import annotations

from pathlib import Path

from euchre._jitcache import forget_if_changed, package_sources


def _layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    mod = tmp_path / "kernel.py"
    mod.write_text("x = 1\n")
    dep = tmp_path / "tables.py"
    dep.write_text("TABLE = (1, 2, 3)\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    return mod, dep, cache


def _cached(cache: Path) -> list[Path]:
    for name in ("kernel._search-170.py311.nbi", "kernel._search-170.py311.1.nbc"):
        (cache / name).write_bytes(b"compiled")
    (cache / "other._f-1.py311.nbi").write_bytes(b"another module's kernel")
    return sorted(cache.glob("kernel.*.nb[ic]"))


def test_a_changed_dependency_drops_the_cached_kernels_of_that_module_only(
        tmp_path: Path) -> None:
    mod, dep, cache = _layout(tmp_path)
    _cached(cache)
    assert forget_if_changed(str(mod), [dep])  # no stamp yet: compiled by an unknown version
    assert not list(cache.glob("kernel.*.nb[ic]"))
    assert (cache / "other._f-1.py311.nbi").exists()
    kept = _cached(cache)
    assert not forget_if_changed(str(mod), [dep])  # same dependencies: the cache stands
    assert sorted(cache.glob("kernel.*.nb[ic]")) == kept
    dep.write_text("TABLE = (1, 2, 4)\n")  # a constant the kernel froze in changes
    assert forget_if_changed(str(mod), [dep])
    assert not list(cache.glob("kernel.*.nb[ic]"))


def test_the_engine_modules_are_among_the_dependencies() -> None:
    names = {p.name for p in package_sources()}
    assert {"cards.py", "actions.py", "rules.py", "state.py"} <= names
