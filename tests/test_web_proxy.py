"""The server behind Debian's nginx with the shipped configuration (``euchre proxy-config``):
websockets through it, the client's address passed on and not forgeable, and a process that
stops being skipped."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
from test_web_server import play_randomly
from webtools import Client, LiveServer, NginxProxy

from euchre.web.proxy import ProxyPlan, find_nginx, render_site, render_standalone

COMPUTERS = [{"kind": "computer", "level": "rule"}] * 2 + [{"kind": "human"}] + \
    [{"kind": "computer", "level": "rule"}]
Nginx = Callable[..., NginxProxy]


def connect(proxy: NginxProxy, table: str, token: str = "") -> Client:
    return Client(f"ws://127.0.0.1:{proxy.port}/ws/{table}" + (f"?token={token}" if token
                                                               else ""))


def test_the_rendered_configuration_is_one_nginx_accepts(tmp_path: Path) -> None:
    nginx = find_nginx()
    assert nginx is not None, "scripts/system-deps.sh installs nginx"
    plan = ProxyPlan("127.0.0.1:18080", ("127.0.0.1:8001", "[::1]:8002", "app3.lan:8003"))
    site = render_site(plan)
    assert "server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;" in site
    assert "server [::1]:8002 " in site and "@" not in site.replace("$", "")
    conf = tmp_path / "nginx.conf"
    conf.write_text(render_standalone(ProxyPlan("127.0.0.1:18080", ("127.0.0.1:8001",)),
                                      tmp_path))
    out = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(conf), "-e",
                          str(tmp_path / "error.log")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    exe = Path(sys.executable).parent / "euchre"
    bad = subprocess.run([str(exe), "proxy-config", "--upstream", "127.0.0.1"],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.strip() == ("euchre proxy-config: upstream '127.0.0.1': write HOST:PORT, "
                                  "e.g. 127.0.0.1:8001 (a port 1-65535)")
    none = subprocess.run([str(exe), "proxy-config"], capture_output=True, text=True)
    assert none.returncode == 2 and "at least one upstream" in none.stderr


def test_a_whole_game_through_nginx_and_the_client_address_it_passes_on(
        sqlite_url: str, nginx: Nginx) -> None:
    with LiveServer(db_url=sqlite_url, trusted_proxies=("127.0.0.1",),
                    client_tables_per_minute=2) as srv:
        proxy = nginx([f"127.0.0.1:{srv.port}"])
        http = httpx.Client(base_url=proxy.base, timeout=10)
        assert http.get("/api/options").status_code == 200
        assert http.get("/").status_code == 200
        # nginx replaces what the client wrote: two made-up addresses are still one client
        made = [http.post("/api/tables", json={"seats": COMPUTERS},
                          headers={"X-Forwarded-For": f"203.0.113.{i}"}) for i in (1, 2, 3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        t = made[0].json()
        c = connect(proxy, t["id"], t["token"])
        assert c.recv()["type"] == "welcome"
        end = play_randomly(c, random.Random(5))
        assert end["finished"]
        c.close()
        status = http.get(f"/api/tables/{t['id']}/record").status_code
        assert status == 200
        assert http.get("/metrics").status_code == 200, "the operator on this machine scrapes"
        http.close()
        upgraded = [line for line in proxy.access_log() if f"/ws/{t['id']}" in line]
        assert upgraded and '" 101 ' in upgraded[0], upgraded
        assert f"upstream=127.0.0.1:{srv.port}" in upgraded[0]


def test_a_stopped_process_is_skipped_and_new_connections_reach_the_other(
        tmp_path: Path, nginx: Nginx) -> None:
    with LiveServer(db_url=f"sqlite:///{tmp_path / 'a.sqlite3'}") as a, \
            LiveServer(db_url=f"sqlite:///{tmp_path / 'b.sqlite3'}") as b:
        proxy = nginx([f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"])
        http = httpx.Client(base_url=proxy.base, timeout=10)
        a.__exit__(None, None, None)  # its port now refuses connections
        codes = [http.get("/healthz").status_code for _ in range(6)]
        made = http.post("/api/tables", json={"seats": COMPUTERS})
        http.close()
        assert codes == [200] * 6
        assert made.status_code == 201, "a creation is passed on to the live process too"
        t = made.json()
        c = connect(proxy, t["id"], t["token"])
        assert c.my_turn()["legal"]
        c.close()
        logged = proxy.access_log()
        assert sum(f"127.0.0.1:{a.port}" in line for line in logged) <= 1, \
            "after its first refusal the stopped process is not tried again"
        assert all(f"127.0.0.1:{b.port} upstream_status=" in line for line in logged), \
            "every request was answered by the live one"
