"""``euchre play``: a game at the terminal, or ``--watch`` four computer players.

Every rules option of the engine is a flag layered over ``--preset``, generated from the
option's declaration (:meth:`euchre.rules.Rules.options`: its help, choices or range); the
engine's own checks decide what combinations are possible, and their message is what the user
sees (exit status 2), so the command line never drifts from the rules it drives.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from euchre.bots import check_spec, is_level, player_levels
from euchre.cli import Subparsers, whole_number
from euchre.errors import RulesError, quote
from euchre.match import Match
from euchre.rules import PLAYER_COUNTS, PRESETS, Option, Rules, Scoring, preset

#: The longest pause after a computer move that --delay accepts.
MAX_DELAY = 60.0

#: A --scoring value: ASCII digits only (``str.isdigit`` also accepts "²" and "٣"), and short.
_POINTS = re.compile(r"[0-9]{1,6}")

#: Options whose flag is a plain switch, not a --flag/--no-flag pair: argparse reads any
#: "--no-..." spelling as "off", so "--no-no-ace-no-face" would be nonsense.
_SWITCHES = ("no_ace_no_face",)


def register(sub: Subparsers) -> None:
    play = sub.add_parser("play", help="play a game in the terminal (or --watch the computer)")
    add_play_arguments(play)


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Play Euchre at the terminal: you sit South with a computer partner against two "
        "computer opponents (with --players 2 or 3 you are Player 1). Type an option's number "
        "or its notation (JH, pass, order alone, call S); 'hint' asks the computer for advice, "
        "'last' shows the last trick, 'quit' offers to save."
    )
    add_rules_arguments(p)
    g = p.add_argument_group("game")
    g.add_argument("--seed", type=int, default=None,
                   help="seed of the shuffles: the same seed deals the same game")
    g.add_argument("--watch", action="store_true",
                   help="watch four computer players (a demo; readable when piped to a file)")
    g.add_argument("--resume", metavar="FILE", default=None,
                   help="continue a game saved with 'quit' (its rules come from the file)")
    g.add_argument("--save", metavar="FILE", default=None,
                   help="save the finished game as a record 'euchre replay' reads")
    add_level_arguments(g)
    d = p.add_argument_group("display")
    d.add_argument("--delay", type=float, default=0.6, metavar="SECONDS",
                   help="pause after each computer move (0.6; 0 for instant)")
    d.add_argument("--ascii", action="store_true",
                   help="plain ASCII: suits as the letters C D H S, no box drawing")
    d.add_argument("--no-color", action="store_true", help="no colours")
    d.add_argument("--markers", choices=("5-6", "5-4"), default="5-6",
                   help="score cards beside the score, for games to 10: the 5 and 6 (a 6's "
                        "pips under a face-down 5) or the older 5 and 4")
    add_convenience_arguments(p, d)
    p.set_defaults(func=run_play)


def add_rules_arguments(p: argparse.ArgumentParser,
                        default_preset: str | None = "standard") -> None:
    """The rules flags (``--preset`` and one flag per option), shared by every command that
    sets up games; :func:`build_rules` reads them back. Each flag, its values and its help
    come from the option's declaration (:meth:`Rules.options`)."""
    r = p.add_argument_group("rules (each flag changes one option of --preset; impossible "
                             "mixes are refused with the reason)")
    standard = PRESETS["standard"]
    shown = [f"{name}: {', '.join(w for _, w in rules.differences(standard))}"
             if name != "standard" else name for name, rules in PRESETS.items()]
    r.add_argument("--preset", choices=sorted(PRESETS), default=default_preset,
                   help=f"named rule set ({default_preset or 'standard'}): " + "; ".join(shown))
    for o in Rules.options():
        flag = "--" + o.name.replace("_", "-")
        text = _flag_help(o, standard)
        if o.kind == "group":
            items = "; ".join(f"{g.name}={g.default}: {_lower(g.help)}" for g in o.fields)
            lo, hi = o.fields[0].min, o.fields[0].max
            r.add_argument("--scoring", action="append", default=[], metavar="FIELD=N",
                           help=f"{_lower(o.help)}: change one value to a whole number "
                                f"{lo}..{hi} (repeatable, e.g. --scoring euchre=3); {items}")
        elif o.kind == "bool" and o.name in _SWITCHES:
            r.add_argument(flag, dest=o.name, action="store_const", const=True, default=None,
                           help=text)
        elif o.kind == "bool":
            r.add_argument(flag, dest=o.name, default=None,
                           action=argparse.BooleanOptionalAction, help=text)
        elif o.kind == "int":
            assert o.min is not None and o.max is not None
            r.add_argument(flag, dest=o.name, type=whole_number(o.min, o.max), default=None,
                           metavar=o.unit.upper() or "N", help=text)
        else:
            r.add_argument(flag, dest=o.name, type=_choice_type(o), default=None,
                           metavar="{" + ",".join(map(str, o.choices)) + "}", help=text)


def _lower(text: str) -> str:
    """A help sentence as an argparse line starts: "In round one" -> "in round one" (but
    "OpenSpiel ..." stays)."""
    first = text.split(" ", 1)[0]
    return text if sum(c.isupper() for c in first) > 1 else text[:1].lower() + text[1:]


def _flag_help(o: Option, standard: Rules) -> str:
    """The option's help, where it applies, and its value in the standard game."""
    value = getattr(standard, o.name)
    if o.kind == "bool":
        shown = "on" if value else "off"
    elif o.kind == "int":
        shown = str(value)
    else:
        shown = str(o.describe(value) if o.kind == "group" else value)
    only = ("" if o.players == PLAYER_COUNTS
            else f"; with {' or '.join(map(str, o.players))} players only")
    return f"{_lower(o.help)} (standard: {shown}{only})"


def _choice_type(o: Option) -> Callable[[str], Any]:
    """An argparse type for a choice option: a number for a count, a word otherwise (a dash
    for an underscore too: ``black-jack``), refused with the option's allowed values."""

    def parse(text: str) -> Any:
        for c in o.choices:
            if str(c) == text.replace("-", "_"):
                return c
        raise argparse.ArgumentTypeError(f"must be {o.allowed()}, not {quote(text)}")

    return parse


def level_spec(text: str) -> str:
    """A --level/--partner/--opponents value: a level or any bot spec make_bot accepts."""
    try:
        check_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if text.startswith("openspiel:"):
        raise argparse.ArgumentTypeError(f"{text!r} plays only in euchre tournament")
    return text


def add_level_arguments(g: Any) -> None:
    """--level, --partner, --opponents and --think: who the computer players are."""
    from euchre.bots import DEFAULT_LEVEL

    levels = ", ".join(player_levels())
    g.add_argument("--level", type=level_spec, default=None, metavar="LEVEL",
                   help=f"every computer player's level ({DEFAULT_LEVEL}): {levels} (--levels "
                        "says how strong each is and how it plays); or your own bot: "
                        "package.module:factory, file.py:factory or 'cmd:COMMAND LINE' "
                        "(docs/writing-a-bot.md)")
    g.add_argument("--levels", action=_ShowLevels, nargs=0,
                   help="list the levels with their ratings and how each plays, and exit")
    g.add_argument("--partner", type=level_spec, default=None, metavar="LEVEL",
                   help="your computer partner's level (--level)")
    g.add_argument("--opponents", type=level_spec, default=None, metavar="LEVEL",
                   help="the computer opponents' level (--level)")
    g.add_argument("--think", type=_think, default=None, metavar="BUDGET",
                   help="how hard the search players think: deals per decision (e.g. 200; "
                        "the same seed plays the same game) or a time per decision (0.5s)")


class _ShowLevels(argparse.Action):
    """``--levels``: the ladder a person picks from, each level with its measured rating (95%
    interval, on the scale of ``euchre rate``) and a line on how it plays; then exit."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from euchre.bots.registry import ladder_rating, levels

        print("The computer levels, weakest first (ratings on the players' scale, where a "
              "newcomer starts at 1500):")
        for name in player_levels():
            rating = ladder_rating(name)
            shown = f"{rating.mu:5.0f} ± {rating.half_width:3.0f}" if rating else "unrated"
            print(f"  {name:<10} {shown}  {levels()[name].summary}")
        others = [n for n, lv in levels().items() if not lv.for_players and lv.same_as]
        if others:
            print("Also by their players' names: " + ", ".join(
                f"{n} (the {levels()[n].same_as} level)" for n in others) + ".")
        parser.exit()


def _think(text: str) -> str:
    from euchre.bots.search import parse_think

    try:
        parse_think(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def resolve_levels(args: argparse.Namespace) -> None:
    """Fill --partner and --opponents from --level (then the default level)."""
    from euchre.bots import DEFAULT_LEVEL

    level = args.level or DEFAULT_LEVEL
    args.partner = args.partner or level
    args.opponents = args.opponents or level


def take_over_broken_bots(think: object) -> None:
    """A ``cmd:`` bot that breaks down mid-game hands its seat to the default computer, with
    a one-line message, instead of ending the game (its stderr is in its log file)."""
    from euchre.bots import DEFAULT_LEVEL, make_bot
    from euchre.bots.protocol import set_fault_handler

    def take_over(diagnosis: str, view: Any) -> Any:
        print(f"euchre play: {diagnosis}. The {DEFAULT_LEVEL} player takes the seat over.",
              file=sys.stderr, flush=True)
        return make_bot(DEFAULT_LEVEL, view.seat, think=think)

    set_fault_handler(take_over)


def hold_seconds(text: str) -> float:
    """--hold: a finite pause like --delay's (nan and inf parse as floats, and never end)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= MAX_DELAY:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_DELAY:g} seconds, not {text}")
    return value


def add_convenience_arguments(p: argparse.ArgumentParser, display: Any) -> None:
    """Flags of the table's conveniences (kept apart so the rules and bot flags stay put)."""
    display.add_argument("--hold", type=hold_seconds, default=None, metavar="SECONDS",
                         help="how long a finished trick stays on the table (at least --delay; "
                              "default 2.5 x --delay)")
    display.add_argument("--autoplay", action=argparse.BooleanOptionalAction, default=True,
                         help="play your only legal card for you after a short pause (on)")
    p.add_argument("--rated", action="store_true",
                   help="a rated game: 'undo' is off (it is on against the computer otherwise)")


def build_rules(args: argparse.Namespace) -> Rules:
    """The preset with every given flag applied; raises RulesError for impossible mixes. A new
    --players re-derives going alone unless --going-alone was given (:meth:`Rules.replace`)."""
    base = preset(args.preset or "standard")
    changes: dict[str, Any] = {}
    for o in Rules.options():
        value = getattr(args, o.name)
        if o.kind != "group" and value is not None:
            changes[o.name] = value
    if args.scoring:
        sc: dict[str, int] = {}
        known = {f.name for f in fields(Scoring)}
        for item in args.scoring:
            key, _, val = item.partition("=")
            key = key.strip().replace("-", "_")
            if key not in known or not _POINTS.fullmatch(val.strip()):
                raise RulesError(f"--scoring {quote(item)}: write FIELD=N with N a whole "
                                 "number and FIELD one of " + ", ".join(sorted(known)))
            sc[key] = int(val.strip())
        changes["scoring"] = replace(base.scoring, **sc)
    return base.replace(**changes) if changes else base


def _seats(rules: Rules, args: argparse.Namespace) -> list[str]:
    from euchre.tui import HUMAN, human_seat

    n = rules.players
    me = human_seat(n)
    seats = []
    for s in range(n):
        ally = s == me or (n == 4 and s == (me + 2) % 4)
        if s == me and not args.watch:
            seats.append(HUMAN)
        else:
            seats.append(args.partner if ally else args.opponents)
    return seats


def _resume_seats(names: list[str] | None, rules: Rules,
                  args: argparse.Namespace) -> tuple[list[str], str]:
    """Who sits where in a resumed game, and a note when the record's seating is not used.

    A record written by the library may name people ("alice") rather than computer players;
    those seats cannot be filled as written, so the game is seated as a new one would be (you
    in your usual seat) and the note says so."""
    from euchre.tui import HUMAN

    if names is None:
        return _seats(rules, args), ""
    if all(n == HUMAN or is_level(n) for n in names):
        return names, ""
    shown = ", ".join(quote(n, 24) for n in names)
    return _seats(rules, args), (f"The saved players ({shown}) are not 'human' and computer "
                                 "players, so you take your usual seat against the computer.")


def run_play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from euchre.cli.replay import RecordFileError, read_record_file
    from euchre.tui import (
        HUMAN,
        GameSettings,
        TerminalGame,
        save_path_from_record,
        seats_from_record,
    )

    resolve_levels(args)
    take_over_broken_bots(args.think)
    # "nan" and "inf" parse as floats; a sleep of either fails (or never ends) mid-game.
    if not 0 <= args.delay <= MAX_DELAY:
        print(f"euchre play: --delay must be 0 to {MAX_DELAY:g} seconds, not {args.delay:g}",
              file=sys.stderr)
        return 2
    for flag, path in (("--resume", args.resume), ("--save", args.save)):
        # A file name is echoed in later messages: one with control characters could drive
        # the terminal, so it is refused before anything is read or written.
        if path is not None and (not path or not path.isprintable()):
            print(f"euchre play: {flag} {quote(path)}: a file name must be printable text",
                  file=sys.stderr)
            return 2
    note = ""
    save = args.save
    if args.resume:
        try:
            match, text = read_record_file(args.resume, "is not a saved game")
        except RecordFileError as exc:
            print(f"euchre play: {exc}", file=sys.stderr)
            return exc.status
        rules = match.rules
        seats, note = _resume_seats(seats_from_record(text, rules.players), rules, args)
        if args.watch:
            seats = [args.opponents if s == HUMAN else s for s in seats]
        title = "resumed"
        if save is None and not match.is_terminal():  # the --save the game was started with
            save = save_path_from_record(text)
    else:
        try:
            rules = build_rules(args)
        except RulesError as exc:
            print(f"euchre play: {exc}", file=sys.stderr)
            return 2
        match = Match(rules, seed=args.seed)
        seats = _seats(rules, args)
        title = args.preset
    # One column narrower than the screen (at most 79): a full-width line makes some terminals
    # wrap, and the table is drawn for 80 columns.
    columns = shutil.get_terminal_size((80, 24)).columns
    console = Console(no_color=args.no_color, highlight=False, emoji=False,
                      width=max(39, min(columns, 80) - 1))
    settings = GameSettings(
        seats=seats, delay=args.delay, ascii=args.ascii, save_path=save, title=title,
        bot_seed=match.seed, think=args.think,
    )
    table_settings(settings, args)
    game = TerminalGame(match, settings, console)
    if note:
        console.print(note)
    if match.is_terminal():
        console.print("That game is already over.")
        with contextlib.suppress(EOFError):  # end of input at the save prompt: just stop
            game.end_of_game()
        return 0
    return game.run()


def rated_record(text: str) -> bool:
    """Whether a saved game was marked rated (it stays rated when resumed)."""
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("rated") is True


def table_settings(settings: Any, args: argparse.Namespace) -> None:
    """The table's conveniences: trick hold, autoplay, undo, statistics, the resume hint."""
    import os

    from euchre.tui.stats import default_path

    settings.title = None  # the rules in words, from the rules themselves (resumed games too)
    settings.markers = args.markers
    settings.hold = args.hold
    settings.autoplay = args.autoplay
    settings.rated = args.rated
    if args.resume:  # a rated game stays rated when resumed (the file was read just before)
        with contextlib.suppress(OSError, UnicodeDecodeError):
            settings.rated = settings.rated or rated_record(
                Path(args.resume).read_text(encoding="utf-8"))
    # "make play" sets EUCHRE_LAUNCHER, so a saved game says to resume with "make play ARGS=..."
    settings.launcher = os.environ.get("EUCHRE_LAUNCHER") or launcher_command()
    if not args.watch:
        settings.stats_path = default_path()
    # Bytes that are not UTF-8 at a prompt read as a replacement character, not a traceback.
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")


def launcher_command() -> str:
    """How this program was started, as the player would type it again: ``euchre play`` when
    that is what the PATH finds, else the path used (``.venv/bin/euchre play``), or ``python
    -m euchre play``."""
    import os
    import shlex

    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else "euchre"
    if os.path.basename(argv0) == "__main__.py":
        return "python -m euchre play"
    found = shutil.which("euchre")
    with contextlib.suppress(OSError):
        if found and os.path.samefile(found, argv0):
            return "euchre play"
    return f"{shlex.quote(argv0)} play"
