"""What a client can send before the application sees it: the HTTP and websocket protocols
uvicorn runs for ``euchre serve``, with the bounds a public server needs and uvicorn leaves to a
proxy in front.

- **Headers**: a request's line and headers must arrive within ``ServerConfig.request_timeout``
  seconds of the connection (or of the previous response on a kept-alive one) and fit in
  ``HEADER_MAX_BYTES``; else 408 or 431 and the connection is closed. uvicorn has no such
  bound: a socket that sends half a header and then nothing is held for ever, and httptools
  keeps a header of any length in memory.
- **Bodies**: refused while they stream (``BodyLimit``): a declared ``Content-Length`` over
  ``BODY_MAX_BYTES`` is answered 413 before a byte of it is read, a chunked body once its
  running size passes the bound, and one that does not arrive within the request timeout is
  408. Starlette's ``Request.body()`` would read any size into memory first.
- **Websocket text frames** that are not UTF-8 are closed with 1007 and no log line (uvicorn
  answers them the same but writes a traceback for each one).
- **The server's own faults** while answering (a database that refuses, say) are one log line
  and a JSON 500 (``Faults``); Starlette re-raises them and uvicorn writes a traceback.

Every refusal costs at most one log line (none here; uvicorn's own one line for a request it
cannot parse stays), and never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["BODY_MAX_BYTES", "HEADER_MAX_BYTES", "BodyLimit", "Faults", "guarded_protocols"]

log = logging.getLogger("euchre.web")

#: HTTP request bodies larger than this are refused (a table's options fit in far less).
BODY_MAX_BYTES = 16384
#: A request line and headers larger than this are refused (a browser sends 1-2 KB; nginx's
#: default buffers hold 8 KB a line).
HEADER_MAX_BYTES = 16384

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _answer(status: int, text: str) -> bytes:
    """A whole HTTP response that closes the connection (written before any app runs)."""
    body = text.encode()
    reason = {400: "Bad Request", 408: "Request Timeout", 413: "Content Too Large",
              431: "Request Header Fields Too Large"}[status]
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline and a size bound on each request's headers.

    The deadline runs from the connection (or from the previous response, on a kept-alive
    one) to the end of the headers: a client that connects and sends nothing, or half a
    header, is closed then. uvicorn's keep-alive timer alone is cancelled by any byte."""

    header_seconds = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._await_headers()

    def _await_headers(self) -> None:
        self._header_bytes = 0
        self._in_headers = True
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(self.header_seconds, self._headers_late)

    def _stop_header_timer(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
        self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self._header_bytes:  # an answer for a client that started a request
            self.transport.write(_answer(408, f"the request's headers did not arrive within "
                                              f"{self.header_seconds:g} s"))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self._in_headers:
            super().data_received(data)
            return
        room = HEADER_MAX_BYTES - self._header_bytes
        self._header_bytes += len(data)
        if len(data) <= room:
            super().data_received(data)
            return
        super().data_received(data[:max(room, 0)])  # the headers may end within the bound
        if self._in_headers and not self.transport.is_closing():
            self._stop_header_timer()
            self.transport.write(_answer(431, f"a request's line and headers may hold at most "
                                              f"{HEADER_MAX_BYTES} bytes"))
            self.transport.close()
        elif not self.transport.is_closing() and self.transport.get_protocol() is self:
            super().data_received(data[max(room, 0):])

    def on_headers_complete(self) -> None:
        self._in_headers = False
        self._stop_header_timer()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline and self.cycle is not None \
                and self.cycle.response_complete:
            self._await_headers()  # the next request on this connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol, closing a text message that is not UTF-8 with 1007 and
    no log line (uvicorn logs each one with a traceback)."""

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                bytes(data).decode()
            except UnicodeDecodeError:
                self.frames = []
                log.debug("closed a websocket that sent a text message not in UTF-8")
                self.conn.send_close(1007, "text messages must be UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()


def guarded_protocols(request_timeout: float) -> dict[str, Any]:
    """uvicorn.Config's ``http`` and ``ws`` for a server whose clients have
    ``request_timeout`` seconds to send a request's headers."""
    http = type("GuardedHttp", (GuardedHttp,), {"header_seconds": request_timeout})
    return {"http": http, "ws": GuardedWebSocket}


class BodyLimit:
    """Reads each HTTP request's body before the application does, refusing it while it
    streams: over ``max_bytes`` (declared or counted) is 413, not all there within
    ``seconds`` is 408. The application then reads the body from memory, at most
    ``max_bytes`` of it."""

    def __init__(self, app: ASGIApp, max_bytes: int = BODY_MAX_BYTES,
                 seconds: float = 10.0) -> None:
        self.app, self.max_bytes, self.seconds = app, max_bytes, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and declared.strip().isdigit() \
                and int(declared) > self.max_bytes:
            await self.refuse(send, 413, f"a request body may hold at most {self.max_bytes} "
                                         f"bytes; this one declared {int(declared)}")
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return  # the client left: nobody to answer
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_bytes:
                        await self.refuse(send, 413, f"a request body may hold at most "
                                                     f"{self.max_bytes} bytes")
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await self.refuse(send, 408, f"the request's body did not arrive within "
                                         f"{self.seconds:g} s")
            return
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def refuse(send: Send, status: int, text: str) -> None:
        """A JSON error that closes the connection (the rest of the body is never read)."""
        import json

        body = json.dumps({"error": text}).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class Faults:
    """Outermost: a fault of the application's while it answers a request (the database
    refusing a write, say) is one log line naming the request and the error, and the client
    gets a JSON 500 saying so (a websocket not yet accepted is closed with 1011). Starlette
    answers a bare "Internal Server Error" and re-raises, and uvicorn logs a traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            log.error("could not answer %s %r: %r", scope.get("method", "websocket"),
                      str(scope.get("path", ""))[:200], exc)
            if started:
                return  # part of the answer is gone: the connection ends with it
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1011})
                return
            await BodyLimit.refuse(send, 500, "the server failed while answering that "
                                              "request (its fault, not the request's): try "
                                              "again in a moment")
