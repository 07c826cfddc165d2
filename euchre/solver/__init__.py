"""Double-dummy solving: the exact result of a hand's card play when every card is known.

:func:`solve` takes a :class:`~euchre.state.HandState` in card play (trump named, the dealer's
discard done) at any point, mid-trick included, and returns a :class:`Solution`: the tricks and
points per side under best play by everyone, and the value of every lawful card of the player to
move. :func:`move_values_batch` is the lean entry for search players that solve many sampled
worlds per decision: it returns, per world, the tricks the mover's team ends with after each
card, computed for the whole batch in one compiled call when numba is installed.

Who plays for whom: the makers' team is the maker and partner (four players) or the maker alone
(two or three players); everyone else defends, and the three-handed defenders team up for the
hand. Best play means the makers maximise their tricks and the defenders minimise them. A side's
points rise (makers) or fall (defenders) with the makers' tricks, so the points under best play
are the points of that trick count. With three players the two defenders' split of their tricks
is not fixed by best play; ``tricks`` reports the split along the principal line the solver plays.

Backends: the numba kernel (:mod:`euchre.solver.fast`) when numba imports and
``EUCHRE_NO_NUMBA`` is not set to a non-empty value other than ``0``; otherwise the plain-Python
reference (:mod:`euchre.solver.reference`). Both give identical values (tested).

Reneges: under ``renege="penalize"`` the engine also lets a player fail to follow suit, to be
claimed after the last trick. The solvers value lawful play only (``move_values`` holds the
lawful cards); a renege would be a gift of a claim to a double-dummy opponent. ``points`` assume
no renege claim, so they are the hand's score for a hand without reneges.

The core (``euchre/*.py``) never imports this package.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from euchre.solver.position import (
    TRICKS_PER_HAND,
    NotSolvableError,
    Position,
    lawful_cards,
    points_for,
    position_of,
    solvable,
)
from euchre.solver.reference import reference_move_values
from euchre.state import PLAY, HandState

__all__ = [
    "BACKEND",
    "MoveValue",
    "NotSolvableError",
    "Position",
    "Solution",
    "available_backends",
    "lawful_cards",
    "maker_move_values",
    "move_values_batch",
    "points_for",
    "position_of",
    "principal_line",
    "solvable",
    "solve",
]

Backend = Literal["numba", "python"]


@dataclass(frozen=True, slots=True)
class MoveValue:
    """The result of one card of the player to move, followed by best play from everyone."""

    tricks: tuple[int, ...]
    """Final tricks per side (the layout of ``state.points``), tricks already taken included."""
    points: tuple[int, ...]
    """What the hand scores per side."""
    maker_tricks: int
    """The makers' final tricks (the number the solver optimises)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The exact outcome of a position's card play under best play by everyone."""

    tricks: tuple[int, ...]
    """Final tricks per side (the layout of ``state.points``), tricks already taken included."""
    points: tuple[int, ...]
    """What the hand scores per side under best play (``state.points`` layout)."""
    maker_tricks: int
    """The makers' final tricks under best play."""
    to_move: int
    """The seat whose lawful cards ``move_values`` values."""
    move_values: dict[int, MoveValue]
    """Every lawful card of the player to move (an action id) and its outcome."""
    best_moves: tuple[int, ...]
    """The cards that keep best play's result for the mover's team (most tricks for the
    makers, fewest for the defenders), in id order; all equally good."""


def _numba_allowed() -> bool:
    flag = os.environ.get("EUCHRE_NO_NUMBA", "")
    return flag in ("", "0")


def available_backends() -> tuple[Backend, ...]:
    """The backends that can run here, best first. Only looks numba and numpy up (importing
    numba takes seconds): the kernel is imported, and compiled or loaded from numba's cache, on
    the first solve that uses it."""
    if _numba_allowed() and all(importlib.util.find_spec(m) is not None
                                for m in ("numba", "numpy")):
        return ("numba", "python")
    return ("python",)


BACKEND: Backend = available_backends()[0]
"""The backend :func:`solve` and :func:`move_values_batch` use unless told otherwise."""


def _python_batch(positions: Sequence[Position]) -> list[dict[int, int]]:
    return [reference_move_values(p) for p in positions]


BatchFunction = Callable[[Sequence[Position]], list[dict[int, int]]]


def _batch_function(backend: Backend | None) -> BatchFunction:
    chosen = backend or BACKEND
    if chosen == "numba":
        from euchre.solver.fast import fast_move_values

        return fast_move_values
    if chosen == "python":
        return _python_batch
    raise ValueError(f"unknown solver backend {chosen!r}; choose one of: numba, python")


def maker_move_values(
    positions: Sequence[Position], backend: Backend | None = None
) -> list[dict[int, int]]:
    """For each position, the makers' final tricks after each lawful card of its player to
    move: the building block of :func:`solve` and :func:`move_values_batch`."""
    return _batch_function(backend)(positions)


def move_values_batch(
    states: Sequence[HandState], backend: Backend | None = None
) -> list[dict[int, int]]:
    """For each state (in card play), the final tricks of the mover's team after each lawful
    card of the player to move, under best play from there.

    "The mover's team" is the makers' team when a maker moves, else the defenders together; the
    count includes tricks already taken. One compiled call solves the whole batch."""
    positions = [position_of(s) for s in states]
    makers = maker_move_values(positions, backend)
    out: list[dict[int, int]] = []
    for pos, vals in zip(positions, makers, strict=True):
        if pos.is_maker(pos.to_move):
            out.append(vals)
        else:
            out.append({c: TRICKS_PER_HAND - v for c, v in vals.items()})
    return out


def _side_tricks(
    state: HandState, maker_tricks: int, line_tricks: Sequence[int]
) -> tuple[int, ...]:
    """Final tricks per side: the makers' count, the rest to the defending side(s). Only with
    three players do two defending sides share, and ``line_tricks`` (tricks per seat at the end
    of a principal line) gives their split."""
    sides = state.rules.num_sides
    maker_side = state.side_of(state.maker)
    out = [0] * sides
    if sides == 2:
        out[maker_side] = maker_tricks
        out[1 - maker_side] = TRICKS_PER_HAND - maker_tricks
        return tuple(out)
    for seat in range(state.n):
        out[state.side_of(seat)] = line_tricks[seat]
    return tuple(out)


def principal_line(
    state: HandState, backend: Backend | None = None
) -> list[tuple[int, int, dict[int, int], tuple[int, ...]]]:
    """Best play from ``state`` to the end of the hand: for each card played, (seat, card,
    the makers' final tricks for each lawful alternative, the best cards). The first best card
    in id order is the one played. ``state`` is left as it was."""
    work = state.clone()
    line: list[tuple[int, int, dict[int, int], tuple[int, ...]]] = []
    while work.phase == PLAY:
        pos = position_of(work)
        vals = maker_move_values([pos], backend)[0]
        best = _best(vals, pos.is_maker(pos.to_move))
        line.append((work.cur, best[0], vals, best))
        work.apply_action(best[0])
    return line


def _best(vals: dict[int, int], maker_to_move: bool) -> tuple[int, ...]:
    target = max(vals.values()) if maker_to_move else min(vals.values())
    return tuple(c for c, v in sorted(vals.items()) if v == target)


def _line_tricks(state: HandState, backend: Backend | None) -> list[int]:
    work = state.clone()
    for _, card, _, _ in principal_line(work, backend):
        work.apply_action(card)
    return list(work.tricks_won)


def solve(state: HandState, backend: Backend | None = None) -> Solution:
    """The exact outcome of ``state``'s card play and the value of each lawful card to play.

    ``state`` must be in card play (:class:`NotSolvableError` otherwise); it is not changed."""
    pos = position_of(state)
    vals = maker_move_values([pos], backend)[0]
    maker_to_move = pos.is_maker(pos.to_move)
    best = _best(vals, maker_to_move)
    three = state.rules.num_sides > 2
    moves: dict[int, MoveValue] = {}
    for c, v in vals.items():
        line_tricks: list[int] = []
        if three:
            work = state.clone()
            work.apply_action(c)
            line_tricks = _line_tricks(work, backend) if work.phase == PLAY else list(
                work.tricks_won)
        moves[c] = MoveValue(
            tricks=_side_tricks(state, v, line_tricks),
            points=points_for(state, v),
            maker_tricks=v,
        )
    top = moves[best[0]]
    return Solution(
        tricks=top.tricks,
        points=top.points,
        maker_tricks=top.maker_tricks,
        to_move=state.cur,
        move_values=moves,
        best_moves=best,
    )

