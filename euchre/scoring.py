"""What a finished hand scores: one pure table that the engine and the solvers both read.

The engine scores a hand with it when the last trick is quitted; the double-dummy solvers score
each final trick count with it, so a solved value and a played-out hand can never disagree on
what a march or a euchre is worth. A renege claim is scored by the engine alone (it is outside
card play).
"""

from __future__ import annotations

from typing import Final

from euchre.rules import Rules
from euchre.seats import Seat, is_maker_side, side_of

TRICKS_PER_HAND: Final = 5
"""Tricks in a hand of every game but two-handed with rows."""
TRICKS_TO_MAKE: Final = 3
"""Tricks the makers need (of five) to score."""
ROWS_TRICKS_PER_HAND: Final = 12
"""Two-handed with rows: every card is played, twelve tricks a hand."""
ROWS_BASE: Final = 6
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
    (a euchre by one is worth more). ``contract`` is the tricks bid in a game played for a
    contract (two-handed with rows; 0 in every other game): there only the maker scores, one
    point a trick past six when it takes what it bid, and under ``rows_euchre`` a missed bid
    gives the other player a euchre (docs/rules.md). A hand is only scored with a contract once
    somebody bid, so the contract itself tells which table applies."""
    sc = rules.scoring
    pts = [0] * rules.num_sides
    if contract:
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


def renege_points(
    rules: Rules,
    maker: Seat,
    maker_tricks: int,
    *,
    claimant_makers: bool,
    alone: bool = False,
    lone_defender: bool = False,
    contract: int = 0,
) -> tuple[int, ...]:
    """The points per side after a true renege claim (by the makers' side when
    ``claimant_makers``), settled as ``rules.renege_penalty`` says (docs/rules.md): "tricks"
    moves two of the offending side's tricks (all, if fewer) to the claimants and scores the
    hand on that; "points" gives the claimants the renege points; "deduct" takes them from the
    offenders, below zero. A lone maker who claims before marching scores the lone value."""
    sc = rules.scoring
    per_hand = ROWS_TRICKS_PER_HAND if contract else TRICKS_PER_HAND
    mode = rules.renege_penalty
    if mode == "tricks":
        made = maker_tricks + (min(2, per_hand - maker_tricks) if claimant_makers
                               else -min(2, maker_tricks))
        return hand_points(rules, maker, made, alone=alone, lone_defender=lone_defender,
                           contract=contract)
    lone_beaten = claimant_makers and alone and maker_tricks < per_hand
    value = sc.renege_lone if lone_beaten else sc.renege
    pts = [0] * rules.num_sides
    for s in range(rules.players):
        on_makers = is_maker_side(s, maker, rules.players)
        if mode == "points" and on_makers == claimant_makers:
            pts[side_of(s, rules.players)] = value
        elif mode == "deduct" and on_makers != claimant_makers:
            pts[side_of(s, rules.players)] = -value  # the offending side loses them: below zero
    return tuple(pts)
