"""Players who are someone: nobody shown to others as "You", and a database left by an older
release migrated with every stored game still replaying."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from typing import Any

from webtools import LiveServer

from euchre.bots import make_bot
from euchre.match import Match
from euchre.rules import Rules
from euchre.seats import seat_name


def test_a_creator_who_gives_no_name_is_shown_by_the_seat_never_as_you(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create()  # no name at all
        seats = srv.get(f"/api/tables/{t['id']}")[1]["seats"]
        assert seats[2]["name"] == "South"
        assert not [s for s in seats if s["name"].casefold() == "you"]
        t = srv.create(name="  ")  # blank: the same
        assert srv.get(f"/api/tables/{t['id']}")[1]["seats"][2]["name"] == "South"


def test_you_and_me_are_refused_as_names_everywhere(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        for word in ("You", "you", "ME", "Yourself"):
            status, out = srv.post("/api/tables", {"name": word})
            assert status == 400 and "own seat" in out["error"], out
        t = srv.create(name="Ann", my_seat=2, seats=[{"kind": "human"}, {"kind": "computer"},
                                                     {"kind": "human"}, {"kind": "computer"}])
        invite = t["invite_url"].split("#invite=")[1]
        status, out = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite, "name": "You"})
        assert status == 200
        seats = srv.get(f"/api/tables/{t['id']}")[1]["seats"]
        assert seats[0]["name"] == "North"  # the seat's own name, not "You"
        c = srv.connect(t["id"], t["token"])  # North has not come: the waiting room
        c.until_picture(lambda s: True)
        c.send({"type": "name", "name": "you"})
        err = c.until(lambda m: m["type"] == "error")
        assert err["code"] == "name_taken" and "own seat" in err["message"]
        c.close()


# A database as the release before players left it ------------------------------------------


def finished_game(seed: int, players: int = 4) -> tuple[dict[str, Any], list[tuple[int, int]],
                                                          list[int], int]:
    """A whole game between rule bots: (rules, actions, scores, winner)."""
    rules = Rules(players=players, target=5)
    m = Match(rules, seed=seed)
    bots = [make_bot("rule", seed=seed + i) for i in range(players)]
    acts: list[tuple[int, int]] = []
    while not m.is_terminal():
        seat = m.current_player
        a = bots[seat].choose(m.view(seat))
        m.apply_action(a)
        acts.append((seat, a))
    assert m.winner is not None
    return rules.to_dict(), acts, list(m.scores), m.winner


def old_database(url: str, games: int = 3) -> list[dict[str, Any]]:
    """A database at revision 0004 (the schema before players) holding finished games, one
    seat named "You" in each, written with plain SQL as that release wrote them."""
    import sqlalchemy as sa

    from euchre.web.store import make_engine, migrate, normalise_url

    engine = make_engine(normalise_url(url))
    migrate(engine, "0004")
    made = []
    with engine.begin() as conn:
        for g in range(games):
            rules, acts, scores, winner = finished_game(1000 + g, players=4 if g else 2)
            n = rules.get("players", 4)
            tid = f"old{g}"
            now = time.time() - 3600 + g
            conn.execute(sa.text(
                "INSERT INTO tables (id, created_at, rules, seed, invite, finished_at, winner, "
                "scores) VALUES (:id, :c, :r, :seed, :inv, :f, :w, :s)"),
                {"id": tid, "c": now, "r": json.dumps(rules), "seed": 1000 + g, "inv": "i" + tid,
                 "f": now + 60, "w": winner, "s": json.dumps(scores)})
            for seat in range(n):
                mine = seat == (2 if n == 4 else 0)
                conn.execute(sa.text(
                    "INSERT INTO seats (table_id, seat, token, kind, level, name, claimed, "
                    "left_at) VALUES (:t, :s, :tok, :k, 'rule', :name, :cl, NULL)"),
                    {"t": tid, "s": seat, "tok": f"tok{g}{seat}", "k": "human" if mine
                     else "computer", "name": "You" if mine else f"{seat_name(seat, n)} (rule)",
                     "cl": mine})
            conn.execute(sa.text("INSERT INTO actions (table_id, seq, seat, action, at) VALUES "
                                 "(:t, :q, :s, :a, :at)"),
                         [{"t": tid, "q": i, "s": s, "a": a, "at": now + i}
                          for i, (s, a) in enumerate(acts)])
            conn.execute(sa.text("INSERT INTO chat (table_id, seat, name, text, at) VALUES "
                                 "(:t, :s, 'You', 'good game', :at)"),
                         {"t": tid, "s": 2 if n == 4 else 0, "at": now + 30})
            made.append({"id": tid, "scores": scores, "winner": winner, "actions": len(acts),
                         "players": n})
    engine.dispose()
    return made


def test_a_database_of_the_release_before_migrates_and_every_game_still_replays(
        db_url: str) -> None:
    made = old_database(db_url)
    with LiveServer(db_url=db_url) as srv:
        listed = {t["id"]: t for t in srv.get("/api/tables/finished")[1]["tables"]}
        for g in made:
            n = g["players"]
            mine = 2 if n == 4 else 0
            status, rep = srv.get(f"/api/tables/{g['id']}/replay")
            assert status == 200, rep
            assert len(rep["frames"]) == g["actions"] + 1
            assert rep["frames"][-1]["scores"] == g["scores"]
            assert rep["names"][mine] == seat_name(mine, n)  # "You" no more
            assert listed[g["id"]]["names"][mine] == seat_name(mine, n)
            assert listed[g["id"]]["scores"] == g["scores"]
            status, rec = srv.get(f"/api/tables/{g['id']}/record")
            assert status == 200 and rec["players"][mine] == seat_name(mine, n)
        from euchre.web.store import Store

        store = Store(db_url)
        try:
            data = store.load_table("old1")
            assert data is not None and data.chat[0]["name"] == "South"
        finally:
            store.close()




# Identities and accounts over HTTP -----------------------------------------------------------


def browser_like(srv: LiveServer) -> Any:
    """An HTTP client that keeps cookies and sends this site's Origin, as a page would."""
    import httpx

    return httpx.Client(base_url=srv.base, timeout=20, headers={"Origin": srv.base})


def csrf(client: Any) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/me").json()["csrf"] or ""}


def test_a_guest_in_one_request_and_the_seat_is_theirs_alone(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as ann:
        r = ann.post("/api/me/guest", json={"name": "Ann"})
        assert r.status_code == 201 and r.json()["player"] == {"name": "Ann", "kind": "guest"}
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # plain HTTP here; over TLS it is Secure
        # a request that changes something without the page's CSRF token is refused
        r = ann.post("/api/tables", json={})
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
        t = ann.post("/api/tables", json={}, headers=csrf(ann)).json()
        seats = srv.get(f"/api/tables/{t['id']}")[1]["seats"]
        assert seats[2]["name"] == "Ann" and seats[2]["player"] is True
        # at the table the seat keeps the player's name
        mine = srv.connect(t["id"], t["token"], cookies=ann.cookies)
        mine.until_state(lambda s: True)
        mine.send({"type": "name", "name": "Bob"})
        assert mine.until(lambda m: m["type"] == "error")["code"] == "name_fixed"
        mine.close()
        # the seat's link alone no longer opens it: another browser with the link watches
        thief = srv.connect(t["id"], t["token"])
        err = thief.until(lambda m: m["type"] == "error")
        assert err["code"] == "not_your_seat" and "Ann" in err["message"]
        # a second guest cannot take the name, in any case or spacing
        with browser_like(srv) as other:
            for name in ("Ann", "ANN", " a n n ", "\u0410nn", "\uff21nn"):  # Cyrillic, wide
                r = other.post("/api/me/guest", json={"name": name})
                assert r.status_code == 409 and "another player's name" in r.json()["error"]
            # nor can a seat without a player's name
            r = other.post("/api/tables", json={"name": "ann"})
            assert r.status_code == 400 and "player" in r.json()["error"]


def test_the_session_cookie_is_secure_when_the_page_came_over_tls(sqlite_url: str) -> None:
    """Behind a trusted proxy that ended TLS (nginx's ``X-Forwarded-Proto: https``) every
    session cookie (a guest's, an account's, the one a sign-in sets) is ``Secure``, so the
    browser never sends it over plain HTTP; from anyone else the header is not believed."""
    import httpx

    with LiveServer(db_url=sqlite_url, trusted_proxies=("127.0.0.1",)) as srv:
        origin = f"https://127.0.0.1:{srv.port}"
        tls = {"Origin": origin, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.8"}
        with httpx.Client(base_url=srv.base, timeout=20, headers=tls) as ann:

            def kept(r: Any) -> str:
                """The cookie set, checked, and sent from then on (the test's own plain HTTP
                would keep a Secure cookie from its jar)."""
                assert r.status_code in (200, 201), r.text
                cookie = str(r.headers["set-cookie"])
                assert "Secure" in cookie and "HttpOnly" in cookie \
                    and "SameSite=strict" in cookie, cookie
                ann.headers["Cookie"] = cookie.split(";")[0]
                ann.cookies.clear()
                return cookie

            kept(ann.post("/api/me/guest", json={"name": "Ann"}))
            kept(ann.post("/api/account/signup", headers=csrf(ann), json={
                "name": "Ann", "password": "a long secret of mine"}))
            assert ann.get("/api/me").json()["player"] == {"name": "Ann", "kind": "account"}
            kept(ann.post("/api/account/signin", headers=csrf(ann), json={
                "name": "Ann", "password": "a long secret of mine"}))
            r = ann.post("/api/account/signout", json={}, headers=csrf(ann))
            assert r.status_code == 200 and "Secure" in r.headers["set-cookie"]
    with LiveServer(db_url=sqlite_url) as srv, httpx.Client(
            base_url=srv.base, timeout=20,
            headers={"Origin": srv.base, "X-Forwarded-Proto": "https"}) as bob:
        r = bob.post("/api/me/guest", json={"name": "Bob"})
        assert r.status_code == 201 and "Secure" not in r.headers["set-cookie"]


def test_a_player_name_that_looks_like_a_computer_or_a_level_is_refused(db_url: str) -> None:
    """Unicode look-alikes too: Cyrillic and Greek letters, full-width forms, no spaces."""
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as eve:
        for name, why in (("East (rule)", "how a computer player is shown"),
                          ("\u0415ast (rule)", "how a computer player is shown"),  # Cyrillic E
                          ("\u0395ast(search)", "how a computer player is shown"),  # Greek E
                          ("Player 2 \uff08rule\uff09", "how a computer player is shown"),
                          ("b\u0435ginner", "a computer level's name"),  # Cyrillic e
                          ("SEARCH", "a computer level's name"),
                          ("Y\u043eu", "own seat")):  # Cyrillic o
            r = eve.post("/api/me/guest", json={"name": name})
            assert r.status_code == 400 and why in r.json()["error"], (name, r.json())
        assert eve.get("/api/me").json()["player"] is None  # nothing was made
        assert eve.post("/api/me/guest", json={"name": "Eve"}).status_code == 201


def test_a_name_refused_as_another_players_says_which_letters_look_alike(db_url: str) -> None:
    """"Аnn" with a Cyrillic А shows exactly as "Ann": the refusal names the letter that
    looks alike, where "'Ann' reads like another player's name ('Ann')" showed two identical
    names; the same name, or one differing in case or spacing, is said so plainly."""
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as ann, browser_like(srv) as eve:
        assert ann.post("/api/me/guest", json={"name": "Ann"}).status_code == 201
        for name, error in (
                ("\u0410nn", "name: '\u0410nn' has a Cyrillic \u0410 that looks like Latin A, "
                             "so it reads like 'Ann', another player's name; choose another"),
                ("Ann", "name: 'Ann' is another player's name; choose another"),
                ("A NN", "name: 'A NN' reads like 'Ann', another player's name; choose another")):
            r = eve.post("/api/me/guest", json={"name": name})
            assert (r.status_code, r.json()["error"]) == (409, error), r.json()
        assert eve.get("/api/me").json()["player"] is None


def test_requests_from_another_site_are_refused(db_url: str) -> None:
    import httpx
    from websockets.sync.client import connect

    with LiveServer(db_url=db_url) as srv:
        for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
            with httpx.Client(base_url=srv.base, headers=headers) as c:
                for path, body in (("/api/me/guest", {"name": "Eve"}), ("/api/tables", {}),
                                   ("/api/account/signin", {"name": "a", "password": "b"})):
                    r = c.post(path, json=body)
                    assert r.status_code == 403 and "other sites" in r.json()["error"], path
        t = srv.create()
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{t['id']}",
                     additional_headers={"Origin": "https://evil.example"}) as ws:
            msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "error" and msg["code"] == "other_site"


def test_sign_up_in_out_and_password_change(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as b:
        b.post("/api/me/guest", json={"name": "Cleo"})
        t = b.post("/api/tables", json={"my_seat": -1, "seats": [{"kind": "computer"}] * 4,
                                        "rules": {"target": 1}}, headers=csrf(b)).json()
        assert t["rated"] is False  # its creator does not play at it
        for pw, why in (("short", "at least 12"), ("password1234", "commonest"),
                        ("x" * 129, "at most 128"), ("mycleoisgreat", "user name")):
            r = b.post("/api/account/signup", json={"name": "Cleo", "password": pw},
                       headers=csrf(b))
            assert r.status_code == 400 and why in r.json()["error"], (pw, r.json())
        guest_csrf = csrf(b)
        r = b.post("/api/account/signup", json={"name": "Cleo", "password": "correct horse 7"},
                   headers=guest_csrf)
        assert r.status_code == 201 and r.json()["player"] == {"name": "Cleo",
                                                               "kind": "account"}
        assert csrf(b) != guest_csrf  # a new session at sign-up
        # a wrong password and an unknown name read the same
        with browser_like(srv) as c:
            wrong = c.post("/api/account/signin", json={"name": "Cleo", "password": "nope" * 4})
            nobody = c.post("/api/account/signin", json={"name": "Zed", "password": "nope" * 4})
            assert wrong.status_code == nobody.status_code == 401
            assert wrong.json() == nobody.json()
            good = c.post("/api/account/signin", json={"name": "cleo",
                                                       "password": "correct horse 7"})
            assert good.status_code == 200 and good.json()["player"]["name"] == "Cleo"
            # a password change ends every other session
            r = b.post("/api/account/password", json={"password": "correct horse 7",
                                                      "new_password": "battery staple 9"},
                       headers=csrf(b))
            assert r.status_code == 200
            assert c.get("/api/me").json()["player"] is None
            assert b.get("/api/me").json()["player"]["name"] == "Cleo"
        r = b.post("/api/account/signout", json={}, headers=csrf(b))
        assert r.status_code == 200 and b.get("/api/me").json()["player"] is None
        r = b.post("/api/account/signin", json={"name": "Cleo", "password": "correct horse 7"})
        assert r.status_code == 401
        r = b.post("/api/account/signin", json={"name": "Cleo", "password": "battery staple 9"})
        assert r.status_code == 200


def test_the_password_rule_shown_states_every_reason_a_password_is_refused(
        sqlite_url: str) -> None:
    """The forms show ``/api/me``'s rule; each way ``password_problem`` refuses a password is
    in it (a person was refused for their name in the password, which the form never said)."""
    from euchre.web.accounts import PASSWORD_MAX, PASSWORD_MIN, password_problem

    with LiveServer(db_url=sqlite_url) as srv, browser_like(srv) as b:
        rule = b.get("/api/me").json()["password_rule"]
    for password, stated in (("x" * (PASSWORD_MIN - 1), f"At least {PASSWORD_MIN} characters"),
                             ("x" * (PASSWORD_MAX + 1), f"at most {PASSWORD_MAX}"),
                             ("password1234", "commonest passwords"),
                             ("correct horse battery Alice", "not containing your user name")):
        assert password_problem(password, "Alice") is not None, password
        assert stated in rule, (stated, rule)
    assert password_problem("correct horse battery staple", "Alice") is None


def test_the_operator_closes_sign_up_or_turns_accounts_off(sqlite_url: str) -> None:
    """``--accounts closed``: the existing accounts sign in, nobody new signs up;
    ``--accounts off``: guests only, no sign-up and no sign-in of either kind. Guests play in
    every mode, and each refusal says why."""
    made = {"name": "Cleo", "password": "correct horse 7"}
    with LiveServer(db_url=sqlite_url) as srv, browser_like(srv) as b:
        assert b.get("/api/me").json()["accounts"] == "open"
        b.post("/api/me/guest", json={"name": "Cleo"})
        assert b.post("/api/account/signup", json=made, headers=csrf(b)).status_code == 201
    with LiveServer(db_url=sqlite_url, accounts="closed") as srv, browser_like(srv) as b:
        assert b.get("/api/me").json()["accounts"] == "closed"
        assert b.post("/api/me/guest", json={"name": "Dora"}).status_code == 201
        r = b.post("/api/account/signup", json={"name": "Dora", "password": "another secret 8"},
                   headers=csrf(b))
        assert r.status_code == 403 and r.json()["error"] == "this site takes no new accounts"
        assert b.get("/api/me").json()["player"] == {"name": "Dora", "kind": "guest"}
        r = b.post("/api/account/signin", json=made, headers=csrf(b))
        assert r.status_code == 200 and r.json()["player"] == {"name": "Cleo",
                                                               "kind": "account"}
    with LiveServer(db_url=sqlite_url, accounts="off") as srv, browser_like(srv) as b:
        assert b.get("/api/me").json()["accounts"] == "off"
        assert b.post("/api/me/guest", json={"name": "Emil"}).status_code == 201
        for path, body in (("/api/account/signup", {"name": "Emil", "password": "x" * 14}),
                           ("/api/account/signin", made),
                           ("/api/account/passkey/start", {})):
            r = b.post(path, json=body, headers=csrf(b))
            assert r.status_code == 403 and "no accounts: play as a guest" in r.json()["error"], \
                (path, r.text)
        assert b.get("/api/me").json()["player"] == {"name": "Emil", "kind": "guest"}
        t = b.post("/api/tables", json={}, headers=csrf(b))
        assert t.status_code == 201, t.text
        seat = srv.get(f"/api/tables/{t.json()['id']}")[1]["seats"][2]
        assert seat["name"] == "Emil" and seat["player"] is True, seat


def sign_in(srv: LiveServer, address: str, name: str, password: str) -> tuple[int, str]:
    """A sign-in from ``address`` (the proxy in front names it), with no cookies: its status
    and the words of its answer."""
    import httpx

    with httpx.Client(base_url=srv.base, timeout=20,
                      headers={"Origin": srv.base, "X-Forwarded-For": address}) as c:
        r = c.post("/api/account/signin", json={"name": name, "password": password})
    return r.status_code, str(r.json().get("error", ""))


def make_account(srv: LiveServer, name: str, password: str) -> None:
    with browser_like(srv) as b:
        b.post("/api/me/guest", json={"name": name})
        r = b.post("/api/account/signup", json={"name": name, "password": password},
                   headers=csrf(b))
        assert r.status_code == 201, r.text


def test_failed_sign_ins_are_limited_per_account_and_per_address(sqlite_url: str) -> None:
    """Guessing passwords: at most 3 failures an account and 5 an address (here) in ten
    minutes; a right password does not count; a name with no account is counted alike."""
    with LiveServer(db_url=sqlite_url, trusted_proxies=("127.0.0.1",), account_signins=3,
                    address_signins=5) as srv:
        make_account(srv, "Ann", "a long secret of mine")
        # the right password, many times: it never uses the allowance
        assert {sign_in(srv, "203.0.113.9", "Ann", "a long secret of mine")[0]
                for _ in range(6)} == {200}
        # three wrong guesses at Ann's account, from three addresses: then even the right
        # password is refused, from anywhere, until the window has room
        assert [sign_in(srv, f"203.0.113.{i}", "Ann", "wrong guess " * 2)[0]
                for i in (1, 2, 3)] == [401] * 3
        status, why = sign_in(srv, "203.0.113.4", "ann", "a long secret of mine")
        assert status == 429 and "failed sign-ins to this account: at most 3" in why, why
        # and says when to try again: the failures counted now have all left the window then
        assert why.endswith("in 10 minutes; try again in 10 minutes, when these have left "
                            "the count"), why
        # a name with no account reads the same, so the limit tells nothing of who exists
        assert [sign_in(srv, "203.0.113.5", "Zed", "wrong guess " * 2)[0]
                for _ in range(3)] == [401] * 3
        assert sign_in(srv, "203.0.113.6", "Zed", "wrong guess " * 2) == (status, why)
        # one address spraying one guess over many names: 5 failures, then refused
        assert [sign_in(srv, "198.51.100.1", f"Name{i}", "wrong guess " * 2)[0]
                for i in range(5)] == [401] * 5
        status, why = sign_in(srv, "198.51.100.1", "Other", "wrong guess " * 2)
        assert status == 429 and "from your address: at most 5" in why, why
        assert why.endswith("in 10 minutes; try again in 10 minutes, when these have left "
                            "the count"), why
        assert sign_in(srv, "198.51.100.2", "Other", "wrong guess " * 2)[0] == 401


def test_failed_sign_ins_are_limited_for_the_whole_site_on_two_processes(
        pg_cluster: Any) -> None:
    from test_web_cluster import two_servers

    url = pg_cluster.new_database()
    with two_servers(url, trusted_proxies=("127.0.0.1",), account_signins=4,
                     address_signins=6) as (a, b):
        make_account(a, "Ann", "a long secret of mine")
        guesses = [sign_in(srv, f"203.0.113.{i}", "Ann", "wrong guess " * 2)[0]
                   for i, srv in enumerate((a, b, a, b))]
        assert guesses == [401] * 4
        for srv in (a, b):  # each process counted the other's failures
            status, why = sign_in(srv, "203.0.113.9", "Ann", "a long secret of mine")
            assert status == 429 and "at most 4" in why, why
        spray = [sign_in(srv, "198.51.100.1", f"Name{i}", "wrong guess " * 2)[0]
                 for i, srv in enumerate((a, b) * 3)]
        assert spray == [401] * 6
        for srv in (a, b):
            status, why = sign_in(srv, "198.51.100.1", "Name9", "wrong guess " * 2)
            assert status == 429 and "from your address: at most 6" in why, why


def test_session_tokens_are_long_and_sessions_end_idle_or_old(db_url: str) -> None:
    """256-bit random tokens, a new one each time; a session unused for 30 days, or 365
    days old, opens nothing."""
    import sqlalchemy as sa

    from euchre.web.accounts import COOKIE
    from euchre.web.store import Store

    with LiveServer(db_url=db_url) as srv, browser_like(srv) as a, browser_like(srv) as b:
        a.post("/api/me/guest", json={"name": "Ann"})
        b.post("/api/me/guest", json={"name": "Bea"})
        tokens = [c.cookies[COOKIE] for c in (a, b)]
        assert all(len(t) >= 43 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens)
        assert tokens[0] != tokens[1]
        store = Store(db_url)
        day = 86400.0
        with store.engine.begin() as conn:  # Ann's went unused for 30 days and a minute
            conn.execute(sa.text("UPDATE sessions SET seen_at = seen_at - :d WHERE player_id "
                                 "= (SELECT id FROM players WHERE name = 'Ann')"),
                         {"d": 30 * day + 60})
            # Bea's was used a minute ago, but began 365 days ago
            conn.execute(sa.text("UPDATE sessions SET expires_at = :t WHERE player_id = "
                                 "(SELECT id FROM players WHERE name = 'Bea')"),
                         {"t": time.time() - 1})
        store.close()
        assert a.get("/api/me").json()["player"] is None
        assert b.get("/api/me").json()["player"] is None
        assert a.post("/api/tables", json={}, headers=csrf(a)).json()["seat"] == 2  # unnamed


def test_no_password_reaches_the_log(db_url: str, caplog: Any) -> None:
    """Whatever happens to a request that carries one: sign-up refused or done, sign-in
    wrong or right, a body the server cannot read, a password change."""
    import logging

    caplog.set_level(logging.DEBUG)
    secret, wrong, new = "a long secret of mine", "my wrong guess here", "another secret 77"
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as b:
        b.post("/api/me/guest", json={"name": "Cleo"})
        b.post("/api/account/signup", json={"name": "Cleo", "password": "password1234"},
               headers=csrf(b))
        b.post("/api/account/signup", json={"name": "Cleo", "password": secret},
               headers=csrf(b))
        b.post("/api/account/signin", json={"name": "Cleo", "password": wrong})
        b.post("/api/account/signin", content='{"name": "Cleo", "password": "' + wrong,
               headers={"Content-Type": "application/json"})
        b.post("/api/account/signin", json={"name": "Cleo", "password": wrong, "x": 1})
        b.post("/api/account/password", json={"password": secret, "new_password": new},
               headers=csrf(b))
    assert caplog.records, "the server logged nothing at all: the check would be empty"
    for word in (secret, wrong, new, "password1234"):
        assert word not in caplog.text


def play_to_the_end(clients: list[Any], seed: int) -> dict[str, Any]:
    """Random legal moves for each client's seat, in turn, until the game is over."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        for c in clients:
            c.drain()
            s = c.state
            if s is None:
                continue
            if s["finished"]:
                return dict(s)
            if s["legal"] and s["turn"] == c.you:
                c.send({"type": "act", "action": rng.choice(s["legal"])["id"], "seq": s["seq"]})
                c.after(s["seq"])
        time.sleep(0.01)


def test_a_rated_game_rates_both_people_and_the_computers_and_shows_on_profiles(
        db_url: str) -> None:
    from euchre.web.ratings import seed

    def seed_games(level: str) -> int:
        from euchre.bots.registry import ladder_rating

        found = ladder_rating(level)
        assert found is not None
        return found.games

    with LiveServer(db_url=db_url) as srv, browser_like(srv) as ann, \
            browser_like(srv) as bob:
        ann.post("/api/me/guest", json={"name": "Ann"})
        assert ann.post("/api/account/signup", json={"name": "Ann", "password":
                                                     "a long secret of mine"},
                        headers=csrf(ann)).status_code == 201
        bob.post("/api/me/guest", json={"name": "Bob"})  # a guest: rated too
        t = ann.post("/api/tables", json={
            "rules": {"target": 2}, "my_seat": 2,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "search"},
                      {"kind": "human"}, {"kind": "computer", "level": "search"}]},
            headers=csrf(ann)).json()
        assert t["rated"] is True
        invite = t["invite_url"].split("#invite=")[1]
        j = bob.post(f"/api/tables/{t['id']}/join", json={"invite": invite},
                     headers=csrf(bob)).json()
        assert j["seat"] == 0
        a = srv.connect(t["id"], cookies=ann.cookies)  # a player's seat, no link needed
        b = srv.connect(t["id"], j["token"], cookies=bob.cookies)
        a.until(lambda m: m["type"] == "welcome")
        b.until(lambda m: m["type"] == "welcome")
        assert (a.you, b.you) == (2, 0)
        end = play_to_the_end([a, b], 7)
        a.close()
        b.close()
        deadline = time.monotonic() + 10
        while True:
            status, prof = srv.get("/api/players/Ann")
            if prof["stats"]["games"] == 1 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == 200 and prof["kind"] == "account"
        won = end["winner"] == 0
        assert prof["stats"]["games"] == 1 and prof["stats"]["won"] == int(won)
        assert prof["rated_games"] == 1 and len(prof["history"]) == 1
        assert prof["games"][0]["id"] == t["id"] and prof["games"][0]["rated"]
        assert prof["games"][0]["replay"] == f"/replay/{t['id']}"
        # the player's own mistakes of the game, as puzzles: the link names the game, the seat
        # and the player (theirs alone where others held the seat too)
        assert prof["games"][0]["puzzles"] == f"/puzzles/{t['id']}?seat=2&player=Ann"
        change = prof["games"][0]["rating_change"]
        assert (change > 0) == won and change != 0
        assert prof["rating"]["provisional"] is True and prof["rating"]["plus_minus"] > 0
        bobs = srv.get("/api/players/bob")[1]
        assert bobs["name"] == "Bob" and bobs["games"][0]["rating_change"] == change
        # the computers at "search" are the expert level: one player, rated once for the game
        # (not club: the scale's anchor never moves, test_the_scales_anchor_...)
        rule = srv.get("/api/players/search")[1]
        assert rule == srv.get("/api/players/expert")[1]
        assert rule["name"] == "expert" and rule["kind"] == "computer"
        assert rule["rated_games"] == 1 and len(rule["games"]) == 1  # one game...
        assert rule["games"][0]["seats"] == [1, 3]  # ...at both its seats
        assert rule["calibration"]["games"] == seed_games("expert")  # where it began
        expert0 = seed("expert")
        assert rule["calibration"]["rating"] == round(expert0.mu) and prof["calibration"] is None
        # calibrated over hundreds of games, it moves far less than a newcomer, but moves
        assert (rule["rating"]["mu"] < expert0.mu) == won and rule["rating"]["mu"] != expert0.mu
        assert abs(rule["rating"]["mu"] - expert0.mu) < abs(change) / 10
        board = srv.get("/api/leaderboard")[1]["players"]
        assert {p["name"] for p in board} >= {"Ann", "Bob", "expert", "club"}
        assert "search" not in {p["name"] for p in board}
        # only settled ratings are ranked: the newcomers' are listed without a rank
        assert all((p["rank"] is None) == p["provisional"] for p in board)
        ranks = [p["rank"] for p in board if p["rank"] is not None]
        assert ranks == list(range(1, len(ranks) + 1)) and len(ranks) >= 5
        assert [p["rating"] for p in board] == sorted((p["rating"] for p in board),
                                                      reverse=True)
        people = srv.get("/api/leaderboard?kind=people")[1]["players"]
        assert {p["name"] for p in people} == {"Ann", "Bob"}
        assert srv.get("/api/leaderboard?kind=robots")[0] == 400
        assert srv.get("/api/leaderboard?kind=bots")[1]["players"] == []  # none played
        assert srv.get("/api/players/Nobody")[0] == 404
        # hands made, euchred and alone add up to the hands the game had
        made = sum(srv.get(f"/api/players/{n}")[1]["stats"]["made"] for n in ("Ann", "Bob"))
        assert made >= 0


def solo_rated_game(srv: LiveServer, who: Any, seed: int, finish: bool = True) -> str:
    """A rated game of ``who`` (a browser-like client with a player) with three computers,
    played to its end (or only begun): its table's id."""
    t = who.post("/api/tables", json={"rules": {"target": 2}}, headers=csrf(who)).json()
    assert t["rated"] is True, t
    c = srv.connect(t["id"], cookies=who.cookies)
    c.until(lambda m: m["type"] == "welcome")
    if finish:
        play_to_the_end([c], seed)
    c.close()
    return str(t["id"])


def stored_chain(url: str, name: str) -> int:
    """The player's rated results in the order they ended, checked to be one chain: the
    first from a newcomer's rating, each next one from where the one before ended. Returns
    how many."""
    import sqlalchemy as sa

    from euchre.tournament.ratings import MU0, SIGMA0
    from euchre.web.store import Store

    store = Store(url)
    with store.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT r.mu_before, r.sigma_before, r.mu_after, r.sigma_after FROM results r "
            "JOIN players p ON p.id = r.player_id WHERE p.name = :n AND r.rated "
            "ORDER BY r.finished_at"), {"n": name}).all()
    store.close()
    assert rows and (rows[0][0], rows[0][1]) == (MU0, SIGMA0)
    for earlier, later in itertools.pairwise(rows):
        assert (later[0], later[1]) == (earlier[2], earlier[3])
    return len(rows)


def wait_for(get: Any, done: Any, what: str) -> Any:
    deadline = time.monotonic() + 15
    while True:
        got = get()
        if done(got):
            return got
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_guest_who_signs_in_to_an_account_brings_its_games_and_its_rating(
        db_url: str) -> None:
    """The rule: asked to (the sign-in form's box, checked), the guest's games become the
    account's; the account's rating is rated again over both players' rated games in the
    order they ended; a game the guest was still playing counts as the account's when it
    ends; the guest's name is free again. Not asked, nothing moves."""
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as ann, \
            browser_like(srv) as guest, browser_like(srv) as other:
        ann.post("/api/me/guest", json={"name": "Ann"})
        assert ann.post("/api/account/signup", json={"name": "Ann", "password":
                                                     "a long secret of mine"},
                        headers=csrf(ann)).status_code == 201
        solo_rated_game(srv, ann, 1)
        wait_for(lambda: srv.get("/api/players/Ann")[1], lambda p: p["rated_games"] == 1,
                 "Ann's first game")
        # on another device, before signing in, she plays as the guest "Annie": one game
        # to its end and one still going when she signs in
        guest.post("/api/me/guest", json={"name": "Annie"})
        solo_rated_game(srv, guest, 2)
        wait_for(lambda: srv.get("/api/players/Annie")[1], lambda p: p["rated_games"] == 1,
                 "Annie's game")
        unfinished = solo_rated_game(srv, guest, 3, finish=False)
        r = guest.post("/api/account/signin", json={"name": "Ann", "password":
                                                    "a long secret of mine",
                                                    "guest_games": True}, headers=csrf(guest))
        assert r.status_code == 200 and r.json()["guest_games"] is True, r.text
        prof = srv.get("/api/players/Ann")[1]
        assert prof["stats"]["games"] == 2 and prof["rated_games"] == 2
        # one chain: the later game starts where the earlier one ended
        chain = prof["history"]
        assert len(chain) == 2 and chain[-1]["mu"] == prof["rating"]["mu"]
        assert stored_chain(db_url, "Ann") == 2
        assert srv.get("/api/players/Annie")[0] == 404  # the guest is no more...
        assert other.post("/api/me/guest", json={"name": "Annie"}).status_code == 201  # free
        # ...and the game it was playing is Ann's: her signed-in browser opens its seat
        tables = {g["id"] for g in prof["games"]}
        mine = [t for t in srv.get("/api/tables/finished")[1]["tables"] if t["id"] in tables]
        assert len(mine) == 2
        c = srv.connect(unfinished, cookies=guest.cookies)
        assert c.until(lambda m: m["type"] == "welcome")["you"] == 2
        play_to_the_end([c], 4)
        c.close()
        prof = wait_for(lambda: srv.get("/api/players/Ann")[1],
                        lambda p: p["rated_games"] == 3, "the game the guest began")
        assert prof["stats"]["games"] == 3 and unfinished in {g["id"] for g in prof["games"]}
        # a guest who signs in without asking keeps its games to itself
        other_games = srv.get("/api/players/Annie")[1]
        solo_rated_game(srv, other, 5)
        wait_for(lambda: srv.get("/api/players/Annie")[1],
                 lambda p: p["stats"]["games"] == other_games["stats"]["games"] + 1,
                 "the other guest's game")
        r = other.post("/api/account/signin", json={"name": "Ann", "password":
                                                    "a long secret of mine"},
                       headers=csrf(other))
        assert r.status_code == 200 and r.json()["guest_games"] is False
        assert srv.get("/api/players/Annie")[1]["stats"]["games"] == 1
        assert srv.get("/api/players/Ann")[1]["stats"]["games"] == 3


def test_a_players_games_show_the_name_they_have_now(db_url: str) -> None:
    """A guest who signs up under another name, renames, or brings their games into an
    account is shown in those games (the finished list, the replay, the profile) by the
    name they have now, so the name they gave up, taken by someone else, is never shown on
    their games."""
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as gus, \
            browser_like(srv) as ann, browser_like(srv) as other:

        def shown(table: str) -> set[str]:
            listed = {t["id"]: t for t in srv.get("/api/tables/finished")[1]["tables"]}
            replay = srv.get(f"/api/tables/{table}/replay")[1]
            assert listed[table]["names"][2] == replay["names"][2]
            return {replay["names"][2]}

        gus.post("/api/me/guest", json={"name": "Gus"})
        first = solo_rated_game(srv, gus, 1)
        wait_for(lambda: srv.get("/api/players/Gus")[1], lambda p: p["rated_games"] == 1,
                 "Gus's game")
        assert shown(first) == {"Gus"}
        r = gus.post("/api/account/signup", json={"name": "Gustav",
                                                  "password": "a long secret of mine"},
                     headers=csrf(gus))
        assert r.status_code == 201, r.text
        assert shown(first) == {"Gustav"}
        assert srv.get("/api/players/Gustav")[1]["games"][0]["names"][2] == "Gustav"
        assert other.post("/api/me/guest", json={"name": "Gus"}).status_code == 201
        assert shown(first) == {"Gustav"}  # the new Gus is not shown on Gustav's game
        r = gus.post("/api/me/name", json={"name": "Gustavo"}, headers=csrf(gus))
        assert r.status_code == 200, r.text
        assert shown(first) == {"Gustavo"}
        # a guest's games brought into an account on sign-in
        ann.post("/api/me/guest", json={"name": "Ann"})
        ann.post("/api/account/signup", json={"name": "Ann", "password": "another secret 99"},
                 headers=csrf(ann))
        with browser_like(srv) as annie:
            annie.post("/api/me/guest", json={"name": "Annie"})
            second = solo_rated_game(srv, annie, 2)
            wait_for(lambda: srv.get("/api/players/Annie")[1],
                     lambda p: p["rated_games"] == 1, "Annie's game")
            r = annie.post("/api/account/signin", json={
                "name": "Ann", "password": "another secret 99", "guest_games": True},
                headers=csrf(annie))
            assert r.status_code == 200 and r.json()["guest_games"] is True
        assert shown(second) == {"Ann"}
        assert srv.get("/api/players/Ann")[1]["games"][0]["names"][2] == "Ann"
        # a guest unseen for 90 days gives its name up: its games show it with its mark
        with browser_like(srv) as otto:
            otto.post("/api/me/guest", json={"name": "Otto"})
            third = solo_rated_game(srv, otto, 3)
            wait_for(lambda: srv.get("/api/players/Otto")[1],
                     lambda p: p["rated_games"] == 1, "Otto's game")
        import sqlalchemy as sa

        from euchre.web.store import make_engine

        engine = make_engine(db_url)
        with engine.begin() as conn:
            gone = conn.execute(sa.text("UPDATE players SET seen_at = seen_at - 91 * 86400 "
                                        "WHERE name = 'Otto' RETURNING id")).scalar_one()
        engine.dispose()
        assert other.post("/api/me/name", json={"name": "Otto"},
                          headers=csrf(other)).status_code == 200
        assert shown(third) == {f"Otto·{gone}"}
        assert srv.get(f"/api/players/Otto·{gone}")[1]["games"][0]["id"] == third
        assert srv.get("/api/players/Otto")[1]["games"] == []


def test_a_level_at_several_seats_of_a_game_counts_it_once_on_its_profile(
        db_url: str) -> None:
    """The table the form makes by default, one person and three computers at the club
    level: club holds North (the person's partner), East and West. Its profile has one game
    (on both sides: neither won nor lost), one point of rating history, each hand once, and
    each euchre once however many of its seats defended."""
    with LiveServer(db_url=db_url) as srv, browser_like(srv) as ann:
        ann.post("/api/me/guest", json={"name": "Ann"})
        table = solo_rated_game(srv, ann, 7)
        mine = wait_for(lambda: srv.get("/api/players/Ann")[1],
                        lambda p: p["rated_games"] == 1, "Ann's game")
        club = srv.get("/api/players/club")[1]
        assert club["rated_games"] == 1 and len(club["history"]) == 1
        assert [(g["id"], g["seats"], g["won"]) for g in club["games"]] == [
            (table, [0, 1, 3], None)]
        assert club["stats"]["games"] == 1 and club["stats"]["won"] == 0
        a, c = mine["stats"], club["stats"]
        assert c["hands"] == a["hands"] >= 1
        # each scored hand had one maker, Ann or one of club's seats
        assert a["made"] + a["euchred"] + c["made"] + c["euchred"] == a["hands"]
        # and each euchre was by the side that defended it, club's seats on either side
        assert c["euchres"] == a["euchred"] + c["euchred"]


def test_results_a_stopped_process_never_wrote_are_written_by_another(
        pg_cluster: Any, monkeypatch: Any) -> None:
    """Process A commits a rated game's last action and stops before writing its results
    (as a crash between the two would); process B, still running, writes them: the player's
    game and rating, once."""
    from euchre.web import server as S

    monkeypatch.setattr(S, "RESULTS_LOOK_SECONDS", 0.2)
    monkeypatch.setattr(S, "RESULTS_GRACE_SECONDS", 0.5)
    url = pg_cluster.new_database()
    with LiveServer(db_url=url, cluster=True) as b:
        a = LiveServer(db_url=url, cluster=True)
        with a, browser_like(a) as ann:
            ann.post("/api/me/guest", json={"name": "Ann"})
            a.app.state.server.moves.game_over = lambda _table: None  # it never writes them
            table = solo_rated_game(a, ann, 6)
        prof = wait_for(lambda: b.get("/api/players/Ann")[1],
                        lambda p: p["stats"]["games"] == 1, "B never wrote A's results")
        assert prof["rated_games"] == 1 and prof["games"][0]["id"] == table
        assert prof["games"][0]["rating_change"] != 0
        time.sleep(1)  # and only once, however often B looks
        assert b.get("/api/players/Ann")[1]["stats"]["games"] == 1


def test_each_scored_hand_is_made_or_euchred_by_exactly_one_seat() -> None:
    from euchre.web.results import game_result
    from euchre.web.store import SeatData, TableData
    from euchre.web.table import Table

    for seed in range(6):
        rules, acts, _scores, winner = finished_game(seed)
        t = Table(TableData("x", 0, rules, seed, "i", [
            SeatData(i, f"t{i}", "computer", "rule", "n", True) for i in range(4)],
            acts, 1.0, []))
        game = game_result(t)
        assert game is not None and game.winner == winner
        scored = sum(1 for h in t.hand_results if h.outcome == "scored")
        assert all(s.hands == scored for s in game.seats)
        assert sum(s.made + s.euchred for s in game.seats) == scored
        assert sum(s.lone_made + s.lone_euchred for s in game.seats) == \
            sum(s.lone for s in game.seats)
        assert all(s.lone_marches <= s.lone_made for s in game.seats)
        assert [s.won for s in game.seats] == [i % 2 == winner for i in range(4)]


def game_seats(who: list[int | str], winner: int) -> list[Any]:
    """Each seat's result: ``who`` holds each seat's player id, or its computer's level."""
    from euchre.web.results import SeatResult

    return [SeatResult(i, "computer" if isinstance(p, str) else "human",
                       None if isinstance(p, str) else p, p if isinstance(p, str) else "",
                       i % 2 == winner, 1, 0, 0, 0, 0, 0, 0, 0) for i, p in enumerate(who)]


def rated_game(store: Any, table_id: str, who: list[int | str], winner: int) -> None:
    """Write a rated four-handed game's results (``who``: as ``game_seats``)."""
    import sqlalchemy as sa

    from euchre.web.results import GameResult, write_results

    with store.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO tables (id, created_at, rules, seed, invite, "
                             "finished_at, winner, scores, rated) VALUES (:id, 0, '{}', 0, "
                             "'i', 1, :w, '[5, 0]', true)"), {"id": table_id, "w": winner})
    assert write_results(store, GameResult(table_id, True, 4, winner, game_seats(who, winner)))


def test_a_level_seated_twice_is_one_player_rated_as_the_team_model_says(
        sqlite_url: str) -> None:
    """The expert level at both seats of one side moves as its two seats together; at one seat
    of each side, what each seat learned cancels and it ends about where it was; either way
    the game counts once in its games. Ann and Bob, new, move as they would anyway."""
    from euchre.tournament.ratings import Rating, rate_game
    from euchre.web import players as P
    from euchre.web.ratings import rated_computers, seed
    from euchre.web.results import GameResult, computer_players, write_results
    from euchre.web.store import Store

    store = Store(sqlite_url)
    expert = computer_players(store, rated_computers())["expert"]
    ann, bob = (P.create_guest(store, name).id for name in ("Ann", "Bob"))

    def now(pid: int) -> Rating:
        p = P.player_by_id(store, pid)
        assert p is not None and p.mu is not None and p.sigma is not None
        return Rating(p.mu, p.sigma, p.rated_games)

    start = now(expert)
    assert (start.mu, start.sigma) == (seed("expert").mu, seed("expert").sigma)
    # both seats of the losing side: expert loses for both of them
    rated_game(store, "g1", [ann, "expert", bob, "search"], winner=0)  # search: expert
    one_side = now(expert)
    expected = rate_game([[ann, bob], [expert, expert]], {expert: start}, 0)
    assert one_side == expected[expert] and one_side.games == 1
    assert one_side.mu < start.mu
    assert (now(ann).mu, now(bob).mu) == (expected[ann].mu, expected[bob].mu)
    # one seat on each side: whichever side wins, expert's two seats cancel out
    rated_game(store, "g2", [ann, "expert", "expert", bob], winner=0)
    both_sides = now(expert)
    assert both_sides.games == 2
    assert abs(both_sides.mu - one_side.mu) < abs(one_side.mu - start.mu) / 10
    # its results: one row a seat, both under the expert level
    import sqlalchemy as sa

    with store.engine.connect() as conn:
        seats = conn.execute(sa.text("SELECT seat FROM results WHERE table_id = 'g2' AND "
                                     "player_id = :p ORDER BY seat"), {"p": expert}).all()
    assert [s for (s,) in seats] == [1, 2]
    again = GameResult("g2", True, 4, 0, game_seats([ann, "expert", "expert", bob], 0))
    assert not write_results(store, again) and now(expert) == both_sides  # written once
    store.close()


def test_the_scales_anchor_counts_its_games_and_never_moves(sqlite_url: str) -> None:
    """``club`` is the point the scale is measured from (1500 ± 0, as the docs and the
    leaderboard say): a rated game counts in its games and moves everyone else, never it (it
    read 1500 ± 12 after three games, every level's number drifting with it)."""
    from euchre.bots.registry import ladder_anchor
    from euchre.tournament.ratings import Rating
    from euchre.web import players as P
    from euchre.web.ratings import rated_computers, seed
    from euchre.web.results import computer_players
    from euchre.web.store import Store

    assert ladder_anchor() == "club"
    store = Store(sqlite_url)
    found = computer_players(store, rated_computers())
    club, expert = found["club"], found["expert"]
    ann, bob = (P.create_guest(store, name).id for name in ("Ann", "Bob"))

    def now(pid: int) -> Rating:
        p = P.player_by_id(store, pid)
        assert p is not None and p.mu is not None and p.sigma is not None
        return Rating(p.mu, p.sigma, p.rated_games)

    start, expert_start = now(club), now(expert)
    games: list[tuple[list[int | str], int]] = [([ann, "club", bob, "rule"], 0),
                                                (["club", ann, "expert", bob], 1),
                                                ([ann, "expert", bob, "club"], 1)]
    for k, (who, winner) in enumerate(games):
        rated_game(store, f"g{k}", who, winner)
    end = now(club)
    assert (end.mu, end.sigma) == (start.mu, start.sigma) == (seed("club").mu, seed("club").sigma)
    assert end.games == 3
    assert now(expert).mu != expert_start.mu and now(expert).games == 2
    assert now(ann).games == 3 and now(ann).mu != Rating().mu
    store.close()


WRITER = """
import sys
from euchre.web.results import GameResult, SeatResult, write_results
from euchre.web.store import Store
url, first, count, ann, bob, cy, dee = sys.argv[1], *map(int, sys.argv[2:])
store = Store(url)
for k in range(first, first + count):
    who = (ann, bob, cy, dee)
    seats = [SeatResult(i, "human", p, "rule", i % 2 == k % 2, 1, 0, 0, 0, 0, 0, 0, 0)
             for i, p in enumerate(who)]
    write_results(store, GameResult(f"g{k}", True, 4, k % 2, seats))
store.close()
"""


def test_two_processes_finishing_games_of_one_player_at_once_lose_no_update(
        pg_cluster: Any) -> None:
    """Ann plays in every game; two processes write the results of 40 games at once. Every
    game moves her rating from the rating the game before left (no two games read the same
    one), and she has 40 rated games."""
    import subprocess
    import sys

    import sqlalchemy as sa

    from euchre.web import players as P
    from euchre.web.store import Store

    url = pg_cluster.new_database()
    store = Store(url)
    ids = [P.create_guest(store, name).id for name in ("Ann", "Bob", "Cy", "Dee")]
    with store.engine.begin() as conn:
        for k in range(40):
            conn.execute(sa.text("INSERT INTO tables (id, created_at, rules, seed, invite, "
                                 "finished_at, winner, scores, rated) VALUES (:id, 0, '{}', 0, "
                                 "'i', 1, 0, '[5, 0]', true)"), {"id": f"g{k}"})
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, url, str(first), "20",
                               *map(str, ids)]) for first in (0, 20)]
    assert [p.wait(120) for p in procs] == [0, 0]
    with store.engine.connect() as conn:
        games = conn.execute(sa.text("SELECT rated_games FROM players WHERE id = :p"),
                             {"p": ids[0]}).scalar_one()
        chain = conn.execute(sa.text("SELECT mu_before, mu_after FROM results WHERE "
                                     "player_id = :p"), {"p": ids[0]}).all()
    store.close()
    assert games == 40 and len(chain) == 40
    befores = [round(b, 12) for b, _ in chain]
    assert len(set(befores)) == 40  # a lost update: two games read the same rating
    afters = {round(a, 12) for _, a in chain}
    assert len(afters & set(befores)) == 39  # each game starts where another one ended
