"""The public view holds what anyone watching may know, and nothing a seat keeps hidden."""

from __future__ import annotations

import random

import pytest

from euchre import actions as A
from euchre.match import Match
from euchre.phases import Phase
from euchre.public_view import NO_SEAT, PRIVATE_FIELDS, public_view
from euchre.rules import PRESETS, Rules
from euchre.view import FACE_DOWN, HIDDEN_DISCARD, HIDDEN_SWAP, SeatView

pytestmark = pytest.mark.core

CASES = {**PRESETS,
         "renege claims": Rules.from_dict({**PRESETS["standard"].to_dict(), "target": 3,
                                           "renege": "penalize", "renege_fix": True}),
         "farmer's swap": Rules.from_dict({**PRESETS["standard"].to_dict(), "target": 3,
                                           "farmers_hand": "swap", "no_ace_no_face": True,
                                           "deck": 32})}


@pytest.mark.parametrize("case", list(CASES))
def test_the_public_view_names_only_public_cards(case: str) -> None:
    rules = CASES[case]
    for seed in range(3):
        m = Match(rules, seed=seed)
        rng = random.Random(seed)
        public: set[int] = set()
        for _ in range(400):
            h = m.hand
            if h.upcard >= 0:
                public.add(h.upcard)
            for s in range(rules.players):
                public.update(h.face_up(s))
            v = public_view(h, tuple(m.scores))
            assert v.seat == NO_SEAT and v.hand == () and v.discard == -1
            assert v.swapped_out == () and v.legal_actions == () and not v.my_turn
            named = {c for _, cards, _ in v.tricks for _, c in cards}
            named |= {c for _, c in v.current_trick}
            named |= {c for row in v.rows for top, under in row
                      for c in (top, under) if c != FACE_DOWN}
            named |= {a for _, a in v.history if 0 <= a <= 32}
            assert named <= public | ({v.upcard} if v.upcard >= 0 else set())
            for _, a in v.history:
                assert a in (HIDDEN_DISCARD, HIDDEN_SWAP) or not (
                    A.is_discard(a) or a >= A.SWAP_BASE), a
            # every seat saw at least what a spectator sees, in the same order
            for seat in range(rules.players):
                sv = h.view(seat, tuple(m.scores))
                assert (sv.tricks, sv.current_trick, sv.rows, sv.hand_sizes, sv.scores) == \
                    (v.tricks, v.current_trick, v.rows, v.hand_sizes, v.scores)
                seen = iter(sv.history)
                assert all(any(e == x or (e[0] == x[0] and e[1] < 0) for x in seen)
                           for e in v.history)
            if m.is_terminal():
                break
            a = rng.choice(m.legal_actions())
            if 0 <= a <= 32:
                public.add(a)
            m.apply_action(a)


def test_the_public_view_hides_a_discard_that_its_dealer_sees() -> None:
    """Not vacuous: in a hand with a discard, the dealer's view names it and the public one
    does not."""
    m = Match(PRESETS["standard"], seed=1)
    rng = random.Random(1)
    while m.hand.phase_name != Phase.PLAY or not any(A.is_discard(a) for _, a in m.hand.history):
        if m.hand.phase_name == Phase.BID1:
            m.apply_action(next(a for a in m.legal_actions() if a != A.PASS))
        else:
            m.apply_action(rng.choice(m.legal_actions()))
    h = m.hand
    dealer_view = h.view(h.dealer)
    assert dealer_view.discard >= 0
    assert any(A.is_discard(a) for _, a in dealer_view.history)
    pv = public_view(h)
    assert pv.discard == -1 and (h.dealer, HIDDEN_DISCARD) in pv.history


#: What a SeatView says that the whole table sees alike.
PUBLIC_FIELDS = {"rules", "dealer", "phase", "current_player", "upcard", "upcard_status",
                 "trump", "maker", "alone", "lone_defender", "active", "tricks",
                 "current_trick", "tricks_won", "hand_sizes", "swapper", "outcome", "points",
                 "scores", "rows"}


def test_every_seat_view_field_is_known_to_be_public_or_private() -> None:
    """A field added to SeatView must be sorted into one of the two lists (a public view copies
    every field it does not know as private)."""
    import dataclasses

    names = {f.name for f in dataclasses.fields(SeatView)}
    assert names == PUBLIC_FIELDS | set(PRIVATE_FIELDS)
    assert not PUBLIC_FIELDS & set(PRIVATE_FIELDS)
