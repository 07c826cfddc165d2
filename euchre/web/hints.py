"""Hints: what a computer player would do in the asking seat's place, and why.

A hint runs the strongest level, so hints have a budget of their own, apart from the computer
players': their own worker pool, at most one hint in the works per connection, a rate per seat
(shared by every connection holding that seat's link) and a bound on how many wait in the
whole server. A flood of hints is answered with errors; the tables' computer moves, in their own
pool, go on at their own pace.

In the hint pool the answer comes from the analysis's evaluation service
(:func:`euchre.analysis.assess.hint`: every option's value with its error, for the chance to
win the game, or "a close call"), the same judge as the terminal's hint and the review; a
decision it cannot value, and a hint level run on the event loop, are answered by the level's
player.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor

from euchre.view import SeatView
from euchre.web import messages as M
from euchre.web.config import BotFactory
from euchre.web.limits import Bucket, Limits
from euchre.web.moves import bot_seed
from euchre.web.rooms import Rooms
from euchre.web.runner import BotRunner, bot_job, stop_pool
from euchre.web.table import SPECTATOR
from euchre.web.transport import Conn, error, send

#: Hints a whole server lets wait for a worker, per hint worker; more are refused.
WAITING_PER_WORKER = 2
#: A seat's hints: ``rate`` a second on average, bursts of this many.
HINT_BURST = 3.0


def hint_job(factory: BotFactory, level: str, seed: int, view: SeatView) -> tuple[int, str]:
    """Run in the hint pool: the evaluation service's answer, else the level's player's."""
    from euchre.analysis.assess import hint

    return hint(view, seed) or bot_job(factory, level, seed, view, True)


class Hints:
    def __init__(self, rooms: Rooms, bots: BotRunner, level: str, factory: BotFactory,
                 pool: Executor, workers: int, limits: Limits, rate: float) -> None:
        self.rooms, self.bots, self.level, self.factory = rooms, bots, level, factory
        self.pool, self.rate = pool, rate
        self.slots = asyncio.Semaphore(workers)
        self.waiting_max = WAITING_PER_WORKER * workers
        self.waiting = 0
        self.in_flight: set[Conn] = set()
        self.limits = limits
        self.bucket = Bucket(rate, HINT_BURST)
        """A seat's hints, all its connections together, in every process."""
        self.tasks: set[asyncio.Task[None]] = set()

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        stop_pool(self.pool)

    async def ask(self, conn: Conn) -> None:
        """Refuse at once or start working the hint out (the connection is not held up)."""
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "spectators have no cards to ask about")
            return
        async with self.rooms.locks[table.id]:
            view = table.view(conn.seat)
            seq = table.seq
        if not view.legal_actions or table.finished:
            error(conn, "not_your_turn", "a hint is for your turn: it is not your turn")
            return
        if conn in self.in_flight:
            error(conn, "hint_busy", "one hint at a time: the last one is still being "
                  "worked out")
            return
        self.in_flight.add(conn)  # before the rate's await: one hint at a time holds
        if await self.limits.take((f"hint:{table.id}:{conn.seat}", self.bucket)) is not None:
            self.in_flight.discard(conn)
            error(conn, "hint_rate", f"too many hints for this seat: at most "
                  f"{self.rate:g} a second; ask again in a moment")
            return
        if self.waiting >= self.waiting_max:
            self.in_flight.discard(conn)
            error(conn, "hint_busy", "the server is working out other hints: ask again "
                  "in a moment")
            return
        self.waiting += 1
        task = asyncio.create_task(self._answer(conn, seq, view))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _answer(self, conn: Conn, seq: int, view: SeatView) -> None:
        seed = bot_seed(conn.table, seq)
        waiting = True
        try:
            async with self.slots:
                self.waiting -= 1
                waiting = False
                if conn.closing:
                    return
                if self.bots.is_inline(self.level):
                    action, why = await self.bots.run(self.level, seed, view, True)
                else:
                    action, why = await asyncio.get_running_loop().run_in_executor(
                        self.pool, hint_job, self.factory, self.level, seed, view)
        except Exception:
            error(conn, "server_error", "the hint could not be worked out; nothing changed")
            return
        finally:
            if waiting:
                self.waiting -= 1
            self.in_flight.discard(conn)
        send(conn, M.hint(seq, action, why, self.level, view))

    def forget(self, conn: Conn) -> None:
        self.in_flight.discard(conn)
