"""The action log's writer: group commit of every table's moves, one transaction at a time."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from euchre.web import metrics
from euchre.web.store import LostTable, Store, libpq_url, refused_by

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")

LogRow = tuple[str, int, int, int, tuple[int, list[int]] | None]
"""(table id, seq, seat, action, (winner, scores) when the action ended the game)"""

#: At most this many waiting writes go into one transaction.
BATCH_MAX = 500


class Database:
    """The store, reached from the event loop through one thread (its calls block)."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="euchre-db")
        self.store: Store | None = None

    async def open(self, url: str, owner: int | None = None, bus: str = "") -> Store:
        """The database (``owner``, ``bus``: this process's id and the channel its commits
        are announced on, where several processes share it: ``Store.owner``)."""
        self.store = await self.call(lambda: Store(url, owner, bus))
        return self.store

    async def call(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn)

    async def run(self, fn: Callable[[Store], T]) -> T:
        """``fn(store)`` in the database thread."""
        store = self.store
        assert store is not None
        return await self.call(lambda: fn(store))

    async def close(self) -> None:
        if self.store is not None:
            await self.call(self.store.close)
        self.pool.shutdown(wait=True)


class ActionLog:
    """Returns from ``write`` once the rows are committed; rows that arrive while a write is
    under way go together into the next transaction.

    Where several processes share a PostgreSQL database (``Store.owner`` set) the commit runs
    on the event loop, on an asynchronous connection of its own, instead of in the database
    thread. Under load the loop holds the interpreter's lock nearly all the time, and a
    thread waits for it (up to the 5 ms switch interval) each time it comes back from the
    network: a commit took 9.5 ms on average at 600 tables a process, three times its idle
    time, and every move waits for one or two commits."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.queue: asyncio.Queue[tuple[list[LogRow], asyncio.Future[None]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.conn: psycopg.AsyncConnection[Any] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._write_all())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()
            self.conn = None

    async def append(self, rows: list[LogRow]) -> set[str]:
        """One transaction of ``rows``; returns the tables whose rows were refused."""
        store = self.db.store
        assert store is not None
        if store.owner is None:
            return await self.db.call(functools.partial(store.append_actions, rows))
        import psycopg

        if self.conn is None:
            self.conn = await psycopg.AsyncConnection.connect(libpq_url(store.url))
        conn = self.conn
        try:
            sql, params = store.fenced_write(rows, time.time())
            cur = await conn.execute(sql, params)
            refused = refused_by(params, await cur.fetchall())
            await conn.commit()
        except Exception:  # rolled back: a fresh connection for the next write
            self.conn = None
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        return refused

    async def write(self, rows: list[LogRow]) -> None:
        """Returns once ``rows`` are committed, all in one transaction."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((rows, done))
        await done

    async def _write_all(self) -> None:
        """Group commit: every action waiting when a write starts goes into that one
        transaction; each waiter hears only after its own actions are committed."""
        queue = self.queue
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < BATCH_MAX:
                batch.append(queue.get_nowait())
            rows = [row for item, _ in batch for row in item]
            try:
                with metrics.timed(metrics.DB_COMMIT):
                    refused = await self.append(rows)
                for item, fut in batch:
                    settle(fut, item, refused)
            except Exception:
                # one bad entry must not fail the others: write them one by one
                for item, fut in batch:
                    try:
                        refused = await self.append(item)
                        settle(fut, item, refused)
                    except Exception as exc:
                        if not fut.done():
                            fut.set_exception(exc)


def settle(fut: asyncio.Future[None], item: list[LogRow], refused: set[str] | None) -> None:
    """The waiter of ``item`` hears its rows were committed, or that they were refused."""
    if fut.done():
        return
    if refused and any(row[0] in refused for row in item):
        fut.set_exception(LostTable("another server process owns this table now"))
    else:
        fut.set_result(None)
