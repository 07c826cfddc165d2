"""House rules and options: defend alone, farmer's hand, no ace no face no trump, renege
penalties, the Joker, the 32-card deck, stick the dealer, and OpenSpiel's switches."""

from __future__ import annotations

import random

import pytest
from helpers import act, build, cards, mask, play_out

from euchre import actions as A
from euchre.cards import HEARTS, JOKER, SPADES, SUIT_MASK, deck_cards, parse_card
from euchre.errors import IllegalActionError
from euchre.phases import Phase
from euchre.rules import Rules, preset
from euchre.state import (
    ALONE,
    BID1,
    DECLARE,
    DEFEND,
    DISCARD,
    MISDEAL_REDEAL,
    PLAY,
    SCORED,
    UP_TAKEN,
    HandState,
)
from euchre.view import HIDDEN_SWAP

pytestmark = pytest.mark.core

N, E, S, W = 0, 1, 2, 3


def follow_first(state: HandState, rng: random.Random) -> int:
    """Play the first card that follows suit (never reneges, even when allowed to)."""
    legal = state.legal_actions()
    if state.phase == PLAY and state.trick:
        follow = state.hands[state.cur] & SUIT_MASK[state.trump][state.led]
        ok = [c for c in legal if follow >> c & 1]
        if ok:
            return ok[0]
    if state.phase != PLAY and A.PASS in legal:
        return A.PASS
    return legal[0]


# -------------------------------------------------------------------------------------------
# Defend alone


EUCHRE = ["JH JD AH KH QH", "9C QC 9D TD 9S", None, None]


def east_alone_in_hearts(hands: list[str | None], rules: Rules) -> HandState:
    h = build(hands, "TC", rules=rules)
    act(h, "pass", "pass", "pass", "pass", "call H alone")
    return h


def test_defend_alone_defenders_are_asked_in_turn_from_the_dealers_left() -> None:
    h = east_alone_in_hearts(EUCHRE, Rules(defend_alone=True))
    assert h.phase == DEFEND and h.current_player == S
    assert h.legal_actions() == [A.PASS, A.DEFEND_ALONE]
    act(h, "pass")
    assert h.phase == DEFEND and h.current_player == N
    act(h, "pass")
    assert h.phase == PLAY and h.lone_defender == -1
    assert h.active == (N, E, S)


def test_defend_alone_partner_sits_out_and_tricks_have_two_cards() -> None:
    h = east_alone_in_hearts(EUCHRE, Rules(defend_alone=True))
    act(h, "defend alone")  # South
    assert h.lone_defender == S
    assert h.active == (E, S)
    assert h.phase == PLAY and h.current_player == E
    play_out(h, random.Random(2))
    assert all(len(t) == 2 for _, t, _ in h.tricks)


def test_defend_alone_euchre_scores_four() -> None:
    for seed in range(6):
        h = east_alone_in_hearts(EUCHRE, Rules(defend_alone=True))
        act(h, "pass", "defend alone")  # North, with the five top trumps, defends alone
        play_out(h, random.Random(seed))
        assert h.tricks_won[N] == 5
        assert h.points == (4, 0)


def test_defend_alone_is_not_offered_against_a_maker_with_partner() -> None:
    h = build(EUCHRE, "TC", rules=Rules(defend_alone=True))
    act(h, "pass", "pass", "pass", "pass", "call H")
    assert h.phase == PLAY


def test_defend_alone_off_no_defender_is_asked() -> None:
    h = east_alone_in_hearts(EUCHRE, Rules())
    assert h.phase == PLAY and h.lone_defender == -1


# -------------------------------------------------------------------------------------------
# Farmer's hand


def test_farmers_hand_redeal_a_hand_of_nines_and_tens_may_call_a_redeal() -> None:
    h = build([None, "9C TC 9D TD 9S", None, None], "AH", rules=Rules(farmers_hand="redeal"))
    assert h.phase == DECLARE and h.current_player == E
    assert h.legal_actions() == [A.PASS, A.FARMER]
    act(h, "farmer")
    assert h.is_terminal() and h.outcome == MISDEAL_REDEAL
    assert h.points == (0, 0)


def test_farmers_hand_redeal_is_declared_before_bidding_and_may_be_declined() -> None:
    h = build([None, "9C TC 9D TD 9S", None, None], "AH", rules=Rules(farmers_hand="redeal"))
    act(h, "pass")
    while h.phase == DECLARE:  # the other seats are asked too; none of them qualifies
        assert h.legal_actions() == [A.PASS]
        act(h, "pass")
    assert h.phase == BID1 and h.current_player == E
    assert A.FARMER not in h.legal_actions()


def test_farmers_hand_redeal_needs_only_low_cards() -> None:
    h = build([None, "9C TC 9D TD JS", None, None], "AH", rules=Rules(farmers_hand="redeal"))
    assert h.phase == DECLARE and h.current_player == E
    assert h.legal_actions() == [A.PASS]  # a Jack spoils it: East may only pass


def test_every_seat_is_asked_to_declare_so_being_asked_reveals_nothing() -> None:
    """Asking only qualifying hands would tell the table who holds a farmer's hand: every seat
    is asked in turn from the dealer's left, and a pass is seen only by the seat that made it."""
    h = build([None, None, "9C TC 9D TD 9S", None], "AH", rules=Rules(farmers_hand="redeal"))
    asked = []
    while h.phase == DECLARE:
        asked.append(h.current_player)
        act(h, "pass")
    assert asked == [E, S, W, N]
    assert h.phase == BID1
    for seat in (N, E, W):
        assert all(who == seat for who, _ in h.view(seat).history)


def test_farmers_hand_swap_three_low_cards_for_the_face_down_kitty() -> None:
    rules = Rules(farmers_hand="swap")
    h = build([None, "9C TC 9D AS KS", None, None], "AH", "JC JD JS", rules=rules)
    assert h.phase == DECLARE and h.current_player == E
    swap = A.swap(cards("9C TC 9D"))
    assert h.legal_actions() == [A.PASS, swap]
    act(h, "swap 9C TC 9D")
    assert h.hands[E] == mask("AS KS JC JD JS")
    assert sorted(h.kitty) == sorted(cards("9C TC 9D"))
    assert h.swapper == E
    while h.phase == DECLARE:  # the kitty is used: the others may only pass
        assert h.legal_actions() == [A.PASS]
        act(h, "pass")
    assert h.phase == BID1


def test_farmers_hand_swap_offers_every_choice_of_three_low_cards() -> None:
    rules = Rules(farmers_hand="swap")
    h = build([None, "9C TC 9D TD AS", None, None], "AH", rules=rules)
    swaps = [a for a in h.legal_actions() if a >= A.SWAP_BASE]
    assert len(swaps) == 4  # C(4, 3)


def test_farmers_hand_swap_needs_three_low_cards() -> None:
    rules = Rules(farmers_hand="swap")
    h = build(["AC KC QC AD KD", "9C TC AS KS QS", "JC JD AH KH QH", "JS TS JH 9H TH"], "QD",
              rules=rules)
    # Only West holds three low cards (10♠ 9♥ 10♥): East and South may only pass.
    for seat in (E, S):
        assert h.phase == DECLARE and h.current_player == seat
        assert h.legal_actions() == [A.PASS]
        act(h, "pass")
    assert h.current_player == W
    assert A.swap(cards("TS 9H TH")) in h.legal_actions()


def test_farmers_hand_swap_is_private_to_the_swapper() -> None:
    rules = Rules(farmers_hand="swap")
    h = build([None, "9C TC 9D AS KS", None, None], "AH", rules=rules)
    act(h, "swap 9C TC 9D")
    mine = h.view(E).history
    theirs = h.view(S).history
    assert mine[0] == (E, A.swap(cards("9C TC 9D")))
    assert theirs[0] == (E, HIDDEN_SWAP)
    assert h.view(E).swapped_out == tuple(cards("9C TC 9D"))
    assert h.view(S).swapped_out == ()


def test_farmers_hand_only_one_swap_per_hand() -> None:
    rules = Rules(farmers_hand="swap")
    h = build(["9H TH 9S AC KC", "9C TC 9D AS KS", None, None], "AH", rules=rules)
    assert h.current_player == E
    act(h, "swap 9C TC 9D")
    # North also holds three low cards but the kitty has been used: North may only pass.
    while h.current_player != N:
        act(h, "pass")
    assert h.phase == DECLARE and h.legal_actions() == [A.PASS]
    act(h, "pass")
    assert h.phase == BID1


# -------------------------------------------------------------------------------------------
# No ace, no face, no trump


def test_no_ace_no_face_no_trump_may_call_a_misdeal() -> None:
    h = build([None, "9C TC 9D TD 9S", None, None], "AH", rules=Rules(no_ace_no_face=True))
    assert h.legal_actions() == [A.PASS, A.MISDEAL]
    act(h, "misdeal")
    assert h.outcome == MISDEAL_REDEAL and h.points == (0, 0)


def test_no_ace_no_face_no_trump_a_card_of_the_upcard_suit_is_a_trump() -> None:
    h = build([None, "9C TC 9D TD 9H", None, None], "AH", rules=Rules(no_ace_no_face=True))
    assert h.current_player == E and h.legal_actions() == [A.PASS]


def test_no_ace_no_face_no_trump_a_face_card_spoils_it() -> None:
    h = build([None, "9C TC 9D TD QS", None, None], "AH", rules=Rules(no_ace_no_face=True))
    assert h.current_player == E and h.legal_actions() == [A.PASS]


# -------------------------------------------------------------------------------------------
# Renege: penalize

SPADES_DEAL: list[str | None] = [
    "JC 9C AH KH QH", "AC AD KD QD TD", "KC QC TC 9H TH", "JH JD 9D AS KS",
]


def spades_renege(rules: Rules) -> HandState:
    """Spades trump (East ordered up the 9♠), East leads A♣, South reneges with the 9♥."""
    h = build(SPADES_DEAL, "9S", "JS QS TS", rules=rules)
    act(h, "order", "discard 9S", "AC")
    assert h.current_player == S
    assert parse_card("9H") in h.legal_actions()  # any card may be played
    act(h, "9H")
    return h


def test_renege_penalize_a_failure_to_follow_can_be_played_and_is_recorded() -> None:
    h = spades_renege(Rules(renege="penalize"))
    assert h.reneges == [(S, 0, parse_card("9H"))]


def test_renege_claimed_before_scoring_gives_the_other_side_two() -> None:
    h = spades_renege(Rules(renege="penalize"))
    while h.phase == PLAY:
        h.apply_action(follow_first(h, random.Random(0)))
    assert h.phase_name == Phase.CLAIM and h.current_player == E
    assert h.legal_actions() == [A.PASS, A.CLAIM_RENEGE]
    act(h, "claim renege")
    assert h.is_terminal() and h.outcome == SCORED
    assert h.points == (0, 2)  # East-West, the side that did not renege


def test_renege_false_claim_changes_nothing() -> None:
    rules = Rules(renege="penalize")
    honest = spades_renege(rules)
    while honest.phase == PLAY:
        honest.apply_action(follow_first(honest, random.Random(0)))
    act(honest, "pass", "pass")
    h = spades_renege(rules)
    while h.phase == PLAY:
        h.apply_action(follow_first(h, random.Random(0)))
    act(h, "pass")  # East does not claim
    assert h.current_player == S
    act(h, "claim renege")  # South's side reneged; East-West did not: a false claim
    assert h.is_terminal()
    assert h.renege_claimed == -1
    assert h.points == honest.points
    assert h.tricks == honest.tricks


def test_renege_that_defeated_a_lone_hand_costs_four() -> None:
    # East alone in hearts with the three top trumps; North holds the other four and the A♠.
    h = build(["KH QH TH 9H AS", "JH JD AH 9C 9S", "KS QS AC KC QC", None], "TC",
              rules=Rules(renege="penalize"))
    act(h, "pass", "pass", "pass", "pass", "call H alone", "9S", "QS")
    assert h.current_player == N  # West sits out
    act(h, "9H")  # North trumps while holding the A♠: a renege
    assert h.reneges and h.reneges[0][0] == N
    while h.phase == PLAY:
        h.apply_action(follow_first(h, random.Random(0)))
    assert h.tricks_won[E] < 5
    assert h.current_player == E
    act(h, "claim renege")
    assert h.points == (0, 4)


def test_renege_prevent_refuses_instead_of_penalizing() -> None:
    h = build(SPADES_DEAL, "9S", "JS QS TS")
    act(h, "order", "discard 9S", "AC")
    with pytest.raises(IllegalActionError, match="must follow ♣"):
        act(h, "9H")


def test_no_claim_is_asked_without_renege_penalize() -> None:
    h = play_out(build(SPADES_DEAL, "9S", "JS QS TS"), random.Random(1))
    assert all(a != A.CLAIM_RENEGE for _, a in h.history)
    assert h.outcome in (SCORED, "thrown_in")


# -------------------------------------------------------------------------------------------
# The Joker (Benny)


JOKER_RULES = Rules(deck=25)


def test_joker_deck_kitty_has_four_cards() -> None:
    h = HandState(JOKER_RULES, N, deck_cards(25))
    assert len(h.kitty) == 4


def test_joker_turned_up_the_dealer_names_trump() -> None:
    h = build([None] * 4, JOKER, rules=JOKER_RULES, dealer=W)
    assert h.phase == BID1 and h.current_player == W
    assert A.PASS not in h.legal_actions()
    assert A.ORDER not in h.legal_actions()
    act(h, "call S")
    assert h.trump == SPADES and h.maker == W
    assert h.phase == DISCARD and h.current_player == W  # the dealer takes the Joker
    assert h.hands[W] >> JOKER & 1 and h.up_status == UP_TAKEN
    act(h, "discard JOKER")
    assert h.phase == PLAY and h.current_player == N


def test_joker_is_the_highest_trump_in_play() -> None:
    h = build([None, "JH AD KD QD TD", "JOKER 9C TC 9S TS", None], "9H", rules=JOKER_RULES)
    act(h, "order", "discard 9H", "JH")
    assert h.legal_actions() == [JOKER]  # South's only trump is the Joker
    act(h, "JOKER")
    while h.trick:
        h.apply_action(h.legal_actions()[0])
    assert h.tricks[0][2] == S


def test_joker_led_calls_for_trump() -> None:
    h = build([None, "JOKER AD KD QD TD", "9H 9C TC 9S TS", None], "AH", rules=JOKER_RULES)
    act(h, "order", "discard AH", "JOKER")
    assert h.led == HEARTS
    assert h.legal_actions() == [parse_card("9H")]


# -------------------------------------------------------------------------------------------
# The 32-card deck


def test_32_card_deck_deals_five_each_and_leaves_eleven_in_the_kitty() -> None:
    rules = Rules(deck=32)
    h = HandState.deal(rules, N, random.Random(3))
    assert all(hand.bit_count() == 5 for hand in h.hands)
    assert len(h.kitty) == 11
    h = build(["7C 8C 7D 8D 9C", None, None, None], "7H", rules=rules)
    assert h.hands[N] == mask("7C 8C 7D 8D 9C")


def test_32_card_deck_sevens_and_eights_play_below_nines() -> None:
    rules = Rules(deck=32)
    h = build([None, "7H 8C AD KD QD", "9H 7C 9S TS 8S", None], "8H", rules=rules)
    act(h, "order", "discard 8H", "7H")
    assert h.legal_actions() == [parse_card("9H")]
    act(h, "9H")
    while h.trick:
        h.apply_action(h.legal_actions()[0])
    assert h.tricks[0][2] != E


# -------------------------------------------------------------------------------------------
# OpenSpiel's switches


def test_openspiel_dealer_may_not_discard_the_upcard() -> None:
    h = build([None] * 4, "AH", rules=preset("openspiel"))
    act(h, "order")
    assert A.DISCARD_BASE + parse_card("AH") not in h.legal_actions()
    assert len(h.legal_actions()) == 5


def test_openspiel_alone_is_decided_by_the_maker_after_the_discard() -> None:
    h = build([None] * 4, "AH", rules=preset("openspiel"))
    assert A.ORDER_ALONE not in h.legal_actions()
    act(h, "pass", "order")  # South assists
    h.apply_action(h.legal_actions()[0])  # the dealer discards
    assert h.phase == ALONE and h.current_player == S
    assert h.legal_actions() == [A.GO_ALONE, A.WITH_PARTNER]
    act(h, "alone")
    assert h.alone and N not in h.active and h.phase == PLAY


def test_openspiel_stick_the_dealer_is_on() -> None:
    h = build([None] * 4, "AH", rules=preset("openspiel"))
    act(h, *["pass"] * 7)
    assert A.PASS not in h.legal_actions()


def test_canadian_loner_with_openspiel_alone_timing_is_not_asked_twice() -> None:
    """The dealer's partner can only order alone (Canadian loner); with the alone question moved
    after the discard, that loner must not be asked again (and so cannot take a partner back)."""
    import random as _random

    from euchre import actions as A
    from euchre.rules import Rules
    from euchre.state import ALONE, HandState

    rules = Rules(canadian_loner=True, alone_timing="after_discard")
    rng = _random.Random(11)
    for _ in range(20):
        s = HandState.deal(rules, 0, rng)  # North deals
        s.apply_action(A.PASS)  # East (eldest) passes; South, the dealer's partner, is next
        assert s.legal_actions() == [A.PASS, A.ORDER_ALONE]
        s.apply_action(A.ORDER_ALONE)
        assert s.alone and 0 not in s.active  # the dealer sits out
        assert s.phase != ALONE
        assert s.phase_name == Phase.PLAY
