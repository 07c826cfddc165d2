"""The Starlette application: HTTP API, one websocket per seat or spectator, the static client.

Order of an accepted action, always: validate the message (msgspec) -> under the table's lock,
check the turn and let the engine apply it -> commit it to the action log -> only then send each
connection its own picture of the table. A failed commit rebuilds the table from the log and the
player is told, so what the browsers saw is always what the database holds.

A slow computer player at one table delays no other table: the search level (and any level not
known to be quick) thinks in a worker pool (processes by default), never on the event loop. Only
the quick levels (a rule bot decides in ~0.05 ms, less than a hand-off to a thread costs) decide on
the loop itself, and a level that turns out slow there is moved to the pool for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
import unicodedata
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from euchre.bots import BOT_NAMES, is_level, make_bot, player_levels
from euchre.bots.base import Bot
from euchre.errors import EuchreError, IllegalActionError, RulesError
from euchre.rules import PRESETS, Rules
from euchre.state import seat_name
from euchre.view import SeatView
from euchre.web import schemas as S
from euchre.web.store import SeatData, Store, TableData
from euchre.web.table import SPECTATOR, Seat, Table, TurnError, replay_frames

log = logging.getLogger("euchre.web")
STATIC = Path(__file__).parent / "static"
T = TypeVar("T")

#: HTTP request bodies larger than this are refused (a table's options fit in far less).
BODY_MAX_BYTES = 16384
#: Websocket frames above this are cut off by the protocol layer (uvicorn ``ws_max_size``);
#: frames between ``schemas.MESSAGE_MAX_BYTES`` and this get an error event.
WS_PROTOCOL_MAX_BYTES = 65536
#: A connection whose outgoing queue holds this many messages is too slow and is dropped.
SEND_QUEUE_MAX = 512

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


def default_level() -> str:
    return "rule" if "rule" in BOT_NAMES else BOT_NAMES[0]


def strongest_level() -> str:
    """The strongest computer player available: ``search`` once it exists, else ``rule``."""
    for name in ("search", "rule"):
        if name in BOT_NAMES:
            return name
    return BOT_NAMES[0]


BotFactory = Callable[[str, int], Bot]
LogRow = tuple[str, int, int, int, tuple[int, list[int]] | None]
"""(table id, seq, seat, action, (winner, scores) when the action ended the game)"""

#: Seconds between writes of when seats became empty (a crash loses at most this much of an
#: away timer's progress).
LEFT_FLUSH_SECONDS = 2.0
#: Levels whose decisions take microseconds (the rule bot ~0.05 ms, profiled under load). They
#: decide on the event loop: handing one to a worker thread cost ~0.2 ms of submit, wake-up and GIL
#: traffic (20% of the server's time at 800 tables, the decision itself 1%), a worker process
#: far more. Every other level, the search player included, runs in the worker pool, where however
#: long it thinks it holds nothing the event loop needs.
INLINE_LEVELS = frozenset({"random", "rule", "beginner"})
#: An inline decision that used more CPU time than this counts against its level; after
#: ``INLINE_STRIKES`` of them in a row the level leaves the loop for the worker pool (a one-off
#: pause, a garbage collection during a decision say, does not).
INLINE_MAX_SECONDS = 0.01
INLINE_STRIKES = 3
#: At most this many quick computer moves are committed together (an all-computer table would
#: otherwise play its whole game in one go, holding the loop and its lock).
INLINE_RUN_MAX = 8


def bot_job(factory: BotFactory, level: str, seed: int, view: SeatView,
            explain: bool) -> tuple[int, str]:
    """Run in the worker pool: a fresh bot, seeded from the table and the move number, so a
    computer's move is a pure function of the log (a replayed table makes the same moves)."""
    bot = factory(level, seed)
    action = bot.choose(view)
    return action, (bot.explain(view) if explain else "")


def _worker_start(parent: int) -> None:
    """In each worker process: exit when the server process is gone (even by ``kill -9``, which
    gives it no chance to stop its pool), so no orphaned worker outlives it."""
    import os
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="euchre-parent-watch").start()


def freeze_startup_objects() -> None:
    """Keep the cyclic garbage collector's full passes short: called once, when the server has
    started (``ServerConfig.freeze_gc``: ``euchre serve`` sets it, tests sharing their process
    with the server do not).

    A full collection scans every tracked object, and the imports alone (SQLAlchemy, Starlette,
    uvicorn, the engine) leave ~60,000 of them: such a pass paused the event loop for 100-200 ms
    on the shared machine, twice in 30 s at 300 tables, which were the worst round trips.
    ``gc.freeze`` moves everything alive now (modules, classes, functions: none of it ever
    garbage) out of the collector's reach; objects made later are collected as before. At 300
    tables a full pass then scans ~50,000 objects instead of ~136,000 (75-106 ms instead of
    196-222 ms on that machine)."""
    import gc

    gc.collect()
    gc.freeze()


class TokenBucket:
    """``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(eq=False)
class Conn:
    ws: WebSocket
    table: Table
    seat: int
    bucket: TokenBucket
    chat_bucket: TokenBucket = field(default_factory=lambda: TokenBucket(0.5, 5.0))
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE_MAX))
    refused: int = 0
    closing: bool = False
    server_closed: bool = False
    """Closed by the server's own shutdown: the person did not leave."""


@dataclass
class ServerConfig:
    db_url: str
    workers: int = 2
    pool: Literal["process", "thread"] = "process"
    away_timeout: float = 45.0
    """Seconds a person's seat may stay empty on its turn before a computer plays it."""
    bot_factory: BotFactory = make_bot
    hint_level: str | None = None
    freeze_gc: bool = False
    """Call ``freeze_startup_objects`` once started (for a process that is only the server)."""
    inline_levels: frozenset[str] = INLINE_LEVELS
    """Computer levels that decide on the event loop (see ``INLINE_LEVELS``)."""
    rate: float = 10.0
    """Messages a second one connection may send on average (bursts of ``burst``)."""
    burst: float = 30.0


def clean_text(text: str, limit: int) -> str:
    """Plain text: control and format characters dropped, whitespace runs collapsed. Markup is
    kept as typed (the client shows text with textContent, never as HTML)."""
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ")
    return " ".join(kept.split())[:limit]


class Server:
    """Live tables, their locks and connections, the database and the worker pools."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, set[Conn]] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.store: Store | None = None
        self.db_pool = ThreadPoolExecutor(1, thread_name_prefix="euchre-db")
        self.bot_pool: Executor | None = None
        self.inline_levels = set(config.inline_levels)
        self.inline_strikes: dict[str, int] = {}
        self.hint_level = config.hint_level or strongest_level()
        self.log_queue: asyncio.Queue[tuple[list[LogRow], asyncio.Future[None]]] | None = None
        self.log_writer: asyncio.Task[None] | None = None
        self.left_dirty: dict[tuple[str, int], float | None] = {}
        """Seats whose stored ``left_at`` is behind, written together by ``flush_left``."""
        self.left_flusher: asyncio.Task[None] | None = None

    # life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        self.store = await self.db(lambda: Store(self.config.db_url))
        if self.config.pool == "process":
            import multiprocessing

            ctx = multiprocessing.get_context("spawn")
            import os

            self.bot_pool = ProcessPoolExecutor(self.config.workers, mp_context=ctx,
                                                initializer=_worker_start,
                                                initargs=(os.getpid(),))
            for _ in range(self.config.workers):  # start the workers now, not on a first move
                self.bot_pool.submit(int)
        else:
            self.bot_pool = ThreadPoolExecutor(self.config.workers,
                                               thread_name_prefix="euchre-bot")
        for level in sorted(self.inline_levels & set(BOT_NAMES)):
            self.config.bot_factory(level, 0)  # imports now, not in a first move on the loop
        store = self.store
        self.log_queue = asyncio.Queue()
        self.log_writer = asyncio.create_task(self._write_log())
        self.left_flusher = asyncio.create_task(self._flush_left_every())
        rows = await self.db(store.load_unfinished)
        for data in rows:
            self._add(Table(data))
        for table in list(self.tables.values()):
            self.schedule(table)
        log.info("resumed %d unfinished table(s)", len(rows))
        if self.config.freeze_gc:
            freeze_startup_objects()

    async def stop(self) -> None:
        for task in [*self.drivers.values(), *self.timers.values()]:
            task.cancel()
        if self.log_writer is not None:
            self.log_writer.cancel()
        if self.left_flusher is not None:
            self.left_flusher.cancel()
        for conns in self.conns.values():
            for c in list(conns):
                c.closing = True
                with contextlib.suppress(Exception):
                    await c.ws.close(1001)
        if self.bot_pool is not None:
            self.bot_pool.shutdown(wait=False, cancel_futures=True)
        if self.store is not None:
            await self.flush_left()
            await self.db(self.store.close)
        self.db_pool.shutdown(wait=True)

    async def db(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn)

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.conns[table.id] = set()

    async def get_table(self, table_id: str) -> Table | None:
        """A live table, or a finished one loaded from the database on demand."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if len(table_id) > 32:
            return None
        assert self.store is not None
        store = self.store
        data = await self.db(lambda: store.load_table(table_id))
        if data is None:
            return None
        if table_id not in self.tables:
            self._add(Table(data))
        return self.tables[table_id]

    # creating and joining -------------------------------------------------------------------

    async def create_table(self, req: S.CreateTable) -> dict[str, Any]:
        try:
            base = PRESETS[req.preset]
        except KeyError:
            raise ValueError(f"unknown preset {req.preset!r}; choose one of: "
                             + ", ".join(PRESETS)) from None
        try:
            rules = Rules.from_dict(req.rules, base=base)
        except (RulesError, TypeError) as exc:
            raise ValueError(f"rules: {exc}") from None
        n = rules.players
        my_seat = req.my_seat if req.my_seat is not None else (2 if n == 4 else 0)
        specs = req.seats or [S.SeatSpec("human" if i == my_seat else "computer")
                              for i in range(n)]
        if len(specs) != n:
            raise ValueError(f"seats: {n} players need {n} seats, not {len(specs)}")
        if my_seat >= n:
            raise ValueError(f"my_seat must be -1 (watch) or a seat 0..{n - 1}")
        if my_seat >= 0 and specs[my_seat].kind != "human":
            raise ValueError(f"my_seat {my_seat} is a computer seat; choose a person's seat")
        seats: list[SeatData] = []
        for i, spec in enumerate(specs):
            level = spec.level or default_level()
            if not is_level(level):
                raise ValueError(f"seat {i}: unknown computer level {level!r}; choose one of: "
                                 + ", ".join(player_levels()))
            mine = i == my_seat
            if spec.kind == "computer":
                name = f"{seat_name(i, n)} ({level})"
            elif mine:
                name = clean_text(req.name, S.NAME_MAX) or "You"
            else:
                name = seat_name(i, n)
            seats.append(SeatData(i, secrets.token_urlsafe(18), spec.kind, level, name, mine))
        table_id = secrets.token_urlsafe(9)
        invite = secrets.token_urlsafe(12)
        seed = secrets.randbits(63)
        assert self.store is not None
        store = self.store
        created = await self.db(lambda: store.create_table(table_id, rules.to_dict(), seed,
                                                          invite, seats))
        for sd in seats:
            if sd.kind == "human":
                sd.left_at = created  # as stored: empty since the table was made
        table = Table(TableData(table_id, created, rules.to_dict(), seed, invite, seats, [],
                                None, []))
        self._add(table)
        self.schedule(table)
        out: dict[str, Any] = {"id": table_id, "url": f"/t/{table_id}",
                               "invite_url": f"/t/{table_id}#invite={invite}",
                               "watch_url": f"/t/{table_id}",
                               "seat": my_seat}
        if my_seat >= 0:
            out["token"] = seats[my_seat].token
            out["url"] = f"/t/{table_id}#token={out['token']}"
        return out

    async def join(self, table: Table, req: S.JoinTable) -> tuple[int, str]:
        if not secrets.compare_digest(req.invite.encode(), table.invite.encode()):
            raise PermissionError("that invite is not for this table")
        async with self.locks[table.id]:
            free = [s for s in table.seats if s.kind == "human" and not s.claimed]
            if not free:
                raise LookupError("every seat at this table is taken: you can watch instead")
            seat = free[0]
            name = clean_text(req.name, S.NAME_MAX) or seat_name(seat.seat, table.n)
            assert self.store is not None
            store = self.store
            await self.db(lambda: store.update_seat(table.id, seat.seat, claimed=True,
                                                    name=name))
            seat.claimed, seat.name = True, name
            self.broadcast_locked(table)
        return seat.seat, seat.token

    # sending --------------------------------------------------------------------------------

    def send(self, conn: Conn, msg: dict[str, Any]) -> None:
        if conn.closing:
            return
        try:
            conn.queue.put_nowait(msgspec.json.encode(msg).decode())
        except asyncio.QueueFull:
            log.warning("dropping a connection that does not read its messages")
            conn.closing = True
            conn.queue = asyncio.Queue(1)
            conn.queue.put_nowait("")  # wakes the writer, which closes the socket

    async def broadcast(self, table: Table) -> None:
        """Each connection gets the table as its own seat sees it (spectators: no hands).

        Under the table's lock: an action is applied to the table before its commit and the
        lock is held until it is committed, so a state read without the lock could hold a move
        the database does not have yet."""
        async with self.locks[table.id]:
            self.broadcast_locked(table)

    def broadcast_locked(self, table: Table) -> None:
        """``broadcast`` for a caller that holds the table's lock."""
        self.deliver(self.frames(table))

    def frames(self, table: Table) -> list[tuple[Conn, str]]:
        """The table's current state for each connection, encoded once per seat."""
        cache: dict[int, str] = {}
        out = []
        for c in self.conns.get(table.id, ()):
            if c.closing:
                continue
            text = cache.get(c.seat)
            if text is None:
                text = cache[c.seat] = msgspec.json.encode(table.state_message(c.seat)).decode()
            out.append((c, text))
        return out

    def deliver(self, frames: list[tuple[Conn, str]]) -> None:
        for c, text in frames:
            if c.closing:
                continue
            try:
                c.queue.put_nowait(text)
            except asyncio.QueueFull:
                self.send(c, {})

    def error(self, conn: Conn, code: str, message: str) -> None:
        self.send(conn, {"type": "error", "code": code, "message": message})

    # actions --------------------------------------------------------------------------------

    async def commit_action(self, table: Table, seat: int, action: int) -> None:
        """Engine first (raises on an illegal action, changing nothing), then the log, then
        the broadcast. The quick computers whose turns follow move too, in the same
        transaction: a person's move and the computers' answers cost one commit, and every
        one of those states is sent once it is committed. Caller holds the table's lock."""
        table.apply(seat, action)
        rows: list[LogRow] = [(table.id, table.seq - 1, seat, action, table.finished_result())]
        frames = self.frames(table)
        try:
            await self._apply_inline(table, rows, frames)
        except Exception:  # a failing computer does not cost the person their own move
            log.exception("computer player failed at table %s", table.id)
        await self._commit(table, rows, frames)

    async def _commit(self, table: Table, rows: list[LogRow],
                      frames: list[tuple[Conn, str]]) -> None:
        """Commit ``rows`` (already applied) in one transaction, then send ``frames``; if the
        commit fails, none of them happened. Caller holds the table's lock."""
        if not rows:
            return
        try:
            await self.write_log(rows)
        except Exception:
            table.undo(len(rows))
            raise
        self.deliver(frames)

    async def write_log(self, rows: list[LogRow]) -> None:
        """Returns once ``rows`` are committed, all in one transaction."""
        assert self.log_queue is not None
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.log_queue.put_nowait((rows, done))
        await done

    async def _write_log(self) -> None:
        """Group commit: every action waiting when a write starts goes into that one
        transaction; each waiter hears only after its own actions are committed."""
        assert self.log_queue is not None and self.store is not None
        queue, store = self.log_queue, self.store
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < 500:
                batch.append(queue.get_nowait())
            rows = [row for item, _ in batch for row in item]
            try:
                await self.db(functools.partial(store.append_actions, rows))
                for _, fut in batch:
                    if not fut.done():
                        fut.set_result(None)
            except Exception:
                # one bad entry must not fail the others: write them one by one
                for item, fut in batch:
                    try:
                        await self.db(functools.partial(store.append_actions, item))
                        if not fut.done():
                            fut.set_result(None)
                    except Exception as exc:
                        if not fut.done():
                            fut.set_exception(exc)

    async def act(self, conn: Conn, msg: S.Act) -> None:
        table = conn.table
        if conn.seat == SPECTATOR:
            self.error(conn, "spectator", "spectators watch: only a seated player can move")
            return
        async with self.locks[table.id]:
            try:
                table.check_turn(conn.seat, msg.seq)
                await self.commit_action(table, conn.seat, msg.action)
            except TurnError as exc:
                self.error(conn, exc.code, str(exc))
                return
            except IllegalActionError as exc:
                self.error(conn, "illegal", str(exc))
                return
            except EuchreError as exc:
                self.error(conn, "illegal", str(exc))
                return
            except Exception:
                log.exception("could not store an action")
                self.error(conn, "storage", "the move could not be saved; it was not made")
                return
        self.schedule(table)

    def bot_seed(self, table: Table, seq: int) -> int:
        return (table.seed * 1_000_003 + seq) % (1 << 62)

    async def run_bot(self, level: str, seed: int, view: SeatView,
                      explain: bool = False) -> tuple[int, str]:
        if level in self.inline_levels:
            start = time.thread_time()  # CPU time: being descheduled on a busy machine is no
            result = bot_job(self.config.bot_factory, level, seed, view, explain)  # strike
            took = time.thread_time() - start
            if took > INLINE_MAX_SECONDS:
                strikes = self.inline_strikes[level] = self.inline_strikes.get(level, 0) + 1
                if strikes >= INLINE_STRIKES and level in self.inline_levels:
                    self.inline_levels.discard(level)
                    log.warning("computer level %r took %.0f ms on the event loop: it runs in "
                                "the worker pool from now on", level, took * 1000)
            elif level in self.inline_strikes:
                del self.inline_strikes[level]
            return result
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.bot_pool, bot_job, self.config.bot_factory,
                                          level, seed, view, explain)

    def schedule(self, table: Table) -> None:
        """After any change: start the computer for a computer's turn, or the away timer for a
        person's seat that nobody is connected to."""
        if table.finished or self.store is None:
            return
        seat = table.seats[table.match.current_player]
        if seat.computer_plays:
            task = self.drivers.get(table.id)
            if task is None or task.done():
                self.drivers[table.id] = asyncio.create_task(self._drive(table))
        elif seat.connections == 0:
            timer = self.timers.get(table.id)
            if timer is None or timer.done():
                self.timers[table.id] = asyncio.create_task(self._away(table))

    async def _away(self, table: Table) -> None:
        """A computer stands in for an absent person only while someone else is at the table
        (a friend or a spectator waiting on them): a person playing computers alone who
        closes the page finds the game where they left it. Any new connection calls
        ``schedule`` again, which restarts this timer."""
        timeout = self.config.away_timeout
        while not table.finished:
            seat = table.seats[table.match.current_player]
            if seat.computer_plays or seat.connections > 0 or not self.conns.get(table.id):
                return
            wait = seat.away_since + timeout - time.monotonic()
            if wait > 0:
                await asyncio.sleep(min(wait, 1.0))
                continue
            async with self.locks[table.id]:
                seat = table.seats[table.match.current_player]
                if seat.connections > 0 or seat.computer_plays or not self.conns.get(table.id):
                    return
                seat.stand_in = True
                self.broadcast_locked(table)
            self.schedule(table)
            return

    async def _drive(self, table: Table) -> None:
        lock = self.locks[table.id]
        try:
            while True:
                async with lock:
                    if table.finished:
                        return
                    cur = table.match.current_player
                    seat = table.seats[cur]
                    if not seat.computer_plays:
                        break
                    if seat.level in self.inline_levels:
                        await self._inline_run(table)
                        continue
                    seq, view, level = table.seq, table.view(cur), seat.level
                action, _ = await self.run_bot(level, self.bot_seed(table, seq), view)
                async with lock:
                    if table.seq != seq or not table.seats[cur].computer_plays:
                        continue
                    await self.commit_action(table, cur, action)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player failed at table %s", table.id)
            return
        self.schedule(table)

    async def _inline_run(self, table: Table) -> None:
        """Consecutive moves of quick computers, committed together and then sent (see
        ``_apply_inline``). Caller holds the lock; if the commit fails, none of them
        happened."""
        rows: list[LogRow] = []
        frames: list[tuple[Conn, str]] = []
        try:
            await self._apply_inline(table, rows, frames)
        except Exception:
            table.undo(len(rows))
            raise
        await self._commit(table, rows, frames)

    async def _apply_inline(self, table: Table, rows: list[LogRow],
                            frames: list[tuple[Conn, str]]) -> None:
        """Consecutive moves of quick computers (up to ``INLINE_RUN_MAX``), each decided and
        applied on the loop, added to ``rows`` with the state each connection sees after it
        added to ``frames``: nothing is committed or sent here. Caller holds the lock."""
        for _ in range(INLINE_RUN_MAX):
            if table.finished:
                return
            cur = table.match.current_player
            seat = table.seats[cur]
            if not seat.computer_plays or seat.level not in self.inline_levels:
                return
            action, _ = await self.run_bot(seat.level, self.bot_seed(table, table.seq),
                                           table.view(cur))
            table.apply(cur, action)
            rows.append((table.id, table.seq - 1, cur, action, table.finished_result()))
            frames += self.frames(table)

    async def hint(self, conn: Conn) -> None:
        table = conn.table
        if conn.seat == SPECTATOR:
            self.error(conn, "spectator", "spectators have no cards to ask about")
            return
        async with self.locks[table.id]:
            view = table.view(conn.seat)
            seq = table.seq
        if not view.legal_actions or table.finished:
            self.error(conn, "not_your_turn", "a hint is for your turn: it is not your turn")
            return
        action, why = await self.run_bot(self.hint_level, self.bot_seed(table, seq), view, True)
        self.send(conn, {"type": "hint", "seq": seq, "action": action,
                         "text": Table.legal_json(action)["text"], "why": why,
                         "level": self.hint_level})

    async def chat(self, conn: Conn, msg: S.Chat) -> None:
        table = conn.table
        if conn.seat == SPECTATOR:
            self.error(conn, "spectator", "only seated players can chat at this table")
            return
        if not conn.chat_bucket.take():
            self.error(conn, "chat_rate", "slow down: at most one chat line every two seconds")
            return
        text = clean_text(msg.text, S.CHAT_MAX)
        if not text:
            self.error(conn, "bad_message", "a chat line needs some visible text")
            return
        seat = table.seats[conn.seat]
        at = time.time()
        entry = {"seat": conn.seat, "name": seat.name, "text": text, "at": at}
        assert self.store is not None
        store = self.store
        await self.db(lambda: store.add_chat(table.id, conn.seat, seat.name, text, at))
        table.chat = [*table.chat[-49:], entry]
        for c in list(self.conns.get(table.id, ())):
            self.send(c, {"type": "chat", **entry})

    async def rename(self, conn: Conn, msg: S.Name) -> None:
        table = conn.table
        if conn.seat == SPECTATOR:
            self.error(conn, "spectator", "spectators have no seat to name")
            return
        name = clean_text(msg.name, S.NAME_MAX)
        if not name:
            self.error(conn, "bad_message", "a name needs some visible text")
            return
        assert self.store is not None
        store = self.store
        async with self.locks[table.id]:
            await self.db(lambda: store.update_seat(table.id, conn.seat, name=name))
            table.seats[conn.seat].name = name
            self.broadcast_locked(table)

    # the websocket --------------------------------------------------------------------------

    async def websocket(self, ws: WebSocket) -> None:
        table_id = ws.path_params["table_id"]
        token = ws.query_params.get("token", "")
        await ws.accept()
        table = await self.get_table(table_id)
        if table is None:
            await self._refuse(ws, "no_table", "there is no table with that address", 4404)
            return
        seat: Seat | None = None
        if token:
            seat = table.seat_by_token(token)
            if seat is None:
                await self._refuse(ws, "bad_token",
                                   "that seat link is not valid for this table", 4403)
                return
        conn = Conn(ws, table, seat.seat if seat else SPECTATOR,
                    TokenBucket(self.config.rate, self.config.burst))
        writer = asyncio.create_task(self._writer(conn))
        async with self.locks[table.id]:
            self.conns[table.id].add(conn)
            if seat is not None:
                seat.connections += 1
                seat.stand_in = False
            self.send(conn, {"type": "welcome", "you": conn.seat, "table": table.id,
                             "chat": table.chat, "levels": list(player_levels()),
                             "hint_level": self.hint_level})
            self.broadcast_locked(table)
        if seat is not None:
            self.note_left(table, seat, None)
        self.schedule(table)
        try:
            await self._reader(conn)
        finally:
            self.conns[table.id].discard(conn)
            if seat is not None:
                seat.connections -= 1
                if seat.connections == 0:
                    seat.away_since = time.monotonic()
                    if not conn.server_closed:
                        self.note_left(table, seat, time.time())
                if not table.finished:
                    await self.broadcast(table)
                self.schedule(table)
            conn.closing = True
            writer.cancel()

    def note_left(self, table: Table, seat: Seat, at: float | None) -> None:
        """Note when a person's seat became empty (``None``: held again), so a restarted
        server's away timer goes on from that moment instead of starting again. Written a few
        seconds later with every other seat's (``flush_left``): a crowd connecting or leaving
        at once costs one transaction, not one each in front of the moves' commits."""
        if seat.kind != "human" or seat.left_at == at or (at is not None and seat.connections):
            return
        seat.left_at = at
        self.left_dirty[(table.id, seat.seat)] = at

    async def _flush_left_every(self) -> None:
        while True:
            await asyncio.sleep(LEFT_FLUSH_SECONDS)
            await self.flush_left()

    async def flush_left(self) -> None:
        if not self.left_dirty or self.store is None:
            return
        rows = [(t, s, at) for (t, s), at in self.left_dirty.items()]
        self.left_dirty = {}
        store = self.store
        try:
            await self.db(lambda: store.set_left_at(rows))
        except Exception:  # the timer is a convenience: a failed write only loses its start
            log.exception("could not store when seats became empty")

    async def _refuse(self, ws: WebSocket, code: str, message: str, close: int) -> None:
        await ws.send_text(msgspec.json.encode(
            {"type": "error", "code": code, "message": message}).decode())
        await ws.close(close)

    async def _writer(self, conn: Conn) -> None:
        try:
            while True:
                text = await conn.queue.get()
                if conn.closing and not text:
                    await conn.ws.close(1008)
                    return
                await conn.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        except asyncio.CancelledError:
            raise

    async def _reader(self, conn: Conn) -> None:
        ws = conn.ws
        while True:
            try:
                raw = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if raw["type"] == "websocket.disconnect":
                # 1012: the server itself is shutting down (uvicorn), not the person leaving
                conn.server_closed = raw.get("code") == 1012
                return
            data = raw.get("text")
            if data is None:
                data = raw.get("bytes") or b""
            if not conn.bucket.take():
                conn.refused += 1
                if conn.refused > 200:
                    conn.closing = True
                    await ws.close(1008)
                    return
                self.error(conn, "rate_limited", f"too many messages: at most "
                           f"{self.config.rate:g} a second; this one was ignored")
                continue
            size = len(data.encode() if isinstance(data, str) else data)
            if size > S.MESSAGE_MAX_BYTES:
                self.error(conn, "too_big", f"a message may hold at most "
                           f"{S.MESSAGE_MAX_BYTES} bytes; this one held {size}")
                continue
            try:
                msg = S.decode_client(data)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                self.error(conn, "bad_message", f"not a valid message: {exc}. Messages are "
                           "JSON objects with a type: act, chat, name, hint or ping")
                continue
            if isinstance(msg, S.Act):
                await self.act(conn, msg)
            elif isinstance(msg, S.Chat):
                await self.chat(conn, msg)
            elif isinstance(msg, S.Name):
                await self.rename(conn, msg)
            elif isinstance(msg, S.Hint):
                await self.hint(conn)
            else:
                self.send(conn, {"type": "pong"})


# HTTP -----------------------------------------------------------------------------------------


def rules_options() -> list[dict[str, Any]]:
    """Every ``Rules`` option as JSON (:meth:`euchre.rules.Option.to_json`): the home page's
    form is built from it, so it offers exactly what the engine accepts."""
    return [o.to_json() for o in Rules.options()]


def make_app(config: ServerConfig) -> Starlette:
    server = Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        yield
        await server.stop()

    async def body(request: Request, kind: type[T]) -> T:
        raw = await request.body()
        if len(raw) > BODY_MAX_BYTES:
            raise ValueError(f"request body over {BODY_MAX_BYTES} bytes")
        return msgspec.json.decode(raw or b"{}", type=kind)

    def bad(message: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def options(request: Request) -> Response:
        return JSONResponse({
            "presets": {k: v.to_dict() for k, v in PRESETS.items()},
            "options": rules_options(),
            "levels": list(player_levels()),
            "default_level": default_level(),
            "strongest_level": strongest_level(),
        })

    async def create(request: Request) -> Response:
        try:
            req = await body(request, S.CreateTable)
            return JSONResponse(await server.create_table(req), status_code=201)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            return bad(f"invalid request: {exc}")
        except ValueError as exc:
            return bad(str(exc))

    async def table_info(request: Request) -> Response:
        t = await server.get_table(request.path_params["table_id"])
        if t is None:
            return bad("there is no table with that address", 404)
        return JSONResponse({
            "id": t.id, "players": t.n, "rules": t.rules.to_dict(),
            "seats": [s.public() for s in t.seats], "finished": t.finished,
            "open_seats": sum(1 for s in t.seats if s.kind == "human" and not s.claimed),
        })

    async def join(request: Request) -> Response:
        t = await server.get_table(request.path_params["table_id"])
        if t is None:
            return bad("there is no table with that address", 404)
        try:
            req = await body(request, S.JoinTable)
            seat, token = await server.join(t, req)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            return bad(f"invalid request: {exc}")
        except ValueError as exc:
            return bad(str(exc))
        except PermissionError as exc:
            return bad(str(exc), 403)
        except LookupError as exc:
            return bad(str(exc), 409)
        return JSONResponse({"seat": seat, "token": token, "url": f"/t/{t.id}#token={token}"})

    async def finished(request: Request) -> Response:
        assert server.store is not None
        store = server.store
        return JSONResponse({"tables": await server.db(lambda: store.list_finished(100))})

    async def finished_table(request: Request) -> Table | Response:
        t = await server.get_table(request.path_params["table_id"])
        if t is None:
            return bad("there is no table with that address", 404)
        if not t.finished:
            return bad("the game is still being played: its record (every deal) is "
                       "available once it is over", 409)
        return t

    async def record(request: Request) -> Response:
        t = await finished_table(request)
        if isinstance(t, Response):
            return t
        return Response(msgspec.json.format(msgspec.json.encode(t.record()), indent=1),
                        media_type="application/json", headers={
                            "Content-Disposition": f'attachment; filename="euchre-{t.id}.json"'})

    async def replay(request: Request) -> Response:
        t = await finished_table(request)
        if isinstance(t, Response):
            return t
        return JSONResponse({"id": t.id, "players": t.n, "names": t.names(),
                             "seat_names": [seat_name(i, t.n) for i in range(t.n)],
                             "rules": t.rules.to_dict(), "target": t.rules.target,
                             "frames": replay_frames(t.rules, t.seed, t.log)})

    def page(name: str) -> Callable[[Request], Any]:
        async def handler(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Content-Security-Policy": CSP,
                                                        "Cache-Control": "no-cache"})
        return handler

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/replay/{table_id}", page("replay.html")),
        Route("/api/options", options),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/finished", finished),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/replay", replay),
        WebSocketRoute("/ws/{table_id}", server.websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
