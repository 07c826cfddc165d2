"""``euchre bench server``: action round-trip times of the table server under load.

Starts ``euchre serve`` as its own process on loopback (a temporary SQLite database, computer
moves in its worker pool) and drives N concurrent tables from simulated websocket clients in
this process: at each table one scripted person (South) plays against three computers. The
person waits a think time, sends a legal move and times the round trip until the state that
includes it comes back (the move was validated by the engine and committed to the database
before that state was sent). Each client also sends a ``ping`` after each move; its round trip
through the same server and client is the peer printed beside the action round trip, so a
figure read on a busy shared machine can be told apart from the transport's own cost.

It prints p50/p99 per N, the largest N whose p99 stays under 100 ms, and the p99 of 50 tables
whose computers are the strongest level available.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from euchre.cli import Subparsers, positive_seconds


def table_counts(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give table counts separated by commas, e.g. 50,100,200") from None
    if not values or any(not 1 <= v <= 5000 for v in values):
        raise argparse.ArgumentTypeError("each table count must be 1-5000")
    return sorted(set(values))


def think_range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give the think time as MIN,MAX seconds, e.g. 1,3") from None
    if not 0 <= lo <= hi <= 60:
        raise argparse.ArgumentTypeError("think time needs 0 <= MIN <= MAX <= 60 seconds")
    return lo, hi


def register(sub: Subparsers) -> None:
    p = sub.add_parser("server", help="round-trip times of the table server with N tables")
    p.add_argument("--tables", type=table_counts, default=[50, 100, 200, 300, 400, 500],
                   help="table counts to measure, comma-separated (default 50,...,500)")
    p.add_argument("--seconds", type=positive_seconds, default=12.0,
                   help="measurement time per table count (default 12)")
    p.add_argument("--think", type=think_range, default=(1.0, 3.0), metavar="MIN,MAX",
                   help="a simulated person's think time before each move, seconds "
                        "(default 1,3)")
    p.add_argument("--workers", type=int, default=1,
                   help="the server's computer-player worker processes (default 1)")
    p.add_argument("--strong-tables", type=int, default=50,
                   help="tables for the strongest-level run (default 50; 0 skips it)")
    p.add_argument("--seed", type=int, default=0, help="seed of the simulated people")
    p.set_defaults(func=_run)


@dataclass
class Samples:
    action: list[float] = field(default_factory=list)
    ping: list[float] = field(default_factory=list)
    errors: int = 0
    finished: int = 0


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


async def person(url: str, rng: random.Random, think: tuple[float, float], stop: float,
                 measure_from: float, out: Samples) -> None:
    """One scripted person: think, move, time the round trip; then a ping, timed too."""
    import websockets

    async def recv(ws: Any) -> dict[str, Any] | None:
        left = stop - time.monotonic()
        if left <= 0:
            return None
        try:
            msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
        except TimeoutError:
            return None
        if msg["type"] == "error":
            out.errors += 1
        return msg

    async with websockets.connect(url, max_size=2**22) as ws:
        state: dict[str, Any] = {"legal": [], "finished": False, "seq": -1}
        while time.monotonic() < stop:
            if state["finished"]:
                out.finished += 1
                return
            if not state["legal"]:
                msg = await recv(ws)
                if msg is None:
                    return
                if msg["type"] == "state":
                    state = msg
                continue
            await asyncio.sleep(rng.uniform(*think))
            if time.monotonic() >= stop:
                return
            move = rng.choice(state["legal"])
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "act", "action": move["id"], "seq": state["seq"]}))
            while True:  # until the state that holds this move
                msg = await recv(ws)
                if msg is None:
                    return
                if msg["type"] == "state" and msg["seq"] > state["seq"]:
                    state = msg
                    break
                if msg["type"] == "error":
                    state = {**state, "legal": []}
                    break
            if sent >= measure_from:
                out.action.append(time.monotonic() - sent)
            sent = time.monotonic()  # the peer: a bare round trip through the same path
            await ws.send('{"type":"ping"}')
            while True:
                msg = await recv(ws)
                if msg is None:
                    return
                if msg["type"] == "pong":
                    break
                if msg["type"] == "state":
                    state = msg
            if sent >= measure_from:
                out.ping.append(time.monotonic() - sent)


class Server:
    def __init__(self, db: str, workers: int) -> None:
        exe = Path(sys.executable).parent / "euchre"
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", "0", "--db", db, "--workers", str(workers),
             "--away-timeout", "86400"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "serving at http://" not in line:
            raise RuntimeError(f"euchre serve did not start: {line}")
        self.base = line.split("serving at ")[1].split()[0].rstrip("/")
        self.ws = self.base.replace("http://", "ws://")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def wait_ready(base: str) -> None:
    import httpx

    async with httpx.AsyncClient() as client:
        for _ in range(400):
            try:
                await client.get(base + "/api/options")
                return
            except httpx.HTTPError:
                await asyncio.sleep(0.05)
    raise RuntimeError("the server did not answer")


async def create_tables(base: str, n: int, level: str) -> list[str]:
    import httpx

    urls = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for _ in range(n):
            r = await client.post("/api/tables", json={
                "seats": [{"kind": "computer", "level": level}] * 2 + [{"kind": "human"}]
                + [{"kind": "computer", "level": level}]})
            r.raise_for_status()
            body = r.json()
            urls.append(f"/ws/{body['id']}?token={body['token']}")
    return urls


async def run_level(ws_base: str, urls: list[str], seconds: float, think: tuple[float, float],
                    seed: int) -> Samples:
    out = Samples()
    now = time.monotonic()
    ramp = min(3.0, 0.004 * len(urls)) + think[1]
    measure_from, stop = now + ramp, now + ramp + seconds
    tasks = [asyncio.create_task(person(ws_base + u, random.Random(seed * 100003 + i), think,
                                        stop, measure_from, out))
             for i, u in enumerate(urls)]
    done = await asyncio.gather(*tasks, return_exceptions=True)
    out.errors += sum(1 for d in done if isinstance(d, BaseException))
    return out


def _run(args: argparse.Namespace) -> int:
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401

        from euchre.web.app import strongest_level
    except ImportError as exc:
        print(f"euchre bench server: needs the web extra ({exc.name} is missing): "
              "pip install 'euchre[web]'", file=sys.stderr)
        return 1
    if not 1 <= args.workers <= 64:
        print("euchre bench server: --workers must be 1-64", file=sys.stderr)
        return 2
    return asyncio.run(_bench(args, strongest_level()))


async def _bench(args: argparse.Namespace, strong: str) -> int:
    with tempfile.TemporaryDirectory(prefix="euchre-bench-") as tmp:
        server = Server(f"sqlite:///{tmp}/bench.sqlite3", args.workers)
        try:
            await wait_ready(server.base)
            print(f"euchre bench server: {server.base}, SQLite, {args.workers} worker "
                  f"process(es); think {args.think[0]:g}-{args.think[1]:g} s; "
                  f"{args.seconds:g} s per row")
            print(f"{'tables':>6} {'moves':>6} {'p50 ms':>7} {'p99 ms':>7} "
                  f"{'ping p50':>8} {'ping p99':>8} {'p99/ping p99':>12} {'errors':>6}")
            urls: list[str] = []
            best = 0
            for n in args.tables:
                urls += await create_tables(server.base, n - len(urls), "rule")
                s = await run_level(server.ws, urls[:n], args.seconds, args.think, args.seed)
                p50, p99 = pct(s.action, 0.5) * 1000, pct(s.action, 0.99) * 1000
                q50, q99 = pct(s.ping, 0.5) * 1000, pct(s.ping, 0.99) * 1000
                print(f"{n:>6} {len(s.action):>6} {p50:>7.1f} {p99:>7.1f} {q50:>8.1f} "
                      f"{q99:>8.1f} {p99 / q99 if q99 else float('nan'):>12.2f} "
                      f"{s.errors:>6}", flush=True)
                if p99 < 100 and s.action:
                    best = n
            print(f"largest table count with p99 under 100 ms: {best or 'none'}")
            if args.strong_tables:
                note = "" if strong == "search" else \
                    " (no 'search' level is installed: 'rule' is the strongest there is)"
                strong_urls = await create_tables(server.base, args.strong_tables, strong)
                s = await run_level(server.ws, strong_urls, args.seconds, args.think,
                                    args.seed + 1)
                print(f"{args.strong_tables} tables with '{strong}' computers{note}: "
                      f"p50 {pct(s.action, 0.5) * 1000:.1f} ms, "
                      f"p99 {pct(s.action, 0.99) * 1000:.1f} ms over {len(s.action)} moves "
                      f"(ping p99 {pct(s.ping, 0.99) * 1000:.1f} ms)")
                if s.action:
                    print(f"  mean {statistics.fmean(s.action) * 1000:.1f} ms")
        finally:
            server.stop()
    return 0
