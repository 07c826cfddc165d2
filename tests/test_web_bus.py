"""The messages between server processes are typed: every kind round-trips through the bus's
encoder and decoder, and a notification that is no message of the bus (bad JSON, an unknown
kind, a field missing, extra, mistyped or out of range, or seats that are not the table's) is
refused whole, in one line of the log with no traceback, and changes nothing."""

from __future__ import annotations

import asyncio
import json
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from euchre.rules import PRESETS
from euchre.web import bus as B
from euchre.web.cluster import Cluster
from euchre.web.rooms import Rooms
from euchre.web.store import SeatData, TableData
from euchre.web.table import Table

SEAT = B.SeatState("Ann", True, 2, False, "tok0", "human", 7, 3)
EXAMPLES: list[B.Message] = [
    B.Actions("t1", 12, [(0, 3), (1, 17)]),
    B.Seats("t1", 42, [SEAT, B.SeatState("East (club)", False, 0, True, "tok1", "computer",
                                         None, 0)],
            True, B.NextTable("t2", ["a", "b"]), (42, 9)),
    B.Said("t1", B.ChatLine(-1, "Spectator", "hi 👨\u200d👩\u200d👧", 1.5)),
    B.Owner("t1", 42),
    B.Freed(42),
    B.BotCalled(7, "t1", 1),
    B.BotFree(7),
    B.Revoked(7),
    B.Forward("t1", 42, 5, 11, 2, '{"type":"act","action":3,"seq":12}'),
    B.Join("t1", 42, 6, "inv", "Bob", B.Who(7, "Bob", "account", (3, 4))),
    B.Answer(5, moved=True, retry=True, ok=(2, "tok"), err=("LookupError", "taken")),
    B.Out("t1", 11, '{"type":"error"}', 4403),
    B.Presence("t1", 42, [1, 0, 0, 2], 4),
]


def test_every_kind_of_message_round_trips() -> None:
    assert {type(m) for m in EXAMPLES} == set(B.KINDS)
    for msg in EXAMPLES:
        text = B.encode(msg)
        assert B.decode(text) == msg, text
        assert B.decode(text.encode()) == msg
    # with only its required fields, too (the defaults stay off the wire's meaning)
    for msg in (B.Seats("t", 1, [SEAT], False), B.Join("t", 1, 1, "inv"), B.Answer(3),
                B.Out("t", 1, "")):
        assert B.decode(B.encode(msg)) == msg


def test_the_wire_names_are_short() -> None:
    assert json.loads(B.encode(B.Actions("t1", 12, [(0, 3)]))) == {
        "k": "a", "t": "t1", "s": 12, "a": [[0, 3]]}
    assert json.loads(B.encode(B.Said("t", B.ChatLine(0, "Ann", "hi", 2.0))))["l"] == \
        [0, "Ann", "hi", 2.0]


@pytest.mark.parametrize(("payload", "why"), [
    ("not json", "malformed"),
    ("[]", "Expected `object`"),
    ('{"t":"t1"}', "missing required field `k`"),
    ('{"k":"nope","t":"t1"}', "Invalid value 'nope'"),
    ('{"k":"a","t":"t1","s":0}', "missing required field `a`"),
    ('{"k":"a","t":"t1","s":0,"a":[],"x":1}', "unknown field `x`"),
    ('{"k":"a","t":"t1","s":"0","a":[]}', "Expected `int`, got `str` - at `$.s`"),
    ('{"k":"a","t":"t1","s":0,"a":[[4,1]]}', "Expected `int` <= 3"),
    ('{"k":"a","t":"","s":0,"a":[]}', "length >= 1"),
    ('{"k":"o","t":"t1","p":0}', "Expected `int` >= 1"),
    ('{"k":"m","t":"t1","p":1,"s":[["A",true,1,false,"x","alien",null,0]],"g":true}',
     "Expected `str` matching regex"),
    ('{"k":"ack","r":1,"ok":[1]}', "Expected `array` of length 2"),
])
def test_a_malformed_notification_is_refused_saying_what_is_wrong(payload: str,
                                                                  why: str) -> None:
    with pytest.raises(B.BadMessage) as caught:
        B.decode(payload)
    assert why in str(caught.value) and "\n" not in str(caught.value)


def replica() -> tuple[Cluster, Table, list[Any]]:
    """A cluster holding a replica of table "t1" (another process owns it), with a chat line
    and a few moves made."""
    table = Table(TableData("t1", 0.0, PRESETS["standard"].to_dict(), 1, "inv",
                            [SeatData(i, f"tok{i}", "human", "rule", f"P{i}", True)
                             for i in range(4)], [], None, []))
    table.started = True
    rooms = Rooms(None)  # type: ignore[arg-type]
    rooms.add(table)
    handled: list[Any] = []
    host = SimpleNamespace(rooms=rooms, moves=None,
                           bot_links=SimpleNamespace(hear=handled.append))
    cluster = Cluster(host, "postgresql://localhost/unused")
    for _ in range(3):
        table.apply(table.match.current_player, table.match.legal_actions()[0])
    return cluster, table, handled


def picture(table: Table) -> Any:
    return (table.seq, [(s.name, s.claimed, s.token, s.kind, s.stand_in, s.player)
                        for s in table.seats], list(table.chat), table.next_table,
            table.started)


def test_a_malformed_message_from_the_bus_changes_nothing_and_is_one_line_of_log(
        caplog: pytest.LogCaptureFixture) -> None:
    cluster, table, handled = replica()
    before = picture(table)
    seats = [B.SeatState(f"Q{i}", True, 1, False, f"new{i}", "human", None, 0)
             for i in range(4)]
    bad = [
        "{",  # not JSON
        '{"k":"a","t":"t1","s":3,"a":[[0,-2]]}',  # an action below 0
        '{"k":"a","t":"t1","s":3,"a":[[1,2]],"z":0}',  # a field it has not
        '{"k":"c","t":"t1","l":[0,"Ann","hi"]}',  # a chat line short of its time
        '{"k":"bot","b":"seven","t":"t1","s":1}',  # a bot by name, not id
        B.encode(B.Seats("t1", 5, seats[:3], True)),  # three seats at a table of four
        B.encode(B.Seats("t1", 5, seats, True, B.NextTable("t2", ["a"]))),  # one next link
    ]
    for payload in bad:
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="euchre.web"):
            cluster.hear_text(payload)
        assert picture(table) == before, payload
        assert handled == []
        assert len(caplog.records) == 1, (payload, caplog.records)
        record = caplog.records[0]
        assert record.levelno == logging.ERROR and record.exc_info is None
        assert "\n" not in record.getMessage() and "refused" in record.getMessage()
    # the same messages well formed are acted on (the test can tell)
    cluster.hear_text(B.encode(B.Seats("t1", 5, seats, True)))
    assert [s.name for s in table.seats] == ["Q0", "Q1", "Q2", "Q3"]
    seq = table.seq
    cluster.hear_text(B.encode(B.Actions("t1", seq, [(table.match.current_player,
                                                      table.match.legal_actions()[0])])))
    assert table.seq == seq + 1
    cluster.hear_text(B.encode(B.BotCalled(7, "t1", 1)))
    assert handled == [B.BotCalled(7, "t1", 1)]


def test_a_relayed_request_for_no_seat_or_unreadable_is_answered_in_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    """The owner refuses a relayed message for a seat the table has not, or that is no
    browser's message, with an answer to the sender and one line in its log: nothing at the
    table changes."""
    cluster, table, _ = replica()
    cluster.owned.add(table.id)
    before = picture(table)

    async def ask(msg: B.Forward) -> B.Message:
        await cluster.on_request(msg)
        _, text = cluster.outbox.get_nowait()
        return B.decode(text)

    for seat, text, why in ((5, '{"type":"chat","text":"hi"}', "no such seat"),
                            (1, '{"type":"chat","text":', "could not read")):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="euchre.web"):
            answer = asyncio.run(ask(B.Forward("t1", 9, 3, 1, seat, text)))
        assert isinstance(answer, B.Answer) and answer.call == 3 and answer.err is not None
        assert answer.err[0] == "bad_message" and why in answer.err[1]
        assert picture(table) == before
        assert len(caplog.records) == 1 and caplog.records[0].exc_info is None


def test_an_action_the_engine_refuses_from_the_bus_changes_nothing_and_reads_again(
        caplog: pytest.LogCaptureFixture) -> None:
    """Well formed but not playable here (another seat's turn, an action not legal now):
    refused in one line, the replica unchanged, and read again from the database, the
    truth."""
    cluster, table, _ = replica()
    reads: list[str] = []

    async def run(fn: Any) -> None:
        reads.append(table.id)

    cluster.server.db = SimpleNamespace(run=run)  # type: ignore[misc, assignment]
    before = picture(table)
    cur = table.match.current_player
    illegal = next(a for a in range(64) if a not in table.match.legal_actions())
    for acts in ([((cur + 1) % 4, table.match.legal_actions()[0])], [(cur, illegal)]):
        caplog.clear()

        async def hear(acts: list[tuple[int, int]] = acts) -> None:
            with caplog.at_level(logging.INFO, logger="euchre.web"):
                cluster.hear_text(B.encode(B.Actions("t1", table.seq, acts)))
                await asyncio.sleep(0.01)

        asyncio.run(hear())
        assert picture(table) == before and table.id not in cluster.pending
        assert len(caplog.records) == 1 and caplog.records[0].exc_info is None
        assert "refused an action" in caplog.records[0].getMessage()
    assert reads == ["t1", "t1"]
