"""What anyone watching a hand may know: the view of a spectator, who holds no cards.

A public view is a :class:`~euchre.view.SeatView` for no seat (``seat`` is ``NO_SEAT``), so every
user interface draws a spectator with the same code it draws a player with. It holds what lies
open on a real table: the up-card and where it went, every public act (bids, plays, declarations
made, defending alone, claims), the tricks, how many cards each hand holds and, with rows, the
cards lying face up. It never holds a hand, the kitty, a discard, a farmer's swap or a
declaration somebody silently declined, and it offers no legal actions.
"""

from __future__ import annotations

import dataclasses

from euchre import actions as A
from euchre.state import DECLARE, MISDEAL_REDEAL, HandState
from euchre.view import HIDDEN_SWAP, SeatView, public_history

NO_SEAT = -1
"""The ``seat`` of a public view: it speaks for nobody at the table."""


def public_acts(state: HandState) -> tuple[tuple[int, int], ...]:
    """The hand's acts as a spectator sees them: declarations made (a farmer's swap without its
    cards), no declined declaration, and every discard face down."""
    hist = state.history
    # A misdeal ends the hand during the declarations, before bidding ever begins.
    n_decl = len(hist) if state.phase == DECLARE or state.outcome == MISDEAL_REDEAL \
        else state.bid_start
    decl = tuple((w, a if a < A.SWAP_BASE else HIDDEN_SWAP)
                 for w, a in hist[:n_decl] if a != A.PASS)
    return (*decl, *public_history(hist[n_decl:], NO_SEAT))


#: The fields of a :class:`SeatView` that only its own seat may know, emptied in a public view.
#: Every other field is what the whole table sees alike (a test keeps this list complete).
PRIVATE_FIELDS = ("seat", "hand", "history", "discard", "swapped_out", "legal_actions")


def public_view(state: HandState, scores: tuple[int, ...] = ()) -> SeatView:
    """The hand as a spectator sees it (``scores``: the match score before this hand)."""
    # seat 0's view with everything only seat 0 may know replaced
    return dataclasses.replace(state.view(0, scores), seat=NO_SEAT, hand=(),
                               history=public_acts(state), discard=-1, swapped_out=(),
                               legal_actions=())
