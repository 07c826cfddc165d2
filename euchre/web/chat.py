"""Table talk: chat lines and seat names, each kept in the database and sent to everyone."""

from __future__ import annotations

import time

from euchre.web import messages as M
from euchre.web import schemas as S
from euchre.web.rooms import Rooms
from euchre.web.table import SPECTATOR
from euchre.web.transport import Conn, TokenBucket, error, send

#: Chat lines a seat may send: one every two seconds on average, bursts of five.
CHAT_RATE, CHAT_BURST = 0.5, 5.0
#: Lines of a table's chat a new connection is shown.
CHAT_KEPT = 50


class TableTalk:
    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.buckets: dict[object, TokenBucket] = {}

    def forget(self, conn: Conn) -> None:
        self.buckets.pop(conn, None)

    async def chat(self, conn: Conn, msg: S.Chat) -> None:
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "only seated players can chat at this table")
            return
        bucket = self.buckets.setdefault(conn, TokenBucket(CHAT_RATE, CHAT_BURST))
        if not bucket.take():
            error(conn, "chat_rate", "slow down: at most one chat line every two seconds")
            return
        text = S.clean_text(msg.text, S.CHAT_MAX)
        if not text:
            error(conn, "bad_message", "a chat line needs some visible text")
            return
        seat = table.seats[conn.seat]
        line = M.ChatLine(conn.seat, seat.name, text, time.time())
        await self.rooms.db.run(lambda store: store.add_chat(table.id, line.seat, line.name,
                                                             line.text, line.at))
        table.chat = [*table.chat[-(CHAT_KEPT - 1):], line]
        out = M.Chat(line.seat, line.name, line.text, line.at)
        for c in self.rooms.everyone(table):
            send(c, out)

    async def rename(self, conn: Conn, msg: S.Name) -> None:
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "spectators have no seat to name")
            return
        name = S.clean_text(msg.name, S.NAME_MAX)
        if not name:
            error(conn, "bad_message", "a name needs some visible text")
            return
        async with self.rooms.locks[table.id]:
            await self.rooms.db.run(lambda store: store.update_seat(table.id, conn.seat,
                                                                    name=name))
            table.seats[conn.seat].name = name
            self.rooms.broadcast_locked(table)
