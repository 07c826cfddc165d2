"""Plain-text descriptions of hands and matches, for ``euchre replay`` and watch output."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from euchre import actions as A
from euchre.cards import SUIT_SYMBOLS, card_symbol, cards_of, sort_hand
from euchre.cli import Subparsers
from euchre.errors import EuchreError, quote
from euchre.match import FinishedHand, Match
from euchre.narrate import bidding_segments, staged
from euchre.record import from_json
from euchre.seats import Seat, side_name
from euchre.state import HandState, seat_name
from euchre.view import HIDDEN_DISCARD, HIDDEN_SWAP
from euchre.words import Who


def describe_hand(h: HandState, hidden: bool = False, viewer: Seat | None = None) -> str:
    """A finished (or partly played) hand: deal, bidding in words, tricks, result.

    ``hidden`` tells a hand still in play as ``viewer`` saw it (None: a seat nobody sat in):
    only that seat's cards, other seats' discards face down, the kitty unseen."""
    n = h.n
    trump = h.trump
    if h.columns:  # two-handed with rows: no up-card
        lines = [f"Dealer {seat_name(h.dealer, n)}; no up-card (two-handed with rows)"]
    else:
        lines = [f"Dealer {seat_name(h.dealer, n)}; up-card {card_symbol(h.upcard)}"]
    for s in range(n):
        if hidden and s != viewer:
            continue
        if h.columns and not hidden:  # the hand, then each column as face up / face down
            in_rows = {c for column in h.columns[s] for c in column}
            hand = sort_hand([c for c in cards_of(h.initial_hands[s]) if c not in in_rows],
                             trump)
            cols = "  ".join(f"{card_symbol(t)}/{card_symbol(u)}" for t, u in h.columns[s])
            lines.append(f"  {seat_name(s, n):<9} {' '.join(card_symbol(c) for c in hand)}; "
                         f"rows {cols}")
            continue
        cards = sort_hand(cards_of(h.hands[s] if hidden else h.initial_hands[s]), trump)
        held = " (in hand now)" if hidden else ""
        lines.append(f"  {seat_name(s, n):<9} {' '.join(card_symbol(c) for c in cards)}{held}")
    if hidden:
        if h.columns:
            for s in range(n):
                up = " ".join(card_symbol(c) for c in h.face_up(s))
                lines.append(f"  {seat_name(s, n):<9} face up: {up or '-'}; "
                             f"{len(h.face_down(s))} face down")
        lines.append("  (other hands hidden: --reveal shows every hand)")
    if not hidden:
        history = list(h.history)
    elif viewer is not None:
        history = list(h.view(viewer).history)
    else:  # nobody's hand: every discard and swap face down
        history = [(w, HIDDEN_DISCARD if A.is_discard(a) else HIDDEN_SWAP if a >= A.SWAP_BASE
                    else a) for w, a in h.history]
    acts = staged(history, h.rules, h.dealer, viewer=viewer if hidden else None,
                  upcard=h.upcard)
    for title, items in bidding_segments(acts, lambda s: Who(seat_name(s, n)), h.upcard):
        lines.append(f"  {title + ': ' if title else ''}{', '.join(items)}")
    if trump < 4:
        alone = " alone" if h.alone else ""
        bid = f", bid {h.contract} of 12" if h.contract else ""  # two-handed with rows
        lines.append(f"  Trump {SUIT_SYMBOLS[trump]}, made by {seat_name(h.maker, n)}{alone}"
                     f"{bid}")
    def tag(s: int) -> str:
        return seat_name(s, n)[0] if n == 4 else str(s + 1)

    for i, (_leader, trick, winner) in enumerate(h.tricks, 1):
        played = "  ".join(f"{tag(s)}:{card_symbol(c)}" for s, c in trick)
        lines.append(f"  Trick {i}: {played}  -> {seat_name(winner, n)}")
    if h.trick:
        played = "  ".join(f"{tag(s)}:{card_symbol(c)}" for s, c in h.trick)
        lines.append(f"  Trick {len(h.tricks) + 1} (in progress): {played}")
    if h.outcome == "thrown_in":
        lines.append("  All passed: thrown in, the deal passes left")
    elif h.outcome == "misdeal":
        lines.append("  Misdeal called: the deal passes left" if h.rules.misdeal_passes
                     else "  Misdeal called: the same dealer deals again")
    elif h.outcome == "scored":
        who = [f"{side_name(i, n)} {p:+d}" for i, p in enumerate(h.points) if p]
        short = h.contract and h.maker_tricks() < h.contract
        lines.append(f"  Result: {', '.join(who) or 'nobody scores'}"
                     + (f" (the maker took {h.maker_tricks()}, short of its bid)" if short
                        else ""))
    return "\n".join(lines)


def replay_finished(match: Match, f: FinishedHand) -> HandState:
    h = HandState(match.rules, f.dealer, f.deck)
    for a in f.actions:
        h.apply_action(a)
    return h


def describe_record(match: Match, verbose: bool = True, reveal: bool = True,
                    viewer: Seat | None = None) -> str:
    """The record as text; without ``reveal`` a hand still in play shows only what ``viewer``
    (the player who saved it) could see."""
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
            out.append(describe_hand(match.hand, hidden=not reveal, viewer=viewer))
    score = ", ".join(f"{side_name(s, n)} {v}" for s, v in enumerate(match.scores))
    if match.winner is not None and match.winner >= 0:
        verb = "win" if n == 4 else "wins"  # "East-West win", "Player 2 wins"
        out.append(f"Final: {score}; {side_name(match.winner, n)} {verb}")
    elif match.winner is not None:  # a draw: nobody scored, or level at the hand limit
        out.append(f"Final: {score}; {'a draw' if any(match.scores) else 'no side scored'}")
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
    rp.add_argument("--reveal", action="store_true",
                    help="in a saved game still in play, show every hand (by default only what "
                         "the player who saved it could see)")
    rp.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        match, text = read_record_file(args.file)
    except RecordFileError as exc:
        print(f"euchre replay: {exc}", file=sys.stderr)
        return exc.status
    print(describe_record(match, verbose=not args.quiet, reveal=args.reveal,
                          viewer=_saving_seat(text, match.rules.players)))
    return 0


def _saving_seat(text: str, players: int) -> int | None:
    """The seat of the person who played (and saved) the game, from the record's ``players``."""
    try:
        seats = json.loads(text).get("players")
    except (json.JSONDecodeError, AttributeError):
        return None
    if isinstance(seats, list) and len(seats) == players and "human" in seats:
        return seats.index("human")
    return None
