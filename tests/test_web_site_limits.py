"""Limits that hold for the whole site: a seat's places that no spectator can take, spectators
capped per table and per address, and every limit (places, table creation, computers-only
tables, chat, hints) held across two server processes on one PostgreSQL, not counted by each
process apart; a process killed outright gives its places back at once."""

from __future__ import annotations

import functools
import time
from typing import Any

import httpx
import pytest
from test_web_cluster import reconnect, seated_table, set_owner, two_servers, ws
from test_web_limits import answers, closed_with
from webtools import Client, ClusterProcesses, LiveServer, NginxProxy, PgCluster

RULE = {"kind": "computer", "level": "rule"}
HUMAN = {"kind": "human"}


def address(i: int) -> str:
    return f"203.0.113.{i}" if i < 250 else f"198.51.100.{i - 250}"


def refused(c: Client) -> str | None:
    """The code a connection was refused with, or None if it was let in."""
    first = c.recv(10)
    if first["type"] == "welcome":
        return None
    got, code = closed_with(c)
    assert code == 4429, (first, got)
    return str(first["code"])


# one process ---------------------------------------------------------------------------------


def test_a_seated_person_gets_back_to_their_seat_whatever_the_spectators_hold(
        sqlite_url: str) -> None:
    """As found: the person connects, 49 spectators connect, the person reloads, a spectator
    takes the free place, and the person's reconnect was refused (4429). With the defaults
    (50 spectators a table, 20 an address) and each spectator at an address of its own."""
    with LiveServer(db_url=sqlite_url, trusted_proxies=("127.0.0.1",)) as srv:
        t = srv.create()
        me = srv.connect(t["id"], t["token"])
        me.my_turn()
        watchers = [srv.connect(t["id"], address=address(i)) for i in range(49)]
        assert [refused(w) for w in watchers] == [None] * 49
        me.close()  # a reload
        time.sleep(0.2)
        watchers.append(srv.connect(t["id"], address=address(49)))
        assert refused(watchers[-1]) is None  # the 50th spectator
        back = srv.connect(t["id"], t["token"])
        assert back.my_turn()["you"] == t["seat"], "the seat's place was still its own"
        assert refused(srv.connect(t["id"], address=address(50))) == "table_spectators"
        for c in [back, *watchers]:
            c.close()


def test_one_address_holds_at_most_its_spectator_places_over_every_table(
        sqlite_url: str) -> None:
    """As found: one address kept 400 spectator connections over 8 tables."""
    with LiveServer(db_url=sqlite_url, trusted_proxies=("127.0.0.1",)) as srv:
        tables = [srv.create()["id"] for _ in range(8)]
        held = [srv.connect(tables[i % 8], address=address(1)) for i in range(20)]
        assert [refused(c) for c in held] == [None] * 20
        for tid in tables[:2]:
            assert refused(srv.connect(tid, address=address(1))) == "address_spectators"
        other = srv.connect(tables[0], address=address(2))
        assert refused(other) is None, "another address still watches"
        held[0].close()
        time.sleep(0.2)
        again = srv.connect(tables[5], address=address(1))
        assert refused(again) is None, "a place given back can be taken again"
        for c in [*held[1:], other, again]:
            c.close()


# two processes, one PostgreSQL -----------------------------------------------------------------


def test_spectator_and_seat_places_hold_across_two_processes(pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    with two_servers(url, trusted_proxies=("127.0.0.1",), table_spectators=3,
                     address_spectators=2, seat_connections=2) as (a, b):
        tid, tokens = seated_table(a, [HUMAN, RULE, HUMAN, RULE])
        at_a = [a.connect(tid, address=address(i)) for i in (1, 2)]
        at_b = [b.connect(tid, address=address(3))]
        assert [refused(c) for c in at_a + at_b] == [None] * 3
        # the table's three spectator places are taken: at either process
        assert refused(b.connect(tid, address=address(4))) == "table_spectators"
        assert refused(a.connect(tid, address=address(5))) == "table_spectators"
        # the seats' own places are not: one link at each process, then no third
        seat = [a.connect(tid, tokens[0]), b.connect(tid, tokens[0])]
        assert [refused(c) for c in seat] == [None, None]
        assert refused(b.connect(tid, tokens[0])) == "seat_connections"
        assert refused(a.connect(tid, tokens[2])) is None, "another seat has its own places"
        # one address's spectator places, over both processes and two tables
        other, _ = seated_table(b, [HUMAN, RULE, HUMAN, RULE])
        assert refused(b.connect(other, address=address(3))) is None  # its second
        assert refused(a.connect(other, address=address(3))) == "address_spectators"
        at_a[0].close()
        time.sleep(0.3)
        late = b.connect(tid, address=address(6))
        assert refused(late) is None, "a place given back at one process is free at the other"
        for c in [*at_a[1:], *at_b, *seat, late]:
            c.close()


def test_table_creation_limits_hold_across_two_processes(pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    with two_servers(url, client_tables_per_minute=3, tables_per_minute=100) as (a, b):
        made = [srv.post("/api/tables", {})[0] for srv in (a, b, a)]
        assert made == [201] * 3
        for srv in (a, b):
            status, out = srv.post("/api/tables", {})
            assert status == 429 and "at most 3 new tables a minute" in out["error"], out
    url = pg_cluster.new_database()
    with two_servers(url, tables_per_minute=2) as (a, b):
        assert a.post("/api/tables", {})[0] == 201
        assert b.post("/api/tables", {})[0] == 201
        status, out = b.post("/api/tables", {})
        assert status == 429 and "at most 2 a minute in all" in out["error"], out


def test_the_computers_only_tables_cap_holds_across_two_processes(
        pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    with two_servers(url, computer_tables=1) as (a, b):
        a.create(my_seat=-1, seats=[RULE] * 4)
        status, out = b.post("/api/tables", {"my_seat": -1, "seats": [RULE] * 4})
        assert status == 429 and "computers only" in out["error"], out
        assert b.post("/api/tables", {})[0] == 201, "a table with a person's seat is not one"


def chat_codes(c: Client, lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        c.send({"type": "chat", "text": line})
        m = c.until(functools.partial(answers, line))
        out.append(m["type"] if m["type"] == "chat" else m["code"])
    return out


def test_a_spectators_chat_is_counted_per_connection_through_the_tables_owner(
        pg_cluster: PgCluster) -> None:
    """A spectator at the process that does not own the table chats through the owner: its
    lines are counted for that one connection (the owner numbers relayed connections by
    their origin's, so two spectators at one process are two allowances, not one)."""
    url = pg_cluster.new_database()
    with two_servers(url, chat_rate=0.001) as (a, b):
        tid, _tokens = seated_table(a, [HUMAN, RULE, RULE, RULE])
        one, two, here = b.connect(tid), b.connect(tid), a.connect(tid)
        for c in (one, two, here):  # its person has not come: the waiting room
            c.until_picture(lambda s: True)
        assert not b.app.state.server.cluster.owns(tid)
        assert chat_codes(one, [f"one {i}" for i in range(6)]) == ["chat"] * 5 + ["chat_rate"]
        assert chat_codes(two, ["two"]) == ["chat"]
        assert chat_codes(here, ["here"]) == ["chat"]
        for c in (one, two, here):
            c.close()


def test_a_seats_chat_and_hint_rates_hold_across_processes_and_owners(
        pg_cluster: PgCluster) -> None:
    """The seat's rates are the site's: a line or hint sent at either process counts once,
    and a new owner of the table (a takeover) does not give the seat a fresh burst."""
    url = pg_cluster.new_database()
    with two_servers(url, chat_rate=0.001, hint_rate=0.001, hint_level="rule") as (a, b):
        tid, tokens = seated_table(a, [HUMAN, RULE, RULE, RULE])  # the computers play on
        ann_a, ann_b = a.connect(tid, tokens[0]), b.connect(tid, tokens[0])
        for c in (ann_a, ann_b):
            c.until_state(lambda s: True)
        assert chat_codes(ann_a, ["1", "2"]) + chat_codes(ann_b, ["3", "4"]) == ["chat"] * 4
        set_owner(url, tid, b.app.state.server.cluster.id)  # taken over
        deadline = time.monotonic() + 10
        while not b.app.state.server.cluster.owns(tid):  # its next look for its tables
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert chat_codes(ann_b, ["5", "6"]) == ["chat", "chat_rate"]
        assert chat_codes(ann_a, ["7"]) == ["chat_rate"]
        s = ann_a.my_turn()
        assert s["legal"]
        hints = []
        for c in (ann_a, ann_b, ann_a, ann_b):  # a burst of three, wherever asked
            c.send({"type": "hint"})
            m = c.until(lambda m: m["type"] in ("hint", "error"))
            hints.append(m["type"] if m["type"] == "hint" else m["code"])
        assert hints == ["hint", "hint", "hint", "hint_rate"], hints
        for c in (ann_a, ann_b):
            c.close()


def test_a_killed_process_gives_its_places_back_at_once(pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    with ClusterProcesses(url, 2, "--table-spectators", "2", "--seat-connections", "1") as cl:
        t = httpx.post(cl.urls[0] + "/api/tables", json={}, timeout=10).json()
        watchers = [ws(cl.ports[0], t["id"]) for _ in range(2)]
        me = ws(cl.ports[0], t["id"], t["token"])
        assert [refused(c) for c in [*watchers, me]] == [None] * 3
        assert refused(ws(cl.ports[1], t["id"])) == "table_spectators"
        cl.kill(0)
        killed = time.monotonic()
        me = reconnect(cl.ports[1], t["id"], t["token"])
        assert refused(me) is None, "the seat's one place was the dead process's"
        back = [ws(cl.ports[1], t["id"]) for _ in range(2)]
        assert [refused(c) for c in back] == [None, None]
        assert time.monotonic() - killed < 5
        for c in [me, *back]:
            c.close()


def test_an_address_makes_at_most_its_tables_a_minute_through_nginx_on_two_processes(
        pg_cluster: PgCluster, nginx: Any) -> None:
    """As found: through nginx with two processes one address created 20 tables in a minute
    where the limit is 10 (each process counted its own)."""
    url = pg_cluster.new_database()
    with ClusterProcesses(url, 2, "--trusted-proxy", "127.0.0.1") as cl:
        proxy: NginxProxy = nginx([f"127.0.0.1:{port}" for port in cl.ports])
        with httpx.Client(base_url=proxy.base, timeout=10) as http:
            codes = [http.post("/api/tables", json={}).status_code for _ in range(12)]
        assert codes == [201] * 10 + [429] * 2, codes
        served = {line.split("upstream=")[1].split()[0] for line in proxy.access_log()
                  if "POST /api/tables" in line}
        assert len(served) == 2, "both processes made tables"


def test_a_table_holds_at_most_its_spectators_through_nginx_on_two_processes(
        pg_cluster: PgCluster, nginx: Any) -> None:
    """As found: through nginx with two processes one table kept 100 connections (each
    process counted its own 50). Here 100 spectators from ten addresses (loopback's
    127.0.0.N, which nginx names in X-Forwarded-For), with the default limits."""
    url = pg_cluster.new_database()
    with ClusterProcesses(url, 2, "--trusted-proxy", "127.0.0.1") as cl:
        proxy: NginxProxy = nginx([f"127.0.0.1:{port}" for port in cl.ports])
        t = httpx.post(proxy.base + "/api/tables", json={}, timeout=10).json()
        url_ws = f"ws://127.0.0.1:{proxy.port}/ws/{t['id']}"
        watchers = [Client(url_ws, source=f"127.0.0.{2 + i % 10}") for i in range(100)]
        codes = [refused(c) for c in watchers]
        assert codes.count(None) == 50 and codes.count("table_spectators") == 50, codes
        me = Client(url_ws + f"?token={t['token']}", source="127.0.0.50")
        assert me.my_turn()["you"] == t["seat"]
        for c in [me, *watchers]:
            c.close()


@pytest.mark.parametrize("n", [1])
def test_the_places_are_counted_in_the_database_rows(pg_cluster: PgCluster, n: int) -> None:
    """Each open connection is one row of ``connections`` while it is open, and none after."""
    import psycopg

    url = pg_cluster.new_database()
    with LiveServer(db_url=url, cluster=True) as srv:
        t = srv.create()
        c = [srv.connect(t["id"], t["token"]) for _ in range(n)] + [srv.connect(t["id"])]
        for x in c:
            x.until_state(lambda s: True)
        with psycopg.connect(url, autocommit=True) as db:
            rows = db.execute("SELECT table_id, seat FROM connections ORDER BY seat").fetchall()
            assert rows == [(t["id"], -1), (t["id"], t["seat"])]
            for x in c:
                x.close()
            deadline = time.monotonic() + 5
            while db.execute("SELECT count(*) FROM connections").fetchone() != (0,):
                assert time.monotonic() < deadline
                time.sleep(0.05)


def test_a_seat_held_by_a_process_the_database_has_not_yet_seen_die_is_taken_when_it_does(
        pg_cluster: PgCluster) -> None:
    """Found in full runs under load: a person reconnecting right after their process was
    killed was refused ``seat_connections`` because the database had not yet seen the dead
    process's connection close (its liveness lock still granted). Here a stand-in process
    (a connection holding a liveness lock, with a row for the seat's one place) dies 0.6 s
    after the person knocks: the person is let in once it does, not refused."""
    import threading

    import psycopg

    from euchre.web.cluster import LOCK_SPACE

    url = pg_cluster.new_database()
    with LiveServer(db_url=url, cluster=True, seat_connections=1) as srv:
        t = srv.create()
        ghost = psycopg.connect(url, autocommit=True)
        ghost.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_SPACE, 9999))
        ghost.execute("INSERT INTO connections (process, conn, table_id, seat, address, at) "
                      "VALUES (9999, 1, %s, %s, '192.0.2.1', 0)", (t["id"], t["seat"]))
        dies = threading.Timer(0.6, ghost.close)
        dies.start()
        knocked = time.monotonic()
        try:
            me = srv.connect(t["id"], t["token"])
            assert refused(me) is None, "the seat's place was still the dead process's"
            assert 0.5 < time.monotonic() - knocked < 2.5
            me.close()
        finally:
            dies.cancel()
            ghost.close()
