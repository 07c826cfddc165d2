"""Plain-text descriptions of hands and matches, for ``euchre replay`` and watch output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from euchre.actions import action_label
from euchre.cards import SUIT_SYMBOLS, card_symbol, cards_of, sort_hand
from euchre.cli import Subparsers
from euchre.errors import EuchreError, quote
from euchre.match import FinishedHand, Match
from euchre.record import from_json
from euchre.state import HandState, seat_name


def side_name(side: int, players: int) -> str:
    if players == 4:
        return "North-South" if side == 0 else "East-West"
    return seat_name(side, players)


def describe_hand(h: HandState) -> str:
    """A finished (or partly played) hand: deal, bidding, tricks, result."""
    n = h.n
    trump = h.trump
    if h.columns:  # two-handed with rows: no up-card; show each row as dealt
        lines = [f"Dealer {seat_name(h.dealer, n)}; rows (face up / face down)"]
        for s in range(n):
            rows = set()
            for top, under in h.columns[s]:
                rows |= {top, under}
            hand = [c for c in cards_of(h.initial_hands[s]) if c not in rows]
            cols = "  ".join(f"{card_symbol(t)}/{card_symbol(u)}" for t, u in h.columns[s])
            lines.append(f"  {seat_name(s, n):<9} hand "
                         f"{' '.join(card_symbol(c) for c in sort_hand(hand, trump))}; "
                         f"rows {cols}")
    else:
        lines = [f"Dealer {seat_name(h.dealer, n)}; up-card {card_symbol(h.upcard)}"]
        for s in range(n):
            cards = sort_hand(cards_of(h.initial_hands[s]), trump)
            lines.append(f"  {seat_name(s, n):<9} {' '.join(card_symbol(c) for c in cards)}")
    bids = [(w, a) for w, a in h.history if not 0 <= a <= 32]
    if bids:
        lines.append("  Bidding: " + ", ".join(
            f"{seat_name(w, n)} {action_label(a)}" for w, a in bids))
    if trump < 4:
        alone = " alone" if h.alone else ""
        lines.append(f"  Trump {SUIT_SYMBOLS[trump]}, made by {seat_name(h.maker, n)}{alone}")
    for i, (_leader, trick, winner) in enumerate(h.tricks, 1):
        played = "  ".join(f"{seat_name(s, n)[0] if n == 4 else s + 1}:{card_symbol(c)}"
                           for s, c in trick)
        lines.append(f"  Trick {i}: {played}  -> {seat_name(winner, n)}")
    if h.outcome == "thrown_in":
        lines.append("  All passed: thrown in, the deal passes left")
    elif h.outcome == "misdeal":
        lines.append("  Misdeal called: the deal passes left" if h.rules.misdeal_passes
                     else "  Misdeal called: the same dealer deals again")
    elif h.outcome == "scored":
        who = [f"{side_name(i, n)} {p:+d}" for i, p in enumerate(h.points) if p]
        lines.append(f"  Result: {', '.join(who)}")
    return "\n".join(lines)


def replay_finished(match: Match, f: FinishedHand) -> HandState:
    h = HandState(match.rules, f.dealer, f.deck)
    for a in f.actions:
        h.apply_action(a)
    return h


def describe_record(match: Match, verbose: bool = True) -> str:
    n = match.rules.players
    out = []
    if verbose:
        for i, f in enumerate(match.finished, 1):
            out.append(f"Hand {i}")
            out.append(describe_hand(replay_finished(match, f)))
            out.append("  Score: " + ", ".join(
                f"{side_name(s, n)} {v}" for s, v in enumerate(f.scores_after)))
        if match.winner is None and match.hand.history:
            out.append(f"Hand {len(match.finished) + 1} (in progress)")
            out.append(describe_hand(match.hand))
    score = ", ".join(f"{side_name(s, n)} {v}" for s, v in enumerate(match.scores))
    if match.winner is not None and match.winner >= 0:
        verb = "win" if n == 4 else "wins"  # "East-West win", "Player 2 wins"
        out.append(f"Final: {score}; {side_name(match.winner, n)} {verb}")
    elif match.winner is not None:
        out.append(f"Final: {score}; no side scored")
    else:
        k = len(match.finished)
        out.append(f"In progress after {k} hand{'' if k == 1 else 's'}: {score}")
    return "\n".join(out)


class RecordFileError(Exception):
    """A record file that cannot be used: the message to print and the exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def read_record_file(path: str, invalid: str = "is not a valid record") -> tuple[Match, str]:
    """Read and replay a record file; the match and the file's text (for extra keys).

    Unreadable files are status 2 (a usage problem), bad contents status 1; ``invalid`` words
    the second case for the command at hand ("is not a saved game")."""
    shown = path if path.isprintable() else quote(path)  # never echo a control character
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordFileError(f"cannot read {shown}: {exc.strerror}", 2) from None
    except UnicodeDecodeError:
        raise RecordFileError(f"{shown} {invalid}: not UTF-8 text (a record is JSON)", 1) from None
    except ValueError:  # a NUL in the name
        raise RecordFileError(f"cannot read {shown}: a file name cannot hold a NUL", 2) from None
    try:
        return from_json(text), text
    except EuchreError as exc:
        raise RecordFileError(f"{shown} {invalid}: {exc}", 1) from None


def register(sub: Subparsers) -> None:
    rp = sub.add_parser("replay", help="validate a game record and print its hands and score")
    rp.add_argument("file", help="a JSON record written by 'euchre play' or the library")
    rp.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    rp.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        match, _ = read_record_file(args.file)
    except RecordFileError as exc:
        print(f"euchre replay: {exc}", file=sys.stderr)
        return exc.status
    print(describe_record(match, verbose=not args.quiet))
    return 0
