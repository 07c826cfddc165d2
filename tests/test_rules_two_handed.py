"""Two-handed Euchre (seed 004)."""

from __future__ import annotations

import random

import pytest
from helpers import act, build, mask, play_out

from euchre import actions as A
from euchre.cards import CLUBS, HEARTS, deck_cards, parse_card
from euchre.errors import RulesError
from euchre.rules import Rules, preset
from euchre.state import (
    BID1,
    BID2,
    DEALER_TAKE,
    DISCARD,
    PLAY,
    SCORED,
    THROWN_IN,
    UP_LEFT,
    UP_TAKEN,
    HandState,
)

pytestmark = pytest.mark.core

TWO = preset("two-handed")
D, ND = 0, 1  # dealer seat 0, non-dealer seat 1


def fresh(rules: Rules = TWO, up: str = "AH") -> HandState:
    return build(["9C TC QC KC AC", "9D TD QD KD AD"], up, rules=rules, dealer=D)


def test_two_handed_deals_five_each_and_leaves_a_thirteen_card_kitty() -> None:
    h = HandState(TWO, D, deck_cards(24))
    assert [x.bit_count() for x in h.hands] == [5, 5]
    assert len(h.kitty) == 13
    # 3 to the non-dealer, 2 to the dealer, then 2 to the non-dealer and 3 to the dealer.
    assert h.hands[ND] == mask("9C TC JC AC 9D")
    assert h.hands[D] == mask("QC KC TD JD QD")
    assert h.upcard == parse_card("KD")


def test_two_handed_non_dealer_bids_first() -> None:
    h = fresh()
    assert h.phase == BID1 and h.current_player == ND
    assert h.legal_actions() == [A.PASS, A.ORDER]  # no going alone


def test_two_handed_non_dealer_orders_up_dealer_may_take_it() -> None:
    h = fresh()
    act(h, "order")
    assert h.trump == HEARTS and h.maker == ND
    assert h.phase == DEALER_TAKE and h.current_player == D
    assert h.legal_actions() == [A.DECLINE, A.TAKE]
    act(h, "take")
    assert h.up_status == UP_TAKEN and h.phase == DISCARD and h.current_player == D
    act(h, "discard 9C")
    assert h.phase == PLAY and h.trump == HEARTS and h.maker == ND


def test_two_handed_dealer_declines_the_ordered_card_and_the_suit_is_trump_anyway() -> None:
    h = fresh()
    act(h, "order", "decline")
    assert h.trump == HEARTS and h.maker == ND
    assert h.up_status == UP_LEFT
    assert h.hands[D] == mask("9C TC QC KC AC")
    assert h.phase == PLAY


def test_two_handed_non_dealer_passes_dealer_may_accept() -> None:
    h = fresh()
    act(h, "pass")
    assert h.current_player == D
    assert h.legal_actions() == [A.PASS, A.ORDER]
    act(h, "accept")
    assert h.maker == D and h.trump == HEARTS
    assert h.phase == DISCARD and h.hands[D] >> parse_card("AH") & 1


def test_two_handed_both_pass_goes_to_round_two_non_dealer_first() -> None:
    h = fresh()
    act(h, "pass", "pass")
    assert h.phase == BID2 and h.current_player == ND
    assert A.CALL_BASE + HEARTS not in h.legal_actions()
    act(h, "pass", "call C")
    assert h.trump == CLUBS and h.maker == D and h.phase == PLAY


def test_two_handed_no_bid_in_round_two_a_new_hand_is_dealt() -> None:
    h = fresh()
    act(h, "pass", "pass", "pass", "pass")
    assert h.outcome == THROWN_IN and h.points == (0, 0)


def test_two_handed_stick_the_dealer_dealer_cannot_pass_round_two() -> None:
    h = fresh(TWO.replace(stick_the_dealer=True))
    act(h, "pass", "pass", "pass")
    assert h.current_player == D and A.PASS not in h.legal_actions()


def test_two_handed_non_dealer_leads() -> None:
    for bids in (["order", "decline"], ["order", "take", "discard 9C"],
                 ["pass", "order", "discard 9C"], ["pass", "pass", "call S"]):
        h = fresh()
        act(h, *bids)
        assert h.phase == PLAY and h.current_player == ND


def test_two_handed_tricks_have_two_cards() -> None:
    h = play_out(fresh(), random.Random(0))
    if h.outcome == SCORED:
        assert all(len(t) == 2 for _, t, _ in h.tricks)
        assert sum(h.tricks_won) == 5


def test_two_handed_scoring_maker_one_or_two_euchre_two_to_the_defender() -> None:
    rng = random.Random(4)
    seen = set()
    for i in range(400):
        h = play_out(HandState.deal(TWO, i % 2, rng), rng)
        if h.outcome != SCORED:
            continue
        made = h.tricks_won[h.maker]
        other = 1 - h.maker
        if made == 5:
            expected = {h.maker: 2}
        elif made >= 3:
            expected = {h.maker: 1}
        else:
            expected = {other: 2}
        assert dict((s, p) for s, p in enumerate(h.points) if p) == expected
        seen.add("march" if made == 5 else "make" if made >= 3 else "euchred")
    assert seen == {"march", "make", "euchred"}


def test_two_handed_has_no_going_alone() -> None:
    assert Rules(players=2).going_alone is False
    with pytest.raises(RulesError, match="no going alone"):
        Rules(players=2, going_alone=True)
    h = fresh()
    act(h, "pass", "pass")
    assert all(a < A.CALL_ALONE_BASE for a in h.legal_actions())


def test_two_handed_plays_with_the_32_card_and_joker_decks() -> None:
    for deck, kitty in ((32, 21), (25, 14)):
        h = HandState.deal(TWO.replace(deck=deck), D, random.Random(deck))
        assert len(h.kitty) == kitty
        play_out(h, random.Random(1))
        assert h.is_terminal()
