"""Where computer players think: quick levels on the event loop, every other level in a worker
pool (processes by default), so however long a search thinks it holds nothing the loop needs.

A level listed as quick that turns out slow on the loop is moved to the pool for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Literal

from euchre.view import SeatView
from euchre.web import metrics
from euchre.web.config import BotFactory
from euchre.web.levels import offered_levels

log = logging.getLogger("euchre.web")

#: An inline decision that used more CPU time than this counts against its level; after
#: ``INLINE_STRIKES`` of them in a row the level leaves the loop for the worker pool (a one-off
#: pause, a garbage collection during a decision say, does not).
INLINE_MAX_SECONDS = 0.01
INLINE_STRIKES = 3


def bot_job(factory: BotFactory, level: str, seed: int, view: SeatView,
            explain: bool) -> tuple[int, str]:
    """Run in the worker pool: a fresh bot, seeded from the table and the move number, so a
    computer's move is a pure function of the log (a replayed table makes the same moves)."""
    bot = factory(level, seed)
    action = bot.choose(view)
    return action, (bot.explain(view) if explain else "")


def _worker_start(parent: int, nice: int = 0) -> None:
    """In each worker process: exit when the server process is gone (even by ``kill -9``, which
    gives it no chance to stop its pool), so no orphaned worker outlives it; and yield the CPU
    to the others by ``nice`` (a pool of background work, the reviews, below the players')."""
    if nice:
        os.nice(nice)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="euchre-parent-watch").start()


def make_pool(kind: Literal["process", "thread"], workers: int, name: str,
              nice: int = 0) -> Executor:
    """A worker pool whose workers are started now, not on a first move; processes run
    ``nice`` steps below the server's priority (threads share the server's)."""
    if kind == "thread":
        return ThreadPoolExecutor(workers, thread_name_prefix=name)
    import multiprocessing

    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_start, initargs=(os.getpid(), nice))
    for _ in range(workers):
        pool.submit(int)
    return pool


def stop_pool(pool: Executor) -> None:
    """Stop a pool without waiting for the jobs its workers are running.

    ``shutdown(wait=False)`` only returns sooner: the interpreter's exit still joins the
    pool's manager thread, which waits for each running job (a review's search, under load:
    18 s for one stop). A stopping server has no use for those answers, so worker processes
    are ended at once; the manager thread then sees them gone and ends too."""
    workers = list((getattr(pool, "_processes", None) or {}).values()) \
        if isinstance(pool, ProcessPoolExecutor) else []  # shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        with contextlib.suppress(Exception):
            process.terminate()


class BotRunner:
    """Decides computer moves: on the loop for ``inline_levels``, else in ``pool``."""

    def __init__(self, factory: BotFactory, inline_levels: frozenset[str],
                 pool: Executor) -> None:
        self.factory = factory
        self.inline_levels = set(inline_levels)
        self.strikes: dict[str, int] = {}
        self.pool = pool
        for level in sorted(self.inline_levels & set(offered_levels())):
            factory(level, 0)  # imports now, not in a first move on the loop

    def stop(self) -> None:
        stop_pool(self.pool)

    def is_inline(self, level: str) -> bool:
        return level in self.inline_levels

    async def run(self, level: str, seed: int, view: SeatView,
                  explain: bool = False) -> tuple[int, str]:
        if level not in self.inline_levels:
            with metrics.timed(metrics.BOT_THINK.labels("pool")):
                return await asyncio.get_running_loop().run_in_executor(
                    self.pool, bot_job, self.factory, level, seed, view, explain)
        start = time.thread_time()  # CPU time: being descheduled on a busy machine is no
        result = bot_job(self.factory, level, seed, view, explain)  # strike
        took = time.thread_time() - start
        metrics.BOT_THINK.labels("loop").observe(took)
        if took > INLINE_MAX_SECONDS:
            strikes = self.strikes[level] = self.strikes.get(level, 0) + 1
            if strikes >= INLINE_STRIKES and level in self.inline_levels:
                self.inline_levels.discard(level)
                log.warning("computer level %r took %.0f ms on the event loop: it runs in "
                            "the worker pool from now on", level, took * 1000)
        elif level in self.strikes:
            del self.strikes[level]
        return result
