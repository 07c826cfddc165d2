"""Hints: what a computer player would do in the asking seat's place, and why."""

from __future__ import annotations

from euchre.web import messages as M
from euchre.web.moves import bot_seed
from euchre.web.rooms import Rooms
from euchre.web.runner import BotRunner
from euchre.web.table import SPECTATOR
from euchre.web.transport import Conn, error, send


class Hints:
    def __init__(self, rooms: Rooms, bots: BotRunner, level: str) -> None:
        self.rooms, self.bots, self.level = rooms, bots, level

    async def ask(self, conn: Conn) -> None:
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
        action, why = await self.bots.run(self.level, bot_seed(table, seq), view, True)
        send(conn, M.hint(seq, action, why, self.level))
