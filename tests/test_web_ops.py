"""What an operator's tools read from a server process: liveness, readiness (database, schema,
draining), the Prometheus metrics moving as a game is played, and whose address a request
behind a proxy is counted against."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families
from test_web_server import play_randomly
from webtools import LiveServer, PgCluster, ServeProcess

from euchre.web.metrics import MULTIPROC_ENV, SAMPLE_SECONDS
from euchre.web.store import SCHEMA_REVISION

COMPUTERS = [{"kind": "computer", "level": "rule"}] * 2 + [{"kind": "human"}] + \
    [{"kind": "computer", "level": "rule"}]


def scrape(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``, parsed by prometheus_client's own parser."""
    r = httpx.get(base + "/metrics", timeout=10)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in text_string_to_metric_families(r.text) for s in fam.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_tables_connections_moves_and_time_round_trips(sqlite_url: str) -> None:
    with LiveServer(db_url=sqlite_url) as srv:
        before = scrape(srv.base)
        t = srv.create(seats=COMPUTERS)
        c = srv.connect(t["id"], t["token"])
        s = c.my_turn()
        during = scrape(srv.base)
        assert value(during, "euchre_tables", role="owned") == \
            value(before, "euchre_tables", role="owned") + 1
        assert value(during, "euchre_connections") == value(before, "euchre_connections") + 1
        c.send({"type": "act", "action": s["legal"][0]["id"], "seq": s["seq"]})
        c.after(s["seq"])
        after = scrape(srv.base)
        moved = value(after, "euchre_moves_total") - value(before, "euchre_moves_total")
        assert moved >= 1, "the person's move was counted"
        trips = value(after, "euchre_move_round_trip_seconds_count") - \
            value(before, "euchre_move_round_trip_seconds_count")
        assert trips == 1, "one person's move, one round trip"
        assert value(after, "euchre_move_round_trip_seconds_bucket", le="+Inf") >= trips
        assert value(after, "euchre_db_commit_seconds_count") > \
            value(before, "euchre_db_commit_seconds_count")
        assert value(after, "euchre_bot_think_seconds_count", where="loop") > \
            value(before, "euchre_bot_think_seconds_count", where="loop"), \
            "the rule computers' decisions were timed"
        play_randomly(c, random.Random(3))
        c.close()
        end = scrape(srv.base)
        assert value(end, "euchre_tables", role="owned") == \
            value(before, "euchre_tables", role="owned"), "a finished game is no live table"
        assert value(end, "euchre_move_round_trip_seconds_count") > trips


def test_healthz_answers_and_readyz_says_ready_then_not_while_draining(
        pg_cluster: PgCluster) -> None:
    with LiveServer(db_url=pg_cluster.new_database(), cluster=True) as srv:
        assert srv.get("/healthz") == (200, {"status": "alive"})
        assert srv.get("/readyz") == (200, {"status": "ready"})
        srv.app.state.server.cluster.stopping = True  # as its drain begins
        status, out = srv.get("/readyz")
        assert status == 503
        assert out["reason"].startswith("draining")
        assert srv.get("/healthz")[0] == 200, "a draining process is still alive"


def _admin(cluster: PgCluster, sql: str, db: str = "postgres") -> None:
    with psycopg.connect(f"host=127.0.0.1 port={cluster.port} user=postgres dbname={db}",
                         autocommit=True) as conn:
        conn.execute(sql.encode())


def test_readyz_is_503_with_the_reason_while_the_database_is_gone_or_behind(
        pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    name = url.rsplit("/", 1)[1]
    with LiveServer(db_url=url) as srv:
        assert srv.get("/readyz")[0] == 200
        _admin(pg_cluster, f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        _admin(pg_cluster, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
               f"WHERE datname = '{name}'")
        try:
            status, out = srv.get("/readyz")
            assert status == 503
            assert out["reason"].startswith("the database cannot be reached"), out
            assert srv.get("/healthz")[0] == 200
        finally:
            _admin(pg_cluster, f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        assert srv.get("/readyz")[0] == 200, "ready again once the database is back"
        _admin(pg_cluster, "UPDATE alembic_version SET version_num = '0001'", name)
        status, out = srv.get("/readyz")
        assert status == 503
        assert f"needs {SCHEMA_REVISION}" in out["reason"]


def _creations(base: str, forwarded: list[str]) -> list[int]:
    codes = []
    for address in forwarded:
        r = httpx.post(base + "/api/tables", json={"seats": COMPUTERS}, timeout=10,
                       headers={"X-Forwarded-For": address})
        codes.append(r.status_code)
    return codes


def test_x_forwarded_for_counts_only_from_a_trusted_proxy(sqlite_url: str,
                                                          tmp_path: Any) -> None:
    two = {"client_tables_per_minute": 2}
    with LiveServer(db_url=sqlite_url, **two) as srv:  # default: nobody is trusted
        assert _creations(srv.base, ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) == \
            [201, 201, 429], "the header changes nothing: one client, its limit is two"
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    with LiveServer(db_url=other, trusted_proxies=("127.0.0.0/8",), **two) as srv:
        assert _creations(srv.base, ["203.0.113.1", "203.0.113.2", "203.0.113.1",
                                     "203.0.113.1"]) == [201, 201, 201, 429], \
            "each forwarded client has its own two"
        # the rightmost address that is not a trusted proxy is the client: one it prepended
        # itself is not believed
        assert _creations(srv.base, ["198.51.100.7, 203.0.113.2"]) == [201]
        assert _creations(srv.base, ["198.51.100.7, 203.0.113.2"]) == [429]


@pytest.mark.cluster
def test_with_several_processes_on_one_port_any_scrape_counts_them_all(
        pg_cluster: PgCluster, tmp_path: Path, monkeypatch: Any) -> None:
    files = tmp_path / "metrics"
    files.mkdir()
    (files / "counter_1.db").write_bytes(b"left by an earlier run")
    monkeypatch.setenv(MULTIPROC_ENV, str(files))  # the parent's choice, passed to its children
    serve = ServeProcess(pg_cluster.new_database(), "--processes", "2",
                         "--client-tables-per-minute", "1000")
    with open(f"/proc/{serve.proc.pid}/task/{serve.proc.pid}/children") as f:
        processes = [int(pid) for pid in f.read().split()]
    assert len(processes) == 2
    try:
        assert not (files / "counter_1.db").exists(), "an earlier run's counts are not added"
        ids = []
        for _ in range(4):  # a new connection each: the kernel spreads them over both
            r = httpx.post(serve.base + "/api/tables", timeout=10, json={
                "my_seat": -1, "seats": [{"kind": "computer", "level": "rule"}] * 4})
            assert r.status_code == 201
            ids.append(r.json()["id"])
        deadline = time.monotonic() + 30
        for table in ids:  # computers alone play their game out in a moment
            while not httpx.get(f"{serve.base}/api/tables/{table}", timeout=10).json()[
                    "finished"]:
                assert time.monotonic() < deadline, "the computers did not finish"
                time.sleep(0.1)
        time.sleep(SAMPLE_SECONDS * 2)  # each process has written its gauges since
        seen = [(value(got, "euchre_moves_total"), value(got, "euchre_tables", role="owned"))
                for got in (scrape(serve.base) for _ in range(8))]
        assert seen[0][0] >= 4 * 40, "four whole games' moves"
        assert seen == [(seen[0][0], 0)] * 8, \
            "whichever process answers counts every process's moves"
        assert len(list(files.glob("gauge_livesum_*.db"))) >= 2, "both processes wrote"
    finally:
        serve.stop()
        for pid in processes:  # one that outlived a parent killed for being slow to stop
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


STOP_WITH_A_RUNNING_JOB = """
import os, sys, time
from euchre.web.runner import make_pool, stop_pool

pool = make_pool("process", 1, "test-stop")
job = pool.submit(time.sleep, 60)
while not job.running():
    time.sleep(0.01)
time.sleep(0.2)
pids = list(pool._processes or {})
stop_pool(pool)
print(" ".join(map(str, pids)), flush=True)
"""


def test_a_stopping_server_does_not_wait_for_the_jobs_its_workers_are_running() -> None:
    """Graceful shutdown ends with the worker pools: a worker busy with a long job (a
    review's search, say) must not hold the process's exit for that job's length. A process
    whose pool runs a 60-second job exits within seconds of stopping the pool, and leaves no
    worker behind."""
    import subprocess
    import sys

    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", STOP_WITH_A_RUNNING_JOB], capture_output=True,
                          text=True, timeout=50)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert took < 15, f"the exit waited {took:.1f} s for the running job"
    pids = [int(p) for p in done.stdout.split()]
    assert pids, "the pool had a worker process"
    time.sleep(0.5)
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or \
            Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z", f"worker {pid} lives"
    assert "Traceback" not in done.stderr
    assert "leaked" not in done.stderr


def test_the_servers_full_collections_come_on_its_timer_and_still_free_cycles() -> None:
    """A server process turns the collector's automatic full passes off (each held the event
    loop for 60-90 ms at 600 tables) and makes them itself on a timer: while it runs the
    oldest generation's threshold is out of reach, its own passes come and free a cycle that
    had reached the oldest generation, and stopping puts the collector back as it was."""
    import asyncio
    import gc
    import weakref

    from euchre.web.collector import NEVER, FullPasses

    class Node:
        other: Any = None

    before = gc.get_threshold()

    async def scenario() -> None:
        passes = FullPasses(every=0.05)
        passes.start()
        try:
            assert gc.get_threshold() == (before[0], before[1], NEVER)
            a, b = Node(), Node()
            a.other, b.other = b, a
            gone = weakref.ref(a)
            gc.collect(1)
            gc.collect(1)  # promoted: now only a full pass can free the pair
            del a, b
            gc.collect(1)
            assert gone() is not None, "a young collection freed an old cycle"
            deadline = time.monotonic() + 10
            while gone() is not None and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert gone() is None
            assert passes.passes >= 1
        finally:
            await passes.stop()
        assert gc.get_threshold() == before

    try:
        asyncio.run(scenario())
    finally:
        gc.unfreeze()
