"""``euchre puzzles`` (mine a set from self-play) and ``euchre puzzle`` (solve one).

Wiring only: :mod:`euchre.analysis.puzzles` does the mining and checks the files.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from euchre.cli import Subparsers, whole_number
from euchre.cli.play import add_rules_arguments, build_rules
from euchre.errors import RulesError
from euchre.solver import solvable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from euchre.analysis.puzzles import Puzzle, PuzzleSet
    from euchre.view import SeatView


def _points(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points") from None
    if not 0.05 <= v <= 8:
        raise argparse.ArgumentTypeError(f"must be 0.05 to 8 points, not {text}")
    return v


def _console() -> Any:
    """The answer's console, one column short of the terminal (a line that fills the last
    column makes some terminals add a blank line); Rich folds text between words."""
    from rich.console import Console

    width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
    return Console(width=width, highlight=False, emoji=False, soft_wrap=False)


def _say(con: Any, text: str) -> None:
    from rich.text import Text

    con.print(Text(text))


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "puzzles", help="mine card-play and bidding puzzles from self-play into a JSON set",
        description="Play hands between rule-based players and keep the card-play positions "
                    "where exactly one card is clearly best: ahead of the next best by at "
                    "least --threshold points a hand, solved double-dummy over deals "
                    "consistent with what the player sees, and beyond the 95% interval; and "
                    "the bids (order up, pass, alone; round one and two) where one bid leads "
                    "every other by --threshold and beyond two standard errors, each bid "
                    "played out on the same --bid-deals deals.")
    p.add_argument("--hands", type=whole_number(1, 100_000), default=20, metavar="N",
                   help="hands of self-play (20)")
    p.add_argument("--limit", type=whole_number(1, 100_000), default=None, metavar="N",
                   help="stop after this many puzzles")
    p.add_argument("--deals", type=whole_number(8, 5000), default=None, metavar="N",
                   help="deals solved per position (48)")
    p.add_argument("--bid-deals", type=whole_number(48, 20_000), default=None, metavar="N",
                   help="deals every bid of a bidding position is played out on (800)")
    p.add_argument("--kind", choices=("play", "bid", "both"), default="both",
                   help="card-play puzzles, bidding puzzles or both (both)")
    p.add_argument("--round", choices=("1", "2", "both"), default="both",
                   help="the bidding rounds bidding puzzles come from (both)")
    p.add_argument("--threshold", type=_points, default=None, metavar="POINTS",
                   help="the least gap between the best and second-best card (0.5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the self-play (0)")
    p.add_argument("--out", default="puzzles.json", metavar="FILE",
                   help="where to write the set (puzzles.json)")
    add_rules_arguments(p)
    p.set_defaults(func=_run_mine)

    q = sub.add_parser(
        "puzzle", help="solve a card-play or bidding puzzle in the terminal",
        description="Show a position from a puzzle set and check your card. Without --file "
                    "the set shipped with euchre is used.")
    q.add_argument("--file", default=None, metavar="FILE", help="a set from 'euchre puzzles'")
    q.add_argument("--number", type=whole_number(1, 1_000_000), default=None, metavar="N",
                   help="which puzzle (default: one at random)")
    q.add_argument("--seed", type=int, default=None, help="seed of the random pick")
    q.add_argument("--kind", choices=("any", "play", "bid"), default="any",
                   help="pick at random among every puzzle (any), card-play ones or bidding "
                        "ones")
    q.add_argument("--answer", default=None, metavar="ANSWER",
                   help="answer without being asked: a card (e.g. AH) or a bid (its number, "
                        "or e.g. pass, order, 'order alone', 'call H')")
    q.add_argument("--all", action="store_true",
                   help="pose every puzzle of the set in turn (the mistakes of one's own game: "
                        "euchre review --puzzles)")
    q.add_argument("--ascii", action="store_true", help="suits as the letters C D H S")
    q.set_defaults(func=_run_pose)


def _run_mine(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from rich.console import Console
    from rich.progress import Progress

    from euchre.analysis.puzzles import (
        DEFAULT_BID_DEALS,
        DEFAULT_DEALS,
        DEFAULT_THRESHOLD,
        PuzzleSet,
        mine,
        mine_bids,
        puzzles_to_json,
    )

    try:
        rules = build_rules(args)
    except RulesError as exc:
        print(f"euchre puzzles: {exc}", file=sys.stderr)
        return 2
    threshold = args.threshold or DEFAULT_THRESHOLD
    with Progress(console=Console(stderr=True), transient=True) as bar:
        ps = PuzzleSet(rules, args.deals or DEFAULT_DEALS, threshold, ())
        if args.kind != "bid":
            task = bar.add_task("card play", total=args.hands)
            ps = mine(rules, args.hands, args.seed, args.deals or DEFAULT_DEALS, threshold,
                      args.limit, progress=lambda k: bar.advance(task, k))
        if args.kind != "play" and solvable(rules):
            bids = bar.add_task("bidding", total=args.hands)
            found = mine_bids(rules, args.hands, args.seed, args.bid_deals or DEFAULT_BID_DEALS,
                              threshold, args.limit, progress=lambda k: bar.advance(bids, k),
                              first_id=len(ps.puzzles) + 1,
                              rounds=(1, 2) if args.round == "both" else (int(args.round),))
            ps = replace(ps, puzzles=ps.puzzles + tuple(found))
    try:
        Path(args.out).write_text(json.dumps(puzzles_to_json(ps), indent=1) + "\n",
                                  encoding="utf-8")
    except OSError as exc:
        print(f"euchre puzzles: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {len(ps.puzzles)} puzzles to {args.out}")
    return 0


def _run_pose(args: argparse.Namespace) -> int:
    from euchre.analysis.puzzles import PuzzleFileError, load_puzzles

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
    if args.all:
        if args.answer is not None or args.number is not None:
            print("euchre puzzle: --all poses every puzzle in turn: give neither --answer nor "
                  "--number with it", file=sys.stderr)
            return 2
        right = 0
        for p in ps.puzzles:
            rc, ok = _pose(args, ps, p)
            if rc == 1:  # the player stopped (end of input)
                break
            right += ok
        print(f"{right} of {len(ps.puzzles)} right.")
        return 0
    if args.number is not None:
        if args.number > len(ps.puzzles):
            print(f"euchre puzzle: --number must be 1..{len(ps.puzzles)}", file=sys.stderr)
            return 2
        p = ps.puzzles[args.number - 1]
    else:
        picked = _pick(ps.puzzles, args.kind, random.Random(args.seed))
        if picked is None:
            print(f"euchre puzzle: the set holds no {args.kind} puzzles", file=sys.stderr)
            return 1
        p = picked
    return _pose(args, ps, p)[0]


def _pose(args: argparse.Namespace, ps: PuzzleSet, p: Puzzle) -> tuple[int, bool]:
    """Show ``p``, read the answer and say whether it is right: (0, right or not), or 1 when
    the input ended before an answer, 2 for a bad --answer."""
    from euchre.actions import DISCARD_BASE
    from euchre.analysis.puzzles import puzzle_view
    from euchre.analysis.report import print_puzzle
    from euchre.cards import CardParseError, card_symbol, parse_card
    from euchre.tui.words import card_error
    from euchre.words import Moment, action_words, option_words

    view = puzzle_view(ps.rules, p)
    symbol = (lambda c: card_symbol(c).translate(str.maketrans("♣♦♥♠", "CDHS"))) \
        if args.ascii else card_symbol
    con = _console()
    print_puzzle(p, view, len(ps.puzzles), symbol, con)
    legal = view.legal_actions

    def say(text: str) -> None:
        _say(con, text.translate(str.maketrans("♣♦♥♠", "CDHS")) if args.ascii else text)

    def label(a: int) -> str:
        return symbol(a) if p.kind == "play" else option_words(a, view)

    answer = args.answer
    while True:
        if answer is None:
            try:
                answer = input({"play": "Your card: ", "discard": "Your discard: "}.get(
                    p.kind, "Your bid: "))
            except EOFError:
                print()
                say(f"The answer: {label(p.answer)}. {p.explanation}")
                return 1, False
        if p.kind in ("play", "discard"):
            base = 0 if p.kind == "play" else DISCARD_BASE
            cards = [a - base for a in legal]
            try:
                choice = parse_card(answer.strip()) + base
            except CardParseError as exc:
                say(f"{card_error(str(exc), ps.rules)}. Type a card from your hand, e.g. "
                    f"{symbol(cards[0])}.")
                choice = -1
            else:
                if choice not in legal:
                    verb = "play" if p.kind == "play" else "bury"
                    say(f"{symbol(choice - base)} is not a card you may {verb} here: "
                        + " ".join(symbol(c) for c in cards))
                    choice = -1
        else:
            choice = _bid_answer(answer, view)
            if choice < 0:
                say(f"{answer.strip()!r} is not one of your bids: type its number, 1 to "
                    f"{len(legal)}, or its words ("
                    + ", ".join(action_words(a, Moment.of(view)) for a in legal) + ").")
        if choice >= 0:
            break
        if args.answer is not None:
            return 2, False
        answer = None
    values = dict(p.values)
    if p.choice >= 0:
        say(f"In the game you chose {label(p.choice)}.")
    if choice == p.answer:
        say(f"Right! {p.explanation}")
    else:
        lost = values[p.answer] - values.get(choice, values[p.answer])
        given = (f"{100 * lost:.1f}% of the chance to win the game" if p.objective == "win"
                 else f"{lost:.2f} points a hand")
        say(f"Not quite: {label(choice)} gives up {given}. The answer is "
            f"{label(p.answer)}. {p.explanation}")
    return 0, choice == p.answer


def _pick(puzzles: Sequence[Puzzle], kind: str, rng: random.Random) -> Puzzle | None:
    """A puzzle at random, every one of ``kind`` as likely: for any kind, a card puzzle is
    drawn and replaced by a bidding one as often as those make up the set (so a seed picks
    the card puzzle it picked before the set had bidding ones, or one of those)."""
    cards = [p for p in puzzles if p.kind != "bid"]  # a card to play or to bury
    bids = [p for p in puzzles if p.kind == "bid"]
    if kind == "bid" or (kind == "any" and not cards):
        return rng.choice(bids) if bids else None
    if not cards:
        return None
    p = rng.choice(cards)
    if kind == "any" and bids and rng.random() < len(bids) / len(puzzles):
        p = rng.choice(bids)
    return p


def _bid_answer(text: str, view: SeatView) -> int:
    """The bid a player typed: its number in the list, its words as the list says them
    ('order up alone') or the action's text ('order alone', 'call H'); -1 if none of them."""
    from euchre.actions import action_from_str
    from euchre.words import Moment, action_words

    legal = list(view.legal_actions)
    t = " ".join(text.strip().lower().split())
    if t.isdigit() and 1 <= int(t) <= len(legal):
        return int(legal[int(t) - 1])
    for a in legal:
        if action_words(a, Moment.of(view)).lower() == t:
            return int(a)
    try:
        a = action_from_str(t)
    except ValueError:
        return -1
    return int(a) if a in legal else -1
