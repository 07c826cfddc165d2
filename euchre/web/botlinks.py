"""Bot accounts' programs at the table: their websocket (``/ws/bot``), the bot protocol spoken
over it, and the seats they play.

One schema, two transports. A ``cmd:`` bot is a child process that reads one message a line
(``euchre.bots.protocol``); a bot account's program connects here with its token (an
``Authorization: Bearer`` header) and gets the very same messages, one a websocket frame:
``hello``, then for each game ``new_game``, a ``decide`` at each of its turns (answered by one
``action``), ``hand_end`` and ``game_end``. Every message is built and every answer judged by
the protocol module's functions, so the two transports cannot drift apart; this module adds
the framing, the clock and what a fault costs (the connection, with one line saying why).

**Seats.** A table's seat is given to a bot by its account's name (``{"kind": "bot", "bot":
NAME}``). When it is the seat's turn and no connection of the bot holds it, the table's
owner *calls* the bot (through the processes' bus on a cluster): a process holding an idle
connection of that bot admits it to the seat (one place a seat, counted by the site's limits,
so two processes never both take it) and the connection joins the table as a browser would:
it is a connection at the seat, whose pictures of the table become protocol messages. Where
the operator allows it (``--bots allowed``) an idle connection also asks for a seat itself
(``play_now``, ``join``): the lobby seats the bot as it seats a person (``Lobby.play_now``),
and the connection is put at that seat (a ``seated`` message, then ``new_game``), or is told
why not (``refused``, nothing changed). A
connection plays one game at a time (a new ``new_game`` means a new player); a bot that wants
to play several at once opens several connections (``--bot-connections``).

**What a ``cmd:`` bot is promised holds here too.** The bot sees only its seat's
``SeatView``. Each decision has the move time (``--bot-move-time``); a program that is silent
past it, answers what is not legal, sends what is not JSON, a message over 64 KiB or one nobody
asked for, is told why in one line (an ``error`` message, the server's log) and disconnected.
A seat no connection of its bot holds on its turn (disconnected, faulted, busy elsewhere) is
played by its computer after ``--bot-grace`` seconds, until the bot connects again and takes
it back: a reconnect with the token resumes the seat, with a ``new_game`` and the current
view. A revoked token is cut off at once everywhere (``BotLinks.revoked``).

**Limits, for the whole site** (``euchre.web.limits``): connections open at once per bot,
connections a minute per bot, failed tokens per client address, and the bot's decisions are
paced to ``--bot-rate`` a second (bursts of three times that), all its connections together.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

import euchre.seats
from euchre.bots import protocol as P
from euchre.view import SeatView
from euchre.web import bus as B
from euchre.web import messages as M
from euchre.web import schemas as S
from euchre.web.bots import BotAccount, authenticate, live_tokens
from euchre.web.limits import SEAT, Bucket, LimitError, Limits, Visit, Window
from euchre.web.lobby import Seated, wanted_rules
from euchre.web.players import Player, token_hash
from euchre.web.table import BOT, Seat, Table
from euchre.web.transport import CONN_IDS, Conn, TokenBucket, refuse

if TYPE_CHECKING:
    from euchre.web.actionlog import Database
    from euchre.web.cluster import Cluster
    from euchre.web.lobby import Lobby
    from euchre.web.rooms import Rooms

log = logging.getLogger("euchre.web")

BotsMode = Literal["invited", "allowed", "off"]

#: Close codes: a fault of the program's, a token that opens nothing, bots refused (off, or
#: revoked), a limit.
CLOSE_FAULT, CLOSE_TOKEN, CLOSE_REFUSED, CLOSE_LIMIT = 4400, 4401, 4403, 4429
#: Failed tokens one client address may present in any 10 minutes.
FAILED_TOKENS = 30
TOKEN_WINDOW = 600.0
#: Connections one bot may open in any minute (each is a token check and an admission).
CONNECTS_PER_MINUTE = 30
#: Seconds between looks at whether the tokens of this process's bot connections still stand.
TOKEN_LOOK_SECONDS = 1.0
#: A seat's bot is called at most this often (each of its turns asks again).
CALL_EVERY = 0.25
#: Requests for a seat (Play now, a lobby's table) one bot may make in any minute.
REQUESTS_PER_MINUTE = 30
#: Seconds a connection seated by its request waits for the table to say the seat is its
#: bot's (another process owns the table: its replica hears of it a moment later); then the
#: table's own call for its bot seats it.
ATTACH_WAIT = 2.0


@dataclass(frozen=True)
class BotSettings:
    mode: BotsMode = "invited"
    move_time: float = P.DEFAULT_MOVE_TIME
    connections: int = 4
    rate: float = 10.0
    grace: float = 2.0


class Host(Protocol):
    """What the bot links need of the server (which builds them)."""

    @property
    def db(self) -> Database: ...
    @property
    def rooms(self) -> Rooms: ...
    @property
    def limits(self) -> Limits: ...
    @property
    def cluster(self) -> Cluster | None: ...
    @property
    def lobby(self) -> Lobby: ...

    async def handle(self, conn: Conn, msg: S.ClientMessage) -> None: ...
    async def arrive(self, conn: Conn, seat: Seat | None) -> None: ...
    async def leave(self, conn: Conn, seat: Seat | None) -> None: ...


class Refusal(Exception):
    """A bot's request for a seat that is refused (nothing changed): ``code`` and the
    message say why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


#: The requests' shapes, for a refusal of a malformed one.
PLAY_NOW_SHAPE = '{"type": "play_now", "preset": ..., "rules": {...}} (both optional)'
JOIN_SHAPE = '{"type": "join", "table": ID, "seat": N} (seat optional)'


def request_type(data: str | bytes) -> str | None:
    """The ``type`` of a frame that may be a request (None for what is not a JSON object:
    the protocol's own checks then name what it is)."""
    try:
        message = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    kind = message.get("type") if isinstance(message, dict) else None
    return kind if isinstance(kind, str) else None


class Fault(Exception):
    """The program broke the protocol; the message is the one-line diagnosis."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class BotLink:
    """One connection of a bot's program: its protocol session, and the seat it plays (one
    game at a time)."""

    def __init__(self, hub: BotLinks, ws: WebSocket, bot: BotAccount, token: str,
                 address: str) -> None:
        self.hub, self.ws, self.bot, self.address = hub, ws, bot, address
        self.token = token_hash(token)
        self.place = next(CONN_IDS)
        """The number its place among the bot's connections is admitted under."""
        self.name = "?"
        """The program's own name, from its hello."""
        self.ready = False
        self.conn: Conn | None = None
        """Its seat at a table, while it plays one."""
        self.attaching = False
        self.asked: tuple[int, int, SeatView] | None = None
        """The decision it was asked and has not answered: (its id, the table's seq, view)."""
        self.ids = 0
        self.answered = 0
        """The latest decision it answered (being applied while ``asked`` still holds it)."""
        self.told = 0
        """The table's seq at the last hand end it was told of."""
        self.wake = asyncio.Event()
        self.sending = asyncio.Lock()
        self.closing = False

    def label(self) -> str:
        return f"bot {self.name!r} (online as {self.bot.name})"

    # the table's side -------------------------------------------------------------------

    def forward(self, text: str, code: int) -> None:
        """What the table sends the seat's connection: a picture of the table (look again),
        an error about its move (look again: it is decided anew if still its turn), or ""
        (hang up)."""
        if not text:
            self.hub.spawn(self.close(code, "", ""))
            return
        if text.startswith('{"type":"error"'):
            log.info("%s at table %s: %s", self.label(), self.conn.table.id if self.conn
                     else "-", text[:200])
        self.wake.set()

    async def attach(self, table_id: str, seat: euchre.seats.Seat) -> bool:
        """Take the table's seat (the owner called for it), if this bot holds it and no other
        connection of the bot has it: admitted to the seat's one place."""
        hub = self.hub
        table = await hub.server.rooms.get(table_id)
        if table is None or table.finished or not 0 <= seat < table.n:
            return False
        held = table.seats[seat]
        if held.kind != BOT or held.player != self.bot.id or self.conn is not None \
                or self.closing:
            return False
        conn = Conn(self.ws, table, seat, TokenBucket(1.0, 1.0), forward=self.forward)
        if await hub.server.limits.admit(Visit(conn.id, table.id, seat, self.address, 1)):
            return False  # another connection of the bot has it
        self.conn, self.told, self.asked = conn, table.seq, None
        await self.send(P._ENCODE(P.new_game(seat, None, table.rules, table=table.id)))
        await hub.server.arrive(conn, held)
        self.wake.set()
        return True

    async def detach(self) -> None:
        conn, self.conn = self.conn, None
        self.asked = None
        if conn is None:
            return
        try:
            await self.hub.server.leave(conn, conn.table.seats[conn.seat])
        finally:
            await self.hub.release(conn.id)

    # the program's side -------------------------------------------------------------------

    async def send(self, text: str) -> None:
        async with self.sending:  # one frame at a time: the sender, a new game, a close
            await self.ws.send_text(text)

    async def run(self) -> None:
        """Hello, then answers to decisions until the connection ends."""
        sender = asyncio.create_task(self._sender())
        try:
            await self.send(P._ENCODE(P.host_hello(self.hub.settings.move_time)))
            hello = await self._receive(P.HELLO_TIME, P.HELLO_TIME, lambda: "its hello",
                                        "the hello time")
            if hello is None:
                return
            try:
                name, _ = P.check_hello(P.parse_message(hello, lambda: P.HELLO_EXPECTED))
            except P.ProtocolError as exc:
                raise Fault(str(exc), exc.kind) from None
            self.name = name or self.bot.name
            self.ready = True
            self.hub.idle(self)
            while not self.closing:  # the move time is kept by ``_overdue``
                data = await self._receive(None, 0, self._expected, "")
                if data is None:
                    return
                if request_type(data) in S.BOT_REQUESTS:  # a seat asked for, not an answer
                    await self._request(data)
                else:
                    await self._answer(data)
        except Fault as fault:
            await self.fault(str(fault), fault.kind)
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    # a seat asked for: Play now, or a lobby's table ---------------------------------------------

    async def _request(self, data: str | bytes) -> None:
        """Seat the bot as asked (``play_now``, ``join``) where the operator allows bots: a
        ``seated`` message and its ``new_game``, or a ``refused`` one saying why (nothing
        changed, the connection stays open)."""
        kind = request_type(data)
        try:
            try:
                seated = await self._seat(data)
            except (Refusal, asyncio.CancelledError):
                raise
            except Exception as exc:  # a fault of ours (the database, say): one line
                log.error("could not seat %s (its %s): %r", self.label(), kind, exc)
                raise Refusal("server_error", "the server could not seat the bot now; "
                              "nothing changed: ask again in a moment") from None
        except Refusal as no:
            log.info("%s: its %s was refused: %s", self.label(), kind, no)
            await self.send(P._ENCODE({"type": "refused", "request": kind, "code": no.code,
                                       "message": str(no)}))
            return
        await self.send(P._ENCODE({"type": "seated", "table": seated.table,
                                   "seat": seated.seat, "new": seated.new,
                                   "url": f"/t/{seated.table}"}))
        deadline = time.monotonic() + ATTACH_WAIT
        while not await self.hub._seated(self, seated.table, seated.seat):
            if self.closing or self.conn is not None or time.monotonic() > deadline:
                return  # the table calls its bot when the seat's turn comes
            await asyncio.sleep(0.05)

    async def _seat(self, data: str | bytes) -> Seated:
        hub, server = self.hub, self.hub.server
        most = hub.settings.connections
        if hub.settings.mode != "allowed":
            raise Refusal("bots_invited", "this server seats a bot only where a table's "
                          "creator invites it by name, not through the lobby or Play now "
                          "(its operator's choice: euchre serve --bots allowed would)")
        if self.conn is not None and self.conn.table.finished:
            await self.detach()  # its game_end is sent: asked at once, it is free to play
        if self.conn is not None or self.attaching:
            where = self.conn.table.id if self.conn is not None else "a table"
            raise Refusal("busy", f"this connection plays {where} now: a connection plays "
                          f"one game at a time; ask after its game_end, or open another "
                          f"connection (at most {most})")
        try:
            req = S.decode_bot_request(data)
            rules = wanted_rules(S.PlayNow(req.preset, req.rules)) \
                if isinstance(req, S.BotPlayNow) else None
        except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as exc:
            raise Refusal("bad_request", f"{exc}; a request is {PLAY_NOW_SHAPE} or "
                          f"{JOIN_SHAPE}") from None
        if await server.limits.take((f"bot_requests:{self.bot.id}",
                                     Window(REQUESTS_PER_MINUTE, 60.0))) is not None:
            raise Refusal("bot_requests", f"this bot asked for a seat {REQUESTS_PER_MINUTE} "
                          "times in the last minute, the most one bot may: wait a minute")
        # one request of a bot at a time on the whole site: its count of seats is then exact
        place = next(CONN_IDS)
        if await server.limits.admit(Visit(place, f"bot_seating:{self.bot.id}", 0,
                                           self.address, 1)):
            raise Refusal("busy", "another connection of this bot is being seated now: ask "
                          "again in a moment")
        self.attaching = True
        try:
            held = await server.db.run(lambda store: store.bot_seats(self.bot.id))
            if held >= most:
                raise Refusal("bot_seats", f"this bot holds {held} seats at open tables, the "
                              f"most one bot may (as many as its connections, {most}); a "
                              "seat it left is its own for a while, to come back to")
            player = Player(self.bot.id, self.bot.name, BOT)
            try:
                if isinstance(req, S.BotPlayNow):
                    return await server.lobby.play_now(rules, player, self.address)
                seated = await server.lobby.join(req.table, player, seat=req.seat,
                                                  strict=True)
                assert seated is not None
                return seated
            except PermissionError as exc:
                raise Refusal("no_bots", str(exc)) from None
            except LookupError as exc:
                raise Refusal("no_seat", str(exc)) from None
            except LimitError as exc:
                raise Refusal(exc.code, str(exc)) from None
            except ValueError as exc:
                raise Refusal("bad_request", str(exc)) from None
        finally:
            self.attaching = False
            await hub.release(place)

    def _expected(self) -> str:
        asked = self.asked
        return P.expected_answer(asked[2]) if asked is not None \
            else "nothing until the next decide"

    async def _receive(self, timeout: float | None, allowed: float,
                       expecting: Callable[[], str], limit: str) -> str | bytes | None:
        """The next frame, None once the connection is gone; ``Fault`` past ``timeout`` (the
        rest of ``allowed`` seconds, called ``limit``)."""
        try:
            async with asyncio.timeout(timeout):
                raw = await self.ws.receive()
        except TimeoutError:
            raise Fault(f"sent nothing for {allowed:g} s ({limit}); expected {expecting()}",
                        "timeout") from None
        except (WebSocketDisconnect, RuntimeError):
            return None
        if raw["type"] == "websocket.disconnect":
            self._gone(raw.get("code", 1005), expecting)
            return None
        data: str | bytes | None = raw.get("text")
        if data is None:
            data = raw.get("bytes") or b""
        return data

    def _gone(self, code: int, expecting: Callable[[], str]) -> None:
        if self.closing:
            return
        self.closing = True
        if code == 1009:  # the websocket layer closed it: a frame over its 64 KiB
            log.warning("%s flooded its connection: a message over %d bytes; disconnected",
                        self.label(), P.MAX_LINE)
        elif self.asked is not None:
            log.warning("%s closed its connection (%s) while the host waited for %s; its seat "
                        "at table %s is its computer's until it is back", self.label(), code,
                        expecting(), self.conn.table.id if self.conn else "-")

    async def _answer(self, data: str | bytes) -> None:
        asked = self.asked
        if asked is None:
            raise Fault(f"sent {P._shown(data)} when no decision was asked; expected nothing "
                        "until the next decide", "protocol")
        decision, seq, view = asked
        try:
            message = P.parse_message(data, lambda: P.expected_answer(view))
            action, _ = P.check_answer(message, decision, view)
        except P.ProtocolError as exc:
            raise Fault(str(exc), exc.kind) from None
        # Asked until its action is applied: were it cleared first, the sender (woken by the
        # table meanwhile) would see the same turn unanswered and ask the same decision again.
        self.answered = decision
        conn = self.conn
        try:
            if conn is not None and conn.table.seq == seq:  # else the table moved on: dropped
                await self.hub.server.handle(conn, S.Act(action, seq))
        finally:
            self.asked = None
        self.wake.set()

    async def _sender(self) -> None:
        """Tells the program what happened at its table, and asks it to decide when it is its
        seat's turn: at most one decision at a time, paced to the bot's rate."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            conn = self.conn
            if conn is None or self.closing:
                continue
            table, seat = conn.table, conn.seat
            paced = self._turn(table, seat)
            if paced:
                await self.hub.pace(self.bot.id)
            out: list[str] = []
            async with self.hub.server.rooms.locks[table.id]:  # what it is told is committed
                if self.conn is not conn:
                    continue
                for seq, hand, scores in table.ended:
                    if seq > self.told:
                        out.append(P._ENCODE(P.hand_end(hand.view(seat, scores))))
                        self.told = seq
                if table.finished:
                    winner = table.match.winner
                    out.append(P._ENCODE(P.game_end(table.match.scores, winner)))
                elif self._turn(table, seat) and not paced:
                    self.wake.set()  # its turn came while it was not paced: pace it first
                elif self._turn(table, seat):
                    self.ids += 1
                    self.asked = (self.ids, table.seq, table.view(seat))
                    out.append(P.decide_line(self.ids, self.asked[2]))
            for text in out:
                await self.send(text)
            if self.asked is not None and self.asked[0] == self.ids and out \
                    and out[-1].startswith('{"type":"decide"'):
                asyncio.get_running_loop().call_later(self.hub.settings.move_time,
                                                      self._overdue, self.ids)
            if table.finished:
                await self.detach()
                if not self.closing:
                    self.hub.idle(self)

    def _overdue(self, decision: int) -> None:
        """The move time of decision ``decision`` is up: if it is still unanswered, the
        program is silent past its time."""
        if self.asked is None or self.asked[0] != decision or self.answered == decision \
                or self.closing:
            return
        self.closing = True  # its connection's end is this fault's, not a disconnect
        self.hub.spawn(self.fault(f"sent nothing for {self.hub.settings.move_time:g} s (the "
                                  f"move time); expected {self._expected()}", "timeout"))

    def _turn(self, table: Table, seat: euchre.seats.Seat) -> bool:
        """Its seat's turn, played by the bot (not by its computer: at an open table a seat
        taken during a hand is the computer's to the end of that hand)."""
        return (self.asked is None and not table.finished and table.started
                and table.match.current_player == seat
                and not table.seats[seat].computer_plays)

    async def fault(self, diagnosis: str, kind: str) -> None:
        text = f"{self.label()} {diagnosis}; disconnected"
        log.warning("%s", text)
        await self.close(CLOSE_FAULT, "fault", text)

    async def close(self, code: int, error: str, message: str) -> None:
        """Tell the program why (``error``: a code, "" for nothing to say) and hang up."""
        self.closing = True
        with contextlib.suppress(Exception):
            if error:
                await self.ws.send_text(M.encode(M.error(error, message)))
            await self.ws.close(code)


class BotLinks:
    """Every bot connection of this process, and the calls that seat them."""

    def __init__(self, server: Host, settings: BotSettings) -> None:
        self.server, self.settings = server, settings
        self.links: dict[int, list[BotLink]] = {}
        self.called: dict[tuple[str, int], float] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.looker: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.looker = asyncio.create_task(self._look_every())

    async def stop(self, code: int) -> None:
        if self.looker is not None:
            self.looker.cancel()
        for links in list(self.links.values()):
            for link in list(links):
                await link.close(code, "", "")

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # a connection's life --------------------------------------------------------------------

    async def websocket(self, ws: WebSocket) -> None:
        await ws.accept()
        address = ws.client.host if ws.client else ""
        if self.settings.mode == "off":
            await refuse(ws, "no_bots", "this server takes no bots", CLOSE_REFUSED)
            return
        scheme, _, token = ws.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            await refuse(ws, "no_token", "a bot connects with its token in an "
                         "'Authorization: Bearer TOKEN' header", CLOSE_TOKEN)
            return
        try:
            bot = await self._admit(ws, token.strip(), address)
        except LimitError as exc:
            await refuse(ws, exc.code, str(exc), CLOSE_LIMIT)
            return
        except Exception as exc:  # the database: one log line, and the bot hears of it
            log.error("could not check a bot's token: %r", exc)
            await refuse(ws, "server_error", "the server could not check the token now; try "
                         "again in a moment", 1011)
            return
        if bot is None:
            await refuse(ws, "bad_token", "that token opens no bot: it was revoked, replaced "
                         "by a new one, or mistyped", CLOSE_TOKEN)
            return
        link = BotLink(self, ws, bot, token.strip(), address)
        refused = await self.server.limits.admit(
            Visit(link.place, f"bot:{bot.id}", 0, address, self.settings.connections))
        if refused == SEAT:
            await refuse(ws, "bot_connections", f"this bot already has "
                         f"{self.settings.connections} connections open, the most one bot may "
                         "have: close one of them", CLOSE_LIMIT)
            return
        self.links.setdefault(bot.id, []).append(link)
        try:
            await link.run()
        finally:
            link.closing = True
            mine = self.links.get(bot.id, [])
            if link in mine:
                mine.remove(link)
            if not mine:
                self.links.pop(bot.id, None)
            try:
                await link.detach()
            finally:
                await self.release(link.place)

    async def _admit(self, ws: WebSocket, token: str, address: str) -> BotAccount | None:
        """The bot the token opens, counting a failed token against the address and a
        connection against the bot (``LimitError``)."""
        limits = self.server.limits
        failed = (f"bot_tokens:{address}", Window(FAILED_TOKENS, TOKEN_WINDOW))
        if await limits.take(failed) is not None:
            raise LimitError("bad_tokens", f"too many tokens that open no bot from your "
                             f"address: at most {FAILED_TOKENS} in "
                             f"{round(TOKEN_WINDOW / 60)} minutes; try again later")
        bot = await self.server.db.run(lambda store: authenticate(store, token))
        if bot is None:
            return None
        await limits.refund(*failed)
        if await limits.take((f"bot_connects:{bot.id}",
                              Window(CONNECTS_PER_MINUTE, 60.0))) is not None:
            raise LimitError("bot_connects", f"this bot connected {CONNECTS_PER_MINUTE} times "
                             "in the last minute, the most one bot may: wait a minute")
        return bot

    async def release(self, place: int) -> None:
        try:
            await self.server.limits.release(place)
        except Exception as exc:  # its row goes with this process at the latest
            log.error("could not give back a bot connection's place: %r", exc)

    async def pace(self, bot: int) -> None:
        """Wait for the bot's next decision to be within its rate (all its connections
        together, on the whole site)."""
        rate = self.settings.rate
        while await self.server.limits.take((f"bot_moves:{bot}",
                                             Bucket(rate, 3 * rate))) is not None:
            await asyncio.sleep(1 / rate)

    # seats --------------------------------------------------------------------------------

    def call(self, table: Table, seat: Seat) -> None:
        """The table (owned here) needs its bot at ``seat``: ask every process holding an idle
        connection of the bot to bring one (at most every ``CALL_EVERY`` seconds a seat)."""
        if self.settings.mode == "off" or seat.player is None:
            return
        key = (table.id, seat.seat)
        now = time.monotonic()
        if now - self.called.get(key, 0.0) < CALL_EVERY:
            return
        self.called[key] = now
        if len(self.called) > 10000:
            self.called = {k: t for k, t in self.called.items() if now - t < CALL_EVERY}
        msg = B.BotCalled(seat.player, table.id, seat.seat)
        if self.server.cluster is not None:
            self.server.cluster.publish_all(msg)
        else:
            self.hear(msg)

    def hear(self, msg: B.BotMessage) -> None:
        """A call, a bot's connection free to play, or a revoked token (from any process)."""
        bot = msg.bot
        if isinstance(msg, B.BotCalled):
            link = next((x for x in self.links.get(bot, ()) if x.ready and x.conn is None
                         and not x.attaching and not x.closing), None)
            if link is not None:
                self.spawn(self._attach(link, msg.table, msg.seat))
        elif isinstance(msg, B.BotFree):
            rooms = self.server.rooms
            for table in list(rooms.tables.values()):
                if table.finished or not rooms.owns(table.id):
                    continue
                for seat in table.seats:
                    if seat.kind == BOT and seat.player == bot and seat.present == 0:
                        self.called.pop((table.id, seat.seat), None)
                        self.call(table, seat)
        else:
            for link in list(self.links.get(bot, ())):
                self.spawn(self._revoke(link))

    async def _seated(self, link: BotLink, table_id: str, seat: euchre.seats.Seat) -> bool:
        """Put the connection that asked for it at the seat its request gave the bot."""
        if link.conn is not None or link.attaching or link.closing:
            return link.conn is not None and link.conn.table.id == table_id
        link.attaching = True
        try:
            return await link.attach(table_id, seat)
        finally:
            link.attaching = False

    async def _attach(self, link: BotLink, table_id: str, seat: euchre.seats.Seat) -> None:
        link.attaching = True
        try:
            await link.attach(table_id, seat)
        except Exception as exc:  # a fault of ours: one line; the seat's computer plays
            log.error("could not seat a bot at table %s: %r", table_id, exc)
        finally:
            link.attaching = False

    def idle(self, link: BotLink) -> None:
        """A connection is free to play: the tables waiting for its bot call it."""
        msg = B.BotFree(link.bot.id)
        if self.server.cluster is not None:
            self.server.cluster.publish_all(msg)
        else:
            self.hear(msg)

    # revocation ---------------------------------------------------------------------------

    def revoked(self, bot: int) -> None:
        """The bot's token changed here: its connections here go now (the other processes
        hear it from the change's own transaction, ``bots.replace_token``)."""
        self.hear(B.Revoked(bot))

    async def _revoke(self, link: BotLink) -> None:
        if link.closing:
            return
        log.info("%s: its token was revoked; disconnected", link.label())
        await link.close(CLOSE_REFUSED, "revoked", "this bot's token was revoked or replaced: "
                         "it opens nothing now")

    async def _look_every(self) -> None:
        while True:
            await asyncio.sleep(TOKEN_LOOK_SECONDS)
            try:
                await self.look()
            except Exception as exc:
                log.error("could not look at the bots' tokens: %r", exc)

    async def look(self) -> None:
        """Cut off the connections whose token no longer stands (revoked or replaced
        elsewhere: by ``euchre bots`` beside a running server, say)."""
        links = [x for links in self.links.values() for x in links if not x.closing]
        if not links:
            return
        hashes = sorted({x.token for x in links})
        live = await self.server.db.run(lambda store: live_tokens(store, hashes))
        for link in links:
            if link.token not in live:
                await self._revoke(link)
