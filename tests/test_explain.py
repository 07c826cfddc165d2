"""The one module that words a refusal: the engine's voice and a person's ("you")."""

from __future__ import annotations

import pytest
from helpers import act, build

from euchre import actions as A
from euchre.actions import action_from_str
from euchre.cards import JOKER, deck_cards, parse_card
from euchre.errors import IllegalActionError
from euchre.explain import why_illegal
from euchre.phases import Phase
from euchre.rules import Rules, preset
from euchre.state import HandState
from euchre.words import Moment, action_words
from euchre.words import card_words as card_name

pytestmark = pytest.mark.core

NORTH_CLUBS = "9C TC JC QC KC"


def _you(h: HandState, text: str) -> str:
    return why_illegal(h, action_from_str(text), you=True)


def _engine(h: HandState, text: str) -> str:
    with pytest.raises(IllegalActionError) as exc:
        h.apply_action(action_from_str(text))
    assert str(exc.value) == why_illegal(h, action_from_str(text))
    return str(exc.value)


def _playing(rules: Rules | None = None) -> HandState:
    """Spades are trump (East ordered the 9♠ to West, the dealer) and North led the A♠: East,
    to play, holds the K♠ and the J♣ (the left bower) and three hearts."""
    h = build(["AS 9D TD QD KD", "KS JC 9H TH QH", None, None], "9S", rules=rules, dealer=3)
    act(h, "order", "discard 9S")  # East orders spades; West, the dealer, buries the up-card
    act(h, "AS")  # North leads
    return h


def test_card_name_spells_out_the_joker() -> None:
    assert card_name(JOKER) == "Joker"
    assert card_name(parse_card("JS")) == "J♠"


def test_action_words_are_what_a_person_reads() -> None:
    def words(a: int, phase: Phase = Phase.BID2) -> str:
        return action_words(a, Moment(phase, 0, 3))  # North, while West deals

    assert words(A.call(2)) == "call ♥"
    assert words(A.call(3, True)) == "call ♠ alone"
    assert words(A.ORDER, Phase.BID1) == "order up" and words(A.GO_ALONE) == "go alone"
    assert words(A.WITH_PARTNER) == "play with partner"
    assert words(A.DISCARD_BASE + JOKER) == "discard Joker"
    assert words(A.PASS) == "pass"


def test_play_refusals_speak_to_you_as_the_terminal_did() -> None:
    h = _playing(Rules(renege="prevent"))
    assert _you(h, "pass") == "Bidding is over: play a card."
    assert _you(h, "AH") == "You do not hold A♥."
    assert _you(h, "9H") == "Must follow ♠: you hold J♣ K♠."
    # The engine's voice names the seat and lists what is allowed.
    assert _engine(h, "AH") == "East does not hold A♥; playable: J♣, K♠"
    assert _engine(h, "9H") == "must follow ♠: you hold J♣ K♠"


def test_a_trump_refused_to_a_plain_lead_says_it_is_a_trump() -> None:
    h = build(["AS 9D TD QD KD", "KS JD 9C TC QC", None, None], "9H", dealer=3)
    act(h, "order", "discard 9H", "AS")  # hearts are trump: the J♦ is the left bower
    assert _you(h, "9C") == "Must follow ♠: you hold K♠."
    assert _you(h, "JD") == "Must follow ♠: you hold K♠; J♦ is a trump here."
    h2 = build(["AS 9D TD QD KD", "KS JH 9C TC QC", None, None], "9H", dealer=3)
    act(h2, "order", "discard 9H", "AS")
    assert _you(h2, "JH") == "Must follow ♠: you hold K♠; J♥ is a trump."


def test_cards_while_bidding_and_discards_not_held() -> None:
    h = build([NORTH_CLUBS, None, None, None], "AH", dealer=0)
    assert _you(h, "9C") == "Cards are played after the bidding."
    act(h, "order")
    assert _you(h, "discard AS") == "You do not hold A♠."
    assert "the dealer does not hold A♠" in _engine(h, "discard AS")
    openspiel = build(["9C TC JC QC KC", None, None, None], "AH", rules=preset("openspiel"),
                      dealer=0)
    act(openspiel, "order")
    assert _you(openspiel, "discard AH") == (
        "In these rules the dealer may not bury the up-card just picked up.")
    assert _you(openspiel, "9C") == "Cards are played after the bidding."


def test_round_one_refusals() -> None:
    h = build([None] * 4, "AH", dealer=0)
    assert _you(h, "call S") == ("In the first round you may only order up the A♥ or pass; a "
                                 "suit is named in the second round.")
    canadian = build([None] * 4, "AH", rules=Rules(canadian_loner=True), dealer=0)
    act(canadian, "pass")
    assert _you(canadian, "order") == (
        "Canadian loner: the dealer's partner may order up only by going alone.")
    no_alone = build([None] * 4, "AH", rules=Rules(going_alone=False), dealer=0)
    assert _you(no_alone, "order alone") == "Going alone is not allowed with these rules."
    later = build([None] * 4, "AH", rules=preset("openspiel"), dealer=0)
    assert _you(later, "order alone") == (
        "In these rules you are asked about going alone once trump is fixed.")


def test_joker_turned_up_refusals_name_the_joker_in_full() -> None:
    h = build([None] * 4, JOKER, rules=Rules(deck=25), dealer=3)
    assert h.cur == 3
    assert _you(h, "pass") == "The Joker turned up: as dealer you name trump."
    engine = _engine(h, "pass")
    assert "the Joker was turned up, so the dealer names trump" in engine
    assert "Jkr" not in engine and "Jkr" not in _you(h, "order")


def test_a_joker_not_held_is_called_joker() -> None:
    h = build(["AS 9D TD QD KD", None, None, None], "9S", rules=Rules(deck=25), dealer=3)
    act(h, "order", "discard 9S")
    assert h.cur == 0 and not h.hands[0] >> JOKER & 1
    assert _you(h, "JOKER") == "You do not hold Joker."
    assert _engine(h, "JOKER").startswith("North does not hold Joker; playable: ")


def test_round_two_refusals() -> None:
    h = build([None] * 4, "AH", dealer=0)
    act(h, *["pass"] * 4)
    assert _you(h, "call H") == "Hearts was turned down: name another suit."
    assert _you(h, "order") == "The A♥ was turned down: now you may name another suit."
    stuck = build([None] * 4, "AH", rules=Rules(stick_the_dealer=True), dealer=0)
    act(stuck, *["pass"] * 7)
    assert stuck.cur == 0
    assert _you(stuck, "pass") == "Stick the dealer: the dealer may not pass and must name trump."
    assert "under stick the dealer" in _engine(stuck, "pass")
    no_alone = build([None] * 4, "AH", rules=Rules(going_alone=False), dealer=0)
    act(no_alone, *["pass"] * 4)
    assert _you(no_alone, "call S alone") == "Going alone is not allowed with these rules."


def test_other_refusals_say_what_you_are_asked_to_do() -> None:
    h = build([None] * 4, "AH", dealer=0)
    assert _you(h, "defend alone") == ("defend alone is not possible now: you are to order up "
                                       "or pass.")
    # An interface may end such a refusal with the question it is asking.
    asked = "Order up the A♥, or pass?"
    assert why_illegal(h, A.GO_ALONE, you=True, asked=asked) == (
        "go alone is not possible now: Order up the A♥, or pass?")
    rows = HandState(preset("two-handed-rows"), 0, deck_cards(24))
    assert rows.phase_name == Phase.AUCTION
    assert _you(rows, "call S") == (
        "Call ♠ is not possible now: with rows each player first bids tricks (bid 7 to bid 12); "
        "the higher bidder then names trump.")


def test_a_finished_hand_and_a_non_action() -> None:
    h = build([None] * 4, "AH", dealer=0)
    assert why_illegal(h, "order", you=True) == "'order' is not a move: type a card or a bid."
    act(h, *["pass"] * 8)
    assert h.is_terminal()
    assert why_illegal(h, A.PASS) == "the hand is over: no action is allowed"
    assert why_illegal(h, A.PASS, you=True) == "The hand is over: no move is possible."
