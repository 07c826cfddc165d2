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
import queue
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from euchre.tournament.core import TournamentSpec, UnitResult
from euchre.tournament.stats import TimeHistogram
from euchre.tournament.units import play_units

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
    times: tuple[TimeHistogram, TimeHistogram] = field(
        default_factory=lambda: (TimeHistogram(), TimeHistogram()))
    """Each player's decision times over the finished units."""

    @property
    def complete(self) -> bool:
        return len(self.results) == self.requested


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


#: Seconds of work a chunk is sized for once the speed of a unit is known: long enough that
#: sending it costs nothing, short enough for a lively progress bar and little lost to Ctrl-C.
CHUNK_SECONDS = 1.0
MAX_CHUNK = 500


class _Sizer:
    """Sizes each next chunk from the time units took so far: a unit of two random bots takes
    a millisecond, one with a search bot seconds, and one fixed size cannot suit both. Sizes
    never change results (units are seeded by index), only how work is handed out."""

    def __init__(self) -> None:
        self.units = 0
        self.seconds = 0.0

    def add(self, units: int, seconds: float) -> None:
        self.units += units
        self.seconds += seconds

    def size(self) -> int:
        if self.units == 0 or self.seconds <= 0:
            return 1
        return max(1, min(MAX_CHUNK, int(CHUNK_SECONDS * self.units / self.seconds)))


def _timed_units(spec: TournamentSpec, start: int, stop: int) -> tuple[float, list[UnitResult]]:
    t0 = time.perf_counter()
    out = play_units(spec, start, stop)
    return time.perf_counter() - t0, out


_WORKER_SPEC: TournamentSpec | None = None


def _init_worker(spec: TournamentSpec) -> None:
    # The parent alone handles Ctrl-C; workers are terminated by it, without tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _WORKER_SPEC
    _WORKER_SPEC = spec  # sent once per worker, not with every chunk


def _work(job: tuple[int, int]) -> tuple[float, list[UnitResult]]:
    assert _WORKER_SPEC is not None
    return _timed_units(_WORKER_SPEC, *job)


def _serial(spec: TournamentSpec, units: int) -> Iterator[list[UnitResult]]:
    for i in range(units):
        yield play_units(spec, i, i + 1)


def _processes(spec: TournamentSpec, units: int, workers: int) -> Iterator[list[UnitResult]]:
    # spawn, not fork: the parent may hold threads (the progress bar's, Ray's) that a forked
    # child would inherit mid-lock.
    ctx = multiprocessing.get_context("spawn")
    n = min(workers, units)
    pool = ctx.Pool(n, initializer=_init_worker, initargs=(spec,))
    done: queue.SimpleQueue[Any] = queue.SimpleQueue()
    sizer = _Sizer()
    next_unit = 0
    in_flight = 0
    try:
        while True:
            while next_unit < units and in_flight < 2 * n:
                job = (next_unit, min(units, next_unit + sizer.size()))
                pool.apply_async(_work, (job,), callback=done.put, error_callback=done.put)
                next_unit, in_flight = job[1], in_flight + 1
            if in_flight == 0:
                break
            while True:
                try:  # a timeout keeps the wait interruptible by Ctrl-C
                    item = done.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            in_flight -= 1
            if isinstance(item, BaseException):
                raise item
            seconds, batch = item
            sizer.add(len(batch), seconds)
            yield batch
        pool.close()
    finally:
        pool.terminate()  # stops the workers at once on Ctrl-C or an error
        pool.join()


def _ray(spec: TournamentSpec, units: int, workers: int,
         address: str | None) -> Iterator[list[UnitResult]]:
    import ray

    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
    remote = ray.remote(num_cpus=1)(_timed_units)
    slots = workers  # with --address, --workers says how many tasks the cluster runs at once
    pending: list[Any] = []
    sizer = _Sizer()
    next_unit = 0
    try:
        spec_ref = ray.put(spec)
        while True:
            while next_unit < units and len(pending) < 2 * slots:
                stop = min(units, next_unit + sizer.size())
                pending.append(remote.remote(spec_ref, next_unit, stop))
                next_unit = stop
            if not pending:
                break
            ready, pending = ray.wait(pending, num_returns=1)
            seconds, batch = ray.get(ready[0])
            sizer.add(len(batch), seconds)
            yield batch
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
    if backend == "ray":
        stream = _ray(spec, units, workers, address)
    elif workers == 1:
        stream = _serial(spec, units)
    else:
        stream = _processes(spec, units, workers)
    results: list[UnitResult] = []
    times = (TimeHistogram(), TimeHistogram())
    interrupted = False
    t0 = time.perf_counter()
    try:
        for batch in stream:
            for r in batch:
                if on_result is not None:
                    on_result(r)
                for e in (0, 1):
                    for t in r.times[e]:
                        times[e].add(t)
                # Kept without its times: a million-hand run would hold gigabytes of them.
                results.append(replace(r, times=((), ())))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # runs the backend's clean-up now, not at garbage collection
    results.sort(key=lambda r: r.index)
    return Outcome(spec, units, tuple(results), interrupted, time.perf_counter() - t0, backend,
                   workers, times)
