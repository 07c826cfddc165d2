"""The server's Prometheus metrics (``/metrics``), kept with ``prometheus_client``.

One process: the metrics live in that process and a scrape reads them. Several processes on one
port (``euchre serve --processes N``): a scrape lands on any one of them, so each process writes
its values to files in one shared directory (prometheus_client's multiprocess mode, switched on
by ``PROMETHEUS_MULTIPROC_DIR``, which the parent sets before its children import anything, see
``prepare_multiprocess``) and whichever process answers a scrape sums them all. Counters and
histograms add up over every process that ever ran (a restart does not lose moves already
counted); the gauges (tables, connections) count live processes only.

The gauges are sampled (every ``SAMPLE_SECONDS`` and at each scrape) rather than kept in step at
every change, so no code path that adds a table or a connection has to remember them.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

__all__ = ["BOT_THINK", "CONNECTIONS", "CONTENT_TYPE_LATEST", "DB_COMMIT", "MOVES",
           "MOVE_ROUND_TRIP", "MULTIPROC_ENV", "TABLES", "Sampler", "prepare_multiprocess",
           "process_gone", "render", "timed"]

#: The environment variable of prometheus_client's multiprocess mode.
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: How often each process writes its gauges (a scrape also samples the process it lands on).
SAMPLE_SECONDS = 1.0

#: Round trips of a move on one machine are a few milliseconds; the buckets reach past the
#: benchmark's 100 ms line so ``histogram_quantile(0.99, ...)`` can say which side it is on.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.075, 0.1, 0.15,
                   0.25, 0.5, 1.0, 2.5, 5.0)
#: Computer decisions range from microseconds (the rule bot) to seconds (a search).
THINK_BUCKETS = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0,
                 10.0)

TABLES = Gauge("euchre_tables", "Unfinished tables held in memory by this server, by role: "
               "owned (this process applies its moves) or followed (another process does)",
               ["role"], multiprocess_mode="livesum")
CONNECTIONS = Gauge("euchre_connections", "Open websocket connections (seats and spectators)",
                    multiprocess_mode="livesum")
MOVES = Counter("euchre_moves", "Moves accepted and committed (people's and computers')")
MOVE_ROUND_TRIP = Histogram(
    "euchre_move_round_trip_seconds", "A person's move from its arrival at the server to the "
    "new state being handed to every connection of the table (committed first)",
    buckets=LATENCY_BUCKETS)
BOT_THINK = Histogram("euchre_bot_think_seconds", "Time a computer player took to decide, "
                      "by where it thought (loop: on the event loop; pool: a worker)",
                      ["where"], buckets=THINK_BUCKETS)
DB_COMMIT = Histogram("euchre_db_commit_seconds", "One group commit of the action log (every "
                      "move waiting when it started)", buckets=LATENCY_BUCKETS)


Counts = Callable[[], tuple[int, int, int]]
"""A running server's (owned tables, followed tables, websocket connections)."""

#: The running servers of this process (tests run several in one process; a real process one).
_sources: set[Counts] = set()


def sample() -> None:
    owned = followed = conns = 0
    for counts in list(_sources):
        o, f, c = counts()
        owned, followed, conns = owned + o, followed + f, conns + c
    TABLES.labels("owned").set(owned)
    TABLES.labels("followed").set(followed)
    CONNECTIONS.set(conns)


class Sampler:
    """Writes the gauges of one server every ``SAMPLE_SECONDS`` while it runs."""

    def __init__(self, counts: Counts) -> None:
        self.counts = counts
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        _sources.add(self.counts)
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            sample()
            await asyncio.sleep(SAMPLE_SECONDS)

    async def stop(self) -> None:
        _sources.discard(self.counts)
        sample()
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


def render() -> bytes:
    """The scrape: this process's metrics, or in multiprocess mode every process's."""
    sample()
    if not multiprocess():
        return generate_latest(REGISTRY)
    from prometheus_client import multiprocess as mp

    registry = CollectorRegistry()
    mp.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


@contextmanager
def timed(histogram: Histogram) -> Iterator[None]:
    """Observe the wall time of the block (on success and on failure alike)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        histogram.observe(time.perf_counter() - start)


def prepare_multiprocess() -> Path:
    """In the parent of several server processes, before any child starts: the directory for
    their metric files (``PROMETHEUS_MULTIPROC_DIR`` if set, else a new temporary one), named
    in the environment the children inherit. Metric files left there by an earlier run are
    removed: they would be added into this run's counters."""
    named = os.environ.get(MULTIPROC_ENV)
    path = Path(named) if named else Path(tempfile.mkdtemp(prefix="euchre-metrics-"))
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.db"):
        old.unlink()
    os.environ[MULTIPROC_ENV] = str(path)
    return path


def process_gone(pid: int) -> None:
    """In that parent, when a child has exited (even by ``kill -9``): its gauges stop counting
    (its counters and histograms keep what it did)."""
    if multiprocess():
        from prometheus_client import multiprocess as mp

        mp.mark_process_dead(pid)  # type: ignore[no-untyped-call]
