"""``euchre train bidding``: simulate deals and fit the learned bidding model."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

from euchre.cli import Subparsers, whole_number

PROG = "euchre train"


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "train", help="train the learned bidding model from simulated deals",
        description=(
            "Train the learned bidding: simulate deals (every bid option of each bidding "
            "decision played out on the true deal, both by honest players and double-dummy; "
            "--dd-weight blends the two), then "
            "fit one small network per bidding round. Deals are written in shards to --dir as "
            "they finish, so a stopped run resumes where it was (the same --seed and "
            "--shard-deals); the model, with its settings and a SHA-256 of its weights, goes "
            "to --out."),
    )
    p.add_argument("what", choices=("bidding",), help="what to train (bidding)")
    p.add_argument("--deals", type=whole_number(10, 100_000_000), default=120_000,
                   help="simulated deals whose every bidding decision is played out (120000)")
    p.add_argument("--round2-deals", type=whole_number(0, 100_000_000), default=400_000,
                   help="more deals of which only round two is played out (400000)")
    p.add_argument("--seed", type=whole_number(0, 2**62), default=0, help="master seed (0)")
    p.add_argument("--dir", default=None,
                   help="checkpoint folder for the simulated shards (default: a folder per "
                        "seed under ~/.cache/euchre)")
    p.add_argument("--out", default="bidding.json", help="model file to write (bidding.json)")
    p.add_argument("--shard-deals", type=whole_number(10, 1_000_000), default=500,
                   help="deals per checkpoint shard (500)")
    p.add_argument("--hidden", type=whole_number(1, 1024), default=48,
                   help="hidden units per network (48)")
    p.add_argument("--epochs", type=whole_number(1, 10_000), default=8,
                   help="passes over the data when fitting (8)")
    p.add_argument("--dd-weight", type=share, default=0.0,
                   help="the target's share of each option's double-dummy value, the rest from "
                        "honest rollouts (0: rollouts only; refitting with another share reuses "
                        "the shards)")
    p.add_argument("--later-bids", default="", metavar="MODEL",
                   help="a bidding model file whose choices make every bid but the one valued "
                        "(the earlier passes and the bids after each option), instead of the "
                        "rollout policy: one round of policy iteration ('shipped': the model "
                        "in the package)")
    p.add_argument("--workers", type=whole_number(1, 1024), default=None,
                   help=f"simulating processes (all {os.cpu_count() or 1} cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run_train)


def share(text: str) -> float:
    """A number from 0 to 1 (argparse turns the ValueError into a usage error)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, not {text!r}")
    return value


def run_train(args: argparse.Namespace) -> int:
    from euchre.training.bidding import TrainSettings, train, write_model

    later_bids = args.later_bids
    if later_bids:
        from euchre.bots.learned import load_model, shipped_model_path

        if later_bids == "shipped":
            later_bids = str(shipped_model_path())
        try:
            load_model(later_bids)
        except (OSError, ValueError) as exc:
            print(f"{PROG}: --later-bids: {exc}", file=sys.stderr)
            return 2
        later_bids = str(Path(later_bids).resolve())
    settings = TrainSettings(deals=args.deals, round2_deals=args.round2_deals, seed=args.seed,
                             shard_deals=args.shard_deals, hidden=args.hidden,
                             epochs=args.epochs, dd_weight=args.dd_weight,
                             later_bids=later_bids)
    directory = Path(args.dir) if args.dir else (
        Path.home() / ".cache" / "euchre" / f"train-bidding-s{args.seed}")
    out = Path(args.out)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if out.parent and not out.parent.exists():
            raise OSError(f"no folder {out.parent}")
    except OSError as exc:
        print(f"{PROG}: cannot write there: {exc}", file=sys.stderr)
        return 2
    workers = args.workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    if args.quiet or not sys.stderr.isatty():
        model, sim_seconds = train(directory, settings, workers)
    else:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=Console(stderr=True),
                      transient=True) as bar:
            task = bar.add_task(f"simulating deals ({workers} processes)", total=settings.deals)
            model, sim_seconds = train(directory, settings, workers,
                                       progress=lambda n: bar.advance(task, n))
    write_model(model, out)
    total = time.perf_counter() - t0
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB): {settings.deals} deals and "
          f"{settings.round2_deals} more for round two, "
          f"simulated in {sim_seconds:.0f} s, {total:.0f} s in all")
    for r in ("round1", "round2"):
        reached = model.reached[r]
        rmse = ", ".join(f"{k} {v:.2f}" for k, v in reached["rmse"].items())
        base = ", ".join(f"{v:.2f}" for v in reached["rmse_of_a_constant"].values())
        se = max(reached["standard_error"].values())
        print(f"  {r}: {reached['decisions']} decisions; held-out error {rmse} "
              f"(a constant: {base}); fit's standard error at most {se:.3f}")
    return 0
