"""``euchre serve`` as a user runs it: it prints its address, refuses bad flags with a clear
message, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

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


def test_serve_refuses_bad_flags_with_a_message_not_a_traceback() -> None:
    cases = [
        (["--port", "70000"], "a port is 0-65535"),
        (["--port", "http"], "is not a port number"),
        (["--workers", "0"], "workers must be 1-64"),
        (["--away-timeout", "-5"], "between 0.1 and 86400 seconds"),
        (["--db", "mysql://x"], "--db must be a sqlite:/// or postgresql:// URL"),
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
