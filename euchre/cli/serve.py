"""``euchre serve``: the browser table (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from euchre.cli import Subparsers, whole_number

#: The environment variable a database URL may come from (a password stays off command lines).
DB_ENV = "EUCHRE_DB"

if TYPE_CHECKING:
    import socket

    from euchre.web.config import ServerConfig


def port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535 (0: any free port), not {value}")
    return value


def workers_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers") from None
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"workers must be 1-64, not {value}")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.1 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"must be between 0.1 and 86400 seconds, not {text}")
    return value


def number_in(lo: float, hi: float, what: str) -> Callable[[str], float]:
    """An argparse type: a number ``lo``..``hi`` (a rate, a count of days)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {what}") from None
        if not lo <= value <= hi:  # also refuses nan
            raise argparse.ArgumentTypeError(f"must be {lo:g}-{hi:g} {what}, not {text}")
        return value

    return parse


#: The operator's limits: (flag, ServerConfig field, argparse type, metavar, help); each
#: default is the ServerConfig field's. Each is checked by the server and refused with a
#: message saying which limit it was; each holds for the whole site, every server process on
#: one database together (docs/web.md#limits).
LIMITS: list[tuple[str, str, Callable[[str], Any], str, str]] = [
    ("--seat-connections", "seat_connections", whole_number(1, 100), "N",
     "connections one seat's links may have open at once"),
    ("--table-spectators", "table_spectators", whole_number(0, 10000), "N",
     "spectator connections one table may have open at once (each seat has its own "
     "--seat-connections places, which spectators never take)"),
    ("--address-spectators", "address_spectators", whole_number(0, 10000), "N",
     "spectator connections one client address may have open at once, over every table"),
    ("--client-tables-per-minute", "client_tables_per_minute", whole_number(1, 100000), "N",
     "tables one client address may create in any minute"),
    ("--tables-per-minute", "tables_per_minute", whole_number(1, 1000000), "N",
     "tables the whole site lets be created in any minute"),
    ("--account-signins", "account_signins", whole_number(1, 1000), "N",
     "failed sign-ins one account may have in any 10 minutes; then its sign-ins are refused "
     "for the rest of them (its signed-in browsers stay signed in)"),
    ("--address-signins", "address_signins", whole_number(1, 100000), "N",
     "failed sign-ins one client address may make in any 10 minutes, to any accounts"),
    ("--computer-tables", "computer_tables", whole_number(0, 100000), "N",
     "tables of computers only (nobody seated, to watch) played at once; 0 refuses them"),
    ("--abandon-after", "abandon_days", number_in(0.001, 36500, "days"), "DAYS",
     "at start-up, an unfinished table without a move for this many days is closed and "
     "archived instead of resumed"),
    ("--request-timeout", "request_timeout", number_in(0.5, 3600, "seconds"), "SECONDS",
     "seconds a client has to send a request's headers, then as long for its body; a "
     "connection that sends nothing, or half a request, is closed then"),
    ("--hint-workers", "hint_workers", whole_number(1, 64), "N",
     "worker processes that work out hints, apart from the computer players'"),
    ("--review-workers", "review_workers", whole_number(1, 64), "N",
     "worker processes that review finished games, below the computer players' priority"),
    ("--reviews-at-once", "reviews_at_once", whole_number(1, 64), "N",
     "finished games reviewed at once; more wait their turn, shown as queued"),
    ("--hint-rate", "hint_rate", number_in(0.001, 100, "a second"), "PER_SECOND",
     "hints a second one seat may ask for, on average (bursts of 3)"),
    ("--chat-rate", "chat_rate", number_in(0.001, 100, "a second"), "PER_SECOND",
     "chat lines a second one seat, or one spectator's connection, may send, on average "
     "(bursts of 5)"),
    ("--bot-connections", "bot_connections", whole_number(1, 1000), "N",
     "connections one bot account's programs may have open at once (a game each)"),
    ("--bot-rate", "bot_rate", number_in(0.01, 10000, "a second"), "PER_SECOND",
     "decisions a second one bot account is asked for on average, all its connections "
     "together (bursts of three times as many); a quicker bot waits its turn"),
]


def register(sub: Subparsers) -> None:
    p = sub.add_parser("serve", help="serve the browser card table (play computers or friends)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000; 0: any)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL: sqlite:///PATH or postgresql://user@host/db (default: "
                        f"${DB_ENV} if set, else SQLite in the user data directory); a "
                        f"password belongs in ${DB_ENV} or ~/.pgpass, not on a command line "
                        "anyone on the machine can read")
    p.add_argument("--processes", type=whole_number(1, 64), default=1, metavar="N",
                   help="server processes serving this one port, sharing the database "
                        "(default 1; more needs --db postgresql://…). Not --workers: each "
                        "server process has its own --workers computer players")
    p.add_argument("--workers", type=workers_count, default=2,
                   help="computer-player worker processes of each server process (default "
                        "2); --processes counts the server processes")
    p.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--away-timeout", type=seconds, default=45.0, metavar="SECONDS",
                   help="a person's empty seat is played by a computer after this long on its "
                        "turn (default 45)")
    p.add_argument("--turn-clock", type=seconds, default=15.0, metavar="SECONDS",
                   help="at an open table (the lobby's, Play now's) a person has at most this "
                        "long for each turn, then the seat's computer moves; a turn has 3 times "
                        "the median of the table's recent decisions, at least 6 s (default 15)")
    p.add_argument("--leave-grace", type=seconds, default=20.0, metavar="SECONDS",
                   help="a seat at an open table whose person closed the page is free for the "
                        "next person after this long (its computer plays it meanwhile; "
                        "default 20)")
    p.add_argument("--bot", action="append", default=[], type=named_bot, metavar="NAME=SPEC",
                   help="offer your own bot as a computer level NAME: SPEC is "
                        "package.module:factory, file.py:factory or 'cmd:COMMAND LINE' "
                        "(docs/writing-a-bot.md); repeatable. It decides in the worker "
                        "processes, and a cmd: bot that breaks down hands its move to rule")
    p.add_argument("--trusted-proxy", action="append", default=[], type=proxy_address,
                   metavar="ADDRESS", dest="trusted_proxies",
                   help="address or network (10.0.0.0/8) of a proxy in front (nginx, "
                        "docs/deploying.md) whose X-Forwarded-For names the client, for the "
                        "per-client limits; repeatable (default: none, the header is ignored)")
    p.add_argument("--bots", choices=("invited", "allowed", "off"), default="invited",
                   help="bot accounts' programs (euchre bots, euchre connect): invited (the "
                        "default: they play where a table seats them by name), allowed (also "
                        "through the lobby and Play now, at most half of an open table's "
                        "seats, where its host lets bots sit) or off (no bot connects, no "
                        "table seats one)")
    p.add_argument("--bot-move-time", type=seconds, default=10.0, metavar="SECONDS",
                   help="seconds a bot's program may take over one decision; a silent one is "
                        "disconnected and its seat's computer plays (default 10)")
    p.add_argument("--bot-grace", type=seconds, default=2.0, metavar="SECONDS",
                   help="seconds a bot's seat waits on its turn for the bot to connect "
                        "before its computer plays for it, until it is back (default 2)")
    p.add_argument("--accounts", choices=("open", "closed", "off"), default="open",
                   help="player accounts: open (anyone may sign up; the default), closed (the "
                        "existing accounts sign in, nobody new signs up) or off (guests only)")
    from euchre.web.config import ServerConfig

    defaults = ServerConfig.__dataclass_fields__
    limits = p.add_argument_group("limits", "each holds for the whole site: every server process "
                                  "on the one database together")
    for flag, dest, kind, metavar, text in LIMITS:
        default = defaults[dest].default
        limits.add_argument(flag, dest=dest, type=kind, default=default, metavar=metavar,
                            help=f"{text} (default {default:g})")
    p.set_defaults(func=_run)


def proxy_address(text: str) -> str:
    import ipaddress

    try:
        ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an IP address or network "
                                         "(e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    return text.strip()


def named_bot(text: str) -> tuple[str, str]:
    """--bot NAME=SPEC, checked now (a typo is one line before the server starts)."""
    from euchre.bots import BOT_NAMES, check_spec

    name, eq, spec = text.partition("=")
    name = name.strip()
    if not eq or not name or not spec.strip():
        raise argparse.ArgumentTypeError(f"write NAME=SPEC (e.g. mine=cmd:node bot.js), "
                                         f"not {text!r}")
    if name in BOT_NAMES or ":" in name or not name.isprintable() or len(name) > 24:
        raise argparse.ArgumentTypeError(f"{name!r}: a bot's name is up to 24 printable "
                                         "characters without ':' and not a built-in level")
    try:
        check_spec(spec.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return name, spec.strip()


def server_config(args: argparse.Namespace, url: str) -> ServerConfig:
    """The server's settings from the command line; the --bot levels are registered here, so
    the web form lists them, and the worker processes build them from the config's factory."""
    from euchre.bots import NamedSpecs
    from euchre.web.config import ServerConfig

    bots = NamedSpecs(dict(getattr(args, "bot", [])), fallback="rule")
    bots.register_all()
    limits = {dest: getattr(args, dest) for _, dest, _, _, _ in LIMITS}
    return ServerConfig(db_url=url, workers=args.workers, away_timeout=args.away_timeout,
                        turn_clock=args.turn_clock, leave_grace=args.leave_grace,
                        bot_factory=bots, freeze_gc=True, cluster=is_postgresql(url),
                        accounts=getattr(args, "accounts", "open"),
                        bots=getattr(args, "bots", "invited"),
                        bot_move_time=getattr(args, "bot_move_time", 10.0),
                        bot_grace=getattr(args, "bot_grace", 2.0),
                        trusted_proxies=tuple(getattr(args, "trusted_proxies", ())), **limits)


def is_postgresql(url: str) -> bool:
    """PostgreSQL can be shared by several server processes (on one machine or many); a
    server on it always runs as one of a cluster, however many others there are."""
    return url.startswith(("postgresql:", "postgres:", "postgresql+psycopg:"))


def child_args(args: argparse.Namespace, port: int) -> list[str]:
    """The command line of one of ``--processes``' server processes (the same flags; the
    database URL, which may hold a password, goes in their environment, ``DB_ENV``)."""
    out = ["serve", "--host", args.host, "--port", str(port), "--reuse-port",
           "--workers", str(args.workers), "--away-timeout", repr(args.away_timeout),
           "--turn-clock", repr(args.turn_clock), "--leave-grace", repr(args.leave_grace),
           "--accounts", getattr(args, "accounts", "open"),
           "--bots", getattr(args, "bots", "invited"),
           "--bot-move-time", repr(getattr(args, "bot_move_time", 10.0)),
           "--bot-grace", repr(getattr(args, "bot_grace", 2.0))]
    for name, spec in getattr(args, "bot", []):
        out += ["--bot", f"{name}={spec}"]
    for flag, dest, _, _, _ in LIMITS:
        out += [flag, repr(getattr(args, dest))]
    for proxy in getattr(args, "trusted_proxies", []):
        out += ["--trusted-proxy", proxy]
    return out


def bound_socket(host: str, port: int, reuse_port: bool) -> socket.socket | None:
    """A socket bound to ``host:port`` (``reuse_port``: shared with the other server
    processes on this port), or None after saying why not."""
    import socket

    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError as exc:
        print(f"euchre serve: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return None
    return sock


def supervise(args: argparse.Namespace, url: str, safe_url: str) -> int:
    """``--processes N``: N ``euchre serve`` processes on one port (SO_REUSEPORT: the kernel
    spreads new connections over them), each a member of the cluster on the shared database.
    One that dies is started again; SIGTERM or Ctrl-C stops them all, each draining (its
    tables move to the others first)."""
    import subprocess
    import threading
    import time

    probe = bound_socket(args.host, args.port, reuse_port=True)  # holds the port (a free
    if probe is None:  # one for --port 0) while the processes start
        return 1
    port = probe.getsockname()[1]
    cmd = [sys.executable, "-m", "euchre", *child_args(args, port)]
    stopping = threading.Event()
    from euchre.web import metrics  # a scrape reaches any process: each answers for all

    metrics.prepare_multiprocess()
    relays: list[threading.Thread] = []

    # A process killed outright leaves its worker pools' semaphores to multiprocessing's
    # resource tracker, which cleans them up and warns in two lines of its own source; the
    # supervisor's "stopped (exit -9)" line already says what happened.
    quiet = "ignore:resource_tracker:UserWarning"
    env = dict(os.environ, PYTHONWARNINGS=",".join(
        w for w in (os.environ.get("PYTHONWARNINGS"), quiet) if w))
    env[DB_ENV] = url  # not in argv: /proc/PID/cmdline is readable by every local user

    def start() -> subprocess.Popen[str]:
        # its own session: Ctrl-C reaches only this supervisor, which stops each process
        # with one SIGTERM (a second signal would cut its graceful stop short)
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, start_new_session=True,
                                env=env)

    def relay(child: subprocess.Popen[str]) -> None:
        """Wait for the child's banner (it listens), then pass its output on."""
        assert child.stdout is not None
        for line in child.stdout:
            if "serving at" in line:
                break
            print(line, end="", flush=True)
        relays.append(threading.Thread(target=lambda: [print(x, end="", flush=True)
                                                       for x in child.stdout or ()],
                                       daemon=True))
        relays[-1].start()

    def stop(_sig: int, _frame: object) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    children = [start() for _ in range(args.processes)]  # together: each takes seconds
    for child in children:
        relay(child)
    probe.close()
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"euchre: serving at http://{shown}:{port}/ with {args.processes} server processes "
          f"(database {safe_url}; Ctrl-C stops)", flush=True)
    while not stopping.wait(0.5):
        for i, child in enumerate(children):
            if child.poll() is not None and not stopping.is_set():
                metrics.process_gone(child.pid)
                print(f"euchre: server process {child.pid} stopped (exit {child.returncode}); "
                      "starting another", flush=True)
                time.sleep(1.0)
                children[i] = start()
                relay(children[i])
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()
    for relay_thread in relays:  # their last lines (each one's tables let go) first
        relay_thread.join(2)
    print("euchre: server stopped", flush=True)
    return 0


def _exit_quietly(_sig: int, _frame: object) -> None:
    raise SystemExit(0)


def _run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from euchre.web.app import WS_PROTOCOL_MAX_BYTES, make_app
        from euchre.web.guard import guarded_protocols
        from euchre.web.store import default_db_url
    except ImportError as exc:
        print(f"euchre serve: the web extra is not installed ({exc.name} is missing); "
              "install it with: pip install 'euchre[web]'", file=sys.stderr)
        return 1
    import logging

    url = args.db or os.environ.get(DB_ENV) or default_db_url()
    if not url.startswith(("sqlite:", "postgresql:", "postgres:", "postgresql+psycopg:")):
        print(f"euchre serve: --db must be a sqlite:/// or postgresql:// URL, not {url!r}",
              file=sys.stderr)
        return 2
    if args.processes > 1 and not is_postgresql(url):
        print(f"euchre serve: --processes {args.processes} needs a PostgreSQL database "
              "(--db postgresql://…): SQLite lets one process write, so one server process "
              "serves it", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)  # one line per migration step
    # never print a password: postgresql://user:secret@host/db -> postgresql://…@host/db
    safe_url = url.split("://")[0] + "://…@" + url.split("@")[-1] if "@" in url else url
    try:  # open (and migrate) the database first, so a bad URL is one clear line
        from sqlalchemy.exc import SQLAlchemyError

        from euchre.web.store import Store

        Store(url).close()
    except (SQLAlchemyError, OSError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        print(f"euchre serve: cannot open the database {safe_url}: {reason}", file=sys.stderr)
        return 1
    if args.processes > 1:
        return supervise(args, url, safe_url)
    sock = bound_socket(args.host, args.port, reuse_port=args.reuse_port)
    if sock is None:
        return 1
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    server_settings = server_config(args, url)
    app = make_app(server_settings)
    # No per-message deflate: a state message is ~2 KB on loopback or a LAN, and compressing
    # every one cost more server time than everything else together (profiled under load).
    # proxy_headers off: the app trusts forwarded addresses itself, only from --trusted-proxy
    config = uvicorn.Config(app, log_level="warning", ws_max_size=WS_PROTOCOL_MAX_BYTES,
                            proxy_headers=False,
                            ws_per_message_deflate=False,
                            **guarded_protocols(server_settings.request_timeout),
                            ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    print(f"euchre: serving at http://{shown}:{port}/  (database {safe_url}; Ctrl-C stops)",
          flush=True)
    # uvicorn stops gracefully on SIGTERM, then raises the signal again once the old handler
    # is back: with the default one the process would die there, before the worker pools'
    # finalizers run (their semaphores then reported as leaked). Exiting instead lets them.
    signal.signal(signal.SIGTERM, _exit_quietly)
    with contextlib.suppress(KeyboardInterrupt, SystemExit):  # uvicorn handles SIGINT itself
        server.run(sockets=[sock])
    if not args.reuse_port:  # one of --processes': the supervisor says it once for them all
        print("euchre: server stopped", flush=True)
    return 0
