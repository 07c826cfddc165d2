"""Passkeys (WebAuthn): a second way into an account, with nothing to guess, reuse or type into
another site. An account signed in with its password adds one (its device makes a key pair
and keeps the private key); later that device signs a challenge of this site's and the
account is in, without its name or password.

The ceremonies' checks (the signed challenge, the origin and relying party, the flags, the
signature over the stored public key, the signature count) are py_webauthn's, Duo Labs'
library of the W3C specification; this module keeps what they need: each account's
credentials (``passkeys``) and each ceremony's challenge (``passkey_ceremonies``: one use,
``CEREMONY_SECONDS`` to finish, the browser holding only a token whose SHA-256 is stored).

The relying party is the host the browser asked for (no port: WebAuthn's rule), so a passkey
made at ``https://euchre.example`` is offered there only; an IP address cannot be one, so a
server reached by its address alone offers no passkeys. Passkeys are made discoverable
(resident), so a sign-in asks for no user name, and ask the device to verify its user where it
can.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from typing import Annotated, Any

import msgspec
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from euchre.web.accounts import Accounts, Password, Refused, client_address, decode
from euchre.web.store import CeremonyRow, PasskeyRow, PlayerRow, Store

#: Seconds a browser has to finish a ceremony it began.
CEREMONY_SECONDS = 300.0
#: The most passkeys one account keeps.
PASSKEYS_MAX = 10
RP_NAME = "Euchre"


@functools.cache
def not_an_answer() -> tuple[type[Exception], ...]:
    """What py_webauthn raises on an answer it cannot read or accept: its own exceptions, and
    what the decoders under it (base64, JSON, CBOR, struct) raise on bytes of the wrong
    shape. Each is the client's mistake, answered with what was wrong and never logged."""
    import struct

    from webauthn.helpers.exceptions import WebAuthnException

    return (WebAuthnException, ValueError, KeyError, TypeError, AttributeError, IndexError,
            struct.error, OverflowError)


class NewPasskey(msgspec.Struct, forbid_unknown_fields=True):
    password: Password
    """The account's password, asked for again: a stolen session must not add a way in
    that outlasts a password change."""


class RemovePasskey(msgspec.Struct, forbid_unknown_fields=True):
    id: Annotated[str, msgspec.Meta(max_length=1400)]


class Finish(msgspec.Struct, forbid_unknown_fields=True):
    ceremony: str
    credential: dict[str, Any]
    guest_games: bool = False
    """Signing in from a guest's browser: bring the guest's games (as with a password)."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def relying_party(request: Request) -> tuple[str, str]:
    """(the relying party's id, the origin) of the site this request came to; ``Refused``
    where the host is an IP address, which WebAuthn does not take."""
    import ipaddress

    host = request.url.hostname or ""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    else:
        raise Refused(400, "passkeys need the site's name, not an IP address: open it by "
                      "its name (localhost on this machine)")
    if not host:
        raise Refused(400, "the request names no host")
    return host, f"{request.url.scheme}://{request.url.netloc}"


# the rows ---------------------------------------------------------------------------------


def begin(store: Store, token: str, challenge: bytes, player_id: int | None) -> None:
    """Store a ceremony's challenge under the token the browser sends back with its answer.
    An account adds one passkey at a time: its unfinished ceremonies end here, so a
    signed-in browser cannot pile them up (a sign-in's are bounded by the sign-in limits)."""
    now = time.time()
    with store.engine.begin() as conn:
        conn.execute(delete(CeremonyRow).where(CeremonyRow.expires_at < now))
        if player_id is not None:
            conn.execute(delete(CeremonyRow).where(CeremonyRow.player_id == player_id))
        conn.execute(insert(CeremonyRow).values(id=_hash(token), challenge=challenge,
                                                player_id=player_id,
                                                expires_at=now + CEREMONY_SECONDS))


def take(store: Store, token: str) -> tuple[bytes, int | None] | None:
    """The ceremony's challenge and account, once: it is gone after this (None: unknown,
    used or expired)."""
    if not token or len(token) > 100:
        return None
    with store.engine.begin() as conn:
        row = conn.execute(delete(CeremonyRow).where(CeremonyRow.id == _hash(token))
                           .returning(CeremonyRow.challenge, CeremonyRow.player_id,
                                      CeremonyRow.expires_at)).first()
    if row is None or row.expires_at < time.time():
        return None
    return bytes(row.challenge), row.player_id


def credential_ids(store: Store, player_id: int) -> list[str]:
    with store.engine.connect() as conn:
        return [str(r) for r in conn.execute(select(PasskeyRow.id).where(
            PasskeyRow.player_id == player_id)).scalars()]


def add(store: Store, player_id: int, credential_id: str, public_key: bytes,
        sign_count: int) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(PasskeyRow).values(id=credential_id, player_id=player_id,
                                               public_key=public_key, sign_count=sign_count,
                                               created_at=time.time()))


def listed(store: Store, player_id: int) -> list[dict[str, Any]]:
    """The account's passkeys, the oldest first: each one's id, when it was added and when it
    last signed in (None: never)."""
    with store.engine.connect() as conn:
        return [{"id": r.id, "created_at": r.created_at, "used_at": r.used_at}
                for r in conn.execute(select(PasskeyRow.id, PasskeyRow.created_at,
                                             PasskeyRow.used_at)
                                      .where(PasskeyRow.player_id == player_id)
                                      .order_by(PasskeyRow.created_at, PasskeyRow.id))]


def remove(store: Store, player_id: int, credential_id: str) -> bool:
    """Forget one of the account's passkeys (False: it has none with that id)."""
    with store.engine.begin() as conn:
        return bool(conn.execute(delete(PasskeyRow).where(
            PasskeyRow.id == credential_id, PasskeyRow.player_id == player_id)).rowcount)


def find(store: Store, credential_id: str) -> tuple[int, bytes, int] | None:
    """(the account, the public key, the signature count) of a credential of an account."""
    with store.engine.connect() as conn:
        row = conn.execute(select(PasskeyRow.player_id, PasskeyRow.public_key,
                                  PasskeyRow.sign_count)
                           .join(PlayerRow, PlayerRow.id == PasskeyRow.player_id)
                           .where(PasskeyRow.id == credential_id,
                                  PlayerRow.kind == "account")).first()
    return None if row is None else (int(row[0]), bytes(row[1]), int(row[2]))


def used(store: Store, credential_id: str, sign_count: int) -> None:
    with store.engine.begin() as conn:
        conn.execute(update(PasskeyRow).where(PasskeyRow.id == credential_id)
                     .values(sign_count=sign_count, used_at=time.time()))


# the routes --------------------------------------------------------------------------------


class Passkeys:
    """The passkey routes, beside the password's (``Accounts``: sessions, forgery checks,
    the sign-in limits)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.db = accounts.db

    async def new_options(self, request: Request) -> Response:
        """Begin adding a passkey to the signed-in account: the options for the browser's
        ``navigator.credentials.create``."""
        from webauthn import generate_registration_options, options_to_json
        from webauthn.helpers import base64url_to_bytes
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria,
            PublicKeyCredentialDescriptor,
            ResidentKeyRequirement,
            UserVerificationRequirement,
        )

        found = await self.accounts.writer(request)
        if found is None or found.player.kind != "account":
            raise Refused(401, "sign in to your account to add a passkey")
        req = await decode(request, NewPasskey)
        rp_id, _ = relying_party(request)
        await self.accounts.recheck_password(request, found, req.password)
        who = found.player
        have = await self.db.run(lambda store: credential_ids(store, who.id))
        if len(have) >= PASSKEYS_MAX:
            raise Refused(409, f"an account keeps at most {PASSKEYS_MAX} passkeys")
        options = generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_name=who.name, user_display_name=who.name,
            user_id=f"euchre-player-{who.id}".encode(),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                                 for c in have],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED))
        token = secrets.token_urlsafe(32)
        await self.db.run(lambda store: begin(store, token, options.challenge, who.id))
        return JSONResponse({"ceremony": token,
                             "options": msgspec.json.decode(options_to_json(options))},
                            headers={"Cache-Control": "no-store"})

    async def add(self, request: Request) -> Response:
        """Finish adding a passkey: the browser's answer, checked, and the key kept."""
        from webauthn import verify_registration_response
        from webauthn.helpers import bytes_to_base64url

        found = await self.accounts.writer(request)
        if found is None or found.player.kind != "account":
            raise Refused(401, "sign in to your account to add a passkey")
        req = await decode(request, Finish)
        rp_id, origin = relying_party(request)
        started = await self.db.run(lambda store: take(store, req.ceremony))
        if started is None or started[1] != found.player.id:
            raise Refused(400, "that passkey ceremony is unknown, used or expired: begin again")
        try:
            done = verify_registration_response(
                credential=req.credential, expected_challenge=started[0],
                expected_rp_id=rp_id, expected_origin=origin)
        except not_an_answer() as exc:
            raise Refused(400, f"the passkey was not accepted: {exc}") from None
        cid = bytes_to_base64url(done.credential_id)
        pid = found.player.id
        try:
            await self.db.run(lambda store: add(store, pid, cid, done.credential_public_key,
                                                done.sign_count))
        except IntegrityError:  # the same credential twice: its id is the key
            raise Refused(409, "that passkey is already kept") from None
        return JSONResponse({**self.accounts.me(found), "passkeys": len(
            await self.db.run(lambda store: credential_ids(store, pid)))}, status_code=201)

    async def mine(self, request: Request) -> Response:
        """The signed-in account's passkeys (``GET``), so a lost or unknown one can be
        removed."""
        found = await self.accounts.session(request)
        if found is None or found.player.kind != "account":
            raise Refused(401, "sign in to your account to see its passkeys")
        pid = found.player.id
        return JSONResponse({"passkeys": await self.db.run(lambda store: listed(store, pid))},
                            headers={"Cache-Control": "no-store"})

    async def forget(self, request: Request) -> Response:
        """Remove one of the signed-in account's passkeys: it opens nothing from then on."""
        found = await self.accounts.writer(request)
        if found is None or found.player.kind != "account":
            raise Refused(401, "sign in to your account to remove a passkey")
        req = await decode(request, RemovePasskey)
        pid = found.player.id
        if not await self.db.run(lambda store: remove(store, pid, req.id)):
            raise Refused(404, "this account has no passkey with that id")
        return JSONResponse({"passkeys": await self.db.run(lambda store: listed(store, pid))})

    async def start(self, request: Request) -> Response:
        """Begin a sign-in with a passkey: the options for ``navigator.credentials.get``
        (no account named: the device offers the passkeys it keeps for this site). Counted
        against the address's failed sign-ins until it succeeds."""
        from webauthn import generate_authentication_options, options_to_json
        from webauthn.helpers.structs import UserVerificationRequirement

        await self.accounts.writer(request)
        if self.accounts.mode == "off":
            raise Refused(403, "this site has no accounts: play as a guest")
        rp_id, _ = relying_party(request)
        options = generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        token = secrets.token_urlsafe(32)
        await self.accounts.signins.attempt(client_address(request), _key(token))
        await self.db.run(lambda store: begin(store, token, options.challenge, None))
        return JSONResponse({"ceremony": token,
                             "options": msgspec.json.decode(options_to_json(options))},
                            headers={"Cache-Control": "no-store"})

    async def sign_in(self, request: Request) -> Response:
        """Finish a sign-in with a passkey: the signed challenge, checked against the
        credential's public key; the account's new session (and, asked for, the guest's
        games, as with a password)."""
        from webauthn import verify_authentication_response
        from webauthn.helpers import bytes_to_base64url, parse_authentication_credential_json

        found = await self.accounts.writer(request)
        if self.accounts.mode == "off":
            raise Refused(403, "this site has no accounts: play as a guest")
        req = await decode(request, Finish)
        rp_id, origin = relying_party(request)
        started = await self.db.run(lambda store: take(store, req.ceremony))
        if started is None or started[1] is not None:
            raise Refused(400, "that passkey ceremony is unknown, used or expired: begin again")
        refused = Refused(401, "that passkey does not open an account here")
        try:
            cid = bytes_to_base64url(parse_authentication_credential_json(
                req.credential).raw_id)
        except not_an_answer() as exc:
            raise Refused(400, f"the passkey's answer is not one: {exc}") from None
        known = await self.db.run(lambda store: find(store, cid))
        if known is None:
            raise refused
        account, public_key, count = known
        try:
            done = verify_authentication_response(
                credential=req.credential, expected_challenge=started[0],
                expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=public_key, credential_current_sign_count=count)
        except not_an_answer():
            raise refused from None
        await self.db.run(lambda store: used(store, cid, done.new_sign_count))
        await self.accounts.signins.succeeded(client_address(request), _key(req.ceremony))
        return await self.accounts.open_session(request, found, account, req.guest_games)


def _key(token: str) -> str:
    """The sign-in limits' account key of a passkey ceremony (its own: only the address's
    count says anything across ceremonies)."""
    return "passkey:" + _hash(token)[:16]

