"""Bot accounts: programs that play at the browser table's tables online, as players.

A bot account is a player of kind ``"bot"`` (rated like anyone, marked as a bot wherever it is
shown) with a token its program connects with (``euchre.web.botlinks``). The operator makes
them (``euchre bots add NAME``), and so may a signed-in account for its own bots (the account
page, ``/api/bots``).

A token is shown once, when it is made, and only its SHA-256 is stored (as a session's), so a
copy of the database opens nothing. A bot has one token at a time: a new one replaces the old,
and revoking leaves it none. Either ends every connection the old token opened, at once, in
every server process (``BotLinks.revoked``: through the processes' bus, and a look every
second at the tokens of the connections a process holds, which also catches a revocation made
by ``euchre bots`` beside a running server on SQLite).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from euchre.web import bus as B
from euchre.web import players as P
from euchre.web import schemas as S
from euchre.web.accounts import Accounts, Refused, decode
from euchre.web.names import name_key
from euchre.web.players import NameTaken, token_hash
from euchre.web.store import BotRow, PlayerRow, Store

#: A token starts with this, so a secret scanner (or a person) can tell one when it leaks.
TOKEN_PREFIX = "ebt_"
#: The most bots one account may own.
BOTS_PER_ACCOUNT = 5


@dataclass(frozen=True)
class BotAccount:
    id: int
    """Its player's id."""
    name: str
    owner: str | None
    """The account that owns it (None: the operator's)."""
    has_token: bool = True
    created_at: float = 0.0
    token_at: float | None = None
    rating: dict[str, Any] | None = None

    def public(self) -> dict[str, Any]:
        """As its owner's page and ``euchre bots list`` show it (``rating_text``: the same
        words in both)."""
        from euchre.web.ratings import NOT_RATED

        return {"name": self.name, "owner": self.owner, "has_token": self.has_token,
                "created_at": self.created_at, "token_at": self.token_at,
                "profile": f"/players/{self.name}", "rating": self.rating,
                "rating_text": NOT_RATED if self.rating is None else self.rating["text"]}


def new_token() -> str:
    """A fresh token: 256 random bits, as a session's."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def _announce(conn: Any, bot: int) -> None:
    """Tell every server process on this PostgreSQL that ``bot``'s token changed: they cut its
    connections off at once (the notification is delivered when, and only if, this
    transaction commits). SQLite has one server process, which finds out by its look."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SELECT pg_notify(%s, %s)", (B.BUS, B.encode(B.Revoked(bot))))


def create(store: Store, name: str, owner: int | None) -> tuple[BotAccount, str]:
    """A new bot named ``name`` (``owner``: the account that owns it, None for the
    operator's) and its token; ``NameTaken`` if another player's name reads alike,
    ``ValueError`` if the owner has ``BOTS_PER_ACCOUNT`` bots already."""
    now = time.time()
    token = new_token()
    try:
        with store.engine.begin() as conn:
            owner_name = None
            if owner is not None:
                row = conn.execute(select(PlayerRow).where(PlayerRow.id == owner)
                                   .with_for_update()).one()
                owner_name = str(row.name)
                count = len(conn.execute(select(BotRow.player_id)
                                         .where(BotRow.owner_id == owner)).all())
                if count >= BOTS_PER_ACCOUNT:
                    raise ValueError(f"an account may own at most {BOTS_PER_ACCOUNT} bots; "
                                     "remove one first")
            pid = conn.execute(insert(PlayerRow).values(
                name=name, key=name_key(name), kind="bot", created_at=now, seen_at=now,
                rated_games=0).returning(PlayerRow.id)).scalar_one()
            conn.execute(insert(BotRow).values(player_id=pid, owner_id=owner,
                                               token_hash=token_hash(token), token_at=now,
                                               created_at=now))
    except IntegrityError:
        raise NameTaken(name) from None
    return BotAccount(pid, name, owner_name, True, now, now), token


def _rows(conn: Any, where: Any) -> list[BotAccount]:
    from euchre.web.ratings import Rating, shown

    owner = PlayerRow.__table__.alias("owner")
    rows = conn.execute(
        select(PlayerRow.id, PlayerRow.name, PlayerRow.mu, PlayerRow.sigma, owner.c.name,
               BotRow.token_hash, BotRow.created_at, BotRow.token_at)
        .join(BotRow, BotRow.player_id == PlayerRow.id)
        .outerjoin(owner, owner.c.id == BotRow.owner_id)
        .where(where).order_by(PlayerRow.name)).all()
    return [BotAccount(r[0], r[1], r[4], r[5] is not None, r[6], r[7],
                       None if r[2] is None or r[3] is None else shown(Rating(r[2], r[3])))
            for r in rows]


def by_name(store: Store, name: str) -> BotAccount | None:
    """The bot whose name is ``name`` (or reads like it)."""
    with store.engine.connect() as conn:
        found = _rows(conn, (PlayerRow.kind == "bot") & (PlayerRow.name == name))
        if not found:
            found = _rows(conn, (PlayerRow.kind == "bot") & (PlayerRow.key == name_key(name)))
    return found[0] if found else None


def by_names(store: Store, names: list[str]) -> dict[str, BotAccount]:
    """The bots of these names (each as asked for, read alike), those that exist."""
    return {n: b for n in names if (b := by_name(store, n)) is not None}


def owned_by(store: Store, owner: int | None) -> list[BotAccount]:
    """An account's bots (None: every bot, for the operator)."""
    with store.engine.connect() as conn:
        where = PlayerRow.kind == "bot"
        if owner is not None:
            where = where & (BotRow.owner_id == owner)
        return _rows(conn, where)


def replace_token(store: Store, bot: int, revoke: bool = False) -> str | None:
    """A new token for ``bot`` (None with ``revoke``: no token at all); the old one stops
    opening anything, and every process cuts off what it opened."""
    token = None if revoke else new_token()
    with store.engine.begin() as conn:
        conn.execute(update(BotRow).where(BotRow.player_id == bot).values(
            token_hash=None if token is None else token_hash(token),
            token_at=None if token is None else time.time()))
        _announce(conn, bot)
    return token


def authenticate(store: Store, token: str) -> BotAccount | None:
    """The bot whose token this is, or None (a revoked, replaced or mistyped one)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    with store.engine.connect() as conn:
        found = _rows(conn, BotRow.token_hash == token_hash(token))
    return found[0] if found else None


def live_tokens(store: Store, hashes: list[str]) -> set[str]:
    """Which of these token hashes still open their bot (the rest were revoked or
    replaced)."""
    if not hashes:
        return set()
    with store.engine.connect() as conn:
        return {str(r[0]) for r in conn.execute(select(BotRow.token_hash)
                                                .where(BotRow.token_hash.in_(hashes)))}


# the account page's routes ------------------------------------------------------------------


class BotName(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=S.NAME_MAX)]


class BotPages:
    """``/api/bots``: a signed-in account's own bots (list, add, a new token, revoke). Every
    change is guarded as the account's other requests are (same site, CSRF token)."""

    def __init__(self, accounts: Accounts, mode: str, revoked: Callable[[int], None]) -> None:
        self.accounts, self.mode, self.revoked = accounts, mode, revoked

    async def _owner(self, request: Request, change: bool) -> P.Session:
        found = await (self.accounts.writer(request) if change
                       else self.accounts.session(request))
        if found is None or found.player.kind != "account":
            raise Refused(401, "sign in to your account to keep bots (a guest has none)")
        return found

    async def _mine(self, request: Request) -> tuple[P.Session, BotAccount]:
        found = await self._owner(request, True)
        name = request.path_params["name"]
        bot = await self.accounts.db.run(lambda store: by_name(store, name)) \
            if len(name) <= 200 else None
        if bot is None or bot.owner != found.player.name:
            raise Refused(404, "you have no bot of that name")
        return found, bot

    async def list(self, request: Request) -> Response:
        found = await self._owner(request, False)
        owner = found.player.id
        mine = await self.accounts.db.run(lambda store: owned_by(store, owner))
        return JSONResponse({"bots": [b.public() for b in mine], "mode": self.mode,
                             "most": BOTS_PER_ACCOUNT},
                            headers={"Cache-Control": "no-store"})

    async def add(self, request: Request) -> Response:
        found = await self._owner(request, True)
        if self.mode == "off":
            raise Refused(403, "this server takes no bots")
        req = await decode(request, BotName)
        name = await self.accounts.check_name(req.name)
        owner = found.player.id
        try:
            bot, token = await self.accounts.db.run(lambda store: create(store, name, owner))
        except NameTaken:
            raise Refused(409, f"name: {name!r} reads like another player's name") from None
        except ValueError as exc:
            raise Refused(409, str(exc)) from None
        return JSONResponse({"bot": bot.public(), "token": token}, status_code=201,
                            headers={"Cache-Control": "no-store"})

    async def token(self, request: Request) -> Response:
        _, bot = await self._mine(request)
        token = await self.accounts.db.run(lambda store: replace_token(store, bot.id))
        self.revoked(bot.id)
        return JSONResponse({"name": bot.name, "token": token},
                            headers={"Cache-Control": "no-store"})

    async def revoke(self, request: Request) -> Response:
        _, bot = await self._mine(request)
        await self.accounts.db.run(lambda store: replace_token(store, bot.id, revoke=True))
        self.revoked(bot.id)
        return JSONResponse({"name": bot.name, "has_token": False})
