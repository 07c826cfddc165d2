"""How a game ends besides at the target (docs/rules.md, "How a game ends"): at minus the target
under ``renege_penalty="deduct"``, at the hand limit, and after one hand (``single_hand``) with
a deducted renege, where the higher score wins even below zero."""

from __future__ import annotations

import random

import pytest
from helpers import act, deck_for
from test_table_rules import HANDS, UP, follow_first

from euchre import match as match_module
from euchre.cli.replay import describe_record
from euchre.match import HAND_LIMIT, Match
from euchre.phases import Phase
from euchre.record import MAX_HANDS, MAX_RECORD_CHARS, from_json, to_json
from euchre.rules import Rules, preset
from euchre.state import THROWN_IN

pytestmark = pytest.mark.core

DEDUCT = Rules(renege="penalize", renege_penalty="deduct")


def renege_claimed(m: Match, alone_question: bool = False) -> None:
    """North deals; East orders hearts up; South reneges on the spade lead and East-West claim
    it at the end of the hand: North-South lose the renege's points under ``deduct``."""
    act(m, "order", "discard 9C", *(["partner"] if alone_question else []),
        "AS", "AH", "TS", "TC")
    while m.hand.phase_name != Phase.CLAIM:
        m.apply_action(follow_first(m.hand))
    act(m, "claim renege")


def always_pass(m: Match, hands: int) -> None:
    for _ in range(hands):
        while m.hand.phase_name != Phase.OVER and not m.is_terminal():
            m.apply_action(follow_first(m.hand))
        if m.is_terminal():
            return


def test_deduct_a_side_at_minus_the_target_loses_the_game() -> None:
    rules = DEDUCT.replace(target=2)
    m = Match(rules, seed=1, first_dealer=0, decks=[deck_for(rules, 0, HANDS, UP)])
    renege_claimed(m)
    assert m.scores == [-2, 0]
    assert m.is_terminal() and m.winner == 1  # North-South are out: East-West win
    assert describe_record(from_json(to_json(m))).endswith("Final: North-South -2, "
                                                            "East-West 0; East-West win")


def test_deduct_above_minus_the_target_the_game_goes_on() -> None:
    rules = DEDUCT.replace(target=3)
    m = Match(rules, seed=1, first_dealer=0, decks=[deck_for(rules, 0, HANDS, UP)])
    renege_claimed(m)
    assert m.scores == [-2, 0] and not m.is_terminal() and m.winner is None


def test_deduct_one_hand_game_is_won_by_the_higher_score_below_zero() -> None:
    rules = preset("openspiel").replace(renege="penalize", renege_penalty="deduct")
    m = Match(rules, seed=1, first_dealer=0, decks=[deck_for(rules, 0, HANDS, UP)])
    hand = m.hand
    renege_claimed(m, alone_question=True)
    assert m.scores == [-2, 0]
    assert m.winner == 1  # not -1, "no winner": the scores differ
    returns = hand.returns()
    assert returns[1] > 0 and returns[3] > 0  # the hand's returns agree on the winner
    text = describe_record(from_json(to_json(m)))
    assert "no side scored" not in text and text.endswith("East-West win")


def test_one_hand_game_where_nobody_scores_is_a_draw() -> None:
    rules = preset("openspiel").replace(stick_the_dealer=False)
    m = Match(rules, seed=3, first_dealer=0)
    always_pass(m, 1)
    assert m.finished[-1].outcome == THROWN_IN and m.winner == -1
    assert describe_record(m).endswith("no side scored")


def test_hand_limit_ends_a_game_with_the_higher_score_winning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_module, "HAND_LIMIT", 3)
    m = Match(DEDUCT, seed=1, first_dealer=0, decks=[deck_for(DEDUCT, 0, HANDS, UP)])
    renege_claimed(m)  # hand 1: North-South -2
    always_pass(m, 5)  # hands 2 and 3 thrown in: the limit
    assert len(m.finished) == 3 and m.is_terminal()
    assert m.scores == [-2, 0] and m.winner == 1
    again = from_json(to_json(m))  # a game stopped at the limit is a valid record
    assert again.winner == 1 and again.finished == m.finished


def test_hand_limit_with_level_scores_is_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_module, "HAND_LIMIT", 4)
    m = Match(Rules(), seed=2)
    always_pass(m, 10)  # players who always pass: without the limit, no end
    assert len(m.finished) == 4 and m.is_terminal() and m.winner == -1
    assert m.legal_actions() == []
    assert describe_record(m).endswith("no side scored")


def test_hand_limit_leaves_room_for_every_game_in_a_record() -> None:
    # the record holds the finished hands and at most one in progress
    assert HAND_LIMIT + 1 <= MAX_HANDS


def test_hand_limit_game_of_the_longest_hands_fits_in_a_record() -> None:
    # Random players under renege fixes and a 32-card deck write the longest hands (about 960
    # characters each): a game of HAND_LIMIT such hands still fits in a record.
    rules = Rules(deck=32, target=100, renege="penalize", renege_fix=True,
                  renege_penalty="deduct")
    m = Match(rules, seed=4)
    rng = random.Random(4)
    while not m.is_terminal():
        m.apply_action(rng.choice(m.legal_actions()))
    text = to_json(m)
    assert len(m.finished) > 100
    assert len(text) / len(m.finished) * HAND_LIMIT <= MAX_RECORD_CHARS * 0.75  # room to spare
    assert from_json(text).winner == m.winner
