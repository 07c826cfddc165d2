"""The two figures of several server processes on one PostgreSQL database: how long after
``kill -9`` of a table's owner a move through another process is accepted, and what a move
sent to a process that does not own its table costs over one sent to the owner.

    python scripts/cluster_figures.py postgresql://user@host/emptydb

It starts two ``euchre serve`` processes on loopback (tests/webtools.py's ClusterProcesses)
and creates tables in that database, so give it a database of its own.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import httpx
from webtools import Client, ClusterProcesses

LIMITS = ("--client-tables-per-minute", "100000", "--tables-per-minute", "100000")
SEATS = [{"kind": "human"}] + [{"kind": "computer", "level": "rule"}] * 3


def new_table(cl: ClusterProcesses) -> dict[str, str]:
    out: dict[str, str] = httpx.post(cl.urls[0] + "/api/tables",
                                     json={"my_seat": 0, "seats": SEATS}).json()
    return out


def round_trips(cl: ClusterProcesses, via: int, n: int) -> list[float]:
    """Milliseconds from sending a move to its state, connected to process ``via`` (tables
    are made at process 0, which owns them)."""
    out: list[float] = []
    while len(out) < n:
        t = new_table(cl)
        c = Client(f"ws://127.0.0.1:{cl.ports[via]}/ws/{t['id']}?token={t['token']}")
        while len(out) < n:
            s = c.my_turn()
            if s["finished"] or s["hand_no"] > 1:
                break
            start = time.perf_counter()
            c.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            c.after(s["seq"])
            out.append((time.perf_counter() - start) * 1000)
        c.close()
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main(url: str) -> None:
    with ClusterProcesses(url, 2, *LIMITS) as cl:
        round_trips(cl, 0, 20)
        round_trips(cl, 1, 20)
        local, remote = round_trips(cl, 0, 300), round_trips(cl, 1, 300)
        print(f"move at the owner:      p50 {pct(local, .5):.2f} ms, p99 {pct(local, .99):.2f} ms")
        print(f"move via another one:   p50 {pct(remote, .5):.2f} ms, "
              f"p99 {pct(remote, .99):.2f} ms")
        print(f"the extra hop:          p50 {pct(remote, .5) - pct(local, .5):.2f} ms, "
              f"p99 {pct(remote, .99) - pct(local, .99):.2f} ms")
    for tables in (1, 200):
        with ClusterProcesses(url, 2, *LIMITS) as cl:
            made = [new_table(cl) for _ in range(tables)]
            t = made[-1]
            c = Client(f"ws://127.0.0.1:{cl.ports[1]}/ws/{t['id']}?token={t['token']}")
            s = c.my_turn()
            killed = time.monotonic()
            cl.kill(0)
            c.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
            c.after(s["seq"], 30)
            print(f"kill -9 of the owner of {tables} table(s): a move through the other "
                  f"process accepted after {time.monotonic() - killed:.2f} s")
            c.close()


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].startswith("postgresql://"):
        sys.exit("usage: python scripts/cluster_figures.py postgresql://user@host/emptydb")
    main(sys.argv[1])
