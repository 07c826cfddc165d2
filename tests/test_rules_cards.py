"""Cards, notation, decks, the bowers and trick ranking (seeds 000, 002, 003, 004)."""

from __future__ import annotations

import pytest
from helpers import cards

from euchre import actions as A
from euchre.actions import action_from_str, action_to_str
from euchre.cards import (
    CLUBS,
    DIAMONDS,
    EFFECTIVE_SUIT,
    HEARTS,
    JOKER,
    NO_TRUMP,
    POWER,
    SPADES,
    STRENGTH,
    SUIT_MASK,
    SUITS,
    CardParseError,
    card_str,
    card_symbol,
    cards_of,
    deck_cards,
    parse_card,
    parse_suit,
    sort_hand,
)
from euchre.errors import NotationError
from euchre.phases import Phase
from euchre.words import Moment, action_words

pytestmark = pytest.mark.core


def winner_of(trump: int, played: list[int]) -> int:
    """Index of the winning card of a trick led by played[0], via the engine's tables."""
    led = EFFECTIVE_SUIT[trump][played[0]]
    strengths = [STRENGTH[trump][led][c] for c in played]
    return strengths.index(max(strengths))


def trump_order(trump: int, deck: int = 24) -> list[int]:
    """The trump suit's cards, highest first, by the engine's ranking."""
    members = [c for c in deck_cards(deck) if EFFECTIVE_SUIT[trump][c] == trump]
    return sorted(members, key=lambda c: -POWER[trump][c])


# -------------------------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9C", (CLUBS, 2)),
        ("TC", (CLUBS, 3)),
        ("10C", (CLUBS, 3)),
        ("10♣", (CLUBS, 3)),
        ("10c", (CLUBS, 3)),
        ("c10", (CLUBS, 3)),
        ("JD", (DIAMONDS, 4)),
        ("J♦", (DIAMONDS, 4)),
        ("QH", (HEARTS, 5)),
        ("Q♥", (HEARTS, 5)),
        ("K♡", (HEARTS, 6)),
        ("AS", (SPADES, 7)),
        ("A♠", (SPADES, 7)),
        (" as ", (SPADES, 7)),
        ("7S", (SPADES, 0)),
        ("8d", (DIAMONDS, 1)),
    ],
)
def test_card_notation_accepts_letters_tens_and_suit_symbols(
    text: str, expected: tuple[int, int]
) -> None:
    suit, rank = expected
    assert parse_card(text) == suit * 8 + rank


@pytest.mark.parametrize("text", ["JOKER", "joker", "Benny", "BENNY"])
def test_card_notation_reads_the_joker_by_name(text: str) -> None:
    assert parse_card(text) == JOKER


@pytest.mark.parametrize("text", ["", "1C", "11C", "9X", "ZZ", "JJ", "10", "C", "9C9"])
def test_card_notation_refuses_non_cards_with_a_message(text: str) -> None:
    with pytest.raises(CardParseError, match="is not a card"):
        parse_card(text)


def test_card_display_is_ascii_for_records_and_symbols_for_people() -> None:
    assert card_str(parse_card("10C")) == "TC"
    assert card_str(parse_card("9D")) == "9D"
    assert card_str(JOKER) == "JOKER"
    assert card_symbol(parse_card("TC")) == "10♣"
    assert card_symbol(parse_card("JH")) == "J♥"
    assert card_symbol(parse_card("AS")) == "A♠"
    assert card_symbol(parse_card("QD")) == "Q♦"
    assert card_symbol(JOKER) == "Jkr"


@pytest.mark.parametrize("deck", [24, 25, 32])
def test_card_notation_round_trips_every_card_of_every_deck(deck: int) -> None:
    for c in deck_cards(deck):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_symbol(c) if c != JOKER else "JOKER") == c


@pytest.mark.parametrize(
    ("text", "suit"),
    [("H", HEARTS), ("hearts", HEARTS), ("heart", HEARTS), ("♥", HEARTS), ("c", CLUBS),
     ("Spades", SPADES), ("♦", DIAMONDS)],
)
def test_suit_notation_accepts_letters_names_and_symbols(text: str, suit: int) -> None:
    assert parse_suit(text) == suit


def test_suit_notation_refuses_non_suits() -> None:
    with pytest.raises(CardParseError, match="is not a suit"):
        parse_suit("X")


def test_every_action_text_round_trips() -> None:
    for a in range(A.NUM_ACTIONS):
        try:
            text = action_to_str(a)
        except NotationError:
            continue  # unused id
        assert action_from_str(text) == a
        # every action has a person's words, which read back as the action
        assert action_from_str(action_words(a, Moment(Phase.BID1, 0, 3))) == a


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("order", A.ORDER),
        ("order up", A.ORDER),
        ("assist", A.ORDER),
        ("pick up", A.ORDER),
        ("pick it up", A.ORDER),
        ("order alone", A.ORDER_ALONE),
        ("assist alone", A.ORDER_ALONE),
        ("pick up alone", A.ORDER_ALONE),
        ("pass", A.PASS),
        ("call H", A.CALL_BASE + HEARTS),
        ("call hearts alone", A.CALL_ALONE_BASE + HEARTS),
        ("play 10C", parse_card("TC")),
        ("JH", parse_card("JH")),
        ("discard 9C", A.DISCARD_BASE + parse_card("9C")),
    ],
)
def test_ordering_up_assisting_and_picking_up_are_the_same_act(text: str, action: int) -> None:
    assert action_from_str(text) == action


def test_action_notation_refuses_unknown_text() -> None:
    with pytest.raises(NotationError, match="is not an action"):
        action_from_str("raise seven")
    with pytest.raises(NotationError, match="a bid is a number of tricks, 7 to 12"):
        action_from_str("bid seven")  # rows bids are 'bid 7' .. 'bid 12'
    with pytest.raises(NotationError, match="empty action"):
        action_from_str("   ")
    with pytest.raises(NotationError, match="is not a card"):
        action_from_str("play 1C")
    with pytest.raises(NotationError, match="exactly three different low cards"):
        action_from_str("swap 9C TC AS")
    with pytest.raises(NotationError, match="is not an action id"):
        action_to_str(9999)


def test_action_words_use_suit_symbols() -> None:
    at = Moment(Phase.BID2, 0, 3)
    assert action_words(parse_card("JH"), at) == "J♥"
    assert action_words(A.DISCARD_BASE + parse_card("9C"), at) == "discard 9♣"
    assert action_words(A.CALL_ALONE_BASE + SPADES, at) == "call ♠ alone"


# -------------------------------------------------------------------------------------------
# Decks


def test_standard_deck_is_24_cards_nine_through_ace() -> None:
    d = deck_cards(24)
    assert len(d) == 24 == len(set(d))
    assert {card_str(c)[0] for c in d} == set("9TJQKA")
    assert all(sum(1 for c in d if c >> 3 == s) == 6 for s in SUITS)


def test_joker_deck_is_25_cards_with_the_benny() -> None:
    d = deck_cards(25)
    assert len(d) == 25 and JOKER in d
    assert set(d) - {JOKER} == set(deck_cards(24))


def test_32_card_deck_adds_sevens_and_eights() -> None:
    d = deck_cards(32)
    assert len(d) == 32
    assert set(d) - set(deck_cards(24)) == set(cards("7C 8C 7D 8D 7H 8H 7S 8S"))


def test_other_deck_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="24, 25 or 32"):
        deck_cards(52)


# -------------------------------------------------------------------------------------------
# The bowers and the trump suit


@pytest.mark.parametrize("trump", SUITS)
def test_left_bower_is_trump_not_its_printed_suit(trump: int) -> None:
    left = {CLUBS: "JS", SPADES: "JC", HEARTS: "JD", DIAMONDS: "JH"}[trump]
    c = parse_card(left)
    assert EFFECTIVE_SUIT[trump][c] == trump
    printed = c >> 3
    assert not SUIT_MASK[trump][printed] >> c & 1
    assert SUIT_MASK[trump][trump] >> c & 1


def test_right_bower_is_the_jack_of_trump_and_the_highest_card() -> None:
    for trump in SUITS:
        order = trump_order(trump)
        assert order[0] == trump * 8 + 4  # the Jack of trump


def test_trump_ranks_right_left_ace_king_queen_ten_nine_with_hearts() -> None:
    # 000: "Here is the order with hearts as trump: Right Bower, Left Bower, then the rest".
    assert trump_order(HEARTS) == cards("JH JD AH KH QH TH 9H")


def test_black_trump_spades_right_is_jack_of_spades_left_is_jack_of_clubs() -> None:
    assert trump_order(SPADES) == cards("JS JC AS KS QS TS 9S")


def test_clubs_trump_third_card_is_the_ace_of_clubs() -> None:
    # 004: with clubs trump, J♣ right, J♠ left, A♣ third.
    assert trump_order(CLUBS)[:3] == cards("JC JS AC")


def test_trump_suit_has_seven_cards_and_the_same_colour_suit_five() -> None:
    for trump in SUITS:
        same = 3 - trump
        in_deck = set(deck_cards(24))
        assert len(set(cards_of(SUIT_MASK[trump][trump])) & in_deck) == 7
        assert len(set(cards_of(SUIT_MASK[trump][same])) & in_deck) == 5
        for other in SUITS:
            if other not in (trump, same):
                assert len(set(cards_of(SUIT_MASK[trump][other])) & in_deck) == 6


def test_off_trump_suits_rank_ace_high_down_to_nine() -> None:
    # Hearts trump: clubs and spades keep A K Q J 10 9; diamonds lose their Jack.
    for suit_text in ("C", "S"):
        order = cards(" ".join(r + suit_text for r in "AKQJT9"))
        assert all(winner_of(HEARTS, [order[i + 1], order[i]]) == 1 for i in range(5))
    diamonds = [c for c in deck_cards(24) if EFFECTIVE_SUIT[HEARTS][c] == DIAMONDS]
    assert sorted(diamonds) == sorted(cards("AD KD QD TD 9D"))


def test_joker_is_the_highest_trump_above_the_right_bower() -> None:
    for trump in SUITS:
        order = trump_order(trump, deck=25)
        assert order[0] == JOKER
        assert order[1] == trump * 8 + 4
        assert EFFECTIVE_SUIT[trump][JOKER] == trump


def test_sevens_and_eights_rank_below_nines_in_the_32_card_deck() -> None:
    assert trump_order(HEARTS, deck=32) == cards("JH JD AH KH QH TH 9H 8H 7H")
    assert winner_of(HEARTS, cards("7C 8C")) == 1
    assert winner_of(HEARTS, cards("9C 8C")) == 0


# -------------------------------------------------------------------------------------------
# Trick ranking


def test_highest_trump_wins_the_trick() -> None:
    # Clubs led, a low trump beats the ace of the led suit; a higher trump beats it.
    assert winner_of(HEARTS, cards("AC 9H KC")) == 1
    assert winner_of(HEARTS, cards("AC 9H JD QC")) == 2
    assert winner_of(HEARTS, cards("AC JD JH")) == 2


def test_without_trump_the_highest_card_of_the_suit_led_wins() -> None:
    assert winner_of(HEARTS, cards("QC AC KC 9C")) == 1
    # An off-suit ace cannot win: it neither follows nor trumps.
    assert winner_of(HEARTS, cards("9C AS AD TC")) == 3


def test_left_bower_led_makes_trump_the_suit_led() -> None:
    # Hearts trump, J♦ led: hearts follow; the A♦ is an off-suit card.
    assert EFFECTIVE_SUIT[HEARTS][parse_card("JD")] == HEARTS
    assert winner_of(HEARTS, cards("JD AD KH")) == 0
    assert winner_of(HEARTS, cards("JD JH")) == 1


def test_left_bower_beats_the_ace_of_trump() -> None:
    assert winner_of(SPADES, cards("AS JC")) == 1
    assert winner_of(SPADES, cards("JC AS")) == 0


def test_jack_of_the_same_colour_is_not_a_jack_of_its_suit_when_led() -> None:
    # Spades trump, clubs led: the J♣ (left bower) is a trump and wins as one.
    assert winner_of(SPADES, cards("AC JC")) == 1
    # The J♥ is only a heart when spades are trump: it loses to the A♥.
    assert winner_of(SPADES, cards("AH JH")) == 0


def test_joker_wins_any_trick_it_is_played_to() -> None:
    for trump in SUITS:
        for lead in cards("AC AD AH AS"):
            assert winner_of(trump, [lead, JOKER]) == 1
            assert winner_of(trump, [JOKER, lead]) == 0


def test_sorting_puts_trump_first_bowers_on_top() -> None:
    hand = cards("9C JD AH KS JH")
    assert sort_hand(hand, HEARTS) == cards("JH JD AH 9C KS")
    # No trump yet: the joker first, then suit by suit, high to low.
    assert sort_hand([*cards("9C AC"), JOKER], NO_TRUMP) == [JOKER, *cards("AC 9C")]
