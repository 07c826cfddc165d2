"""Run a tournament's units on this process, on worker processes, or on Ray.

Whatever the backend, units are independent and seeded by their index (see
:mod:`euchre.tournament.core`), and the result is the list of finished units sorted by index, so
the figures do not depend on the backend, the number of workers or the order units finish in.
Ctrl-C stops the work (worker processes are terminated, Ray tasks cancelled) and returns what
had finished, marked ``interrupted``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from euchre.tournament.core import TournamentSpec, UnitResult, play_units

BACKENDS = ("processes", "ray")

OnResult = Callable[[UnitResult], None]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The finished units (sorted by index) of a tournament of ``requested`` units."""

    spec: TournamentSpec
    requested: int
    results: tuple[UnitResult, ...]
    interrupted: bool
    seconds: float
    backend: str
    workers: int

    @property
    def complete(self) -> bool:
        return len(self.results) == self.requested


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def chunks(units: int, workers: int) -> list[tuple[int, int]]:
    """Index ranges small enough to balance the load and keep the progress bar moving
    (about twenty per worker), large enough that sending them costs nothing."""
    size = max(1, min(100, units // (workers * 20)))
    return [(a, min(a + size, units)) for a in range(0, units, size)]


def _ignore_sigint() -> None:
    # The parent alone handles Ctrl-C; workers are terminated by it, without tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _work(job: tuple[TournamentSpec, int, int]) -> list[UnitResult]:
    return play_units(*job)


def _serial(spec: TournamentSpec, jobs: list[tuple[int, int]]) -> Iterator[list[UnitResult]]:
    for a, b in jobs:
        yield play_units(spec, a, b)


def _processes(spec: TournamentSpec, jobs: list[tuple[int, int]],
               workers: int) -> Iterator[list[UnitResult]]:
    # spawn, not fork: the parent may hold threads (the progress bar's, Ray's) that a forked
    # child would inherit mid-lock.
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(min(workers, len(jobs)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(_work, [(spec, a, b) for a, b in jobs])
        pool.close()
    finally:
        pool.terminate()  # no-op after close(); stops the workers at once on Ctrl-C or error
        pool.join()


def _ray(spec: TournamentSpec, jobs: list[tuple[int, int]], workers: int,
         address: str | None) -> Iterator[list[UnitResult]]:
    import ray

    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
    remote = ray.remote(num_cpus=1)(play_units)
    pending: list[Any] = []
    try:
        spec_ref = ray.put(spec)
        pending = [remote.remote(spec_ref, a, b) for a, b in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def run(spec: TournamentSpec, units: int, *, workers: int = 1, backend: str = "processes",
        address: str | None = None, on_result: OnResult | None = None) -> Outcome:
    """Play units ``0 .. units - 1``; ``on_result`` sees each unit as it finishes.

    ``workers`` 1 with the process backend plays in this process (no start-up cost)."""
    if units < 1:
        raise ValueError(f"a tournament needs at least one unit, not {units}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    jobs = chunks(units, workers)
    if backend == "ray":
        stream = _ray(spec, jobs, workers, address)
    elif workers == 1:
        stream = _serial(spec, jobs)
    else:
        stream = _processes(spec, jobs, workers)
    results: list[UnitResult] = []
    interrupted = False
    t0 = time.perf_counter()
    try:
        for batch in stream:
            for r in batch:
                results.append(r)
                if on_result is not None:
                    on_result(r)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # runs the backend's clean-up now, not at garbage collection
    results.sort(key=lambda r: r.index)
    return Outcome(spec, units, tuple(results), interrupted, time.perf_counter() - t0, backend,
                   workers)
