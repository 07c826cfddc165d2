"""The limits an operator sets on what clients may do (``euchre serve`` flags), kept for the whole
site: each refusal says which limit was reached and what it is.

Two kinds of limit, one mechanism each, so a new limit (sign-ins, say) is one more key:

- **Rates** (``take``): a ``Window`` allows at most ``count`` events in any ``seconds`` (tables
  created by an address, and in all); a ``Bucket`` allows ``rate`` a second on average in
  bursts of ``burst`` (a seat's chat lines and hints). Several are taken together or none is.
- **Places** (``admit`` / ``release``): connections open at once. A seat has its own places
  (``seat_connections``) that no spectator can take; spectators have theirs, per table
  (``table_spectators``) and per address over every table (``address_spectators``).

``LocalLimits`` keeps them in memory: one server process (SQLite lets only one write) is the
whole site. ``SharedLimits`` keeps them in PostgreSQL, the one thing the processes of a cluster
share (``docs/web.md#limits`` says why this way): a rate is one row per key, updated by one
atomic upsert that counts and refuses in the same statement (the row lock orders two processes'
takes); a place is one row per open connection, admitted in a transaction that first takes a
transaction advisory lock on the table's key (and the address's), then counts the rows of the
live processes only (those holding their liveness lock, ``euchre.web.cluster``: a process killed
outright frees its places at once) and inserts. Time is the database's clock, so processes on
several machines agree on a window.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from euchre.seats import Seat

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("euchre.web")


class LimitError(Exception):
    """A request refused by an operator's limit (HTTP 429, websocket close 4429)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Window:
    """At most ``count`` events in any ``seconds``."""

    count: int
    seconds: float


@dataclass(frozen=True)
class Bucket:
    """``rate`` events a second on average, in bursts of at most ``burst``."""

    rate: float
    burst: float


Rule = Window | Bucket


@dataclass(frozen=True)
class Places:
    """The connections one table and one address may hold open at once."""

    seat: Seat
    """Per seat, all its links' connections together."""
    table_spectators: int
    address_spectators: int
    """Spectator connections from one client address, over every table."""


@dataclass(frozen=True)
class Visit:
    """One connection asking for a place: its number in this process, its table, its seat
    (``SPECTATOR``: watching) and its client's address."""

    conn: int
    table: str
    seat: Seat
    address: str
    most: int | None = None
    """The places of this seat (None: ``Places.seat``): a bot's seat has one, and a bot's
    connections as many as the operator allows (``euchre.web.botlinks``)."""


SPECTATOR = -1

#: ``admit``'s refusals: which allowance was full.
SEAT, TABLE, ADDRESS = "seat_connections", "table_spectators", "address_spectators"


class Limits:
    """The site's limits (see the module's docstring); subclasses keep the counts."""

    def __init__(self, places: Places) -> None:
        self.places = places

    async def start(self) -> None:
        """Open what the counts need."""

    async def stop(self) -> None:
        """Close it."""

    async def take(self, *wanted: tuple[str, Rule]) -> int | None:
        """Count one event against each (key, rule), all or none: None when every one had
        room, else the index of the first that had none (nothing is counted then)."""
        raise NotImplementedError

    async def refund(self, key: str, rule: Rule) -> None:
        """Give back one event taken for ``key`` (what it was counted for did not happen:
        a chat line whose write was refused, say)."""
        raise NotImplementedError

    async def admit(self, visit: Visit) -> str | None:
        """Give the connection a place: None, or which allowance is full (``SEAT``, ``TABLE``
        or ``ADDRESS``; nothing is held then)."""
        raise NotImplementedError

    async def release(self, conn: int) -> None:
        """Free the place of an admitted connection (it closed)."""
        raise NotImplementedError

    def refusal(self, refused: str) -> LimitError:
        """What a connection refused a place is told."""
        p = self.places
        if refused == SEAT:
            return LimitError(SEAT, f"this seat's link is already open {p.seat} times, the "
                              "most it may be: close one of them")
        if refused == TABLE:
            return LimitError(TABLE, f"this table already has {p.table_spectators} "
                              "spectators, the most it takes (the players' seats have places "
                              "of their own)")
        return LimitError(ADDRESS, f"your address already has {p.address_spectators} "
                          "spectator connections open, the most one address may: close one "
                          "of them")


class LocalLimits(Limits):
    """The limits of a site that is one process, in its memory."""

    def __init__(self, places: Places, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(places)
        self.clock = clock
        self.windows: dict[str, deque[float]] = {}
        self.buckets: dict[str, tuple[float, float]] = {}
        """key -> (tokens, when)"""
        self.visits: dict[int, Visit] = {}
        self.at_seat: dict[tuple[str, int], int] = {}
        self.watching: dict[str, int] = {}
        """Spectators by table, and by address (keys prefixed ``t:`` and ``a:``)."""

    async def take(self, *wanted: tuple[str, Rule]) -> int | None:
        now = self.clock()
        windows: list[deque[float]] = []
        buckets: list[tuple[str, float]] = []
        for i, (key, rule) in enumerate(wanted):
            if isinstance(rule, Window):
                times = self.windows.setdefault(key, deque())
                while times and times[0] <= now - rule.seconds:
                    times.popleft()
                if len(times) >= rule.count:
                    return i
                windows.append(times)
            else:
                tokens, at = self.buckets.get(key, (rule.burst, now))
                tokens = min(rule.burst, tokens + (now - at) * rule.rate)
                if tokens < 1:
                    return i
                buckets.append((key, tokens - 1))
        for times in windows:  # every one had room: count them all
            times.append(now)
        for key, tokens in buckets:
            self.buckets[key] = (tokens, now)
        if len(self.windows) + len(self.buckets) > 20000:
            self._forget(now)
        return None

    async def refund(self, key: str, rule: Rule) -> None:
        if isinstance(rule, Window):
            times = self.windows.get(key)
            if times:
                times.pop()
        elif key in self.buckets:
            tokens, at = self.buckets[key]
            self.buckets[key] = (min(rule.burst, tokens + 1), at)

    def _forget(self, now: float) -> None:
        """Drop the keys that say nothing any more (an hour's events at most are kept)."""
        self.windows = {k: v for k, v in self.windows.items() if v and v[-1] > now - 3600}
        self.buckets = {k: v for k, v in self.buckets.items() if v[1] > now - 3600}

    async def admit(self, visit: Visit) -> str | None:
        p = self.places
        if visit.seat != SPECTATOR:
            key = (visit.table, visit.seat)
            if self.at_seat.get(key, 0) >= (visit.most or p.seat):
                return SEAT
            self.at_seat[key] = self.at_seat.get(key, 0) + 1
        else:
            table, address = "t:" + visit.table, "a:" + visit.address
            if self.watching.get(table, 0) >= p.table_spectators:
                return TABLE
            if self.watching.get(address, 0) >= p.address_spectators:
                return ADDRESS
            for k in (table, address):
                self.watching[k] = self.watching.get(k, 0) + 1
        self.visits[visit.conn] = visit
        return None

    async def release(self, conn: int) -> None:
        visit = self.visits.pop(conn, None)
        if visit is None:
            return
        if visit.seat != SPECTATOR:
            counts: dict[Any, int] = self.at_seat
            keys: list[Any] = [(visit.table, visit.seat)]
        else:
            counts, keys = self.watching, ["t:" + visit.table, "a:" + visit.address]
        for k in keys:
            counts[k] -= 1
            if not counts[k]:
                del counts[k]


#: The database's clock, in seconds (one value for a whole statement).
NOW = "EXTRACT(EPOCH FROM statement_timestamp())"

TAKE_WINDOW = (
    f"INSERT INTO limit_counts AS c (key, times, expires) VALUES (%(k)s, ARRAY[{NOW}], "
    f"{NOW} + %(w)s) ON CONFLICT (key) DO UPDATE SET times = array_append(ARRAY("
    f"SELECT t FROM unnest(c.times) AS t WHERE t > {NOW} - %(w)s), {NOW}), "
    f"expires = {NOW} + %(w)s WHERE cardinality(ARRAY(SELECT t FROM unnest(c.times) AS t "
    f"WHERE t > {NOW} - %(w)s)) < %(n)s RETURNING 1")
"""One event in a window: refused (no row returned) when ``n`` are within ``w`` seconds."""

_FILLED = f"LEAST(%(b)s, c.tokens + ({NOW} - c.at) * %(r)s)"
TAKE_BUCKET = (
    f"INSERT INTO limit_counts AS c (key, tokens, at, expires) VALUES (%(k)s, %(b)s - 1, "
    f"{NOW}, {NOW} + 1 / %(r)s) ON CONFLICT (key) DO UPDATE SET tokens = {_FILLED} - 1, "
    f"at = {NOW}, expires = {NOW} + (%(b)s - {_FILLED} + 1) / %(r)s "
    f"WHERE {_FILLED} >= 1 RETURNING 1")
"""One token from a bucket (refused when under one); ``expires`` is when it is full again."""

#: The first keys of the transaction advisory locks that order admissions to one table, and to
#: one address's spectator places (``cluster.LOCK_SPACE`` is the liveness locks').
TABLE_LOCKS, ADDRESS_LOCKS = 0x45554349, 0x4555434A

#: The cluster ids of the live processes: those holding their liveness lock.
ALIVE = ("SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted "
         "AND classid = %(space)s AND objsubid = 2 AND database = "
         "(SELECT oid FROM pg_database WHERE datname = current_database())")

COUNT_PLACES = (
    f"WITH alive AS ({ALIVE}) "
    "SELECT count(*) FILTER (WHERE table_id = %(t)s AND seat = %(s)s), "
    "count(*) FILTER (WHERE table_id = %(t)s AND seat = -1), "
    "count(*) FILTER (WHERE address = %(a)s AND seat = -1) "
    "FROM connections WHERE (table_id = %(t)s OR (address = %(a)s AND seat = -1)) "
    "AND process IN (SELECT * FROM alive)")

#: Seconds between deletions of the rows that say nothing any more.
TIDY_SECONDS = 60.0

#: Seconds a seat's refused place is looked at again before the refusal stands (a holder that
#: was killed is let go by the database when its backend sees the connection close).
SEAT_GRACE = 2.0


class SharedLimits(Limits):
    """The limits of a cluster, in PostgreSQL (see the module's docstring): one connection of
    this process's, one transaction at a time on it. ``process`` is this process's cluster id,
    the key of its liveness lock in ``liveness_space``."""

    def __init__(self, places: Places, url: str, process: int, liveness_space: int) -> None:
        super().__init__(places)
        self.url, self.process, self.liveness_space = url, process, liveness_space
        self.conn: psycopg.AsyncConnection[Any] | None = None
        self.lock = asyncio.Lock()
        self.tidier: asyncio.Task[None] | None = None

    async def start(self) -> None:
        import psycopg

        self.conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        # A limit's count is not the game's truth: its commits need not wait for the disk
        # (about 4 ms each with fsync on, where the rest of a statement takes a tenth of it).
        # A database that crashes loses at most the last moments' counts, in order, and every
        # process's session with them, so no place is held by a row it lost.
        await self.conn.execute("SET synchronous_commit = off")
        self.tidier = asyncio.create_task(self._tidy_every())

    async def stop(self) -> None:
        if self.tidier is not None:
            self.tidier.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.tidier
        conn, self.conn = self.conn, None  # connections closing after this hold no place
        if conn is not None:
            async with self.lock:
                with contextlib.suppress(Exception):
                    await conn.execute("DELETE FROM connections WHERE process = %s",
                                       (self.process,))
                with contextlib.suppress(Exception):
                    await conn.close()

    async def take(self, *wanted: tuple[str, Rule]) -> int | None:
        conn = self.conn
        assert conn is not None
        async with self.lock:
            try:
                async with conn.transaction():
                    for i, (key, rule) in enumerate(wanted):
                        if isinstance(rule, Window):
                            cur = await conn.execute(TAKE_WINDOW, {"k": key, "w": rule.seconds,
                                                                   "n": rule.count})
                        else:
                            cur = await conn.execute(TAKE_BUCKET, {"k": key, "r": rule.rate,
                                                                   "b": rule.burst})
                        if await cur.fetchone() is None:
                            raise _Refused(i)
            except _Refused as refused:  # rolled back: nothing counted
                return refused.index
        return None

    async def refund(self, key: str, rule: Rule) -> None:
        assert self.conn is not None
        async with self.lock:
            if isinstance(rule, Window):
                await self.conn.execute("UPDATE limit_counts SET times = "
                                        "times[1:cardinality(times) - 1] WHERE key = %s",
                                        (key,))
            else:
                await self.conn.execute("UPDATE limit_counts SET tokens = LEAST(%s, tokens + 1) "
                                        "WHERE key = %s", (rule.burst, key))

    async def admit(self, visit: Visit) -> str | None:
        # A person reconnecting right after their process was killed finds the seat's place
        # still held until the database notices the dead process's connection close (its
        # backend exits, releasing the liveness lock): milliseconds on a quiet machine, up to
        # a second or so under load. A seat refused is costly (the away timeout, then a
        # computer plays it), so a seat's refusal is looked at again for SEAT_GRACE seconds;
        # spectators are refused at once. The process's limits lock is not held between looks.
        refused = await self._admit_once(visit)
        deadline = time.monotonic() + SEAT_GRACE
        while refused == SEAT and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            refused = await self._admit_once(visit)
        return refused

    async def _admit_once(self, visit: Visit) -> str | None:
        conn = self.conn
        assert conn is not None
        p = self.places
        async with self.lock, conn.transaction():
            if visit.seat == SPECTATOR:  # table first, then address: one order for all
                await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s)), "
                                   "pg_advisory_xact_lock(%s, hashtext(%s))",
                                   (TABLE_LOCKS, visit.table, ADDRESS_LOCKS, visit.address))
            else:
                await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                                   (TABLE_LOCKS, visit.table))
            cur = await conn.execute(COUNT_PLACES, {"space": self.liveness_space,
                                                    "t": visit.table, "s": visit.seat,
                                                    "a": visit.address})
            row = await cur.fetchone()
            assert row is not None
            at_seat, watching, from_address = row
            if visit.seat != SPECTATOR:
                if at_seat >= (visit.most or p.seat):
                    return SEAT
            elif watching >= p.table_spectators:
                return TABLE
            elif from_address >= p.address_spectators:
                return ADDRESS
            await conn.execute(
                "INSERT INTO connections (process, conn, table_id, seat, address, at) "
                f"VALUES (%s, %s, %s, %s, %s, {NOW})",
                (self.process, visit.conn, visit.table, visit.seat, visit.address))
        return None

    async def release(self, conn: int) -> None:
        async with self.lock:
            if self.conn is not None:  # else stopped: every place of this process is gone
                await self.conn.execute("DELETE FROM connections WHERE process = %s AND "
                                        "conn = %s", (self.process, conn))

    async def _tidy_every(self) -> None:
        while True:
            await asyncio.sleep(TIDY_SECONDS)
            try:
                await self.tidy()
            except Exception as exc:
                log.error("could not tidy the limits' rows: %r", exc)

    async def tidy(self) -> None:
        """Delete the rates' rows that say nothing any more and the places of dead
        processes (both are ignored anyway: this only keeps the tables small)."""
        assert self.conn is not None
        async with self.lock:
            await self.conn.execute(f"DELETE FROM limit_counts WHERE expires < {NOW}")
            await self.conn.execute(f"DELETE FROM connections WHERE process NOT IN ({ALIVE})",
                                    {"space": self.liveness_space})


class _Refused(Exception):
    def __init__(self, index: int) -> None:
        self.index = index


#: The window of the table-creation limits.
CREATION_WINDOW = 60.0


class CreationLimits:
    """Tables created in any minute, per client address and in all."""

    def __init__(self, limits: Limits, per_client: int, total: int) -> None:
        self.limits, self.per_client, self.total = limits, per_client, total

    async def take(self, client: str) -> None:
        """Count one new table for ``client``, or raise ``LimitError`` (counting nothing)."""
        refused = await self.limits.take(
            ("tables", Window(self.total, CREATION_WINDOW)),
            (f"tables:{client}", Window(self.per_client, CREATION_WINDOW)))
        if refused == 0:
            raise LimitError("busy", f"the server is creating many tables: at most "
                             f"{self.total} a minute in all; try again in a minute")
        if refused == 1:
            raise LimitError("too_many_tables", f"at most {self.per_client} new tables a "
                             "minute from one address; try again in a minute")


def computer_tables_error(playing: int, most: int) -> LimitError:
    return LimitError("computer_tables", f"{playing} tables of computers only are being "
                      f"played, the most this server runs at once (at most {most}); watch "
                      "one of them or take a seat at a new table")
