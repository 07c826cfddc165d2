"""``euchre train-bids``: the bidding trainer in the terminal.

Wiring only: :mod:`euchre.analysis.trainer` draws the positions (clear ones only) and values
every bid; this asks for a bid, says whether it was the best, and shows every bid's value with
its error bar, then the next position.
"""

from __future__ import annotations

import argparse
import sys

from euchre.cli import Subparsers, whole_number
from euchre.cli.play import add_rules_arguments, build_rules
from euchre.errors import RulesError


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "train-bids", help="the bidding trainer: clear bidding positions, your bid, and every "
        "bid's value with its error",
        description="Deal bidding positions from games between sound players (the seats "
                    "before you passed as they would), keep those where one bid is clearly "
                    "best (it leads every other firmly, by 0.25 points a hand or more), and "
                    "ask yours: pass, order up (alone), or in round two a suit (alone). The "
                    "answer is every bid's expected points this hand with its 95% error bar, "
                    "each bid played out by sound players on the same deals. Type a bid by its "
                    "number or its words; Enter for the next position, q to stop.")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the positions (the same seed: the same positions)")
    p.add_argument("--round", choices=("1", "2", "both"), default="both",
                   help="the bidding rounds the positions come from (both)")
    p.add_argument("--count", type=whole_number(1, 10_000), default=None, metavar="N",
                   help="stop after N positions (default: until you stop)")
    p.add_argument("--answer", default=None, metavar="BID",
                   help="answer the first position without being asked, then stop")
    p.add_argument("--ascii", action="store_true", help="suits as the letters C D H S")
    add_rules_arguments(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    import random

    from rich.table import Table

    from euchre.analysis.assess import span
    from euchre.analysis.report import print_puzzle
    from euchre.analysis.trainer import positions
    from euchre.cards import card_symbol
    from euchre.cli.puzzles import _bid_answer, _console, _say
    from euchre.solver import solvable
    from euchre.words import Moment, action_words, option_words

    try:
        rules = build_rules(args)
    except RulesError as exc:
        print(f"euchre train-bids: {exc}", file=sys.stderr)
        return 2
    if not solvable(rules):
        print("euchre train-bids: the trainer plays five-card hands, not two-handed with rows",
              file=sys.stderr)
        return 2
    plain = str.maketrans("♣♦♥♠", "CDHS")

    def symbol(c: int) -> str:
        return card_symbol(c).translate(plain) if args.ascii else card_symbol(c)

    con = _console()

    def say(text: str) -> None:
        _say(con, text.translate(plain) if args.ascii else text)

    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    rounds = (1, 2) if args.round == "both" else (int(args.round),)
    right = asked = 0
    source = positions(rules, seed, rounds)
    while args.count is None or asked < args.count:
        print("Dealing a position whose answer is clear...", file=sys.stderr, flush=True)
        pos = next(source)
        view, a = pos.view, pos.assessment
        print_puzzle(pos.puzzle, view, 0, symbol, con, heading=f"Position {asked + 1}")
        legal = list(view.legal_actions)
        answer = args.answer
        while True:
            if answer is None:
                try:
                    answer = input("Your bid: ")
                except EOFError:
                    print()
                    return 0
            if answer.strip().lower() in ("q", "quit"):
                return 0
            choice = _bid_answer(answer, view)
            if choice >= 0:
                break
            say(f"{answer.strip()!r} is not one of your bids: type its number, 1 to "
                f"{len(legal)}, or its words ("
                + ", ".join(action_words(x, Moment.of(view)) for x in legal) + ").")
            if args.answer is not None:
                return 2
            answer = None
        asked += 1
        best = a.best
        mine = next(o for o in a.options if o.action == choice)
        if choice == best.action:
            right += 1
            say(f"Right: {option_words(choice, view)} is the best bid.")
        else:
            # one gap, the range the verdict rests on, as the words below and the page say it
            say(f"Not the best: {option_words(choice, view)} brings "
                f"{span(mine, a.z, 'points')} than {option_words(best.action, view)}.")
        t = Table(title=f"Every bid over {a.deals} deals",
                  title_justify="left")
        for col, just in (("Bid", "left"), ("Points", "right"), ("±95%", "right"), ("", "left")):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        for o in a.options:
            mark = "best" if o is best else "yours" if o.action == choice else ""
            if o is best and o.action == choice:
                mark = "best, yours"
            t.add_row(option_words(o.action, view), f"{o.points:+.2f}", f"{o.ci95:.2f}", mark)
        con.print(t)
        say(_words(a))
        say(f"Score: {right} of {asked} best.")
        if args.answer is not None:
            return 0
        if args.count is not None and asked >= args.count:
            return 0
        try:
            more = input("Enter for the next position, q to stop: ")
        except EOFError:
            print()
            return 0
        if more.strip().lower() in ("q", "quit"):
            return 0
    return 0


def _words(a: object) -> str:
    from euchre.analysis.assess import Assessment, assessment_words

    assert isinstance(a, Assessment)
    return assessment_words(a).replace(
        "Judged by points this hand",
        "Each bid played out by sound players on the same deals; judged by points this hand")
