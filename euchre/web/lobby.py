"""The lobby and Play now: open tables anyone may sit at, listed for the whole site, and the one
function that seats a player (a person's browser, or a bot's connection) at one.

An open table's free seats are played by their computers until a person takes them, from the
next hand; a person who leaves gives the seat back to its computer; a turn clock keeps the game
moving (``moves``). Where several server processes share the database the list is read from
it: every seat's change is written there (by the table's owner) before anyone hears of it, so
any process answers for the whole site, and a seat is claimed at the table's owner under the
table's lock (relayed there like any join), so two people never get one seat.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from euchre.errors import RulesError
from euchre.rules import PRESETS, Rules, rules_summary
from euchre.seats import Seat
from euchre.web import schemas as S
from euchre.web.players import Player
from euchre.web.rooms import most_bots, requested_rules
from euchre.web.store import LobbyRow
from euchre.web.table import BOT, HUMAN, PLAYER_KINDS

if TYPE_CHECKING:
    from euchre.web.server import Server

#: Seconds one process answers the lobby from its last read of the database: however many
#: browsers ask, the database is read at most once in that time per process.
LOBBY_SECONDS = 1.0
#: Open tables the lobby lists at most (the fullest first).
LOBBY_MAX = 100


@dataclass(frozen=True)
class Seated:
    """Where Play now (or a lobby join) put the player: the table, the seat and its link."""

    table: str
    seat: Seat
    token: str
    new: bool
    """A new table was made for them (nobody was waiting for these rules)."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.table, "seat": self.seat, "token": self.token, "new": self.new,
                "url": f"/t/{self.table}#token={self.token}"}


def wanted_rules(req: S.PlayNow) -> Rules | None:
    """The rules asked for (``ValueError`` says what is wrong), or None: any."""
    if not req.preset and not req.rules:
        return None
    return requested_rules(req.preset or "standard", req.rules)


def free_seats(row: LobbyRow) -> int:
    """Seats a person may take: a person's seat nobody holds (its computer plays it)."""
    return sum(1 for kind, taken, _, _ in row.seats if kind == HUMAN and not taken)


def people(row: LobbyRow) -> int:
    return sum(1 for kind, taken, _, _ in row.seats if kind == HUMAN and taken)


def bots(row: LobbyRow) -> int:
    """Seats a bot account holds: a player's seat like a person's, never a free one."""
    return sum(1 for kind, taken, _, _ in row.seats if kind == BOT and taken)


def players(row: LobbyRow) -> int:
    """Seats held by a player (a person or a bot account), the rest being computers'."""
    return sum(1 for kind, taken, _, _ in row.seats if kind in PLAYER_KINDS and taken)


def rules_of(row: LobbyRow) -> Rules | None:
    try:
        return Rules.from_dict(row.rules)
    except (RulesError, TypeError):  # a table of a newer release's rules: not offered here
        return None


def most_played(rows: list[LobbyRow]) -> Rules:
    """The rules most players (people and bots) are waiting at (a free seat beside them),
    else the standard game."""
    counts: dict[str, tuple[int, Rules]] = {}
    for row in rows:
        rules = rules_of(row)
        if rules is None or not free_seats(row):
            continue
        key = repr(sorted(rules.to_dict().items()))
        n, _ = counts.get(key, (0, rules))
        counts[key] = (n + players(row), rules)
    if not counts:
        return PRESETS["standard"]
    return max(counts.values(), key=lambda c: c[0])[1]


def bot_room(row: LobbyRow) -> int:
    """Free seats a bot account may take there now: none unless its host lets bots sit,
    and never past bots' share of the table (``rooms.most_bots``)."""
    if not row.bots:
        return 0
    return max(0, min(free_seats(row), most_bots(len(row.seats)) - bots(row)))


def listing(row: LobbyRow, bots_allowed: bool = False) -> dict[str, Any]:
    """An open table as the lobby shows it (and ``GET /api/lobby`` answers); with
    ``bots_allowed`` (the server seats bots there) whether its host lets bots sit, and how
    many free seats a bot may take now."""
    rules = rules_of(row)
    return {
        "id": row.id, "url": f"/t/{row.id}",
        "rules": rules_summary(rules) if rules is not None else ["rules of a newer release"],
        "players": len(row.seats), "free": free_seats(row), "people": people(row),
        "bots": bots(row), "computers": len(row.seats) - players(row),
        "seats": [{"name": name, "person": kind == HUMAN and taken,
                   "bot": kind == BOT and taken, "free": kind == HUMAN and not taken}
                  for kind, taken, _, name in row.seats],
        "rated": row.rated, "clock": row.clock,
        # the turn clock at the table's pace now (its owner writes it when it moves 1 s)
        "pace": None if row.clock is None else round(row.pace if row.pace is not None
                                                     else row.clock),
        "started": row.started,
        "bots_welcome": bots_allowed and row.bots,
        "bot_free": bot_room(row) if bots_allowed else 0,
    }


class Lobby:
    """The open tables of the whole site, and seating players at them."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.read_at = -LOBBY_SECONDS
        self.rows: list[LobbyRow] = []

    def stale(self) -> None:
        """A table was made or a seat changed here: the next look reads the database."""
        self.read_at = -LOBBY_SECONDS

    async def tables(self, fresh: bool = False) -> list[LobbyRow]:
        """The open tables (read from the database at most once a ``LOBBY_SECONDS``)."""
        now = time.monotonic()
        if fresh or now - self.read_at >= LOBBY_SECONDS:
            self.rows = await self.server.db.run(lambda store: store.lobby(LOBBY_MAX))
            self.read_at = now
        return self.rows

    @property
    def bots_allowed(self) -> bool:
        """Whether bot accounts may seat themselves here (``euchre serve --bots allowed``)."""
        return self.server.config.bots == "allowed"

    async def listed(self) -> list[dict[str, Any]]:
        return [listing(row, self.bots_allowed) for row in await self.tables()]

    async def play_now(self, rules: Rules | None, player: Player | None, client: str = "",
                       name: str | None = None, with_bots: bool = True) -> Seated:
        """Seat a player with the people waiting for ``rules`` (None: the rules most people
        are waiting for), the fullest table first, or at a new open table whose other seats
        its computers play until people come. ``client`` (an address) counts a new table
        against the site's creation limits (``LimitError``). The one entry for seating
        anyone, a person's browser or a bot's connection alike: a bot account (``player``
        of kind "bot") only where the table's host lets bots sit, within bots' share of its
        seats; ``with_bots`` false (a person's choice) only at a table with no bot, and a table
        made for them takes none."""
        rows = await self.tables(fresh=True)
        if rules is None:
            rules = most_played(rows)
        is_bot = player is not None and player.kind == BOT
        for row in rows:
            if not free_seats(row) or rules_of(row) != rules:
                continue
            if (is_bot and not bot_room(row)) or (not with_bots and bots(row)):
                continue
            seated = await self.join(row.id, player, name)
            if seated is not None:
                return seated
        server = self.server
        await server.creations.take(client)
        table, seat = await server.rooms.create_open(rules, server.config.turn_clock, player,
                                                     name, with_bots and self.bots_allowed)
        server.opened(table)  # which makes the lobby read it
        return Seated(table.id, seat, table.seats[seat].token, True)

    async def join(self, table_id: str, player: Player | None, name: str | None = None,
                   seat: Seat | None = None, strict: bool = False) -> Seated | None:
        """Take a free seat (``seat``: that one) at an open table (None: it has none, or is
        no open table; ``strict``: ``LookupError`` saying why; a bot account refused there:
        ``PermissionError``)."""
        rooms = self.server.rooms
        table = await rooms.get(table_id)
        if table is None or not table.public or table.finished:
            if strict:
                raise LookupError("no open table has that id now (GET /api/lobby lists them)")
            return None
        try:
            seat, token = await rooms.join(table, S.JoinTable(table.invite, name), player,
                                           seat)
        except LookupError:  # taken meanwhile (at any process): the next table
            if strict:
                raise
            return None
        self.stale()  # the next look reads the new seat
        return Seated(table.id, seat, token, False)
