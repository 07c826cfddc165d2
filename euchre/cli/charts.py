"""``euchre charts``: order-up heat maps and a CSV, computed on every core.

Wiring only: :mod:`euchre.analysis.charts` does the work. The heat maps need matplotlib (the
``[plot]`` extra); without it the CSV is still written and the command says how to get the PNGs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from euchre.cli import Subparsers, whole_number
from euchre.cli.play import add_rules_arguments, build_rules
from euchre.errors import RulesError


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "charts", help="order-up heat maps (PNG) and CSV by seat and hand class",
        description="Expected points of ordering up versus passing, by seat (eldest, second, "
                    "third, dealer) and hand class (trumps held, bowers, off-suit aces, the "
                    "up-card's rank), over sampled deals played out by the search player's "
                    "rollout policy. Writes order_up.csv and three PNG heat maps.")
    p.add_argument("--deals", type=whole_number(1, 10_000_000), default=20_000, metavar="N",
                   help="deals to walk through (20000)")
    p.add_argument("--jobs", type=whole_number(1, 512), default=None, metavar="N",
                   help="processes (every core)")
    p.add_argument("--out", default="charts", metavar="DIR", help="output folder (charts)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (0)")
    p.add_argument("--dpi", type=whole_number(20, 600), default=80, help="PNG resolution (80)")
    p.add_argument("--no-png", action="store_true", help="write only the CSV")
    add_rules_arguments(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from euchre.analysis.charts import compute, draw_charts, write_csv

    try:
        rules = build_rules(args)
    except RulesError as exc:
        print(f"euchre charts: {exc}", file=sys.stderr)
        return 2
    if rules.players != 4:
        print("euchre charts: the charts are for four players (eldest, second, third, dealer)",
              file=sys.stderr)
        return 2
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"euchre charts: cannot create {out}: {exc.strerror}", file=sys.stderr)
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"deals ({jobs} processes)", total=args.deals)
        data = compute(rules, args.deals, args.seed, jobs,
                       progress=lambda k: bar.advance(task, k))
    write_csv(data, out / "order_up.csv")
    print(f"wrote {out / 'order_up.csv'} ({len(data.cells)} cells, {data.deals} deals)")
    if args.no_png:
        return 0
    try:
        paths = draw_charts(data, out, dpi=args.dpi)
    except ImportError:
        print("euchre charts: the PNG heat maps need matplotlib: pip install 'euchre[plot]'",
              file=sys.stderr)
        return 1
    for p in paths:
        print(f"wrote {p}")
    return 0
