"""The ``euchre`` command: play, watch, replay, bench. A thin client of the library."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from euchre.rules import PRESETS


def _replay(args: argparse.Namespace) -> int:
    from euchre.cli.replay import RecordFileError, describe_record, read_record_file

    try:
        match, _ = read_record_file(args.file)
    except RecordFileError as exc:
        print(f"euchre replay: {exc}", file=sys.stderr)
        return exc.status
    print(describe_record(match, verbose=not args.quiet))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from euchre.cli.bench import run_engine_bench

    if args.what == "engine":
        print(run_engine_bench(args.seconds, args.preset, args.seed))
    return 0


def _positive_seconds(text: str) -> float:
    """A measurement time: a finite number of seconds worth measuring."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.1 <= value <= 3600:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be between 0.1 and 3600 seconds, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="euchre",
        description="Euchre: play in the terminal, replay records, measure speed.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    from euchre.cli.play import add_play_arguments

    play = sub.add_parser("play", help="play a game in the terminal (or --watch the computer)")
    add_play_arguments(play)

    rp = sub.add_parser("replay", help="validate a game record and print its hands and score")
    rp.add_argument("file", help="a JSON record written by 'euchre play' or the library")
    rp.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    rp.set_defaults(func=_replay)

    bp = sub.add_parser("bench", help="measure speed against a named peer in the same run")
    bp.add_argument("what", choices=["engine"], help="engine: random full hands per second")
    bp.add_argument("--seconds", type=_positive_seconds, default=5.0,
                    help="time per measurement, 0.1 to 3600 (5)")
    bp.add_argument("--preset", choices=sorted(PRESETS), default="standard",
                    help="rules preset for our engine (standard)")
    bp.add_argument("--seed", type=int, default=0, help="random seed (0)")
    bp.set_defaults(func=_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc: int = args.func(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return rc


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
