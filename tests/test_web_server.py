"""The table server over real HTTP and websockets, against SQLite and a real PostgreSQL: the
API, whole games, turns and tokens, chat, hints, reconnecting, away seats, and the worker pool
that keeps a slow computer from delaying other tables."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from webtools import Client, LiveServer

from euchre.bots import BOT_NAMES, player_levels
from euchre.record import from_json
from euchre.rules import PRESETS, Rules
from euchre.seats import seat_name


def play_randomly(c: Client, rng: random.Random, until: Any = None) -> dict[str, Any]:
    """Make random legal moves for this client's seat until ``until(state)`` or the end."""
    while True:
        s = c.my_turn(timeout=30)
        if s["finished"] or (until is not None and until(s)):
            return s
        a = rng.choice(s["legal"])
        c.send({"type": "act", "action": a["id"], "seq": s["seq"]})
        c.after(s["seq"])


def test_options_offer_every_rules_option_every_preset_and_every_computer_level(
        sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        status, opts = srv.get("/api/options")
    assert status == 200
    from dataclasses import fields
    assert [o["name"] for o in opts["options"]] == [f.name for f in fields(Rules)]
    assert set(opts["presets"]) == set(PRESETS)
    assert opts["levels"] == list(player_levels())  # what a person picks; baselines stay out
    # Each with its measured rating and a line on how it plays, from the registry.
    from euchre.bots.registry import describe_level, ladder_rating

    assert (opts["default_level"], opts["strongest_level"]) == ("club", "expert")
    for name in opts["levels"]:
        rating = ladder_rating(name)
        assert rating is not None
        shown = f"{round(rating.mu)} ± {round(1.96 * rating.sigma)}"
        # the anchor's "± 0" is the scale's definition, said so wherever it is shown
        anchor = name in ("club", "rule")
        assert opts["level_info"][name] == {
            "rating": round(rating.mu), "plus_minus": round(1.96 * rating.sigma),
            "text": f"{shown} (the scale's fixed anchor)" if anchor else shown,
            "about": describe_level(name)}
        # a rating is never shown without its margin
        assert (f"({shown}, the scale's fixed anchor)" if anchor else f"({shown})") \
            in describe_level(name)


def test_the_scales_anchor_is_said_to_be_fixed_wherever_its_rating_is_shown(
        sqlite_url: str) -> None:
    """club's "1500 ± 0" is no measured certainty but the scale's definition: the leaderboard,
    its profile (as ``club`` and as ``rule``, which plays as it) and the level menus say so;
    no other level, person or bot does."""
    from euchre.bots.registry import ANCHOR_NOTE, describe_level

    with LiveServer(db_url=sqlite_url) as srv:
        board = {p["name"]: p for p in srv.get("/api/leaderboard")[1]["players"]}
        assert board["club"]["text"] == f"1500 ± 0 ({ANCHOR_NOTE})" and board["club"]["anchor"]
        assert all(ANCHOR_NOTE not in p["text"] and not p["anchor"]
                   for name, p in board.items() if name != "club")
        for name in ("club", "rule"):
            prof = srv.get(f"/api/players/{name}")[1]
            assert prof["rating_text"] == f"1500 ± 0 ({ANCHOR_NOTE})", prof
            assert prof["rating"]["anchor"] and ANCHOR_NOTE in prof["calibration"]["text"]
        assert ANCHOR_NOTE not in srv.get("/api/players/expert")[1]["rating_text"]
    assert describe_level("club").startswith(f"club (1500 ± 0, {ANCHOR_NOTE}): ")


def test_every_preset_makes_a_table_and_bad_requests_name_the_problem(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        for name in PRESETS:
            out = srv.create(preset=name)
            assert out["seat"] >= 0 and out["token"]
        cases = [
            ({"preset": "nope"}, "unknown preset 'nope'"),
            ({"rules": {"target": 0}}, "target must be a positive integer"),
            ({"rules": {"players": 3, "canadian_loner": True}}, "no Canadian loner"),
            ({"rules": {"bogus": 1}}, "unknown rules option(s) 'bogus'"),
            ({"seats": [{"kind": "human"}]}, "4 players need 4 seats, not 1"),
            ({"seats": [{"kind": "computer", "level": "genius"}] * 4, "my_seat": -1},
             "unknown computer level 'genius'"),
            ({"my_seat": 1, "seats": [{"kind": "human"}] + [{"kind": "computer"}] * 3},
             "my_seat 1 is a computer seat"),
            ({"seats": [{"kind": "robot"}] * 4}, "invalid request"),
            ({"extra": 1}, "invalid request"),
        ]
        for body, why in cases:
            status, out = srv.post("/api/tables", body)
            assert status == 400, body
            assert why in out["error"], (body, out)
        r = srv.http.post("/api/tables", content=b"{" + b" " * 20000 + b"}")
        # too large is its own status, refused while it streams (tests/test_web_hostile.py)
        assert r.status_code == 413 and "at most 16384 bytes" in r.json()["error"]


def test_a_person_plays_a_whole_game_against_computers(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(name="Ann", rules={"target": 3})
        c = srv.connect(t["id"], t["token"])
        welcome = c.recv()
        assert welcome["type"] == "welcome" and welcome["you"] == 2
        end = play_randomly(c, random.Random(1))
        assert end["finished"] and max(end["scores"]) >= 3
        # every state this seat received is one step of the log, in order
        seqs = [m["seq"] for m in c.messages if m["type"] == "state"]
        assert seqs == sorted(seqs)
        c.close()
        _status, listing = srv.get("/api/tables/finished")
        assert t["id"] in [x["id"] for x in listing["tables"]]


def test_finished_game_downloads_as_a_record_euchre_replay_reads_and_replays_by_step(
        db_url: str, tmp_path: Path) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(my_seat=-1, rules={"target": 2},
                       seats=[{"kind": "computer", "level": BOT_NAMES[i % len(BOT_NAMES)]}
                              for i in range(4)])
        c = srv.connect(t["id"])
        assert c.recv()["you"] == -1
        end = c.until_state(lambda s: s["finished"], timeout=60)
        status, rec = srv.get(f"/api/tables/{t['id']}/record")
        assert status == 200
        match = from_json(json.dumps(rec))
        assert match.winner is not None and list(match.scores) == end["scores"]
        path = tmp_path / "game.json"
        path.write_text(json.dumps(rec))
        r = subprocess.run([Path(sys.executable).parent / "euchre", "replay", "-q", str(path)],
                           capture_output=True, text=True, check=False)
        assert r.returncode == 0 and "Final:" in r.stdout
        status, rep = srv.get(f"/api/tables/{t['id']}/replay")
        n_actions = sum(len(h["actions"]) for h in rec["hands"])
        assert status == 200 and len(rep["frames"]) == n_actions + 1
        assert rep["frames"][-1]["scores"] == rec["scores"]
        assert all(len(h) == 5 for h in rep["frames"][0]["hands"])


def test_record_and_replay_are_refused_while_the_game_is_played(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create()
        for what in ("record", "replay"):
            status, out = srv.get(f"/api/tables/{t['id']}/{what}")
            assert status == 409 and "still being played" in out["error"]
        assert srv.get("/api/tables/nosuchtable/record")[0] == 404


def test_two_friends_join_by_invite_and_only_the_seat_to_play_may_move(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(name="Ann", my_seat=0, seats=[
            {"kind": "human"}, {"kind": "computer"}, {"kind": "human"}, {"kind": "computer"}])
        invite = t["invite_url"].split("#invite=")[1]
        status, out = srv.post(f"/api/tables/{t['id']}/join", {"invite": "wrong", "name": "X"})
        assert status == 403
        status, bob = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite, "name": "Bob"})
        assert status == 200 and bob["seat"] == 2
        status, out = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite, "name": "Cy"})
        assert status == 409 and "watch" in out["error"]
        ann, bob_c = srv.connect(t["id"], t["token"]), srv.connect(t["id"], bob["token"])
        rng = random.Random(7)
        for _ in range(12):
            for me, other in ((ann, bob_c), (bob_c, ann)):
                me.drain()
                other.drain()
                s = me.state
                assert s is not None
                if not s["legal"]:
                    continue
                # the other friend may not move now: refused, nothing changes
                o = other.state
                assert o is not None and o["legal"] == []
                other.send({"type": "act", "action": s["legal"][0]["id"]})
                err = other.until(lambda m: m["type"] == "error")
                assert err["code"] == "not_your_turn"
                a = rng.choice(s["legal"])
                me.send({"type": "act", "action": a["id"], "seq": s["seq"]})
                me.after(s["seq"])
        assert ann.state is not None and ann.state["seats"][2]["name"] == "Bob"
        ann.close()
        bob_c.close()


def test_a_seat_token_works_at_its_own_table_only_and_spectators_cannot_move(
        sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        a, b = srv.create(), srv.create()
        c = srv.connect(b["id"], a["token"])
        err = c.recv()
        assert err["type"] == "error" and err["code"] == "bad_token"
        c.close()
        c = srv.connect("no-such-table", a["token"])
        assert c.recv()["code"] == "no_table"
        c.close()
        owner = srv.connect(a["id"], a["token"])  # the game is dealt once its person is there
        spec = srv.connect(a["id"])
        assert spec.recv()["you"] == -1
        s = spec.until_state(lambda m: True)
        assert s["hand"] == [] and s["legal"] == []
        spec.send({"type": "act", "action": 80})
        assert spec.until(lambda m: m["type"] == "error")["code"] == "spectator"
        spec.send({"type": "chat", "text": "hi"})  # a spectator's line, signed as one
        line = spec.until(lambda m: m["type"] in ("chat", "error"))
        assert line["type"] == "chat" and (line["seat"], line["name"], line["text"]) \
            == (-1, "Spectator", "hi")
        spec.close()
        owner.close()


def test_illegal_stale_and_out_of_turn_moves_are_refused_with_reasons(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create()
        c = srv.connect(t["id"], t["token"])
        s = play_randomly(c, random.Random(3), until=lambda s: s["phase"] == "play")
        legal = {a["card"] for a in s["legal"]}
        held = [x for x in s["hand"] if x not in legal]
        from euchre.cards import parse_card
        if held:  # must follow suit: the engine's reason, in game terms
            c.send({"type": "act", "action": parse_card(held[0]), "seq": s["seq"]})
            err = c.until(lambda m: m["type"] == "error")
            assert err["code"] == "illegal" and "Must follow" in err["message"]
            assert "you hold" in err["message"]  # to the person, not "North holds"
        c.send({"type": "act", "action": 80, "seq": s["seq"]})
        err = c.until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and "Bidding is over: play a card" in err["message"]
        assert not any(seat_name(i, 4) in err["message"] for i in range(4))
        c.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"] - 1})
        assert c.until(lambda m: m["type"] == "error")["code"] == "stale"
        c.drain()
        assert c.state is not None and c.state["seq"] == s["seq"]  # nothing changed
        c.close()


def test_hint_names_a_legal_move_and_why(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create()
        c = srv.connect(t["id"], t["token"])
        s = c.my_turn()
        c.send({"type": "hint"})
        h = c.until(lambda m: m["type"] == "hint")
        assert h["action"] in [a["id"] for a in s["legal"]] and len(h["why"]) > 10
        c.close()


def test_chat_is_plain_text_length_and_rate_limited(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(name="Ann")
        c = srv.connect(t["id"], t["token"])
        c.send({"type": "chat", "text": "<script>alert(1)</script>\u0007 hi"})
        m = c.until(lambda m: m["type"] == "chat")
        assert m["text"] == "<script>alert(1)</script> hi" and m["name"] == "Ann"
        c.send({"type": "chat", "text": "x" * 201})
        assert c.until(lambda m: m["type"] == "error")["code"] == "bad_message"
        codes: list[str] = []
        for i in range(8):
            c.send({"type": "chat", "text": f"line {i}"})
        deadline = time.monotonic() + 5
        while len(codes) < 8 and time.monotonic() < deadline:
            m = c.recv()
            if m["type"] in ("chat", "error"):
                codes.append(m.get("code", "chat"))
        assert "chat_rate" in codes and codes.count("chat") >= 1
        c.close()
        # the chat is kept: a new connection gets it back
        c = srv.connect(t["id"], t["token"])
        assert c.recv()["chat"][0]["text"] == "<script>alert(1)</script> hi"
        c.close()


EMOJI = ["\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: three faces, two joiners
         "\U0001f3f3\ufe0f\u200d\U0001f308",  # a rainbow flag
         "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
         "\U0001f44d\U0001f3fd", "1\ufe0f\u20e3",  # a skin tone, a keycap
         "\U0001fae8"]  # a shaking face, newer than Python 3.11's Unicode data


def test_chat_keeps_emoji_sequences_and_drops_direction_tricks(db_url: str) -> None:
    with LiveServer(db_url=db_url, chat_rate=10000.0) as srv:
        t = srv.create(name="Ann")
        c = srv.connect(t["id"], t["token"])
        for e in EMOJI:
            c.send({"type": "chat", "text": f"look {e} here"})
            assert c.until(lambda m: m["type"] == "chat")["text"] == f"look {e} here"
        # a right-to-left override (and an isolate) would turn what others read around
        c.send({"type": "chat", "text": "see \u202egnp.exe\u2066 and\nthis"})
        assert c.until(lambda m: m["type"] == "chat")["text"] == "see gnp.exe and this"
        c.close()


def test_a_spectators_chat_is_limited_per_connection(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create(name="Ann")
        one, two = srv.connect(t["id"]), srv.connect(t["id"])
        for i in range(7):
            one.send({"type": "chat", "text": f"one {i}"})
        codes = [one.until(lambda m: m["type"] in ("chat", "error") and (
            m["type"] == "error" or m["text"].startswith("one"))).get("code", "chat")
            for _ in range(7)]
        assert codes.count("chat") == 5 and codes.count("chat_rate") == 2, codes
        two.send({"type": "chat", "text": "two"})  # another spectator: its own allowance
        assert two.until(lambda m: m["type"] == "chat" and m["text"] == "two")["seat"] == -1
        one.close()
        two.close()


def test_reconnecting_with_the_token_returns_to_the_same_seat_mid_hand(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create()
        c = srv.connect(t["id"], t["token"])
        s = play_randomly(c, random.Random(5),
                          until=lambda s: s["phase"] == "play" and len(s["hand"]) < 5)
        c.close()
        c2 = srv.connect(t["id"], t["token"])
        s2 = c2.my_turn()
        for key in ("seq", "hand", "trick", "tricks", "trump", "scores", "legal", "bids"):
            assert s2[key] == s[key], key
        c2.close()


def test_a_person_coming_back_is_told_what_the_stand_in_did_for_them(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, away_timeout=0.3) as srv:
        t = srv.create(my_seat=-1, seats=[{"kind": "human", "level": "rule"}]
                       + [{"kind": "computer"}] * 3)
        spec = srv.connect(t["id"])
        s = spec.until_state(lambda s: s["seats"][0]["stand_in"], timeout=20)
        since = s["seq"]
        spec.until_state(lambda s: s["seq"] >= since + 12, timeout=20)
        token = _seat_token(srv, t["id"], 0)
        c = srv.connect(t["id"], token)
        told = c.until(lambda m: m["type"] in ("covered", "state"))
        assert told["type"] == "covered", told
        back = c.until_state(lambda s: True)["seq"]  # the table when the person came back
        spec.drain(0.3)
        # the stand-in's acts, as the spectator saw them (one state per act), in the person's
        # own words: "You pass", never the seat's name
        acts = {m["seq"]: m["last"] for m in spec.messages if m["type"] == "state"
                and since < m["seq"] <= back and m["last"] and m["last"]["seat"] == 0}
        assert told["level"] == "rule" and told["earlier"] == 0
        assert len(told["moves"]) == len(acts) > 0, (told, acts)
        assert all(line.startswith("You ") for line in told["moves"]), told
        assert not any(m["type"] == "covered" for m in spec.messages)  # theirs alone
        c.close()
        again = srv.connect(t["id"], token)  # told once
        again.until_state(lambda s: True)
        again.drain(0.3)
        assert not any(m["type"] == "covered" for m in again.messages)
        again.close()
        spec.close()


def test_an_absent_friend_is_played_by_a_computer_and_takes_the_seat_back(
        sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, away_timeout=0.3) as srv:
        t = srv.create(my_seat=-1, seats=[{"kind": "human", "level": "rule"}]
                       + [{"kind": "computer"}] * 3)
        spec = srv.connect(t["id"])
        # nobody holds seat 0: after the timeout its turns are played by the computer
        s = spec.until_state(lambda s: s["seq"] >= 8, timeout=20)
        assert s["seats"][0]["stand_in"]
        c = srv.connect(t["id"], t["token"] if "token" in t else _seat_token(srv, t["id"], 0))
        s = c.until_state(lambda s: not s["seats"][0]["stand_in"])
        assert s["you"] == 0
        s = c.my_turn()  # the person has the seat again: the computer no longer moves for it
        time.sleep(0.6)
        c.drain()
        assert c.state is not None and c.state["seq"] == s["seq"] and c.state["legal"]
        c.close()
        spec.close()


def test_whoever_waits_on_an_absent_friend_is_told_when_the_computer_steps_in(
        sqlite_url: str) -> None:
    """A friends' table has no turn clock: while its person to move is away, every state says
    how long until their computer plays for them (from when their seat became empty), and it
    plays then; nothing is counted down for a seat someone holds or a computer plays."""
    timeout = 3.0
    with LiveServer(db_url=sqlite_url, away_timeout=timeout) as srv:
        t = srv.create(my_seat=-1, seats=[{"kind": "human", "level": "rule"}]
                       + [{"kind": "computer"}] * 3)
        spec = srv.connect(t["id"])
        waiting = spec.until_state(lambda s: s["turn"] == 0, timeout=20)
        seen = time.monotonic()
        assert waiting["clock"] is None and waiting["turn_left"] is None  # no turn clock
        assert not waiting["seats"][0]["connected"] and not waiting["seats"][0]["stand_in"]
        left = waiting["away_left"]
        assert left is not None and 0 < left <= timeout, left
        stepped_in = spec.until_state(lambda s: s["seats"][0]["stand_in"], timeout=20)
        late = time.monotonic() - seen - left
        assert -0.3 < late < 1.5, f"the computer stepped in {late:+.2f} s from the countdown's end"
        assert stepped_in["away_left"] is None
        spec.until_state(lambda s: s["turn"] not in (0, None))  # another seat's turn
        others = [m for m in spec.messages if m["type"] == "state" and m["turn"] != 0]
        assert others and all(m["away_left"] is None for m in others)
        c = srv.connect(t["id"], _seat_token(srv, t["id"], 0))
        mine = c.my_turn()
        assert mine["away_left"] is None  # held again: nobody counts down on them
        spec.drain(0.2)
        assert spec.state is not None and spec.state["away_left"] is None
        c.close()
        spec.close()


def _seat_token(srv: LiveServer, table: str, seat: int) -> str:
    token: str = srv.app.state.server.tables[table].seats[seat].token
    return token


class _Slow:
    """A bot that thinks ``seconds`` before each move (and records the thread it ran on):
    sleeping, or with ``spin`` busy on the CPU as a slow search would be."""

    def __init__(self, inner: Any, seconds: float, threads: list[str],
                 spin: bool = False) -> None:
        self.inner, self.name, self.seconds, self.threads = inner, inner.name, seconds, threads
        self.spin = spin

    def choose(self, view: Any) -> int:
        import threading

        self.threads.append(threading.current_thread().name)
        if self.spin:
            end = time.thread_time() + self.seconds
            while time.thread_time() < end:
                pass
        else:
            time.sleep(self.seconds)
        return int(self.inner.choose(view))

    def explain(self, view: Any) -> str:
        return str(self.inner.explain(view))


def _round_trips(srv: LiveServer, moves: int) -> list[float]:
    """A person's move round trips at a new table against quick (rule) computers."""
    t = srv.create(seats=[{"kind": "computer", "level": "rule"}] * 2 + [{"kind": "human"}]
                   + [{"kind": "computer", "level": "rule"}])
    c = srv.connect(t["id"], t["token"])
    rng = random.Random(2)
    times = []
    for _ in range(moves):
        s = c.my_turn()
        if s["finished"]:
            break
        start = time.monotonic()
        c.send({"type": "act", "action": rng.choice(s["legal"])["id"], "seq": s["seq"]})
        c.after(s["seq"])
        times.append(time.monotonic() - start)
    c.close()
    return times


def test_a_slow_computer_at_one_table_does_not_delay_another(sqlite_url: str) -> None:
    """The strongest level thinks in the worker pool: a table whose computers take a second a
    move leaves another table's round trips (its rule computers decide on the event loop)
    fast."""
    from euchre.bots import make_bot

    slow_threads: list[str] = []
    quick_threads: list[str] = []

    def factory(level: str, seed: int) -> Any:
        bot = make_bot(level, seed)
        if level == "search":
            return _Slow(bot, 1.0, slow_threads)
        return _Slow(bot, 0.0, quick_threads)

    with LiveServer(db_url=sqlite_url, bot_factory=factory, workers=4) as srv:
        srv.create(my_seat=-1, seats=[{"kind": "computer", "level": "search"}] * 4)
        times = _round_trips(srv, 4)
        assert times and max(times) < 0.5, times
        assert slow_threads and all(n.startswith("euchre-bot") for n in slow_threads)
        # the quick level ran on the server's own (event loop) thread, not in the pool
        assert quick_threads and not any(n.startswith("euchre-bot") for n in quick_threads)


def test_a_quick_level_that_turns_slow_leaves_the_event_loop(sqlite_url: str) -> None:
    """A level listed as quick whose decisions take long anyway (here 50 ms of CPU) is moved
    to the worker pool after a few slow moves in a row, so it cannot keep holding up other
    tables."""
    from euchre.bots import make_bot

    threads: list[str] = []

    def factory(level: str, seed: int) -> Any:
        bot = make_bot(level, seed)
        return _Slow(bot, 0.05, threads, spin=True) if level == "random" else bot

    with LiveServer(db_url=sqlite_url, bot_factory=factory, workers=4) as srv:
        t = srv.create(my_seat=-1, seats=[{"kind": "computer", "level": "random"}] * 4)
        spec = srv.connect(t["id"])
        spec.until_state(lambda s: s["seq"] >= 8, timeout=20)
        spec.close()
        server = srv.app.state.server
        assert "random" not in server.inline_levels and "rule" in server.inline_levels
        assert threads[0] != threads[-1] and threads[-1].startswith("euchre-bot"), threads
        times = _round_trips(srv, 4)
        assert times and max(times) < 0.5, times


def test_quick_computers_moves_are_committed_before_any_of_their_states_is_sent(
        sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A person's move and the quick computers' answers are committed in one transaction:
    when it fails the person is told, no state of any of those moves is sent, and the table
    stays as the log holds it. Computers moving on their own (a table of computers) likewise:
    a failed commit sends nothing; once commits work each move reaches the watchers as its own
    state, in order. Each failed commit is one line in the log, never a traceback."""
    rule = {"kind": "computer", "level": "rule"}
    with LiveServer(db_url=sqlite_url) as srv:
        server = srv.app.state.server
        store = server.store
        real = store.append_actions
        failing = [False]

        def append(rows: list[Any]) -> None:
            if failing[0]:
                raise OSError("disk full")
            real(rows)

        store.append_actions = append
        t = srv.create(seats=[rule, rule, {"kind": "human"}, rule])
        table = server.tables[t["id"]]
        c = srv.connect(t["id"], t["token"])
        rng = random.Random(5)
        while True:  # until a move of the person's after which a computer is to play
            s = c.my_turn()
            move = rng.choice(s["legal"])["id"]
            c.send({"type": "act", "action": move, "seq": s["seq"]})
            if c.at(s["seq"] + 1)["turn"] != 2:
                break
        s = c.my_turn()
        failing[0] = True
        c.send({"type": "act", "action": rng.choice(s["legal"])["id"], "seq": s["seq"]})
        assert c.until(lambda m: m["type"] == "error")["code"] == "storage"
        time.sleep(0.3)
        c.drain()
        assert c.state is not None and c.state["seq"] == s["seq"] == table.seq
        assert store.load_table(t["id"]).actions == table.log
        c.close()

        watched = srv.create(my_seat=-1, seats=[rule] * 4)
        spec = srv.connect(watched["id"])
        time.sleep(0.5)
        spec.drain()
        assert [m["seq"] for m in spec.messages if m["type"] == "state"] == [0]
        assert server.tables[watched["id"]].seq == 0
        failing[0] = False
        spec2 = srv.connect(watched["id"])  # a new connection schedules the computers again
        last = spec2.until_state(lambda m: m["seq"] >= 12)
        seqs = [m["seq"] for m in spec2.messages if m["type"] == "state"]
        assert seqs == list(range(0, last["seq"] + 1))
        assert store.load_table(watched["id"]).actions[:12] == server.tables[watched["id"]].log[:12]
        spec.close()
        spec2.close()
    said = [r.getMessage() for r in caplog.records if "disk full" in r.getMessage()]
    assert any(f"could not store a move at table {t['id']}: OSError('disk full')" in line
               for line in said), said
    assert any(f"computer player failed at table {watched['id']}: OSError('disk full')"
               in line for line in said), said
    assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)


def test_a_new_connection_never_sees_a_move_before_it_is_committed(sqlite_url: str) -> None:
    """A table's moves are applied before their commit: a connection arriving meanwhile gets
    the table as the database holds it, never the move being committed."""
    rule = {"kind": "computer", "level": "rule"}
    with LiveServer(db_url=sqlite_url) as srv:
        store = srv.app.state.server.store
        real = store.append_actions

        def slow(rows: list[Any]) -> None:
            time.sleep(0.3)
            real(rows)

        store.append_actions = slow
        t = srv.create(my_seat=-1, seats=[rule] * 4)
        time.sleep(0.1)
        for _ in range(4):
            c = srv.connect(t["id"])
            s = c.until(lambda m: m["type"] == "state")
            assert s["seq"] <= len(store.load_table(t["id"]).actions)
            c.close()


def test_the_action_log_refuses_a_duplicate_move_number_and_keeps_working(db_url: str) -> None:
    """The group-commit write (straight to the driver): a batch holding a move number already
    logged fails whole, writes nothing, and the next batch goes through on a fresh connection;
    the move that ends a game also marks the table finished. Seats' away times are stored in
    batches too."""
    from euchre.web.store import SeatData, Store

    store = Store(db_url)
    try:
        seats = [SeatData(i, f"tok{i}", "computer", "rule", f"S{i}", False) for i in range(4)]
        store.create_table("a", {}, 1, "inv-a", seats)
        store.create_table("b", {}, 2, "inv-b", [SeatData(i, f"tk{i}", "computer", "rule",
                                                          f"S{i}", False) for i in range(4)])
        store.append_actions([("a", 0, 1, 40, None), ("b", 0, 1, 41, None)])
        try:
            store.append_actions([("b", 1, 2, 42, None), ("a", 0, 1, 43, None)])
        except Exception:
            pass
        else:
            raise AssertionError("a duplicate move number was accepted")
        store.append_actions([("b", 1, 2, 44, (0, [10, 4]))])
        a, b = store.load_table("a"), store.load_table("b")
        assert a is not None and b is not None
        assert a.actions == [(1, 40)] and b.actions == [(1, 41), (2, 44)]
        assert a.finished_at is None and b.finished_at is not None
        assert [t["id"] for t in store.list_finished()] == ["b"]
        assert store.list_finished()[0]["scores"] == [10, 4]
        # when seats became empty, several in one write
        store.set_left_at([("a", 1, 123.5), ("b", 2, 99.0), ("b", 3, None)])
        store.set_left_at([("b", 2, None)])
        a, b = store.load_table("a"), store.load_table("b")
        assert a is not None and b is not None
        assert [x.left_at for x in a.seats] == [None, 123.5, None, None]
        assert [x.left_at for x in b.seats] == [None, None, None, None]
    finally:
        store.close()


def test_the_away_timer_goes_on_across_a_restart_from_when_the_seat_became_empty(
        sqlite_url: str) -> None:
    """When a person's seat became empty is stored: after a restart the away timeout counts
    from then (a seat empty for longer is stood in for at once, not after another whole
    timeout). A person still connected when the server shut down did not leave: their seat
    counts as empty from the restart."""
    from euchre.web.store import Store

    timeout = 4.0
    with LiveServer(db_url=sqlite_url, away_timeout=timeout) as srv:
        friend = srv.create(my_seat=-1, seats=[{"kind": "human"}] + [{"kind": "computer"}] * 3)
        mine = srv.create()
        c = srv.connect(mine["id"], mine["token"])
        c.my_turn()
        left = srv.create()
        c2 = srv.connect(left["id"], left["token"])
        c2.my_turn()
        c2.close()
        time.sleep(0.3)
    store = Store(sqlite_url)
    try:
        created = store.load_table(friend["id"])
        held = store.load_table(mine["id"])
        gone = store.load_table(left["id"])
        assert created is not None and held is not None and gone is not None
        assert created.seats[0].left_at == created.created_at
        assert held.seats[2].left_at is None  # connected until the shutdown
        assert gone.seats[2].left_at is not None and gone.seats[2].left_at > gone.created_at
    finally:
        store.close()
    c.close()
    time.sleep(timeout - 0.5)
    with LiveServer(db_url=sqlite_url, away_timeout=timeout) as srv:
        spec = srv.connect(friend["id"])
        start = time.monotonic()
        spec.until_state(lambda s: s["seats"][0]["stand_in"], timeout=20)
        assert time.monotonic() - start < timeout / 2
        spec.close()


@pytest.mark.slow
def test_a_person_alone_with_computers_who_leaves_finds_the_game_as_they_left_it(
        sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, away_timeout=0.2) as srv:
        t = srv.create()
        c = srv.connect(t["id"], t["token"])
        s = c.my_turn()
        c.close()
        time.sleep(1.0)  # well past the away timeout, but nobody else is at the table
        c = srv.connect(t["id"], t["token"])
        s2 = c.my_turn()
        assert s2["seq"] == s["seq"] and not s2["seats"][2]["stand_in"]
        c.close()
