"""The lobby and Play now: people who want the same rules are seated together, computers play
the free seats until people come (from the next hand), a person who leaves gives the seat back
to its computer and frees it, the turn clock has the seat's computer move for a person who lets
it run out, and the lobby lists the open tables of every server process."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from webtools import Client, LiveServer, PgCluster

from euchre.rules import PRESETS
from euchre.web import bots as B
from euchre.web.lobby import LOBBY_SECONDS, Seated
from euchre.web.moves import CLOCK_STRIKES
from euchre.web.store import BOT, HUMAN, SeatData, Store, TableData
from euchre.web.table import CLOCK_LEAST, PACE_SEEN, PACE_WINDOW, Table, pace_clock

SEAT_NAMES = ["North", "East", "South", "West"]


def play_now(srv: LiveServer, **body: Any) -> dict[str, Any]:
    status, out = srv.post("/api/play", body)
    assert status in (200, 201), out
    assert isinstance(out, dict)
    return out


def lobby(srv: LiveServer) -> list[dict[str, Any]]:
    status, out = srv.get("/api/lobby")
    assert status == 200
    tables: list[dict[str, Any]] = out["tables"]
    return tables


def told(c: Client, text: str, timeout: float = 5) -> None:
    """``c`` has been told ``text`` in the table's chat, in its own line (its seat -2), before
    or after the messages read so far."""
    def said(m: dict[str, Any]) -> bool:
        return bool(m["type"] == "chat" and m["seat"] == -2 and m["text"] == text)

    if not any(said(m) for m in c.messages):
        c.until(said, timeout)


def table(srv: LiveServer, table_id: str) -> Any:
    return srv.app.state.server.tables[table_id]


def test_play_now_seats_people_wanting_the_same_rules_together_and_lists_the_table(
        db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        ann = play_now(srv, name="Ann")
        assert ann["new"] and ann["seat"] == 0 and ann["url"] == \
            f"/t/{ann['id']}#token={ann['token']}"
        bob, cy = play_now(srv, name="Bob"), play_now(srv, name="Cy")
        assert (bob["id"], cy["id"]) == (ann["id"], ann["id"])
        assert (bob["seat"], cy["seat"], bob["new"]) == (1, 2, False)
        other = play_now(srv, name="Di", preset="tournament")  # other rules: its own table
        assert other["id"] != ann["id"] and other["new"]
        listed = {t["id"]: t for t in lobby(srv)}
        t = listed[ann["id"]]
        assert t["rules"] == ["standard", "to 10 points"] and t["url"] == f"/t/{ann['id']}"
        assert (t["players"], t["free"], t["people"], t["computers"]) == (4, 1, 3, 1)
        assert [s["name"] for s in t["seats"]] == ["Ann", "Bob", "Cy", "West (club)"]
        assert [s["free"] for s in t["seats"]] == [False, False, False, True]
        assert t["clock"] == 15.0 and t["rated"] is False and t["started"] is False
        assert listed[other["id"]]["rules"] == ["tournament: stick the dealer", "to 10 points"]
        # no rules named: the rules most people are waiting for
        di = play_now(srv, name="Ed")
        assert (di["id"], di["seat"]) == (ann["id"], 3)
        # a full table is no longer open to anyone; a table of friends never was
        friends = srv.create(name="Fay")
        full = {t["id"]: t for t in lobby(srv)}[ann["id"]]  # listed while played: spectate
        assert (full["free"], full["people"]) == (0, 4)
        assert friends["id"] not in {t["id"] for t in lobby(srv)}
        status, out = srv.post(f"/api/lobby/{friends['id']}/join", {})
        assert status == 409 and "no free seat" in out["error"]
        status, out = srv.post(f"/api/lobby/{ann['id']}/join", {})
        assert status == 409
        gus = play_now(srv, name="Gus", preset="standard")  # that table is full: a new one
        assert gus["new"] and gus["id"] != ann["id"]
        hal = play_now(srv, name="Hal")  # most waiting beside a free seat: Di and Gus tie,
        assert hal["id"] == other["id"]  # the first found (the oldest table) wins


def test_play_now_refuses_bad_requests_saying_what_is_wrong(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, client_tables_per_minute=2) as srv:
        for body, why in (({"preset": "nope"}, "unknown preset 'nope'"),
                          ({"rules": {"target": 0}}, "target must be a positive integer"),
                          ({"seats": []}, "invalid request"),
                          ({"name": "x" * 40}, "invalid request")):
            status, out = srv.post("/api/play", body)
            assert status == 400 and why in out["error"], (body, out)
        assert lobby(srv) == []  # nothing was made
        for preset in ("standard", "tournament"):  # each a new table: counted
            assert play_now(srv, preset=preset)["new"]
        status, out = srv.post("/api/play", {"preset": "joker"})
        assert status == 429 and "tables" in out["error"], out
        assert play_now(srv, preset="standard")["new"] is False  # a seat is no new table


def test_a_person_taking_a_seat_mid_hand_plays_it_from_the_next_hand(sqlite_url: str) -> None:
    # To 10, not fewer: a hand scores at most 4, so no game ends in the first two hands and
    # there is always a next hand for Bob (to 3, a loner's march in the hand Bob sat down in
    # ended the game there, seen once in CI).
    with LiveServer(db_url=sqlite_url) as srv:
        ann = play_now(srv, name="Ann", rules={"target": 10})
        a = srv.connect(ann["id"], ann["token"])
        s = a.until_state(lambda s: True)  # dealt: the computers play the free seats
        assert s["public"] and [x["stand_in"] for x in s["seats"]] == [False, True, True, True]
        bob = play_now(srv, name="Bob", rules={"target": 10})
        assert bob["id"] == ann["id"]
        b = srv.connect(bob["id"], bob["token"])
        s = b.until_state(lambda s: True)
        hand = s["hand_no"]
        assert s["seats"][1]["name"] == "Bob" and s["seats"][1]["stand_in"]
        while True:  # Ann plays; Bob's computer plays his seat to the end of this hand
            s = a.my_turn()
            if s["hand_no"] > hand:
                break
            assert not s["finished"], f"the game ended in hand {hand}, the one Bob sat down in"
            assert not b.state or not b.state["legal"] or b.state["hand_no"] > hand
            a.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            a.after(s["seq"])
        s = b.until_state(lambda s: s["hand_no"] > hand)
        assert not s["seats"][1]["stand_in"]  # his from this hand on
        assert not any(m["type"] == "state" and m["hand_no"] == hand and m["legal"]
                       for m in b.messages)
        a.close()
        b.close()


def test_leaving_gives_the_seat_to_its_computer_and_the_next_person_takes_it(
        db_url: str) -> None:
    with LiveServer(db_url=db_url, leave_grace=0.3) as srv:
        ann, bob = play_now(srv, name="Ann"), play_now(srv, name="Bob")
        a, b = srv.connect(ann["id"], ann["token"]), srv.connect(bob["id"], bob["token"])
        a.until_state(lambda s: True)
        b.send({"type": "leave"})  # said: free at once
        err = b.until(lambda m: m["type"] == "error")
        assert err["code"] == "left"
        s = a.until_state(lambda s: not s["seats"][1]["claimed"])
        assert s["seats"][1]["name"] == "East (club)" and s["seats"][1]["stand_in"]
        # the others are told in words, in the table's chat (its own line: seat -2)
        told = a.until(lambda m: m["type"] == "chat")
        assert (told["seat"], told["name"], told["text"]) == (
            -2, "", "Bob left the table: East (club) plays the seat until someone takes it.")
        assert lobby(srv)[0]["free"] == 3
        old = srv.connect(bob["id"], bob["token"])  # the old link opens the seat no more
        assert old.recv()["code"] == "bad_token"
        cy = play_now(srv, name="Cy")
        assert (cy["id"], cy["seat"]) == (ann["id"], 1)
        told = a.until(lambda m: m["type"] == "chat")
        assert (told["seat"], told["text"]) == (
            -2, "Cy took East's seat and plays it from the next hand.")
        c = srv.connect(cy["id"], cy["token"])
        welcome = c.recv()  # a newcomer reads what the table was told
        assert [line["text"] for line in welcome["chat"]] == [
            "Bob took East's seat.",
            "Bob left the table: East (club) plays the seat until someone takes it.",
            "Cy took East's seat and plays it from the next hand."]
        c.until_state(lambda s: s["seats"][1]["name"] == "Cy")
        c.close()  # gone without a word: the seat is hers for the grace (a reload keeps it:
        # test_a_reload_at_a_table_of_computers_finds_the_game_where_it_was), then free
        s = a.until_state(lambda s: not s["seats"][1]["claimed"], timeout=5)
        assert s["seats"][1]["name"] == "East (club)"
        assert a.until(lambda m: m["type"] == "chat")["text"] == \
            "Cy left the table: East (club) plays the seat until someone takes it."
        ann2 = srv.connect(ann["id"], ann["token"])  # a reload within the grace keeps it
        a.close()
        time.sleep(0.6)
        s = ann2.until_state(lambda s: True)
        assert s["seats"][0]["claimed"] and s["seats"][0]["name"] == "Ann"
        ann2.close()


def test_a_reload_at_a_table_of_computers_finds_the_game_where_it_was(sqlite_url: str) -> None:
    """A person playing computers at an open table reloads the page (closed, open again a
    moment later): their seat is theirs meanwhile and their turn waits on its clock, so the
    computers have not played the game out in that moment (they did, at machine speed, when
    the seat's computer stood in at once)."""
    with LiveServer(db_url=sqlite_url, leave_grace=20) as srv:
        ann = play_now(srv, name="Ann", rules={"target": 10})
        a = srv.connect(ann["id"], ann["token"])
        s = wait_turn(a)
        a.close()
        time.sleep(1.5)  # what a reload takes, and more
        t = table(srv, ann["id"])
        assert not t.finished and t.seq == s["seq"], (t.seq, s["seq"])
        assert t.seats[0].claimed and not t.seats[0].stand_in
        a = srv.connect(ann["id"], ann["token"])
        again = wait_turn(a)
        assert (again["seq"], again["hand_no"]) == (s["seq"], s["hand_no"])
        assert [x["id"] for x in again["legal"]] == [x["id"] for x in s["legal"]]
        a.close()


def test_a_database_fault_freeing_a_left_seat_is_one_log_line_and_the_table_goes_on(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A person's page closes without a word and the database refuses to free the seat: the
    log says so in one line (which seat, which table, the error) with no traceback, the
    seat's computer plays on, and the game goes on."""
    def broken(self: Store, **kw: Any) -> None:
        raise OSError("the disk is gone")

    with LiveServer(db_url=sqlite_url, leave_grace=0.2) as srv:
        ann, bob = play_now(srv, name="Ann"), play_now(srv, name="Bob")
        a, b = srv.connect(ann["id"], ann["token"]), srv.connect(bob["id"], bob["token"])
        b.until_state(lambda s: True)
        monkeypatch.setattr(Store, "leave_seat", broken)
        b.close()
        a.until_state(lambda s: s["seats"][1]["stand_in"])
        deadline = time.monotonic() + 10
        while not any("could not free" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "no log line"
            time.sleep(0.05)
        monkeypatch.undo()
        line = next(r for r in caplog.records if "could not free" in r.getMessage())
        assert line.exc_info is None and "Traceback" not in caplog.text
        assert "seat 1 (East)" in line.getMessage() and ann["id"] in line.getMessage() \
            and "OSError('the disk is gone')" in line.getMessage()
        s = wait_turn(a)  # the game goes on, East's computer playing the seat still Bob's
        assert s["seats"][1]["claimed"] and s["seats"][1]["name"] == "Bob"
        a.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
        assert a.after(s["seq"])["seq"] > s["seq"]
        b = srv.connect(bob["id"], bob["token"])  # his link still opens his seat
        assert b.until_state(lambda s: True)["seats"][1]["name"] == "Bob"
        a.close()
        b.close()


def wait_turn(c: Client) -> dict[str, Any]:
    return c.until_state(lambda s: bool(s["legal"]), timeout=30)


def test_the_turn_clock_has_the_computer_move_and_repeated_timeouts_hand_it_the_seat(
        sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, turn_clock=0.4) as srv:
        ann = play_now(srv, name="Ann")
        a = srv.connect(ann["id"], ann["token"])
        s = wait_turn(a)
        assert s["clock"] == 0.4 and 0 < s["turn_left"] <= 0.4
        waited = time.monotonic()
        moved = a.until_state(lambda m: m["seq"] > s["seq"])  # nobody moved: the clock did
        assert time.monotonic() - waited >= 0.3
        assert moved["last"]["seat"] == 0 and not moved["seats"][0]["stand_in"]
        for _ in range(CLOCK_STRIKES - 1):  # again: the computer takes the seat over
            s = wait_turn(a) if not a.state or not a.state["legal"] else a.state
            a.after(s["seq"])
        s = a.until_state(lambda m: m["seats"][0]["stand_in"])
        assert table(srv, ann["id"]).seats[0].idle
        a.until_state(lambda m: m["seq"] > s["seq"] + 4)  # it plays on for the person
        a.send({"type": "back"})
        s = a.until_state(lambda m: not m["seats"][0]["stand_in"])
        s = wait_turn(a)  # theirs again, and a move resets the count
        a.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
        a.after(s["seq"])
        assert table(srv, ann["id"]).seats[0].timeouts == 0
        a.close()


def test_play_now_and_the_lobby_span_two_server_processes(pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    with LiveServer(db_url=url, cluster=True) as a, LiveServer(db_url=url, cluster=True) as b:
        ann = play_now(a, name="Ann")
        bob = play_now(b, name="Bob")  # at the other process: the same table, claimed there
        assert (bob["id"], bob["seat"], bob["new"]) == (ann["id"], 1, False)
        assert not b.app.state.server.cluster.owns(ann["id"])
        for srv in (a, b):
            (t,) = lobby(srv)
            assert t["id"] == ann["id"] and t["people"] == 2 and t["free"] == 2
        x, y = a.connect(ann["id"], ann["token"]), b.connect(bob["id"], bob["token"])
        for c in (x, y):
            s = c.until_state(lambda s: True)
            assert [p["name"] for p in s["seats"][:2]] == ["Ann", "Bob"]
        x.close()
        y.close()


def test_seated_is_what_a_bot_host_reads() -> None:
    seated = Seated("abc", 2, "tok", False)
    assert seated.to_json() == {"id": "abc", "seat": 2, "token": "tok", "new": False,
                                "url": "/t/abc#token=tok"}


def guest(base: str, name: str) -> Any:
    """A browser's worth of session: a guest player named ``name``."""
    import httpx

    client = httpx.Client(base_url=base, timeout=10)
    assert client.post("/api/me/guest", json={"name": name}).status_code == 201
    return client


def play_now_as(client: Any, **body: Any) -> dict[str, Any]:
    r = client.post("/api/play", json=body,
                    headers={"X-CSRF-Token": client.get("/api/me").json()["csrf"]})
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_seat_left_at_one_process_is_taken_through_the_other(pg_cluster: PgCluster) -> None:
    """A seat a player left and another player took opens for the new one at every process
    (the replicas learn whose seat it is, not only its name)."""
    url = pg_cluster.new_database()
    with LiveServer(db_url=url, cluster=True) as a, LiveServer(db_url=url, cluster=True) as b:
        ann_http, bob_http, cy_http = guest(a.base, "Ann"), guest(b.base, "Bob"), \
            guest(b.base, "Cy")
        # nobody goes alone: Bob, who never plays, is then in every trick, so the hand in
        # play lasts (its turn clock is 15 s) while Cy's seat is looked at; a partner of
        # his going alone left him out and ended the hand, and Cy's seat was his at once
        rules = {"going_alone": False}
        ann, bob = play_now_as(ann_http, rules=rules), play_now_as(bob_http, rules=rules)
        x = a.connect(ann["id"], ann["token"], cookies=ann_http.cookies)
        y = b.connect(bob["id"], bob["token"], cookies=bob_http.cookies)
        y.until_state(lambda s: True)
        x.until_state(lambda s: True)
        x.send({"type": "leave"})
        y.until_state(lambda s: not s["seats"][0]["claimed"])
        # Bob, at the other process, is told in the table's chat who left and who sat down
        told(y, "Ann left the table: North (club) plays the seat until someone takes it.")
        cy = play_now_as(cy_http, rules=rules)
        assert (cy["id"], cy["seat"]) == (ann["id"], 0)
        told(y, "Cy took North's seat and plays it from the next hand.")
        for srv in (b, a):  # the seat opens for its new holder at either process, and is
            z = srv.connect(cy["id"], cy["token"], cookies=cy_http.cookies)  # its computer's
            assert z.recv()["type"] == "welcome" and z.you == 0  # to the end of the hand
            s = z.until_state(lambda s: True)
            assert s["seats"][0]["stand_in"] and s["next_hand"] and s["legal"] == [], srv
            z.close()
        x.close()
        y.close()
        for client in (ann_http, bob_http, cy_http):
            client.close()


def test_a_seat_taken_during_a_hand_is_not_told_its_computer_covered_for_them(
        sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        ann = play_now(srv, name="Ann")
        a = srv.connect(ann["id"], ann["token"])
        a.until_state(lambda s: True)
        bob = play_now(srv, name="Bob")
        b = srv.connect(bob["id"], bob["token"])
        hand = b.until_state(lambda s: True)["hand_no"]
        while True:  # Bob's computer plays his seat to the end of the hand
            # (looked at as the next hand begins: his seat is his from then, and a turn of his
            # that runs out of clock later is rightly kept to tell him)
            s = a.until_state(lambda s: bool(s["legal"]) or s["finished"]
                              or s["hand_no"] > hand)
            if s["hand_no"] > hand:
                break
            a.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            a.after(s["seq"])
        # nothing kept to tell him "while you were away" (what a page coming back is told)
        assert table(srv, bob["id"]).seats[1].covered == []
        b.close()
        a.close()


def test_a_bot_accounts_seat_at_an_open_table_is_a_players_never_a_free_one(
        sqlite_url: str) -> None:
    """The lobby counts a bot account's seat as a player's (its own count, the fullest-first
    order), Play now never seats a person there, and once the bot leaves it the seat is a
    person's free seat again."""
    with LiveServer(db_url=sqlite_url, leave_grace=0.3) as srv:
        older = play_now(srv, name="Cy", rules={"target": 3})  # one person, made first
        ann = play_now(srv, name="Ann", preset="tournament")
        store = Store(sqlite_url)
        try:
            robo, _ = B.create(store, "Robo", None)
            store.update_seat(ann["id"], 1, kind=BOT, claimed=True, name="Robo",
                              player_id=robo.id)
        finally:
            store.close()
        t = table(srv, ann["id"])
        seat = t.seats[1]
        seat.kind, seat.claimed, seat.name, seat.player = BOT, True, "Robo", robo.id
        time.sleep(LOBBY_SECONDS + 0.1)
        first, second = lobby(srv)
        assert (first["id"], second["id"]) == (ann["id"], older["id"])  # 2 players before 1
        assert (first["free"], first["people"], first["bots"], first["computers"]) == \
            (2, 1, 1, 2)
        assert first["seats"][1] == {"name": "Robo", "person": False, "bot": True,
                                     "free": False}
        bob = play_now(srv, name="Bob", preset="tournament")
        assert (bob["id"], bob["seat"]) == (ann["id"], 2)  # the free seat, not the bot's

        async def bot_leaves() -> None:
            async with srv.app.state.server.rooms.locks[t.id]:
                await srv.app.state.server.rooms.release(t, seat)

        loop = srv.app.state.server.bot_links.looker.get_loop()
        asyncio.run_coroutine_threadsafe(bot_leaves(), loop).result(10)
        assert (seat.kind, seat.claimed, seat.player) == (HUMAN, False, None)
        di = play_now(srv, name="Di", preset="tournament")
        assert (di["id"], di["seat"]) == (ann["id"], 1)
        store = Store(sqlite_url)
        try:
            data = store.load_table(ann["id"])
        finally:
            store.close()
        assert data is not None and (data.seats[1].kind, data.seats[1].name) == (HUMAN, "Di")


def test_no_turn_clock_runs_on_a_bot_accounts_seat() -> None:
    """A bot's turns run on its move time (it is cut off past it), not the turn clock whose
    strikes it could not answer by saying it is back; a person's turns at the table run on
    the clock."""
    kinds = [HUMAN, BOT, HUMAN, HUMAN]
    t = Table(TableData("t", 0.0, PRESETS["standard"].to_dict(), 1, "inv",
                        [SeatData(i, f"tok{i}", kind, "rule", f"P{i}", i < 2)
                         for i, kind in enumerate(kinds)], [], None, [], False, True, 15.0))
    t.started = True
    for s in t.seats[:2]:
        s.connections = 1
    timed: dict[int, float | None] = {}
    while len(timed) < 2:
        cur = t.match.current_player
        if cur in (0, 1):
            timed[cur] = t.turn_left()
        t.apply(cur, t.match.legal_actions()[0])
    left = timed[0]
    assert left is not None and 0 < left <= 15.0
    assert timed[1] is None


def test_the_turn_clock_is_three_times_the_tables_median_decision_within_6_and_15_s() -> None:
    assert pace_clock(15.0, []) == 15.0
    assert pace_clock(15.0, [1.0] * (PACE_SEEN - 1)) == 15.0  # too few seen: the most
    assert pace_clock(15.0, [1.0] * PACE_SEEN) == CLOCK_LEAST == 6.0  # a quick table
    assert pace_clock(15.0, [3.0] * PACE_SEEN) == 9.0
    assert pace_clock(15.0, [2.0, 3.0, 4.0, 100.0]) == 10.5  # the median: one slow turn
    assert pace_clock(15.0, [10.0] * 12) == 15.0  # thinkers keep the most
    assert pace_clock(0.4, [0.01] * 4) == 0.4  # a clock under 6 s has no less (tests')


def test_only_a_persons_decisions_made_now_set_the_pace() -> None:
    """Read from the log (a restart, a replica's load), a computer's move, a bot's: none
    counts; a person's decision counts as long as it took, a turn that ran out as long as
    its clock; the state's clock is this turn's."""
    kinds = [HUMAN, HUMAN, HUMAN, BOT]
    data = TableData("t", 0.0, PRESETS["standard"].to_dict(), 1, "inv",
                     [SeatData(i, f"tok{i}", kind, "rule", f"P{i}", i != 2)
                      for i, kind in enumerate(kinds)], [], None, [], False, True, 15.0)
    t = Table(data)
    t.started = True
    for s in t.seats:
        s.connections = 1 if s.claimed else 0
    for _ in range(8):  # from the log
        t.apply(t.match.current_player, t.match.legal_actions()[0])
    assert list(t.decisions) == []

    def decide(took: float) -> None:
        while t.match.current_player != 0:  # the others: a person, a computer, a bot
            cur = t.match.current_player
            t.turn_since = time.monotonic() - 1.0
            t.apply(cur, t.match.legal_actions()[0], live=True)
            if cur == 1:
                assert t.decisions.pop() == pytest.approx(1.0, abs=0.05)
        t.turn_since = time.monotonic() - took
        t.apply(0, t.match.legal_actions()[0], live=True)

    for _ in range(PACE_SEEN - 1):
        decide(2.0)
    assert t.turn_clock() == 15.0 and len(t.decisions) == PACE_SEEN - 1
    decide(2.0)
    assert t.turn_clock() == pytest.approx(6.0, abs=0.1)  # 3 x 2 s
    for _ in range(PACE_WINDOW):
        decide(30.0)  # ran out: counted as the turn's clock had
    assert max(t.decisions) <= 15.0 and t.turn_clock() == 15.0
    while t.match.current_player != 0:
        t.apply(t.match.current_player, t.match.legal_actions()[0])
    shown = t.state_message(0)
    assert shown.clock == t.turn_clock() and shown.turn_left is not None
    assert shown.turn_left <= 15.0


def test_a_quick_tables_turn_clock_comes_down_to_6_s(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, turn_clock=15.0) as srv:
        ann = play_now(srv, name="Ann")
        a = srv.connect(ann["id"], ann["token"])
        s = wait_turn(a)
        assert s["clock"] == 15.0
        for _ in range(PACE_SEEN):  # Ann decides at once, four times
            a.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            a.after(s["seq"])
            s = wait_turn(a)
        assert s["clock"] == CLOCK_LEAST and 0 < s["turn_left"] <= CLOCK_LEAST
        a.close()


def test_the_lobby_shows_each_tables_pace_at_every_server_process(
        pg_cluster: PgCluster) -> None:
    """Ann, at a table the first process owns, decides at once four times: its turn clock
    comes down to 6 s, and the lobby of the other process shows it (the owner writes the
    pace where every lobby reads), beside the clock's most."""
    url = pg_cluster.new_database()
    with LiveServer(db_url=url, cluster=True) as a, LiveServer(db_url=url, cluster=True) as b:
        ann = play_now(a, name="Ann")
        (t,) = lobby(b)
        assert (t["pace"], t["clock"]) == (15, 15.0)
        x = a.connect(ann["id"], ann["token"])
        s = wait_turn(x)
        for _ in range(PACE_SEEN):
            x.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            x.after(s["seq"])
            s = wait_turn(x)
        assert s["clock"] == CLOCK_LEAST
        deadline = time.monotonic() + 10
        while (t := lobby(b)[0])["pace"] != CLOCK_LEAST:
            assert time.monotonic() < deadline, t
            time.sleep(LOBBY_SECONDS / 2)
        assert t["clock"] == 15.0
        x.close()


def test_the_lobbys_pace_is_written_when_it_moves_a_second_not_at_every_move() -> None:
    """The pace the lobby shows is written again only when the turn clock has moved a
    second or more from it: a table at a steady pace writes nothing more."""
    data = TableData("t", 0.0, PRESETS["standard"].to_dict(), 1, "inv",
                     [SeatData(i, f"tok{i}", HUMAN, "rule", f"P{i}", True) for i in range(4)],
                     [], None, [], False, True, 15.0)
    t = Table(data)
    assert t.pace_due() is None  # 15 s, as stored with the table
    written: list[tuple[int, float]] = []
    steady = [2.1, 2.2, 2.3, 2.2, 2.1] * 4  # 6.3 to 6.9 s: within a second of 6
    for i, took in enumerate([2.0] * 8 + steady + [4.0] * 12):
        t.decisions.append(took)
        due = t.pace_due()
        if due is not None:
            written.append((i, due))
    assert written[0] == (PACE_SEEN - 1, 6.0) and written[-1][1] == 12.0
    assert not any(8 <= i < 8 + len(steady) for i, _ in written)
    assert all(abs(b - a) >= 1 for (_, a), (_, b) in itertools.pairwise(written))
    assert len(written) <= 4 and t.pace_shown == 12.0


def test_a_seat_taken_after_its_player_left_is_not_told_what_its_computer_did(
        sqlite_url: str) -> None:
    """Bob leaves; the seat's computer plays it for nobody; Cy takes it during the hand: she
    is told the seat is hers from the next hand, never "while you were away, the computer
    played for you" (nobody was away: the moves were no one's)."""
    with LiveServer(db_url=sqlite_url, leave_grace=0.3) as srv:
        ann, bob = play_now(srv, name="Ann"), play_now(srv, name="Bob")
        a, b = srv.connect(ann["id"], ann["token"]), srv.connect(bob["id"], bob["token"])
        a.until_state(lambda s: True)
        b.send({"type": "leave"})
        assert b.until(lambda m: m["type"] == "error")["code"] == "left"
        left = a.until_state(lambda s: not s["seats"][1]["claimed"])["seq"]
        t = table(srv, ann["id"])
        while not any(seat == 1 for seat, _ in t.log[left:]):  # its computer moves
            s = a.my_turn()
            a.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            a.after(s["seq"])
        cy = play_now(srv, name="Cy")
        assert (cy["id"], cy["seat"]) == (ann["id"], 1)
        c = srv.connect(cy["id"], cy["token"])
        s = c.until_state(lambda s: True)
        assert s["seats"][1]["name"] == "Cy"
        c.drain(0.2)
        assert not any(m["type"] == "covered" for m in c.messages), c.messages
        c.close()
        a.close()
