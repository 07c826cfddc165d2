"""The websocket transport: one connection's outgoing queue and writer, and the reader that
turns incoming frames into validated messages, enforcing the limits (rate, size, shape) on the
way. Nothing here knows a table's rules."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from euchre.seats import Seat
from euchre.web import messages as M
from euchre.web import schemas as S

if TYPE_CHECKING:
    from euchre.web.table import Table

log = logging.getLogger("euchre.web")

#: Websocket frames above this are cut off by the protocol layer (uvicorn ``ws_max_size``);
#: frames between ``schemas.MESSAGE_MAX_BYTES`` and this get an error event.
WS_PROTOCOL_MAX_BYTES = 65536
#: A connection whose outgoing queue holds this many messages is too slow and is dropped.
SEND_QUEUE_MAX = 512
#: A connection that keeps sending after this many of its messages were refused for its rate
#: is closed.
REFUSED_MAX = 200


#: This process's numbers for connections and the places they hold (``limits.Visit``).
CONN_IDS = itertools.count(1)


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
    seat: Seat
    bucket: TokenBucket
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE_MAX))
    refused: int = 0
    closing: bool = False
    server_closed: bool = False
    """Closed by the server's own shutdown: the person did not leave."""
    close_code: int = 1008
    """The code the writer closes with once the server hangs up (``hang_up``)."""
    id: int = field(default_factory=lambda: next(CONN_IDS))
    """This process's number for the connection (a reply from another process names it)."""
    site: str = ""
    """The connection's name on the whole site, "process:number" (a process numbers its own
    connections; another process's, relayed to the table's owner, keep their origin's name):
    what a limit counted per connection is keyed by."""
    forward: Callable[[str, int], None] | None = None
    """Set on a connection held by another server process: what would be queued for it
    (a text, or ``""`` with the close code to hang up) is handed to this instead."""


def send(conn: Conn, msg: M.ServerMessage) -> None:
    if not conn.closing:
        put(conn, M.encode(msg))


def put(conn: Conn, text: str) -> None:
    """Queue an encoded message; a connection that does not read its messages is dropped."""
    if conn.closing:
        return
    if conn.forward is not None:
        conn.forward(text, conn.close_code)
        return
    try:
        conn.queue.put_nowait(text)
    except asyncio.QueueFull:
        log.warning("dropping a connection that does not read its messages")
        conn.closing = True
        conn.queue = asyncio.Queue(1)
        conn.queue.put_nowait("")  # wakes the writer, which closes the socket


def hang_up(conn: Conn, code: int) -> None:
    """Close the connection once what was queued for it is sent."""
    if conn.closing:
        return
    conn.close_code = code
    put(conn, "")
    conn.closing = True


def deliver(frames: list[tuple[Conn, str]]) -> None:
    for c, text in frames:
        put(c, text)


def error(conn: Conn, code: str, message: str) -> None:
    send(conn, M.error(code, message))


def seat_gone(conn: Conn, left: bool) -> None:
    """Tell a connection its seat's link opens the seat no more, and close it: its holder left
    the seat (``left``: its computer plays it, free for the next person), or replaced the
    link. Said alike by the table's owner and by every other server process."""
    if left:
        error(conn, "left", "you left this seat: its computer plays it now")
    else:
        error(conn, "link_revoked", "this seat's link was replaced by its holder: it no "
              "longer opens the seat")
    hang_up(conn, 4403)


async def refuse(ws: WebSocket, code: str, message: str, close: int) -> None:
    """Tell a connection why it is not accepted, and close it."""
    await ws.send_text(M.encode(M.error(code, message)))
    await ws.close(close)


async def close(conn: Conn, code: int) -> None:
    conn.closing = True
    with contextlib.suppress(Exception):
        await conn.ws.close(code)


async def writer(conn: Conn) -> None:
    try:
        while True:
            text = await conn.queue.get()
            if conn.closing and not text:
                await conn.ws.close(conn.close_code)
                return
            await conn.ws.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


async def messages(conn: Conn) -> AsyncIterator[S.ClientMessage]:
    """The connection's valid messages, until it closes. A message over the rate, too big or
    not one of ``schemas.ClientMessage`` gets an error event and is dropped; a connection that
    keeps flooding is closed."""
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
            if conn.refused > REFUSED_MAX:
                conn.closing = True
                await ws.close(1008)
                return
            error(conn, "rate_limited", f"too many messages: at most "
                  f"{conn.bucket.rate:g} a second; this one was ignored")
            continue
        size = len(data.encode() if isinstance(data, str) else data)
        if size > S.MESSAGE_MAX_BYTES:
            error(conn, "too_big", f"a message may hold at most "
                  f"{S.MESSAGE_MAX_BYTES} bytes; this one held {size}")
            continue
        try:
            msg = S.decode_client(data)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            error(conn, "bad_message", f"not a valid message: {exc}. Messages are "
                  "JSON objects with a type: act, chat, name, hint, new_link or ping")
            continue
        yield msg
