"""Moves: a person's act and the computers' answers, each applied by the engine, committed to
the action log and only then sent, and the computer players driven whenever it is their turn.

Order of an accepted action, always: under the table's lock, check the turn and let the engine
apply it -> commit it to the action log -> only then send each connection its own picture of the
table. A failed commit rebuilds the table from the log and the player is told, so what the
browsers saw is always what the database holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from euchre.errors import EuchreError, IllegalActionError
from euchre.explain import why_illegal
from euchre.seats import Seat, seat_name
from euchre.web import metrics
from euchre.web import schemas as S
from euchre.web.actionlog import ActionLog, LogRow
from euchre.web.away import AwayTimers
from euchre.web.rooms import Rooms
from euchre.web.runner import BotRunner
from euchre.web.store import LostTable
from euchre.web.table import BOT, SPECTATOR, Table, TurnError
from euchre.web.table import Seat as TableSeat
from euchre.web.transport import Conn, deliver, error

log = logging.getLogger("euchre.web")

#: Turns in a row the clock may run out on a person before their computer plays the seat
#: (until they are back): one slip costs a move, not the seat.
CLOCK_STRIKES = 2

#: At most this many quick computer moves are committed together (an all-computer table would
#: otherwise play its whole game in one go, holding the loop and its lock).
INLINE_RUN_MAX = 8

Frames = list[tuple[Conn, str]]


def bot_seed(table: Table, seq: int) -> int:
    """The seed of the computer's decision at move ``seq``: a pure function of the table."""
    return (table.seed * 1_000_003 + seq) % (1 << 62)


class Moves:
    def __init__(self, rooms: Rooms, log_writer: ActionLog, bots: BotRunner,
                 bot_grace: float = 2.0, leave_grace: float = 20.0) -> None:
        self.rooms, self.log, self.bots = rooms, log_writer, bots
        self.away = AwayTimers(rooms, log_writer.db, self.schedule, bot_grace)
        self.leave_grace = leave_grace
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.clocks: dict[str, tuple[int, asyncio.Task[None]]] = {}
        """Each table's running turn clock, with the move number it times."""
        self.leaving: set[asyncio.Task[None]] = set()
        self.pacing: set[asyncio.Task[None]] = set()
        """Writes of tables' paces for the lobby (``Table.pace_due``)."""
        self.running = False
        self.game_over: Callable[[Table], None] = lambda _table: None
        """Called once the action that ended a game is committed (its results are written
        then)."""
        self.call_bot: Callable[[Table, TableSeat], None] = lambda _table, _seat: None
        """Called on a bot's turn while no connection of the bot holds its seat (its computer
        plays meanwhile): the bot links bring one (``botlinks.BotLinks.call``)."""

    def start(self) -> None:
        self.running = True
        self.away.start()

    def halt(self) -> None:
        """No more computer moves or away timers (the server is stopping)."""
        self.running = False
        for task in [*self.drivers.values(), *(t for _, t in self.clocks.values()),
                     *self.leaving, *self.pacing]:
            task.cancel()
        self.away.halt()

    async def act(self, conn: Conn, msg: S.Act) -> bool:
        """Make the connection's move, or tell it why not. True: it was not made because
        another process owns the table now (a relayed move is then handed on to it, with no
        error of its own)."""
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "spectators watch: only a seated player can move")
            return False
        arrived = time.perf_counter()
        async with self.rooms.locks[table.id]:
            try:
                table.check_turn(conn.seat, msg.seq)
                await self.commit_action(table, conn.seat, msg.action)
            except TurnError as exc:
                error(conn, exc.code, str(exc))
                return False
            except IllegalActionError:  # the person's own move: the reason, to "you"
                error(conn, "illegal", why_illegal(table.match.hand, msg.action, you=True))
                return False
            except EuchreError as exc:
                error(conn, "illegal", str(exc))
                return False
            except LostTable:
                if conn.forward is None:
                    error(conn, "moved", "another server process took this table over just "
                          "then: the move was not made; look again and choose")
                self.rooms.peers.lost(table)  # another process owns it now
                return True
            except Exception as exc:
                log.error("could not store a move at table %s: %r", table.id, exc)
                error(conn, "storage", "the move could not be saved; it was not made")
                return False
        metrics.MOVE_ROUND_TRIP.observe(time.perf_counter() - arrived)
        table.seats[conn.seat].timeouts = 0
        self.schedule(table)
        return False

    async def commit_action(self, table: Table, seat: Seat, action: int) -> None:
        """Engine first (raises on an illegal action, changing nothing), then the log, then
        the broadcast. The quick computers whose turns follow move too, in the same
        transaction: a person's move and the computers' answers cost one commit, and every
        one of those states is sent once it is committed. Caller holds the table's lock."""
        table.apply(seat, action, live=True)
        rows: list[LogRow] = [(table.id, table.seq - 1, seat, action, table.finished_result())]
        frames = self.rooms.frames(table)
        try:
            await self._apply_inline(table, rows, frames)
        except Exception as exc:  # a failing computer does not cost the person their own move
            log.error("computer player failed at table %s: %r", table.id, exc)
        await self._commit(table, rows, frames)

    async def _commit(self, table: Table, rows: list[LogRow], frames: Frames) -> None:
        """Commit ``rows`` (already applied) in one transaction, then send ``frames``; if the
        commit fails, none of them happened. Caller holds the table's lock."""
        if not rows:
            return
        try:
            await self.log.write(rows)
        except Exception:
            table.undo(len(rows))
            raise
        deliver(frames)
        metrics.MOVES.inc(len(rows))
        if rows[-1][4] is not None:
            self.game_over(table)
        pace = table.pace_due()
        if pace is not None:
            task = asyncio.create_task(self._write_pace(table, pace))
            self.pacing.add(task)
            task.add_done_callback(self.pacing.discard)

    async def _write_pace(self, table: Table, pace: float) -> None:
        """The table's pace where every process's lobby reads it (off the move's path)."""
        try:
            await self.rooms.db.run(lambda store: store.set_pace(table.id, pace))
        except asyncio.CancelledError:
            raise
        except LostTable:  # another process owns the table now: it writes its own pace
            return
        except Exception as exc:
            table.pace_shown = None  # written again at the next move
            log.error("could not write the pace of table %s: %r", table.id, exc)

    def schedule(self, table: Table) -> None:
        """After any change: start the computer for a computer's turn, or the away timer for a
        person's seat that nobody is connected to."""
        if table.finished or not table.started or not self.running \
                or not self.rooms.owns(table.id):
            return
        if table.seq == 0 and self._bots_awaited(table):
            return
        seat = table.seats[table.match.current_player]
        if seat.kind == BOT and seat.present == 0:
            self.call_bot(table, seat)
        if seat.computer_plays:
            task = self.drivers.get(table.id)
            if task is None or task.done():
                self.drivers[table.id] = asyncio.create_task(self._drive(table))
            return
        if table.clock is not None:
            timed = self.clocks.get(table.id)
            if timed is None or timed[0] != table.seq or timed[1].done():
                if timed is not None and timed[1] is not asyncio.current_task():
                    timed[1].cancel()
                self.clocks[table.id] = (table.seq, asyncio.create_task(
                    self._clock(table, table.seq)))
        if seat.present == 0:
            self.away.watch(table)

    def _bots_awaited(self, table: Table) -> bool:
        """A new table's first deal waits for its bots (called now) to take their seats, for
        ``bot_grace`` seconds at most, so a connected bot plays its game from the start;
        ``schedule`` is called again when one arrives or the time is up."""
        absent = [s for s in table.seats if s.kind == BOT and s.present == 0]
        for seat in absent:
            self.call_bot(table, seat)
        left = table.created_at + self.away.bot_grace - time.time()
        if not absent or left <= 0:
            return False
        asyncio.get_running_loop().call_later(left, self.schedule, table)
        return True

    async def _clock(self, table: Table, seq: int) -> None:
        """The turn clock of move ``seq``: when it runs out the seat's computer makes that
        move; after ``CLOCK_STRIKES`` in a row it plays the seat until its person is back."""
        await self._then_schedule(table, self._clock_move(table, seq),
                                  "the turn clock's move failed")

    async def _clock_move(self, table: Table, seq: int) -> bool:
        lock = self.rooms.locks[table.id]
        while True:
            left = table.turn_left()
            if table.seq != seq or left is None:
                return False
            if left <= 0:
                break
            await asyncio.sleep(left)
        async with lock:
            if table.seq != seq or table.finished or not self.rooms.owns(table.id):
                return False
            cur = table.match.current_player
            seat = table.seats[cur]
            if seat.computer_plays:
                return False
            seat.timeouts += 1
            if seat.timeouts >= CLOCK_STRIKES:  # the computer plays on: see schedule
                seat.idle = seat.stand_in = True
                self.rooms.broadcast_locked(table)
                return True
            view, level = table.view(cur), seat.level
        action, _ = await self.bots.run(level, bot_seed(table, seq), view)
        async with lock:
            if table.seq != seq or table.seats[cur].computer_plays:
                return False
            await self.commit_action(table, cur, action)
        return True

    async def _then_schedule(self, table: Table, work: Awaitable[bool], failed: str) -> None:
        """Run ``work`` (a computer's moves), then look again at whose turn it is (unless it
        says there is nothing to look at); another process owning the table now, or a fault,
        ends it with a line in the log."""
        try:
            if not await work:
                return
        except asyncio.CancelledError:
            raise
        except LostTable:
            self.rooms.peers.lost(table)  # another process owns it now
            return
        except Exception as exc:
            log.error("%s at table %s: %r", failed, table.id, exc)
            return
        self.schedule(table)

    async def back(self, conn: Conn) -> None:
        """The person says they are back (after the clock ran out on them): their seat is
        theirs to play again."""
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "spectators watch: only a seated player can come back")
            return
        async with self.rooms.locks[table.id]:
            table.back(table.seats[conn.seat])
            self.rooms.broadcast_locked(table)
        self.schedule(table)

    def left(self, table: Table, seat: TableSeat) -> None:
        """The person's last page at an open table closed: the seat stays theirs for
        ``leave_grace`` seconds (a reload keeps it), then is free for the next person. In
        between their turns wait on the turn clock as any turn does (its computer moves when
        it runs out): their computer playing at once would let a table of computers finish
        the game in the second a reload takes."""
        if not table.public or table.finished or not self.rooms.owns(table.id) \
                or not seat.claimed:
            return
        task = asyncio.create_task(self._left(table, seat))
        self.leaving.add(task)
        task.add_done_callback(self.leaving.discard)

    async def _left(self, table: Table, seat: TableSeat) -> None:
        try:
            await asyncio.sleep(self.leave_grace)
            async with self.rooms.locks[table.id]:
                if seat.present == 0 and seat.claimed and not table.finished:
                    await self.rooms.release(table, seat)
        except asyncio.CancelledError:
            raise
        except LostTable:  # the new owner counts the seat's connections itself
            self.rooms.peers.lost(table)
        except Exception as exc:  # the seat stays its player's, its computer playing it
            log.error("could not free seat %d (%s) that its player left at table %s: %r",
                      seat.seat, seat_name(seat.seat, table.n), table.id, exc)
            async with self.rooms.locks[table.id]:
                if seat.present == 0 and seat.claimed and not table.finished:
                    seat.stand_in = True
                    self.rooms.broadcast_locked(table)
            self.schedule(table)

    async def leave(self, conn: Conn) -> None:
        """The person leaves an open table: its computer takes the seat, free for the next
        person at once; their pages there are closed."""
        table = conn.table
        if conn.seat == SPECTATOR or not table.public:
            error(conn, "not_open", "only a player at an open table (the lobby's) can leave "
                  "it to its computer")
            return
        async with self.rooms.locks[table.id]:
            seat = table.seats[conn.seat]
            if seat.claimed:
                await self.rooms.release(table, seat)
        self.schedule(table)

    async def _drive(self, table: Table) -> None:
        await self._then_schedule(table, self._drive_moves(table), "computer player failed")

    async def _drive_moves(self, table: Table) -> bool:
        lock = self.rooms.locks[table.id]
        while True:
            async with lock:
                if table.finished or not self.rooms.owns(table.id):
                    return False
                cur = table.match.current_player
                seat = table.seats[cur]
                if not seat.computer_plays:
                    return True
                if self.bots.is_inline(seat.level):
                    await self._inline_run(table)
                    continue
                seq, view, level = table.seq, table.view(cur), seat.level
            action, _ = await self.bots.run(level, bot_seed(table, seq), view)
            async with lock:
                if table.seq != seq or not table.seats[cur].computer_plays:
                    continue
                await self.commit_action(table, cur, action)

    def release(self, table: Table) -> None:
        """Stop the table's computer player and away timer (another process owns it now)."""
        for tasks in (self.drivers, self.away.timers):
            task = tasks.pop(table.id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def _inline_run(self, table: Table) -> None:
        """Consecutive moves of quick computers, committed together and then sent (see
        ``_apply_inline``). Caller holds the lock; if the commit fails, none of them
        happened."""
        rows: list[LogRow] = []
        frames: Frames = []
        try:
            await self._apply_inline(table, rows, frames)
        except Exception:
            table.undo(len(rows))
            raise
        await self._commit(table, rows, frames)

    async def _apply_inline(self, table: Table, rows: list[LogRow], frames: Frames) -> None:
        """Consecutive moves of quick computers (up to ``INLINE_RUN_MAX``), each decided and
        applied on the loop, added to ``rows`` with the state each connection sees after it
        added to ``frames``: nothing is committed or sent here. Caller holds the lock."""
        for _ in range(INLINE_RUN_MAX):
            if table.finished:
                return
            cur = table.match.current_player
            seat = table.seats[cur]
            if not seat.computer_plays or not self.bots.is_inline(seat.level):
                return
            action, _ = await self.bots.run(seat.level, bot_seed(table, table.seq),
                                            table.view(cur))
            table.apply(cur, action, live=True)
            rows.append((table.id, table.seq - 1, cur, action, table.finished_result()))
            frames += self.rooms.frames(table)
