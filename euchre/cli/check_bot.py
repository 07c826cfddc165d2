"""``euchre check-bot SPEC``: does a bot play every situation legally, without a traceback?

Wiring only: :func:`euchre.testing.check_bot` does the work (bot authors call it from their own
tests too).
"""

from __future__ import annotations

import argparse
import json
import sys

from euchre.cli import Subparsers, whole_number
from euchre.cli.tournament import move_seconds


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "check-bot", help="check that a bot answers legally in every phase, rule set and game",
        description=(
            "Play a few hundred hands with the bot in every seat but one (a random player "
            "sits there) under every preset and player count and random mixes of rule "
            "options, then ask it in every phase a table can reach (declarations, the Joker, "
            "two-handed take or decline, the rows auction, defend alone, renege claims). "
            "Passes when every answer is legal, nothing raised, each new game after a "
            "finished one went on, and a bot that says it is deterministic played the same "
            "twice for the same seed. Prints decision times (p50, p95, max). SPEC is a level, "
            "package.module:factory, path/to/file.py:factory or 'cmd:COMMAND LINE' "
            "(docs/writing-a-bot.md)."),
    )
    p.add_argument("spec", metavar="SPEC", help="the bot, e.g. 'cmd:node examples/node_bot.js'")
    p.add_argument("--hands", type=whole_number(1, 100_000), default=300,
                   help="hands to play besides the phase drills (300)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots (0)")
    p.add_argument("--move-time", type=move_seconds, default=None, metavar="SECONDS",
                   help="how long a cmd: bot may think per decision")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from euchre.testing import check_bot

    try:
        report = check_bot(args.spec, hands=args.hands, seed=args.seed,
                           move_time=args.move_time)
    except ValueError as exc:
        print(f"euchre check-bot: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.to_text())
    return 0 if report.passed else 1
