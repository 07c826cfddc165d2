"""The database: SQLAlchemy 2 (SQLite by default, PostgreSQL by URL), schema by Alembic.

The append-only ``actions`` table is the persisted truth of a game: a table's match is rebuilt by
replaying its rules and seed and then every logged action through the engine, so nothing derived
(scores, hands, whose turn) is stored and nothing can disagree with the log. The server commits an
action here before anyone hears of it, which is what makes a ``kill -9`` lose nothing.

All methods are synchronous and short; the server calls them from one worker thread (SQLite
serialises writers anyway) so the event loop never waits on disk.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from euchre.seats import Seat
from euchre.web import bus as B
from euchre.web.limits import computer_tables_error
from euchre.web.names import computer_name

SCHEMA_REVISION = "0012"
#: A seat's kinds: a person's (the creator's or a friend's), a computer's at a level, and a
#: bot account's (a program playing online, ``euchre.web.botlinks``).
HUMAN, COMPUTER, BOT = "human", "computer", "bot"
#: The kinds of seat a player (with a name, a rating and a profile) holds.
PLAYER_KINDS = (HUMAN, BOT)
#: The advisory lock a migration holds on PostgreSQL (a key of this program's own).
MIGRATION_LOCK = 0x4555434852454D49
#: The transaction advisory lock that orders the creations of tables of computers only.
COMPUTER_TABLES_LOCK = 0x4555434843505554


class LostTable(Exception):
    """A fenced write was refused: another server process owns the table now (several
    processes on one database); nothing of it was stored."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    rules: Mapped[str] = mapped_column(Text)
    """``Rules.to_dict()`` as JSON."""
    seed: Mapped[int] = mapped_column(BigInteger)
    invite: Mapped[str] = mapped_column(String(64))
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    scores: Mapped[str | None] = mapped_column(Text, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Created to be rated: rated once over if every seat then is a player or a rated level."""
    results_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    """When the game's results (and ratings) were written: once, in one transaction."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """Open to anyone (the lobby lists it, Play now seats people at it): a seat nobody holds
    is played by its computer until a person takes it."""
    clock: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds a person has for each turn (None: no turn clock)."""
    pace: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The turn clock at the table's pace now (``table.pace_clock``), written by its owner
    when it changes by a second or more, for every process's lobby (None: ``clock``)."""
    bots: Mapped[bool] = mapped_column(Boolean, default=False)
    """An open table whose host lets bot accounts take its free seats (through the lobby
    and Play now, where the operator allows bots: ``euchre serve --bots allowed``)."""


class SeatRow(Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    level: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    left_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a person's seat last became empty (wall clock); NULL while someone holds it."""
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True,
                                                  index=True)
    """The player (guest or account) who holds a person's seat; NULL: a seat opened by its
    link alone (and every seat stored before players existed)."""


class PlayerRow(Base):
    """Someone who plays: a guest (a name and a session), an account (a name and a password)
    or a computer level (its rating)."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(200), unique=True)
    """The name's comparison key: no two players have names that read alike."""
    kind: Mapped[str] = mapped_column(String(16))
    """"guest", "account", "computer" or "bot" (a program playing online, ``BotRow``)."""
    password: Mapped[str | None] = mapped_column(Text, nullable=True)
    """An account's argon2id hash (never the password)."""
    created_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma: Mapped[float | None] = mapped_column(Float, nullable=True)
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True,
                                                    index=True)
    """A guest whose games went to an account when it signed in to it: that account. Its
    name is free again; a game it was still playing then counts as the account's."""


class BotRow(Base):
    """A bot account: its player's row (kind "bot"), who owns it (None: the operator, who
    made it with ``euchre bots add``) and its token, of which only the SHA-256 is kept, as a
    session's; NULL once revoked, so a copy of the database opens no bot's seat either."""

    __tablename__ = "bots"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True,
                                                 index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    token_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the token in use was made."""
    created_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A signed-in browser: the cookie holds a random token, this row only its SHA-256, so a
    copy of the database opens no session."""

    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class ResultRow(Base):
    """One player's part in one finished game at one seat (a computer level's too): the
    side's result, the hands they made and lost, their lone hands, and the rating before and
    after. A seat of an open table held by several players in turn has a row for each, with
    their ``share`` of its decisions."""

    __tablename__ = "results"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True,
                                           index=True)
    finished_at: Mapped[float] = mapped_column(Float)
    won: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    made: Mapped[int] = mapped_column(Integer)
    euchred: Mapped[int] = mapped_column(Integer)
    euchres: Mapped[int] = mapped_column(Integer)
    lone: Mapped[int] = mapped_column(Integer)
    lone_made: Mapped[int] = mapped_column(Integer)
    lone_marches: Mapped[int] = mapped_column(Integer)
    lone_euchred: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    share: Mapped[float] = mapped_column(Float, default=1.0)
    """The part of the seat's decisions made while this player held it (1: all of them)."""


class StintRow(Base):
    """A player's time at a seat of an open table: from the log's length when they took it
    to its length when they left it (NULL: they hold it still). The decisions of the seat
    in that time are theirs, whoever made them (they, or its computer while they were away):
    a game's result counts for everyone who held a seat in it (``euchre.web.results``)."""

    __tablename__ = "stints"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    """The seat's kind while they held it: a person's or a bot account's."""
    from_seq: Mapped[int] = mapped_column(Integer)
    to_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class PasskeyRow(Base):
    """A passkey of an account (WebAuthn): its credential id, its public key and the count
    of signatures it has made (a count that goes back means a cloned authenticator)."""

    __tablename__ = "passkeys"
    id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    """The credential id, base64url."""
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class CeremonyRow(Base):
    """A passkey ceremony under way: the challenge the browser's authenticator must sign,
    for one use before it expires (``player_id``: the account adding a passkey; NULL: a
    sign-in, whoever's passkey answers)."""

    __tablename__ = "passkey_ceremonies"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 of the token the browser holds for the ceremony."""
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class ActionRow(Base):
    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)


class OwnerRow(Base):
    """The one process that may write a table's log (several processes on one database)."""

    __tablename__ = "owners"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    process: Mapped[int] = mapped_column(Integer, index=True)
    epoch: Mapped[int] = mapped_column(Integer)


class ChatRow(Base):
    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


@dataclass
class SeatData:
    seat: Seat
    token: str
    kind: str
    level: str
    name: str
    claimed: bool
    left_at: float | None = None
    """When the seat last became empty (``time.time()``); None: someone held it when the
    server stopped (or it is a computer's)."""
    player_id: int | None = None
    """The player holding a person's seat (None: the seat's link alone opens it)."""


@dataclass
class Stint:
    """A player's time at a seat of an open table (``StintRow``): the seat's actions from
    ``start`` up to ``end`` (the log's lengths; None: they hold it still) are theirs."""

    seat: Seat
    player_id: int | None
    kind: str
    start: int
    end: int | None = None


def opening_stints(seats: list[SeatData]) -> list[Stint]:
    """A new open table's stints: each seat a player holds from its creation, from the first
    move."""
    return [Stint(s.seat, s.player_id, s.kind, 0) for s in seats
            if s.claimed and s.kind in PLAYER_KINDS]


@dataclass
class TableData:
    """Everything needed to rebuild one table: its rows, with the action log in order."""

    id: str
    created_at: float
    rules: dict[str, Any]
    seed: int
    invite: str
    seats: list[SeatData]
    actions: list[tuple[int, int]]
    finished_at: float | None
    chat: list[dict[str, Any]]
    rated: bool = False
    public: bool = False
    clock: float | None = None
    bots: bool = False
    stints: list[Stint] = field(default_factory=list)
    """Who held each seat of an open table, and from when to when (in the order taken)."""
    pace: float | None = None
    """The turn clock the lobby shows for it (None: ``clock``)."""


@dataclass
class LobbyRow:
    """An open table as the lobby lists it: its seats as (kind, taken by a person, level,
    name), and whether its first card was played."""

    id: str
    created_at: float
    rules: dict[str, Any]
    rated: bool
    clock: float | None
    seats: list[tuple[str, bool, str, str]]
    started: bool
    bots: bool = False
    """Its host lets bot accounts take its free seats."""
    pace: float | None = None
    """Its turn clock now, at the table's pace (None: ``clock``)."""


#: ``Store.fenced_write``'s statement (PostgreSQL's). The CTEs that change data run whether or
#: not the query reads them; ``note`` is read once, and only when the process owns a table.
FENCED_WRITE = (
    "WITH mine AS (SELECT table_id FROM owners WHERE table_id = ANY(%(tables)s) "
    "  AND process = %(owner)s ORDER BY table_id FOR SHARE), "
    "ins AS (INSERT INTO actions (table_id, seq, seat, action, at) "
    "  SELECT r.t, r.seq, r.seat, r.a, %(now)s FROM unnest(%(t)s::text[], "
    "  %(seq)s::int[], %(seat)s::int[], %(a)s::int[]) AS r(t, seq, seat, a) "
    "  WHERE r.t IN (SELECT table_id FROM mine)), "
    "fin AS (UPDATE tables SET finished_at = %(now)s, winner = f.w, scores = f.s "
    "  FROM unnest(%(ft)s::text[], %(fw)s::int[], %(fs)s::text[]) AS f(t, w, s) "
    "  WHERE tables.id = f.t AND f.t IN (SELECT table_id FROM mine)), "
    "note AS (SELECT count(pg_notify(%(bus)s, n.p)) AS sent "
    "  FROM unnest(%(nt)s::text[], %(np)s::text[]) AS n(t, p) "
    "  WHERE n.t IN (SELECT table_id FROM mine)) "
    "SELECT table_id, (SELECT sent FROM note) FROM mine")


def refused_by(params: dict[str, Any], got: list[Any]) -> set[str]:
    """The tables whose rows ``FENCED_WRITE`` refused: asked for, but not among the rows it
    returned (the tables still owned)."""
    return set(params["tables"]) - {r[0] for r in got}


def libpq_url(url: str) -> str:
    """The URL psycopg itself takes (SQLAlchemy's ``postgresql+psycopg://`` spelling)."""
    return "postgresql://" + url.split("://", 1)[1]


def default_db_url() -> str:
    """SQLite in the user's data directory (platformdirs), created on first use."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("euchre", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'euchre.sqlite3'}"


def normalise_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 (the driver the ``web`` extra installs)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL: readers never block the writer. synchronous=NORMAL: a commit survives the
            # process being killed (what the recovery test does); only a power cut may lose the
            # last commits.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest Alembic revision (creating it on a new database), or to
    ``revision`` (the tests build a database as an older release left it)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # several server processes starting at once on a new database: one migrates, the
            # others wait for it here and then find the schema at its newest revision
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


class Store:
    """The game database. Every write is its own committed transaction."""

    def __init__(self, url: str, owner: int | None = None, bus: str = "") -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url)
        migrate(self.engine)
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._insert_actions = ("INSERT INTO actions (table_id, seq, seat, action, at) "
                                f"VALUES ({mark}, {mark}, {mark}, {mark}, {mark})")
        self._finish_table = (f"UPDATE tables SET finished_at = {mark}, winner = {mark}, "
                              f"scores = {mark} WHERE id = {mark}")
        self._log_conn: Any = None
        self.owner = owner
        """This process's id when several processes share the database: then
        ``append_actions`` writes only the tables this process owns, and announces them."""
        self.bus = bus
        """The channel ``append_actions`` announces committed actions on (with ``owner``)."""

    def close(self) -> None:
        if self._log_conn is not None:
            with contextlib.suppress(Exception):
                self._log_conn.close()
            self._log_conn = None
        self.engine.dispose()

    # writes ---------------------------------------------------------------------------------

    def create_table(self, table_id: str, rules: dict[str, Any], seed: int, invite: str,
                     seats: list[SeatData], only_computers: int | None = None,
                     rated: bool = False, public: bool = False,
                     clock: float | None = None, bots: bool = False) -> float:
        """A new table's rows (``rated``: created to be rated). ``only_computers`` (for a
        table with no person's seat): the most unfinished tables of computers only the site
        plays at once; counted in this transaction (on PostgreSQL behind a transaction
        advisory lock, so two processes creating at once count each other), and over it
        ``LimitError`` with nothing written."""
        now = time.time()
        with self.engine.begin() as conn:
            if only_computers is not None:
                self._room_for_computers(conn, only_computers)
            conn.execute(insert(TableRow).values(
                id=table_id, created_at=now, rules=json.dumps(rules), seed=seed, invite=invite,
                rated=rated, public=public, clock=clock, bots=bots))
            conn.execute(insert(SeatRow), [
                {"table_id": table_id, "seat": s.seat, "token": s.token, "kind": s.kind,
                 "level": s.level, "name": s.name, "claimed": s.claimed,
                 "left_at": now if s.kind == "human" else None, "player_id": s.player_id}
                for s in seats])
            if public and (held := opening_stints(seats)):
                conn.execute(insert(StintRow), [
                    {"table_id": table_id, "seat": h.seat, "player_id": h.player_id,
                     "kind": h.kind, "from_seq": h.start} for h in held])
            if self.owner is not None:
                conn.execute(insert(OwnerRow).values(table_id=table_id, process=self.owner,
                                                     epoch=1))
        return now

    def _room_for_computers(self, conn: Any, most: int) -> None:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({COMPUTER_TABLES_LOCK})")
        person = select(SeatRow.table_id).where(SeatRow.table_id == TableRow.id,
                                                SeatRow.kind == "human")
        playing = conn.execute(select(func.count()).select_from(TableRow).where(
            TableRow.finished_at.is_(None), ~person.exists())).scalar_one()
        if playing >= most:
            raise computer_tables_error(playing, most)

    def append_actions(self, rows: list[tuple[str, int, int, int,
                                              tuple[int, list[int]] | None]]) -> set[str]:
        """Several tables' actions in one transaction (the server's group commit): under load
        one commit carries every action that arrived while the previous one was being
        written, instead of one commit each. A row whose ``finished`` is set (winner, scores)
        also marks its game over, in the same transaction; a duplicate ``seq`` violates the
        primary key, so two writers can never both extend one log.

        This is the server's hottest write, so it goes straight to the driver on a connection
        kept for it (a plain executemany and commit): through SQLAlchemy's statement layer the
        same write took several times the Python time, measured under load. After any error
        that connection is dropped (the transaction rolled back) and a fresh one is used.

        With ``owner`` set (several processes on one database) the write is fenced: in the
        same transaction it share-locks this process's ``owners`` rows of those tables and
        inserts only the rows of tables it still owns, so a process that lost a table (taken
        over while it stalled) cannot extend its log even once; a takeover's update waits for
        this commit. Each table's committed rows are announced on ``bus`` by a NOTIFY in the
        same transaction, which PostgreSQL delivers only when (and in the order) it commits.
        Returns the tables whose rows were refused that way."""
        now = time.time()
        refused: set[str] = set()
        conn = self._log_conn
        if conn is None:
            conn = self._log_conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            try:
                if self.owner is not None:
                    refused = self._append_fenced(cur, rows, now)
                else:
                    cur.executemany(self._insert_actions, [(t, seq, seat, a, now)
                                                           for t, seq, seat, a, _ in rows])
                    for t, _, _, _, finished in rows:
                        if finished is not None:
                            winner, scores = finished
                            cur.execute(self._finish_table,
                                        (now, winner, json.dumps(scores), t))
            finally:
                cur.close()
            conn.commit()
            return refused
        except Exception:
            self._log_conn = None
            with contextlib.suppress(Exception):
                conn.rollback()
            with contextlib.suppress(Exception):
                conn.invalidate()
            raise

    def _append_fenced(self, cur: Any, rows: list[Any], now: float) -> set[str]:
        sql, params = self.fenced_write(rows, now)
        cur.execute(sql, params)
        return refused_by(params, cur.fetchall())

    def fenced_write(self, rows: list[Any], now: float) -> tuple[str, dict[str, Any]]:
        """The fenced write of ``append_actions`` as one statement: the owners rows'
        share locks, the inserts of the tables still owned, their games' ends and their
        announcements, so a commit costs two round trips to the database (this and the
        commit) whatever it carries. Each was its own round trip before (the announcements
        one per table), and on a busy machine every round trip also waits for the
        database's process to be scheduled. The statement returns the tables still owned
        (``refused_by`` says which were refused). The server's group commit runs it on the
        event loop (``euchre.web.actionlog``), ``append_actions`` in this thread."""
        tables = sorted({r[0] for r in rows})  # one lock order for every writer
        by_table: dict[str, list[Any]] = {}
        for t, seq, seat, a, _ in rows:
            by_table.setdefault(t, []).append((seq, seat, a))
        notes = [B.encode(B.Actions(t, acts[0][0], [(seat, a) for _, seat, a in acts]))
                 for t, acts in by_table.items()]
        ends = [(t, finished) for t, _, _, _, finished in rows if finished is not None]
        return FENCED_WRITE, {
            "tables": tables, "owner": self.owner, "now": now,
            "t": [r[0] for r in rows], "seq": [r[1] for r in rows],
            "seat": [r[2] for r in rows], "a": [r[3] for r in rows],
            "ft": [t for t, _ in ends], "fw": [f[0] for _, f in ends],
            "fs": [json.dumps(f[1]) for _, f in ends], "bus": self.bus,
            "nt": list(by_table), "np": notes}

    def _hold(self, conn: Any, table_id: str) -> None:
        """Fence a write of the table's seats or chat as ``append_actions`` fences its
        actions: with ``owner`` set, share-lock this process's ``owners`` row in the write's
        own transaction, or raise ``LostTable`` (the transaction rolls back: nothing is
        written). A takeover's update waits for this transaction, so once another process
        owns the table none of this one's writes can land."""
        if self.owner is not None and not self._owned(conn, [table_id]):
            raise LostTable("another server process owns this table now")

    def _owned(self, conn: Any, tables: list[str]) -> set[str]:
        """Which of ``tables`` this process owns, their ``owners`` rows share-locked until the
        transaction ends (in one order for every writer)."""
        return {r[0] for r in conn.execute(
            select(OwnerRow.table_id).where(OwnerRow.table_id.in_(sorted(set(tables))),
                                            OwnerRow.process == self.owner)
            .order_by(OwnerRow.table_id).with_for_update(read=True))}

    def close_abandoned(self, before: float) -> list[str]:
        """Close every unfinished table whose last move (or, with none, its creation) was
        before ``before``: it is archived as over with no winner, and no longer resumed.
        Returns their ids."""
        last = (select(ActionRow.table_id, func.max(ActionRow.at).label("at"))
                .group_by(ActionRow.table_id).subquery())
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(TableRow.id, TableRow.created_at, last.c.at)
                .outerjoin(last, last.c.table_id == TableRow.id)
                .where(TableRow.finished_at.is_(None))).all()
            stale = [r.id for r in rows if (r.at if r.at is not None else r.created_at) < before]
            if stale:
                conn.execute(update(TableRow).where(TableRow.id.in_(stale)).values(
                    finished_at=time.time(), winner=-1, scores="[]"))
        return stale

    def update_seat(self, table_id: str, seat: Seat, **values: Any) -> None:
        """Fenced (``LostTable``) where several processes share the database."""
        with self.engine.begin() as conn:
            self._hold(conn, table_id)
            conn.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                               SeatRow.seat == seat).values(**values))

    def take_seat(self, table_id: str, stint: Stint, **values: Any) -> None:
        """A player takes a seat of an open table: its row changes (``values``) and their
        stint there begins, in one transaction. Fenced (``LostTable``) where several
        processes share the database."""
        with self.engine.begin() as conn:
            self._hold(conn, table_id)
            conn.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                               SeatRow.seat == stint.seat).values(**values))
            conn.execute(insert(StintRow).values(
                table_id=table_id, seat=stint.seat, player_id=stint.player_id,
                kind=stint.kind, from_seq=stint.start))

    def leave_seat(self, table_id: str, seat: Seat, at: int, **values: Any) -> None:
        """A player leaves a seat of an open table when its log is ``at`` actions long: its
        row changes (``values``) and their stint there ends, in one transaction. Fenced
        (``LostTable``) where several processes share the database."""
        with self.engine.begin() as conn:
            self._hold(conn, table_id)
            conn.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                               SeatRow.seat == seat).values(**values))
            conn.execute(update(StintRow).where(StintRow.table_id == table_id,
                                                StintRow.seat == seat,
                                                StintRow.to_seq.is_(None)).values(to_seq=at))

    def set_left_at(self, rows: list[tuple[str, int, float | None]]) -> None:
        """(table id, seat, when it became empty or None) for several seats, one transaction.
        Where several processes share the database only the tables this process still owns
        are written (the new owner of another keeps its seats' times)."""
        stmt = update(SeatRow).where(SeatRow.table_id == bindparam("b_table"),
                                     SeatRow.seat == bindparam("b_seat")) \
            .values(left_at=bindparam("b_left"))
        with self.engine.begin() as conn:
            if self.owner is not None:
                mine = self._owned(conn, [t for t, _, _ in rows])
                rows = [r for r in rows if r[0] in mine]
            if rows:
                conn.execute(stmt, [{"b_table": t, "b_seat": seat, "b_left": at}
                                    for t, seat, at in rows])

    def set_bots(self, table_id: str, allowed: bool) -> None:
        """Whether an open table takes bot accounts at its free seats (its host's choice).
        Fenced (``LostTable``) where several processes share the database."""
        with self.engine.begin() as conn:
            self._hold(conn, table_id)
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(bots=allowed))

    def set_pace(self, table_id: str, pace: float) -> None:
        """The turn clock an open table runs now, for the lobby. Fenced (``LostTable``) where
        several processes share the database."""
        with self.engine.begin() as conn:
            self._hold(conn, table_id)
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(pace=pace))

    def bot_seats(self, player_id: int) -> int:
        """Seats the bot account ``player_id`` holds at unfinished open tables (those it took
        itself, through the lobby and Play now), on the whole site."""
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(SeatRow)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.player_id == player_id, SeatRow.kind == BOT,
                       SeatRow.claimed.is_(True), TableRow.public.is_(True),
                       TableRow.finished_at.is_(None))).scalar_one())

    def add_chat(self, table_id: str, seat: Seat, name: str, text: str, at: float) -> None:
        """Fenced (``LostTable``) where several processes share the database."""
        with self.engine.begin() as conn:
            self._hold(conn, table_id)
            conn.execute(insert(ChatRow).values(table_id=table_id, seat=seat, name=name,
                                                text=text, at=at))

    # reads ----------------------------------------------------------------------------------

    def _load(self, conn: Any, row: Any, chat_limit: int) -> TableData:
        seats = [SeatData(r.seat, r.token, r.kind, r.level, r.name, r.claimed, r.left_at,
                          r.player_id)
                 for r in conn.execute(select(SeatRow).where(SeatRow.table_id == row.id)
                                       .order_by(SeatRow.seat))]
        acts = [(r.seat, r.action) for r in conn.execute(
            select(ActionRow.seq, ActionRow.seat, ActionRow.action)
            .where(ActionRow.table_id == row.id).order_by(ActionRow.seq))]
        chat = [{"seat": r.seat, "name": r.name, "text": r.text, "at": r.at}
                for r in conn.execute(select(ChatRow).where(ChatRow.table_id == row.id)
                                      .order_by(ChatRow.id.desc()).limit(chat_limit))]
        chat.reverse()
        stints = [Stint(r.seat, r.player_id, r.kind, r.from_seq, r.to_seq)
                  for r in conn.execute(select(StintRow).where(StintRow.table_id == row.id)
                                        .order_by(StintRow.id))]
        return TableData(row.id, row.created_at, json.loads(row.rules), row.seed, row.invite,
                         seats, acts, row.finished_at, chat, bool(row.rated),
                         bool(row.public), row.clock, bool(row.bots), stints, row.pace)

    def lobby(self, limit: int = 100) -> list[LobbyRow]:
        """The open tables anyone may sit at, the fullest first, with their seats as stored
        (every server process writes a seat's change here before anyone hears of it, so this
        is the whole site's list whichever process reads it)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(TableRow).where(
                TableRow.public.is_(True), TableRow.finished_at.is_(None))
                .order_by(TableRow.created_at)).all()
            if not rows:
                return []
            seats: dict[str, list[tuple[str, bool, str, str]]] = {}
            for r in conn.execute(select(SeatRow.table_id, SeatRow.kind, SeatRow.claimed,
                                         SeatRow.level, SeatRow.name)
                                  .where(SeatRow.table_id.in_([t.id for t in rows]))
                                  .order_by(SeatRow.table_id, SeatRow.seat)):
                seats.setdefault(r.table_id, []).append((r.kind, bool(r.claimed), r.level,
                                                         r.name))
            started = {r[0] for r in conn.execute(
                select(ActionRow.table_id).where(ActionRow.table_id.in_([t.id for t in rows]),
                                                 ActionRow.seq == 0))}
        out = [LobbyRow(t.id, t.created_at, json.loads(t.rules), bool(t.rated), t.clock,
                        seats.get(t.id, []), t.id in started, bool(t.bots), t.pace)
               for t in rows]
        # the fullest first: a seat a player holds (a person's or a bot account's) counts
        out.sort(key=lambda r: (-sum(c for k, c, _, _ in r.seats if k in PLAYER_KINDS),
                                r.created_at))
        return out[:limit]

    def load_table(self, table_id: str, chat_limit: int = 50) -> TableData | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(TableRow).where(TableRow.id == table_id)).first()
            return None if row is None else self._load(conn, row, chat_limit)

    def load_unfinished(self, chat_limit: int = 50) -> list[TableData]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(TableRow).where(TableRow.finished_at.is_(None))
                                .order_by(TableRow.created_at)).all()
            return [self._load(conn, r, chat_limit) for r in rows]

    def results_unwritten(self, ended_before: float | None = None) -> list[str]:
        """Finished games (not closed unplayed) whose results were never written (the
        process that ended them stopped first), those that ended before ``ended_before``
        if given."""
        q = select(TableRow.id).where(TableRow.results_at.is_(None),
                                      TableRow.finished_at.is_not(None),
                                      TableRow.scores != "[]")
        if ended_before is not None:
            q = q.where(TableRow.finished_at < ended_before)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(q)]

    def list_finished(self, limit: int = 50) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(TableRow).where(TableRow.finished_at.is_not(None))
                                .order_by(TableRow.finished_at.desc()).limit(limit)).all()
            seated = seat_holders(conn, [r.id for r in rows])
            out = []
            for r in rows:
                names = seated.get(r.id, [])
                out.append({"id": r.id, "finished_at": r.finished_at, "winner": r.winner,
                            "scores": json.loads(r.scores or "[]"), "names": names,
                            "rules": json.loads(r.rules)})
            return out


#: How a finished game's seat held by several players in turn is named: "Bob / North (club)".
HOLDERS_JOIN = " / "


def seat_holders(conn: Any, table_ids: list[str]) -> dict[str, list[str]]:
    """The names of the seats of each of ``table_ids``: the one home of how every list of
    finished games (the home page's, each profile's) names who played, so a game reads the
    same wherever it is shown. A seat names everyone with a part in its result (a row of
    ``results``): its players in the order they first took it, by the name they have now,
    then its computer where it played a part of the seat as nobody's ("Bob / North (club)").
    A seat with no result (a game closed unfinished, a seat opened by its link alone) is
    named as it ended."""
    if not table_ids:
        return {}
    seats: dict[str, list[Any]] = {}
    for s in conn.execute(select(SeatRow.table_id, SeatRow.seat, SeatRow.name, SeatRow.level)
                          .where(SeatRow.table_id.in_(table_ids))
                          .order_by(SeatRow.table_id, SeatRow.seat)):
        seats.setdefault(s.table_id, []).append(s)
    first = {(t.table_id, t.seat, t.player_id): t.first for t in conn.execute(
        select(StintRow.table_id, StintRow.seat, StintRow.player_id,
               func.min(StintRow.from_seq).label("first"))
        .where(StintRow.table_id.in_(table_ids))
        .group_by(StintRow.table_id, StintRow.seat, StintRow.player_id))}
    held: dict[tuple[str, int], list[tuple[int, int, str]]] = {}
    for r in conn.execute(select(ResultRow.table_id, ResultRow.seat, ResultRow.player_id,
                                 PlayerRow.name, PlayerRow.kind)
                          .join(PlayerRow, PlayerRow.id == ResultRow.player_id)
                          .where(ResultRow.table_id.in_(table_ids))):
        computer = r.kind == "computer"
        order = first.get((r.table_id, r.seat, r.player_id))
        held.setdefault((r.table_id, r.seat), []).append(
            (int(computer), order if order is not None else -1, "" if computer else r.name))
    out: dict[str, list[str]] = {}
    for table_id, rows in seats.items():
        names = []
        for s in rows:
            parts = sorted(held.get((table_id, s.seat), []))
            names.append(HOLDERS_JOIN.join(
                name or computer_name(s.seat, len(rows), s.level) for _, _, name in parts)
                if parts else s.name)
        out[table_id] = names
    return out
