"""The bidding trainer: bidding positions whose answer is clear, one after another, each
answered with every bid's value and its error.

Positions come from hands between rule-based players (so the seats before the player passed as
sound players pass), one round-one or round-two bid at a time, each valued by the evaluation
service (:func:`euchre.analysis.puzzles.clear_bids`: every bid played out on the same deals,
judged by points this hand) and kept only where one bid leads every other firmly and by at
least :data:`THRESHOLD` points, on a hand that is not junk. The service stops as soon as the
answer is firm, its stopping rule being valid however often it looks, so a position takes a
fraction of a second. Passes are the commonest clear answer by far: a position whose answer is
a pass is drawn at most half the time.

:func:`trainer_position` is one position as JSON, for the terminal (``euchre train-bids``) and
the browser's trainer page alike.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from euchre import actions as A
from euchre.analysis.assess import Assessment, assessment_words, span
from euchre.analysis.puzzles import Puzzle, bid_puzzle, clear_bids
from euchre.cards import card_str, sort_hand
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.seats import seat_name
from euchre.solver import solvable
from euchre.view import SeatView
from euchre.words import option_words

__all__ = ["THRESHOLD", "Position", "positions", "trainer_position"]

#: The least lead, in points a hand, of a position's answer over every other bid.
THRESHOLD = 0.25
#: The most deals a position's bids are played out on (the answer is usually firm far sooner).
DEALS = 800
#: Hands of self-play looked through for one position before giving up (a clear position
#: turns up every few hands).
HANDS_PER_POSITION = 200


@dataclass(frozen=True, slots=True)
class Position:
    puzzle: Puzzle
    """The position as a bidding puzzle (it replays exactly; :func:`puzzle_view`)."""
    view: SeatView
    assessment: Assessment


def positions(rules: Rules, seed: int = 0, rounds: tuple[int, ...] = (1, 2)
              ) -> Iterator[Position]:
    """Clear bidding positions, one after another, for as long as they are asked for (the same
    seed: the same positions)."""
    if not solvable(rules):
        raise ValueError("the bidding trainer plays five-card hands: not two-handed with rows")
    rng = random.Random(seed)
    number = 0
    while True:
        want_pass = rng.random() < 0.5
        found = None
        for h, scores, seat, a in clear_bids(rules, HANDS_PER_POSITION, rng.getrandbits(32),
                                             DEALS, THRESHOLD, rounds, early=True):
            if (a.best.action == A.PASS) == want_pass:
                found = (h, scores, seat, a)
                break
        if found is None:
            continue
        number += 1
        h, scores, seat, a = found
        yield Position(bid_puzzle(number, h, scores, seat, a), a.view, a)


def trainer_position(p: Position) -> dict[str, Any]:
    """A position and its answer as JSON: what the seat sees (hand, dealer, up-card, the bids
    so far), the bids it may make, and every bid's value in points this hand with its 95%
    half-width, best first, the service's words and how many deals it took."""
    from euchre.narrate import bidding_segments, staged
    from euchre.words import YOU, Who

    view, a = p.view, p.assessment
    n = view.players

    def who(s: int) -> Who:
        return YOU if s == view.seat else Who(seat_name(s, n))

    acts = staged(view.history, view.rules, view.dealer, viewer=view.seat, upcard=view.upcard)
    bidding = [{"title": title, "items": list(items)}
               for title, items in bidding_segments(acts, who, view.upcard)]
    up = view.upcard >> 3
    return {
        "number": p.puzzle.id,
        "rules": view.rules.to_dict(),
        "seat": view.seat,
        "seat_name": seat_name(view.seat, n),
        "dealer": view.dealer,
        "dealer_name": seat_name(view.dealer, n),
        "round": 1 if view.phase == Phase.BID1 else 2,
        "upcard": card_str(view.upcard),
        "hand": [card_str(c) for c in sort_hand(view.hand, up if up < 4 else 4)],
        "scores": list(view.scores),
        "bidding": bidding,
        "bids": [{"action": A.action_to_str(x), "label": option_words(x, view)}
                 for x in view.legal_actions],
        "answer": A.action_to_str(a.best.action),
        "deals": a.deals,
        "objective": a.objective,
        "values": [{"action": A.action_to_str(o.action), "label": option_words(o.action, view),
                    "points": round(o.points, 3), "ci95": round(o.ci95, 3),
                    "behind": round(o.behind, 3),
                    "range": None if o.action == a.best.action else span(o, a.z, "points"),
                    "firm": o.firm}
                   for o in a.options],
        "words": assessment_words(a),
    }
