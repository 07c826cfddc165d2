"""The cyclic garbage collector's full passes, kept away from the tables' round trips.

A full pass scans every object the collector tracks and holds the event loop while it does:
at 600 tables a process tracks ~100,000 objects beyond its imports, and each pass took 60-90 ms
(measured with ``gc.callbacks`` during ``euchre bench server``), every 10-25 s, triggered by
the churn of moves. Each stalled every table at once and was most of a row's p99. The young
generations' passes (under 1 ms and about 6 ms on average) reclaim nearly all short-lived
garbage; a full pass found 0-170 objects to free. So a server process leaves the automatic
full passes off and makes one itself every ``FULL_PASS_SECONDS``: the same garbage is freed,
minutes later instead of seconds, and a long pause comes once in minutes instead of several
times a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger("euchre.web")

#: Seconds between the server's own full collections.
FULL_PASS_SECONDS = 600.0
#: The oldest generation's threshold while a server runs: a count of young collections no
#: server reaches between two of its own full passes (about one a second under load).
NEVER = 1 << 30


def freeze_startup_objects() -> None:
    """Move everything alive now out of the collector's reach, for good.

    The imports alone (SQLAlchemy, Starlette, uvicorn, the engine) leave ~60,000 tracked
    objects, none of them ever garbage (modules, classes, functions): frozen, a full pass no
    longer scans them. At 300 tables a full pass then scanned ~50,000 objects instead of
    ~136,000 (75-106 ms instead of 196-222 ms on the shared machine)."""
    gc.collect()
    gc.freeze()


class FullPasses:
    """This process's full collections, on a timer instead of the collector's own rule."""

    def __init__(self, every: float = FULL_PASS_SECONDS) -> None:
        self.every = every
        self.task: asyncio.Task[None] | None = None
        self.threshold = gc.get_threshold()
        self.passes = 0

    def start(self) -> None:
        freeze_startup_objects()
        self.threshold = gc.get_threshold()
        gc.set_threshold(self.threshold[0], self.threshold[1], NEVER)
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            started = time.perf_counter()
            freed = gc.collect()
            self.passes += 1
            log.debug("full garbage collection: %d freed in %.0f ms", freed,
                      (time.perf_counter() - started) * 1000)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
            gc.set_threshold(*self.threshold)
            gc.unfreeze()  # a process that goes on (a test's) collects as before
