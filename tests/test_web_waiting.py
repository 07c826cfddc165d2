"""The waiting room and the next game: a table deals only once its people are there (or one of
them starts it), so nobody misses the first up-card; computers take the free seats when a
person starts it; "Play again" seats the same players at a new table; the rules at the table
in words."""

from __future__ import annotations

import random
import time
from typing import Any

from webtools import Client, LiveServer

from euchre.rules import PRESETS, Rules, rules_summary

RULE = {"kind": "computer", "level": "rule"}
HUMAN = {"kind": "human"}


def server_table(srv: LiveServer, table_id: str) -> Any:
    return srv.app.state.server.tables[table_id]


def test_rules_summary_names_the_preset_what_sets_it_apart_the_target_and_each_change() -> None:
    assert rules_summary(Rules()) == ["standard", "to 10 points"]
    assert rules_summary(PRESETS["tournament"]) == ["tournament: stick the dealer",
                                                    "to 10 points"]
    assert rules_summary(Rules(target=5, canadian_loner=True)) == [
        "standard", "to 5 points", "Canadian loner"]
    assert rules_summary(Rules(players=3)) == ["cutthroat: three players (cutthroat)",
                                               "to 10 points"]


def test_computers_never_play_before_the_creators_page_is_there(sqlite_url: str) -> None:
    """The computers bid and played before the creator's page connected, so the up-card was
    never seen: now the first deal waits for that page (four tables: the first to bid is a
    computer at three in four of them)."""
    with LiveServer(db_url=sqlite_url) as srv:
        made = [srv.create(name="Ann", seats=[RULE, RULE, HUMAN, RULE]) for _ in range(4)]
        time.sleep(0.5)
        assert [server_table(srv, t["id"]).seq for t in made] == [0] * 4
        for t in made:
            c = srv.connect(t["id"], t["token"])
            first = c.until(lambda m: m["type"] in ("state", "waiting"))
            assert first["type"] == "state" and first["seq"] == 0, first
            assert first["upcard"] and first["upcard_status"] == "face up"
            c.close()


def test_a_friends_table_waits_for_the_friend_and_nobody_moves_meanwhile(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(name="Ann", my_seat=0, seats=[HUMAN, RULE, HUMAN, RULE])
        ann = srv.connect(t["id"], t["token"])
        assert ann.recv()["rules"] == ["standard", "to 10 points"]  # the rules panel's words
        w = ann.until(lambda m: m["type"] == "waiting")
        assert w["can_start"] and w["you"] == 0 and w["rules"] == ["standard", "to 10 points"]
        assert [(s["kind"], s["claimed"]) for s in w["seats"]] == [
            ("human", True), ("computer", False), ("human", False), ("computer", False)]
        assert "hand" not in w and "upcard" not in w  # nothing is dealt to anyone yet
        ann.send({"type": "act", "action": 80, "seq": 0})
        err = ann.until(lambda m: m["type"] == "error")
        assert err["code"] == "waiting" and "every seat is taken" in err["message"]
        spec = srv.connect(t["id"])
        assert spec.until(lambda m: m["type"] == "waiting")["can_start"] is False
        time.sleep(0.4)
        assert server_table(srv, t["id"]).seq == 0
        invite = t["invite_url"].split("#invite=")[1]
        status, bob = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite, "name": "Bob"})
        assert status == 200
        w = ann.until(lambda m: m["type"] == "waiting" and m["seats"][2]["claimed"])
        assert w["seats"][2]["name"] == "Bob" and not w["seats"][2]["connected"]
        b = srv.connect(t["id"], bob["token"])  # every seat taken and held: dealt
        for c in (ann, b, spec):
            s = c.until_state(lambda s: True)
            assert s["seq"] == 0 and s["upcard"], s
        for c in (ann, b, spec):
            c.close()


def test_a_person_starts_the_table_and_computers_take_the_free_seats(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(name="Ann", my_seat=0, seats=[HUMAN, RULE, HUMAN, RULE])
        ann, spec = srv.connect(t["id"], t["token"]), srv.connect(t["id"])
        ann.until(lambda m: m["type"] == "waiting")
        spec.until(lambda m: m["type"] == "waiting")
        spec.send({"type": "start"})
        assert spec.until(lambda m: m["type"] == "error")["code"] == "spectator"
        ann.send({"type": "start"})
        s = ann.until_state(lambda s: True)
        assert s["seq"] == 0 and s["upcard"]
        south = s["seats"][2]
        assert (south["kind"], south["name"]) == ("computer", "South (club)")
        ann.send({"type": "start"})
        assert ann.until(lambda m: m["type"] == "error")["code"] == "started"
        invite = t["invite_url"].split("#invite=")[1]
        status, out = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite})
        assert status == 409 and "every seat" in out["error"]
        play_until_over = random.Random(4)
        for _ in range(3):  # the game goes on: the computers answer the person
            s = ann.my_turn()
            ann.send({"type": "act", "action": play_until_over.choice(s["legal"])["id"],
                      "seq": s["seq"]})
            ann.after(s["seq"])
        _status, info = srv.get(f"/api/tables/{t['id']}")
        assert info["seats"][2]["kind"] == "computer"  # stored: a restart keeps it
        ann.close()
        spec.close()


def test_a_table_its_creator_only_watches_deals_once_a_page_is_open(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create(my_seat=-1, seats=[HUMAN, RULE, RULE, RULE])  # a friend's seat, free
        time.sleep(0.4)
        assert server_table(srv, t["id"]).seq == 0
        spec = srv.connect(t["id"])
        first = spec.until(lambda m: m["type"] in ("state", "waiting"))
        assert first["type"] == "state" and first["seq"] == 0
        spec.close()


def test_computers_alone_play_at_once_with_nobody_to_wait_for(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create(my_seat=-1, seats=[RULE] * 4, rules={"target": 2})
        deadline = time.monotonic() + 30
        while not server_table(srv, t["id"]).finished:  # no page needed: a computers' match
            assert time.monotonic() < deadline, "the computers did not play"
            time.sleep(0.05)


def play_out(c: Client, rng: random.Random) -> dict[str, Any]:
    while True:
        s = c.my_turn(timeout=30)
        if s["finished"]:
            return s
        c.send({"type": "act", "action": rng.choice(s["legal"])["id"], "seq": s["seq"]})
        c.after(s["seq"])


def test_play_again_seats_the_same_players_at_a_new_table_with_the_same_rules(
        db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(name="Ann", my_seat=0, seats=[HUMAN, RULE, HUMAN, RULE],
                       rules={"target": 2, "stick_the_dealer": True})
        invite = t["invite_url"].split("#invite=")[1]
        _status, bob = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite, "name": "Bob"})
        ann, b = srv.connect(t["id"], t["token"]), srv.connect(t["id"], bob["token"])
        ann.send({"type": "play_again"})
        assert ann.until(lambda m: m["type"] == "error")["code"] == "not_over"
        rng = random.Random(9)
        while True:  # both play at random to the end
            done = False
            for c in (ann, b):
                c.drain(0.05)
                s = c.state
                if s is not None and s["finished"]:
                    done = True
                elif s is not None and s["legal"]:
                    c.send({"type": "act", "action": rng.choice(s["legal"])["id"],
                            "seq": s["seq"]})
                    c.after(s["seq"])
            if done:
                break
        spec = srv.connect(t["id"])
        spec.until_state(lambda s: s["finished"])
        spec.send({"type": "play_again"})
        assert spec.until(lambda m: m["type"] == "error")["code"] == "spectator"
        b.send({"type": "play_again"})
        links = [c.until_state(lambda s: bool(s["again"]))["again"] for c in (ann, b, spec)]
        new_id = links[0].split("/t/")[1].split("#")[0]
        assert links[0] == f"/t/{new_id}#token={server_table(srv, new_id).seats[0].token}"
        assert links[1] == f"/t/{new_id}#token={server_table(srv, new_id).seats[2].token}"
        assert links[2] == f"/t/{new_id}"  # a spectator's only watches
        ann.send({"type": "play_again"})  # asked twice: the same next table
        assert ann.until_state(lambda s: s["again"] == links[0])
        _status, old = srv.get(f"/api/tables/{t['id']}")
        _status, new = srv.get(f"/api/tables/{new_id}")
        assert [(s["name"], s["kind"], s["level"]) for s in new["seats"]] == \
            [(s["name"], s["kind"], s["level"]) for s in old["seats"]]
        assert new["rules"] == old["rules"] and new["finished"] is False
        ann2 = srv.connect(new_id, links[0].split("#token=")[1])
        w = ann2.until(lambda m: m["type"] == "waiting")  # Bob is not there yet
        assert w["you"] == 0 and w["seats"][2]["claimed"]
        b2 = srv.connect(new_id, links[1].split("#token=")[1])
        assert b2.until_state(lambda s: True)["seq"] == 0
        assert ann2.until_state(lambda s: True)["seq"] == 0
        for c in (ann, b, spec, ann2, b2):
            c.close()
