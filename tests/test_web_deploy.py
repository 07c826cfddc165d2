"""docs/deploying.md's database set-up, run as written: its commands create a role with a password
and a database on a PostgreSQL that checks passwords (scram-sha-256 over TCP, as Debian's does),
and `euchre serve` connects with the URL the page gives; a wrong password is one line that does
not show the password."""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from webtools import ServeProcess, free_port

DOC = Path(__file__).resolve().parent.parent / "docs" / "deploying.md"


def database_section() -> tuple[list[str], str]:
    """The set-up commands and the ``--db`` URL of the page's database section."""
    text = DOC.read_text()
    section = text[text.index("## The database"):]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    commands = [line for line in blocks[0].splitlines() if line.strip()]
    url = re.search(r"--db (postgresql://\S+)", blocks[1])
    assert url is not None
    return commands, url.group(1)


@pytest.fixture
def password_cluster() -> Iterator[tuple[Path, int, list[str], str]]:
    """A PostgreSQL whose TCP connections need a password (its socket trusts the superuser,
    as Debian's peer authentication does for ``postgres``): socket dir, port, the prefix that
    runs a command as ``postgres``, and the directory of its binaries."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        pytest.fail("PostgreSQL is not installed: run scripts/system-deps.sh (make test does)")
    bindir = str(Path(bins[-1]).parent)
    root = Path(tempfile.mkdtemp(prefix="euchre-pgpw-"))  # one ``postgres`` may enter
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    subprocess.run([*as_user, f"{bindir}/initdb", "-D", str(root / "data"), "-U", "postgres",
                    "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"],
                   check=True, capture_output=True)
    subprocess.run([*as_user, f"{bindir}/pg_ctl", "-D", str(root / "data"), "-l",
                    str(root / "log"), "-w", "-o", f"-h 127.0.0.1 -p {port} -k {root} -F",
                    "start"], check=True, capture_output=True)
    try:
        yield root, port, as_user, bindir
    finally:
        subprocess.run([*as_user, f"{bindir}/pg_ctl", "-D", str(root / "data"), "-m",
                        "immediate", "stop"], capture_output=True, check=False)
        shutil.rmtree(root, ignore_errors=True)


def test_the_documented_role_database_and_url_work_with_a_password(
        password_cluster: tuple[Path, int, list[str], str]) -> None:
    root, port, as_user, bindir = password_cluster
    commands, url = database_section()
    env = dict(os.environ, PGHOST=str(root), PGPORT=str(port),
               PATH=f"{bindir}:{os.environ['PATH']}")
    for command in commands:
        assert command.startswith("sudo -u postgres "), command
        argv = [*as_user, "bash", "-c", command.removeprefix("sudo -u postgres ")]
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
    password = url.split("://", 1)[1].split("@")[0].split(":")[1]
    real = url.replace("@dbhost:5432/", f"@127.0.0.1:{port}/")
    assert real != url
    srv = ServeProcess(real, "--workers", "1")
    try:
        assert password not in srv.banner and "…@127.0.0.1" in srv.banner
        assert httpx.post(srv.base + "/api/tables", json={}).status_code == 201
    finally:
        srv.stop()
    assert not any(password in line for line in srv.output)
    exe = Path(sys.executable).parent / "euchre"
    wrong = real.replace(f":{password}@", ":not-the-password@")
    done = subprocess.run([str(exe), "serve", "--port", "0", "--db", wrong],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert 'password authentication failed for user "euchre"' in done.stderr
    assert "not-the-password" not in done.stderr + done.stdout
