"""``kill -9`` the server mid-hand, start it again: every table resumes exactly where it was,
because every accepted action was committed to the log before anyone was told of it."""

from __future__ import annotations

import os
import random
import signal

import pytest
from webtools import Client, ServeProcess


@pytest.mark.slow
def test_sigkill_mid_hand_and_restart_resumes_every_table_exactly(db_url: str) -> None:
    import httpx

    srv = ServeProcess(db_url)
    try:
        tables = []
        for i in range(2):
            r = httpx.post(srv.base + "/api/tables", json={"name": f"P{i}"}, timeout=10)
            assert r.status_code == 201
            tables.append(r.json())
        rng = random.Random(11)
        before = []
        for t in tables:
            c = Client(f"ws://127.0.0.1:{srv.port}/ws/{t['id']}?token={t['token']}")
            while True:
                s = c.my_turn()
                if s["phase"] == "play" and len(s["tricks"]) >= 2:
                    break
                a = rng.choice(s["legal"])
                c.send({"type": "act", "action": a["id"], "seq": s["seq"]})
                c.after(s["seq"])
            before.append(s)
            c.close()
        os.kill(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait()
    finally:
        srv.stop()
    srv = ServeProcess(db_url)
    try:
        for t, s in zip(tables, before, strict=True):
            c = Client(f"ws://127.0.0.1:{srv.port}/ws/{t['id']}?token={t['token']}")
            s2 = c.my_turn()
            for key in ("seq", "hand", "dealer", "upcard", "trump", "maker", "bids", "trick",
                        "tricks", "tricks_won", "scores", "legal", "hand_no"):
                assert s2[key] == s[key], key
            # and the game goes on: the hand can be played to its end
            while s2["hand_no"] == s["hand_no"] and not s2["finished"]:
                a = rng.choice(s2["legal"])
                c.send({"type": "act", "action": a["id"], "seq": s2["seq"]})
                c.after(s2["seq"])
                s2 = c.my_turn()
            assert s2["last_hand"] is not None and sum(s2["last_hand"]["tricks_won"]) == 5
            c.close()
    finally:
        srv.stop()
