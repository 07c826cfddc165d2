"""Random card-play positions of every kind, for the solver tests.

A position is a real :class:`HandState`: a seeded deal under some rules, bidding by random legal
actions until card play starts (a thrown-in hand is dealt again), then ``plays`` random lawful
cards. Rules cover every trick size: four players with partners (4-card tricks), a loner
(3-card tricks), a loner met by a lone defender (2-card tricks), cutthroat (3) and two-handed
(2), on 24-, 25- (Joker) and 32-card decks.
"""

from __future__ import annotations

import random

from euchre import actions as A
from euchre.rules import Rules
from euchre.solver.position import lawful_cards
from euchre.state import PLAY, HandState

KINDS = ("four", "alone", "lone_defender", "cutthroat", "two")
DECKS = (24, 25, 32)


def rules_for(kind: str, deck: int) -> Rules:
    if kind == "cutthroat":
        return Rules(players=3, deck=deck)
    if kind == "two":
        return Rules(players=2, deck=deck)
    return Rules(deck=deck, defend_alone=kind == "lone_defender")


def _bid(state: HandState, kind: str, rng: random.Random) -> None:
    """Random bidding steered toward ``kind``: alone for loners, defend alone when asked."""
    while state.phase != PLAY and not state.is_terminal():
        legal = state.legal_actions()
        if kind in ("alone", "lone_defender"):
            alone = [a for a in legal if a == A.ORDER_ALONE or (a >= A.CALL_ALONE_BASE
                     and a < A.DEFEND_ALONE)]
            if alone:
                state.apply_action(rng.choice(alone))
                continue
            if kind == "lone_defender" and A.DEFEND_ALONE in legal:
                state.apply_action(A.DEFEND_ALONE)
                continue
            if A.DEFEND_ALONE in legal:
                state.apply_action(A.PASS)
                continue
        elif kind == "four":
            legal = [a for a in legal if not (a == A.ORDER_ALONE or A.CALL_ALONE_BASE <= a
                                              < A.DEFEND_ALONE)] or legal
        state.apply_action(rng.choice(legal))


def random_position(rng: random.Random, kind: str, deck: int, plays: int) -> HandState:
    """A state in card play after ``plays`` random lawful cards (at most all but the last)."""
    rules = rules_for(kind, deck)
    while True:
        state = HandState.deal(rules, rng.randrange(rules.players), rng)
        _bid(state, kind, rng)
        if state.phase != PLAY:
            continue
        if kind == "alone" and (not state.alone or state.lone_defender >= 0):
            continue
        if kind == "lone_defender" and state.lone_defender < 0:
            continue
        if kind == "four" and state.alone:
            continue
        for _ in range(min(plays, 5 * len(state.active) - 1)):
            state.apply_action(rng.choice(lawful_cards(state)))
            if state.phase != PLAY:
                break
        if state.phase == PLAY:
            return state
