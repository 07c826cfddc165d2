"""What a finished hand scores: one pure table that the engine and the solvers both read.

The engine scores a hand with it when the last trick is quitted; the double-dummy solvers score
each final trick count with it, so a solved value and a played-out hand can never disagree on
what a march or a euchre is worth. A renege claim is scored by the engine alone (it is outside
card play).
"""

from __future__ import annotations

from euchre.rules import Rules
from euchre.seats import Seat, side_of

TRICKS_PER_HAND = 5
"""Tricks in a hand of every game but two-handed with rows."""
TRICKS_TO_MAKE = 3
"""Tricks the makers need (of five) to score."""
ROWS_TRICKS_PER_HAND = 12
"""Two-handed with rows: every card is played, twelve tricks a hand."""
ROWS_BASE = 6
"""Two-handed with rows: a maker who takes the tricks bid scores one point per trick past six."""


def hand_points(
    rules: Rules,
    maker: Seat,
    maker_tricks: int,
    *,
    alone: bool = False,
    lone_defender: bool = False,
    contract: int = 0,
) -> tuple[int, ...]:
    """The points per side (the layout of ``HandState.points``) when the makers finish with
    ``maker_tricks`` tricks, no renege claimed.

    ``alone``: the maker played alone (a lone march); ``lone_defender``: a defender played alone
    (a euchre by one is worth more). ``contract`` is the tricks bid with rows: there only the
    maker scores, one point a trick past six when it takes what it bid, and under
    ``rows_euchre`` a missed bid gives the other player a euchre (docs/rules.md)."""
    sc = rules.scoring
    pts = [0] * rules.num_sides
    if rules.rows:
        if maker_tricks >= contract:
            pts[maker] = sc.make * (maker_tricks - ROWS_BASE)
        elif rules.rows_euchre:
            pts[1 - maker] = sc.euchre
        return tuple(pts)
    maker_side = side_of(maker, rules.players)
    if maker_tricks >= TRICKS_TO_MAKE:
        if maker_tricks < TRICKS_PER_HAND:
            pts[maker_side] = sc.make
        else:
            pts[maker_side] = sc.lone_march if alone else sc.march
    else:
        value = sc.euchre_lone_defender if lone_defender else sc.euchre
        for side in range(rules.num_sides):
            if side != maker_side:
                pts[side] = value
    return tuple(pts)
