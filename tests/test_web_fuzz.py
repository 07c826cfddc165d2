"""Hostile input: thousands of malformed, oversized, out-of-turn and illegal messages each get a
clear error event and change nothing; the rate limit answers floods and then hangs up."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from webtools import Client, LiveServer


def malformed(rng: random.Random, legal: set[int], seq: int) -> str | bytes:
    """One message the server must refuse (never a valid move, name, chat, hint or ping)."""
    kind = rng.randrange(12)
    junk: Any
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 40)))
    if kind == 2:
        junk = rng.choice([[], [1, 2], 3, -1.5, None, True, "act", {"a": 1}])
        return json.dumps(junk)
    if kind == 3:
        return json.dumps({"type": rng.choice(["Act", "ACT", "play", "", "move", 1, None])})
    if kind == 4:  # act with a value of the wrong type or out of range
        v: Any = rng.choice([-1, -(10**9), 1001, 10**30, 1.5, "81", None, True, [], {}])
        return json.dumps({"type": "act", "action": v})
    if kind == 5:  # extra or missing fields
        return json.dumps(rng.choice([{"type": "act"}, {"type": "act", "action": 1, "x": 1},
                                      {"type": "hint", "now": True}, {"type": "chat"},
                                      {"type": "ping", "a": 0}, {"type": "act", "action": 1,
                                                                 "seq": -3},
                                      {"type": "act", "action": 1, "seq": "5"}]))
    if kind == 6:  # chat and names of the wrong shape
        return json.dumps(rng.choice([{"type": "chat", "text": ""},
                                      {"type": "chat", "text": "x" * rng.randrange(201, 600)},
                                      {"type": "chat", "text": 5},
                                      {"type": "name", "name": ""},
                                      {"type": "name", "name": "n" * 25},
                                      {"type": "name", "name": ["a"]}]))
    if kind == 7:  # oversized
        return json.dumps({"type": "chat", "text": "y" * rng.randrange(4100, 60000)})
    if kind == 8:  # nested deeply
        d = rng.randrange(50, 2000)
        return "[" * d + "]" * d
    if kind == 9:  # a well-formed move the engine refuses
        a = rng.choice([x for x in range(0, 130) if x not in legal])
        return json.dumps({"type": "act", "action": a})
    if kind == 10:  # a stale move: right action, wrong version
        return json.dumps({"type": "act", "action": min(legal), "seq": seq + rng.randrange(1, 9)})
    return json.dumps({"type": "act", "action": 1})[: rng.randrange(1, 20)]  # truncated


def send_malformed(c: Client, rng: random.Random, legal: set[int], seq: int,
                   batches: int) -> dict[str, int]:
    """Send ``batches`` batches of 50 malformed messages; each must be answered by an error
    event (never a state change, never silence). Returns how many of each error code came."""
    codes: dict[str, int] = {}
    for _ in range(batches):
        batch = [malformed(rng, legal, seq) for _ in range(50)]
        for m in batch:
            c.send(m)
        for _ in batch:
            r = c.recv()
            assert r["type"] == "error", r  # never a state change, never silence
            assert r["message"]
            codes[r["code"]] = codes.get(r["code"], 0) + 1
    return codes


def test_thousands_of_malformed_messages_each_get_an_error_and_change_nothing(
        sqlite_url: str) -> None:
    rng = random.Random(20261201)
    with LiveServer(db_url=sqlite_url, rate=1e6, burst=1e6) as srv:
        t = srv.create(name="Ann")
        c = srv.connect(t["id"], t["token"])
        s = c.my_turn()
        codes = send_malformed(c, rng, {a["id"] for a in s["legal"]}, s["seq"], 60)
        assert sum(codes.values()) == 3000
        assert {"bad_message", "too_big", "illegal", "stale"} <= set(codes), codes
        # nothing changed and the connection still works: a legal move is accepted
        c.send({"type": "ping"})
        assert c.recv()["type"] == "pong"
        c.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
        after = c.until(lambda m: m["type"] == "state")
        assert after["seq"] == s["seq"] + 1
        c.close()


def test_a_flood_is_rate_limited_and_then_disconnected(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url, rate=10.0, burst=30.0) as srv:  # the serve defaults
        t = srv.create()
        c = srv.connect(t["id"], t["token"])
        c.my_turn()
        for _ in range(40):
            c.send({"type": "ping"})
        got = [c.recv() for _ in range(40)]
        assert any(m.get("code") == "rate_limited" for m in got)
        assert "at most 10 a second" in next(m["message"] for m in got
                                            if m.get("code") == "rate_limited")
        from websockets.exceptions import ConnectionClosed
        with pytest.raises(ConnectionClosed):
            for _ in range(400):
                c.send({"type": "ping"})
            while True:
                c.recv(5)


def test_a_frame_over_the_protocol_limit_closes_the_connection(sqlite_url: str) -> None:
    from websockets.exceptions import ConnectionClosed

    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.create()
        c = srv.connect(t["id"], t["token"])
        c.my_turn()
        c.send("z" * 70000)
        with pytest.raises(ConnectionClosed) as info:
            while True:
                c.recv(5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009
        # the table is unharmed
        c2 = srv.connect(t["id"], t["token"])
        assert c2.my_turn()["seq"] == (c.state or {}).get("seq")
        c2.close()




def test_deeply_nested_json_gets_an_error_event_and_the_socket_stays_open(
        sqlite_url: str) -> None:
    """Nesting under the size limit but past the decoder's depth (arrays, objects, inside a
    field of a valid message or alone) is refused like any other bad message: an error event,
    no traceback in the log, and the connection goes on working."""
    import logging

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(logging.ERROR)
    loggers = [logging.getLogger(n) for n in ("uvicorn.error", "euchre.web", "")]
    for lg in loggers:
        lg.addHandler(keep)
    try:
        with LiveServer(db_url=sqlite_url) as srv:
            t = srv.create()
            c = srv.connect(t["id"], t["token"])
            c.my_turn()
            deep = ['{"x":' + "[" * 1000 + "]" * 1000 + ',"type":"ping"}',
                    '{"type":"chat","text":"hi","x":' + "[" * 1500 + "]" * 1500 + "}",
                    '{"type":"act","action":' + "[" * 1900 + "]" * 1900 + "}"]
            for text in [*deep, "[" * 2000 + "]" * 2000, "[" * 4000,
                         '{"a":' * 600 + "1" + "}" * 600]:
                assert len(text.encode()) <= 4096
                c.send(text)
                r = c.recv()
                assert r["type"] == "error" and r["code"] == "bad_message", r
                assert text != deep[0] or "nested too deeply" in r["message"], r
            c.send({"type": "ping"})
            assert c.recv()["type"] == "pong"
            c.close()
    finally:
        for lg in loggers:
            lg.removeHandler(keep)
    assert not records, [r.getMessage() for r in records]


def test_a_fault_while_handling_a_message_is_an_error_event_not_a_dropped_socket(
        sqlite_url: str) -> None:
    """Whatever goes wrong inside the server while it handles a message (here the database
    refusing a chat line), the sender gets an error event and the connection goes on."""
    with LiveServer(db_url=sqlite_url) as srv:
        store = srv.app.state.server.store

        def broken(*args: Any) -> None:
            raise OSError("disk full")

        store.add_chat = broken
        t = srv.create()
        c = srv.connect(t["id"], t["token"])
        s = c.my_turn()
        c.send({"type": "chat", "text": "hello"})
        r = c.until(lambda m: m["type"] == "error")
        assert r["code"] == "server_error" and "nothing changed" in r["message"]
        c.send({"type": "ping"})
        assert c.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
        c.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
        assert c.after(s["seq"])["seq"] == s["seq"] + 1
        c.close()


def test_a_fault_while_answering_a_request_is_a_json_500_and_one_log_line(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capfd: pytest.CaptureFixture[str]) -> None:
    """The database refusing while the server answers a request (here Play now's new table):
    the client gets a JSON error saying it was the server's fault, the log one line naming
    the request and the error, never a traceback (Starlette's own answer is a bare "Internal
    Server Error" and uvicorn's log a traceback), and the server answers the next request."""
    from euchre.web.store import Store

    def broken(*args: Any, **kw: Any) -> None:
        raise OSError("the disk is gone")

    with LiveServer(db_url=sqlite_url) as srv:
        monkeypatch.setattr(Store, "create_table", broken)
        status, out = srv.post("/api/play", {"name": "Ann"})
        assert status == 500 and "the server failed while answering" in out["error"], out
        monkeypatch.undo()
        assert srv.post("/api/play", {"name": "Ann"})[0] == 201
    said = [r.getMessage() for r in caplog.records]
    assert "could not answer POST '/api/play': OSError('the disk is gone')" in said, said
    printed = capfd.readouterr()
    assert "Traceback" not in caplog.text + printed.out + printed.err, printed.err
    assert not any(r.exc_info for r in caplog.records)


def test_deep_nesting_is_refused_whatever_the_recursion_limit() -> None:
    """The refusal of a deeply nested frame does not depend on how much of the interpreter's
    recursion limit is left (libraries and tests raise it): a frame deeper than the limit of
    nesting is refused as such before decoding, and brackets inside strings do not count."""
    import sys

    import msgspec

    from euchre.web.schemas import MAX_DEPTH, Chat, decode_client

    deep = '{"x":' + "[" * 1000 + "]" * 1000 + ',"type":"ping"}'
    limit = sys.getrecursionlimit()
    try:
        for new_limit in (limit, 20_000):
            sys.setrecursionlimit(new_limit)
            with pytest.raises(msgspec.DecodeError, match="nested too deeply"):
                decode_client(deep)
            with pytest.raises(msgspec.DecodeError, match="nested too deeply"):
                decode_client(("[" * (MAX_DEPTH + 1)).encode())
    finally:
        sys.setrecursionlimit(limit)
    text = "[" * 100 + '\\"{'
    assert decode_client('{"type":"chat","text":"' + text + '"}') == Chat(text=text[:-3] + '"{')
