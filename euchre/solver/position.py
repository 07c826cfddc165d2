"""The card-play position a solver needs, read once from a :class:`~euchre.state.HandState`.

A solver does not need the bidding history, the kitty or the match: only who holds what, whose
turn it is, the cards of the trick in progress, which seats play for the makers, and how many
tricks the makers already took. :class:`Position` holds exactly that, so the reference solver,
the compiled kernel and the brute-force check all start from the same facts, and the scoring of
a final trick count (:func:`points_for`) is the engine's own (:mod:`euchre.scoring`).

The makers' side is the whole "us" of the hand: the maker and partner with four players, the
maker alone with two or three (the three-handed defenders team up for the hand). Every solver
in this package maximises the makers' tricks while the defenders minimise them; since a hand's
points rise with the makers' tricks for the makers and fall for every defender, the points under
best play are the points of that trick count.
"""

from __future__ import annotations

from dataclasses import dataclass

from euchre.cards import EFFECTIVE_SUIT, Card
from euchre.rules import Rules
from euchre.scoring import TRICKS_PER_HAND
from euchre.seats import Seat, partner
from euchre.state import PLAY, HandState
from euchre.variants import variant_for

__all__ = [
    "TRICKS_PER_HAND",
    "NotSolvableError",
    "Position",
    "lawful_cards",
    "points_for",
    "position_of",
    "solvable",
]


class NotSolvableError(ValueError):
    """The state is not one a double-dummy solver can take: the message says why."""


@dataclass(frozen=True, slots=True)
class Position:
    """The card play still to come, with every hand known.

    ``hands`` are bitmasks of card ids per seat (0 for a seat sitting out); ``order`` lists the
    active seats clockwise; ``trick`` is the (seat, card) pairs of the trick in progress.
    """

    trump: int
    hands: tuple[int, ...]
    order: tuple[int, ...]
    to_move: int
    trick: tuple[tuple[int, int], ...]
    maker_seats: frozenset[int]
    maker_tricks_taken: int
    tricks_left: int
    """Tricks not yet complete, the one in progress included."""

    @property
    def led(self) -> int:
        """The effective suit led to the trick in progress (-1 before a lead)."""
        return EFFECTIVE_SUIT[self.trump][self.trick[0][1]] if self.trick else -1

    def next_seat(self, seat: Seat) -> Seat:
        """The next active seat clockwise (seats sitting out are skipped)."""
        i = self.order.index(seat)
        return self.order[(i + 1) % len(self.order)]

    def is_maker(self, seat: Seat) -> bool:
        return seat in self.maker_seats


def solvable(rules: Rules) -> bool:
    """Whether the solver plays hands of the game ``rules`` describe: five-card hands held
    whole. Not two-handed with rows, where twelve tricks are played and face-down cards turn up
    (the solver's tables hold five-card hands; the compiled kernel would write past them).
    Everything built on the solver (hints, reviews, bidding puzzles, the search player's solved
    play) asks this rather than which game it is."""
    v = variant_for(rules)
    return v.tricks_per_hand == TRICKS_PER_HAND and not v.row_columns


def position_of(state: HandState) -> Position:
    """The solver's view of ``state``, which must be in the card-play phase.

    Raises :class:`NotSolvableError` for any other phase: before trump is fixed there is no card
    play to solve, and after the last trick nothing is left to choose."""
    if state.phase != PLAY:
        raise NotSolvableError(
            f"a double-dummy solve needs a hand in card play, not in phase '{state.phase_name}'"
        )
    if not solvable(state.rules):
        raise NotSolvableError("the double-dummy solver plays five-card hands, not two-handed "
                               "with rows")
    n = state.n
    maker = state.maker
    makers = frozenset((maker, partner(maker, n)))
    active = tuple(sorted(state.active))  # seats in play, clockwise from seat 0
    hands = tuple(state.hands) if len(active) == n else tuple(
        h if s in active else 0 for s, h in enumerate(state.hands))
    return Position(
        trump=state.trump,
        hands=hands,
        order=active,
        to_move=state.cur,
        trick=tuple(state.trick),
        maker_seats=makers,
        maker_tricks_taken=state.maker_tricks(),
        tricks_left=TRICKS_PER_HAND - len(state.tricks),
    )


def lawful_cards(state: HandState) -> list[Card]:
    """The cards the player to move may play without reneging.

    Under ``renege="prevent"`` these are exactly ``legal_actions()``. Under ``"penalize"`` the
    engine also lets a player fail to follow suit (to be claimed later); the solvers value
    lawful play only, because a renege hands the other side a claim and the claim phase is
    outside card play (see the package docstring)."""
    return state.lawful_cards()


def points_for(state: HandState, maker_tricks: int) -> tuple[int, ...]:
    """What the hand scores, per side (the layout of ``state.points``), when the makers finish
    with ``maker_tricks`` tricks: the engine's own table (:func:`euchre.scoring.hand_points`:
    march, lone march, euchre, lone defender), without a renege claim."""
    return state.points_for(maker_tricks)
