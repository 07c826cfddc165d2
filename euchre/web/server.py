"""The table server: its parts put together, and one websocket's life from its first frame to
its last.

A slow computer player at one table delays no other table: the search level (and any level not
known to be quick) thinks in a worker pool (processes by default), never on the event loop
(``euchre.web.runner``). Each part has one job: ``rooms`` (the live tables and what each
connection is sent), ``moves`` (acts, commits, computer turns), ``actionlog`` (the group
commit), ``away`` (stand-ins for absent people), ``chat``, ``hints`` and ``transport`` (the
websocket's reader, writer and limits).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket

from euchre.rules import rules_summary
from euchre.web import messages as M
from euchre.web import ratings
from euchre.web import schemas as S
from euchre.web.accounts import Accounts, SignInLimits, same_site
from euchre.web.actionlog import ActionLog, Database
from euchre.web.botlinks import BotLinks, BotSettings
from euchre.web.chat import TableTalk
from euchre.web.collector import FullPasses
from euchre.web.config import ServerConfig
from euchre.web.hints import Hints
from euchre.web.levels import offered_levels, strongest_level
from euchre.web.limits import (
    CreationLimits,
    LimitError,
    Limits,
    LocalLimits,
    Places,
    SharedLimits,
    Visit,
)
from euchre.web.lobby import Lobby
from euchre.web.moves import Moves
from euchre.web.peers import ALONE
from euchre.web.players import Player
from euchre.web.results import GameResult, computer_players, game_result, write_results
from euchre.web.reviews import Reviews
from euchre.web.rooms import Rooms
from euchre.web.runner import BotRunner, make_pool
from euchre.web.store import LostTable, Store
from euchre.web.table import SPECTATOR, Seat, Table
from euchre.web.transport import (
    Conn,
    TokenBucket,
    close,
    error,
    messages,
    refuse,
    send,
    writer,
)

if TYPE_CHECKING:
    from euchre.web.cluster import Cluster

#: Messages a connection to a table another process owns hands to that owner.
RELAYED = (S.Act, S.Chat, S.Name, S.Hint, S.NewLink, S.Start, S.PlayAgain, S.Back, S.Leave,
           S.BotsHere)

log = logging.getLogger("euchre.web")

#: How far below the server and the computer players the review workers run: a review uses
#: what CPU the players leave.
REVIEW_NICE = 10
#: How often every process looks for finished games whose results are unwritten, and how long
#: after a game ended they count as forgotten (its owner writes them within milliseconds).
RESULTS_LOOK_SECONDS = 5.0
RESULTS_GRACE_SECONDS = 10.0


class Server:
    """Live tables, their connections, the database and the computer players."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.db = Database()
        self.cluster: Cluster | None = None
        """This process's part in a group of processes sharing the database, if any: built
        first, as the other processes the parts built next are given (their ``Peers``)."""
        if config.cluster:
            from euchre.web.cluster import Cluster

            self.cluster = Cluster(self, config.db_url)
        self.rooms = Rooms(self.db, self.cluster if self.cluster is not None else ALONE)
        self.hint_level = config.hint_level or strongest_level()
        self.bots: BotRunner | None = None
        self.moves: Moves | None = None
        self.hints: Hints | None = None
        self._reviews: Reviews | None = None
        self.limits: Limits = LocalLimits(Places(config.seat_connections,
                                                 config.table_spectators,
                                                 config.address_spectators))
        """The site's limits: in this process's memory, or shared through PostgreSQL by the
        processes of a cluster (``start``)."""
        self.talk = TableTalk(self.rooms, self.limits, config.chat_rate)
        self.creations = CreationLimits(self.limits, config.client_tables_per_minute,
                                        config.tables_per_minute)
        self.lobby = Lobby(self)
        """The open tables of the whole site, and Play now (``lobby.play_now`` seats a
        player)."""
        self.full_passes = FullPasses()
        """The garbage collector's full passes (timed by the server, with ``freeze_gc``)."""
        self.accounts = Accounts(self.db, config.accounts, SignInLimits(
            self.limits, config.account_signins, config.address_signins))
        self.accounts.renamed = self.rooms.rename_player
        self.writing: set[asyncio.Task[None]] = set()
        """Games' results being written."""
        self.results_look: asyncio.Task[None] | None = None
        """The look for games whose results nobody wrote (``write_unwritten_results``)."""
        self.bot_links = BotLinks(self, BotSettings(
            config.bots, config.bot_move_time, config.bot_connections, config.bot_rate,
            config.bot_grace))
        """Bot accounts' programs, connected over their websocket (``/ws/bot``)."""
        self.rooms.bots_allowed = config.bots != "off"
        self.rooms.away_timeout = config.away_timeout

    @property
    def tables(self) -> dict[str, Table]:
        return self.rooms.tables

    @property
    def store(self) -> Store | None:
        return self.db.store

    @property
    def reviews(self) -> Reviews:
        assert self._reviews is not None, "the server has not started"
        return self._reviews

    @property
    def inline_levels(self) -> set[str]:
        assert self.bots is not None
        return self.bots.inline_levels

    async def start(self) -> None:
        cfg = self.config
        if self.cluster is None:
            await self.db.open(cfg.db_url)
        else:
            from euchre.web.bus import BUS
            from euchre.web.cluster import LOCK_SPACE
            from euchre.web.store import libpq_url

            await self.db.open(cfg.db_url, self.cluster.id, BUS)
            self.limits = SharedLimits(self.limits.places, libpq_url(cfg.db_url),
                                       self.cluster.id, LOCK_SPACE)
            self.talk.limits = self.creations.limits = self.limits
            self.accounts.signins.limits = self.limits
        await self.limits.start()
        self.bots = BotRunner(cfg.bot_factory, cfg.inline_levels,
                              make_pool(cfg.pool, cfg.workers, "euchre-bot"))
        log_writer = ActionLog(self.db)
        log_writer.start()
        self.moves = Moves(self.rooms, log_writer, self.bots, cfg.bot_grace, cfg.leave_grace)
        self.moves.game_over = self.game_over
        self.moves.call_bot = self.bot_links.call
        self.bot_links.start()
        self.hints = Hints(self.rooms, self.bots, self.hint_level, cfg.bot_factory,
                           make_pool(cfg.pool, cfg.hint_workers, "euchre-hint"),
                           cfg.hint_workers, self.limits, cfg.hint_rate)
        self._reviews = Reviews(make_pool(cfg.pool, cfg.review_workers, "euchre-review",
                                          nice=REVIEW_NICE),
                                cfg.reviews_at_once, cfg.reviews_waiting)
        if cfg.pool == "process":
            self._reviews.warm(cfg.review_workers)
        self.moves.start()
        # the rated computer levels are on the leaderboard from the start, at their calibrated
        # ratings
        await self.db.run(lambda store: computer_players(store, ratings.rated_computers()))
        await self.write_unwritten_results()
        self.results_look = asyncio.create_task(self._write_unwritten_every())
        before = time.time() - cfg.abandon_days * 86400
        closed = await self.db.run(lambda store: store.close_abandoned(before))
        if closed:
            log.info("closed and archived %d table(s) without a move for %.0f days",
                     len(closed), cfg.abandon_days)
        if self.cluster is not None:
            await self.cluster.start()
            # the unfinished tables without a live owner: this process's share, now (the
            # others take theirs in their own scans)
            await self.cluster.scan()
            if cfg.freeze_gc:
                self.full_passes.start()
            return
        rows = await self.db.run(lambda store: store.load_unfinished())
        for data in rows:
            self.rooms.add(Table(data))
        for table in list(self.rooms.tables.values()):
            self.moves.schedule(table)
        log.info("resumed %d unfinished table(s)", len(rows))
        if cfg.freeze_gc:
            self.full_passes.start()

    async def stop(self) -> None:
        if self.results_look is not None:
            self.results_look.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.results_look
        if self.cluster is not None:
            # first let the tables go, so the others serve them while this one stops (a
            # write of this process's from now on is refused), then close with "service
            # restart": the browsers reconnect, to another process
            await self.cluster.release_all()
        if self.moves is not None:
            self.moves.halt()
            await self.moves.log.stop()
        for conns in self.rooms.conns.values():
            for c in list(conns):
                await close(c, 1001 if self.cluster is None else 1012)
        await self.bot_links.stop(1001 if self.cluster is None else 1012)
        if self.cluster is not None:
            await self.cluster.stop()
        if self.bots is not None:
            self.bots.stop()
        if self.hints is not None:
            self.hints.stop()
        if self._reviews is not None:
            self._reviews.stop()
        self.accounts.stop()
        if self.moves is not None:
            await self.moves.away.flush_left()
        await self.limits.stop()
        await self.db.close()
        await self.full_passes.stop()

    async def create_table(self, req: S.CreateTable, client: str = "",
                           player: Player | None = None) -> dict[str, object]:
        """A new table (``client``: the creator's address, for the creation limits;
        ``player``: the signed-in creator, whose seat it is)."""
        assert self.moves is not None
        await self.creations.take(client)
        table, my_seat = await self.rooms.create(req, self.config.computer_tables, player)
        self.opened(table)
        out: dict[str, object] = {"id": table.id, "url": f"/t/{table.id}",
                                  "invite_url": f"/t/{table.id}#invite={table.invite}",
                                  "watch_url": f"/t/{table.id}", "seat": my_seat,
                                  "rated": table.rated}
        if my_seat >= 0:
            token = table.seats[my_seat].token
            out["token"] = token
            out["url"] = f"/t/{table.id}#token={token}"
        return out

    def opened(self, table: Table) -> None:
        """A table this process just made: it owns it (its owners row came with it), and the
        lobby lists it at the next look (Play now's table, and Play again's after an open
        game, which the lobby missed for up to a second)."""
        assert self.moves is not None
        if self.cluster is not None:
            self.cluster.owned.add(table.id)
        self.moves.schedule(table)
        if table.public:
            self.lobby.stale()

    async def play_again(self, conn: Conn) -> None:
        """A player at a finished table asks for another game with the same seats: one new
        table per finished one (in the site's creation limits), and every connection there
        is sent its own seat's link to it (``State.again``)."""
        assert self.moves is not None
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "only a player at the table can ask to play again")
            return
        if not table.finished:
            error(conn, "not_over", "the game is still being played: play again once it is "
                  "over")
            return
        async with self.rooms.locks[table.id]:
            if table.next_table is None:
                try:
                    await self.creations.take(f"again:{table.id}")
                except LimitError as exc:
                    error(conn, exc.code, str(exc))
                    return
                self.opened(await self.rooms.again(table))
            self.rooms.broadcast_locked(table)

    # a game's end -------------------------------------------------------------------------

    def game_over(self, table: Table) -> None:
        """The game just ended (its last action committed): its results, and ratings if it
        is rated, are written now, in the background."""
        game = game_result(table)
        if game is not None:
            task = asyncio.create_task(self._write_results(game.table_id, game))
            self.writing.add(task)  # kept until done (the loop holds tasks weakly)
            task.add_done_callback(self.writing.discard)

    async def _write_results(self, table_id: str, game: GameResult) -> None:
        try:
            await self.db.run(lambda store: write_results(store, game))
        except Exception as exc:  # written by the next look for unwritten results instead
            log.error("could not write the results of table %s: %r", table_id, exc)

    async def _write_unwritten_every(self) -> None:
        while True:
            await asyncio.sleep(RESULTS_LOOK_SECONDS)
            try:
                await self.write_unwritten_results(time.time() - RESULTS_GRACE_SECONDS)
            except Exception as exc:
                log.error("could not look for games whose results are unwritten: %r", exc)

    async def write_unwritten_results(self, ended_before: float | None = None) -> None:
        """The results of games whose last action was committed but whose results never
        were: the process that ended them stopped (or was killed) first, or the write
        failed. Every process looks for them, at its start and every
        ``RESULTS_LOOK_SECONDS`` for games that ended ``RESULTS_GRACE_SECONDS`` ago (their
        owner, if alive, has written them by then); results are written once whoever finds
        them first (``results.write_results`` claims the game)."""
        for table_id in await self.db.run(
                lambda store: store.results_unwritten(ended_before)):
            data = await self.db.run(functools.partial(Store.load_table, table_id=table_id))
            if data is None:
                continue
            game = game_result(Table(data))
            if game is not None:
                await self._write_results(table_id, game)

    # the websocket --------------------------------------------------------------------------

    async def websocket(self, ws: WebSocket) -> None:
        await ws.accept()
        if not same_site(ws):  # another site's page would ride this browser's cookie
            await refuse(ws, "other_site", "connections from another site's pages are "
                         "refused", 4403)
            return
        table = await self.rooms.get(ws.path_params["table_id"])
        if table is None:
            await refuse(ws, "no_table", "there is no table with that address", 4404)
            return
        seat: Seat | None = None
        token = ws.query_params.get("token", "")
        session = await self.accounts.session(ws)
        me = session.player.ids if session is not None else frozenset()
        if token:
            seat = table.seat_by_token(token)
            if seat is None:
                await refuse(ws, "bad_token", "that seat link is not valid for this table", 4403)
                return
            if seat.player is not None and seat.player not in me:
                await refuse(ws, "not_your_seat", f"this seat is {seat.name}'s: only "
                             f"{seat.name}, signed in, can play it", 4403)
                return
        elif me:
            seat = table.seat_of(me)  # a player's own seat, from any browser they use
        conn = Conn(ws, table, seat.seat if seat else SPECTATOR,
                    TokenBucket(self.config.rate, self.config.burst))
        conn.site = f"{self.cluster.id if self.cluster is not None else 0}:{conn.id}"
        address = ws.client.host if ws.client else ""
        try:
            refused = await self.limits.admit(Visit(conn.id, table.id, conn.seat, address))
        except Exception as exc:  # the database: the person hears of it, one log line
            log.error("could not count a connection to table %s against the limits: %r",
                      table.id, exc)
            await refuse(ws, "server_error", "the server could not take the connection now; "
                         "try again in a moment", 1011)
            return
        if refused is not None:  # a seat's places are its own: spectators never take them
            err = self.limits.refusal(refused)
            await refuse(ws, err.code, str(err), 4429)
            return
        try:
            out = asyncio.create_task(writer(conn))
            await self.arrive(conn, seat)
            try:
                await self._serve(conn)
            finally:
                await self.leave(conn, seat)
                conn.closing = True
                out.cancel()
        finally:
            try:
                await self.limits.release(conn.id)
            except Exception as exc:  # its row is dropped with this process at the latest
                log.error("could not give back the place of a connection to table %s: %r",
                          table.id, exc)

    async def arrive(self, conn: Conn, seat: Seat | None) -> None:
        """A connection takes its place at its table (a browser's, or a bot's program)."""
        assert self.moves is not None
        table = conn.table
        async with self.rooms.locks[table.id]:
            self.rooms.conns[table.id].add(conn)
            table.watched_here = len(self.rooms.conns[table.id])
            if seat is not None:
                seat.connections += 1
                table.back(seat)
            self.rooms.maybe_start(table)  # the last person's page is here: deal
            send(conn, M.Welcome(conn.seat, table.id, table.chat, offered_levels(),
                                 self.hint_level, rules_summary(table.rules)))
            if seat is not None and seat.covered:  # what the stand-in did, told once
                send(conn, M.Covered(seat.level, seat.covered[-M.COVERED_MAX:],
                                     max(0, len(seat.covered) - M.COVERED_MAX)))
                seat.covered = []
            self.rooms.broadcast_locked(table)
        if seat is not None:
            self.moves.away.note_left(table, seat, None)
        self.moves.schedule(table)
        if self.cluster is not None:
            self.cluster.report(table)

    async def leave(self, conn: Conn, seat: Seat | None) -> None:
        assert self.moves is not None
        table = conn.table
        self.rooms.conns[table.id].discard(conn)
        table.watched_here = len(self.rooms.conns[table.id])
        if self.hints is not None:
            self.hints.forget(conn)
        if self.cluster is not None:
            self.cluster.report(table)
        if seat is None:
            return
        seat.connections -= 1
        if seat.present == 0:
            seat.away_since = time.monotonic()
            if not conn.server_closed:
                self.moves.away.note_left(table, seat, time.time())
                self.moves.left(table, seat)
        if not table.finished:
            await self.rooms.broadcast(table)
        self.moves.schedule(table)

    async def _serve(self, conn: Conn) -> None:
        async for msg in messages(conn):
            try:
                await self.handle(conn, msg)
            except Exception as exc:  # a fault of ours: the person hears of it, the socket lives
                log.error("could not handle a %s message at table %s: %r",
                          type(msg).__name__, conn.table.id, exc)
                error(conn, "server_error", "the server could not handle that message; "
                      "nothing changed")

    async def handle(self, conn: Conn, msg: S.ClientMessage) -> None:
        """One valid message of a connection (here, or relayed by another process)."""
        cluster = self.cluster
        if cluster is not None and isinstance(msg, RELAYED) \
                and not cluster.owns(conn.table.id) and await cluster.relay(conn, msg):
            return
        try:
            await self._handle_here(conn, msg)
        except LostTable:
            # its write was refused (taken over just then; nothing changed): a replica now,
            # so the message goes on to the new owner, as if it had arrived after the move
            if cluster is None:
                raise
            cluster.lost(conn.table)
            if not await cluster.relay(conn, msg):
                error(conn, "moved", "this table is moving to another server process: "
                      "nothing changed; try again in a moment")

    async def _handle_here(self, conn: Conn, msg: S.ClientMessage) -> None:
        """A message for a table this process owns (or for no table at all: a ping)."""
        assert self.moves is not None and self.hints is not None
        if isinstance(msg, S.Act):
            await self.moves.act(conn, msg)
        elif isinstance(msg, S.Chat):
            await self.talk.chat(conn, msg)
        elif isinstance(msg, S.Name):
            await self.talk.rename(conn, msg)
        elif isinstance(msg, S.Hint):
            await self.hints.ask(conn)
        elif isinstance(msg, S.NewLink):
            await self.rooms.replace_link(conn)
        elif isinstance(msg, S.Start):
            if await self.rooms.start(conn):
                self.moves.schedule(conn.table)
        elif isinstance(msg, S.PlayAgain):
            await self.play_again(conn)
        elif isinstance(msg, S.Back):
            await self.moves.back(conn)
        elif isinstance(msg, S.Leave):
            await self.moves.leave(conn)
        elif isinstance(msg, S.BotsHere):
            await self.rooms.set_bots(conn, msg.allowed)
        else:
            send(conn, M.Pong())
