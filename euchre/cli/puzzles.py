"""``euchre puzzles`` (mine a set from self-play) and ``euchre puzzle`` (solve one).

Wiring only: :mod:`euchre.analysis.puzzles` does the mining and checks the files.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import textwrap
from pathlib import Path

from euchre.cli import Subparsers, whole_number
from euchre.cli.play import add_rules_arguments, build_rules
from euchre.errors import RulesError


def _points(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points") from None
    if not 0.05 <= v <= 8:
        raise argparse.ArgumentTypeError(f"must be 0.05 to 8 points, not {text}")
    return v


def _say(text: str) -> None:
    """A line of the answer, folded between words at the terminal's width (a terminal left to
    wrap it cuts words in two)."""
    width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
    print(textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False))


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "puzzles", help="mine card-play puzzles from self-play into a JSON set",
        description="Play hands between rule-based players and keep the card-play positions "
                    "where exactly one card is clearly best: ahead of the next best by at "
                    "least --threshold points a hand, solved double-dummy over deals "
                    "consistent with what the player sees, and beyond the 95% interval.")
    p.add_argument("--hands", type=whole_number(1, 100_000), default=20, metavar="N",
                   help="hands of self-play (20)")
    p.add_argument("--limit", type=whole_number(1, 100_000), default=None, metavar="N",
                   help="stop after this many puzzles")
    p.add_argument("--deals", type=whole_number(8, 5000), default=None, metavar="N",
                   help="deals solved per position (48)")
    p.add_argument("--threshold", type=_points, default=None, metavar="POINTS",
                   help="the least gap between the best and second-best card (0.5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the self-play (0)")
    p.add_argument("--out", default="puzzles.json", metavar="FILE",
                   help="where to write the set (puzzles.json)")
    add_rules_arguments(p)
    p.set_defaults(func=_run_mine)

    q = sub.add_parser(
        "puzzle", help="solve a card-play puzzle in the terminal",
        description="Show a position from a puzzle set and check your card. Without --file "
                    "the set shipped with euchre is used.")
    q.add_argument("--file", default=None, metavar="FILE", help="a set from 'euchre puzzles'")
    q.add_argument("--number", type=whole_number(1, 1_000_000), default=None, metavar="N",
                   help="which puzzle (default: one at random)")
    q.add_argument("--seed", type=int, default=None, help="seed of the random pick")
    q.add_argument("--answer", default=None, metavar="CARD",
                   help="answer without being asked (e.g. AH)")
    q.add_argument("--ascii", action="store_true", help="suits as the letters C D H S")
    q.set_defaults(func=_run_pose)


def _run_mine(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from euchre.analysis.puzzles import DEFAULT_DEALS, DEFAULT_THRESHOLD, mine, puzzles_to_json

    try:
        rules = build_rules(args)
    except RulesError as exc:
        print(f"euchre puzzles: {exc}", file=sys.stderr)
        return 2
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("self-play hands", total=args.hands)
        ps = mine(rules, args.hands, args.seed, args.deals or DEFAULT_DEALS,
                  args.threshold or DEFAULT_THRESHOLD, args.limit,
                  progress=lambda k: bar.advance(task, k))
    try:
        Path(args.out).write_text(json.dumps(puzzles_to_json(ps), indent=1) + "\n",
                                  encoding="utf-8")
    except OSError as exc:
        print(f"euchre puzzles: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {len(ps.puzzles)} puzzles to {args.out}")
    return 0


def _run_pose(args: argparse.Namespace) -> int:
    from euchre.analysis.puzzles import PuzzleFileError, load_puzzles, puzzle_view
    from euchre.analysis.report import print_puzzle
    from euchre.cards import CardParseError, card_symbol, parse_card
    from euchre.tui.words import card_error

    try:
        text = None if args.file is None else Path(args.file).read_text(encoding="utf-8")
        ps = load_puzzles(text)
    except OSError as exc:
        print(f"euchre puzzle: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except (PuzzleFileError, UnicodeDecodeError) as exc:
        print(f"euchre puzzle: {args.file or 'the shipped set'}: {exc}", file=sys.stderr)
        return 1
    if not ps.puzzles:
        print("euchre puzzle: the set holds no puzzles", file=sys.stderr)
        return 1
    if args.number is not None:
        if args.number > len(ps.puzzles):
            print(f"euchre puzzle: --number must be 1..{len(ps.puzzles)}", file=sys.stderr)
            return 2
        p = ps.puzzles[args.number - 1]
    else:
        p = random.Random(args.seed).choice(ps.puzzles)
    view = puzzle_view(ps.rules, p)
    symbol = (lambda c: card_symbol(c).translate(str.maketrans("♣♦♥♠", "CDHS"))) \
        if args.ascii else card_symbol
    print_puzzle(p, view, len(ps.puzzles), symbol)
    legal = view.legal_actions
    answer = args.answer
    while True:
        if answer is None:
            try:
                answer = input("Your card: ")
            except EOFError:
                print()
                _say(f"The answer: {symbol(p.answer)}. {p.explanation}")
                return 1
        try:
            card = parse_card(answer.strip())
        except CardParseError as exc:
            _say(f"{card_error(str(exc), ps.rules)}. Type a card from your hand, e.g. "
                 f"{symbol(legal[0])}.")
            if args.answer is not None:
                return 2
            answer = None
            continue
        if card not in legal:
            _say(f"{symbol(card)} is not a card you may play here: "
                 + " ".join(symbol(c) for c in legal))
            if args.answer is not None:
                return 2
            answer = None
            continue
        break
    values = dict(p.values)
    if card == p.answer:
        _say(f"Right! {p.explanation}")
    else:
        lost = values[p.answer] - values.get(card, values[p.answer])
        _say(f"Not quite: {symbol(card)} gives up {lost:.2f} points a hand. The answer is "
             f"{symbol(p.answer)}. {p.explanation}")
    return 0
