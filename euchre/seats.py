"""Seats, partners, sides and the dealing order: the table facts every module asks about.

Seats are numbered clockwise from 0. With four players, seats across the table (``seat`` and
``seat + 2``) are partners and score as one side, ``seat % 2``; with two or three players each
seat is its own side. Everything else in the library (the state, the views, the solver, the
bots) asks these functions instead of working the answer out again.
"""

from __future__ import annotations

from typing import Final, TypeAlias

Seat: TypeAlias = int
"""A seat at the table, 0 to players - 1, clockwise (North, East, South, West with four)."""

SEAT_NAMES_4: Final = ("North", "East", "South", "West")
SIDE_NAMES_4: Final = ("North-South", "East-West")


def seat_name(seat: Seat, players: int) -> str:
    """North/East/South/West for four players; "Player N" otherwise."""
    return SEAT_NAMES_4[seat] if players == 4 else f"Player {seat + 1}"


def side_name(side: int, players: int) -> str:
    """A scoring side (``side_of``) by its seats: North-South and East-West with four
    players; with two or three each seat is its own side, named as the seat."""
    return SIDE_NAMES_4[side] if players == 4 else seat_name(side, players)


def partner(seat: Seat, players: int) -> Seat:
    """The partner across the table (four players only; otherwise the seat itself)."""
    return (seat + 2) % 4 if players == 4 else seat


def side_of(seat: Seat, players: int) -> int:
    """The scoring side of a seat: its partnership (seat % 2) with four players, else itself."""
    return seat & 1 if players == 4 else seat


def is_maker_side(seat: Seat, maker: Seat, players: int) -> bool:
    """Whether ``seat`` plays for the makers: the maker, and the maker's partner with four
    players. False while nobody has made trump (``maker`` < 0). Three-handed, the two defenders
    team up for the hand but are not the makers' side."""
    if maker < 0:
        return False
    return seat == maker or (players == 4 and seat == (maker + 2) % 4)


#: The four seats counted from the dealer's left: the eldest leads first, the dealer bids last.
POSITIONS_4: Final = ("eldest", "second", "third", "dealer")


def position_name(seat: Seat, dealer: Seat, players: int) -> str:
    """Where ``seat`` sits counted from ``dealer``'s left: eldest, second, third, dealer (the
    second is the dealer's partner with four players), the words bidding advice is given in."""
    k = (seat - dealer - 1) % players
    if k == players - 1:
        return "dealer"
    return POSITIONS_4[k]


def _packets(players: int) -> list[tuple[int, int]]:
    """(offset from the dealer's left, packet size) in dealing order: 3-2 then 2-3 rounds."""
    first = [(i, 3 if i % 2 == 0 else 2) for i in range(players)]
    second = [(i, 5 - size) for i, size in first]
    return first + second


def deal_order(players: int, dealer: Seat) -> tuple[Seat, ...]:
    """The seat that receives each of the first ``5 * players`` cards of a deck (top card first),
    dealt in packets of three and two from the dealer's left: how a deck order becomes hands."""
    out: list[Seat] = []
    for offset, size in _packets(players):
        out.extend([(dealer + 1 + offset) % players] * size)
    return tuple(out)
