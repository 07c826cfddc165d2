"""Dealing and making trump in the four-handed game (seeds 000, 002, 003)."""

from __future__ import annotations

import random

import pytest
from helpers import act, build, cards, deal_seats, hand_cards, mask

from euchre import actions as A
from euchre.cards import CLUBS, DIAMONDS, HEARTS, NO_TRUMP, SPADES, SUITS, deck_cards, parse_card
from euchre.errors import IllegalActionError
from euchre.rules import Rules
from euchre.state import (
    BID1,
    BID2,
    DISCARD,
    PLAY,
    THROWN_IN,
    UP_FACE,
    UP_LEFT,
    UP_TAKEN,
    UP_TURNED_DOWN,
    HandState,
)

pytestmark = pytest.mark.core

# Dealer North (0): East (1) is the eldest hand, South (2) the dealer's partner, West (3).
N, E, S, W = 0, 1, 2, 3

HANDS = ["9C TC QC KC AC", "9D TD QD KD AD", "9H TH QH KH AH", "9S TS QS KS AS"]
"""A deal with every Jack out of the hands: up-card J♥, kitty J♦ J♣ J♠."""


def fresh(rules: Rules | None = None, dealer: int = N, up: str = "JH") -> HandState:
    return build(HANDS, up, "JD JC JS", rules=rules, dealer=dealer)


# -------------------------------------------------------------------------------------------
# Dealing


@pytest.mark.parametrize(
    ("players", "dealer"), [(p, d) for p in (2, 3, 4) for d in range(p)]
)
def test_deal_gives_five_each_in_packets_of_three_and_two_from_the_dealers_left(
    players: int, dealer: int
) -> None:
    rules = Rules(players=players, going_alone=players == 4)
    seats = deal_seats(rules, dealer)
    assert len(seats) == 5 * players
    # Split into packets (runs of the same seat) and check the order and sizes.
    packets: list[tuple[int, int]] = []
    for s in seats:
        if packets and packets[-1][0] == s:
            packets[-1] = (s, packets[-1][1] + 1)
        else:
            packets.append((s, 1))
    if players == 2:
        # 004: three to the non-dealer, two to the dealer, then two and three.
        assert [p[1] for p in packets] == [3, 2, 2, 3]
    assert len(packets) == 2 * players
    order = [(dealer + 1 + i) % players for i in range(players)]
    assert [p[0] for p in packets] == order + order  # clockwise from the left, dealer last
    for seat in range(players):
        sizes = sorted(size for s, size in packets if s == seat)
        assert sizes == [2, 3]


def test_deal_turns_the_next_card_up_and_leaves_three_in_the_four_handed_kitty() -> None:
    deck = deck_cards(24)
    h = HandState(Rules(), N, deck)
    assert h.upcard == deck[20]
    assert h.kitty == tuple(deck[21:])
    assert len(h.kitty) == 3
    assert all(hand.bit_count() == 5 for hand in h.hands)
    assert h.up_status == UP_FACE


def test_deal_from_a_seeded_generator_is_reproducible_and_uses_no_global_state() -> None:
    a = HandState.deal(Rules(), E, random.Random(42))
    random.seed(1)
    b = HandState.deal(Rules(), E, random.Random(42))
    assert a.deck == b.deck
    assert sorted(a.deck) == sorted(deck_cards(24))


def test_builder_deals_the_requested_hands() -> None:
    h = fresh()
    for seat, text in enumerate(HANDS):
        assert h.hands[seat] == mask(text)
    assert h.upcard == parse_card("JH")
    assert h.kitty == tuple(cards("JD JC JS"))


# -------------------------------------------------------------------------------------------
# Round one


def test_round_one_starts_with_the_eldest_hand_at_the_dealers_left() -> None:
    for dealer in range(4):
        h = fresh(dealer=dealer)
        assert h.phase == BID1
        assert h.current_player == (dealer + 1) % 4


def test_round_one_choices_are_pass_order_up_or_order_up_alone() -> None:
    h = fresh()
    assert h.legal_actions() == [A.PASS, A.ORDER, A.ORDER_ALONE]


def test_round_one_goes_clockwise() -> None:
    h = fresh()
    seen = []
    for _ in range(4):
        seen.append(h.current_player)
        act(h, "pass")
    assert seen == [E, S, W, N]


def test_order_up_makes_the_upcard_suit_trump_and_the_orderer_maker() -> None:
    h = fresh()
    act(h, "order")
    assert h.trump == HEARTS
    assert h.maker == E


def test_dealer_takes_the_upcard_even_when_an_opponent_orders_it_up() -> None:
    h = fresh()
    act(h, "order")  # East, an opponent of the dealer, orders it up
    assert h.up_status == UP_TAKEN
    assert h.hands[N] >> parse_card("JH") & 1
    assert h.hands[N].bit_count() == 6
    assert h.phase == DISCARD and h.current_player == N


def test_dealer_discards_one_card_face_down_to_stay_at_five() -> None:
    h = fresh()
    act(h, "order", "discard 9C")
    assert h.hands[N].bit_count() == 5
    assert h.discarded == parse_card("9C")
    assert h.phase == PLAY


def test_discard_is_out_of_play_for_the_hand() -> None:
    h = fresh()
    act(h, "order", "discard 9C")
    c = parse_card("9C")
    assert all(not hand >> c & 1 for hand in h.hands)
    while not h.is_terminal():
        assert c not in h.legal_actions()
        h.apply_action(h.legal_actions()[0])
    assert all(c != played for _, trick, _ in h.tricks for _, played in trick)


def test_dealer_may_discard_any_card_including_the_upcard_itself() -> None:
    h = fresh()
    act(h, "order")
    legal = h.legal_actions()
    assert legal == sorted(A.DISCARD_BASE + c for c in hand_cards(h, N))
    assert A.DISCARD_BASE + parse_card("JH") in legal
    act(h, "discard JH")
    assert not h.hands[N] >> parse_card("JH") & 1
    assert h.trump == HEARTS  # trump stays the up-card's suit


def test_dealers_partner_assists() -> None:
    h = fresh()
    act(h, "pass", "assist")
    assert h.maker == S and h.trump == HEARTS
    assert h.current_player == N and h.phase == DISCARD


def test_dealer_picks_it_up_and_is_the_maker() -> None:
    h = fresh()
    act(h, "pass", "pass", "pass", "pick up")
    assert h.maker == N and h.trump == HEARTS and h.phase == DISCARD


def test_first_acceptance_ends_the_bidding() -> None:
    h = fresh()
    act(h, "pass", "order")
    # Nobody after South is asked: the dealer discards and play begins.
    assert h.phase == DISCARD and h.current_player == N
    act(h, "discard 9C")
    assert h.phase == PLAY
    assert [a for _, a in h.history] == [A.PASS, A.ORDER, A.DISCARD_BASE + parse_card("9C")]


def test_bidding_is_optional_even_holding_both_bowers() -> None:
    # 002 FAQ: "Do you have to order up if you have the bowers? No."
    h = build(["JH JD AH AS KS", None, None, None], "9H")
    assert A.PASS in h.legal_actions()
    act(h, "pass")
    assert h.current_player == S and h.maker == -1


def test_dealer_may_pick_up_and_go_alone() -> None:
    # 002 FAQ: "Can the dealer pick up the up card and then go alone? Yes."
    h = fresh()
    act(h, "pass", "pass", "pass")
    assert A.ORDER_ALONE in h.legal_actions()
    act(h, "pick up alone")
    assert h.alone and h.maker == N
    assert S not in h.active
    assert h.phase == DISCARD and h.current_player == N


# -------------------------------------------------------------------------------------------
# Round two


def test_all_four_pass_turns_the_upcard_down_and_starts_round_two_at_the_left() -> None:
    h = fresh(dealer=W)
    act(h, "pass", "pass", "pass", "pass")
    assert h.phase == BID2
    assert h.up_status == UP_TURNED_DOWN
    assert h.current_player == N  # the dealer's (West's) left
    assert h.trump == NO_TRUMP


def test_round_two_cannot_name_the_turned_down_suit() -> None:
    h = fresh()
    act(h, "pass", "pass", "pass", "pass")
    legal = h.legal_actions()
    assert A.CALL_BASE + HEARTS not in legal
    assert A.CALL_ALONE_BASE + HEARTS not in legal
    with pytest.raises(IllegalActionError, match="not allowed now"):
        h.apply_action(A.CALL_BASE + HEARTS)
    assert h.phase == BID2 and h.current_player == E and h.trump == NO_TRUMP


def test_round_two_may_name_any_other_suit_or_pass() -> None:
    h = fresh()
    act(h, "pass", "pass", "pass", "pass")
    others = [s for s in SUITS if s != HEARTS]
    assert h.legal_actions() == sorted(
        [A.PASS]
        + [A.CALL_BASE + s for s in others]
        + [A.CALL_ALONE_BASE + s for s in others]
    )


def test_round_two_next_suit_of_the_same_colour_may_be_called() -> None:
    # 002: "next" is the same colour as the turned-down card: hearts down, diamonds next.
    h = fresh()
    act(h, "pass", "pass", "pass", "pass", "call D")
    assert h.trump == DIAMONDS and h.maker == E


def test_round_two_caller_is_maker_and_nobody_picks_up() -> None:
    h = fresh()
    act(h, "pass", "pass", "pass", "pass", "pass", "call S")
    assert h.trump == SPADES and h.maker == S
    assert h.phase == PLAY  # no discard in round two
    assert h.up_status == UP_TURNED_DOWN
    assert h.hands[N].bit_count() == 5
    assert h.current_player == E  # the eldest leads


def test_everyone_passes_both_rounds_the_hand_is_thrown_in() -> None:
    h = fresh()
    act(h, *["pass"] * 8)
    assert h.is_terminal()
    assert h.outcome == THROWN_IN
    assert h.points == (0, 0)
    assert h.legal_actions() == []


def test_stick_the_dealer_dealer_cannot_pass_in_round_two() -> None:
    h = fresh(Rules(stick_the_dealer=True))
    act(h, *["pass"] * 7)
    assert h.current_player == N
    legal = h.legal_actions()
    assert A.PASS not in legal
    assert set(legal) == {A.CALL_BASE + s for s in (CLUBS, DIAMONDS, SPADES)} | {
        A.CALL_ALONE_BASE + s for s in (CLUBS, DIAMONDS, SPADES)
    }
    with pytest.raises(IllegalActionError):
        h.apply_action(A.PASS)
    act(h, "call C")
    assert h.trump == CLUBS and h.maker == N and not h.is_terminal()


def test_stick_the_dealer_others_may_still_pass_in_round_two() -> None:
    h = fresh(Rules(stick_the_dealer=True))
    act(h, *["pass"] * 4)
    for seat in (E, S, W):
        assert h.current_player == seat
        assert A.PASS in h.legal_actions()
        act(h, "pass")


def test_stick_the_dealer_dealer_may_still_pass_in_round_one() -> None:
    h = fresh(Rules(stick_the_dealer=True))
    act(h, "pass", "pass", "pass")
    assert A.PASS in h.legal_actions()


# -------------------------------------------------------------------------------------------
# Going alone is declared with the bid


def test_going_alone_is_declared_with_the_bid_in_either_round() -> None:
    h = fresh()
    act(h, "order alone")
    assert h.alone and h.maker == E
    h = fresh()
    act(h, *["pass"] * 4, "call C alone")
    assert h.alone and h.maker == E and h.trump == CLUBS


def test_going_alone_option_off_removes_the_alone_bids() -> None:
    h = fresh(Rules(going_alone=False))
    assert h.legal_actions() == [A.PASS, A.ORDER]
    act(h, *["pass"] * 4)
    assert all(a < A.CALL_ALONE_BASE for a in h.legal_actions())


def test_canadian_loner_dealers_partner_may_order_up_only_alone() -> None:
    h = fresh(Rules(canadian_loner=True))
    assert A.ORDER in h.legal_actions()  # East (an opponent) orders normally
    act(h, "pass")
    assert h.current_player == S
    assert h.legal_actions() == [A.PASS, A.ORDER_ALONE]
    with pytest.raises(IllegalActionError):
        h.apply_action(A.ORDER)
    act(h, "pass")
    assert A.ORDER in h.legal_actions()  # West orders normally
    act(h, "pass")
    assert A.ORDER in h.legal_actions()  # the dealer picks up normally


def test_canadian_loner_applies_to_round_one_only() -> None:
    h = fresh(Rules(canadian_loner=True))
    act(h, *["pass"] * 5)
    assert h.current_player == S
    assert A.CALL_BASE + CLUBS in h.legal_actions()


def test_canadian_loner_assist_alone_sits_the_dealer_out() -> None:
    h = fresh(Rules(canadian_loner=True))
    act(h, "pass", "order alone")
    assert h.alone and h.maker == S
    assert N not in h.active
    assert h.up_status == UP_LEFT
    assert h.phase == PLAY
