"""Several server processes on one PostgreSQL database: one writer per table (raced), any
connection to any process reaching any table, nothing hidden crossing, a ``kill -9`` of the
owner taken over by the others, a graceful stop handing tables over, and ``--processes`` refused
on SQLite."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_fuzz import send_malformed
from test_web_hidden import cards_named, leaks, visible_by_seq
from webtools import Client, ClusterProcesses, LiveServer, PgCluster, ServeProcess

from euchre.web import bus as B
from euchre.web import messages as M
from euchre.web.store import LostTable, SeatData, Store
from euchre.web.table import Table

pytestmark = pytest.mark.cluster

RULE = {"kind": "computer", "level": "rule"}
HUMAN = {"kind": "human"}


@contextlib.contextmanager
def two_servers(url: str, **config: Any) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two server processes' worth of servers (in this test process) on one database."""
    with LiveServer(db_url=url, cluster=True, **config) as a, \
            LiveServer(db_url=url, cluster=True, **config) as b:
        yield a, b


def ws(port: int, table: str, token: str = "") -> Client:
    return Client(f"ws://127.0.0.1:{port}/ws/{table}" + (f"?token={token}" if token else ""))


def seated_table(srv: LiveServer, seats: list[dict[str, str]], **body: Any
                 ) -> tuple[str, list[str]]:
    """A table made at ``srv`` (which owns it) with every person's seat claimed: its id and
    each person's seat token (None for a computer's seat)."""
    t = srv.create(my_seat=0, seats=seats, **body)
    invite = t["invite_url"].split("#invite=")[1]
    tokens = [t["token"]] + [""] * (len(seats) - 1)
    for i in range(1, len(seats)):
        if seats[i]["kind"] == "human":
            status, out = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite})
            assert status == 200, out
            assert out["seat"] == i
            tokens[i] = out["token"]
    return t["id"], tokens


def logged(url: str, table_id: str) -> list[tuple[int, int]]:
    store = Store(url)
    try:
        data = store.load_table(table_id)
        assert data is not None
        return data.actions
    finally:
        store.close()


def set_owner(url: str, table_id: str, process: int) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE owners SET process = %s, epoch = epoch + 1 WHERE table_id = %s",
                     (process, table_id))


def owner(url: str, table_id: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT process FROM owners WHERE table_id = %s",
                           (table_id,)).fetchone()
        assert row is not None
        return int(row[0])


def play_until(clients: dict[int, Client], seq_goal: int, timeout: float = 30,
               seed: int = 1) -> int:
    """The persons at ``clients`` (seat -> connection) move until the table has
    ``seq_goal`` actions and waits for one of them (or is over); a move refused because the
    table moved, or not heard of within a second, is sent again. Returns the table's seq,
    which stays so until one of them moves: a computer whose turn came after the goal has
    moved by then (a log read right after would otherwise race its move)."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    sent: tuple[int, Client, int, float] | None = None  # seq, by whom, its messages then, when
    while time.monotonic() < deadline:
        for c in clients.values():
            c.drain(0.005)
        states = [c.state for c in clients.values() if c.state is not None]
        if not states:
            continue
        seq: int = max(s["seq"] for s in states)
        latest = next(s for s in states if s["seq"] == seq)
        if any(s["finished"] for s in states) or (seq >= seq_goal
                                                  and latest["turn"] in clients):
            return seq
        if sent is not None and sent[0] == seq:
            _, by, mark, at = sent
            if not any(m["type"] == "error" for m in by.messages[mark:]) \
                    and time.monotonic() - at < 1.0:
                time.sleep(0.005)
                continue
        for c in clients.values():
            s = c.state
            if s is not None and s["seq"] == seq and s["legal"]:
                sent = (seq, c, len(c.messages), time.monotonic())
                c.send({"type": "act", "action": rng.choice(s["legal"])["id"], "seq": seq})
                break
        else:
            time.sleep(0.005)
    raise TimeoutError(f"the table did not reach {seq_goal} actions")


# one writer per table ---------------------------------------------------------------------------


def test_two_writers_racing_for_one_table_leave_exactly_one_log(pg_cluster: PgCluster) -> None:
    """Two stores (two processes' group commits) append to one table's log at once, each
    believing it is at the log's end, while the table's owner flips between them: every
    append that returned accepted is in the log, every refused one is not, and the log's seqs
    run 0, 1, 2, ... with no gap and no duplicate."""
    url = pg_cluster.new_database()
    stores = [Store(url), Store(url)]
    try:
        for i, st in enumerate(stores):
            st.owner, st.bus = i + 1, "euchre_test_race"
        stores[0].create_table("race", {}, 1, "inv", [SeatData(0, "tok", "human", "rule",
                                                                "A", True)])
        assert owner(url, "race") == 1
        accepted: list[set[tuple[int, int]]] = [set(), set()]
        stop = threading.Event()

        def write(i: int) -> None:
            st, seq, n = stores[i], 0, 0
            while not stop.is_set():
                row = ("race", seq, i, 1000 * i + n, None)
                n += 1
                try:
                    refused = st.append_actions([row])
                except Exception:  # the other one wrote this seq first
                    refused = {"race"}
                if refused:
                    data = st.load_table("race")
                    assert data is not None
                    seq = len(data.actions)
                else:
                    accepted[i].add((seq, row[3]))
                    seq += 1

        threads = [threading.Thread(target=write, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for flip in range(12):
            time.sleep(0.05)
            set_owner(url, "race", 1 + (flip + 1) % 2)
        stop.set()
        for t in threads:
            t.join()
        log = logged(url, "race")
        store = stores[0]
        with store.engine.connect() as conn:
            seqs = [r[0] for r in conn.exec_driver_sql(
                "SELECT seq FROM actions WHERE table_id = 'race' ORDER BY seq")]
        assert seqs == list(range(len(seqs)))
        assert accepted[0] and accepted[1], "both writers had their turn as owner"
        by_seq = {seq: action for seq, (_, action) in enumerate(log)}
        for i in (0, 1):
            for seq, action in accepted[i]:
                assert by_seq[seq] == action
        assert len(accepted[0]) + len(accepted[1]) == len(log)
    finally:
        for st in stores:
            st.close()


def test_a_process_that_lost_its_table_refuses_the_move_and_relays_to_the_new_owner(
        pg_cluster: PgCluster) -> None:
    """The table is taken from its owner while the same seats' links are open at both
    processes: every state any connection is shown is the log's, and the table plays on at
    the new owner, reached from either process."""
    url = pg_cluster.new_database()
    with two_servers(url) as (a, b):
        tid, tokens = seated_table(a, [HUMAN, HUMAN, HUMAN, HUMAN])
        at_a = {i: a.connect(tid, tok) for i, tok in enumerate(tokens)}
        at_b = {i: b.connect(tid, tok) for i, tok in enumerate(tokens)}
        for c in [*at_a.values(), *at_b.values()]:
            c.at(0)
        seq = play_until(at_a, 6)
        new_owner = b.app.state.server.cluster.id
        set_owner(url, tid, new_owner)  # taken over while its owner goes on accepting moves
        seq = play_until(at_b, seq + 12, seed=2)
        assert owner(url, tid) == new_owner
        seq = play_until(at_a, seq + 6, seed=3)  # relayed from a to b now
        assert_states_are_the_log(url, tid, [*at_a.values(), *at_b.values()], seq)
        for c in [*at_a.values(), *at_b.values()]:
            c.close()


def test_seat_and_chat_writes_of_a_process_that_lost_the_table_are_refused(
        pg_cluster: PgCluster) -> None:
    """The fence covers every write of a table, not only its actions: once another process
    owns the table, the old owner's chat line, seat name and seat link are refused
    (``LostTable``) and change nothing in the database; its seats' away times are skipped,
    while a table it still owns is written."""
    url = pg_cluster.new_database()
    old, new = Store(url), Store(url)
    try:
        old.owner, new.owner = 1, 2
        old.bus = new.bus = "euchre_test_fence"
        for tid in ("lost", "kept"):
            old.create_table(tid, {}, 1, "inv", [SeatData(0, "tok-" + tid, "human", "rule", "Ann",
                                                          True)])
        set_owner(url, "lost", 2)
        with pytest.raises(LostTable):
            old.add_chat("lost", 0, "Ann", "hello", 1.0)
        with pytest.raises(LostTable):
            old.update_seat("lost", 0, name="Eve")
        with pytest.raises(LostTable):
            old.update_seat("lost", 0, token="stolen")
        old.set_left_at([("lost", 0, 5.0), ("kept", 0, 7.0)])
        # one group commit carrying both tables' last actions: only the owned one's land
        assert old.append_actions([("lost", 0, 0, 3, (0, [10, 4])),
                                   ("kept", 0, 0, 5, (1, [6, 10])),
                                   ("kept", 1, 0, 6, None)]) == {"lost"}
        data, kept = new.load_table("lost"), new.load_table("kept")
        assert data is not None and kept is not None
        assert data.chat == []
        assert (data.seats[0].name, data.seats[0].token) == ("Ann", "tok-lost")
        assert data.seats[0].left_at != 5.0
        assert kept.seats[0].left_at == 7.0
        assert data.actions == [] and data.finished_at is None
        assert kept.actions == [(0, 5), (0, 6)] and kept.finished_at is not None
        finished = {t["id"]: t for t in new.list_finished()}
        assert set(finished) == {"kept"}
        assert (finished["kept"]["winner"], finished["kept"]["scores"]) == (1, [6, 10])
        new.add_chat("lost", 0, "Ann", "at the new owner", 2.0)  # the owner's own write
        new.update_seat("lost", 0, name="Anna")
        data = new.load_table("lost")
        assert data is not None
        assert [c["text"] for c in data.chat] == ["at the new owner"]
        assert data.seats[0].name == "Anna"
    finally:
        old.close()
        new.close()


def test_chat_and_a_name_sent_to_a_process_that_just_lost_the_table_reach_the_new_owner(
        pg_cluster: PgCluster) -> None:
    """The owner is replaced in the database behind its back (as a takeover after a stall
    does): a chat line and a new name sent to it are refused by its fenced writes, and then
    handled by the new owner: stored once, seen by both processes' connections."""
    url = pg_cluster.new_database()
    with two_servers(url) as (a, b):
        tid, tokens = seated_table(a, [HUMAN, RULE, HUMAN, RULE])
        ann, bob = a.connect(tid, tokens[0]), b.connect(tid, tokens[2])
        for c in (ann, bob):
            c.until_state(lambda s: s["seats"][0]["connected"] and s["seats"][2]["connected"])
        set_owner(url, tid, b.app.state.server.cluster.id)
        ann.send({"type": "chat", "text": "still here?"})
        for c in (ann, bob):
            line = c.until(lambda m: m["type"] == "chat")
            assert line["text"] == "still here?"
        ann.send({"type": "name", "name": "Annie"})
        for c in (ann, bob):
            c.until_state(lambda s: s["seats"][0]["name"] == "Annie")
        data = Store(url).load_table(tid)
        assert data is not None
        assert [c["text"] for c in data.chat] == ["still here?"]
        assert data.seats[0].name == "Annie"
        assert not a.app.state.server.cluster.owns(tid)
        assert not any(m["type"] == "error" for m in ann.messages)
        ann.close()
        bob.close()


def assert_states_are_the_log(url: str, tid: str, clients: list[Client], seq: int) -> None:
    """Every state each client was shown is the table after that many of the log's actions,
    as its seat sees it (the log holds exactly ``seq`` actions)."""
    store = Store(url)
    try:
        data = store.load_table(tid)
    finally:
        store.close()
    assert data is not None and len(data.actions) == seq
    replays: dict[int, Table] = {}
    for c in clients:
        c.at(seq)
        for m in c.messages:
            if m["type"] != "state":
                continue
            k = m["seq"]
            if k not in replays:
                replays[k] = Table(dataclasses.replace(data, actions=data.actions[:k]))
            want = json.loads(M.encode(replays[k].state_message(m["you"])))
            for key in ("hand", "trick", "bids", "legal", "scores", "last", "turn"):
                assert m[key] == want[key], (k, key)


# any connection to any process ------------------------------------------------------------------


def test_friends_on_two_processes_play_a_hand_and_see_moves_and_chat_in_one_order(
        pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    with two_servers(url) as (a, b):
        t = a.create(my_seat=0, name="Ann", seats=[HUMAN, RULE, HUMAN, RULE])
        invite = t["invite_url"].split("#invite=")[1]
        status, joined = b.post(f"/api/tables/{t['id']}/join", {"invite": invite,
                                                                 "name": "Bob"})
        assert status == 200 and joined["seat"] == 2  # claimed through the owner
        status, again = b.post(f"/api/tables/{t['id']}/join", {"invite": invite})
        assert status == 409 and "taken" in again["error"]
        ann = a.connect(t["id"], t["token"])
        bob = b.connect(t["id"], joined["token"])
        for c in (ann, bob):
            c.until_state(lambda s: all(x["connected"] for x in (s["seats"][0], s["seats"][2])))
            assert [x["name"] for x in c.state["seats"]][::2] == ["Ann", "Bob"]  # type: ignore
        # an illegal move from the process that does not own the table: the engine's reason
        while True:  # Ann moves (when it is her turn) until it is Bob's
            ann.drain()
            bob.drain()
            s, mine = bob.state, ann.state
            assert s is not None and mine is not None
            if s["legal"]:
                break
            if mine["legal"] and mine["seq"] == s["seq"]:
                ann.send({"type": "act", "action": mine["legal"][0]["id"], "seq": mine["seq"]})
                ann.after(mine["seq"])
        table = Table(Store(url).load_table(t["id"]))  # type: ignore[arg-type]
        bad = next(x for x in range(0, 40) if x not in {m["id"] for m in s["legal"]})
        from euchre.explain import why_illegal

        bob.send({"type": "act", "action": bad, "seq": s["seq"]})
        err = bob.until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal"
        assert err["message"] == why_illegal(table.match.hand, bad, you=True)
        for i in range(3):
            ann.send({"type": "chat", "text": f"ann {i}"})
            bob.send({"type": "chat", "text": f"bob {i}"})
        seq = s["seq"]
        hand_no = s["hand_no"]
        while True:
            seq = play_until({0: ann, 2: bob}, seq + 1, seed=seq)
            if ann.state["hand_no"] > hand_no or ann.state["finished"]:  # type: ignore[index]
                break
        for c in (ann, bob):
            c.at(seq)
        chats = [[m["text"] for m in c.messages if m["type"] == "chat"] for c in (ann, bob)]
        assert chats[0] == chats[1] and sorted(chats[0]) == sorted(
            [f"{w} {i}" for w in ("ann", "bob") for i in range(3)])
        seqs = [[m["seq"] for m in c.messages if m["type"] == "state"] for c in (ann, bob)]
        for got in seqs:
            assert got == sorted(got)
        assert_states_are_the_log(url, t["id"], [ann, bob], seq)
        ann.close()
        bob.close()


def test_no_card_crosses_to_a_seat_that_may_not_see_it_with_seats_on_two_processes(
        pg_cluster: PgCluster) -> None:
    """The hidden-card audit over a whole game, two seats and a spectator at each process."""
    url = pg_cluster.new_database()
    with two_servers(url) as (a, b):
        tid, tokens = seated_table(a, [HUMAN] * 4, rules={"target": 3})
        clients = {i: (a if i < 2 else b).connect(tid, tok) for i, tok in enumerate(tokens)}
        watchers = [a.connect(tid), b.connect(tid)]
        seq = play_until(clients, 10**6, timeout=60, seed=5)
        for w in watchers:
            w.until_state(lambda s: s["finished"])
        for c in clients.values():
            c.at(seq)
        status, rec = a.get(f"/api/tables/{tid}/record")
        assert status == 200
        seats_at, public_at = visible_by_seq(rec)
        problems = [p for i, c in clients.items() for p in leaks(c, i, seats_at, public_at)]
        problems += [p for w in watchers for p in leaks(w, -1, seats_at, public_at)]
        assert not problems, problems[:5]
        for i, c in clients.items():  # real traffic: each seat was shown its own cards
            assert any(cards_named(m) & (seats_at[m["seq"]][i] - public_at[m["seq"]])
                       for m in c.messages if m["type"] == "state")
        for c in [*clients.values(), *watchers]:
            c.close()


def test_a_replica_that_hears_of_a_gap_reads_the_log_again(pg_cluster: PgCluster) -> None:
    """An announcement beyond the replica's end (one was missed) makes it read the table
    from the database instead of applying it; one it already has is ignored."""
    url = pg_cluster.new_database()
    with two_servers(url) as (a, b):
        tid, tokens = seated_table(a, [HUMAN, HUMAN], rules={"players": 2})
        at_b = {i: b.connect(tid, tok) for i, tok in enumerate(tokens)}
        seq = play_until(at_b, 4)
        cluster = b.app.state.server.cluster
        loop = cluster.tasks[0].get_loop()
        state = next(s for s in (c.at(seq) for c in at_b.values()) if s["legal"])
        move = [state["you"], state["legal"][0]["id"]]  # a move the replica would accept
        for first in (seq + 3, seq - 1):  # heard after a gap, then one it already has
            loop.call_soon_threadsafe(cluster.hear, B.Actions(tid, first, [(move[0], move[1])]))
        seq = play_until(at_b, seq + 4, seed=11)
        assert_states_are_the_log(url, tid, list(at_b.values()), seq)
        for c in at_b.values():
            c.close()


def test_malformed_messages_to_a_process_not_owning_the_table_change_nothing(
        pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    rng = random.Random(20261202)
    with two_servers(url, rate=1e6, burst=1e6) as (a, b):
        t = a.create(name="Ann")
        c = b.connect(t["id"], t["token"])
        s = c.my_turn()
        before = logged(url, t["id"])
        codes = send_malformed(c, rng, {x["id"] for x in s["legal"]}, s["seq"], 16)
        assert {"bad_message", "too_big", "illegal", "stale"} <= set(codes), codes
        assert logged(url, t["id"]) == before
        c.send({"type": "ping"})
        assert c.recv()["type"] == "pong"
        c.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
        assert c.until(lambda m: m["type"] == "state")["seq"] == s["seq"] + 1
        c.close()


def test_a_new_owner_keeps_an_absent_persons_away_deadline(pg_cluster: PgCluster) -> None:
    """A friend left; the table changes owner; the computer stands in for the friend when the
    away timeout has run from the moment they left, not from the takeover."""
    url = pg_cluster.new_database()
    timeout = 4.0
    with two_servers(url, away_timeout=timeout) as (a, b):
        t = a.create(my_seat=0, seats=[HUMAN, RULE, HUMAN, RULE])
        invite = t["invite_url"].split("#invite=")[1]
        status, friend = b.post(f"/api/tables/{t['id']}/join", {"invite": invite})
        assert status == 200
        ann = a.connect(t["id"], t["token"])
        bob = b.connect(t["id"], friend["token"])
        ann.until_state(lambda s: s["seats"][2]["connected"])
        told: list[tuple[float, Any]] = []  # when Ann heard how long the friend has, and that

        def heard(msg: dict[str, Any]) -> None:
            seat = msg["seats"][2] if msg["type"] == "state" else {}
            if msg["type"] == "state" and msg["turn"] == 2 and not seat["connected"] \
                    and not seat["stand_in"]:
                told.append((time.monotonic(), msg["away_left"]))

        bob.close()
        left = time.monotonic()
        heard(ann.until_state(lambda s: not s["seats"][2]["connected"]))
        while time.monotonic() < left + 3.0:  # the owner has stored when the seat emptied
            with contextlib.suppress(TimeoutError):
                heard(ann.recv(0.05))
        set_owner(url, t["id"], b.app.state.server.cluster.id)
        while not (ann.state or {}).get("seats", [{}] * 4)[2].get("stand_in"):
            s = ann.state
            if s is not None and s["legal"]:
                ann.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            heard(ann.recv(10))
        stood_in = time.monotonic() - left
        assert timeout - 0.5 < stood_in < timeout + 2.0, stood_in
        # each state Ann's process sent (it kept the table, then lost it) counted down to the
        # moment the computer stands in, from when the friend left
        assert told, "the friend's turn never came before the computer stood in"
        for when, away_left in told:
            assert away_left is not None
            assert -0.5 < when + away_left - (left + timeout) < 1.5, (when - left, away_left)
        ann.close()


# losing a process --------------------------------------------------------------------------------


def reconnect(port: int, table: str, token: str, timeout: float = 20) -> Client:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return ws(port, table, token)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def friends_apart(cl: ClusterProcesses) -> tuple[dict[str, Any], Client, Client]:
    """A table made at process 0 (its owner) with two computers, its creator connected
    there and a friend who joined and connected at process 1."""
    t = httpx_post(cl.urls[0] + "/api/tables", {"my_seat": 0, "seats": [HUMAN, RULE, HUMAN,
                                                                       RULE]})
    invite = t["invite_url"].split("#invite=")[1]
    friend = httpx_post(cl.urls[1] + f"/api/tables/{t['id']}/join", {"invite": invite})
    return t, ws(cl.ports[0], t["id"], t["token"]), ws(cl.ports[1], t["id"], friend["token"])


def test_kill_9_of_the_owner_mid_hand_the_other_takes_over_and_every_move_is_kept(
        pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    with ClusterProcesses(url, 2) as cl:
        p1 = cl.ports[1]
        t, ann, bob = friends_apart(cl)
        seq = play_until({0: ann, 2: bob}, 9, seed=6)
        assert 0 < seq < 20  # mid-hand
        before = logged(url, t["id"])
        assert len(before) == seq
        killed = time.monotonic()
        cl.kill(0)
        ann = reconnect(p1, t["id"], t["token"])  # the browser reconnects: to the other one
        seq = play_until({0: ann, 2: bob}, seq + 1, seed=7)
        takeover = time.monotonic() - killed
        seq = play_until({0: ann, 2: bob}, seq + 12, seed=8)
        after = logged(url, t["id"])
        assert after[:len(before)] == before and len(after) == seq
        assert any(seat in (1, 3) for seat, _ in after[len(before):]), "computers resumed"
        assert takeover < 5, f"the table was served again {takeover:.1f} s after kill -9"
        assert_states_are_the_log(url, t["id"], [ann, bob], seq)


def test_a_graceful_stop_hands_its_tables_over_and_nobody_is_dropped(
        pg_cluster: PgCluster) -> None:
    from websockets.exceptions import ConnectionClosed

    url = pg_cluster.new_database()
    with ClusterProcesses(url, 2, "--away-timeout", "0.5") as cl:
        p1 = cl.ports[1]
        t, ann, bob = friends_apart(cl)
        seq = play_until({0: ann, 2: bob}, 5, seed=9)
        stopped = time.monotonic()
        assert cl.term(0) in (0, -signal.SIGTERM)  # uvicorn raises the signal again once
        assert any("let 1 table(s) go" in line for line in cl.procs[0].output)  # stopped
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ann.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        ann = reconnect(p1, t["id"], t["token"])
        seq = play_until({0: ann, 2: bob}, seq + 8, seed=10)
        moved = time.monotonic() - stopped
        for c in (ann, bob):
            state = c.at(seq)
            assert [x["stand_in"] for x in state["seats"]] == [False] * 4
            assert state["seats"][0]["connected"] and state["seats"][2]["connected"]
        assert moved < 10
        assert owner(url, t["id"]) not in (0,)
        assert_states_are_the_log(url, t["id"], [ann, bob], seq)


def test_a_takeover_gives_a_held_seat_back_from_a_stand_in() -> None:
    """A replica can show a seat as stood in while its person is connected there: the old
    owner's word that a computer stands in (sent once their connection to it dropped) came
    after they reconnected here, and that owner stopped before hearing of it. Taking the
    table over, this process counts the connections again and gives the seat back to its
    person; else a computer played for them while they watched (a full run of the
    graceful-stop test above found seat 0 still stood in with Ann connected)."""
    import asyncio
    from types import SimpleNamespace

    from euchre.rules import PRESETS
    from euchre.web.cluster import Cluster
    from euchre.web.rooms import Rooms
    from euchre.web.store import TableData

    table = Table(TableData("t", 0.0, PRESETS["standard"].to_dict(), 1, "inv",
                            [SeatData(i, f"token{i}", "human", "rule", f"P{i}", True)
                             for i in range(4)], [], None, []))
    held, away = table.seats[0], table.seats[2]
    held.connections, held.stand_in, held.covered = 1, True, ["You pass"]
    away.stand_in = True  # nobody holds this one: its stand-in plays on
    rooms = Rooms(None)  # type: ignore[arg-type]
    rooms.add(table)
    noted: list[tuple[int, float | None]] = []
    moves = SimpleNamespace(away=SimpleNamespace(
        note_left=lambda _t, seat, at: noted.append((seat.seat, at))),
        schedule=lambda _t: None)
    cluster = Cluster(SimpleNamespace(rooms=rooms, moves=moves),
                      "postgresql://localhost/unused")
    asyncio.run(cluster.recount(table))
    assert not held.stand_in and held.covered == [] and not held.computer_plays
    assert away.stand_in and away.computer_plays
    assert noted == []  # the seat was held before: no return to note


def httpx_post(url: str, body: Any) -> dict[str, Any]:
    import httpx

    r = httpx.post(url, json=body, timeout=10)
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def test_several_processes_on_sqlite_are_refused_in_one_line(sqlite_url: str) -> None:
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).parent / "euchre"
    r = subprocess.run([str(exe), "serve", "--processes", "2", "--db", sqlite_url, "--port",
                        "0"], capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "--processes 2 needs a PostgreSQL database" in r.stderr


def _parent_of(pid: int) -> int | None:
    try:  # the field after the parenthesised command name, which may hold spaces
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def test_processes_2_serve_one_port_and_stop_together(pg_cluster: PgCluster) -> None:
    """``euchre serve --processes 2``: two server processes on one port; tables made and
    played through it, whichever process each connection reaches."""
    # the loopback cluster trusts every connection, so a password in the URL is carried and
    # ignored: it must reach the server processes without appearing on their command lines
    url = pg_cluster.new_database().replace("postgres@", "postgres:Hunter2-secret@", 1)
    srv = ServeProcess(url, "--processes", "2", "--workers", "1")
    try:
        assert "with 2 server processes" in srv.banner
        assert "Hunter2" not in srv.banner
        children = [int(pid) for pid in os.listdir("/proc") if pid.isdigit()
                    and _parent_of(int(pid)) == srv.proc.pid]
        assert len(children) == 2
        for pid in children:  # what `ps` shows any local user
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            assert b"serve" in cmdline and b"Hunter2" not in cmdline, cmdline
        for _ in range(4):
            t = httpx_post(srv.base + "/api/tables", {"my_seat": 0,
                                                     "seats": [HUMAN, RULE, HUMAN, RULE]})
            invite = t["invite_url"].split("#invite=")[1]
            friend = httpx_post(srv.base + f"/api/tables/{t['id']}/join", {"invite": invite})
            ann, bob = ws(srv.port, t["id"], t["token"]), ws(srv.port, t["id"], friend["token"])
            seq = play_until({0: ann, 2: bob}, 6)
            assert len(logged(url, t["id"])) == seq
            ann.close()
            bob.close()
        deadline = time.monotonic() + 10
        while sum("joined the cluster" in line for line in srv.output) < 2:
            assert time.monotonic() < deadline, srv.output
            time.sleep(0.05)
    finally:
        srv.stop()
    assert srv.proc.returncode == 0
    srv.reader.join(5)
    out = "".join(srv.output)
    # said once for all of them; each process's pools finished cleanly (nothing "leaked")
    assert out.count("server stopped") == 1, out
    assert "leaked" not in out and "Traceback" not in out, out
