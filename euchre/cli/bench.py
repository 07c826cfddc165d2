"""``euchre bench KIND``: speed measured against a named peer in the same run.

Each kind is its own module (``euchre.cli.bench_<kind>``, listed in ``BENCH_MODULES``) that adds
its parser to the subparsers given here, so measurements stay independent of each other.
"""

from __future__ import annotations

import importlib

from euchre.cli import BENCH_MODULES, Subparsers


def register(sub: Subparsers) -> None:
    bp = sub.add_parser("bench", help="measure speed against a named peer in the same run")
    kinds = bp.add_subparsers(dest="what", required=True, metavar="KIND")
    for name in BENCH_MODULES:
        importlib.import_module(f"euchre.cli.bench_{name}").register(kinds)
