"""Bot accounts online: a program plays at the server's tables over the bot websocket with the
same protocol messages as a ``cmd:`` bot, is rated like anyone and marked as a bot; what a
``cmd:`` bot is promised holds over the network (its seat's view only, the move time, faults
in one line, disconnects survived); its token is stored hashed, limited, and revocable."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from webtools import LiveServer

from euchre.actions import action_from_str
from euchre.bots import protocol as P
from euchre.bots.online import bot_url, play_online
from euchre.cli import main
from euchre.match import Match
from euchre.record import replay_record
from euchre.rules import PRESETS, Rules
from euchre.web import bots as B
from euchre.web.store import Store

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BROKEN = f"cmd:{PY} {ROOT / 'examples/broken_bot.py'}"
NODE_BOT = f"cmd:node {ROOT / 'examples/node_bot.js'}"
EUCHRE = str(Path(sys.executable).parent / "euchre")


def new_bot(url: str, name: str = "Robo", owner: int | None = None) -> str:
    """A bot account made as the operator makes one; its token."""
    store = Store(url)
    try:
        return B.create(store, name, owner)[1]
    finally:
        store.close()


def bot_table(srv: LiveServer, bot: str = "Robo", seat: int = 1, level: str = "rule",
              **body: Any) -> dict[str, Any]:
    """A table watched by its creator: the bot at ``seat``, computers elsewhere."""
    n = Rules.from_dict(body.get("rules", {}), base=PRESETS[body.get("preset", "standard")]
                        ).players
    seats = [{"kind": "bot", "bot": bot} if i == seat else {"kind": "computer",
                                                             "level": level}
             for i in range(n)]
    body.setdefault("rules", {"target": 3})
    return srv.create(my_seat=-1, seats=seats, **body)


def wait_for(what: Callable[[], Any], timeout: float = 20, message: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        assert time.monotonic() < deadline, message or "timed out"
        time.sleep(0.02)


def finished(srv: LiveServer, table: str) -> bool:
    return bool(srv.get(f"/api/tables/{table}")[1]["finished"])


class RawBot:
    """A bot's program written from the protocol's description alone: a websocket with the
    token, each frame one message, every one kept."""

    def __init__(self, base: str, token: str, hello: bool = True) -> None:
        from websockets.sync.client import connect

        self.ws = connect(bot_url(base), additional_headers={"Authorization": f"Bearer {token}"},
                          open_timeout=10, max_size=2**22).__enter__()
        self.got: list[dict[str, Any]] = []
        if hello:
            assert self.recv()["type"] == "hello"
            self.send({"type": "hello", "protocol": 1, "name": "raw"})

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.got.append(msg)
        return msg

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            msg = self.recv(timeout)
            if msg["type"] == kind:
                return msg

    def answer(self, decide: dict[str, Any], pick: int = 0) -> None:
        legal = decide["view"]["legal_actions"]
        self.send({"type": "action", "id": decide["id"], "action": legal[pick % len(legal)]})

    def play(self, games: int = 1, timeout: float = 60) -> None:
        """Answer every decision (its first legal action) until ``games`` games are over."""
        deadline = time.monotonic() + timeout
        while games:
            msg = self.recv(max(0.1, deadline - time.monotonic()))
            if msg["type"] == "decide":
                self.answer(msg)
            elif msg["type"] == "game_end":
                games -= 1

    def closed(self, timeout: float = 10) -> tuple[int | None, str | None]:
        """Read until the server closes: (the close code, its error message if any)."""
        from websockets.exceptions import ConnectionClosed

        error = None
        try:
            while True:
                msg = self.recv(timeout)
                if msg["type"] == "error":
                    error = msg["message"]
        except ConnectionClosed:
            pass
        return self.ws.close_code, error

    def close(self) -> None:
        self.ws.close()


def server_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "euchre.web"
            and r.levelno >= logging.WARNING]


# a bot account plays, is rated, and is a bot everywhere -----------------------------------


def test_a_bot_account_plays_a_rated_game_online_and_is_shown_as_a_bot(db_url: str) -> None:
    # The first deal waits for the bot (bot_grace): long enough for it to arrive on a loaded
    # machine (2 s by default; after it the seat's computer plays, and the bot made one move).
    with LiveServer(db_url=db_url, bot_grace=30) as srv:
        with httpx.Client(base_url=srv.base, headers={"Origin": srv.base}) as ann:
            r = ann.post("/api/account/signup", json={"name": "Ann",
                                                      "password": "a long secret of mine"})
            assert r.status_code == 201, r.text
            csrf = {"X-CSRF-Token": r.json()["csrf"]}
            # her own bot, from the account page's API: the token is shown once
            r = ann.post("/api/bots", json={"name": "Annbot"}, headers=csrf)
            assert r.status_code == 201, r.text
            token = r.json()["token"]
            assert token.startswith("ebt_") and len(token) > 40
            listed = ann.get("/api/bots").json()["bots"]
            assert [b["name"] for b in listed] == ["Annbot"] and "token" not in listed[0]
            assert listed[0]["owner"] == "Ann" and listed[0]["has_token"]
            # the bot (seat 1) and a club partner against two club computers; Ann watches,
            # and the table is rated though she does not play: a bot does
            r = ann.post("/api/tables", headers=csrf, json={
                "my_seat": -1, "rules": {"target": 3},
                "seats": [{"kind": "computer", "level": "club"}, {"kind": "bot", "bot": "Annbot"},
                          {"kind": "computer", "level": "club"},
                          {"kind": "computer", "level": "club"}]})
            assert r.status_code == 201, r.text
            table = r.json()["id"]
            assert r.json()["rated"] is True
        seats = srv.get(f"/api/tables/{table}")[1]["seats"]
        assert seats[1]["kind"] == "bot" and seats[1]["name"] == "Annbot" and seats[1]["player"]
        bot = RawBot(srv.base, token)
        new_game = bot.until("new_game")
        assert new_game["seat"] == 1 and new_game["table"] == table
        assert new_game["seed"] is None  # the table's seed deals its cards: never told
        assert new_game["rules"]["target"] == 3
        decided = 0
        while True:
            msg = bot.recv()
            if msg["type"] == "decide":
                decided += 1
                assert msg["view"]["seat"] == 1 and msg["id"] == decided
                bot.answer(msg)
            elif msg["type"] == "game_end":
                break
        bot.close()
        assert decided > 3
        assert wait_for(lambda: finished(srv, table))
        # rated like anyone, marked as a bot everywhere
        profile = wait_for(lambda: (p := srv.get("/api/players/Annbot")[1])["rated_games"]
                           and p)
        assert profile["kind"] == "bot" and profile["owner"] == "Ann"
        assert profile["rating"]["plus_minus"] > 0 and profile["stats"]["games"] == 1
        assert profile["games"][0]["id"] == table and profile["games"][0]["rated"]
        bots = srv.get("/api/leaderboard?kind=bots")[1]["players"]
        assert [(p["name"], p["kind"]) for p in bots] == [("Annbot", "bot")]
        assert "Annbot" not in {p["name"] for p in srv.get("/api/leaderboard?kind=people")[1]
                                ["players"]}
        assert "Annbot" in {p["name"] for p in srv.get("/api/leaderboard")[1]["players"]}


def test_a_bot_sees_only_its_seats_view_under_every_preset(sqlite_url: str) -> None:
    """The hidden-card audit over the network: every frame a bot receives, game after game
    under every preset, is exactly what its seat's view was at that moment (the replay of
    the finished game's record says), valid against the protocol's schemas, and names no card
    the seat could not know."""
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url) as srv:
        bot = RawBot(srv.base, token)
        for k, preset in enumerate(p for p in PRESETS if not PRESETS[p].single_hand):
            seat = k % PRESETS[preset].players
            t = bot_table(srv, seat=seat, level="random", preset=preset,
                          rules={"target": 2})
            start = len(bot.got)
            bot.play(1)
            audit(srv, t["id"], seat, bot.got[start:], preset)
        bot.close()


def audit(srv: LiveServer, table: str, seat: int, frames: list[dict[str, Any]],
          label: str = "") -> None:
    """Every protocol message of one game the bot was told from its deal (``frames``) is
    exactly its seat's view at that moment, as the replay of the finished game's record says,
    valid against the protocol's schemas, and names no card the seat could not know."""
    import jsonschema
    from test_bot_protocol import _cards_named, _known_cards, _registry

    registry = _registry()
    got = [m for m in frames if m["type"] in ("new_game", "decide", "hand_end", "game_end")]
    for m in got:
        jsonschema.validate(m, P.load_schema(P.schema_for(m, "host")), registry=registry)
    record = srv.get(f"/api/tables/{table}/record")[1]
    rules = Rules.from_dict(record["rules"])
    final = replay_record(record)
    match = Match(rules, first_dealer=record["first_dealer"],
                  decks=[f.deck for f in final.finished])
    expected: list[tuple[str, Any, set[int]]] = []
    for h in record["hands"]:
        before = tuple(match.scores)
        hand = match.hand
        for text in h["actions"]:
            if match.current_player == seat:
                expected.append(("decide", P.view_to_json(match.view(seat)),
                                 _known_cards(hand, seat)))
            match.apply_action(action_from_str(text))
        expected.append(("hand_end", P.view_to_json(hand.view(seat, before)),
                         _known_cards(hand, seat)))
    told = [(x["type"], x["view"]) for x in got if "view" in x]
    assert told == [(kind, view) for kind, view, _ in expected], label
    for message, (_, _, known) in zip([x for x in got if "view" in x], expected, strict=True):
        assert _cards_named(message) <= known, label
    assert got[0]["type"] == "new_game" and got[-1] == {
        "type": "game_end", "scores": record["scores"], "winner": record["winner"]}


# faults, over the network ------------------------------------------------------------------


#: What the server says of each broken bot (``examples/broken_bot.py``), played online through
#: ``euchre connect``: the same faults as the child-process tests, each in one line.
FAULTS = {
    "crash": "closed its connection (1011) while the host waited for",
    "hang": "sent nothing for 1 s (the move time)",
    "illegal": "\"play JOKER\", which is not legal in phase",
    "garbage": "\"I think I will play the jack\", which is not JSON",
    "flood": "flooded its connection: a message over 65536 bytes",
    "wordy": "sent an explanation of 400 characters",
    "wrong-id": "answered decision",
    "version": "speaks protocol 99; this host speaks 1",
    "mute": "sent nothing for 1 s (the hello time)",
}
#: And what ``euchre connect`` ends with (the server's word, or its own).
SAID = {**FAULTS, "crash": "exited (status 3) while playing online",
        "flood": "the server closed the connection (1009: a message over the server's 64 KiB)"}


@pytest.mark.parametrize("fault", [*FAULTS, "twice"])
def test_a_broken_bot_online_is_cut_off_in_one_line_and_its_computer_plays(
        fault: str, sqlite_url: str, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("EUCHRE_BOT_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setattr(P, "HELLO_TIME", 1.0)
    caplog.set_level(logging.INFO, "euchre.web")
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url, bot_move_time=1, bot_grace=0.2) as srv:
        # the program connects first: a table made before it would be over before a slow
        # start (a loaded machine) got it seated, its computer playing every move
        ended: list[int] = []
        run = threading.Thread(target=lambda: ended.append(
            play_online(f"{BROKEN} {fault}", srv.base, token)), daemon=True)
        run.start()
        links = srv.app.state.server.bot_links.links
        wait_for(lambda: ended or any(x.ready for found in list(links.values())
                                      for x in found), message="the bot never connected")
        # to 5: a game to 3 can end (a lone march, its partner's) before its third decision,
        # where broken_bot.py breaks down
        t = bot_table(srv, rules={"target": 5})
        run.join(60)
        assert ended, "euchre connect did not stop"
        rc = ended[0]
        said = capsys.readouterr().err.strip().splitlines()
        assert rc == 1 and len(said) == 1, said
        if fault == "twice":  # the program's end sees the second line, as a pipe's host does
            assert "sent a second line, " in said[0] and "one line was expected" in said[0]
        else:
            assert SAID[fault] in said[0], said
            lines = [x for x in server_lines(caplog) if "online as Robo" in x]
            assert len(lines) == 1 and FAULTS[fault] in lines[0], lines
            assert "\n" not in lines[0]
        # the game goes on: the seat's computer plays that move and the ones after it
        assert wait_for(lambda: finished(srv, t["id"]), message="the game stalled")
        assert not any(r.exc_info for r in caplog.records)


def test_an_unasked_message_is_a_fault(sqlite_url: str) -> None:
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url) as srv:
        bot = RawBot(srv.base, token)
        bot.send({"type": "action", "action": "pass"})
        code, error = bot.closed()
        assert code == 4400
        assert error is not None and "when no decision was asked" in error


def test_a_bot_that_disconnects_mid_hand_gets_its_seat_back(sqlite_url: str) -> None:
    """Gone with a decision asked: its computer plays for it (and the game goes on); back
    with its token, it has its seat again, with a new game and the view as it is now."""
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url, bot_grace=0.2) as srv:
        t = srv.create(my_seat=2, rules={"target": 5}, seats=[
            {"kind": "computer", "level": "rule"}, {"kind": "bot", "bot": "Robo"},
            {"kind": "human"}, {"kind": "computer", "level": "rule"}])
        person = srv.connect(t["id"], t["token"])
        playing = threading.Event()
        playing.set()

        def play() -> None:  # the person plays whenever it is their turn, unless paused
            while True:
                s = person.my_turn(timeout=60)
                if s["finished"]:
                    return
                playing.wait()
                person.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
                person.after(s["seq"])

        threading.Thread(target=play, daemon=True).start()
        bot = RawBot(srv.base, token)
        bot.until("new_game")
        for _ in range(2):
            bot.answer(bot.until("decide"))
        asked = bot.until("decide")
        playing.clear()  # the person waits: the game stops at their next turn
        bot.ws.close()  # gone, with a decision asked
        seat = wait_for(lambda: (x := srv.get(f"/api/tables/{t['id']}")[1]["seats"][1])[
            "stand_in"] and x, message="its computer did not take the seat")
        assert seat["kind"] == "bot" and not seat["connected"]
        again = RawBot(srv.base, token)
        resumed = again.until("new_game")
        assert resumed["table"] == t["id"] and resumed["seat"] == 1
        wait_for(lambda: not srv.get(f"/api/tables/{t['id']}")[1]["seats"][1]["stand_in"],
                 message="the bot did not take its seat back")
        playing.set()
        decide = again.until("decide")
        assert decide["id"] == 1 and decide["view"] != asked["view"]
        again.answer(decide)
        again.play(1)
        assert wait_for(lambda: finished(srv, t["id"]))
        again.close()
        person.close()


# tokens --------------------------------------------------------------------------------------


def test_a_token_is_shown_once_and_stored_only_as_its_hash(sqlite_url: str) -> None:
    token = new_bot(sqlite_url)
    raw = Path(sqlite_url.removeprefix("sqlite:///"))
    held = b"".join(p.read_bytes() for p in raw.parent.glob(raw.name + "*"))
    assert token.encode() not in held
    assert P_hash(token).encode() in held


def P_hash(token: str) -> str:
    from euchre.web.players import token_hash

    return token_hash(token)


def test_a_wrong_token_opens_nothing_and_guessing_is_limited(sqlite_url: str) -> None:
    new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url) as srv:
        from websockets.sync.client import connect

        with connect(bot_url(srv.base)) as ws:  # no token at all
            assert "Authorization: Bearer" in json.loads(ws.recv(timeout=5))["message"]
        for i in range(30):
            bot = RawBot(srv.base, f"ebt_forged{i}", hello=False)
            code, error = bot.closed()
            assert code == 4401 and error is not None and "opens no bot" in error
        bot = RawBot(srv.base, "ebt_forged-again", hello=False)
        code, error = bot.closed()
        assert code == 4429 and error is not None and "at most 30 in 10 minutes" in error


def test_a_revoked_token_is_cut_off_at_once_and_a_new_one_works(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, bot_grace=0.2) as srv, \
            httpx.Client(base_url=srv.base, headers={"Origin": srv.base}) as ann:
        csrf = {"X-CSRF-Token": ann.post("/api/account/signup", json={
            "name": "Ann", "password": "a long secret of mine"}).json()["csrf"]}
        token = ann.post("/api/bots", json={"name": "Annbot"}, headers=csrf).json()["token"]
        # someone else holds the token (stolen): they play as the bot, mid-game
        t = bot_table(srv, bot="Annbot", rules={"target": 5})
        thief = RawBot(srv.base, token)
        thief.until("new_game")
        thief.answer(thief.until("decide"))
        # another account cannot touch Ann's bot
        with httpx.Client(base_url=srv.base, headers={"Origin": srv.base}) as carl:
            ccsrf = {"X-CSRF-Token": carl.post("/api/account/signup", json={
                "name": "Carl", "password": "another long secret"}).json()["csrf"]}
            r = carl.post("/api/bots/Annbot/revoke", headers=ccsrf)
            assert r.status_code == 404
            assert ann.post("/api/bots/Annbot/revoke").status_code == 403  # no CSRF token
        started = time.monotonic()
        r = ann.post("/api/bots/Annbot/revoke", headers=csrf)
        assert r.status_code == 200 and r.json()["has_token"] is False
        code, error = thief.closed()
        assert code == 4403 and error is not None and "revoked" in error
        assert time.monotonic() - started < 1.0
        code, _ = RawBot(srv.base, token, hello=False).closed()
        assert code == 4401
        # a new token: the bot takes its seat back and finishes the game
        fresh = ann.post("/api/bots/Annbot/token", headers=csrf).json()["token"]
        assert fresh != token
        bot = RawBot(srv.base, fresh)
        assert bot.until("new_game")["table"] == t["id"]
        bot.play(1)
        bot.close()


def test_euchre_bots_beside_a_running_server_cuts_a_token_off(
        sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The operator's command, on the server's SQLite while it runs: add a bot (its token
    printed once), list it, give it a new token, revoke it; each change cuts the old token's
    connections off within a second."""
    def bots(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        rc = main(["bots", "--db", sqlite_url, *args])
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, rc, out.out, out.err)

    with LiveServer(db_url=sqlite_url) as srv:
        added = bots("add", "Opbot")
        assert added.returncode == 0, added.stderr
        token = added.stdout.strip().splitlines()[-1]
        assert token.startswith("ebt_")
        assert "Opbot: not rated yet, owned by the operator" in bots("list").stdout
        assert bots("add", "OPBOT").returncode == 2  # reads like another player's name
        assert "computer level" in bots("add", "club").stderr
        bot = RawBot(srv.base, token)
        fresh = bots("token", "Opbot")
        assert fresh.returncode == 0
        started = time.monotonic()
        code, error = bot.closed()
        assert code == 4403 and error is not None and "revoked or replaced" in error
        assert time.monotonic() - started < 2.5
        bot = RawBot(srv.base, fresh.stdout.strip().splitlines()[-1])
        assert bots("revoke", "Opbot").returncode == 0
        assert bot.closed()[0] == 4403
        assert "no token (revoked)" in bots("list").stdout
        assert bots("revoke", "Nobody").returncode == 2


def test_euchre_bots_list_shows_a_bots_rating_in_the_sites_words(
        sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``euchre bots list`` and the site say one thing of one bot: not rated yet, then its
    rating with its margin (and provisional) exactly as its profile and the leaderboard."""
    import sqlalchemy as sa

    from euchre.web.store import PlayerRow

    def listed() -> str:
        capsys.readouterr()
        assert main(["bots", "--db", sqlite_url, "list"]) == 0
        (line,) = capsys.readouterr().out.splitlines()
        return line

    assert main(["bots", "--db", sqlite_url, "add", "Ratebot"]) == 0
    with LiveServer(db_url=sqlite_url) as srv:
        site = srv.get("/api/players/Ratebot")[1]
        assert site["rating"] is None and site["rating_text"] == "not rated yet"
        assert listed() == "Ratebot: not rated yet, owned by the operator"
        store = Store(sqlite_url)
        try:
            with store.engine.begin() as conn:  # a newcomer's rating after a first game
                conn.execute(sa.update(PlayerRow).where(PlayerRow.name == "Ratebot")
                             .values(mu=1500.0, sigma=350.0, rated_games=1))
        finally:
            store.close()
        site = srv.get("/api/players/Ratebot")[1]
        board = {p["name"]: p for p in srv.get("/api/leaderboard?kind=bots")[1]["players"]}
        assert site["rating_text"] == board["Ratebot"]["text"] == "1500 ± 686 (provisional)"
        assert listed() == "Ratebot: 1500 ± 686 (provisional), owned by the operator"


def test_euchre_bots_takes_db_before_or_after_the_action(
        sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--db`` where people put it: after the action as well as before it, the same
    database either way (the one given before is not overwritten by the action's default)."""
    assert main(["bots", "add", "Afterbot", "--db", sqlite_url]) == 0
    assert main(["bots", "--db", sqlite_url, "add", "Beforebot"]) == 0
    capsys.readouterr()
    for args in (["bots", "list", "--db", sqlite_url], ["bots", "--db", sqlite_url, "list"]):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert "Afterbot" in out and "Beforebot" in out, (args, out)
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"  # the later one counts, as for any flag
    assert main(["bots", "--db", sqlite_url, "list", "--db", other]) == 0
    assert "no bot accounts yet" in capsys.readouterr().out


# limits --------------------------------------------------------------------------------------


def test_a_bots_connections_are_limited_and_its_decisions_paced(sqlite_url: str) -> None:
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url, bot_connections=2, bot_rate=10) as srv:
        a, b = RawBot(srv.base, token), RawBot(srv.base, token)
        code, error = RawBot(srv.base, token, hello=False).closed()
        assert code == 4429 and error is not None and "2 connections open" in error
        b.close()
        times: list[float] = []
        tables: list[str] = []
        while len(times) <= 40:  # a game of random players may be short: another, until enough
            tables.append(bot_table(srv, level="random", rules={"target": 10})["id"])
            while True:
                msg = a.recv()
                if msg["type"] == "decide":
                    times.append(time.monotonic())
                    a.answer(msg)
                elif msg["type"] == "game_end":
                    break
        a.close()
        assert all(finished(srv, t) for t in tables)
        # at most 30 + 10 t decisions in any t seconds (bursts of three times the rate)
        for i, start in enumerate(times):
            for j in range(i + 1, len(times)):
                assert j - i + 1 <= 30 + 10 * (times[j] - start) + 1, (i, j)
        assert times[-1] - times[0] >= (len(times) - 31) / 10 - 0.1


def test_bots_off_takes_none(sqlite_url: str) -> None:
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url, bots="off") as srv:
        code, error = RawBot(srv.base, token, hello=False).closed()
        assert code == 4403 and error == "this server takes no bots"
        status, out = srv.post("/api/tables", {"my_seat": -1, "seats": [
            {"kind": "bot", "bot": "Robo"}, *[{"kind": "computer"}] * 3]})
        assert status == 400 and "seats no bots" in out["error"]
        assert srv.get("/api/options")[1]["bots"] == "off"


def test_a_bot_seat_is_checked(sqlite_url: str) -> None:
    new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url) as srv:
        for seats, said in (
                ([{"kind": "bot", "bot": "Nobody"}], "no bot account is named 'Nobody'"),
                ([{"kind": "bot"}], "a bot's seat names the bot account"),
                ([{"kind": "computer", "bot": "Robo"}], "only a bot's seat"),
                ([{"kind": "bot", "bot": "Robo"}, {"kind": "bot", "bot": "robo"}],
                 "Robo has a seat at this table already")):
            body = {"my_seat": -1, "seats": [*seats, *[{"kind": "computer"}] * (4 - len(seats))]}
            status, out = srv.post("/api/tables", body)
            assert status == 400 and said in out["error"], out


# euchre connect ------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["rule", "examples/python_bot.py:LowCard", NODE_BOT])
def test_euchre_connect_plays_any_spec_online(spec: str, sqlite_url: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url) as srv:
        t = bot_table(srv)
        assert play_online(spec, srv.base, token, max_games=1) == 0
        out = capsys.readouterr().out
        assert f"playing table {t['id']}, seat 1" in out and "played 1 game(s)" in out
        assert finished(srv, t["id"])
        seats = srv.get(f"/api/tables/{t['id']}")[1]["seats"]
        assert not seats[1]["stand_in"]  # the bot played its every move


def test_euchre_connect_refuses_what_cannot_work(tmp_path: Path) -> None:
    def connect(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([EUCHRE, "connect", *args], text=True, capture_output=True,
                              timeout=60, env=env)

    import os

    env = {k: v for k, v in os.environ.items() if k != "EUCHRE_BOT_TOKEN"}
    got = connect("rule", "--server", "http://127.0.0.1:9", env=env)
    assert got.returncode == 2 and "EUCHRE_BOT_TOKEN" in got.stderr
    got = connect("rule", "--server", "ftp://x", "--token", "ebt_x")
    assert got.returncode == 2 and "the server's address" in got.stderr
    got = connect("nonsense-level", "--server", "http://127.0.0.1:9", "--token", "ebt_x")
    assert got.returncode == 2 and "unknown bot" in got.stderr
    assert "Traceback" not in got.stderr


def test_euchre_connect_stops_on_a_token_the_server_refuses(sqlite_url: str,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url) as srv:
        assert play_online("rule", srv.base, "ebt_not-a-token") == 2
        assert "that token opens no bot" in capsys.readouterr().err


def test_the_docs_small_client_plays_a_game_online(sqlite_url: str, tmp_path: Path) -> None:
    """The complete bot in docs/writing-a-bot.md#online, run as written: it connects with its
    token, plays its seat's every move of a whole game, and hears the game's end."""
    import os

    text = (ROOT / "docs" / "writing-a-bot.md").read_text()
    online = text[text.index("\n## Online\n"):]
    fence = "```{code-block} python\n"  # shown, not run by the docs' own test: it needs a server
    client = online[online.index(fence) + len(fence):]
    client = client[:client.index("```")]
    (tmp_path / "bot.py").write_text(client)
    token = new_bot(sqlite_url)
    with LiveServer(db_url=sqlite_url) as srv:
        t = bot_table(srv)
        proc = subprocess.Popen([PY, str(tmp_path / "bot.py"), bot_url(srv.base)], text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={**os.environ, "EUCHRE_BOT_TOKEN": token})
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()  # its first line: the game is over
            assert line.startswith("game over:"), (line, proc.stderr and proc.stderr.read())
            record = srv.get(f"/api/tables/{t['id']}/record")[1]
            assert line.split()[-1] == str(record["winner"])
            seats = srv.get(f"/api/tables/{t['id']}")[1]["seats"]
            assert finished(srv, t["id"]) and not seats[1]["stand_in"]
        finally:
            proc.terminate()
            proc.wait(10)


def test_a_bot_url_is_the_servers_bot_websocket() -> None:
    assert bot_url("http://127.0.0.1:8000") == "ws://127.0.0.1:8000/ws/bot"
    assert bot_url("https://euchre.example/") == "wss://euchre.example/ws/bot"
    assert bot_url("ws://h:1/ws/bot") == "ws://h:1/ws/bot"
    with pytest.raises(ValueError):
        bot_url("127.0.0.1:8000")


# two processes on PostgreSQL, behind nginx --------------------------------------------------


def test_a_bot_plays_at_tables_of_two_processes_behind_nginx_and_revoking_reaches_both(
        pg_cluster: Any, nginx: Any) -> None:
    """The bot's connection at one process plays a table another process owns (its moves
    relayed to the owner, as a browser's are); through nginx too; and a revocation made
    beside the running cluster cuts its connections at both processes at once."""
    from webtools import ClusterProcesses

    url = pg_cluster.new_database()
    token = new_bot(url)
    with ClusterProcesses(url, 2, "--workers", "1", "--bot-grace", "1") as c:
        proxy = nginx([f"127.0.0.1:{p}" for p in c.ports])
        # the bot at process 0, the table made at (and owned by) process 1
        at_first = RawBot(c.urls[0], token)
        made = httpx.post(c.urls[1] + "/api/tables", json={
            "my_seat": -1, "rules": {"target": 3}, "seats": [
                {"kind": "computer", "level": "random"}, {"kind": "bot", "bot": "Robo"},
                {"kind": "computer", "level": "random"},
                {"kind": "computer", "level": "random"}]}).json()
        assert at_first.until("new_game")["table"] == made["id"]
        at_first.play(1)
        at_first.close()  # (an idle connection of the bot's could take the next table)
        # through nginx: whichever process it reaches, a table of either
        via_proxy = RawBot(proxy.base, token)
        for origin in c.urls:
            t = httpx.post(origin + "/api/tables", json={
                "my_seat": -1, "rules": {"target": 3}, "seats": [
                    {"kind": "bot", "bot": "Robo"}, *[{"kind": "computer",
                                                      "level": "random"}] * 3]}).json()
            assert via_proxy.until("new_game")["table"] == t["id"]
            via_proxy.play(1)
        profile = wait_for(lambda: (p := httpx.get(proxy.base + "/api/players/Robo").json())
                           ["stats"]["games"] == 3 and p, message="the results are not there")
        assert profile["kind"] == "bot"
        # revoked beside the cluster: both processes cut the token's connections at once
        at_first, at_second = RawBot(c.urls[0], token), RawBot(c.urls[1], token)
        store = Store(url)
        try:
            started = time.monotonic()
            B.replace_token(store, B.by_name(store, "Robo").id, revoke=True)  # type: ignore[union-attr]
        finally:
            store.close()
        for bot in (at_first, at_second, via_proxy):
            code, error = bot.closed()
            assert code == 4403 and error is not None and "revoked" in error
        assert time.monotonic() - started < 1.0
        code, _ = RawBot(proxy.base, token, hello=False).closed()
        assert code == 4401
