"""Two-handed with rows at the browser table: the server's messages carry each seat's row (the
face-up cards, public; how many lie face down, never which), the auction's bids, the contract
and twelve tricks; the replay shows the rows; and the home page names every rules option in
words, never by its raw key."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from webtools import LiveServer

from euchre.cards import parse_card
from euchre.match import Match
from euchre.rules import PRESETS, Rules
from euchre.web.app import rules_options
from euchre.web.replay import replay_frames
from euchre.web.store import SeatData, TableData
from euchre.web.table import Table

ROWS = PRESETS["two-handed-rows"]
BIDS = ["bid 7", "bid 8", "bid 9", "bid 10", "bid 11", "bid 12"]


def test_every_rules_option_has_a_label_in_words_and_a_tooltip() -> None:
    """A new ``Rules`` field without a label fails here rather than showing its raw key."""
    opts = {o["name"]: o for o in rules_options()}
    assert list(opts) == [f.name for f in fields(Rules)]
    for name, o in opts.items():
        assert o["label"] != name and "_" not in o["label"], f"{name} has no label in words"
        assert o["label"][0].isupper(), o["label"]
        assert len(o["help"]) > 20, f"{name} has no tooltip"
    assert opts["renege_fix"]["label"] == "A renege may be taken back"
    assert opts["rows"]["label"] == "Two-handed with rows"


def row_cards(state: dict[str, Any], seat: int) -> list[str]:
    return [c["card"] for c in state["rows"][seat] if c["card"]]


def check_rows_picture(s: dict[str, Any], seat: int) -> None:
    """What one seat's state says about the rows, checked against each other."""
    assert s["players"] == 2 and len(s["rows"]) == 2
    assert all(len(r) == 4 for r in s["rows"])
    for col in (c for r in s["rows"] for c in r):
        assert set(col) == {"card", "face_down"}  # never the card under it
        assert not col["face_down"] or col["card"]  # a face-down card lies under a face-up one
    mine = row_cards(s, seat)
    assert not set(mine) & set(s["hand"])  # the row's cards are not also in the hand
    assert s["hand_sizes"][seat] == len(s["hand"])


def test_a_rows_hand_over_the_websocket(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create(preset="two-handed-rows", rules={"single_hand": True}, my_seat=0,
                       seats=[{"kind": "human"}, {"kind": "computer", "level": "rule"}])
        c = srv.connect(t["id"], t["token"])
        watcher = srv.connect(t["id"])
        s = c.until_state(lambda m: True)
        assert s["upcard"] is None and s["upcard_status"] == "none (rows)"
        assert len(s["hand"]) == 4 and s["hand_sizes"] == [4, 4]
        assert all(col["face_down"] for r in s["rows"] for col in r)
        check_rows_picture(s, 0)
        rng = random.Random(7)
        turned = 0
        while True:
            s = c.my_turn(timeout=30)
            check_rows_picture(s, 0)
            if s["finished"]:
                break
            codes = {a["code"]: a for a in s["legal"]}
            if s["phase"] == "auction":
                assert set(codes) <= {*BIDS, "pass"}
                # every bid above the highest so far (the dealer may only outbid)
                bids = sorted(int(x.split()[1]) for x in codes if x != "pass")
                assert bids == list(range(max(7, s["contract"] + 1), 13))
                a = codes.get("bid 7") or codes.get("pass") or s["legal"][0]
            elif s["phase"] == "trump":
                assert set(codes) == {"call C", "call D", "call H", "call S"}
                a = codes["call S"]
            else:
                assert s["phase"] == "play"
                playable = {a["card"] for a in s["legal"]}
                assert playable <= set(s["hand"]) | set(row_cards(s, 0))
                on_top = [i for i, col in enumerate(s["rows"][0])
                          if col["face_down"] and col["card"] in playable]
                if on_top:  # play a face-up row card: the one under it turns up
                    i = on_top[0]
                    a = next(x for x in s["legal"] if x["card"] == s["rows"][0][i]["card"])
                    c.send({"type": "act", "action": a["id"], "seq": s["seq"]})
                    after = c.after(s["seq"])
                    col = after["rows"][0][i]
                    assert not col["face_down"] and col["card"] not in (None, a["card"])
                    assert col["card"] not in after["hand"]
                    turned += 1
                    continue
                a = rng.choice(s["legal"])
            c.send({"type": "act", "action": a["id"], "seq": s["seq"]})
            c.after(s["seq"])
        h = s["last_hand"]
        assert sum(h["tricks_won"]) == 12 and len(h["tricks"]) == 12
        assert turned >= 1
        if h["outcome"] != "thrown_in":
            assert h["contract"] >= 7
            took = h["tricks_won"][h["maker"]]
            made = took >= h["contract"]
            assert h["points"][h["maker"]] == (took - 6 if made else 0)
            assert h["points"][1 - h["maker"]] == 0  # only the maker scores (rows_euchre off)
        said = [b["code"] for b in s["bids"]]
        assert any(b in BIDS for b in said)
        # the spectator sees both rows as the players do, and no hand
        w = watcher.until_state(lambda m: m["finished"])
        assert w["hand"] == [] and w["rows"] == s["rows"]
        status, replay = srv.get(f"/api/tables/{t['id']}/replay")
        assert status == 200 and len(replay["frames"]) == s["seq"] + 1
        first = replay["frames"][0]
        assert all(col["under"] for r in first["rows"] for col in r)
        c.close()
        watcher.close()


def test_replay_frames_show_rows_and_keep_row_cards_out_of_the_hands() -> None:
    rng = random.Random(3)
    m = Match(ROWS, seed=11)
    log = []
    while len(m.finished) < 1:
        a = rng.choice(m.legal_actions())
        log.append((m.current_player, a))
        m.apply_action(a)
    frames = replay_frames(ROWS, 11, log, ["Ann", "Bo"])
    assert len(frames) == len(log) + 1
    for f in frames:
        for seat in range(2):
            row = f["rows"][seat]
            shown = [c["card"] for c in row if c["card"]] + [c["under"] for c in row
                                                             if "under" in c]
            assert not set(shown) & set(f["hands"][seat])
            assert all(parse_card(x) >= 0 for x in shown)
    start = frames[0]
    assert [len(h) for h in start["hands"]] == [4, 4]
    assert start["upcard_status"] == "none (rows)"
    assert len({c for r in start["rows"] for col in r for c in (col["card"], col["under"])}
               | {c for h in start["hands"] for c in h}) == 24


def test_a_rows_table_rebuilt_from_its_log_gives_the_same_picture() -> None:
    """The state message is built from the engine alone: a table rebuilt from its actions
    (a restart) sends every seat the same rows."""
    data = TableData("t", 0.0, ROWS.to_dict(), 5, "inv",
                     [SeatData(0, "a", "human", "rule", "A", True),
                      SeatData(1, "b", "human", "rule", "B", True)], [], None, [])
    t = Table(data)
    rng = random.Random(2)
    for _ in range(12):
        cur = t.match.current_player
        t.apply(cur, rng.choice(t.state_message(cur).legal).id)
    again = Table(TableData(**{**data.__dict__, "actions": list(t.log)}))
    for seat in (0, 1, -1):
        assert again.state_message(seat).rows == t.state_message(seat).rows
