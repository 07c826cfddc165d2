"""Bad input gets a clear, specific error and leaves the state unchanged."""

from __future__ import annotations

import random

import pytest
from helpers import act, build

from euchre import actions as A
from euchre.cards import deck_cards, parse_card
from euchre.errors import IllegalActionError, RulesError
from euchre.rules import Rules, Scoring, preset
from euchre.state import HandState

pytestmark = pytest.mark.core


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"deck": 52}, "deck must be 24, 25 or 32"),
        ({"target": 0}, "target must be a positive integer"),
        ({"target": True}, "target must be a positive integer"),
        ({"farmers_hand": "maybe"}, "farmers_hand must be off, redeal or swap"),
        ({"renege": "ignore"}, "renege must be prevent or penalize"),
        ({"first_dealer": "oldest"}, "first_dealer must be random or black_jack"),
        ({"stick_the_dealer": 1}, "stick_the_dealer must be true or false"),
        ({"players": 2, "defend_alone": True}, "no defending alone"),
        ({"going_alone": False, "defend_alone": True}, "need going_alone=True"),
        ({"going_alone": False, "canadian_loner": True}, "need going_alone=True"),
        ({"defend_alone_vs_partners": True}, "needs defend_alone=True"),
    ],
)
def test_impossible_rules_are_refused_with_a_message(kwargs: dict[str, object],
                                                      message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_negative_scores_are_refused() -> None:
    with pytest.raises(RulesError, match=r"scoring\.march must be a non-negative integer"):
        Scoring(march=-1)


def test_unknown_preset_names_the_choices() -> None:
    with pytest.raises(RulesError, match="unknown preset 'bridge'; choose one of: standard"):
        preset("bridge")


def test_rules_from_dict_refuses_unknown_options() -> None:
    with pytest.raises(RulesError, match="unknown rules option"):
        Rules.from_dict({"trumps": 5})
    assert Rules.from_dict(Rules(target=7, stick_the_dealer=True).to_dict()) == Rules(
        target=7, stick_the_dealer=True)


def test_a_deck_order_must_hold_each_card_once() -> None:
    deck = list(deck_cards(24))
    with pytest.raises(IllegalActionError, match="exactly once"):
        HandState(Rules(), 0, deck[:-1] + deck[:1])
    with pytest.raises(IllegalActionError, match="exactly once"):
        HandState(Rules(), 0, deck[:-1])
    with pytest.raises(IllegalActionError, match=r"dealer must be a seat 0\.\.3"):
        HandState(Rules(), 4, deck)
    with pytest.raises(IllegalActionError, match=r"dealer must be a seat 0\.\.3"):
        HandState.deal(Rules(), -1, random.Random(0))


def snapshot(h: HandState) -> tuple[object, ...]:
    return (list(h.hands), list(h.history), h.phase, h.cur, h.trick, h.trump, h.maker,
            h.up_status, h.kitty, h.legal_actions())


def test_every_illegal_action_in_every_phase_leaves_the_state_unchanged() -> None:
    rules = Rules(defend_alone=True, renege="penalize", farmers_hand="swap",
                  no_ace_no_face=True)
    rng = random.Random(17)
    checked = 0
    for i in range(40):
        h = HandState.deal(rules, i % 4, rng)
        while not h.is_terminal():
            legal = set(h.legal_actions())
            for bad in rng.sample([a for a in range(A.NUM_ACTIONS) if a not in legal], 5):
                before = snapshot(h)
                with pytest.raises(IllegalActionError) as info:
                    h.apply_action(bad)
                assert str(info.value)
                assert snapshot(h) == before
                checked += 1
            h.apply_action(rng.choice(sorted(legal)))
    assert checked > 1000


def test_illegal_bid_message_lists_what_is_allowed() -> None:
    h = build([None] * 4, "AH")
    with pytest.raises(IllegalActionError,
                       match=r"call H is not allowed now \(East to order up or pass\); "
                             r"allowed: pass, order, order alone"):
        h.apply_action(A.CALL_BASE + 2)


def test_pop_without_push_is_refused() -> None:
    h = build([None] * 4, "AH")
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        h.pop()


def test_failed_push_keeps_the_undo_stack_balanced() -> None:
    h = build([None] * 4, "AH")
    act(h, "pass")
    with pytest.raises(IllegalActionError):
        h.push(parse_card("AH"))
    h.push(A.PASS)
    assert h.pop() == A.PASS
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        h.pop()


def test_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    h = build([None] * 4, "AH")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        h.view(4)
