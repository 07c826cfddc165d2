"""``euchre rate SPEC``: a bot's rating on the players' scale, from duplicate games against the
rated levels; ``euchre rate --levels``: the calibration run that rates the levels themselves.

Wiring only: the work is :mod:`euchre.tournament.rate`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import signal
import sys
from pathlib import Path

from euchre.cli import Subparsers, whole_number
from euchre.cli.serve import number_in
from euchre.cli.tournament import _check_players, _interrupt, _player, move_seconds
from euchre.tournament import BACKENDS, default_workers

PROG = "euchre rate"


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "rate", help="a bot's rating on the players' scale, with its interval",
        description=(
            "Rate a bot on the scale people and computer levels share (docs/players.md): play "
            "it on duplicate deals, whole games to 10 from both seatings, against the rated "
            "levels nearest its rating so far, until the 95% interval of its rating is within "
            "--precision points, and print the rating, its interval and where it falls among "
            "the levels. SPEC is any player euchre tournament takes: a level, "
            "package.module:factory or 'cmd:COMMAND LINE' (docs/writing-a-bot.md). With "
            "--levels, run the calibration between the levels instead and write their "
            "ratings to the package's ladder file (or --output)."),
    )
    p.add_argument("spec", nargs="?", type=_player, metavar="SPEC",
                   help="the bot to rate, e.g. 'cmd:node examples/node_bot.js'")
    p.add_argument("--levels", action="store_true",
                   help="rate the levels against each other (the calibration run) instead")
    p.add_argument("--precision", type=number_in(5, 500, "rating points"), default=35.0,
                   metavar="POINTS",
                   help="stop once the 95%% interval is within ± POINTS (35)")
    p.add_argument("--max-games", type=whole_number(2, 1_000_000), default=2000,
                   help="stop after this many games in any case (2000)")
    p.add_argument("--scale", type=number_in(0.001, 100, "times the planned games"), default=1.0,
                   metavar="F",
                   help="with --levels: play F times the planned games of every pair (1)")
    p.add_argument("--output", metavar="FILE.json", default=None,
                   help="with --levels: write the ladder here instead of into the package")
    p.add_argument("--seed", type=int, default=0, help="master seed (0)")
    p.add_argument("--move-time", type=move_seconds, default=None, metavar="SECONDS",
                   help="how long a cmd: bot may think per decision")
    p.add_argument("--workers", type=whole_number(1, 1024), default=None,
                   help=f"worker processes (all {default_workers()} cores)")
    p.add_argument("--backend", choices=BACKENDS, default="processes",
                   help="processes on this machine, or Ray (the ray extra)")
    p.add_argument("--address", default=None,
                   help="with --backend ray: an existing cluster's address")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=_run)


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("openskill") is None:
        return _fail("ratings need the openskill package: pip install 'euchre[cli]'")
    if args.address and args.backend != "ray":
        return _fail("--address names a Ray cluster: use it with --backend ray")
    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        return _fail("--backend ray needs Ray: pip install 'euchre[ray]'")
    if args.levels == (args.spec is not None):
        return _fail("name a bot to rate (SPEC), or --levels to rate the levels, not both")
    if not args.levels and (args.output or args.scale != 1.0):
        return _fail("--output and --scale go with --levels")
    workers = args.workers or default_workers()
    progress = None if args.quiet else (lambda line: print(f"{PROG}: {line}", file=sys.stderr,
                                                            flush=True))
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        if args.levels:
            return _levels(args, workers, progress)
        return _rate(args, workers, progress)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _rate(args: argparse.Namespace, workers: int, progress: object) -> int:
    from euchre.rules import Rules
    from euchre.tournament.rate import rate
    from euchre.tournament.ratings import load_ladder

    problem = _check_players([args.spec], Rules(), None)
    if problem:
        return _fail(problem)
    if args.spec.is_peer:
        return _fail("the OpenSpiel peers play one hand, not games: they cannot be rated")
    try:
        ladder = load_ladder()
    except ValueError as exc:
        return _fail(f"{exc} (run euchre rate --levels)")
    try:
        result = rate(args.spec, ladder.levels, precision=args.precision,
                      max_games=args.max_games, seed=args.seed, workers=workers,
                      backend=args.backend, address=args.address, move_time=args.move_time,
                      progress=progress)  # type: ignore[arg-type]
    except ValueError as exc:
        return _fail(str(exc))
    print(json.dumps(result.to_json(), indent=2) if args.json else result.to_text())
    return 130 if result.interrupted else 0


def _levels(args: argparse.Namespace, workers: int, progress: object) -> int:
    from euchre.bots.registry import LADDER_FILE
    from euchre.tournament.rate import CALIBRATION, calibrate

    plan = [(a, b, max(1, round(sets * args.scale))) for a, b, sets in CALIBRATION]
    command = "euchre rate --levels"
    if args.scale != 1.0:
        command += f" --scale {args.scale:g}"
    if args.seed:
        command += f" --seed {args.seed}"
    if args.workers:
        command += f" --workers {args.workers}"
    try:
        ladder = calibrate(plan, seed=args.seed, workers=workers, backend=args.backend,
                           address=args.address, command=command,
                           progress=progress)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        return _fail("interrupted: the ladder was not written")
    out = Path(args.output) if args.output else LADDER_FILE
    try:
        out.write_text(json.dumps(ladder.to_dict(), indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {out}: {exc.strerror or exc}")
    if args.json:
        print(json.dumps(ladder.to_dict(), indent=2))
        return 0
    print(f"the ladder ({ladder.seconds:.0f} s on {workers} worker"
          f"{'s' if workers != 1 else ''}, anchored at {ladder.anchor} = "
          f"{ladder.anchor_rating:.0f}; written to {out}):")
    for name, r in sorted(ladder.levels.items(), key=lambda kv: kv[1].mu):
        print(f"  {name:<9} {r.mu:5.0f} ± {r.half_width:3.0f}  ({r.games} games)")
    return 0
