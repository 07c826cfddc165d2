"""``euchre review RECORD``: what every decision of a game cost, worst first.

Wiring only: :func:`euchre.analysis.review.review_match` does the work. Reads any record that
``euchre replay`` reads (written by ``euchre play --save``, the library or the browser table).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from euchre.cli import Subparsers, whole_number
from euchre.cli.play import level_spec


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "review", help="what every decision of a game cost against the best choice",
        description="Review a game record: for every decision (bids, discards, card plays) "
                    "what it gave up against the best choice (the chance to win the game in "
                    "a game, points in one-hand play, or as --objective says), worst first, "
                    "with the best choice and why, each loss measured on deals apart from "
                    "those that picked the best, with its error bar. Card plays are solved "
                    "double-dummy over deals consistent with what the player saw; bids are "
                    "played out by the search player's rollout policy.")
    p.add_argument("record", metavar="RECORD",
                   help="a JSON game record (euchre play --save, the library, the browser)")
    p.add_argument("--play-deals", type=whole_number(4, 2000), default=None, metavar="N",
                   help="deals solved per card play (24)")
    p.add_argument("--bid-deals", type=whole_number(4, 2000), default=None, metavar="N",
                   help="deals played out per bid or discard (24)")
    p.add_argument("--top", type=whole_number(1, 10_000), default=15, metavar="N",
                   help="rows shown in the terminal (15; --json has every decision)")
    p.add_argument("--seat", default=None, metavar="SEAT",
                   help="only this seat's decisions: 0..3 (North, East, South, West) or "
                        "0..players-1")
    p.add_argument("--objective", choices=("points", "win"), default=None,
                   help="what a loss is measured in: the chance to win the game (the default "
                        "in a game with its score known, as the hint judges) or points a hand "
                        "(the default for one-hand play)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (0)")
    p.add_argument("--json", action="store_true", help="print JSON (docs/analysis.md)")
    p.add_argument("--puzzles", default=None, metavar="FILE",
                   help="also write the clear mistakes (of --seat, or of every seat) as a "
                        "puzzle set to replay with 'euchre puzzle --file FILE --all'")
    p.add_argument("--bot", type=level_spec, default=None, metavar="SPEC",
                   help="also ask this player (a level, package.module:factory or "
                        "'cmd:COMMAND LINE') what it would choose at each decision, and what "
                        "that would have cost")
    p.set_defaults(func=_run)


def compare_bot(rev: Any, spec: str, seed: int) -> dict[str, Any]:
    """What the player ``spec`` would choose at each reviewed decision, measured like the
    review's own choices (in the review's objective, against the review's pick, on the fresh
    deals the review measured the decision on, or on the ones it would have): how often it
    picks the best choice, and what it would have given up (a choice's loss shown when
    positive, the signed estimates added in the total)."""
    import random

    from euchre.actions import action_to_str
    from euchre.analysis.review import measure
    from euchre.bots import make_bot
    from euchre.phases import Phase

    bot = make_bot(spec, seed)
    agree = valued = 0
    loss = var = 0.0
    choices = []
    for d in sorted(rev.decisions, key=lambda d: (d.hand, d.index)):
        action = bot.choose(d.view)
        est = None
        mine = next((o for o in d.options if o.action == action), None)
        if mine is not None:
            if action == d.best or (mine.behind == 0.0 and mine.behind_se == 0.0):
                est, se = 0.0, 0.0
            elif d.values is not None and action in d.values.samples:
                est, se = d.values.diff_se(d.best, action, rev.objective)
            else:
                deals = rev.play_deals if d.phase == Phase.PLAY else rev.bid_deals
                rng = random.Random(seed * 1_000_003 + d.hand * 1000 + d.index)
                est, se, _ = measure(d.view, d.best, action, deals, rng, rev.objective,
                                     [o.action for o in d.options])
            valued += 1
            loss += est
            var += se * se
        agree += action == d.best
        choices.append({"hand": d.hand, "index": d.index, "action": action_to_str(action),
                        "loss": None if est is None else round(max(0.0, est), 4)})
    return {"spec": spec, "decisions": len(choices), "best_choices": agree,
            "valued": valued, "loss": round(loss, 4),
            "loss_ci95": round(1.96 * math.sqrt(var), 4) if math.isfinite(var) else None,
            "choices": choices}


def _run(args: argparse.Namespace) -> int:
    from euchre.analysis.review import (
        BID_DEALS,
        PLAY_DEALS,
        count_decisions,
        review_match,
        review_to_json,
        unreviewable,
    )
    from euchre.cli.replay import RecordFileError, read_record_file

    try:
        match, text = read_record_file(args.record)
    except RecordFileError as exc:
        print(f"euchre review: {exc}", file=sys.stderr)
        return exc.status
    why = unreviewable(match.rules)
    if why is not None:
        print(f"euchre review: {why}; euchre replay shows it", file=sys.stderr)
        return 2
    seats = None
    if args.seat is not None:
        from euchre.cli.advise import parse_seat

        try:
            seats = {parse_seat(args.seat, match.rules.players, "--seat")}
        except ValueError as exc:
            print(f"euchre review: {exc}", file=sys.stderr)
            return 2
    try:
        names = json.loads(text).get("players")
    except (ValueError, AttributeError):
        names = None
    from euchre.analysis.review import match_objective

    if args.objective == "win" and match_objective(match) != "win":
        print("euchre review: --objective win needs a two-sided game with its score known; "
              "this record is judged by points", file=sys.stderr)
        return 2
    total = count_decisions(match, seats)
    # The bar goes to stderr so that --json output stays clean on stdout.
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("reviewing", total=total)
        rev = review_match(match, args.play_deals or PLAY_DEALS, args.bid_deals or BID_DEALS,
                           seed=args.seed, players=names,
                           progress=lambda: bar.advance(task), objective=args.objective,
                           seats=seats)
    compared = None
    if args.bot:
        try:
            compared = compare_bot(rev, args.bot, args.seed)
        except Exception as exc:  # a plug-in's failure is reported, never a traceback
            print(f"euchre review: --bot {args.bot}: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            return 1
    if args.puzzles is not None:
        from pathlib import Path

        from euchre.analysis.puzzles import mistake_puzzles, puzzles_to_json

        ps = mistake_puzzles(rev, match, None if seats is None else min(seats),
                             {"record": args.record})
        try:
            Path(args.puzzles).write_text(json.dumps(puzzles_to_json(ps), indent=1) + "\n",
                                          encoding="utf-8")
        except OSError as exc:
            print(f"euchre review: cannot write {args.puzzles}: {exc.strerror}",
                  file=sys.stderr)
            return 2
        whose = "every seat's" if seats is None else f"{rev.players[min(seats)]}'s"
        print(f"{len(ps.puzzles)} clear mistake{'' if len(ps.puzzles) == 1 else 's'} "
              f"({whose}) written as puzzles to {args.puzzles}: replay them with "
              f"'euchre puzzle --file {args.puzzles} --all'", file=sys.stderr)
    if args.json:
        out = review_to_json(rev)
        if compared is not None:
            out["bot"] = compared
        print(json.dumps(out, indent=1))
        return 0
    from euchre.analysis.report import print_review

    print_review(rev, args.top)
    if compared is not None:
        win = rev.objective == "win"

        def amount(x: float) -> str:
            return f"{100 * x:.1f}%" if win else f"{x:.2f}"

        ci = compared["loss_ci95"]
        lost = (amount(compared["loss"]) + ("" if ci is None else f" ± {amount(ci)}")
                + (" of the chance to win the game" if win else " points")).replace("-", "−")
        print(f"  {compared['spec']} on the same {compared['decisions']} decisions: the best "
              f"choice {compared['best_choices']} times; {lost} lost in all over the "
              f"{compared['valued']} of its choices that were valued")
    return 0
