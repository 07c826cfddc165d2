"""Away timers: a computer stands in for a person whose seat has been empty on its turn for
the away timeout, and when each seat became empty is kept in the database so a restarted
server's timer goes on from that moment."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from euchre.web.actionlog import Database
from euchre.web.rooms import Rooms
from euchre.web.table import BOT, Seat, Table

log = logging.getLogger("euchre.web")

#: Seconds between writes of when seats became empty (a crash loses at most this much of an
#: away timer's progress).
LEFT_FLUSH_SECONDS = 2.0


class AwayTimers:
    def __init__(self, rooms: Rooms, db: Database, schedule: Callable[[Table], None],
                 bot_grace: float = 2.0) -> None:
        self.rooms, self.db, self.schedule = rooms, db, schedule
        self.bot_grace = bot_grace
        """Seconds a called bot has to take its seat before its computer plays for it."""
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.left_dirty: dict[tuple[str, int], float | None] = {}
        """Seats whose stored ``left_at`` is behind, written together by ``flush_left``."""
        self.flusher: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.flusher = asyncio.create_task(self._flush_left_every())

    def halt(self) -> None:
        """Cancel every timer and the periodic write (``flush_left`` writes what is left)."""
        for task in [*self.timers.values(), *([self.flusher] if self.flusher else [])]:
            task.cancel()

    def watch(self, table: Table) -> None:
        """Start the timer of the table's person (or bot) to play, whose seat nobody holds. A
        bot's seat waits ``bot_grace`` from now: it is being called (``botlinks``)."""
        timer = self.timers.get(table.id)
        if timer is None or timer.done():
            seat = table.seats[table.match.current_player]
            if seat.kind == BOT:
                seat.away_since = time.monotonic()
            self.timers[table.id] = asyncio.create_task(self._away(table))

    async def _away(self, table: Table) -> None:
        """A computer stands in for an absent person only while someone else is at the table
        (a friend or a spectator waiting on them): a person playing computers alone who
        closes the page finds the game where they left it. Any new connection calls
        ``schedule`` again, which restarts this timer. A bot's seat is played by its computer
        ``bot_grace`` seconds after it was called, whoever watches: people waiting on a
        program that is not there would wait for nothing."""
        watched = self.rooms.watched
        while not table.finished:
            seat = table.seats[table.match.current_player]
            bot = seat.kind == BOT
            if seat.computer_plays or seat.present > 0 or not (bot or watched(table)):
                return
            wait = seat.away_since + self.bot_grace - time.monotonic() if bot \
                else table.away_left()
            if wait is None:  # the server has no away timeout
                return
            if wait > 0:
                await asyncio.sleep(min(wait, 1.0))
                continue
            async with self.rooms.locks[table.id]:
                seat = table.seats[table.match.current_player]
                if seat.present > 0 or seat.computer_plays \
                        or not (seat.kind == BOT or watched(table)):
                    return
                seat.stand_in, seat.covered = True, []
                self.rooms.broadcast_locked(table)
            self.schedule(table)
            return

    def note_left(self, table: Table, seat: Seat, at: float | None) -> None:
        """Note when a person's seat became empty (``None``: held again), so a restarted
        server's away timer goes on from that moment instead of starting again. Written a few
        seconds later with every other seat's (``flush_left``): a crowd connecting or leaving
        at once costs one transaction, not one each in front of the moves' commits."""
        if seat.kind != "human" or seat.left_at == at or (at is not None and seat.present):
            return
        if not self.rooms.owns(table.id):  # the owner keeps the seat's time
            return
        seat.left_at = at
        self.left_dirty[(table.id, seat.seat)] = at

    async def _flush_left_every(self) -> None:
        while True:
            await asyncio.sleep(LEFT_FLUSH_SECONDS)
            await self.flush_left()

    async def flush_left(self) -> None:
        if not self.left_dirty or self.db.store is None:
            return
        rows = [(t, s, at) for (t, s), at in self.left_dirty.items()]
        self.left_dirty = {}
        try:
            await self.db.run(lambda store: store.set_left_at(rows))
        except Exception as exc:  # the timer is a convenience: a failed write only loses its start
            log.error("could not store when seats became empty: %r", exc)


