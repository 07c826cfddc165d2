"""The load generator of ``euchre bench server``: action round-trip times of the table server
under load.

Starts ``euchre serve`` as its own process on loopback (a temporary SQLite database unless
``--db`` names one) and drives N concurrent tables from simulated websocket people in this
process (uvloop and msgspec where installed, so the clients cost the shared cores little): at each
table one scripted person (South) plays against three computers at the ``rule`` level. The person
waits a think time, sends a legal move and times the round trip until the state that includes it
comes back (the move was validated by the engine and committed to the database before that state
was sent). Each person also sends a ``ping`` after each move; its round trip through the same
server and client is the peer printed beside the action round trip, so a figure read on a busy
shared machine can be told apart from the transport's own cost. A person whose game ends starts
a new table, so N tables stay in play.

The people stay connected from one row to the next: a row adds (or, when refining, removes)
people, lets the new ones settle for one think time and measures for ``--seconds``. After the
sweep the boundary between the largest passing and the smallest failing N is bisected
(``--refine`` rows), and counts far past a failure are skipped. Each row also shows the server's
CPU time per person move (its process and its workers, read from /proc): unlike a latency, that
figure barely depends on how busy the rest of the machine is. The load average is printed with
every row because the latency figures do depend on it.

With ``--processes N`` it starts N server processes on one PostgreSQL database, each on its own
port, and new tables go to each in turn (their creator is their owner); the CPU per move is all
the processes' together. After the sweep, ``--hop-tables`` two-person tables time the extra hop
of a move whose partners are connected to different processes (see ``Hops``).

Then it prints the p99 of ``--strong-tables`` tables whose computers are the strongest level
(measured for twice ``--seconds``: those tables move only as fast as their computers think).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from euchre.web.collector import NEVER

#: A row passes when its action p99 is under this.
LIMIT_MS = 100.0
#: Table counts whose neighbour below failed by this factor are skipped, not measured.
HOPELESS = 3.0


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


@dataclass
class Samples:
    """Round trips as (send time, seconds), so a row takes those sent in its window."""

    action: list[tuple[float, float]] = field(default_factory=list)
    ping: list[tuple[float, float]] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)
    games: int = 0

    def window(self, kind: str, start: float, stop: float) -> list[float]:
        xs: list[tuple[float, float]] = getattr(self, kind)
        return [rt for at, rt in xs if start <= at < stop]


@dataclass
class Row:
    tables: int
    moves: int
    p50: float
    p99: float
    ping50: float
    ping99: float
    errors: int
    cpu_ms: float
    """Server CPU time (process and workers) per person move, ms."""
    client_cpu: float
    """This process's CPU use over the window, % of one core."""
    load: float

    @property
    def passed(self) -> bool:
        return self.moves > 0 and self.p99 < LIMIT_MS and self.errors == 0


# the server -----------------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return []


def proc_cpu_seconds(pid: int) -> float | None:
    """CPU time of ``pid`` and all its live descendants (the bot workers; under ``euchre serve
    --processes`` the server processes and theirs), from /proc (Linux)."""
    try:
        tick = os.sysconf("SC_CLK_TCK")
        with open(f"/proc/{pid}/stat") as f:
            f.read()
    except (OSError, ValueError):
        return None
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            continue
        todo += _children(p)
    return total


class Server:
    """One ``euchre serve`` process on its own loopback port."""

    def __init__(self, db: str, workers: int) -> None:
        exe = Path(sys.executable).parent / "euchre"
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", "0", "--db", db, "--workers", str(workers),
             "--away-timeout", "86400", "--client-tables-per-minute", "100000",
             "--tables-per-minute", "1000000", "--computer-tables", "100000"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.proc.stdout is not None
        seen = []
        for line in self.proc.stdout:  # the banner; the children's log lines may come first
            seen.append(line)
            if "serving at http://" in line or len(seen) > 200:
                break
        if "serving at http://" not in line:
            self.stop()
            said = "".join(seen[-5:]).strip() or "no output"
            raise RuntimeError(f"euchre serve did not start: {said}")
        self.base = line.split("serving at ")[1].split()[0].rstrip("/")
        self.ws = self.base.replace("http://", "ws://")
        # keep reading, so a full pipe never stalls the servers' logging
        import threading

        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for _ in self.proc.stdout:
            pass

    def cpu(self) -> float | None:
        return proc_cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Site:
    """``processes`` server processes on one database, each on its own port (as on that many
    machines, or behind a proxy): new tables go to each in turn, as a proxy's least-connections
    choice spreads them, and a table's creator becomes its owner."""

    def __init__(self, db: str, workers: int, processes: int) -> None:
        self.servers: list[Server] = []
        try:
            for _ in range(processes):
                self.servers.append(Server(db, workers))
        except RuntimeError:
            self.stop()
            raise
        self.turn = 0

    def next(self) -> Server:
        server = self.servers[self.turn % len(self.servers)]
        self.turn += 1
        return server

    def cpu(self) -> float | None:
        times = [s.cpu() for s in self.servers]
        return None if any(t is None for t in times) else sum(t or 0.0 for t in times)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


# the simulated people -------------------------------------------------------------------------


def _decoder() -> Callable[[str | bytes], Any]:
    try:
        import msgspec

        return msgspec.json.Decoder().decode
    except ImportError:  # pragma: no cover - msgspec comes with the web extra
        import json

        return json.loads


class Load:
    """The simulated people of one computer level, kept connected across rows."""

    def __init__(self, site: Site, level: str, think: tuple[float, float], seed: int,
                 http: Any) -> None:
        self.site, self.level, self.think, self.seed = site, level, think, seed
        self.http = http
        self.samples = Samples()
        self.people: list[asyncio.Task[None]] = []
        self.decode = _decoder()

    async def new_table(self) -> str:
        seats = [{"kind": "computer", "level": self.level}] * 2 + [{"kind": "human"}] \
            + [{"kind": "computer", "level": self.level}]
        server = self.site.next()
        r = await self.http.post(server.base + "/api/tables", json={"seats": seats})
        r.raise_for_status()
        body = r.json()
        return f"{server.ws}/ws/{body['id']}?token={body['token']}"

    async def resize(self, n: int) -> None:
        """``n`` people at ``n`` tables: new tables for the added ones (created a few at a
        time, as a busy server would see them arrive), the removed ones disconnect."""
        while len(self.people) > n:
            task = self.people.pop()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        sem = asyncio.Semaphore(8)

        async def one() -> str:
            async with sem:
                return await self.new_table()

        urls = await asyncio.gather(*(one() for _ in range(n - len(self.people))))
        for url in urls:
            i = len(self.people)
            self.people.append(asyncio.create_task(
                self.person(url, random.Random(self.seed * 100003 + i))))

    async def close(self) -> None:
        await self.resize(0)

    async def person(self, url: str, rng: random.Random) -> None:
        import websockets

        await asyncio.sleep(rng.uniform(0, self.think[1]))  # people do not all arrive at once
        while True:
            try:
                async with websockets.connect(url, max_size=2**22, compression=None) as ws:
                    await self.play(ws, rng)
                self.samples.games += 1
                url = await self.new_table()
            except asyncio.CancelledError:
                raise
            except Exception:
                self.samples.errors.append(time.monotonic())
                await asyncio.sleep(1.0)

    async def play(self, ws: Any, rng: random.Random) -> None:
        """One game: think, move, time the round trip, then a ping, timed too."""
        out = self.samples
        state: dict[str, Any] = {"legal": [], "finished": False, "seq": -1}
        while not state["finished"]:
            if not state["legal"]:
                msg = self.decode(await ws.recv())
                if msg["type"] == "state":
                    state = msg
                elif msg["type"] == "error":
                    out.errors.append(time.monotonic())
                continue
            await asyncio.sleep(rng.uniform(*self.think))
            move = rng.choice(state["legal"])
            sent = time.monotonic()
            await ws.send(f'{{"type":"act","action":{move["id"]},"seq":{state["seq"]}}}')
            while True:  # until the state that holds this move
                msg = self.decode(await ws.recv())
                if msg["type"] == "state" and msg["seq"] > state["seq"]:
                    state = msg
                    break
                if msg["type"] == "error":
                    out.errors.append(sent)
                    state = {**state, "legal": []}
                    break
            out.action.append((sent, time.monotonic() - sent))
            sent = time.monotonic()  # the peer: a bare round trip through the same path
            await ws.send('{"type":"ping"}')
            while True:
                msg = self.decode(await ws.recv())
                if msg["type"] == "pong":
                    break
                if msg["type"] == "state":
                    state = msg
            out.ping.append((sent, time.monotonic() - sent))

    async def measure(self, seconds: float) -> Row:
        """Let the newest people settle for one think time, then measure for ``seconds``."""
        await asyncio.sleep(self.think[1] + 0.5)
        settle()
        cpu0, own0, start = self.site.cpu(), time.process_time(), time.monotonic()
        await asyncio.sleep(seconds)
        cpu1, own1, stop = self.site.cpu(), time.process_time(), time.monotonic()
        s = self.samples
        act, ping = s.window("action", start, stop), s.window("ping", start, stop)
        errors = sum(1 for at in s.errors if start <= at < stop)
        cpu = (cpu1 - cpu0) / len(act) * 1000 if cpu0 is not None and cpu1 is not None \
            and act else float("nan")
        return Row(len(self.people), len(act), pct(act, 0.5) * 1000, pct(act, 0.99) * 1000,
                   pct(ping, 0.5) * 1000, pct(ping, 0.99) * 1000, errors, cpu,
                   (own1 - own0) / (stop - start) * 100, os.getloadavg()[0])


# the command ----------------------------------------------------------------------------------

HEADER = (f"{'tables':>6} {'moves':>6} {'p50 ms':>7} {'p99 ms':>7} {'ping p50':>8} "
          f"{'ping p99':>8} {'errors':>6} {'srv CPU ms/move':>15} {'client CPU':>10} "
          f"{'load':>5}")


def row_line(r: Row) -> str:
    return (f"{r.tables:>6} {r.moves:>6} {r.p50:>7.1f} {r.p99:>7.1f} {r.ping50:>8.1f} "
            f"{r.ping99:>8.1f} {r.errors:>6} {r.cpu_ms:>15.2f} {r.client_cpu:>9.0f}% "
            f"{r.load:>5.1f}  {'pass' if r.passed else 'FAIL'}")


def next_refinement(rows: list[Row], step: int) -> int | None:
    """The midpoint between the largest passing count and the smallest failing count above it,
    if they are more than ``step`` apart."""
    passed = [r.tables for r in rows if r.passed]
    best = max(passed, default=0)
    above = [r.tables for r in rows if not r.passed and r.tables > best]
    if not above:
        return None
    worst = min(above)
    if worst - best <= step:
        return None
    mid = (best + worst) // 2
    return max(step, mid // step * step)


@dataclass(frozen=True)
class BenchPlan:
    """What to measure (the flags of ``euchre bench server``)."""

    tables: list[int]
    seconds: float
    think: tuple[float, float]
    refine: int
    workers: int
    strong_tables: int
    db: str | None
    seed: int
    processes: int = 1
    hop_tables: int = 0


async def run_bench(args: BenchPlan, strong: str) -> int:
    """Start a server, sweep the table counts, print each row; ``strong``: the level of the
    strongest-computer run."""
    with tempfile.TemporaryDirectory(prefix="euchre-bench-") as tmp:
        db = args.db or f"sqlite:///{tmp}/bench.sqlite3"
        try:
            site = Site(db, args.workers, args.processes)
        except RuntimeError as exc:
            print(f"euchre bench server: {exc}", file=sys.stderr)
            return 1
        with quiet_collector():
            try:
                return await _sweep(args, strong, site, "SQLite (temporary)" if args.db is None
                                    else db.split("://")[0])
            finally:
                site.stop()


@contextlib.contextmanager
def quiet_collector() -> Iterator[None]:
    """Keep this process's own garbage-collector pauses out of the figures it measures.

    The simulated people are the instrument: at 1,600 tables this process's full collections
    took up to 233 ms and its middle-generation ones up to 96 ms (measured with
    ``gc.callbacks``), and a person waiting on such a pause times it as the server's. So, as
    the server does (``euchre.web.collector``), the automatic full passes are off while it
    runs, and ``settle`` freezes the people connected so far before each row is measured,
    which keeps the younger generations' passes short too."""
    threshold = gc.get_threshold()
    gc.set_threshold(threshold[0], threshold[1], NEVER)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def settle() -> None:
    """Between rows: collect what the last row left, then freeze the people alive now."""
    gc.collect()
    gc.freeze()


async def _sweep(args: BenchPlan, strong: str, site: Site, db: str) -> int:
    import httpx

    started = time.monotonic()
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        for server in site.servers:
            for _ in range(400):
                try:
                    await http.get(server.base + "/api/options")
                    break
                except httpx.HTTPError:
                    await asyncio.sleep(0.05)
        where = ", ".join(s.base for s in site.servers)
        procs = f"{len(site.servers)} server processes, each with " \
            if len(site.servers) > 1 else ""
        print(f"euchre bench server: {where}, {db}, {procs}{args.workers} worker process(es); "
              f"computers 'rule'; think {args.think[0]:g}-{args.think[1]:g} s; "
              f"{args.seconds:g} s per row; pass = p99 under {LIMIT_MS:g} ms, no errors; "
              f"{os.cpu_count()} cores", flush=True)
        print(HEADER, flush=True)
        load = Load(site, "rule", args.think, args.seed, http)
        rows: list[Row] = []
        try:
            for n in args.tables:
                worst = max((r.p99 for r in rows if r.tables < n and not r.passed),
                            default=0.0)
                if worst > HOPELESS * LIMIT_MS:
                    print(f"{n:>6}  skipped: a smaller count already had p99 {worst:.0f} ms")
                    continue
                await load.resize(n)
                rows.append(await load.measure(args.seconds))
                print(row_line(rows[-1]), flush=True)
            step = 10 if max(args.tables) <= 200 else 25
            for _ in range(args.refine):
                n_mid = next_refinement(rows, step)
                if n_mid is None:
                    break
                await load.resize(n_mid)
                rows.append(await load.measure(args.seconds))
                print(row_line(rows[-1]) + "  (refining)", flush=True)
        finally:
            await load.close()
        passed = [r.tables for r in rows if r.passed]
        failed = [r.tables for r in rows if not r.passed]
        best = max(passed, default=0)
        above = [f for f in failed if f > best]
        if not passed:
            verdict = "none (the smallest count measured failed)"
        elif above:
            verdict = f"{best} (the next count measured, {min(above)}, failed)"
        else:
            verdict = f"{best}, the largest measured: the limit may be higher"
        if any(f < best for f in failed):
            verdict += "; a smaller count failed (a busy machine?)"
        print(f"largest table count with p99 under {LIMIT_MS:g} ms: {verdict}; "
              f"{load.samples.games} games finished", flush=True)
        if args.strong_tables:
            note = "" if strong == "search" else \
                " (no 'search' level is installed: 'rule' is the strongest there is)"
            sload = Load(site, strong, args.think, args.seed + 1, http)
            try:
                await sload.resize(args.strong_tables)
                # twice as long: these tables move only as fast as the search computers think
                r = await sload.measure(2 * args.seconds)
            finally:
                await sload.close()
            print(f"{args.strong_tables} tables with '{strong}' computers{note}: "
                  f"p50 {r.p50:.1f} ms, p99 {r.p99:.1f} ms over {r.moves} moves, "
                  f"ping p99 {r.ping99:.1f} ms, {r.errors} errors, load {r.load:.1f}",
                  flush=True)
        if args.hop_tables and len(site.servers) > 1:
            hops = Hops(site, args.think, args.seed + 2, http)
            try:
                await hops.resize(args.hop_tables)
                await asyncio.sleep(args.think[1] + 0.5)
                hops.clear()
                await asyncio.sleep(2 * args.seconds)
            finally:
                await hops.close()
            print(hops.report(), flush=True)
    print(f"({time.monotonic() - started:.0f} s in all)")
    return 0


# the extra hop ---------------------------------------------------------------------------------


class Hops:
    """Tables of two partners, each connected to a server process of its own: half the tables
    with both at the owner, half with one at the owner and one at another process. A move is
    timed from its sending to the state holding it reaching the partner, so the cross-process
    tables' extra time is the hop (relay to the owner, its commit announced on the bus, the
    other process's copy of the table catching up)."""

    def __init__(self, site: Site, think: tuple[float, float], seed: int, http: Any) -> None:
        self.site, self.think, self.seed, self.http = site, think, seed, http
        self.seen: dict[bool, list[float]] = {False: [], True: []}
        self.errors = 0
        self.tasks: list[asyncio.Task[None]] = []
        self.decode = _decoder()

    def clear(self) -> None:
        self.seen = {False: [], True: []}
        self.errors = 0

    async def resize(self, n: int) -> None:
        for i in range(n):
            self.tasks.append(asyncio.create_task(self.table(i, random.Random(self.seed + i))))

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def table(self, i: int, rng: random.Random) -> None:
        servers = self.site.servers
        cross = i % 2 == 1
        owner = servers[i % len(servers)]
        other = servers[(i + 1) % len(servers)] if cross else owner
        await asyncio.sleep(rng.uniform(0, self.think[1]))
        while True:
            try:
                seats = [{"kind": "human"}, {"kind": "computer", "level": "rule"},
                         {"kind": "human"}, {"kind": "computer", "level": "rule"}]
                r = await self.http.post(owner.base + "/api/tables", json={"seats": seats})
                r.raise_for_status()
                t = r.json()
                invite = t["invite_url"].split("#invite=")[1]
                r = await self.http.post(f"{owner.base}/api/tables/{t['id']}/join",
                                         json={"invite": invite})
                r.raise_for_status()
                sent: list[dict[int, float]] = [{}, {}]
                await asyncio.gather(
                    self.partner(f"{owner.ws}/ws/{t['id']}?token={t['token']}", rng,
                                 sent[0], sent[1], cross),
                    self.partner(f"{other.ws}/ws/{t['id']}?token={r.json()['token']}", rng,
                                 sent[1], sent[0], cross))
            except asyncio.CancelledError:
                raise
            except Exception:
                self.errors += 1
                await asyncio.sleep(1.0)

    async def partner(self, url: str, rng: random.Random, mine: dict[int, float],
                      theirs: dict[int, float], cross: bool) -> None:
        """One partner's game: move after a think time, and time the partner's moves."""
        import websockets

        async with websockets.connect(url, max_size=2**22, compression=None) as ws:
            state: dict[str, Any] = {"legal": [], "finished": False, "seq": -1}
            move_at: float | None = None
            while not state["finished"]:
                wait = None if move_at is None else max(0.0, move_at - time.monotonic())
                try:
                    msg = self.decode(await asyncio.wait_for(ws.recv(), wait))
                except TimeoutError:
                    move = rng.choice(state["legal"])
                    mine[state["seq"]] = time.monotonic()
                    await ws.send(f'{{"type":"act","action":{move["id"]},'
                                  f'"seq":{state["seq"]}}}')
                    move_at = None
                    continue
                if msg["type"] == "error":
                    self.errors += 1
                    continue
                if msg["type"] != "state" or msg["seq"] <= state["seq"]:
                    continue
                now = time.monotonic()
                for seq in [k for k in theirs if k < msg["seq"]]:
                    self.seen[cross].append(now - theirs.pop(seq))
                state = msg
                if state["legal"] and state["seq"] not in mine:
                    move_at = now + rng.uniform(*self.think)

    def report(self) -> str:
        same, cross = self.seen[False], self.seen[True]
        if not same or not cross:
            return f"extra hop: too few moves timed ({len(same)} and {len(cross)})"
        s50, s99, c50, c99 = (pct(same, 0.5) * 1000, pct(same, 0.99) * 1000,
                              pct(cross, 0.5) * 1000, pct(cross, 0.99) * 1000)
        return (f"a move reaching the partner, {len(self.tasks)} two-person tables: both at "
                f"the owner p50 {s50:.1f} ms, p99 {s99:.1f} ms ({len(same)} moves); one at "
                f"another process p50 {c50:.1f} ms, p99 {c99:.1f} ms ({len(cross)} moves); "
                f"the extra hop p50 {c50 - s50:+.1f} ms, p99 {c99 - s99:+.1f} ms; "
                f"{self.errors} errors")
