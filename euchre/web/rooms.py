"""The live tables: creating and joining them, their locks and connections, and sending each
connection its own picture of a table."""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from euchre.errors import RulesError
from euchre.rules import PRESETS, Rules
from euchre.seats import Seat
from euchre.state import seat_name
from euchre.web import messages as M
from euchre.web import schemas as S
from euchre.web.actionlog import Database
from euchre.web.levels import accepted_level, accepted_levels, default_level, offered_levels
from euchre.web.names import computer_name, name_key, name_refusal
from euchre.web.peers import ALONE, Peers
from euchre.web.players import Player
from euchre.web.store import LostTable, SeatData, Stint, Store, TableData, opening_stints
from euchre.web.table import BOT, HUMAN, PLAYER_KINDS, SPECTATOR, Table
from euchre.web.table import Seat as TableSeat
from euchre.web.transport import Conn, deliver, error, seat_gone, send

if TYPE_CHECKING:
    from euchre.web.bots import BotAccount

#: Table ids are this long; a longer one in an address is no table (and no database read).
TABLE_ID_MAX = 32

log = logging.getLogger("euchre.web")


def new_table_seed() -> int:
    """The seed a new table deals from and its computers decide by: random, and never a
    client's to choose (whoever chose it could work out every hidden hand). One function, so a
    test can replay one table's game, move for move, at another."""
    return secrets.randbits(63)


def new_table_id() -> str:
    """A new table's id: random, and never beginning with ``-``, because people pass it on a
    command line (``euchre connect --table ID``), where an argument beginning with ``-`` reads
    as an option (one id in 64 did)."""
    while True:
        table_id = secrets.token_urlsafe(9)
        if not table_id.startswith("-"):
            return table_id


class Rooms:
    """Every live table with its lock and connections. Callers hold a table's lock around each
    change of it."""

    def __init__(self, db: Database, peers: Peers = ALONE) -> None:
        self.db = db
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, set[Conn]] = {}
        self.peers = peers
        """The other server processes sharing the database (``euchre.web.cluster``), if any:
        one process owns (writes) each table and the others keep replicas."""
        self.bots_allowed = True
        """Whether a table may seat a bot account (``euchre serve --bots``)."""
        self.away_timeout: float | None = None
        """Seconds a person's seat may be empty on its turn before its computer plays it
        (``euchre serve --away-timeout``): every table this process keeps is given it."""

    def owns(self, table_id: str) -> bool:
        """Whether this process writes the table's log (else it keeps a replica)."""
        return self.peers.owns(table_id)

    def watched(self, table: Table) -> bool:
        """Whether anyone is connected to the table, in any server process."""
        return bool(self.conns.get(table.id)) or table.elsewhere > 0

    def add(self, table: Table) -> None:
        table.away_timeout = self.away_timeout
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.conns[table.id] = set()

    async def get(self, table_id: str) -> Table | None:
        """A live table, or a finished one loaded from the database on demand."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if len(table_id) > TABLE_ID_MAX:
            return None
        self.peers.loading(table_id)
        data = await self.db.run(lambda store: store.load_table(table_id))
        if data is None:
            return None
        if table_id not in self.tables:
            self.add(Table(data))
            self.peers.loaded(self.tables[table_id])
        return self.tables[table_id]

    def rename_player(self, player_id: int, name: str) -> None:
        """The player's seats at the tables this process holds show their new name (the
        database's seats were renamed with the player: ``players._name_seats``)."""
        for table in self.tables.values():
            for seat in table.seats:
                if seat.player == player_id:
                    seat.name = name

    # creating and joining -------------------------------------------------------------------

    async def create(self, req: S.CreateTable, computer_tables: int,
                     player: Player | None = None) -> tuple[Table, int]:
        """A new table as ``req`` asks (``ValueError`` says what is wrong with it); returns it
        and the creator's seat (-1: watching), which is ``player``'s when one creates it. At
        most ``computer_tables`` tables with no person's seat play at once on the whole site
        (``LimitError``; counted in the database, in the creation's own transaction)."""
        rules = table_rules(req)
        n = rules.players
        my_seat = req.my_seat if req.my_seat is not None else (2 if n == 4 else 0)
        asked = [s.bot for s in req.seats or [] if s.kind == BOT and s.bot]
        if asked and not self.bots_allowed:
            raise ValueError("seats: this server seats no bots")
        from euchre.web.bots import by_names

        bots = await self.db.run(lambda store: by_names(store, asked)) if asked else {}
        seats = seat_plan(req, n, my_seat, player, bots)
        if player is None and my_seat >= 0:
            await self.check_unnamed(seats[my_seat].name)
        rated = rated_table(req, rules, seats, player)
        # a table nobody sits at as a person (computers and bots) plays itself: limited
        only_computers = computer_tables if all(sd.kind != HUMAN for sd in seats) else None
        table_id = new_table_id()
        invite = secrets.token_urlsafe(12)
        seed = new_table_seed()
        created = await self.db.run(lambda store: store.create_table(
            table_id, rules.to_dict(), seed, invite, seats, only_computers, rated))
        for sd in seats:
            if sd.kind == "human":
                sd.left_at = created  # as stored: empty since the table was made
        table = Table(TableData(table_id, created, rules.to_dict(), seed, invite, seats, [],
                                None, [], rated))
        self.add(table)
        return table, my_seat

    async def check_unnamed(self, name: str) -> None:
        """A seat taken without a player's name may not copy one (``ValueError``)."""
        from euchre.web import players

        owner = await self.db.run(lambda store: players.taken(store, name))
        if owner is not None:
            raise ValueError(f"name: {name!r} reads like the player {owner!r}'s name; "
                             "choose another")

    async def join(self, table: Table, req: S.JoinTable, player: Player | None = None,
                   seat: Seat | None = None) -> tuple[int, str]:
        """Claim the table's first free person's seat (``seat``: that one) with its invite
        (``player``'s, when a player joins; a player who already holds a seat there gets that
        one). A bot account (``player.kind`` "bot") takes one only at an open table whose
        host lets bots sit, within its share of the seats (``bot_refusal``): its seat is a
        bot's (``PermissionError``, ``LookupError`` say why not)."""
        if not secrets.compare_digest(req.invite.encode(), table.invite.encode()):
            raise PermissionError("that invite is not for this table")
        if player is None and req.name and S.clean_text(req.name, S.NAME_MAX):
            await self.check_unnamed(S.clean_text(req.name, S.NAME_MAX))
        if self.peers.relays and not self.owns(table.id):
            return await self.peers.remote_join(table, req, player, seat)
        try:
            return await self._join_here(table, req, player, seat)
        except LostTable:  # taken over just then: the seat is claimed at the new owner
            self.peers.lost(table)
            if not self.peers.relays:
                raise
            return await self.peers.remote_join(table, req, player, seat)

    async def _join_here(self, table: Table, req: S.JoinTable, player: Player | None,
                         wanted: Seat | None) -> tuple[int, str]:
        bot = player is not None and player.kind == BOT
        async with self.locks[table.id]:
            if player is not None:
                mine = table.seat_of(player.ids)
                if mine is not None and bot and mine.present > 0:
                    raise LookupError(f"this bot plays seat {mine.seat} at that table already, "
                                      "on another connection: a player has one seat a table")
                if mine is not None:
                    return mine.seat, mine.token
            if bot:
                refused = bot_refusal(table)
                if refused is not None:
                    raise refused
            free = [s for s in table.seats if s.kind == "human" and not s.claimed]
            if wanted is not None:
                free = [s for s in free if s.seat == wanted]
                if not free:
                    raise LookupError(f"seat {wanted} is not free at this table (its free "
                                      "seats are listed by the lobby)")
            if not free:
                raise LookupError("every seat at this table is taken: you can watch instead")
            seat = free[0]
            if player is not None:
                name = player.name
            else:
                name = S.clean_text(req.name or "", S.NAME_MAX)
                if not name or copied_name(name, table.n, seat.seat, table.names()):
                    name = seat_name(seat.seat, table.n)  # "Bob" twice: the seat's own name
            pid = player.id if player is not None else None
            kind = BOT if bot else seat.kind
            if table.public:  # from now on the seat's decisions are theirs (and its result)
                stint = Stint(seat.seat, pid, kind, table.seq)
                await self.db.run(lambda store: store.take_seat(
                    table.id, stint, claimed=True, name=name, player_id=pid, kind=kind))
                table.took(stint)
            else:
                await self.db.run(lambda store: store.update_seat(
                    table.id, seat.seat, claimed=True, name=name, player_id=pid, kind=kind))
            seat.claimed, seat.name, seat.player, seat.kind = True, name, pid, kind
            if table.public:  # its computer plays on to the end of the hand in play
                seat.from_hand = table.hand_no + 1 if table.started else 0
                seat.stand_in = table.started
            self.broadcast_locked(table)
            if table.public:
                await self.notice(table, f"{name} took {seat_name(seat.seat, table.n)}'s seat"
                                         + (" and plays it from the next hand."
                                            if seat.stand_in else "."))
        return seat.seat, seat.token

    async def replace_link(self, conn: Conn) -> None:
        """Give the seat a new token; every other connection of the old link is closed."""
        table = conn.table
        if conn.seat == SPECTATOR:
            error(conn, "spectator", "spectators have no seat link to replace")
            return
        token = secrets.token_urlsafe(18)
        async with self.locks[table.id]:
            await self.db.run(lambda store: store.update_seat(table.id, conn.seat, token=token))
            table.seats[conn.seat].token = token
            others = [c for c in self.everyone(table)
                      if c.seat == conn.seat and c is not conn]
            self.peers.changed(table, conn)
        send(conn, M.Link(token, f"/t/{table.id}#token={token}"))
        for c in others:
            seat_gone(c, left=False)

    # the waiting room and the next game -----------------------------------------------------

    def maybe_start(self, table: Table) -> bool:
        """Deal a waiting table once every person's seat is taken and held (at its owner;
        caller holds its lock and sends the new picture); True if it started now."""
        if table.started or not self.owns(table.id) or not table.ready():
            return False
        table.started = True
        return True

    async def start(self, conn: Conn) -> bool:
        """A person at a waiting table starts it: computers (at each seat's stand-in level)
        take the seats nobody took. True if it started."""
        table = conn.table
        if conn.seat == SPECTATOR or table.seats[conn.seat].kind != "human":
            error(conn, "spectator", "only a person seated at the table can start it")
            return False
        async with self.locks[table.id]:
            if table.started:
                error(conn, "started", "the game has already started")
                return False
            for s in table.people():
                if not s.claimed:
                    name = computer_name(s.seat, table.n, s.level)
                    await self.db.run(functools.partial(
                        Store.update_seat, table_id=table.id, seat=s.seat, kind="computer",
                        name=name))
                    s.kind, s.name = "computer", name
            table.started = True
            self.broadcast_locked(table)
        return True

    async def release(self, table: Table, seat: TableSeat) -> None:
        """A player (a person, or a bot account) left a seat at an open table: its computer
        plays it, it has a new link, and it is a person's free seat for the next player
        (caller holds the table's lock)."""
        was = seat.name
        name, token = computer_name(seat.seat, table.n, seat.level), secrets.token_urlsafe(18)
        at = table.seq  # their share of the seat's decisions ends here, not their result
        await self.db.run(functools.partial(
            Store.leave_seat, table_id=table.id, seat=seat.seat, at=at, kind=HUMAN,
            claimed=False, name=name, player_id=None, token=token))
        table.left_seat(seat.seat, at)
        gone = [c for c in self.everyone(table) if c.seat == seat.seat]
        seat.kind, seat.claimed, seat.name, seat.player, seat.token = \
            HUMAN, False, name, None, token
        seat.stand_in, seat.idle, seat.timeouts, seat.from_hand = True, False, 0, 0
        seat.covered = []  # what its computer did for the one who left: nobody's to be told
        self.broadcast_locked(table)
        for c in gone:
            seat_gone(c, left=True)
        await self.notice(table, f"{was} left the table: {name} plays the seat until "
                                 "someone takes it.")

    async def create_open(self, rules: Rules, clock: float, player: Player | None,
                          name: str | None = None, bots: bool = False) -> tuple[Table, int]:
        """A new open table (the lobby's) for ``player`` (a person, or a bot account: its seat
        is a bot's), in seat 0, with the others free and played by their computers (the
        default level) until people take them; ``bots``: bot accounts may take them too."""
        n = rules.players
        level = default_level()
        if player is not None:
            mine = player.name
        else:
            mine = S.clean_text(name or "", S.NAME_MAX) or seat_name(0, n)
            if copied_name(mine, n, 0, []):
                mine = seat_name(0, n)
            await self.check_unnamed(mine)
        first = BOT if player is not None and player.kind == BOT else HUMAN
        seats = [SeatData(i, secrets.token_urlsafe(18), first if i == 0 else HUMAN, level,
                          mine if i == 0 else computer_name(i, n, level), i == 0,
                          player_id=player.id if i == 0 and player is not None else None)
                 for i in range(n)]
        rated = unratable(rules, seats, player) is None
        table_id, invite, seed = new_table_id(), secrets.token_urlsafe(12), new_table_seed()
        created = await self.db.run(lambda store: store.create_table(
            table_id, rules.to_dict(), seed, invite, seats, None, rated, True, clock, bots))
        for sd in seats:
            sd.left_at = created
        table = Table(TableData(table_id, created, rules.to_dict(), seed, invite, seats, [],
                                None, [], rated, True, clock, bots, opening_stints(seats)))
        self.add(table)
        return table, 0

    async def set_bots(self, conn: Conn, allowed: bool) -> None:
        """The host of an open table (the person in seat 0, for whom Play now made it) lets
        bot accounts take its free seats, or not; a bot seated there keeps its seat."""
        table = conn.table
        if not table.public or conn.seat != 0 or table.seats[0].kind != HUMAN \
                or not table.seats[0].claimed:
            error(conn, "not_host", "only the host of an open table (the person Play now "
                  "made it for, in its first seat) chooses whether bots may sit there")
            return
        async with self.locks[table.id]:
            if table.bots != allowed:
                await self.db.run(lambda store: store.set_bots(table.id, allowed))
                table.bots = allowed
                self.peers.changed(table, None)
            self.broadcast_locked(table)

    async def again(self, table: Table) -> Table:
        """The table its players go on to after the game: the same rules, seats, people and
        computers, each seat with a new link (``table.next_tokens``). Made once; caller holds
        the finished table's lock."""
        if table.next_table is not None:
            found = await self.get(table.next_table)
            assert found is not None
            return found
        seats = [SeatData(s.seat, secrets.token_urlsafe(18), s.kind, s.level, s.name,
                          s.claimed if s.kind in PLAYER_KINDS else False, player_id=s.player)
                 for s in table.seats]
        table_id, invite = new_table_id(), secrets.token_urlsafe(12)
        seed = new_table_seed()
        created = await self.db.run(lambda store: store.create_table(
            table_id, table.rules_dict, seed, invite, seats, None, table.rated, table.public,
            table.clock, table.bots))
        for sd in seats:
            if sd.kind == "human":
                sd.left_at = created
        new = Table(TableData(table_id, created, table.rules_dict, seed, invite, seats, [],
                              None, [], table.rated, table.public, table.clock, table.bots,
                              opening_stints(seats) if table.public else []))
        self.add(new)
        table.next_table, table.next_tokens = new.id, [sd.token for sd in seats]
        return new

    # sending --------------------------------------------------------------------------------

    def frames(self, table: Table) -> list[tuple[Conn, str]]:
        """The table's current state for each connection, encoded once per seat."""
        cache: dict[int, str] = {}
        out = []
        for c in self.conns.get(table.id, ()):
            if c.closing:
                continue
            text = cache.get(c.seat)
            if text is None:
                text = cache[c.seat] = M.encode(table.picture(c.seat))
            out.append((c, text))
        return out

    async def broadcast(self, table: Table) -> None:
        """Each connection gets the table as its own seat sees it (spectators: no hands).

        Under the table's lock: an action is applied to the table before its commit and the
        lock is held until it is committed, so a state read without the lock could hold a move
        the database does not have yet."""
        async with self.locks[table.id]:
            self.broadcast_locked(table)

    def broadcast_locked(self, table: Table) -> None:
        """``broadcast`` for a caller that holds the table's lock."""
        deliver(self.frames(table))
        self.peers.changed(table, None)

    def everyone(self, table: Table) -> list[Conn]:
        return list(self.conns.get(table.id, ()))

    async def say(self, table: Table, line: M.ChatLine) -> None:
        """A line in the table's chat: stored (fenced: ``LostTable`` where another process
        owns the table now), kept for newcomers, sent to everyone here and, through the other
        server processes, to everyone there."""
        await self.db.run(lambda store: store.add_chat(table.id, line.seat, line.name,
                                                       line.text, line.at))
        self.heard(table, line)
        self.peers.said(table, M.Chat(line.seat, line.name, line.text, line.at))

    def heard(self, table: Table, line: M.ChatLine) -> None:
        """A chat line of the table (said here, or heard from the process that stored it):
        kept for newcomers, sent to everyone here."""
        table.chat = [*table.chat[-(CHAT_KEPT - 1):], line]
        out = M.Chat(line.seat, line.name, line.text, line.at)
        for c in self.everyone(table):
            send(c, out)

    async def notice(self, table: Table, text: str) -> None:
        """The table's own line in its chat (who left or took a seat), so the others are told
        in words, not only by a seat's label changing. A fault storing it is one log line: the
        seat's change it tells of has been made."""
        try:
            await self.say(table, M.ChatLine(M.NOTICE, "", text, time.time()))
        except LostTable:
            raise
        except Exception as exc:
            log.error("could not tell table %s: %r", table.id, exc)


#: The chat lines a table keeps to show a newcomer (and loads from the database).
CHAT_KEPT = 50


def most_bots(n: int) -> int:
    """The most seats bot accounts may take at an open table of ``n`` players: half (one at
    two or three), so at least half of every open table is for people, and Play now can
    always seat a person beside the bots waiting."""
    return max(1, n // 2)


def bot_refusal(table: Table) -> Exception | None:
    """Why a bot account may not take a seat at ``table`` now (``PermissionError``: never
    there; ``LookupError``: its share of seats is taken), or None."""
    if not table.public:
        return PermissionError("that table is not open to everyone: a bot sits at a friends' "
                               "table only where its creator invited it by name")
    if not table.bots:
        return PermissionError("that table's host takes no bots")
    held = sum(1 for s in table.seats if s.kind == BOT and s.claimed)
    if held >= most_bots(table.n):
        return LookupError(f"bots hold {held} of that table's {table.n} seats, the most bots "
                           f"may (the rest are for people)")
    return None


def table_rules(req: S.CreateTable) -> Rules:
    return requested_rules(req.preset, req.rules)


def requested_rules(preset: str, changes: dict[str, object]) -> Rules:
    """A preset with a request's changes (``ValueError`` says what is wrong and what is
    allowed)."""
    try:
        base = PRESETS[preset]
    except KeyError:
        raise ValueError(f"unknown preset {preset!r}; choose one of: "
                         + ", ".join(PRESETS)) from None
    try:
        return Rules.from_dict(changes, base=base)
    except (RulesError, TypeError) as exc:
        raise ValueError(f"rules: {exc}") from None


def seat_plan(req: S.CreateTable, n: int, my_seat: int, player: Player | None = None,
              bots: Mapping[str, BotAccount] | None = None) -> list[SeatData]:
    """The new table's seats, each with its own random token; the creator's is ``player``'s
    (named by the player's name) when a player creates it; a bot's seat is the bot account's
    of that name in ``bots``."""
    specs = req.seats or [S.SeatSpec("human" if i == my_seat else "computer")
                          for i in range(n)]
    if len(specs) != n:
        raise ValueError(f"seats: {n} players need {n} seats, not {len(specs)}")
    if my_seat >= n:
        raise ValueError(f"my_seat must be -1 (watch) or a seat 0..{n - 1}")
    if my_seat >= 0 and specs[my_seat].kind != "human":
        raise ValueError(f"my_seat {my_seat} is a computer seat; choose a person's seat")
    levels = offered_levels()
    seats: list[SeatData] = []
    seated: set[int] = set()
    for i, spec in enumerate(specs):
        level = spec.level or default_level()
        if not accepted_level(level):
            raise ValueError(f"seat {i}: unknown computer level {level!r}; choose one of: "
                             + ", ".join(levels))
        mine = i == my_seat
        if spec.bot is not None and spec.kind != BOT:
            raise ValueError(f"seat {i}: only a bot's seat (\"kind\": \"bot\") names a bot")
        if spec.kind == BOT:
            if not spec.bot:
                raise ValueError(f"seat {i}: a bot's seat names the bot account "
                                 "(\"bot\": NAME)")
            found = (bots or {}).get(spec.bot)
            if found is None:
                raise ValueError(f"seat {i}: no bot account is named {spec.bot!r}")
            if found.id in seated:
                raise ValueError(f"seat {i}: {found.name} has a seat at this table already")
            seated.add(found.id)
            seats.append(SeatData(i, secrets.token_urlsafe(18), BOT, level, found.name, True,
                                  player_id=found.id))
            continue
        if spec.kind == "computer":
            name = computer_name(i, n, level)
        elif mine and player is not None:
            name = player.name
        elif mine:
            name = S.clean_text(req.name or "", S.NAME_MAX) or seat_name(i, n)
            copied = copied_name(name, n, i, [])
            if copied:
                raise ValueError(f"name: {copied}")
        else:
            name = seat_name(i, n)
        owner = player.id if mine and player is not None else None
        seats.append(SeatData(i, secrets.token_urlsafe(18), spec.kind, level, name, mine,
                              player_id=owner))
    return seats


def rated_table(req: S.CreateTable, rules: Rules, seats: list[SeatData],
                player: Player | None) -> bool:
    """Whether a new table is to be rated: ``req.rated`` if given (``True`` refused, saying
    why, where the table cannot be rated), else whenever it can be."""
    why = unratable(rules, seats, player)
    if req.rated and why:
        raise ValueError(f"rated: this table cannot be rated: {why}")
    return why is None if req.rated is None else req.rated


def unratable(rules: Rules, seats: list[SeatData], player: Player | None) -> str | None:
    """Why a table with these seats cannot be rated, or None."""
    from euchre.web.ratings import rated_levels, rated_name

    if rules.players != 4 or rules.single_hand:
        return "ratings are for four-handed partnership games played to a score"
    if player is None:
        return "its creator plays without a player's name (a guest or an account)"
    if not any(s.player_id == player.id or s.kind == BOT for s in seats):
        return "its creator does not play at it, and no bot does"
    for s in seats:
        if s.kind == "computer" and rated_name(s.level) is None:
            return (f"{s.name} plays at a level without a rating; the rated levels are "
                    + ", ".join(rated_levels()))
    return None


#: Words a page uses for its own viewer ("You take the trick"): no seat may be named so, or
#: every other player would read that seat as their own.
VIEWER_WORDS = frozenset({"you", "me", "yourself", "myself"})


def copied_name(name: str, n: int, seat: Seat, names: list[str]) -> str | None:
    """Why ``name`` may not be ``seat``'s at a table of ``n`` whose seats are called ``names``
    (it looks like a word each page uses for its own viewer, another seat's name or a
    computer's label, such as "East (rule)": see ``names.name_refusal``), or None."""
    taken = [(other, f"the name of {seat_name(i, n)}") for i, other in enumerate(names)
             if i != seat]
    return viewer_word(name) or name_refusal(name, taken + computer_labels(n))


def viewer_word(name: str) -> str | None:
    """Why ``name`` may be nobody's: it looks like a word each page uses for its own viewer."""
    if name_key(name) in {name_key(word) for word in VIEWER_WORDS}:
        return (f"{name!r} is the word each player's own page uses for their own seat, so "
                "everyone else would read it as themselves; choose another name")
    return None


def computer_labels(n: int) -> list[tuple[str, str]]:
    """How a computer player at a table of ``n`` is shown ("East (club)"), at every level a
    seat may play at, each with the words ``names.name_refusal`` uses for it."""
    return [(computer_name(i, n, level), "how a computer player is shown")
            for i in range(n) for level in accepted_levels()]
