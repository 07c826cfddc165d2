"""Brute-force minimax over the engine itself: the slow, obviously right answer.

No pruning, no card encoding, no table: every lawful card at every turn is played with the
engine's own ``push``/``pop``, and the trick winners are the engine's. The solvers are tested
against it on positions small enough to enumerate (few tricks left, or two-card tricks).
"""

from __future__ import annotations

from euchre.solver.position import lawful_cards
from euchre.state import PLAY, HandState


def brute_force_maker_tricks(state: HandState) -> int:
    """The makers' final trick count under best play, by full minimax from ``state``."""
    if state.phase != PLAY:
        return state.maker_tricks()
    maximising = state.is_maker_side(state.cur)
    values = []
    for c in lawful_cards(state):
        state.push(c)
        values.append(brute_force_maker_tricks(state))
        state.pop()
    return max(values) if maximising else min(values)


def brute_force_move_values(state: HandState) -> dict[int, int]:
    """The makers' final trick count after each lawful card of the player to move."""
    out = {}
    for c in lawful_cards(state):
        state.push(c)
        out[c] = brute_force_maker_tricks(state)
        state.pop()
    return out
