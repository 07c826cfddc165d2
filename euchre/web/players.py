"""The players' rows: guests, accounts and computer levels, their sessions, and each one's
result in each finished game. Synchronous functions over the store's engine, run in the
database thread like every other write (``Database.run``).

A name is unique among players by its comparison key (``euchre.web.names.name_key``: Unicode's
confusable skeleton after NFKC case folding, spaces dropped), stored beside it: two names that
look alike ("Ann", "ANN", "A n n", Cyrillic "Аnn") cannot both be held. A guest not seen for
``GUEST_KEPT_DAYS`` gives its name up to whoever asks for it next: it keeps its games, shown
under the name with its number as a mark ("Ann·12").
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from euchre.seats import Seat
from euchre.web.names import name_key
from euchre.web.store import PlayerRow, ResultRow, SeatRow, SessionRow, StintRow, Store

#: A guest unseen this long lets its name go to a new player (it keeps its games).
GUEST_KEPT_DAYS = 90.0
#: A session lasts this long after it was last used (it is renewed as it is used).
SESSION_IDLE_DAYS = 30.0
#: ... and never longer than this after sign-in.
SESSION_MAX_DAYS = 365.0
#: A session's last use is written at most this often (every request would be a write).
SEEN_EVERY = 300.0


class NameTaken(Exception):
    """The name reads like another player's."""


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    kind: str
    """"guest", "account", "computer" or "bot"."""
    mu: float | None = None
    sigma: float | None = None
    rated_games: int = 0
    merged: tuple[int, ...] = ()
    """The guests whose games went to this account when it signed in from their browser."""

    @property
    def ids(self) -> frozenset[int]:
        """Every player id this player answers to: their own and their merged guests' (a
        table still playing when a guest signed in knows the seat by the guest's id)."""
        return frozenset((self.id, *self.merged))

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _player(row: Any, conn: Any = None) -> Player:
    """The player of a row (with ``conn``: with the guests merged into it)."""
    merged: tuple[int, ...] = ()
    if conn is not None and row.kind == "account":
        merged = tuple(int(i) for i in conn.execute(
            select(PlayerRow.id).where(PlayerRow.merged_into == row.id)).scalars())
    return Player(row.id, row.name, row.kind, row.mu, row.sigma, row.rated_games, merged)


def _name_seats(conn: Any, player_id: int, name: str) -> None:
    """A player's seats, at every table, show the name the player has now: a guest who signs
    up, renames or merges into an account is not left under a name someone else may take
    next (the finished lists, replays, reviews and profiles read the seats' names)."""
    conn.execute(update(SeatRow).where(SeatRow.player_id == player_id).values(name=name))


def _free_name(conn: Any, key: str, now: float) -> tuple[int, str] | None:
    """A guest unseen for ``GUEST_KEPT_DAYS`` holding ``key`` gives it up: its name (and its
    seats') takes its number as a mark. The guest and its new name, if one was freed."""
    row = conn.execute(select(PlayerRow).where(PlayerRow.key == key)).first()
    if row is None or row.kind != "guest" or row.seen_at > now - GUEST_KEPT_DAYS * 86400:
        return None
    marked = f"{row.name}·{row.id}"
    conn.execute(update(PlayerRow).where(PlayerRow.id == row.id)
                 .values(name=marked, key=f"{key}·{row.id}"))
    _name_seats(conn, row.id, marked)
    return int(row.id), marked


def free_name(store: Store, name: str) -> tuple[int, str] | None:
    """Free ``name`` if a long-unseen guest holds it (``_free_name``), before a player takes
    it: the guest and its marked name, for the tables in memory."""
    with store.engine.begin() as conn:
        return _free_name(conn, name_key(name), time.time())


def create_guest(store: Store, name: str) -> Player:
    """A new guest named ``name`` (``NameTaken`` if another player's reads alike)."""
    now = time.time()
    key = name_key(name)
    try:
        with store.engine.begin() as conn:
            _free_name(conn, key, now)
            pid = conn.execute(insert(PlayerRow).values(
                name=name, key=key, kind="guest", created_at=now, seen_at=now,
                rated_games=0).returning(PlayerRow.id)).scalar_one()
    except IntegrityError:
        raise NameTaken(name) from None
    return Player(pid, name, "guest")


def rename(store: Store, player_id: int, name: str) -> None:
    now = time.time()
    key = name_key(name)
    try:
        with store.engine.begin() as conn:
            _free_name(conn, key, now)
            conn.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                         .values(name=name, key=key))
            _name_seats(conn, player_id, name)
    except IntegrityError:
        raise NameTaken(name) from None


def taken(store: Store, name: str, player_id: int | None = None) -> str | None:
    """The name of the player (not ``player_id``) whose name reads like ``name``, if any."""
    with store.engine.connect() as conn:
        row = conn.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.kind,
                                  PlayerRow.seen_at)
                           .where(PlayerRow.key == name_key(name))).first()
    if row is None or row.id == player_id:
        return None
    if row.kind == "guest" and row.seen_at <= time.time() - GUEST_KEPT_DAYS * 86400:
        return None  # given up on request
    return str(row.name)


def player_by_id(store: Store, player_id: int) -> Player | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(PlayerRow).where(PlayerRow.id == player_id)).first()
    return None if row is None else _player(row)


def player_by_name(store: Store, name: str) -> Player | None:
    """The player whose name is exactly ``name``, else the one whose name reads alike; a
    guest merged into an account is that account."""
    with store.engine.connect() as conn:
        row = conn.execute(select(PlayerRow).where(PlayerRow.name == name)).first()
        if row is None:
            row = conn.execute(select(PlayerRow).where(PlayerRow.key == name_key(name))).first()
        if row is not None and row.merged_into is not None:
            row = conn.execute(select(PlayerRow).where(PlayerRow.id == row.merged_into)).first()
    return None if row is None else _player(row)


def account(store: Store, name: str) -> tuple[Player, str] | None:
    """The account whose name reads like ``name``, with its password hash."""
    with store.engine.connect() as conn:
        row = conn.execute(select(PlayerRow).where(PlayerRow.key == name_key(name),
                                                   PlayerRow.kind == "account")).first()
    if row is None or row.password is None:
        return None
    return _player(row), str(row.password)


def password_hash(store: Store, player_id: int) -> str | None:
    with store.engine.connect() as conn:
        value = conn.execute(select(PlayerRow.password)
                             .where(PlayerRow.id == player_id)).scalar_one_or_none()
    return None if value is None else str(value)


def make_account(store: Store, player_id: int | None, name: str, hashed: str) -> Player:
    """A new account named ``name``; with ``player_id`` (a guest signing up) that guest becomes
    the account, so its games and rating are the account's. ``NameTaken`` if another player's
    name reads alike."""
    now = time.time()
    key = name_key(name)
    try:
        with store.engine.begin() as conn:
            _free_name(conn, key, now)
            if player_id is None:
                player_id = conn.execute(insert(PlayerRow).values(
                    name=name, key=key, kind="account", password=hashed, created_at=now,
                    seen_at=now, rated_games=0).returning(PlayerRow.id)).scalar_one()
            else:
                done = conn.execute(update(PlayerRow).where(PlayerRow.id == player_id,
                                                            PlayerRow.kind == "guest")
                                    .values(name=name, key=key, kind="account",
                                            password=hashed, seen_at=now)).rowcount
                if done != 1:
                    raise NameTaken(name)
                _name_seats(conn, player_id, name)
    except IntegrityError:
        raise NameTaken(name) from None
    found = player_by_id(store, player_id)
    assert found is not None
    return found


def merge_guest(store: Store, guest: int, account: int) -> bool:
    """The guest's games become the account's, when the guest signs in to it from the guest's
    browser and asks for it; False (nothing done) if ``guest`` is not a guest or was merged
    already. One transaction: the guest's seats and results move to the account; the
    account's rating is rated again over every rated game of both, in the order they ended
    (``results.rerate_player``: as if one name had played them all); the guest keeps its row,
    marked as merged, so a table it was still playing at credits the account; its name is
    free again and its sessions end."""
    from euchre.web.results import rerate_player

    with store.engine.begin() as conn:
        rows = {r.id: r for r in conn.execute(
            select(PlayerRow).where(PlayerRow.id.in_([guest, account]))
            .order_by(PlayerRow.id).with_for_update())}
        g, a = rows.get(guest), rows.get(account)
        if g is None or a is None or g.kind != "guest" or g.merged_into is not None \
                or a.kind != "account":
            return False
        conn.execute(update(SeatRow).where(SeatRow.player_id == guest)
                     .values(player_id=account, name=a.name))
        fold_results(conn, guest, account)
        conn.execute(update(StintRow).where(StintRow.player_id == guest)
                     .values(player_id=account))
        rating = rerate_player(conn, account)
        if rating is not None:
            conn.execute(update(PlayerRow).where(PlayerRow.id == account).values(
                mu=rating.mu, sigma=rating.sigma, rated_games=rating.games))
        conn.execute(update(PlayerRow).where(PlayerRow.id == guest).values(
            name=f"{g.name}·{guest}", key=f"{g.key}·{guest}", merged_into=account, mu=None,
            sigma=None, rated_games=0))
        conn.execute(delete(SessionRow).where(SessionRow.player_id == guest))
    return True


def fold_results(conn: Any, guest: int, account: int) -> None:
    """The guest's results become the account's; where both held one seat of one game in
    turn (the guest left it, the account took it back), one result, their shares and hands
    added."""
    from euchre.web.results import COUNTS

    mine = ResultRow.player_id == account
    for g in conn.execute(select(ResultRow).where(ResultRow.player_id == guest)).all():
        same = (ResultRow.table_id == g.table_id) & (ResultRow.seat == g.seat)
        if conn.execute(select(ResultRow.seat).where(same, mine)).first() is None:
            continue
        conn.execute(update(ResultRow).where(same, mine).values(
            share=ResultRow.share + g.share,
            **{c: getattr(ResultRow, c) + getattr(g, c) for c in COUNTS}))
        conn.execute(delete(ResultRow).where(same, ResultRow.player_id == guest))
    conn.execute(update(ResultRow).where(ResultRow.player_id == guest)
                 .values(player_id=account))


def set_password(store: Store, player_id: int, hashed: str, keep_session: str) -> None:
    """A new password hash; every other session of the player ends with it."""
    with store.engine.begin() as conn:
        conn.execute(update(PlayerRow).where(PlayerRow.id == player_id)
                     .values(password=hashed))
        conn.execute(delete(SessionRow).where(SessionRow.player_id == player_id,
                                              SessionRow.id != token_hash(keep_session)))


# sessions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    token: str
    """The cookie's value (only its hash is stored)."""
    player: Player
    csrf: str


def new_session(store: Store, player_id: int, replace: str | None = None) -> Session:
    """A fresh session for ``player_id`` (a new token at every sign-in, sign-up and guest:
    a token planted before cannot be ridden); ``replace``'s session ends with it."""
    now = time.time()
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    with store.engine.begin() as conn:
        if replace:
            conn.execute(delete(SessionRow).where(SessionRow.id == token_hash(replace)))
        conn.execute(insert(SessionRow).values(
            id=token_hash(token), player_id=player_id, csrf=csrf, created_at=now, seen_at=now,
            expires_at=now + SESSION_MAX_DAYS * 86400))
        conn.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(seen_at=now))
        row = conn.execute(select(PlayerRow).where(PlayerRow.id == player_id)).one()
        return Session(token, _player(row, conn), csrf)


def session(store: Store, token: str) -> Session | None:
    """The live session whose cookie is ``token`` (idle or expired ones end here)."""
    if not token or len(token) > 100:
        return None
    now = time.time()
    key = token_hash(token)
    with store.engine.connect() as conn:
        s = conn.execute(select(SessionRow).where(SessionRow.id == key)).first()
        p = None if s is None else conn.execute(
            select(PlayerRow).where(PlayerRow.id == s.player_id)).first()
        player = None if p is None else _player(p, conn)
    if s is None or p is None or player is None:
        return None
    if s.expires_at <= now or s.seen_at <= now - SESSION_IDLE_DAYS * 86400:
        end_session(store, token)
        return None
    if s.seen_at <= now - SEEN_EVERY:
        with store.engine.begin() as conn:
            conn.execute(update(SessionRow).where(SessionRow.id == key).values(seen_at=now))
            conn.execute(update(PlayerRow).where(PlayerRow.id == p.id).values(seen_at=now))
    return Session(token, player, s.csrf)


def end_session(store: Store, token: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(SessionRow).where(SessionRow.id == token_hash(token)))


# seats ------------------------------------------------------------------------------------


def seat_player(store: Store, table_id: str, seat: Seat) -> int | None:
    with store.engine.connect() as conn:
        value = conn.execute(select(SeatRow.player_id).where(
            SeatRow.table_id == table_id, SeatRow.seat == seat)).scalar_one_or_none()
    return None if value is None else int(value)
