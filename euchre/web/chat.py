"""Table talk: chat lines and seat names, each kept in the database and sent to everyone."""

from __future__ import annotations

import time

from euchre.web import messages as M
from euchre.web import schemas as S
from euchre.web.limits import Bucket, Limits
from euchre.web.rooms import Rooms, copied_name
from euchre.web.store import LostTable
from euchre.web.table import SPECTATOR
from euchre.web.transport import Conn, error

#: Chat lines a seat may send in a burst (its rate is ``ServerConfig.chat_rate``).
CHAT_BURST = 5.0
#: How a spectator's chat line is signed (the seat of its line is ``SPECTATOR``).
SPECTATOR_NAME = "Spectator"


class TableTalk:
    def __init__(self, rooms: Rooms, limits: Limits, rate: float) -> None:
        self.rooms, self.limits, self.rate = rooms, limits, rate
        self.bucket = Bucket(rate, CHAT_BURST)
        """A seat's chat lines, all its connections together, in every process."""

    async def chat(self, conn: Conn, msg: S.Chat) -> None:
        """A line from a seat (its rate: all the seat's connections together) or from a
        spectator (its rate: that one connection's, wherever it is held: spectators have no
        seat to count them by), in the site's limits."""
        table = conn.table
        watching = conn.seat == SPECTATOR
        key = (f"chat:{table.id}:watch:{conn.site or conn.id}" if watching
               else f"chat:{table.id}:{conn.seat}")
        text = S.clean_text(msg.text, S.CHAT_MAX)
        if not text:
            error(conn, "bad_message", "a chat line needs some visible text")
            return
        if await self.limits.take((key, self.bucket)) is not None:
            error(conn, "chat_rate", f"slow down: at most one chat line every "
                  f"{1 / self.rate:g} seconds")
            return
        name = SPECTATOR_NAME if watching else table.seats[conn.seat].name
        try:
            await self.rooms.say(table, M.ChatLine(conn.seat, name, text, time.time()))
        except LostTable:  # not stored here: the new owner counts it when it stores it
            await self.limits.refund(key, self.bucket)
            raise

    async def rename(self, conn: Conn, msg: S.Name) -> None:
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "spectators have no seat to name")
            return
        if table.seats[conn.seat].player is not None:
            error(conn, "name_fixed", "a player plays under their player's name: change it on "
                  "the account page, for the tables to come")
            return
        name = S.clean_text(msg.name, S.NAME_MAX)
        if not name:
            error(conn, "bad_message", "a name needs some visible text")
            return
        async with self.rooms.locks[table.id]:
            copied = copied_name(name, table.n, conn.seat, table.names())
            if copied:
                error(conn, "name_taken", copied)
                return
            await self.rooms.db.run(lambda store: store.update_seat(table.id, conn.seat,
                                                                    name=name))
            table.seats[conn.seat].name = name
            self.rooms.broadcast_locked(table)
