"""``euchre stats``: the player's record across terminal games (see :mod:`euchre.tui.stats`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from euchre.cli import Subparsers


def register(sub: Subparsers) -> None:
    p = sub.add_parser("stats", help="your games won, hands made and euchred, loners, by rules")
    p.add_argument("--file", metavar="PATH", default=None,
                   help="the statistics file (default: stats.json in your user data folder, "
                        "$XDG_DATA_HOME/euchre on Linux)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from euchre.tui.stats import StatsError, default_path, load, table

    path = Path(args.file) if args.file else default_path()
    try:
        stats = load(path)
    except StatsError as exc:
        print(f"euchre stats: {exc}", file=sys.stderr)
        return 1
    print(f"Statistics from {path}")
    print("\n".join(table(stats)))
    return 0
