"""``euchre advise``: what every bid is worth for a hand, with error bars.

Wiring only: the numbers come from :func:`euchre.analysis.advice.advise`. Bad input (a card that
is not a card, a hand of four, a seat that does not exist, a score past the target, rules the
engine refuses) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from euchre.cli import Subparsers
from euchre.cli.play import add_rules_arguments, build_rules
from euchre.errors import RulesError
from euchre.seats import side_of

#: Seat names accepted besides numbers (four players).
_SEAT_WORDS = {"north": 0, "n": 0, "east": 1, "e": 1, "south": 2, "s": 2, "west": 3, "w": 3}


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "advise", help="expected points of every bid for a hand (with 95%% error bars)",
        description="Expected points of every bid for a hand: pass, order up, order alone, and "
                    "each suit in round two (alone or not), each over deals consistent with "
                    "what the seat sees, weighted by how likely the passes before it made "
                    "them, and played out by the search player's honest rollout policy. "
                    "Points are your side's minus the other side's, per hand.")
    p.add_argument("--hand", required=True, metavar="CARDS",
                   help='your five cards, e.g. "JH JD AH KS 9C" (10 may be written T)')
    p.add_argument("--up", required=True, metavar="CARD", help="the turned-up card, e.g. TH")
    p.add_argument("--seat", required=True, metavar="SEAT",
                   help="your seat: 0..3 (North, East, South, West) or 0..players-1")
    p.add_argument("--dealer", required=True, metavar="SEAT", help="the dealer's seat")
    p.add_argument("--score", default=None, metavar="US-THEM",
                   help="the match score, your side first (e.g. 6-8); adds each bid's chance "
                        "to win the game")
    p.add_argument("--round", choices=("1", "2", "both"), default="both",
                   help="round one (the up-card), round two (every seat passed it) or both")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--deals", type=_deals, default=None, metavar="N",
                        help="deals per round (the same seed gives the same numbers)")
    budget.add_argument("--time", type=_seconds, default=None, metavar="SECONDS",
                        help="time for all rounds together (default 0.8: as many deals as fit)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (0)")
    p.add_argument("--json", action="store_true", help="print JSON (docs/analysis.md)")
    add_rules_arguments(p)
    p.set_defaults(func=_run)


def _deals(text: str) -> int:
    from euchre.analysis.advice import MAX_DEALS

    if not text.isdigit() or not 16 <= int(text) <= MAX_DEALS:
        raise argparse.ArgumentTypeError(f"must be a whole number 16..{MAX_DEALS}, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.05 <= value <= 600:
        raise argparse.ArgumentTypeError(f"must be 0.05 to 600 seconds, not {text}")
    return value


def parse_seat(text: str, players: int, what: str) -> int:
    """A seat number or (four players) a name; ValueError says what is allowed."""
    t = text.strip().lower()
    if t.isdigit() and int(t) < players:
        return int(t)
    if players == 4 and t in _SEAT_WORDS:
        return _SEAT_WORDS[t]
    names = " (or North, East, South, West)" if players == 4 else ""
    raise ValueError(f"{what} must be a seat 0..{players - 1}{names}, not {text!r}")


def parse_score(text: str, sides: int, target: int) -> tuple[int, ...]:
    parts = text.replace(":", "-").split("-")
    if len(parts) != sides or not all(p.strip().isdigit() for p in parts):
        example = "6-8" if sides == 2 else "3-5-2"
        raise ValueError(f"--score must be {sides} numbers, your side first, like {example}; "
                         f"not {text!r}")
    vals = tuple(int(p) for p in parts)
    if any(v >= target for v in vals):
        raise ValueError(f"--score {text}: a score of {target} or more has already won the game")
    return vals


def _run(args: argparse.Namespace) -> int:
    from euchre.analysis.advice import DEFAULT_SECONDS, MAX_DEALS, AdviceError, advise
    from euchre.cards import CardParseError, parse_card

    def fail(msg: str) -> int:
        print(f"euchre advise: {msg}", file=sys.stderr)
        return 2

    try:
        rules = build_rules(args)
    except RulesError as exc:
        return fail(str(exc))
    try:
        hand = [parse_card(c) for c in args.hand.replace(",", " ").split()]
        up = parse_card(args.up)
    except CardParseError as exc:
        return fail(str(exc))
    try:
        seat = parse_seat(args.seat, rules.players, "--seat")
        dealer = parse_seat(args.dealer, rules.players, "--dealer")
        scores: tuple[int, ...] = ()
        if args.score is not None:
            mine = parse_score(args.score, rules.num_sides, rules.target)
            side = side_of(seat, rules.players)
            # "us-them": ours first, then the other sides in seat order from ours.
            order = [side] + [s for s in range(rules.num_sides) if s != side]
            by_side = [0] * rules.num_sides
            for s, v in zip(order, mine, strict=True):
                by_side[s] = v
            scores = tuple(by_side)
    except ValueError as exc:
        return fail(str(exc))
    rounds = (1, 2) if args.round == "both" else (int(args.round),)
    seconds = None if args.deals is not None else (args.time or DEFAULT_SECONDS)
    start = time.perf_counter()
    try:
        adv = advise(rules, hand, up, seat, dealer, scores, deals=args.deals or MAX_DEALS,
                     seed=args.seed, rounds=rounds, seconds=seconds)
    except AdviceError as exc:
        return fail(str(exc))
    elapsed = time.perf_counter() - start
    if args.json:
        from euchre.analysis.advice import advice_to_json

        print(json.dumps(advice_to_json(adv), indent=1))
        return 0
    from euchre.analysis.report import print_advice

    print_advice(adv, elapsed)
    return 0
