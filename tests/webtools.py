"""Fixtures and helpers for the browser-table tests: a real uvicorn server on loopback (in a
thread, or as an ``euchre serve`` process), websocket clients that keep every message they
receive, and a throw-away PostgreSQL cluster so the same tests run against both databases.

Loaded for the whole suite through ``pytest_plugins`` in ``conftest.py``.
"""

from __future__ import annotations

import glob
import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# PostgreSQL --------------------------------------------------------------------------------


@dataclass
class PgCluster:
    root: Path
    port: int
    bindir: str
    as_user: list[str]
    counter: Iterator[int] = field(default_factory=itertools.count)

    def new_database(self) -> str:
        import psycopg

        name = f"euchre_test_{next(self.counter)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A temporary PostgreSQL cluster on loopback, from Debian's packages (which
    ``scripts/system-deps.sh`` installs). PostgreSQL refuses to run as root, so as root the
    cluster belongs to the ``postgres`` user the package creates."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        pytest.fail("PostgreSQL is not installed: run scripts/system-deps.sh (make test does)")
    bindir = str(Path(bins[-1]).parent)
    root = Path(tempfile.mkdtemp(prefix="euchre-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    data = root / "data"
    def run(*cmd: str) -> None:
        subprocess.run([*as_user, *cmd], check=True, capture_output=True, text=True)

    run(f"{bindir}/initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
        "--no-sync")
    run(f"{bindir}/pg_ctl", "-D", str(data), "-l", str(root / "log"), "-w", "-o",
        f"-h 127.0.0.1 -p {port} -k {root} -F -c fsync=off", "start")
    try:
        yield PgCluster(root, port, bindir, as_user)
    finally:
        subprocess.run([*as_user, f"{bindir}/pg_ctl", "-D", str(data), "-m", "immediate",
                        "stop"], capture_output=True, check=False)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test against SQLite and against a real PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'euchre.sqlite3'}"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'euchre.sqlite3'}"


# A live server in a thread -----------------------------------------------------------------


class LiveServer:
    """uvicorn serving ``make_app(config)`` on a loopback port, in a background thread."""

    def __init__(self, **config: Any) -> None:
        import uvicorn

        from euchre.web.app import WS_PROTOCOL_MAX_BYTES, ServerConfig, make_app
        from euchre.web.guard import guarded_protocols

        config.setdefault("pool", "thread")
        # scripted clients move far faster than people: the rate limit has its own test
        config.setdefault("rate", 1000.0)
        config.setdefault("burst", 1000.0)
        config.setdefault("bot_rate", 1000.0)  # and a bot's decisions are paced: its own test
        # and they create tables far faster than people: the creation limits have their tests
        config.setdefault("client_tables_per_minute", 100000)
        settings = ServerConfig(**config)
        self.app = make_app(settings)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, log_level="warning", ws_max_size=WS_PROTOCOL_MAX_BYTES, lifespan="on",
            ws_per_message_deflate=False, proxy_headers=False,
            **guarded_protocols(settings.request_timeout)))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)
        import httpx

        self.http = httpx.Client(base_url=self.base, timeout=10)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        r = self.http.post(path, json=body)
        return r.status_code, r.json()

    def get(self, path: str) -> tuple[int, Any]:
        r = self.http.get(path)
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, r.text

    def create(self, **body: Any) -> dict[str, Any]:
        status, out = self.post("/api/tables", body)
        assert status == 201, out
        assert isinstance(out, dict)
        return out

    def connect(self, table: str, token: str = "", address: str = "",
                cookies: Any = None) -> Client:
        """A websocket to the table (``address``: the client address a trusted proxy would
        name in X-Forwarded-For; ``cookies``: an httpx client's, to come as its player)."""
        headers = {}
        if cookies is not None:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        return Client(f"ws://127.0.0.1:{self.port}/ws/{table}" + (f"?token={token}" if token
                                                                  else ""), address,
                      headers=headers)


class Client:
    """A websocket client that keeps every message it receives (``raw`` and parsed)."""

    def __init__(self, url: str, address: str = "", source: str = "",
                 headers: dict[str, str] | None = None) -> None:
        """``address``: the X-Forwarded-For to send; ``source``: the loopback address to
        connect from (127.0.0.N: another client, as a proxy in front sees it); ``headers``:
        more to send (a player's cookie)."""
        from websockets.sync.client import connect

        # An unbounded queue: with the default 16 a watcher of a computers' table stops
        # reading the socket once 16 states wait unread, and then never sees the server's
        # answer to its close (a 10 s close timeout each).
        sent = dict(headers or {})
        if address:
            sent["X-Forwarded-For"] = address
        extra: dict[str, Any] = {"source_address": (source, 0)} if source else {}
        self.ws = connect(url, max_size=2**22, open_timeout=10, max_queue=None,
                          additional_headers=sent or None, **extra).__enter__()
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.you: int | None = None

    def close(self) -> None:
        self.ws.close()

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "welcome":
            self.you = msg["you"]
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        """Read until a message satisfies ``pred``; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message arrived")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def until_state(self, pred: Callable[[dict[str, Any]], bool],
                    timeout: float = 20) -> dict[str, Any]:
        if self.state is not None and pred(self.state):
            return self.state
        return self.until(lambda m: m["type"] == "state" and pred(m), timeout)

    def until_picture(self, pred: Callable[[dict[str, Any]], bool],
                      timeout: float = 20) -> dict[str, Any]:
        """The table as this connection sees it, dealt (``state``) or still in its waiting
        room (``waiting``), once ``pred`` holds for it."""
        return self.until(lambda m: m["type"] in ("state", "waiting") and pred(m), timeout)

    def after(self, seq: int, timeout: float = 20) -> dict[str, Any]:
        """The first state newer than ``seq``."""
        return self.until(lambda m: m["type"] == "state" and m["seq"] > seq, timeout)

    def at(self, seq: int, timeout: float = 20) -> dict[str, Any]:
        """The state after exactly ``seq`` actions."""
        return self.until_state(lambda m: m["seq"] == seq, timeout)

    def my_turn(self, timeout: float = 20) -> dict[str, Any]:
        """The state in which this seat must act (or the finished game)."""
        return self.until_state(lambda s: bool(s["legal"]) or s["finished"], timeout)

    def drain(self, quiet: float = 0.02) -> None:
        """Read whatever is already on its way."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return


# An ``euchre serve`` process (for SIGKILL recovery and the browser) -------------------------


class ServeProcess:
    def __init__(self, db: str, *extra: str, port: int | None = None) -> None:
        import sys

        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        exe = Path(sys.executable).parent / "euchre"
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(self.port), "--db", db, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.proc.stdout is not None
        seen = []
        while True:  # the banner is the first line on stdout; log lines may come first
            line = self.proc.stdout.readline()
            seen.append(line)
            if "serving at" in line:
                break
            if not line or len(seen) > 50:
                self.stop()
                raise RuntimeError("euchre serve did not start: " + "".join(seen))
        self.banner = line
        # keep reading its output, so a full pipe can never stall the server
        self.output = list(seen)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 20
        import httpx

        while True:  # the banner comes before the app's start-up: wait for it to answer
            try:
                httpx.get(self.base + "/api/options", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class ClusterProcesses:
    """``n`` ``euchre serve`` processes on one PostgreSQL database, each on its own loopback
    port (as on ``n`` machines, or ``--processes n`` without the shared port): ``urls[i]`` /
    ``ports[i]`` reach process ``i``; ``kill(i)`` is ``kill -9``, ``term(i)`` a graceful
    stop (SIGTERM, waited for), ``start(i)`` starts a fresh process in slot ``i``."""

    def __init__(self, db_url: str, n: int, *extra: str) -> None:
        self.db_url, self.extra = db_url, extra
        started: list[ServeProcess | BaseException | None] = [None] * n

        def start(i: int) -> None:
            try:
                started[i] = ServeProcess(db_url, *extra)
            except BaseException as exc:
                started[i] = exc

        threads = [threading.Thread(target=start, args=(i,)) for i in range(n)]
        for t in threads:  # together: each spends seconds starting its worker processes
            t.start()
        for t in threads:
            t.join()
        self.procs = [p for p in started if isinstance(p, ServeProcess)]
        failed = [p for p in started if not isinstance(p, ServeProcess)]
        if failed:
            self.stop()
            raise RuntimeError(f"{len(failed)} of {n} processes did not start: {failed[0]}")

    @property
    def urls(self) -> list[str]:
        return [p.base for p in self.procs]

    @property
    def ports(self) -> list[int]:
        return [p.port for p in self.procs]

    def start(self, i: int) -> None:
        self.procs[i] = ServeProcess(self.db_url, *self.extra)

    def restart(self, i: int) -> None:
        """A fresh process in slot ``i``, on the port the last one had (as a supervisor
        restarts one behind a proxy)."""
        self.procs[i] = ServeProcess(self.db_url, *self.extra, port=self.procs[i].port)

    def kill(self, i: int) -> None:
        proc = self.procs[i].proc
        proc.kill()
        proc.wait()

    def term(self, i: int, timeout: float = 20) -> int:
        proc = self.procs[i].proc
        proc.terminate()
        return proc.wait(timeout)

    def stop(self) -> None:
        for p in self.procs:
            p.stop()

    def __enter__(self) -> ClusterProcesses:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# nginx in front (tests/test_web_proxy.py) ---------------------------------------------------


class NginxProxy:
    """Debian's nginx on a loopback port in front of ``upstreams``, in the foreground with the
    shipped configuration (``euchre proxy-config --standalone``): pid, logs and temporary files
    in ``root``, so it runs as root and as a normal user alike."""

    def __init__(self, root: Path, upstreams: list[str], fail_timeout: int | None = None
                 ) -> None:
        from euchre.web.proxy import ProxyPlan, find_nginx, render_standalone

        binary = find_nginx()
        if binary is None:
            pytest.fail("nginx is not installed: run scripts/system-deps.sh (make test does)")
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        conf = root / "nginx.conf"
        plan = ProxyPlan(f"127.0.0.1:{self.port}", tuple(upstreams))  # as shipped
        if fail_timeout is not None:
            plan = ProxyPlan(plan.listen, plan.upstreams, fail_timeout=fail_timeout)
        conf.write_text(render_standalone(plan, root))
        self.proc = subprocess.Popen([binary, "-p", str(root), "-c", str(conf),
                                      "-e", str(root / "error.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
        deadline = time.monotonic() + 10
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                log = (root / "error.log").read_text() if (root / "error.log").exists() else ""
                raise RuntimeError(f"nginx did not start: {err}{log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("nginx did not listen within 10 s") from None
                time.sleep(0.02)

    def access_log(self) -> list[str]:
        """The access log so far (a websocket's line is written when it closes)."""
        path = self.root / "access.log"
        return path.read_text().splitlines() if path.exists() else []

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # a fast shutdown; nginx's workers go with it
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[Callable[..., NginxProxy]]:
    """Start nginx in front of the given upstreams (``HOST:PORT``): stopped after the test."""
    started: list[NginxProxy] = []

    def start(upstreams: list[str], fail_timeout: int | None = None) -> NginxProxy:
        proxy = NginxProxy(tmp_path / f"nginx{len(started)}", upstreams, fail_timeout)
        started.append(proxy)
        return proxy

    yield start
    for proxy in started:
        proxy.stop()
