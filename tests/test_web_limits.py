"""The limits an operator sets (``euchre serve`` flags): each refuses with a message that says
which limit, and leaves everything else working."""

from __future__ import annotations

import asyncio
import functools
import time
from typing import Any

import pytest
from webtools import Client, LiveServer

RULE = {"kind": "computer", "level": "rule"}


def closed_with(c: Client) -> tuple[list[dict[str, Any]], int | None]:
    """The messages a connection got until it was closed, and the close code."""
    from websockets.exceptions import ConnectionClosed

    got = []
    try:
        while True:
            got.append(c.recv(5))
    except ConnectionClosed as exc:
        return got, exc.rcvd.code if exc.rcvd else None


def test_connections_per_seat_and_spectators_per_table(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, seat_connections=2, table_spectators=1) as srv:
        t = srv.create()
        a, b = srv.connect(t["id"], t["token"]), srv.connect(t["id"], t["token"])
        a.my_turn()
        b.my_turn()
        got, code = closed_with(srv.connect(t["id"], t["token"]))
        assert code == 4429 and got[0]["code"] == "seat_connections", got
        assert "already open 2 times" in got[0]["message"]
        spec = srv.connect(t["id"])  # the table's one spectator place
        spec.until_state(lambda s: True)
        got, code = closed_with(srv.connect(t["id"]))
        assert code == 4429 and got[0]["code"] == "table_spectators", got
        assert "already has 1 spectators" in got[0]["message"]
        b.close()
        time.sleep(0.3)
        c = srv.connect(t["id"], t["token"])  # a freed place can be taken again
        assert c.my_turn()["you"] == t["seat"]
        for x in (a, c, spec):
            x.close()


def test_tables_created_per_client_per_minute(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, client_tables_per_minute=2) as srv:
        srv.create()
        srv.create()
        status, out = srv.post("/api/tables", {})
        assert status == 429 and "at most 2 new tables a minute" in out["error"], out


def test_tables_created_per_minute_in_all() -> None:
    from euchre.web.limits import CreationLimits, LimitError, LocalLimits, Places

    now = [1000.0]
    limits = CreationLimits(LocalLimits(Places(4, 50, 20), clock=lambda: now[0]),
                            per_client=5, total=3)
    for client in ("a", "b", "c"):
        asyncio.run(limits.take(client))
    with pytest.raises(LimitError, match="at most 3 a minute in all"):
        asyncio.run(limits.take("d"))
    now[0] += 59.9  # any minute: still three in the last 60 s
    with pytest.raises(LimitError, match="at most 3 a minute in all"):
        asyncio.run(limits.take("d"))
    now[0] += 0.2  # a minute later
    asyncio.run(limits.take("d"))


def test_computer_only_tables_are_capped(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, computer_tables=1) as srv:
        srv.create(my_seat=-1, seats=[RULE] * 4)
        status, out = srv.post("/api/tables", {"my_seat": -1, "seats": [RULE] * 4})
        assert status == 429 and "computers only" in out["error"], out
        srv.create()  # a table with a person's seat is not one of them
    with LiveServer(db_url=sqlite_url, computer_tables=0) as srv:
        status, out = srv.post("/api/tables", {"my_seat": -1, "seats": [RULE] * 4})
        assert status == 429, out


def test_a_table_abandoned_for_long_is_closed_and_archived_not_resumed(
        sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        old = srv.create()
        srv.connect(old["id"], old["token"]).my_turn()
    time.sleep(0.5)
    with LiveServer(db_url=sqlite_url) as srv:  # the default: 30 days, so it is resumed
        assert old["id"] in srv.app.state.server.tables
        recent = srv.create()
    time.sleep(0.5)
    # five seconds without a move is "long" here: the older table is closed, not the new one
    with LiveServer(db_url=sqlite_url, abandon_days=0.6 / 86400) as srv:
        tables = srv.app.state.server.tables
        assert old["id"] not in tables and recent["id"] not in tables
    with LiveServer(db_url=sqlite_url, abandon_days=30.0) as srv:
        assert old["id"] not in srv.app.state.server.tables  # closed for good
        status, info = srv.get(f"/api/tables/{old['id']}")
        assert status == 200 and info["finished"] is True
        status, listed = srv.get("/api/tables/finished")
        assert any(t["id"] == old["id"] and t["winner"] == -1 for t in listed["tables"])
        c = srv.connect(old["id"], old["token"])
        s = c.until_state(lambda s: True)
        assert s["finished"] and s["legal"] == [] and s["turn"] is None
        c.send({"type": "act", "action": 80, "seq": s["seq"]})
        assert c.until(lambda m: m["type"] == "error")["code"] == "over"
        c.close()


def test_a_name_cannot_copy_another_seat_or_a_computer(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create(name="Ann", seats=[RULE, {"kind": "human"}, {"kind": "human"}, RULE])
        invite = t["invite_url"].split("#invite=")[1]
        status, out = srv.post(f"/api/tables/{t['id']}/join",
                               {"invite": invite, "name": "East (rule)"})
        assert status == 200
        status, info = srv.get(f"/api/tables/{t['id']}")
        names = [s["name"] for s in info["seats"]]
        assert "East (rule)" not in names and names[1] == "East", names
        c = srv.connect(t["id"], t["token"])  # East has not come: the waiting room
        c.until_picture(lambda s: True)
        for copy in ("east (RULE)", "North (search)", "East"):
            c.send({"type": "name", "name": copy})
            r = c.until(lambda m: m["type"] == "error")
            assert r["code"] == "name_taken", (copy, r)
        c.send({"type": "name", "name": "Annie"})
        assert c.until_picture(lambda s: s["seats"][2]["name"] == "Annie")
        c.close()
        status, out = srv.post("/api/tables", {"name": "West (rule)"})
        assert status == 400 and "computer player" in out["error"], out


#: Look-alikes of the computer label "East (rule)" that passed before names were compared by
#: their confusable skeleton: Cyrillic and Greek capital E, full-width brackets, no space.
LOOK_ALIKES = ["\u0415ast (rule)", "\u0395ast (rule)", "East \uff08rule\uff09", "East(rule)"]


def test_a_name_that_looks_like_a_computer_or_a_taken_name_is_refused(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        for look_alike in LOOK_ALIKES:  # at creation: the creator's own name
            status, out = srv.post("/api/tables", {"name": look_alike})
            assert status == 400, (look_alike, out)
            # it says which letters look alike, where the two names show identically
            assert out["error"].startswith(f"name: {look_alike!r} "), out
            assert out["error"].endswith(" reads like 'East (rule)', how a computer player "
                                         "is shown; choose another name"), out
            if look_alike != "East(rule)":
                assert f"{look_alike!r} has a " in out["error"], out
        status, out = srv.post("/api/tables", {"name": "East (rule)"})
        assert out["error"] == ("name: 'East (rule)' is how a computer player is shown; "
                                "choose another name"), out
        status, out = srv.post("/api/tables", {"name": "Еast (rule)"})
        assert out["error"] == ("name: 'Еast (rule)' has a Cyrillic Е that looks like "
                                "Latin E, so it reads like 'East (rule)', how a computer player "
                                "is shown; choose another name"), out
        t = srv.create(name="Ann", seats=[RULE, {"kind": "human"}, {"kind": "human"}, RULE])
        invite = t["invite_url"].split("#invite=")[1]
        status, out = srv.post(f"/api/tables/{t['id']}/join",
                               {"invite": invite, "name": "\u0410nn"})  # Cyrillic A
        assert status == 200
        status, info = srv.get(f"/api/tables/{t['id']}")
        names = [s["name"] for s in info["seats"]]
        assert names[1] == "East", "a joining look-alike gets the seat's own name"
        c = srv.connect(t["id"], t["token"])  # East has not come: the waiting room
        c.until_picture(lambda s: True)
        for look_alike in [*LOOK_ALIKES, "East", "\uff25ast"]:
            c.send({"type": "name", "name": look_alike})
            r = c.until(lambda m: m["type"] == "error")
            assert r["code"] == "name_taken", (look_alike, r)
            assert f"{look_alike!r} " in r["message"], r
        c.send({"type": "name", "name": "Eas t"})
        r = c.until(lambda m: m["type"] == "error")
        assert r["message"] == "'Eas t' reads like 'East', the name of East; choose another name"
        c.send({"type": "name", "name": "\u0410nn"})  # a look-alike of one's own name is fine
        assert c.until_picture(lambda s: s["seats"][2]["name"] == "\u0410nn")
        c.send({"type": "name", "name": "Eastern"})
        assert c.until_picture(lambda s: s["seats"][2]["name"] == "Eastern")
        c.close()


def test_name_keys_are_equal_exactly_for_look_alikes() -> None:
    from euchre.web.names import name_key, name_refusal

    base = name_key("East (rule)")
    for same in [*LOOK_ALIKES, "east (RULE)", "E\u200bast (rule)", "East  (rule)",
                 "\uff25\uff41\uff53\uff54 (rule)", "EAST (RULE)"]:
        assert name_key(same) == base, same
    for other in ("East (search)", "West (rule)", "Eastrule", "Ea (rule)"):
        assert name_key(other) != base, other
    assert name_key("Al") == name_key("AI") == name_key("A1")  # l, I and 1 look alike
    assert name_refusal("Bob", [("Ann", "the name of North")]) is None
    assert name_refusal("\u0391nn", [("Bob", "x"), ("Ann", "the name of North")]) == \
        "'\u0391nn' has a Greek \u0391 that looks like Latin A, so it reads like 'Ann', the " \
        "name of North; choose another name"
    # a name the same as the one taken is that one; case and spaces are not look-alikes
    assert name_refusal("Ann", [("Ann", "the name of North")]) == \
        "'Ann' is the name of North; choose another name"
    assert name_refusal("A NN", [("Ann", "the name of North")]) == \
        "'A NN' reads like 'Ann', the name of North; choose another name"
    assert name_refusal("AI", [("Al", "the name of East")]) == \
        "'AI' has a Latin I that looks like Latin l, so it reads like 'Al', the name of East; " \
        "choose another name"


def answers(line: str, m: dict[str, Any]) -> bool:
    return m["type"] == "error" or m.get("text") == line


def test_chat_rate_is_per_seat_not_per_connection(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, chat_rate=0.01) as srv:
        t = srv.create()
        a, b = srv.connect(t["id"], t["token"]), srv.connect(t["id"], t["token"])
        a.my_turn()
        b.my_turn()
        codes = []
        for i in range(6):  # a burst of five for the seat, whichever connection sends
            c, line = (a if i % 2 else b), f"line {i}"
            c.send({"type": "chat", "text": line})
            m = c.until(functools.partial(answers, line))
            codes.append(m["type"] if m["type"] == "chat" else m["code"])
        assert codes == ["chat"] * 5 + ["chat_rate"], codes
        a.close()
        b.close()


def test_the_holder_of_a_seat_link_can_replace_it(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create()
        a, b = srv.connect(t["id"], t["token"]), srv.connect(t["id"], t["token"])
        a.my_turn()
        b.my_turn()
        a.send({"type": "new_link"})
        link = a.until(lambda m: m["type"] == "link")
        assert link["token"] != t["token"] and link["url"] == f"/t/{t['id']}#token={link['token']}"
        got, code = closed_with(b)
        assert code == 4403 and any(m.get("code") == "link_revoked" for m in got), got
        got, code = closed_with(srv.connect(t["id"], t["token"]))  # the old link is dead
        assert code == 4403 and got[0]["code"] == "bad_token"
        c = srv.connect(t["id"], link["token"])
        assert c.my_turn()["you"] == t["seat"]
        a.send({"type": "ping"})  # the asking connection keeps its seat
        assert a.until(lambda m: m["type"] == "pong")
        spec = srv.connect(t["id"])
        spec.until_state(lambda s: True)
        spec.send({"type": "new_link"})
        assert spec.until(lambda m: m["type"] == "error")["code"] == "spectator"
        for x in (a, c, spec):
            x.close()
    with LiveServer(db_url=sqlite_url) as srv:  # the new link is what the database holds
        c = srv.connect(t["id"], link["token"])
        assert c.my_turn()["you"] == t["seat"]
        c.close()


def test_seat_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat's token is compared with ``hmac.compare_digest``, whichever matches."""
    import hmac

    from euchre.rules import PRESETS
    from euchre.web.store import SeatData, TableData
    from euchre.web.table import Table

    table = Table(TableData("t", 0.0, PRESETS["standard"].to_dict(), 1, "inv",
                            [SeatData(i, f"token{i}", "human", "rule", f"P{i}", True)
                             for i in range(4)], [], None, []))
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def counting(x: bytes, y: bytes) -> bool:
        calls.append((x, y))
        return real(x, y)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    assert table.seat_by_token("token0") is table.seats[0]
    assert table.seat_by_token("nope") is None
    assert len(calls) == 8
