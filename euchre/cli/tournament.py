"""``euchre tournament A B``: two players over duplicate deals, with 95% confidence intervals.

Wiring only: the work is :mod:`euchre.tournament`. Rules flags are ``euchre play``'s own
(:func:`euchre.cli.play.add_rules_arguments`), so both commands always accept the same rules.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import signal
import sys
from typing import Any

from euchre.bots.protocol import DEFAULT_MOVE_TIME, BotFault, BotProcess
from euchre.cli import Subparsers, whole_number
from euchre.cli.play import _think, add_rules_arguments, build_rules
from euchre.errors import RulesError
from euchre.tournament import (
    BACKENDS,
    PEER_ISMCTS,
    PEER_MCTS,
    PEERS,
    PlayerSpec,
    RunningMeanCI,
    TournamentSpec,
    UnitResult,
    default_workers,
    parse_player,
    plot,
    run,
    to_json,
    to_text,
)

PROG = "euchre tournament"


def _player(text: str) -> PlayerSpec:
    try:
        return parse_player(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "tournament", help="two players over duplicate deals, with confidence intervals",
        description=(
            "Play two players against each other on duplicate deals: every deal is replayed "
            "with the cards swapped between the sides (with three players, each player sits "
            "alone in each seat against the other), so the luck of the deal cancels. Prints "
            "each side's points per hand with a 95% confidence interval and the margin between "
            "them, and each player's time per decision (p50, p95, max). A player "
            "is a level (rule, random, ...) with optional KEY=VALUE options passed to "
            "make_bot (search:think=100), a plug-in package.module:factory, "
            "'cmd:COMMAND LINE' for a program speaking the bot protocol "
            "(docs/writing-a-bot.md), openspiel:ismcts[:sims=N] "
            f"({PEER_ISMCTS}) for OpenSpiel's ISMCTS bot, or {PEER_MCTS}[:sims=N|ms=T,worlds=20] "
            "for its MCTS bot searching honestly sampled worlds, both refereed by OpenSpiel's own "
            "euchre (docs/tournaments.md). A "
            "bot that breaks down forfeits the deal (or game) and the run carries on. Ctrl-C "
            "stops and prints the result so far."),
    )
    p.add_argument("contestants", nargs=2, type=_player, metavar="PLAYER",
                   help="the two players, e.g. rule random")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--hands", type=whole_number(1, 100_000_000), default=None,
                      help="hands to play in all, every seating counted (10000)")
    size.add_argument("--games", type=whole_number(1, 10_000_000), default=None,
                      help="games to the target to play, each from every seating")
    p.add_argument("--seed", type=int, default=0, help="master seed: the same seed, the same "
                   "result, whatever the workers or backend (0)")
    play = p.add_argument_group("players")
    play.add_argument("--think", type=_think, default=None, metavar="BUDGET",
                      help="both players' thinking budget unless one names its own "
                           "(search:think=...): deals per decision (200; the same seed, the "
                           "same result) or a time per decision (0.5s)")
    play.add_argument("--paired-seeds", action="store_true",
                      help="each seat's bot keeps its seed in every seating, so players that "
                           "decide alike play identical hands and only their differences "
                           "count (search against pimc-naive)")
    play.add_argument("--move-time", type=move_seconds, default=None, metavar="SECONDS",
                      help="how long a cmd: bot may think per decision before it forfeits "
                           f"the deal ({DEFAULT_MOVE_TIME:g})")
    play.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                      help="time decisions by wall clock or by the deciding thread's CPU "
                           "time, which other programs on a busy machine do not inflate (wall)")
    run_g = p.add_argument_group("running")
    run_g.add_argument("--workers", type=whole_number(1, 1024), default=None,
                       help=f"worker processes (all {default_workers()} cores)")
    run_g.add_argument("--backend", choices=BACKENDS, default="processes",
                       help="processes on this machine, or Ray (the ray extra)")
    run_g.add_argument("--address", default=None,
                       help="with --backend ray: an existing cluster's address (default: "
                            "start a local Ray)")
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true",
                     help="print the result as JSON (schema in euchre/tournament/report.py)")
    out.add_argument("--plot", metavar="FILE.png", default=None,
                     help="draw the running margin with its 95%% band (the plot extra)")
    out.add_argument("--split", action="store_true",
                     help="also bin the margin by where each deal's two seatings first "
                          "differed (round one, dealer; trick 2, eldest; ...): which "
                          "decisions the edge comes from (hands mode, our bots)")
    out.add_argument("--quiet", action="store_true", help="no progress bar")
    add_rules_arguments(p, default_preset=None)
    p.set_defaults(func=run_tournament)


def move_seconds(text: str) -> float:
    """--move-time: a finite number of seconds (nan and inf parse as floats)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.01 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"must be 0.01 to 3600 seconds, not {text!r}")
    return value


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


def _check_players(players: list[PlayerSpec], rules: Any, think: str | None) -> str | None:
    """Why these players cannot play, or None."""
    peers = [p for p in players if p.is_peer]
    if len(peers) == 2:
        return (f"only one side may be an OpenSpiel peer ({', '.join(PEERS)}): it plays "
                "against a bot of ours")
    for p in players:
        if p.is_peer:
            from euchre.tournament.openspiel_peer import check_peer

            problem = check_peer(p, rules)
            if problem:
                return problem
            continue
        try:
            p.make(0, think)
        except ValueError as exc:
            return str(exc)
        except TypeError as exc:
            return f"player {p.label!r}: the bot does not take these options ({exc})"
        if p.is_program:
            probe = BotProcess(p.name.partition(":")[2])
            try:  # a mistyped command is one line now, not a forfeit of every deal
                probe.start()
            except BotFault as fault:
                return str(fault)
            finally:
                probe.stop()
    return None


class ProgressBar:
    """A Rich progress bar with ETA and the running margin, on stderr when it is a terminal.

    Feed it each :class:`UnitResult` through :meth:`update` (``run``'s ``on_result``); its
    ``margin`` is the same running interval the final report prints."""

    def __init__(self, total: int, names: list[str], games: bool) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.names = names
        self.games = games
        self.margin = RunningMeanCI()
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("games" if games else "hands"), TimeElapsedColumn(), TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True), transient=True,
        )
        self.task = self.progress.add_task(f"{names[0]} vs {names[1]}", total=total)

    def __enter__(self) -> ProgressBar:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def update(self, r: UnitResult) -> None:
        self.margin.add(r.margin)
        desc = f"{self.names[0]} vs {self.names[1]}  margin {self.margin.mean:+.3f}"
        if self.margin.n > 1:
            desc += f" ± {self.margin.half_width:.3f}"
        step = r.games if self.games else r.hands
        self.progress.update(self.task, advance=step, description=desc)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run_tournament(args: argparse.Namespace) -> int:
    players: list[PlayerSpec] = list(args.contestants)
    peer = any(p.is_peer for p in players)
    if args.preset is None:
        args.preset = "openspiel" if peer else "standard"
    try:
        rules = build_rules(args)
    except RulesError as exc:
        return _fail(str(exc))
    if args.address and args.backend != "ray":
        return _fail("--address names a Ray cluster: use it with --backend ray")
    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        return _fail("--backend ray needs Ray: pip install 'euchre[ray]'")
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        return _fail("--plot needs matplotlib: pip install 'euchre[plot]'")
    if args.plot and not args.plot.lower().endswith(".png"):
        return _fail(f"--plot writes a PNG file: name it FILE.png, not {args.plot!r}")
    if peer and args.games:
        return _fail("the OpenSpiel peers play OpenSpiel's one-hand game: use --hands, not "
                     "--games")
    if args.split and (args.games or peer or rules.players == 3):
        why = ("a game's seatings differ in many hands" if args.games else
               "the OpenSpiel peers play in OpenSpiel's game" if peer else
               "cutthroat plays each deal from six seatings")
        return _fail(f"--split compares the two seatings of a deal, hand by hand: {why}")
    problem = _check_players(players, rules, args.think)
    if problem:
        return _fail(problem)
    if peer:
        from euchre.tournament.openspiel_peer import resolve_time_budget

        resolved = [resolve_time_budget(p, rules) for p in players]
        for old, new in zip(players, resolved, strict=True):
            if new != old and not args.quiet:
                print(f"{PROG}: {old.label} is {new.label} on this machine", file=sys.stderr)
        players = resolved
    spec = TournamentSpec((players[0], players[1]), rules, args.seed, games=bool(args.games),
                          think=args.think, paired_seeds=args.paired_seeds,
                          move_time=args.move_time, clock=args.clock)
    seatings = len(spec.seatings)
    units = args.games if args.games else math.ceil((args.hands or 10000) / seatings)
    workers = args.workers or default_workers()
    names = [p.label for p in players]
    show_bar = not args.quiet and sys.stderr.isatty()
    if not args.quiet and not show_bar:
        print(f"{PROG}: {names[0]} vs {names[1]}, {units} {'games' if args.games else 'deals'} "
              f"x {seatings} seatings on {workers} worker{'s' if workers > 1 else ''} "
              f"({args.backend})", file=sys.stderr, flush=True)
    # A run in the background (`nohup ... &`) starts with Ctrl-C's signal ignored, so `kill`
    # (SIGTERM) stops it the same way: the workers end and the result so far is printed.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        if show_bar:
            with ProgressBar(units * seatings, names, bool(args.games)) as bar:
                outcome = run(spec, units, workers=workers, backend=args.backend,
                              address=args.address, on_result=bar.update)
        else:
            outcome = run(spec, units, workers=workers, backend=args.backend,
                          address=args.address)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if args.json:
        print(json.dumps(to_json(outcome), indent=2))
    else:
        print(to_text(outcome, with_split=args.split))
    if args.plot:
        try:
            plot(outcome, args.plot)
        except (OSError, ValueError) as exc:
            print(f"{PROG}: could not write the plot {args.plot!r}: {exc}", file=sys.stderr)
            return 1
    return 130 if outcome.interrupted else 0
