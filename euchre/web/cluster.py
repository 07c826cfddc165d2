"""Several server processes on one PostgreSQL database: one writer per table, replicas
everywhere else, and PostgreSQL's LISTEN/NOTIFY as the bus between them.

Why these engines: PostgreSQL is already the shared truth, so its own notifications need no
other server (no Redis to install, watch and secure), and a NOTIFY sent inside a transaction is
delivered only when that transaction commits, in commit order. The owner announces a table's
actions from inside the very transaction that stores them, so "an action is committed before
anyone hears of it" holds across processes as it does within one.

- **Liveness**: each process holds a session advisory lock keyed by its random id on the
  connection it listens on. PostgreSQL drops it when that session ends, which a ``kill -9``
  does (the kernel closes the socket), so ``pg_locks`` is the list of live processes.
- **One writer per table**: the ``owners`` row names the process that may write the table's
  log. Every process looks for tables whose owner is not alive (every ``SCAN_SECONDS``, or at
  once when a draining process says it let tables go) and takes its share with an atomic
  conditional ``UPDATE``. Writes are fenced (``Store.append_actions``): the group commit inserts
  a table's actions only if, in the same transaction, this process's ``owners`` row is still
  there, on top of the (table, seq) primary key. A process whose write was refused turns its
  copy into a replica.
- **Replicas**: a process with connections to a table it does not own keeps a replica: loaded
  from the database, then the owner's announced actions applied through the engine in seq order
  (a gap: read the database again). Each connection's messages are built from the local replica
  by the usual builders, so the bus carries actions, never anyone's picture of a table, and a
  client still receives only its own seat's view.
- **Relay**: what a connection to a replica asks (a move, a chat line, a name, a hint, a new
  link, a seat by invite) has its shape and rate checked where it arrived and is then handed to
  the owner on the owner's own channel; the owner handles it with the same code as a local
  connection's and sends back its answer and errors (the engine's own refusal text) to that one
  connection. Who holds which seat is reported to the owner, so the away timers and computer
  stand-ins, which run at the owner, count every process's connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import socket
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol, cast

import msgspec
from starlette.websockets import WebSocket

from euchre.seats import Seat
from euchre.web import bus as B
from euchre.web import messages as M
from euchre.web import schemas as S
from euchre.web.bus import BUS
from euchre.web.players import Player
from euchre.web.store import libpq_url
from euchre.web.table import SPECTATOR, Table, TurnError
from euchre.web.transport import (
    Conn,
    TokenBucket,
    deliver,
    error,
    hang_up,
    put,
    seat_gone,
)

if TYPE_CHECKING:
    import psycopg

    from euchre.web.actionlog import Database
    from euchre.web.botlinks import BotLinks
    from euchre.web.moves import Moves
    from euchre.web.rooms import Rooms


class Host(Protocol):
    """The parts of the server a cluster serves, which it is given when it is built. The
    cluster is built first: those parts are given it (as their ``peers.Peers``) when they
    are built, so it reaches them through the server, which this describes instead of
    importing it (an import circle)."""

    @property
    def db(self) -> Database: ...
    @property
    def rooms(self) -> Rooms: ...
    @property
    def moves(self) -> Moves | None: ...
    @property
    def bot_links(self) -> BotLinks: ...

    async def handle(self, conn: Conn, msg: S.ClientMessage) -> None: ...

log = logging.getLogger("euchre.web")

#: The first key of every process's liveness advisory lock (the second is the process's id).
LOCK_SPACE = 0x45554348
#: Seconds between looks for tables whose owner is gone (a takeover after a crash waits at
#: most this long; one after a graceful stop starts at once).
SCAN_SECONDS = 0.5
#: Seconds a relayed request may wait for an owner's answer, new owners after a takeover
#: included, before the sender is told to try again.
RELAY_SECONDS = 5.0
#: Relayed connections an owner remembers (one hint at a time each, say); the oldest go first.
REMOTE_CONNS_MAX = 10000

#: Seconds a replica nobody here is connected to is kept (a reconnecting browser reuses it).
FORGET_SECONDS = 5.0
#: A notification's payload must stay under PostgreSQL's 8000 bytes.
PAYLOAD_MAX = 7900


def channel(process: int) -> str:
    return f"{BUS}_{process}"


class Moved(Exception):
    """The table's owner did not answer or no longer owns it."""


class Cluster:
    """This process's part in a group of server processes sharing one database."""

    relays = True
    """A seat at a table another process owns is claimed there (``remote_join``)."""

    def __init__(self, server: Host, url: str) -> None:
        self.server, self.url = server, libpq_url(url)
        self.id = random.SystemRandom().randint(1, 2**31 - 1)
        self.owned: set[str] = set()
        self.owner_of: dict[str, int] = {}
        """Who owns the tables this process keeps replicas of, as last heard."""
        self.pending: dict[str, list[B.Actions]] = {}
        """Announcements heard while the table was being read from the database."""
        self.remote_seen: dict[str, dict[int, tuple[list[int], int]]] = {}
        """At the owner: per table, per other process, its connections per seat and in all."""
        self.remote_conns: dict[tuple[int, int], Conn] = {}
        self.calls: dict[int, tuple[str, int, asyncio.Future[B.Answer | None]]] = {}
        """Requests sent to other processes, waiting for their answers: (table, the process
        it was sent to, answer; None: ask the table's new owner)."""
        self.call_ids = iter(range(1, 2**62))
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.listen_conn: psycopg.AsyncConnection[Any] | None = None
        self.talk_conn: psycopg.AsyncConnection[Any] | None = None
        self.stopping = False
        self.taken_at: dict[str, float] = {}
        """When this process took each table over (for the logs and the takeover figure)."""

    @property
    def rooms(self) -> Rooms:
        return self.server.rooms

    # starting and stopping ------------------------------------------------------------------

    async def start(self) -> None:
        import psycopg

        self.listen_conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self.talk_conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self.listen_conn.execute("SELECT pg_advisory_lock(%s, %s)",
                                       (LOCK_SPACE, self.id))
        await self.listen_conn.execute(f"LISTEN {BUS}")
        await self.listen_conn.execute(f"LISTEN {channel(self.id)}")
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._send()),
                      asyncio.create_task(self._scan_every())]
        # the cluster's id is random (pids repeat across machines); the pid and host say
        # which process it is to whoever reads the log or the supervisor's lines
        log.info("server process %d (pid %d on %s) joined the cluster", self.id, os.getpid(),
                 socket.gethostname())

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    async def release_all(self) -> None:
        """Let every table go (a graceful stop): from now on this process's writes are
        refused, and the others take the tables at once (one statement: the release and the
        word of it commit together)."""
        self.stopping = True
        assert self.talk_conn is not None
        gone = len(self.owned)
        self.owned.clear()
        await self.talk_conn.execute(
            "WITH r AS (UPDATE owners SET process = 0, epoch = epoch + 1 WHERE process = %s "
            "RETURNING 1) SELECT pg_notify(%s, %s), (SELECT count(*) FROM r)",
            (self.id, BUS, B.encode(B.Freed(self.id))))
        log.info("server process %d let %d table(s) go", self.id, gone)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conn in (self.listen_conn, self.talk_conn):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # sending ---------------------------------------------------------------------------------

    def publish_all(self, msg: B.Message) -> None:
        """Queue a notification every process hears (this one too)."""
        self.publish(BUS, msg)

    def publish(self, to: str, msg: B.Message) -> None:
        """Queue a notification: they are sent in order, several to one round trip."""
        text = B.encode(msg)
        if len(text.encode()) > PAYLOAD_MAX:
            log.error("a %s notification of %d bytes is too long to send", type(msg).__name__,
                      len(text))
            return
        self.outbox.put_nowait((to, text))

    async def _send(self) -> None:
        conn = self.talk_conn
        assert conn is not None
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty() and len(batch) < 200:
                batch.append(self.outbox.get_nowait())
            try:
                await conn.execute(
                    "SELECT pg_notify(c, p) FROM unnest(%s::text[], %s::text[]) "
                    "WITH ORDINALITY AS x(c, p, n) ORDER BY n",
                    ([c for c, _ in batch], [p for _, p in batch]))
            except Exception as exc:
                log.error("could not send to the other server processes: %r", exc)
                await asyncio.sleep(0.2)

    # hearing ---------------------------------------------------------------------------------

    async def _listen(self) -> None:
        conn = self.listen_conn
        assert conn is not None
        try:
            async for note in conn.notifies():
                self.hear_text(note.payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            pass
        if not self.stopping:
            # Without this session the process holds no lock: the others are taking its
            # tables now. Going on could only mislead its clients; they reconnect elsewhere.
            log.critical("lost the database connection that marks this process alive: "
                         "stopping so its tables are served by the others")
            os._exit(3)

    def hear_text(self, payload: str) -> None:
        """A notification as it arrived: a message of the bus, acted on; anything else is
        refused whole (one line in the log, nothing changed)."""
        try:
            msg = B.decode(payload)
        except B.BadMessage as exc:
            log.error("refused a notification that is no message of the bus (%d bytes): %s",
                      len(payload), exc)
            return
        try:
            self.hear(msg)
        except Exception as exc:
            log.error("could not handle a %s notification from another process: %r",
                      type(msg).__name__, exc)

    def hear(self, msg: B.Message) -> None:
        match msg:
            case B.Actions():
                self.on_actions(msg)
            case B.Seats():
                self.on_seats(msg)
            case B.Said():
                self.on_chat(msg)
            case B.Owner():
                self.on_owner(msg.table, msg.owner)
            case B.Freed():  # a process stopping let its tables go: take them now
                self.spawn(self._scan_now())
            case B.Answer():
                call = self.calls.pop(msg.call, None)
                if call is not None and not call[2].done():
                    call[2].set_result(msg)
            case B.Out():
                self.on_out(msg)
            case B.Presence():
                self.spawn(self.on_presence(msg))
            case B.Forward() | B.Join():
                self.spawn(self.on_request(msg))
            case B.BotCalled() | B.BotFree() | B.Revoked():
                self.server.bot_links.hear(msg)

    def spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.append(task)
        task.add_done_callback(self._forget_task)

    def _forget_task(self, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(ValueError):
            self.tasks.remove(task)

    # replicas ---------------------------------------------------------------------------------

    def loading(self, table_id: str) -> None:
        self.pending.setdefault(table_id, [])

    def loaded(self, table: Table) -> None:
        heard = self.pending.pop(table.id, [])
        for msg in heard:
            self.on_actions(msg)
        if table.id not in self.owned:  # read for a page, say: kept while connected to
            asyncio.get_running_loop().call_later(FORGET_SECONDS, self.forget, table)

    def on_actions(self, msg: B.Actions) -> None:
        """Apply an owner's announced actions to this process's replica, in seq order."""
        table_id = msg.table
        if table_id in self.owned:
            return
        if table_id in self.pending:
            self.pending[table_id].append(msg)
            return
        table = self.rooms.tables.get(table_id)
        if table is None:
            return
        first, acts = msg.first, msg.actions
        if first > table.seq:  # a gap: the database has what was missed
            self.pending[table_id] = []
            self.spawn(self._reload(table))
            return
        for seat, action in acts[table.seq - first:]:
            try:
                table.apply(seat, action, live=True)  # each state is shown, as at the owner
            except (TurnError, ValueError) as exc:  # the engine's refusal: changed nothing
                log.error("refused an action of table %s heard from the bus (%s): reading "
                          "the table from the database again", table_id, exc)
                self.pending[table_id] = []
                self.spawn(self._reload(table))
                return
            deliver(self.rooms.frames(table))

    async def _reload(self, table: Table) -> None:
        try:
            data = await self.server.db.run(lambda store: store.load_table(table.id))
            if data is not None and table.id not in self.owned:
                table.refresh(data)
        finally:
            heard = self.pending.pop(table.id, [])
        for msg in heard:
            self.on_actions(msg)
        self.rooms.broadcast_locked(table)

    def on_seats(self, msg: B.Seats) -> None:
        table = self.rooms.tables.get(msg.table)
        if table is None or table.id in self.owned:
            return
        if len(msg.seats) != table.n or (msg.next is not None
                                         and len(msg.next.tokens) != table.n):
            log.error("refused the seats of table %s from process %d: %d seats, not %d",
                      table.id, msg.owner, len(msg.seats), table.n)
            return
        self.owner_of[table.id] = msg.owner
        keep = msg.keep
        shown = [s.public() for s in table.seats]
        before = (table.started, table.next_table)
        table.started = table.started or msg.started
        table.bots = msg.bots
        if msg.next is not None:
            table.next_table, table.next_tokens = msg.next.table, list(msg.next.tokens)
        for s, new in zip(table.seats, msg.seats, strict=True):
            name, claimed, stand_in, token = new.name, new.claimed, new.stand_in, new.token
            if s.token != token:
                s.token = token
                left = s.claimed and not claimed  # freed: its holder left it (from any page)
                for c in self.rooms.everyone(table):
                    if c.seat == s.seat and (self.id, c.id) != keep:
                        seat_gone(c, left)
            if s.stand_in != stand_in:  # a new absence, or a return told where it arrived
                s.covered = []
            s.name, s.claimed, s.stand_in, s.kind = name, claimed, stand_in, new.kind
            s.player = new.player  # whose signed-in browser opens it, here as at the owner
            s.from_hand = new.from_hand  # taken during a hand: its computer's till then
            s.remote = max(0, new.present - s.connections)
        if [s.public() for s in table.seats] != shown \
                or (table.started, table.next_table) != before:
            self.rooms.broadcast_locked(table)

    def on_chat(self, msg: B.Said) -> None:
        table = self.rooms.tables.get(msg.table)
        if table is None or table.id in self.owned:
            return
        said = msg.line
        self.rooms.heard(table, M.ChatLine(said.seat, said.name, said.text, said.at))

    def on_owner(self, table_id: str, process: int) -> None:
        if process == self.id:
            return
        table = self.rooms.tables.get(table_id)
        if table is not None and table_id in self.owned:  # it was taken from this process
            self.lost(table)
        self.owner_of[table_id] = process
        self.retry_calls(table_id, process)
        if table is not None and self.rooms.conns.get(table_id):
            self.report(table)

    def on_out(self, msg: B.Out) -> None:
        """The owner's answer to one of this process's connections."""
        for c in self.rooms.conns.get(msg.table, ()):
            if c.id == msg.conn:
                if msg.text:
                    put(c, msg.text)
                else:
                    hang_up(c, msg.code)
                return

    # the owner's side -------------------------------------------------------------------------

    def changed(self, table: Table, keep: Conn | None) -> None:
        """Tell the replicas the seats' names, holders and links (after any change)."""
        if table.id not in self.owned:
            return
        self.publish(BUS, B.Seats(
            table.id, self.id,
            [B.SeatState(s.name, s.claimed, s.present, s.stand_in, s.token, s.kind, s.player,
                         s.from_hand) for s in table.seats],
            table.started,
            None if table.next_table is None else B.NextTable(table.next_table,
                                                                list(table.next_tokens)),
            None if keep is None else ((self.id, keep.id) if keep.forward is None
                                       else self.remote_key(keep)), table.bots))

    def remote_key(self, conn: Conn) -> tuple[int, int]:
        for key, c in self.remote_conns.items():
            if c is conn:
                return key
        return (0, 0)

    def said(self, table: Table, line: M.Chat) -> None:
        if table.id in self.owned:
            self.publish(BUS, B.Said(table.id, B.ChatLine(line.seat, line.name, line.text,
                                                          line.at)))

    def remote_conn(self, table: Table, origin: int, conn_id: int, seat: Seat) -> Conn:
        """The owner's stand-in for a connection held by another process: what the owner
        would send it goes back to that process, addressed to that one connection."""
        key = (origin, conn_id)
        conn = self.remote_conns.get(key)
        if conn is None or conn.table is not table or conn.seat != seat:
            if len(self.remote_conns) >= REMOTE_CONNS_MAX:
                del self.remote_conns[next(iter(self.remote_conns))]

            def forward(text: str, code: int) -> None:
                self.publish(channel(origin), B.Out(table.id, conn_id, text, code))

            conn = Conn(cast(WebSocket, None), table, seat,
                        TokenBucket(math.inf, math.inf), site=f"{origin}:{conn_id}",
                        forward=forward)
            self.remote_conns[key] = conn
        return conn

    async def on_request(self, msg: B.Request) -> None:
        """A request relayed by another process: handled as if it arrived here."""
        origin, table_id = msg.origin, msg.table
        reply = B.Answer(msg.call)
        table = self.rooms.tables.get(table_id)
        try:
            if table is None or table_id not in self.owned:
                reply = B.Answer(msg.call, moved=True)
            elif isinstance(msg, B.Join):
                try:
                    req = S.JoinTable(msg.invite, msg.name)
                    p = msg.player
                    player = None if p is None else Player(p.id, p.name, p.kind,
                                                           merged=p.merged)
                    reply = B.Answer(msg.call, ok=await self.rooms.join(table, req, player,
                                                                        msg.seat))
                except (PermissionError, LookupError, ValueError) as exc:
                    reply = B.Answer(msg.call, err=(type(exc).__name__, str(exc)))
            elif not -1 <= msg.seat < table.n:
                log.error("refused a message relayed from process %d for seat %d of table "
                          "%s, which has %d", origin, msg.seat, table_id, table.n)
                reply = B.Answer(msg.call, err=("bad_message", "no such seat; nothing "
                                                "changed"))
            else:
                conn = self.remote_conn(table, origin, msg.conn, msg.seat)
                request = S.decode_client(msg.message)
                if isinstance(request, S.Act):
                    assert self.server.moves is not None
                    if await self.server.moves.act(conn, request):
                        # to the new owner, then
                        reply = B.Answer(msg.call, moved=True, retry=True)
                else:
                    await self.server.handle(conn, request)
        except msgspec.DecodeError as exc:  # checked where it arrived: a process's fault
            log.error("refused a message relayed from process %d: %s", origin, exc)
            reply = B.Answer(msg.call, err=("bad_message", "the server could not read that "
                                            "message; nothing changed"))
        except Exception as exc:
            log.error("could not handle a request relayed from process %d: %r", origin, exc)
            reply = B.Answer(msg.call, err=("server_error", "the server could not handle "
                                            "that message; nothing changed"))
        self.publish(channel(origin), reply)

    async def on_presence(self, msg: B.Presence) -> None:
        table = self.rooms.tables.get(msg.table)
        if table is None or table.id not in self.owned:
            return
        if len(msg.seats) != table.n:
            log.error("refused the connections of process %d at table %s: %d seats, not %d",
                      msg.origin, table.id, len(msg.seats), table.n)
            return
        seen = self.remote_seen.setdefault(table.id, {})
        if any(msg.seats) or msg.watching:
            seen[msg.origin] = (list(msg.seats), msg.watching)
        else:
            seen.pop(msg.origin, None)
        await self.recount(table)

    async def recount(self, table: Table) -> None:
        """Count the other processes' connections into the owner's seats: a person arriving
        anywhere takes their seat back from a stand-in, and one leaving starts its away
        timer, as at a local connection."""
        moves = self.server.moves
        assert moves is not None
        seen = self.remote_seen.get(table.id, {})
        async with self.rooms.locks[table.id]:
            for s in table.seats:
                before = s.present
                s.remote = sum(n[s.seat] for n, _ in seen.values() if s.seat < len(n))
                back = before == 0 and s.present > 0
                if back or (s.present > 0 and s.stand_in and not s.idle):
                    # back (told what the stand-in did there); or held all along, at a
                    # replica that heard the last owner's stand-in after the person's return
                    # there, which that owner stopped before hearing of: a computer never
                    # plays a seat its person holds (but one taken during this hand at an
                    # open table, to its end, and one whose person let the clock run out
                    # until they are back: ``Table.back``)
                    table.back(s)
                    s.covered = []
                if back:
                    moves.away.note_left(table, s, None)
                elif before > 0 and s.present == 0:
                    s.away_since = time.monotonic()
                    moves.away.note_left(table, s, time.time())
                    moves.left(table, s)
            table.elsewhere = sum(w for _, w in seen.values())
            self.rooms.maybe_start(table)  # the last person arrived at another process
            self.rooms.broadcast_locked(table)
        moves.schedule(table)

    def lost(self, table: Table) -> None:
        """A commit was refused: another process owns the table now; keep a replica."""
        if table.id not in self.owned:
            return
        self.owned.discard(table.id)
        self.remote_seen.pop(table.id, None)
        assert self.server.moves is not None
        self.server.moves.release(table)
        self.owner_of.pop(table.id, None)
        self.pending[table.id] = []
        self.spawn(self._reload(table))
        self.spawn(self._report_later(table))
        log.warning("table %s is owned by another process now", table.id)

    async def _report_later(self, table: Table) -> None:
        await self.owner(table.id)
        self.report(table)

    # the replica's side -----------------------------------------------------------------------

    async def owner(self, table_id: str, fresh: bool = False) -> int:
        """The process owning the table (0: none alive yet)."""
        if table_id in self.owned:
            return self.id
        if not fresh and table_id in self.owner_of:
            return self.owner_of[table_id]
        assert self.talk_conn is not None
        cur = await self.talk_conn.execute("SELECT process FROM owners WHERE table_id = %s",
                                           (table_id,))
        row = await cur.fetchone()
        process = int(row[0]) if row else 0
        if process:
            self.owner_of[table_id] = process
        return process

    async def call(self, table_id: str, request: B.Request) -> B.Answer | None:
        """Send a request to the table's owner and wait for its answer (None: this process
        owns the table now, so the caller handles it); while the table changes owner (its
        owner died, or is stopping) the request waits and goes to the new one. ``Moved`` if
        no owner answers within ``RELAY_SECONDS``."""
        deadline = time.monotonic() + RELAY_SECONDS
        fresh = False
        while True:
            process = await self.owner(table_id, fresh)
            if process == self.id:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise Moved()
            fresh = True
            if not process:  # nobody owns it this moment: a takeover is under way
                await asyncio.sleep(min(left, 0.05))
                continue
            rid = next(self.call_ids)
            fut: asyncio.Future[B.Answer | None] = \
                asyncio.get_running_loop().create_future()
            self.calls[rid] = (table_id, process, fut)
            self.publish(channel(process), msgspec.structs.replace(request, call=rid))
            try:
                async with asyncio.timeout(left):
                    reply = await fut
            except TimeoutError:
                raise Moved() from None
            finally:
                self.calls.pop(rid, None)
            if reply is None:  # the owner changed while it waited: ask the new one
                continue
            if not reply.moved:
                return reply
            if reply.retry:
                continue
            await asyncio.sleep(min(left, 0.05))

    def retry_calls(self, table_id: str, owner: int) -> None:
        """The table has a new owner: requests waiting on another process go to it. One
        already sent to the new owner is left to its answer: it may be handling it now (it
        took the table over before saying so), and sending it again would do it twice (a
        chat line stored twice, say)."""
        for t, process, fut in self.calls.values():
            if t == table_id and process != owner and not fut.done():
                fut.set_result(None)

    async def relay(self, conn: Conn, msg: S.ClientMessage) -> bool:
        """Hand a connection's request to the table's owner; False: this process owns the
        table (now), so the caller handles it."""
        table = conn.table
        text = msgspec.json.encode(msg).decode()
        try:
            reply = await self.call(table.id, B.Forward(table.id, self.id, 1, conn.id,
                                                        conn.seat, text))
        except Moved:
            error(conn, "moved", "this table is moving to another server process: "
                  "nothing changed; try again in a moment")
            return True
        if reply is None:
            return False
        if reply.err is not None:
            error(conn, reply.err[0], reply.err[1])
        return True

    async def remote_join(self, table: Table, req: S.JoinTable, player: Player | None = None,
                          seat: Seat | None = None) -> tuple[int, str]:
        """Claim a seat at the table's owner (``player``: who claims it, as this process's
        session found them; the owner trusts the bus, not the browser, for that)."""
        who = None if player is None else B.Who(player.id, player.name, player.kind,
                                                tuple(player.merged))
        try:
            reply = await self.call(table.id, B.Join(table.id, self.id, 1, req.invite,
                                                     req.name, who, seat))
        except Moved:
            raise LookupError("this table is moving to another server process: try again "
                              "in a moment") from None
        if reply is None:
            return await self.rooms.join(table, req, player, seat)
        if reply.err is not None:
            kind, text = reply.err
            raise {"PermissionError": PermissionError, "LookupError": LookupError}.get(
                kind, ValueError)(text)
        if reply.ok is None:
            raise LookupError("the table's server process gave no seat: try again")
        seat, token = reply.ok
        return seat, token

    def report(self, table: Table) -> None:
        """Tell the owner how many of this process's connections hold each seat."""
        if table.id in self.owned:
            return
        self.spawn(self._report(table))

    async def _report(self, table: Table) -> None:
        process = await self.owner(table.id)
        if not process or process == self.id:
            return
        conns = self.rooms.conns.get(table.id, set())
        counts = [0] * table.n
        for c in conns:
            if c.seat != SPECTATOR:
                counts[c.seat] += 1
        self.publish(channel(process), B.Presence(table.id, self.id, counts, len(conns)))
        if not conns:
            asyncio.get_running_loop().call_later(FORGET_SECONDS, self.forget, table)

    def forget(self, table: Table) -> None:
        """Drop a replica nobody here is connected to any more."""
        rooms = self.rooms
        if rooms.conns.get(table.id) or table.id in self.owned \
                or rooms.tables.get(table.id) is not table:
            return
        rooms.tables.pop(table.id, None)
        rooms.locks.pop(table.id, None)
        rooms.conns.pop(table.id, None)
        self.owner_of.pop(table.id, None)

    # takeover -----------------------------------------------------------------------------------

    async def _scan_every(self) -> None:
        while True:
            try:
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("could not look for tables without a live owner: %r", exc)
            await asyncio.sleep(SCAN_SECONDS)

    async def _scan_now(self) -> None:
        try:
            await self.scan()
        except Exception as exc:
            log.error("could not take over the tables another process let go: %r", exc)

    async def alive(self) -> set[int]:
        assert self.talk_conn is not None
        cur = await self.talk_conn.execute(
            "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid = %s AND objsubid = 2 AND database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())",
            (LOCK_SPACE,))
        return {int(r[0]) for r in await cur.fetchall()}

    async def scan(self) -> list[str]:
        """Take this process's share of the unfinished tables whose owner is not alive
        (tables of a stopped single-process server included); returns them."""
        if self.stopping:
            return []
        conn = self.talk_conn
        assert conn is not None
        alive = await self.alive()
        for table_id in list(self.remote_seen):  # a dead process holds no seat any more
            seen = self.remote_seen[table_id]
            dead = [p for p in seen if p not in alive]
            if dead and table_id in self.owned:
                for p in dead:
                    seen.pop(p)
                await self.recount(self.rooms.tables[table_id])
        for table_id, p in list(self.owner_of.items()):
            if p not in alive:
                del self.owner_of[table_id]
        cur = await conn.execute("SELECT count(*) FROM owners WHERE process = %s", (self.id,))
        row = await cur.fetchone()
        if row is not None and row[0] != len(self.owned):  # given this process elsewhere
            cur = await conn.execute("SELECT table_id FROM owners WHERE process = %s",
                                     (self.id,))
            for (table_id,) in await cur.fetchall():
                if table_id not in self.owned:
                    await self.adopt(table_id)
        await conn.execute(
            "INSERT INTO owners (table_id, process, epoch) SELECT id, 0, 0 FROM tables "
            "WHERE finished_at IS NULL AND id NOT IN (SELECT table_id FROM owners) "
            "ON CONFLICT DO NOTHING")
        cur = await conn.execute(
            "SELECT o.table_id FROM owners o JOIN tables t ON t.id = o.table_id "
            "WHERE t.finished_at IS NULL AND NOT (o.process = ANY(%s))", (list(alive),))
        orphans = [r[0] for r in await cur.fetchall()]
        if not orphans:
            return []
        mine = [t for t in orphans if self.rooms.conns.get(t)]  # served here already
        share = max(len(mine), math.ceil(len(orphans) / max(1, len(alive))))
        ordered = mine + [t for t in orphans if t not in set(mine)]
        cur = await conn.execute(
            "UPDATE owners SET process = %s, epoch = epoch + 1 WHERE table_id IN ("
            " SELECT table_id FROM owners WHERE table_id = ANY(%s) AND NOT (process = ANY(%s))"
            " ORDER BY array_position(%s, table_id) LIMIT %s FOR UPDATE SKIP LOCKED)"
            " RETURNING table_id", (self.id, ordered, list(alive), ordered, share))
        got = {r[0] for r in await cur.fetchall()}
        taken = [t for t in ordered if t in got]  # the ones with connections here first
        for table_id in taken:
            await self.adopt(table_id)
        if taken:
            log.info("server process %d took over %d table(s)", self.id, len(taken))
        return taken

    async def adopt(self, table_id: str) -> None:
        """Serve a table this process now owns: from the database's copy, which holds every
        action its last owner committed (that owner can commit no more)."""
        self.owned.add(table_id)
        self.owner_of.pop(table_id, None)
        self.pending.pop(table_id, None)
        self.taken_at[table_id] = time.monotonic()
        data = await self.server.db.run(lambda store: store.load_table(table_id))
        if data is None:
            self.owned.discard(table_id)
            return
        rooms = self.rooms
        table = rooms.tables.get(table_id)
        if table is None:
            rooms.add(Table(data))
            table = rooms.tables[table_id]
        else:
            async with rooms.locks[table_id]:
                for s in table.seats:  # the others report their connections again
                    s.remote = 0
                table.elsewhere = 0
                table.refresh(data)
        self.publish(BUS, B.Owner(table_id, self.id))
        self.retry_calls(table_id, self.id)
        await self.recount(table)
