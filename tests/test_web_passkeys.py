"""Passkeys (WebAuthn) over HTTP, on SQLite and on PostgreSQL, with a software authenticator:
the ceremonies' rows (a challenge for one use, until it expires; a credential kept once),
what a replayed, stale, cloned or foreign answer gets, and that nothing a client sends as an
answer reaches the log as a traceback. The browser test (Chromium's virtual authenticator)
is in ``test_web_players_browser.py``."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from typing import Any

import pytest
from webtools import LiveServer


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """One passkey made and used as a device would (ES256, attestation "none"): enough of
    WebAuthn to drive the server's checks without a browser."""

    def __init__(self) -> None:
        from cryptography.hazmat.primitives.asymmetric import ec

        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.count = 0
        self.user = b""

    def _auth_data(self, rp_id: str, attested: bytes = b"") -> bytes:
        flags = 0x01 | 0x04 | (0x40 if attested else 0)  # user present, verified, attested
        return (hashlib.sha256(rp_id.encode()).digest() + bytes([flags])
                + self.count.to_bytes(4, "big") + attested)

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        import cbor2

        nums = self.key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: nums.x.to_bytes(32, "big"),
                            -3: nums.y.to_bytes(32, "big")})
        attested = (bytes(16) + len(self.credential_id).to_bytes(2, "big")
                    + self.credential_id + cose)
        self.user = unb64(options["user"]["id"])
        client = json.dumps({"type": "webauthn.create", "challenge": options["challenge"],
                             "origin": origin, "crossOrigin": False}).encode()
        att = cbor2.dumps({"fmt": "none", "attStmt": {},
                           "authData": self._auth_data(options["rp"]["id"], attested)})
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client), "attestationObject": b64(att)}}

    def get(self, options: dict[str, Any], origin: str, count: int | None = None
            ) -> dict[str, Any]:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec

        self.count = self.count + 1 if count is None else count
        data = self._auth_data(options["rpId"])
        client = json.dumps({"type": "webauthn.get", "challenge": options["challenge"],
                             "origin": origin, "crossOrigin": False}).encode()
        sig = self.key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client), "authenticatorData": b64(data),
                             "signature": b64(sig), "userHandle": b64(self.user)}}


def by_name(srv: LiveServer) -> Any:
    """A browser-like client that reaches the server by the name ``localhost`` (a relying
    party is a name, never an address)."""
    import httpx

    base = f"http://localhost:{srv.port}"
    return httpx.Client(base_url=base, timeout=20, headers={"Origin": base})


def csrf(client: Any) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/me").json()["csrf"] or ""}


SECRET = "a long secret 42"


def signed_up(client: Any, name: str) -> None:
    client.post("/api/me/guest", json={"name": name})
    r = client.post("/api/account/signup", json={"name": name, "password": SECRET},
                    headers=csrf(client))
    assert r.status_code == 201, r.text


def add_passkey(client: Any, device: SoftAuthenticator) -> Any:
    begun = client.post("/api/account/passkeys/new", json={"password": SECRET},
                        headers=csrf(client)).json()
    return client.post("/api/account/passkeys", headers=csrf(client), json={
        "ceremony": begun["ceremony"],
        "credential": device.create(begun["options"], str(client.base_url).rstrip("/"))})


def start(client: Any) -> dict[str, Any]:
    r = client.post("/api/account/passkey/start", json={}, headers=csrf(client))
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_passkey_signs_in_once_per_challenge_on_sqlite_and_postgresql(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kept and checked alike on both databases: the passkey opens its account; its answer
    sent again, an answer with a signature count that did not go up (a cloned device), a
    ceremony that expired, another account's ceremony, and the same passkey added twice are
    all refused, and none of them opens a session."""
    from euchre.web import passkeys

    device = SoftAuthenticator()
    with LiveServer(db_url=db_url) as srv, by_name(srv) as pia, by_name(srv) as eve:
        origin = str(pia.base_url).rstrip("/")
        signed_up(pia, "Pia")
        r = add_passkey(pia, device)
        assert r.status_code == 201 and r.json()["passkeys"] == 1, r.text
        r = add_passkey(pia, device)  # the same credential again
        assert r.status_code == 409 and "already kept" in r.json()["error"], r.text
        pia.post("/api/account/signout", json={}, headers=csrf(pia))
        assert pia.get("/api/me").json()["player"] is None

        begun = start(pia)
        answer = {"ceremony": begun["ceremony"],
                  "credential": device.get(begun["options"], origin)}
        r = pia.post("/api/account/passkey/signin", json=answer)
        assert r.status_code == 200 and r.json()["player"] == {"name": "Pia",
                                                               "kind": "account"}, r.text
        assert pia.get("/api/me").json()["player"]["name"] == "Pia"

        r = eve.post("/api/account/passkey/signin", json=answer)  # replayed
        assert r.status_code == 400 and "used or expired" in r.json()["error"], r.text
        fresh = start(eve)["ceremony"]  # a fresh ceremony, the old challenge signed
        r = eve.post("/api/account/passkey/signin", json={**answer, "ceremony": fresh})
        assert r.status_code == 401, r.text
        cloned = start(eve)  # the right challenge, but a count that went back
        r = eve.post("/api/account/passkey/signin", json={
            "ceremony": cloned["ceremony"],
            "credential": device.get(cloned["options"], origin, count=1)})
        assert r.status_code == 401 and "does not open" in r.json()["error"], r.text
        assert eve.get("/api/me").json()["player"] is None

        monkeypatch.setattr(passkeys, "CEREMONY_SECONDS", -1.0)
        stale = start(eve)
        r = eve.post("/api/account/passkey/signin", json={
            "ceremony": stale["ceremony"], "credential": device.get(stale["options"], origin)})
        assert r.status_code == 400 and "expired" in r.json()["error"], r.text
        monkeypatch.undo()
        assert eve.get("/api/me").json()["player"] is None

        # a ceremony Pia began cannot add a passkey to Eve's account, nor hers to Eve
        signed_up(eve, "Eve")
        begun = pia.post("/api/account/passkeys/new", json={"password": SECRET},
                         headers=csrf(pia)).json()
        r = eve.post("/api/account/passkeys", headers=csrf(eve), json={
            "ceremony": begun["ceremony"],
            "credential": SoftAuthenticator().create(begun["options"], origin)})
        assert r.status_code == 400 and "unknown, used or expired" in r.json()["error"]
        # and the passkey still signs Pia in, with the next count
        later = start(eve)
        r = eve.post("/api/account/passkey/signin", headers=csrf(eve), json={
            "ceremony": later["ceremony"], "credential": device.get(later["options"], origin)})
        assert r.status_code == 200 and r.json()["player"]["name"] == "Pia", r.text


def test_no_passkey_answer_a_client_sends_reaches_the_log_as_a_traceback(
        sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Whatever shape a passkey answer takes, the server says what was wrong (400 or 401)
    and logs no traceback."""
    import logging

    caplog.set_level(logging.DEBUG)
    device = SoftAuthenticator()
    with LiveServer(db_url=sqlite_url) as srv, by_name(srv) as pia, by_name(srv) as eve:
        origin = str(pia.base_url).rstrip("/")
        signed_up(pia, "Pia")
        assert add_passkey(pia, device).status_code == 201
        begun = start(eve)
        good = device.get(begun["options"], origin)
        resp = good["response"]
        shapes: list[Any] = [
            {}, [], "x", 5, None, {"id": 5}, {"id": "x", "rawId": "x"},
            {**good, "rawId": "!!not base64!!"}, {**good, "response": {}},
            {**good, "response": []}, {**good, "response": {**resp, "clientDataJSON": 7}},
            {**good, "response": {**resp, "clientDataJSON": b64(b"not json")}},
            {**good, "response": {**resp, "clientDataJSON": b64(b"[1, 2]")}},
            {**good, "response": {**resp, "authenticatorData": b64(b"short")}},
            {**good, "response": {**resp, "signature": b64(b"\x30\x02\x01")}},
            {**good, "response": {**resp, "userHandle": 3}},
            {**good, "type": "password"}, {**good, "authenticatorAttachment": "moon"},
        ]
        for shape in shapes:
            for path in ("/api/account/passkey/signin", "/api/account/passkeys"):
                client = eve if path.endswith("signin") else pia
                ceremony = (start(eve)["ceremony"] if client is eve else client.post(
                    "/api/account/passkeys/new", json={"password": SECRET},
                    headers=csrf(client)).json()["ceremony"])
                r = client.post(path, json={"ceremony": ceremony, "credential": shape},
                                headers=csrf(client))
                assert r.status_code in (400, 401), (path, shape, r.status_code, r.text)
                assert r.json()["error"], (path, shape)
        r = eve.post("/api/account/passkey/signin", json={"ceremony": 5, "credential": {}})
        assert r.status_code == 400
        assert eve.get("/api/me").json()["player"] is None
    assert caplog.records, "the server logged nothing at all: the check would be empty"
    assert "Traceback" not in caplog.text and not any(
        rec.exc_info for rec in caplog.records), caplog.text


def ceremonies(url: str) -> int:
    import sqlalchemy as sa

    from euchre.web.store import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM passkey_ceremonies")).scalar()
                       or 0)
    finally:
        engine.dispose()


def test_passkey_ceremonies_cannot_pile_up(sqlite_url: str) -> None:
    """A passkey sign-in counts against the address's failed sign-ins until it succeeds, and
    once the address's allowance is used a new one is refused with nothing stored; an
    account adding a passkey has one ceremony at a time, its newest."""
    import httpx

    with LiveServer(db_url=sqlite_url, trusted_proxies=("127.0.0.1",), account_signins=3,
                    address_signins=4) as srv, by_name(srv) as pia:
        signed_up(pia, "Pia")
        for _ in range(3):
            r = pia.post("/api/account/passkeys/new", json={"password": SECRET},
                         headers=csrf(pia))
            assert r.status_code == 200, r.text
        assert ceremonies(sqlite_url) == 1
        first = r.json()
        with httpx.Client(base_url=str(pia.base_url), timeout=20, headers={
                "Origin": str(pia.base_url).rstrip("/"),
                "X-Forwarded-For": "198.51.100.7"}) as eve:
            assert [eve.post("/api/account/passkey/start", json={}).status_code
                    for _ in range(4)] == [200] * 4
            r = eve.post("/api/account/passkey/start", json={})
            assert r.status_code == 429 and "from your address: at most 4" in r.json()["error"]
        assert ceremonies(sqlite_url) == 5
        # the account's newest ceremony still finishes
        device = SoftAuthenticator()
        r = pia.post("/api/account/passkeys", headers=csrf(pia), json={
            "ceremony": first["ceremony"],
            "credential": device.create(first["options"], str(pia.base_url).rstrip("/"))})
        assert r.status_code == 201, r.text


def test_a_stolen_session_cannot_add_a_passkey_and_a_lost_one_is_removed(db_url: str) -> None:
    """Adding a passkey asks for the account's password again, each wrong one counted as a
    failed sign-in (a browser found signed in must not add a way in that outlasts a password
    change); the account lists its passkeys and removes one, which then opens nothing, and
    nobody else can remove it."""
    import httpx

    device, other = SoftAuthenticator(), SoftAuthenticator()
    with LiveServer(db_url=db_url, account_signins=3) as srv, by_name(srv) as pia, \
            by_name(srv) as eve:
        origin = str(pia.base_url).rstrip("/")
        signed_up(pia, "Pia")
        # the thief has Pia's browser (its cookie and CSRF token), not her password
        with httpx.Client(base_url=origin, timeout=20, headers={"Origin": origin},
                          cookies=dict(pia.cookies)) as thief:
            r = thief.post("/api/account/passkeys/new", json={}, headers=csrf(thief))
            assert r.status_code == 400 and "password" in r.json()["error"], r.text
            for guess in ("not her password", "guess again 2", "guess again 3"):
                r = thief.post("/api/account/passkeys/new", json={"password": guess},
                               headers=csrf(thief))
                assert r.status_code == 401, r.text
                assert r.json()["error"] == "your current password is not that"
            r = thief.post("/api/account/passkeys/new", json={"password": SECRET},
                           headers=csrf(thief))
            assert r.status_code == 429 and "at most 3" in r.json()["error"], r.text
        assert ceremonies(db_url) == 0
    with LiveServer(db_url=db_url) as srv, by_name(srv) as pia, by_name(srv) as eve:
        origin = str(pia.base_url).rstrip("/")
        r = pia.post("/api/account/signin", json={"name": "Pia", "password": SECRET})
        assert r.status_code == 200, r.text
        assert add_passkey(pia, device).status_code == 201
        assert add_passkey(pia, other).status_code == 201
        mine = pia.get("/api/account/passkeys").json()["passkeys"]
        assert [k["id"] for k in mine] == [b64(device.credential_id), b64(other.credential_id)]
        assert all(k["used_at"] is None for k in mine)
        assert eve.get("/api/account/passkeys").status_code == 401
        signed_up(eve, "Eve")
        r = eve.post("/api/account/passkeys/remove", json={"id": mine[0]["id"]},
                     headers=csrf(eve))
        assert r.status_code == 404 and "no passkey with that id" in r.json()["error"]
        r = pia.post("/api/account/passkeys/remove", json={"id": mine[0]["id"]},
                     headers=csrf(pia))
        assert r.status_code == 200 and [k["id"] for k in r.json()["passkeys"]] == [
            b64(other.credential_id)]
        with by_name(srv) as anyone:
            begun = start(anyone)
            r = anyone.post("/api/account/passkey/signin", json={
                "ceremony": begun["ceremony"], "credential": device.get(begun["options"], origin)})
            assert r.status_code == 401 and anyone.get("/api/me").json()["player"] is None
            # from a guest's browser, bringing the guest along as a password sign-in does
            anyone.post("/api/me/guest", json={"name": "Pip"})
            begun = start(anyone)
            r = anyone.post("/api/account/passkey/signin", headers=csrf(anyone), json={
                "ceremony": begun["ceremony"], "credential": other.get(begun["options"], origin),
                "guest_games": True})
            assert r.status_code == 200 and r.json()["player"]["name"] == "Pia"
            assert r.json()["guest_games"] is True
            assert srv.get("/api/players/Pip")[0] == 404  # its games are Pia's now
        used = pia.get("/api/account/passkeys").json()["passkeys"]
        assert used[0]["used_at"] is not None
