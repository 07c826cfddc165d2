"""``euchre serve``: the browser table (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import contextlib
import sys

from euchre.cli import Subparsers


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


def register(sub: Subparsers) -> None:
    p = sub.add_parser("serve", help="serve the browser card table (play computers or friends)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000; 0: any)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL: sqlite:///PATH or postgresql://user@host/db "
                        "(default: SQLite in the user data directory)")
    p.add_argument("--workers", type=workers_count, default=2,
                   help="computer-player worker processes (default 2)")
    p.add_argument("--away-timeout", type=seconds, default=45.0, metavar="SECONDS",
                   help="a person's empty seat is played by a computer after this long on its "
                        "turn (default 45)")
    p.add_argument("--bot", action="append", default=[], type=named_bot, metavar="NAME=SPEC",
                   help="offer your own bot as a computer level NAME: SPEC is "
                        "package.module:factory, file.py:factory or 'cmd:COMMAND LINE' "
                        "(docs/writing-a-bot.md); repeatable. It decides in the worker "
                        "processes, and a cmd: bot that breaks down hands its move to rule")
    p.set_defaults(func=_run)


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


def _run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from euchre.web.app import (
            WS_PROTOCOL_MAX_BYTES,
            ServerConfig,
            make_app,
        )
        from euchre.web.store import default_db_url
    except ImportError as exc:
        print(f"euchre serve: the web extra is not installed ({exc.name} is missing); "
              "install it with: pip install 'euchre[web]'", file=sys.stderr)
        return 1
    import logging
    import socket

    url = args.db or default_db_url()
    if not url.startswith(("sqlite:", "postgresql:", "postgres:", "postgresql+psycopg:")):
        print(f"euchre serve: --db must be a sqlite:/// or postgresql:// URL, not {url!r}",
              file=sys.stderr)
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
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
    except OSError as exc:
        print(f"euchre serve: cannot listen on {args.host}:{args.port}: {exc.strerror}",
              file=sys.stderr)
        return 1
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    from euchre.bots import NamedSpecs

    bots = NamedSpecs(dict(args.bot), fallback="rule")
    bots.register_all()  # the web form lists them; the workers build them from `bots`
    app = make_app(ServerConfig(db_url=url, workers=args.workers, bot_factory=bots,
                                away_timeout=args.away_timeout, freeze_gc=True))
    # No per-message deflate: a state message is ~2 KB on loopback or a LAN, and compressing
    # every one cost more server time than everything else together (profiled under load).
    config = uvicorn.Config(app, log_level="warning", ws_max_size=WS_PROTOCOL_MAX_BYTES,
                            ws_per_message_deflate=False,
                            ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    print(f"euchre: serving at http://{shown}:{port}/  (database {safe_url}; Ctrl-C stops)",
          flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn handles SIGINT itself
        server.run(sockets=[sock])
    print("euchre: server stopped", flush=True)
    return 0
