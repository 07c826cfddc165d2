"""What a computer player is: a function of one seat's view, never of the whole hand.

Bots receive a :class:`~euchre.view.SeatView` and return one of its ``legal_actions``. They never
see a :class:`~euchre.state.HandState`, so a bot cannot cheat even by accident, and the same bot
works behind the terminal UI, a tournament runner or a network server.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from euchre.view import SeatView


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, view: SeatView) -> int:
        """One of ``view.legal_actions`` (the view must be of the seat whose turn it is)."""
        ...

    def explain(self, view: SeatView) -> str:
        """One sentence a person can read: why :meth:`choose` picks what it picks here."""
        ...


def require_turn(view: SeatView) -> tuple[int, ...]:
    """The legal actions of a view, or a clear error when it is not this seat's turn."""
    if not view.legal_actions:
        raise ValueError(
            f"seat {view.seat} has nothing to decide: it is not its turn (phase {view.phase})"
        )
    return view.legal_actions
