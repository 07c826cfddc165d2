"""The nginx configuration shipped with the server (``deploy/nginx.conf``), rendered for given
upstreams: the server processes one nginx spreads the players over.

``render_site`` fills the template, which belongs in nginx's ``http { }`` context (a file in
``/etc/nginx/conf.d/``). ``render_standalone`` wraps it into a whole ``nginx.conf`` whose pid
file, logs and temporary files all lie in one directory, so nginx runs in the foreground
without root and without touching ``/etc/nginx`` (the tests, one machine without a system
nginx).
"""

from __future__ import annotations

import ipaddress
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

__all__ = ["NGINX_BINARIES", "TEMPLATE", "ProxyPlan", "find_nginx", "parse_address",
           "render_site", "render_standalone"]

TEMPLATE = Path(__file__).parent / "deploy" / "nginx.conf"
#: Debian's nginx is /usr/sbin/nginx, which a normal user's PATH often lacks.
NGINX_BINARIES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx")


def parse_address(text: str, what: str = "address") -> str:
    """``HOST:PORT`` (``[V6]:PORT`` for IPv6), checked; returns it as nginx writes it."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"{what} {text!r}: write HOST:PORT, e.g. 127.0.0.1:8001 (a port "
                         "1-65535)")
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not bare or any(c.isspace() or c in ";{}'\"" for c in bare):
        raise ValueError(f"{what} {text!r}: the host is missing or has characters nginx "
                         "cannot take")
    try:
        if ipaddress.ip_address(bare).version == 6:
            return f"[{bare}]:{port}"
    except ValueError:
        pass  # a host name: nginx resolves it when it starts
    return f"{bare}:{port}"


def parse_listen(text: str) -> str:
    """``PORT`` or ``ADDRESS:PORT``, as nginx's ``listen`` takes it."""
    text = text.strip()
    if text.isdigit():
        if not 1 <= int(text) <= 65535:
            raise ValueError(f"listen {text!r}: a port is 1-65535")
        return text
    return parse_address(text, "listen")


@dataclass(frozen=True)
class ProxyPlan:
    """What to render: where nginx listens and the processes behind it."""

    listen: str
    upstreams: tuple[str, ...]
    max_fails: int = 1
    fail_timeout: int = 1
    """Whole seconds (nginx's upstream ``fail_timeout`` takes no fractions). Both are the HTTP
    requests' passive health checks; websockets are never marked down (``deploy/nginx.conf``
    says why)."""
    access_log: str = "/var/log/nginx/euchre.access.log"

    def __post_init__(self) -> None:
        if not self.upstreams:
            raise ValueError("name at least one upstream: a server process as HOST:PORT")
        if not 1 <= self.max_fails <= 100:
            raise ValueError(f"max fails must be 1-100, not {self.max_fails}")
        if not 1 <= self.fail_timeout <= 3600:
            raise ValueError(f"fail timeout must be 1-3600 whole seconds, not {self.fail_timeout}")


def render_site(plan: ProxyPlan) -> str:
    """The shipped template filled for ``plan`` (nginx's ``http { }`` context)."""
    listen = parse_listen(plan.listen)
    timeout = f"{plan.fail_timeout}s"
    servers = "\n".join(
        f"    server {parse_address(u, 'upstream')} max_fails={plan.max_fails} "
        f"fail_timeout={timeout};" for u in plan.upstreams)
    ws_servers = "\n".join(f"    server {parse_address(u, 'upstream')} max_fails=0;"
                           for u in plan.upstreams)
    out = TEMPLATE.read_text()
    for key, value in (("@SERVERS@", servers), ("@WS_SERVERS@", ws_servers),
                       ("@LISTEN@", listen),
                       ("@MAX_FAILS@", str(plan.max_fails)), ("@FAIL_TIMEOUT@", timeout),
                       ("@ACCESS_LOG@", plan.access_log)):
        out = out.replace(key, value)
    return out


def render_standalone(plan: ProxyPlan, directory: Path, workers: int = 1) -> str:
    """A whole ``nginx.conf`` around ``render_site``: foreground, with its pid, error and access
    logs and temporary files under ``directory`` (created). Run it with
    ``nginx -p DIR -c DIR/nginx.conf -e DIR/error.log``."""
    directory = directory.resolve()
    temp = directory / "temp"
    temp.mkdir(parents=True, exist_ok=True)
    site = render_site(ProxyPlan(plan.listen, plan.upstreams, plan.max_fails,
                                 plan.fail_timeout, str(directory / "access.log")))
    # As root nginx would hand its workers to "nobody", who may not enter a private DIR.
    user = "user root;\n" if os.geteuid() == 0 else ""
    files = open_files_allowed()
    temps = "\n".join(f"    {kind}_temp_path {temp / kind};"
                      for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    body = "\n".join("    " + line if line else "" for line in site.splitlines())
    return (f"# rendered by euchre proxy-config --standalone {directory}\n"
            f"{user}daemon off;\nworker_processes {workers};\nworker_rlimit_nofile {files};\n"
            f"pid {directory / 'nginx.pid'};\nerror_log {directory / 'error.log'} warn;\n"
            f"events {{\n    worker_connections {max(64, files // 2)};\n}}\n\n"
            f"http {{\n{temps}\n\n{body}\n}}\n")


def open_files_allowed() -> int:
    """The most files this user's nginx may open (a websocket through it holds two, so half of
    it is ``worker_connections``), at most 65536."""
    try:
        import resource
    except ImportError:  # not a Unix
        return 2048
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)


def find_nginx() -> str | None:
    """nginx's binary: on PATH, or where Debian puts it."""
    found = shutil.which("nginx")
    if found:
        return found
    return next((b for b in NGINX_BINARIES if os.access(b, os.X_OK)), None)
