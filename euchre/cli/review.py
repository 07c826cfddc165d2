"""``euchre review RECORD``: what every decision of a game cost, worst first.

Wiring only: :func:`euchre.analysis.review.review_match` does the work. Reads any record that
``euchre replay`` reads (written by ``euchre play --save``, the library or the browser table).
"""

from __future__ import annotations

import argparse
import json
import sys

from euchre.cli import Subparsers, whole_number


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "review", help="what every decision of a game cost against the best choice",
        description="Review a game record: for every decision (bids, discards, card plays) the "
                    "expected points lost against the best choice, worst first, with the best "
                    "choice and why. Card plays are solved double-dummy over deals consistent "
                    "with what the player saw; bids are played out by the search player's "
                    "rollout policy.")
    p.add_argument("record", metavar="RECORD",
                   help="a JSON game record (euchre play --save, the library, the browser)")
    p.add_argument("--play-deals", type=whole_number(4, 2000), default=None, metavar="N",
                   help="deals solved per card play (24)")
    p.add_argument("--bid-deals", type=whole_number(4, 2000), default=None, metavar="N",
                   help="deals played out per bid or discard (24)")
    p.add_argument("--top", type=whole_number(1, 10_000), default=15, metavar="N",
                   help="rows shown in the terminal (15; --json has every decision)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (0)")
    p.add_argument("--json", action="store_true", help="print JSON (docs/analysis.md)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from euchre.analysis.review import (
        BID_DEALS,
        PLAY_DEALS,
        count_decisions,
        review_match,
        review_to_json,
    )
    from euchre.cli.replay import RecordFileError, read_record_file

    try:
        match, text = read_record_file(args.record)
    except RecordFileError as exc:
        print(f"euchre review: {exc}", file=sys.stderr)
        return exc.status
    if match.rules.rows:
        print("euchre review: this is two-handed with rows, which the review cannot analyse "
              "yet (its double-dummy solver plays five-card hands); euchre replay shows it",
              file=sys.stderr)
        return 2
    try:
        names = json.loads(text).get("players")
    except (ValueError, AttributeError):
        names = None
    total = count_decisions(match)
    # The bar goes to stderr so that --json output stays clean on stdout.
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("reviewing", total=total)
        rev = review_match(match, args.play_deals or PLAY_DEALS, args.bid_deals or BID_DEALS,
                           seed=args.seed, players=names,
                           progress=lambda: bar.advance(task))
    if args.json:
        print(json.dumps(review_to_json(rev), indent=1))
        return 0
    from euchre.analysis.report import print_review

    print_review(rev, args.top)
    return 0
