"""``euchre serve`` as a user runs it: it prints its address, refuses bad flags with a clear
message, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from webtools import ServeProcess

EUCHRE = Path(sys.executable).parent / "euchre"


def test_serve_prints_its_address_and_stops_cleanly_on_ctrl_c(sqlite_url: str) -> None:
    srv = ServeProcess(sqlite_url)
    try:
        assert f"serving at http://127.0.0.1:{srv.port}/" in srv.banner
        assert "Ctrl-C" in srv.banner
        srv.proc.send_signal(signal.SIGINT)
        assert srv.proc.wait(timeout=20) == 0
        srv.reader.join(5)
        out = "".join(srv.output)
        assert "server stopped" in out and "Traceback" not in out
    finally:
        srv.stop()


def test_serve_stops_cleanly_on_sigterm_its_worker_pools_finished(sqlite_url: str) -> None:
    """SIGTERM (a service manager's stop): the graceful stop runs to its end and the process
    exits 0, its worker pools shut down (no semaphores reported leaked, no traceback)."""
    srv = ServeProcess(sqlite_url)
    try:
        srv.proc.send_signal(signal.SIGTERM)
        assert srv.proc.wait(timeout=20) == 0
        srv.reader.join(5)
        out = "".join(srv.output)
        assert "server stopped" in out
        assert "leaked" not in out and "Traceback" not in out, out
    finally:
        srv.stop()


def test_serve_refuses_bad_flags_with_a_message_not_a_traceback() -> None:
    cases = [
        (["--port", "70000"], "a port is 0-65535"),
        (["--port", "http"], "is not a port number"),
        (["--workers", "0"], "workers must be 1-64"),
        (["--away-timeout", "-5"], "between 0.1 and 86400 seconds"),
        (["--db", "mysql://x"], "--db must be a sqlite:/// or postgresql:// URL"),
        (["--seat-connections", "0"], "must be a whole number 1..100"),
        (["--hint-rate", "fast"], "is not a number of a second"),
        (["--abandon-after", "-1"], "must be 0.001-36500 days"),
        (["--chat-rate", "nan"], "must be 0.001-100 a second"),
    ]
    for args, why in cases:
        r = subprocess.run([EUCHRE, "serve", *args], capture_output=True, text=True,
                           timeout=60, check=False)
        assert r.returncode == 2, (args, r.stderr)
        assert why in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_a_database_that_cannot_be_opened_is_one_clear_line_without_its_password() -> None:
    from webtools import free_port

    port = free_port()
    r = subprocess.run([EUCHRE, "serve", "--port", "0", "--db",
                        f"postgresql://user:s3cret@127.0.0.1:{port}/x"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 1
    assert f"cannot open the database postgresql://…@127.0.0.1:{port}/x" in r.stderr
    assert "s3cret" not in r.stdout + r.stderr and "Traceback" not in r.stderr


def test_bench_server_refuses_bad_table_counts() -> None:
    for bad in ("0", "a,b", "-3", "6000"):
        r = subprocess.run([EUCHRE, "bench", "server", "--tables", bad], capture_output=True,
                           text=True, timeout=60, check=False)
        assert r.returncode == 2 and "table count" in r.stderr, r.stderr


@pytest.mark.slow
def test_bench_server_measures_a_row_and_names_the_largest_passing_count() -> None:
    r = subprocess.run([EUCHRE, "bench", "server", "--tables", "2", "--seconds", "1.5",
                        "--think", "0,0.2", "--strong-tables", "0", "--refine", "0"],
                       capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if line.lstrip().startswith("2 ")]
    assert len(rows) == 1 and int(rows[0][1]) > 0 and rows[0][-1] in ("pass", "FAIL"), r.stdout
    assert "largest table count with p99 under 100 ms:" in r.stdout


def test_bench_server_refines_between_the_largest_pass_and_the_smallest_failure() -> None:
    from euchre.web.loadgen import Row, next_refinement

    def row(n: int, p99: float) -> Row:
        return Row(n, 100, 1.0, p99, 0.5, 1.0, 0, 1.0, 5.0, 1.0)

    assert next_refinement([row(100, 20), row(200, 30), row(300, 400)], 25) == 250
    assert next_refinement([row(100, 20), row(200, 30), row(250, 150), row(300, 400)],
                           25) == 225
    assert next_refinement([row(200, 30), row(225, 150)], 25) is None  # close enough
    assert next_refinement([row(100, 20), row(200, 30)], 25) is None  # nothing failed
    assert next_refinement([row(100, 500)], 25) == 50  # below the smallest count


def test_every_serve_limit_flag_reaches_the_server_with_its_default() -> None:
    from euchre.cli import build_parser
    from euchre.cli.serve import LIMITS, server_config
    from euchre.web.config import ServerConfig

    parser = build_parser()
    defaults = server_config(parser.parse_args(["serve"]), "sqlite:///x")
    for _, dest, _, _, _ in LIMITS:
        assert getattr(defaults, dest) == ServerConfig("x").__dict__[dest], dest
    given = ["--seat-connections", "2", "--table-spectators", "9", "--address-spectators", "5",
             "--client-tables-per-minute", "3", "--tables-per-minute", "7",
             "--computer-tables", "0", "--abandon-after", "2.5", "--hint-workers", "3",
             "--hint-rate", "0.25", "--chat-rate", "2", "--review-workers", "4",
             "--reviews-at-once", "2", "--request-timeout", "4", "--account-signins", "6",
             "--address-signins", "8", "--bot-connections", "3", "--bot-rate", "5"]
    cfg = server_config(parser.parse_args(["serve", *given]), "sqlite:///x")
    assert (cfg.seat_connections, cfg.table_spectators, cfg.client_tables_per_minute,
            cfg.tables_per_minute, cfg.computer_tables, cfg.abandon_days, cfg.hint_workers,
            cfg.hint_rate, cfg.chat_rate, cfg.review_workers,
            cfg.reviews_at_once, cfg.request_timeout, cfg.address_spectators,
            cfg.account_signins, cfg.address_signins, cfg.bot_connections, cfg.bot_rate) == (
                2, 9, 3, 7, 0, 2.5, 3, 0.25, 2.0, 4, 2, 4.0, 5, 6, 8, 3, 5.0)
    assert {flag for flag, *_ in LIMITS} == set(given[::2])


def test_the_bot_flags_reach_the_server_and_every_process() -> None:
    from euchre.cli import build_parser
    from euchre.cli.serve import child_args, server_config
    from euchre.web.config import ServerConfig

    parser = build_parser()
    defaults = server_config(parser.parse_args(["serve"]), "sqlite:///x")
    base = ServerConfig("x")
    assert (defaults.bots, defaults.bot_move_time, defaults.bot_grace) == (
        base.bots, base.bot_move_time, base.bot_grace) == ("invited", 10.0, 2.0)
    given = ["serve", "--bots", "off", "--bot-move-time", "3", "--bot-grace", "0.5"]
    args = parser.parse_args(given)
    cfg = server_config(args, "sqlite:///x")
    assert (cfg.bots, cfg.bot_move_time, cfg.bot_grace) == ("off", 3.0, 0.5)
    child = server_config(parser.parse_args(child_args(args, 1)), "sqlite:///x")
    assert (child.bots, child.bot_move_time, child.bot_grace) == ("off", 3.0, 0.5)
    assert parser.parse_args(["serve", "--bots", "off"]).bots == "off"



def test_bench_server_refuses_several_processes_without_postgresql() -> None:
    r = subprocess.run([EUCHRE, "bench", "server", "--processes", "2", "--tables", "2"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2
    assert r.stderr.startswith("euchre bench server: --processes 2 needs --db postgresql://")
    assert "Traceback" not in r.stderr
