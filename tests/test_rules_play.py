"""Playing the tricks: the lead, following suit with the bowers, trick winners, loners."""

from __future__ import annotations

import random

import pytest
from helpers import act, build, cards, hand_cards, mask, play_out

from euchre import actions as A
from euchre.cards import DIAMONDS, HEARTS, SPADES, parse_card
from euchre.errors import IllegalActionError
from euchre.rules import Rules
from euchre.state import DISCARD, PLAY, UP_LEFT, HandState

pytestmark = pytest.mark.core

N, E, S, W = 0, 1, 2, 3


def called_by_eldest(
    hands: list[str | None], up: str, suit: str, rules: Rules | None = None, kitty: str = ""
) -> HandState:
    """Dealer North; East (eldest) makes ``suit`` trump and leads. If ``suit`` is the up-card's,
    East orders it up and the dealer buries the up-card; otherwise all pass round one and East
    names the suit in round two. Either way the four hands stay as given."""
    h = build(hands, up, kitty, rules=rules)
    if up[-1] == suit:
        act(h, "order", f"discard {up}")
    else:
        act(h, "pass", "pass", "pass", "pass", f"call {suit}")
    assert h.phase == PLAY and h.current_player == E
    return h


def state_key(h: HandState) -> tuple[object, ...]:
    return (list(h.hands), list(h.history), h.trick, h.cur, h.phase, list(h.tricks),
            list(h.tricks_won), h.trump, h.maker, h.legal_actions())


# -------------------------------------------------------------------------------------------
# The sample trick (002)


def sample_trick_state() -> HandState:
    # Dealer South so West is the eldest hand and leads; West names diamonds in round two.
    hands = [
        "9C TC AS KS QS",  # North (your partner)
        "TD AD KD 9D TS",  # East: no clubs
        "KC JH TH JS 9S",  # South (you): K♣ and J♥ (the left bower)
        "AC KH AH 9H QH",  # West
    ]
    h = build(hands, "QC", "JC JD QD", dealer=S)
    act(h, "pass", "pass", "pass", "pass", "call D")
    assert h.trump == DIAMONDS and h.current_player == W
    act(h, "AC", "9C", "TD")
    return h


def test_sample_trick_south_must_follow_with_the_king_not_the_left_bower() -> None:
    h = sample_trick_state()
    assert h.current_player == S
    assert h.legal_actions() == [parse_card("KC")]
    before = state_key(h)
    with pytest.raises(IllegalActionError, match=r"must follow ♣: you hold K♣; J♥ is a trump"):
        h.apply_action(parse_card("JH"))
    assert state_key(h) == before


def test_sample_trick_easts_ten_of_diamonds_takes_the_trick() -> None:
    h = sample_trick_state()
    act(h, "KC")
    leader, trick, winner = h.tricks[0]
    assert leader == W
    assert trick == ((W, parse_card("AC")), (N, parse_card("9C")), (E, parse_card("TD")),
                     (S, parse_card("KC")))
    assert winner == E
    assert h.current_player == E  # the winner leads next


# -------------------------------------------------------------------------------------------
# The lead


@pytest.mark.parametrize("dealer", range(4))
def test_eldest_hand_leads_the_first_trick(dealer: int) -> None:
    h = build([None] * 4, "9S", dealer=dealer)
    act(h, "order", "discard " + "9S")
    assert h.phase == PLAY
    assert h.current_player == (dealer + 1) % 4


def test_any_card_may_be_led_including_trump_on_the_first_trick() -> None:
    h = called_by_eldest(["9C TC AS KS QS", "JH JD 9D TS 9H", None, None], "QC", "H")
    assert sorted(h.legal_actions()) == sorted(hand_cards(h, E))
    act(h, "JH")
    assert h.led == HEARTS


def test_trick_winner_leads_the_next_trick() -> None:
    h = called_by_eldest(
        ["9C TC AS KS QS", "AC KH AH 9H QH", "KC JH TH JS 9S", "TD AD KD 9D TS"], "QC", "D"
    )
    act(h, "AC", "KC", "TD", "9C")  # East leads A♣, West trumps with the 10♦
    assert h.tricks[0][2] == W
    assert h.current_player == W


def test_lead_exception_when_eldest_is_loners_partner() -> None:
    # Dealer North: East is eldest. West (East's partner) orders up alone, so East sits out
    # and the lead passes to the next player, South.
    h = build([None] * 4, "9H")
    act(h, "pass", "pass", "order alone")
    assert h.maker == W and h.alone and E not in h.active
    act(h, "discard 9H")
    assert h.phase == PLAY
    assert h.current_player == S


def test_lead_stays_with_eldest_when_the_loner_is_someone_else() -> None:
    h = build([None] * 4, "9H")
    act(h, "pass", "order alone")  # South, the dealer's partner: the dealer sits out
    assert h.current_player == E
    h = build([None] * 4, "9H")
    act(h, "order alone", "discard 9H")  # East alone: East leads
    assert h.current_player == E


# -------------------------------------------------------------------------------------------
# Going alone


def test_loners_partner_sits_out_and_tricks_have_three_cards() -> None:
    h = build([None] * 4, "9H")
    act(h, "order alone", "discard 9H")  # East alone; West sits out
    assert h.active == (N, E, S)
    west_hand = h.hands[W]
    play_out(h, random.Random(3), lambda st, r: st.legal_actions()[0])
    assert len(h.tricks) == 5
    for _, trick, _ in h.tricks:
        assert len(trick) == 3
        assert W not in [s for s, _ in trick]
    assert h.hands[W] == west_hand


def test_dealers_partner_alone_dealer_sits_out_without_discarding() -> None:
    h = build([None, None, None, None], "AH")
    dealer_hand = h.hands[N]
    act(h, "pass", "order alone")  # South, the dealer's partner, orders up alone
    assert h.maker == S and h.alone
    assert N not in h.active
    assert h.phase == PLAY  # no discard is asked
    assert h.up_status == UP_LEFT
    up = parse_card("AH")
    assert all(not hand >> up & 1 for hand in h.hands)  # the up-card stays out of play
    assert h.hands[N] == dealer_hand
    play_out(h, random.Random(0), lambda st, r: st.legal_actions()[-1])
    assert all(up != c for _, t, _ in h.tricks for _, c in t)
    assert all(len(t) == 3 and N not in [s for s, _ in t] for _, t, _ in h.tricks)


def test_dealer_going_alone_still_picks_up_and_discards() -> None:
    h = build([None] * 4, "AH")
    act(h, "pass", "pass", "pass", "order alone")
    assert h.phase == DISCARD and h.current_player == N and S not in h.active


def test_dealer_picks_up_when_an_opponent_orders_alone() -> None:
    h = build([None] * 4, "AH")
    act(h, "order alone")
    assert h.phase == DISCARD and h.current_player == N
    assert h.hands[N] >> parse_card("AH") & 1


# -------------------------------------------------------------------------------------------
# Following suit


SPADES_DEAL: list[str | None] = [
    "JC 9C AH KH QH",  # North: the J♣ (left bower with spades trump) and the 9♣
    "AC AD KD QD TD",  # East
    "KC QC TC 9H TH",  # South
    "JH JD 9D AS KS",  # West: no clubs
]


def spades_after_ace_of_clubs_led(north: str | None = None) -> HandState:
    hands = list(SPADES_DEAL)
    if north is not None:  # swap North's 9♣ and West's 9♦
        hands[N] = north
        hands[W] = "JH JD 9C AS KS"
    h = called_by_eldest(hands, "9S", "S", kitty="JS QS TS")
    assert h.trump == SPADES
    act(h, "AC")
    return h


def test_must_follow_suit_when_able() -> None:
    h = spades_after_ace_of_clubs_led()
    assert h.current_player == S
    assert h.legal_actions() == cards("TC QC KC")


def test_when_unable_to_follow_any_card_may_be_played() -> None:
    h = called_by_eldest(["9C TC AS KS QS", "AH KH QH 9H AC", "AD KD QD TD 9D", None], "JC",
                         "S")
    act(h, "AH")  # hearts led; South has no hearts and may play anything
    assert sorted(h.legal_actions()) == sorted(hand_cards(h, S))


def test_left_bower_cannot_be_played_as_its_printed_suit() -> None:
    # 000 quick ruling: spades trump, clubs led; the J♣ is a spade and may not follow clubs.
    h = spades_after_ace_of_clubs_led()
    act(h, "KC", "9D")  # South follows, West (void in clubs) throws off
    assert h.current_player == N
    assert h.legal_actions() == [parse_card("9C")]
    with pytest.raises(IllegalActionError, match="must follow ♣: you hold 9♣; J♣ is a trump here"):
        h.apply_action(parse_card("JC"))


def test_holding_only_the_left_bower_of_the_led_suit_is_void_in_it() -> None:
    # 000 / 002: spades trump, clubs led; North's only "club" is the J♣: North may play anything.
    h = spades_after_ace_of_clubs_led(north="JC 9D AH KH QH")
    act(h, "KC", "9C")
    assert h.current_player == N
    assert h.legal_actions() == sorted(cards("JC 9D AH KH QH"))
    act(h, "AH")  # throwing off is allowed, and is no renege
    assert h.reneges == []
    assert h.tricks[0][2] == E  # the A♣ holds: nobody trumped


def test_trump_led_must_be_followed_with_the_left_bower_if_it_is_the_only_trump() -> None:
    # 000 quick ruling: hearts trump, trump led; North's only trump is the J♦: must play it.
    h = called_by_eldest(["JD AC KC QC AS", "AH KH QH TH 9H", None, None], "9C", "H")
    act(h, "AH")
    while h.current_player != N:
        h.apply_action(h.legal_actions()[0])
    assert h.legal_actions() == [parse_card("JD")]


def test_left_bower_led_calls_for_trump() -> None:
    # 002: "When someone leads spades (or leads the J♣ itself), you must follow with a spade."
    h = called_by_eldest([None, "JC AD KD QD TD", "9S TS AC KC QC", None], "9H", "S",
                         kitty="")
    act(h, "JC")
    assert h.led == SPADES
    assert h.legal_actions() == cards("9S TS")  # South must follow trump, not clubs


def test_each_trick_has_one_card_per_active_player_and_five_tricks_are_played() -> None:
    h = build([None] * 4, "9H")
    act(h, "order", "discard 9H")
    play_out(h, random.Random(1))
    assert len(h.tricks) == 5
    assert all(len(t) == 4 for _, t, _ in h.tricks)
    assert all(hand == 0 for hand in h.hands)
    assert sum(h.tricks_won) == 5


def test_one_side_always_takes_at_least_three_tricks() -> None:
    # 002 FAQ: "What happens if nobody takes three tricks? That can't happen."
    rng = random.Random(7)
    scored = 0
    for i in range(60):
        h = play_out(HandState.deal(Rules(), i % 4, rng), rng)
        if h.outcome != "scored":
            continue
        scored += 1
        ns = h.tricks_won[0] + h.tricks_won[2]
        ew = h.tricks_won[1] + h.tricks_won[3]
        assert ns + ew == 5 and max(ns, ew) >= 3
    assert scored > 20


# -------------------------------------------------------------------------------------------
# Renege: prevent (the default)


def test_renege_prevent_refuses_a_failure_to_follow_and_leaves_the_state_unchanged() -> None:
    h = called_by_eldest(["9C TC AS KS QS", "AC KH AH 9H QH", None, None], "JC", "H")
    act(h, "AC")
    while h.current_player != N:
        h.apply_action(h.legal_actions()[0])
    before = state_key(h)
    with pytest.raises(IllegalActionError, match=r"must follow ♣: you hold 10♣ 9♣"):
        h.apply_action(parse_card("AS"))
    assert state_key(h) == before
    assert h.reneges == []


def test_playing_a_card_not_held_is_refused() -> None:
    h = called_by_eldest(["9C TC AS KS QS", "AC KH AH 9H QH", None, None], "JC", "H")
    before = state_key(h)
    with pytest.raises(IllegalActionError, match="does not hold 9♣"):
        h.apply_action(parse_card("9C"))
    with pytest.raises(IllegalActionError, match="must play a card now"):
        h.apply_action(A.PASS)
    assert state_key(h) == before


def test_actions_out_of_turn_or_phase_are_refused() -> None:
    h = build([None] * 4, "9H")
    with pytest.raises(IllegalActionError, match=r"not allowed now \(East to order up or pass\)"):
        h.apply_action(A.DISCARD_BASE + parse_card("9H"))
    with pytest.raises(IllegalActionError):
        h.apply_action(parse_card("9H"))
    act(h, *["pass"] * 8)
    with pytest.raises(IllegalActionError, match="the hand is over"):
        h.apply_action(A.PASS)


def test_masks_and_cards_agree_in_builder() -> None:
    h = build(["9C TC AS KS QS", None, None, None], "JC")
    assert h.hands[N] == mask("9C TC AS KS QS")
