"""The ``euchre`` command. A thin client of the library: each subcommand is one module of this
package with a ``register(subparsers)`` function, so adding a command touches one line here.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

#: Subcommand modules, in the order ``euchre --help`` lists them: ``euchre.cli.<name>``, each
#: defining ``register(sub)`` that adds its parser and sets ``func`` (args -> exit status).
COMMAND_MODULES: tuple[str, ...] = ("play", "replay", "bench", "stats", "solve", "tournament",
                                      "rate", "serve", "bots", "connect", "advise", "review",
                                      "charts", "puzzles", "check_bot", "train", "train_bids",
                                      "proxy_config")

#: ``euchre bench KIND`` measurements: ``euchre.cli.bench_<kind>``, each with ``register(sub)``.
BENCH_MODULES: tuple[str, ...] = ("engine", "solver", "search", "batch", "server", "advice",
                                    "review", "bot_protocol")

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Subparsers = argparse._SubParsersAction


def positive_seconds(text: str) -> float:
    """A measurement time: a finite number of seconds worth measuring."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.1 <= value <= 3600:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be between 0.1 and 3600 seconds, not {text!r}")
    return value


def whole_number(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number lo..hi in plain ASCII digits (``int()`` would also take
    "²", "-0" or "1_0", and a 5,000-digit string costs time before the range check)."""

    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit() and len(text) <= 12) or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"must be a whole number {lo}..{hi}, not {text!r}")
        return int(text)

    return parse


def version_text() -> str:
    """``euchre --version``: the version and the build of the engine's core that runs."""
    from euchre import __version__
    from euchre._build import describe

    return f"euchre {__version__}: {describe()}, Python {sys.version.split()[0]}"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="euchre",
        description="Euchre: play in the terminal, replay records, measure speed.",
    )
    p.add_argument("--version", action="version", version=version_text(),
                   help="the version, and which build of the core runs (compiled or pure)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"euchre.cli.{name}").register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    for w in words:
        if w == "--":
            break
        # argparse drops a '--' given as an option's value (`--delay=--`) and hands the command
        # an empty list in place of the value: refuse it here, where the option is still known.
        if w.startswith("-") and w.partition("=")[2] == "--":
            parser.error(f"argument {w.partition('=')[0]}: expected a value, not '--'")
    args = parser.parse_args(words)
    try:
        rc: int = args.func(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`euchre replay BIG.json | head`): stop quietly, and point
        # stdout at /dev/null so the interpreter's own flush at exit cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return rc


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
