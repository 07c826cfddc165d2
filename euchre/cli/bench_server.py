"""``euchre bench server``: action round-trip times of the table server under load (the load
generator itself is ``euchre.web.loadgen``)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from euchre.cli import Subparsers, positive_seconds, whole_number


def table_counts(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give table counts separated by commas, e.g. 50,100,200") from None
    if not values or any(not 1 <= v <= 5000 for v in values):
        raise argparse.ArgumentTypeError("each table count must be 1-5000")
    return sorted(set(values))


def think_range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give the think time as MIN,MAX seconds, e.g. 1,3") from None
    if not 0 <= lo <= hi <= 60:
        raise argparse.ArgumentTypeError("think time needs 0 <= MIN <= MAX <= 60 seconds")
    return lo, hi


def register(sub: Subparsers) -> None:
    p = sub.add_parser("server", help="round-trip times of the table server with N tables")
    p.add_argument("--tables", type=table_counts, default=[50, 100, 200, 300, 400, 500, 600],
                   help="table counts to measure, comma-separated (default 50,100,200,...,600)")
    p.add_argument("--seconds", type=positive_seconds, default=10.0,
                   help="measurement time per row (default 10)")
    p.add_argument("--think", type=think_range, default=(1.0, 3.0), metavar="MIN,MAX",
                   help="a simulated person's think time before each move, seconds "
                        "(default 1,3)")
    p.add_argument("--refine", type=whole_number(0, 10), default=2,
                   help="extra rows bisecting between the largest passing and the smallest "
                        "failing table count (default 2)")
    p.add_argument("--workers", type=whole_number(1, 64), default=1,
                   help="the server's computer-player worker processes (default 1)")
    p.add_argument("--strong-tables", type=whole_number(0, 5000), default=50,
                   help="tables for the strongest-level run (default 50; 0 skips it)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="the server's database (default: a temporary SQLite file)")
    p.add_argument("--processes", type=whole_number(1, 64), default=1, metavar="N",
                   help="server processes on the one database (needs --db postgresql://…), "
                        "each on its own port, new tables spread over them in turn; the CPU "
                        "per move is all of theirs together (default 1)")
    p.add_argument("--hop-tables", type=whole_number(0, 1000), default=20, metavar="N",
                   help="with --processes over 1: two-person tables timing a move that "
                        "crosses processes against one that does not (default 20; 0 skips it)")
    p.add_argument("--seed", type=int, default=0, help="seed of the simulated people")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401

        from euchre.web.levels import strongest_level
        from euchre.web.loadgen import BenchPlan, run_bench
    except ImportError as exc:
        print(f"euchre bench server: needs the web extra ({exc.name} is missing): "
              "pip install 'euchre[web]'", file=sys.stderr)
        return 1
    if args.db is not None and not args.db.startswith(("sqlite:///", "postgresql://",
                                                        "postgres://")):
        print(f"euchre bench server: --db must be a sqlite:/// or postgresql:// URL, not "
              f"{args.db!r}", file=sys.stderr)
        return 2
    if args.processes > 1 and not (args.db or "").startswith(("postgresql://", "postgres://")):
        print(f"euchre bench server: --processes {args.processes} needs --db postgresql://… "
              "(the processes share one database; SQLite lets one process write)",
              file=sys.stderr)
        return 2
    plan = BenchPlan(args.tables, args.seconds, args.think, args.refine, args.workers,
                     args.strong_tables, args.db, args.seed, args.processes, args.hop_tables)
    main = run_bench(plan, strongest_level())
    try:
        import uvloop

        return uvloop.run(main)
    except ImportError:
        return asyncio.run(main)
