"""``euchre solve``: the double-dummy result of a deal, and the best card trick by trick.

The deal is given in card notation, one hand a seat (``--north "JH JD AH KS 9C"`` ...) or all
hands at once (``--hands "JH JD AH KS 9C / ... / ... / ..."`` in seat order, which also sets the
number of players). Trump, the maker (``--alone`` for a loner) and the first leader are named;
the deck is the smallest that holds the cards given unless ``--deck`` says otherwise. Wrong
notation or an impossible deal is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import re
import sys

from euchre.cards import (
    JOKER,
    Card,
    CardParseError,
    card_str,
    card_symbol,
    parse_card,
    parse_suit,
    sort_hand,
)
from euchre.cli import Subparsers
from euchre.errors import RulesError
from euchre.rules import Rules
from euchre.seats import side_name
from euchre.solver import principal_line, solve
from euchre.solver.deal import DealError, play_state
from euchre.state import PLAY, HandState, seat_name

_SEAT_WORDS = {"n": 0, "north": 0, "e": 1, "east": 1, "s": 2, "south": 2, "w": 3, "west": 3}
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


class InputError(ValueError):
    """A user input that cannot be read: the message is the one line the user sees."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "solve",
        help="double-dummy solve a deal: the result under best play, trick by trick",
        description=(
            "Solve a deal with every card known: the tricks and points under best play by "
            "everyone, then the principal line trick by trick with the value of every card "
            "the player could play (the makers' final tricks after it; * marks the best). "
            "Cards: 9C TC 10C JD QH KS AS, J♥, JOKER; hands separated by '/' in --hands."
        ),
        epilog=(
            'example: euchre solve --north "JS JC AS 9H TD" --east "KS QS AH KH 9C" '
            '--south "TS 9S AD KD QD" --west "AC KC QC JH QH" --trump S --maker north '
            "--leader east"
        ),
    )
    hands = p.add_argument_group("the deal (four players: one flag a seat, or --hands)")
    for name in ("north", "east", "south", "west"):
        hands.add_argument(f"--{name}", metavar="CARDS", help=f"{name.title()}'s five cards")
    hands.add_argument("--hands", metavar="H1 / H2 ...",
                       help="every hand in seat order separated by '/': 4 hands (North, East, "
                            "South, West), 3 (cutthroat) or 2 (two-handed), Player 1 first")
    hands.add_argument("--deck", type=int, choices=(24, 25, 32), default=None,
                       help="deck size; default: 24, or 25 when the Joker is dealt, 32 when a "
                            "7 or 8 is")
    bid = p.add_argument_group("the contract")
    bid.add_argument("--trump", required=True, metavar="SUIT", help="C, D, H, S (or ♣ ♦ ♥ ♠)")
    bid.add_argument("--maker", required=True, metavar="SEAT",
                     help="who named trump: north/east/south/west (n/e/s/w) or 1..players")
    bid.add_argument("--alone", action="store_true", help="the maker goes alone")
    bid.add_argument("--lone-defender", metavar="SEAT", default=None,
                     help="a defender who defends alone against the lone maker")
    bid.add_argument("--leader", required=True, metavar="SEAT",
                     help="who leads the first card")
    p.add_argument("--ascii", action="store_true", help="card notation without suit symbols")
    p.set_defaults(func=_run)


def _parse_hand(text: str, who: str) -> list[int]:
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    try:
        return [parse_card(t) for t in tokens]
    except CardParseError as exc:
        raise InputError(f"{who}: {exc}") from None


def _seat(text: str, players: int, what: str) -> int:
    t = text.strip().lower()
    if players == 4 and t in _SEAT_WORDS:
        return _SEAT_WORDS[t]
    t = t.removeprefix("player").removeprefix("p").strip()
    if t.isdigit() and 1 <= int(t) <= players:
        return int(t) - 1
    allowed = "north, east, south, west (n/e/s/w) or 1-4" if players == 4 else (
        f"1-{players}")
    raise InputError(f"{what} {text!r} is not a seat: use {allowed}")


def _read_hands(args: argparse.Namespace) -> list[list[int]]:
    named = [args.north, args.east, args.south, args.west]
    if args.hands is not None:
        if any(h is not None for h in named):
            raise InputError("give the hands either with --hands or one flag a seat, not both")
        parts = [h for h in args.hands.split("/")]
        if len(parts) not in (2, 3, 4):
            raise InputError(f"--hands holds {len(parts)} hands separated by '/'; give 2, 3 "
                             "or 4")
        n = len(parts)
        return [_parse_hand(h, seat_name(i, n)) for i, h in enumerate(parts)]
    missing = [name for name, h in zip(("--north", "--east", "--south", "--west"), named,
                                       strict=True) if h is None]
    if missing:
        raise InputError(f"missing {', '.join(missing)}: give all four hands (or --hands)")
    return [_parse_hand(h, seat_name(i, 4)) for i, h in enumerate(named)]


def _deck_for(cards: list[Card], asked: int | None) -> int:
    if asked is not None:
        return asked
    if any(c != JOKER and c & 7 < 2 for c in cards):
        return 32
    return 25 if JOKER in cards else 24


def build_state(args: argparse.Namespace) -> HandState:
    """The hand at its first lead, from the command's arguments (InputError/DealError)."""
    hands = _read_hands(args)
    n = len(hands)
    try:
        trump = parse_suit(args.trump)
    except CardParseError as exc:
        raise InputError(f"--trump: {exc}") from None
    maker = _seat(args.maker, n, "--maker")
    leader = _seat(args.leader, n, "--leader")
    lone = None if args.lone_defender is None else _seat(args.lone_defender, n,
                                                          "--lone-defender")
    deck = _deck_for([c for h in hands for c in h], args.deck)
    try:
        rules = Rules(players=n, deck=deck, defend_alone=lone is not None)
    except RulesError as exc:
        raise InputError(str(exc)) from None
    return play_state(rules, hands, trump, maker, leader, alone=args.alone, lone_defender=lone)


def _sides(state: HandState) -> list[str]:
    return [side_name(s, state.n) for s in range(2 if state.n == 4 else state.n)]


def report(state: HandState, ascii_only: bool = False) -> str:
    """The solve of ``state`` as text: the result, then the principal line trick by trick."""
    show = card_str if ascii_only else card_symbol
    n = state.n
    trump = state.trump
    who = seat_name(state.maker, n)
    makers = f"{who} and {seat_name(state.partner(state.maker), n)}" if n == 4 and not state.alone \
        else who
    lines = [f"Trump {_SUIT_NAMES[trump]}, made by {who}" + (" alone" if state.alone else "")
             + (f" against {seat_name(state.lone_defender, n)} defending alone"
                if state.lone_defender >= 0 else "")
             + f"; {seat_name(state.cur, n)} leads."]
    for seat in range(n):
        if seat in state.active:
            cards = sort_hand([c for c in range(33) if state.hands[seat] >> c & 1], trump)
            lines.append(f"  {seat_name(seat, n):<9} {' '.join(show(c) for c in cards)}")
        else:
            lines.append(f"  {seat_name(seat, n):<9} (sits out)")
    sol = solve(state)
    side_names = _sides(state)
    made = sol.maker_tricks
    verdict = "march" if made == 5 else ("make it" if made >= 3 else "are euchred")
    score = ", ".join(f"{side_names[i]} {p}" for i, p in enumerate(sol.points))
    lines.append(f"Best play: the makers ({makers}) take {made} trick{'s' * (made != 1)} and "
                 f"{verdict}. Points: {score}.")
    lines.append("Each play lists every card the player could play with the makers' final "
                 "tricks after it; * marks the best.")
    work = state.clone()
    trick_no = 0
    for seat, card, values, best in principal_line(state):
        if not work.trick:
            trick_no += 1
            lines.append(f"Trick {trick_no} ({seat_name(seat, n)} leads)")
        options = "  ".join(
            f"{show(c)} {v}{'*' if c in best else ''}"
            for c, v in sorted(values.items(), key=lambda cv: (-cv[1], cv[0])))
        lines.append(f"  {seat_name(seat, n):<9} {show(card):<4} [{options}]")
        work.apply_action(card)
        if not work.trick and work.tricks:
            won = work.tricks[-1][2]
            lines.append(f"  won by {seat_name(won, n)}")
    if work.phase == PLAY:  # pragma: no cover - the line always reaches the end of play
        lines.append("(the line stopped before the end of play)")
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    try:
        state = build_state(args)
    except (InputError, DealError) as exc:
        print(f"euchre solve: {exc}", file=sys.stderr)
        return 2
    print(report(state, args.ascii))
    return 0
