"""Who is asking: guests, accounts and their sessions, over HTTP and the websocket.

A browser's identity is a server-side session (``euchre.web.players``): its cookie holds a random
token (HttpOnly, SameSite=Strict, Secure when the page came over TLS), the database only the
token's SHA-256. A first visit becomes a guest by giving a name (one click: the table's form
does it on the way); a guest may sign up, becoming an account with the same games.

Every request that changes something is checked twice against forgery from another site: its
``Origin`` (and ``Sec-Fetch-Site``) must be this site's, and a request that carries a session
must carry that session's CSRF token in ``X-CSRF-Token``. The websocket's handshake is held to
the same ``Origin`` rule, since its cookie opens the player's seats.

Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106), in a small thread pool
of their own so a hash never holds the event loop or the database thread; a password is never
logged or stored. A failed sign-in reads the same and takes as long whether or not the account
exists.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from euchre.web import players as P
from euchre.web import schemas as S
from euchre.web.actionlog import Database
from euchre.web.levels import accepted_levels
from euchre.web.limits import LimitError, Limits, Window
from euchre.web.names import name_key, name_refusal, reads_like
from euchre.web.rooms import computer_labels, viewer_word

log = logging.getLogger("euchre.web")

COOKIE = "euchre_session"
CSRF_HEADER = "x-csrf-token"
#: The shortest and longest password accepted (OWASP ASVS 2.1.1 and 2.1.2).
PASSWORD_MIN = 12
PASSWORD_MAX = 128
#: The rule ``password_problem`` holds a new password to, in the words the sign-up and
#: change-password forms show (served in ``/api/me``, so the page never states another rule).
PASSWORD_RULE = (f"At least {PASSWORD_MIN} characters (at most {PASSWORD_MAX}), not one of the "
                 "commonest passwords, and not containing your user name.")
#: Hashes computed at once (argon2id uses 64 MiB each).
HASHES_AT_ONCE = 2

AccountsMode = Literal["open", "closed", "off"]

Text = Annotated[str, msgspec.Meta(max_length=S.NAME_MAX)]
Password = Annotated[str, msgspec.Meta(max_length=1024)]


class GuestRequest(msgspec.Struct, forbid_unknown_fields=True):
    name: Text | None = None


class NameRequest(msgspec.Struct, forbid_unknown_fields=True):
    name: Text


class Credentials(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=200)]
    password: Password


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=200)]
    password: Password
    guest_games: bool = False
    """A guest signing in: make the guest's games (and their rating's evidence) the
    account's (``players.merge_guest``)."""


class NewPassword(msgspec.Struct, forbid_unknown_fields=True):
    password: Password
    new_password: Password


class Refused(Exception):
    """A request refused before it is read: its status and the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@cache
def common_passwords() -> frozenset[str]:
    """The 20,000 commonest passwords, lowercased (see ``data/common-passwords.LICENSE``)."""
    path = Path(__file__).parent / "data" / "common-passwords.txt.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return frozenset(line.strip() for line in f if line.strip())


def password_problem(password: str, name: str) -> str | None:
    """Why ``password`` may not be used (by the account ``name``), or None."""
    if len(password) < PASSWORD_MIN:
        return f"a password needs at least {PASSWORD_MIN} characters"
    if len(password) > PASSWORD_MAX:
        return f"a password has at most {PASSWORD_MAX} characters"
    if password.casefold() in common_passwords():
        return "that password is one of the commonest passwords; choose another"
    if name_key(name) and name_key(name) in name_key(password):
        return "a password may not contain your user name"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` (cleaned) may not be a player's name, besides another player holding it."""
    if not name:
        return "a name needs some visible text"
    taken = [label for n in (2, 3, 4) for label in computer_labels(n)]
    taken += [(level, "a computer level's name") for level in accepted_levels()]
    return viewer_word(name) or name_refusal(name, taken)


def same_site(conn: HTTPConnection) -> bool:
    """Whether a request (or websocket handshake) came from this site's own pages: a browser
    names the page's site in ``Origin`` (and says ``Sec-Fetch-Site``); a program that sends
    neither carries no browser's cookies either."""
    site = conn.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == conn.headers.get("host", "").lower()


#: The window failed sign-ins are counted over, in seconds.
SIGNIN_WINDOW = 600.0


class SignInLimits:
    """Failed sign-ins, counted per account and per client address through the site's limits
    (``euchre.web.limits``: in memory on one process, in PostgreSQL for a cluster, so they
    hold for the whole site).

    Each attempt is counted against both before its password is checked, and given back when
    the password was right: only failures use the allowance. The account's count is by the
    name asked for (its ``name_key``), whether or not an account has it, so a refusal says
    nothing about which names exist. Someone who fails for another's account fills that
    account's allowance for a while (a lockout of new sign-ins, at most ``SIGNIN_WINDOW``
    after the last failure); the account's own browsers stay signed in through it, since a
    session is not a sign-in."""

    def __init__(self, limits: Limits, per_account: int, per_address: int) -> None:
        self.limits, self.per_account, self.per_address = limits, per_account, per_address

    def _rules(self, address: str, key: str) -> tuple[tuple[str, Window], tuple[str, Window]]:
        return ((f"signin:account:{key}", Window(self.per_account, SIGNIN_WINDOW)),
                (f"signin:address:{address}", Window(self.per_address, SIGNIN_WINDOW)))

    async def attempt(self, address: str, key: str) -> None:
        """Count one attempt to sign in to the account ``key`` from ``address``, or raise
        ``LimitError`` (counting nothing) when either allowance is used up."""
        try:
            refused = await self.limits.take(*self._rules(address, key))
        except Exception as exc:  # the database: one log line, and no guess goes uncounted
            log.error("could not count a sign-in against the limits: %r", exc)
            raise Refused(503, "the server cannot check sign-ins just now; try again in a "
                          "moment") from None
        # A refused attempt is not counted, so the failures counted now have all left the
        # window one window from now: the wait a refusal can name (another's failures in the
        # meantime may count anew).
        minutes = round(SIGNIN_WINDOW / 60)
        when = f"try again in {minutes} minutes, when these have left the count"
        if refused == 0:
            raise LimitError("sign_in_account", f"too many failed sign-ins to this account: "
                             f"at most {self.per_account} in {minutes} minutes; {when}")
        if refused == 1:
            raise LimitError("sign_in_address", f"too many failed sign-ins from your address: "
                             f"at most {self.per_address} in {minutes} minutes; {when}")

    async def succeeded(self, address: str, key: str) -> None:
        """The attempt's password was right: it does not count against either allowance."""
        try:
            for rule_key, rule in self._rules(address, key):
                await self.limits.refund(rule_key, rule)
        except Exception as exc:  # the attempt stays counted: harmless
            log.error("could not give back a sign-in's count: %r", exc)


class Accounts:
    """Sessions, guests and accounts for the app's routes and the websocket."""

    def __init__(self, db: Database, mode: AccountsMode, signins: SignInLimits) -> None:
        self.db, self.mode, self.signins = db, mode, signins
        self.renamed: Callable[[int, str], None] = lambda _player_id, _name: None
        """Called when a player's name changes (a rename, a guest's sign-up, a guest's games
        brought into an account), so the tables in memory show it as the database does."""
        self.hashing = ThreadPoolExecutor(HASHES_AT_ONCE, thread_name_prefix="euchre-hash")
        self._dummy: str | None = None

    def stop(self) -> None:
        self.hashing.shutdown(wait=False, cancel_futures=True)

    # hashing ----------------------------------------------------------------------------

    async def _hash(self, password: str) -> str:
        from argon2 import PasswordHasher

        return await asyncio.get_running_loop().run_in_executor(
            self.hashing, PasswordHasher().hash, password)

    async def _verify(self, hashed: str, password: str) -> bool:
        from argon2 import PasswordHasher
        from argon2.exceptions import InvalidHashError, VerificationError

        def check() -> bool:
            try:
                return PasswordHasher().verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.get_running_loop().run_in_executor(self.hashing, check)

    async def dummy_hash(self) -> str:
        """A hash to check a password against when no account has the name, so the answer
        takes as long as for a real account."""
        if self._dummy is None:
            self._dummy = await self._hash(secrets.token_urlsafe(16))
        return self._dummy

    # sessions ---------------------------------------------------------------------------

    async def session(self, conn: HTTPConnection) -> P.Session | None:
        token = conn.cookies.get(COOKIE, "")
        if not token:
            return None
        return await self.db.run(lambda store: P.session(store, token))

    async def writer(self, request: Request) -> P.Session | None:
        """The session of a request that changes something, after the checks against
        forgery (``Refused``)."""
        if not same_site(request):
            raise Refused(403, "requests from other sites are refused")
        found = await self.session(request)
        if found is not None:
            sent = request.headers.get(CSRF_HEADER, "")
            if not secrets.compare_digest(sent.encode(), found.csrf.encode()):
                raise Refused(403, "this request lacks the page's CSRF token: reload the page "
                              "and try again")
        return found

    def signed_in(self, request: Request, response: Response, found: P.Session) -> Response:
        response.set_cookie(COOKIE, found.token, max_age=int(P.SESSION_MAX_DAYS * 86400),
                            path="/", httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")
        return response

    def me(self, found: P.Session | None) -> dict[str, Any]:
        return {"player": None if found is None else found.player.public(),
                "csrf": None if found is None else found.csrf, "accounts": self.mode,
                "password_rule": PASSWORD_RULE}

    # the routes -------------------------------------------------------------------------

    async def get_me(self, request: Request) -> Response:
        return JSONResponse(self.me(await self.session(request)),
                            headers={"Cache-Control": "no-store"})

    async def check_name(self, name: str, player_id: int | None = None) -> str:
        """``name`` cleaned, or ``Refused`` saying why no player (or bot) may take it."""
        clean = S.clean_text(name, S.NAME_MAX)
        problem = name_problem(clean)
        if problem:
            raise Refused(400, f"name: {problem}")
        freed = await self.db.run(lambda store: P.free_name(store, clean))
        if freed is not None:
            self.renamed(*freed)
        other = await self.db.run(lambda store: P.taken(store, clean, player_id))
        if other is not None:
            refusal = reads_like(clean, other, "another player's name")
            raise Refused(409, f"name: {refusal}; choose another")
        return clean

    async def guest(self, request: Request) -> Response:
        """A new guest with the name asked for (or "Guest" and a number)."""
        found = await self.writer(request)
        if found is not None:
            return JSONResponse(self.me(found))
        req = await decode(request, GuestRequest)
        player: P.Player | None = None
        if req.name and req.name.strip():
            player = await self._new_guest(await self.check_name(req.name))
        else:
            for _ in range(20):
                try:
                    player = await self._new_guest(f"Guest {secrets.randbelow(90000) + 10000}")
                    break
                except Refused:
                    continue
            if player is None:
                raise Refused(503, "could not find a free guest name; give a name")
        pid = player.id
        fresh = await self.db.run(lambda store: P.new_session(store, pid))
        return self.signed_in(request, JSONResponse(self.me(fresh), status_code=201), fresh)

    async def _new_guest(self, name: str) -> P.Player:
        try:
            return await self.db.run(lambda store: P.create_guest(store, name))
        except P.NameTaken:
            raise Refused(409, f"name: {name!r} reads like another player's name; choose "
                          "another") from None

    async def rename(self, request: Request) -> Response:
        found = await self.writer(request)
        if found is None:
            raise Refused(401, "you have no player's name yet: give one first")
        req = await decode(request, NameRequest)
        name = await self.check_name(req.name, found.player.id)
        try:
            await self.db.run(lambda store: P.rename(store, found.player.id, name))
        except P.NameTaken:
            raise Refused(409, f"name: {name!r} reads like another player's name") from None
        self.renamed(found.player.id, name)
        return JSONResponse(self.me(await self.session(request)))

    async def sign_up(self, request: Request) -> Response:
        found = await self.writer(request)
        if self.mode != "open":
            raise Refused(403, "this site takes no new accounts" if self.mode == "closed"
                          else "this site has no accounts: play as a guest")
        req = await decode(request, Credentials)
        guest = found.player.id if found is not None and found.player.kind == "guest" else None
        if found is not None and guest is None:
            raise Refused(409, "you are signed in to an account: sign out first")
        name = await self.check_name(req.name, guest)
        problem = password_problem(req.password, name)
        if problem:
            raise Refused(400, f"password: {problem}")
        hashed = await self._hash(req.password)
        try:
            player = await self.db.run(lambda store: P.make_account(store, guest, name, hashed))
        except P.NameTaken:
            raise Refused(409, f"name: {name!r} reads like another player's name") from None
        self.renamed(player.id, player.name)
        old = found.token if found is not None else None
        fresh = await self.db.run(lambda store: P.new_session(store, player.id, old))
        return self.signed_in(request, JSONResponse(self.me(fresh), status_code=201), fresh)

    async def sign_in(self, request: Request) -> Response:
        found = await self.writer(request)
        if self.mode == "off":
            raise Refused(403, "this site has no accounts: play as a guest")
        req = await decode(request, SignIn)
        key, address = name_key(req.name), client_address(request)
        await self.signins.attempt(address, key)
        known = await self.db.run(lambda store: P.account(store, req.name))
        hashed = known[1] if known is not None else await self.dummy_hash()
        good = await self._verify(hashed, req.password[:PASSWORD_MAX])
        if known is None or not good:
            raise Refused(401, "that user name and password do not match an account")
        await self.signins.succeeded(address, key)
        return await self.open_session(request, found, known[0].id, req.guest_games)

    async def open_session(self, request: Request, found: P.Session | None, account: int,
                           guest_games: bool) -> Response:
        """The account's new session, once its password or passkey was right: the browser's
        old session ends with it; a guest's games become the account's if asked for
        (``players.merge_guest``)."""
        merged = False
        if guest_games and found is not None and found.player.kind == "guest":
            guest = found.player.id
            merged = await self.db.run(lambda store: P.merge_guest(store, guest, account))
        old = found.token if found is not None else None
        fresh = await self.db.run(lambda store: P.new_session(store, account, old))
        if merged and found is not None:  # the guest's seats are the account's now
            self.renamed(found.player.id, fresh.player.name)
        return self.signed_in(request, JSONResponse({**self.me(fresh),
                                                     "guest_games": merged}), fresh)

    async def sign_out(self, request: Request) -> Response:
        found = await self.writer(request)
        if found is not None:
            await self.db.run(lambda store: P.end_session(store, found.token))
        response = JSONResponse(self.me(None))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                               secure=request.url.scheme == "https")
        return response

    async def recheck_password(self, request: Request, found: P.Session,
                               password: str) -> None:
        """The signed-in account's password asked for again before a change a stolen session
        must not make (a new password, a new passkey): ``Refused`` unless right, and each
        wrong one counted as a failed sign-in, so a stolen session cannot guess it."""
        key, address = name_key(found.player.name), client_address(request)
        await self.signins.attempt(address, key)
        hashed = await self.db.run(lambda store: P.password_hash(store, found.player.id))
        if hashed is None or not await self._verify(hashed, password[:PASSWORD_MAX]):
            raise Refused(401, "your current password is not that")
        await self.signins.succeeded(address, key)

    async def change_password(self, request: Request) -> Response:
        found = await self.writer(request)
        if found is None or found.player.kind != "account":
            raise Refused(401, "sign in to change your password")
        req = await decode(request, NewPassword)
        await self.recheck_password(request, found, req.password)
        problem = password_problem(req.new_password, found.player.name)
        if problem:
            raise Refused(400, f"new_password: {problem}")
        new = await self._hash(req.new_password)
        await self.db.run(lambda store: P.set_password(store, found.player.id, new,
                                                       found.token))
        return JSONResponse(self.me(found))


def client_address(request: Request) -> str:
    return request.client.host if request.client else ""


async def decode(request: Request, kind: type[Any]) -> Any:
    from euchre.web.app import body

    try:
        return await body(request, kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise Refused(400, f"invalid request: {exc}") from None
    except ValueError as exc:
        raise Refused(400, str(exc)) from None


def route(handler: Callable[[Request], Awaitable[Response]]
          ) -> Callable[[Request], Awaitable[Response]]:
    """A handler whose refusals (``Refused``, ``LimitError``) become their JSON answers."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        except LimitError as exc:
            return JSONResponse({"error": str(exc)}, status_code=429)

    return run
