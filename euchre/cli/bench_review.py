"""``euchre bench review``: a review's totals at several budgets, over several seeds each.

A review is right at every budget when the mean of its all-seat total over seeds is the same at
12 deals a decision as at 400 (no bias), and when the error bar it shows is the spread of
that total between seeds. This command measures both on a stored game (the one shipped for
it, or ``RECORD``): for each budget, ``--seeds`` reviews with seeds of their own (each budget
its own seeds, so the budgets are independent samples), then each budget's mean, the spread
between seeds, the standard error of the mean, and the mean error bar the reviews showed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time

from euchre.cli import Subparsers, whole_number

DEFAULT_BUDGETS = (12, 24, 200, 400)


def _budgets(text: str) -> tuple[int, ...]:
    parse = whole_number(4, 2000)
    try:
        out = tuple(parse(t.strip()) for t in text.split(","))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"budgets are deals a decision, 4..2000, separated by "
                                         f"commas (e.g. 12,24,400), not {text!r}") from None
    return out


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "review", help="a review's totals at several budgets over several seeds (bias, and "
        "error bars against the spread between seeds)",
        description="Review a stored game (the one shipped for this, or RECORD) at each "
                    "budget of --budgets deals a decision, --seeds times each with seeds of "
                    "its own, and print for each budget the mean all-seat total, the spread "
                    "between seeds, the mean's standard error, and the mean 95% error bar the "
                    "reviews showed (which should be 1.96 times the spread), and how far each "
                    "mean is from the largest budget's, in standard errors.")
    p.add_argument("record", nargs="?", default=None, metavar="RECORD",
                   help="a game record (default: the stored game shipped with euchre)")
    p.add_argument("--budgets", type=_budgets, default=DEFAULT_BUDGETS, metavar="N,N,...",
                   help="deals a decision (card plays and bids alike): 12,24,200,400")
    p.add_argument("--seeds", type=whole_number(2, 1000), default=10, metavar="N",
                   help="reviews per budget (10)")
    p.add_argument("--json", action="store_true", help="print the measurement as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from euchre.analysis.reference import stored_game
    from euchre.analysis.review import review_match, unreviewable

    if args.record is None:
        match, _ = stored_game()
        source = "the stored game"
    else:
        from euchre.cli.replay import RecordFileError, read_record_file

        try:
            match, _ = read_record_file(args.record)
        except RecordFileError as exc:
            print(f"euchre bench review: {exc}", file=sys.stderr)
            return exc.status
        source = args.record
        why = unreviewable(match.rules)
        if why is not None:
            print(f"euchre bench review: {why}", file=sys.stderr)
            return 2
    rows = []
    for k, deals in enumerate(args.budgets):
        totals, bars, seconds = [], [], []
        for s in range(args.seeds):
            start = time.perf_counter()
            rev = review_match(match, deals, deals, seed=1000 * (k + 1) + s)
            seconds.append(time.perf_counter() - start)
            totals.append(sum(d.estimate for d in rev.decisions))
            bars.append(1.96 * math.sqrt(sum(d.se ** 2 for d in rev.decisions)))
        sd = statistics.stdev(totals)
        rows.append({"deals": deals, "seeds": args.seeds, "decisions": len(rev.decisions),
                     "objective": rev.objective, "mean": statistics.mean(totals),
                     "spread": sd, "se_mean": sd / math.sqrt(args.seeds),
                     "mean_ci95": statistics.mean(bars), "seconds_median":
                     statistics.median(seconds), "totals": totals})
        print(f"{deals} deals: done", file=sys.stderr, flush=True)
    top = max(rows, key=lambda r: int(r["deals"]))
    for r in rows:
        gap = float(r["mean"]) - float(top["mean"])
        se = math.hypot(float(r["se_mean"]), float(top["se_mean"]))
        r["from_largest_se"] = 0.0 if r is top else gap / se if se else math.inf
    if args.json:
        print(json.dumps({"record": source, "budgets": rows}, indent=1))
        return 0
    win = rows[0]["objective"] == "win"
    scale, unit = (100, "%") if win else (1, "")

    def num(x: object) -> str:
        return f"{scale * float(x):+.2f}{unit}".replace("-", "−")  # type: ignore[arg-type]

    print(f"Review totals (all seats, {'the chance to win the game' if win else 'points'}) "
          f"of {source}, {rows[0]['decisions']} decisions, {args.seeds} seeds a budget:")
    for r in rows:
        print(f"  {r['deals']:>4} deals: mean {num(r['mean'])} ± {num(r['se_mean'])[1:]} "
              f"(standard error), spread between seeds {num(r['spread'])[1:]}, error bar "
              f"shown {num(r['mean_ci95'])[1:]} against 1.96 × spread "
              f"{num(1.96 * float(r['spread']))[1:]}; "
              f"{float(r['from_largest_se']):+.1f} standard errors from {top['deals']} deals; "
              f"{float(r['seconds_median']):.1f} s a review")
    return 0
