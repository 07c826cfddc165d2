"""A match: the deal passing left, thrown-in hands, misdeals, the target, the first dealer."""

from __future__ import annotations

import random

import pytest
from helpers import act, deck_for, random_match

from euchre.cards import CLUBS, JACK, SPADES, card
from euchre.errors import IllegalActionError
from euchre.match import Match, first_dealer_by_black_jack
from euchre.rules import PRESETS, Rules, preset
from euchre.state import MISDEAL_REDEAL, SCORED, THROWN_IN

pytestmark = pytest.mark.core


def test_deal_passes_left_after_each_hand() -> None:
    m = random_match(Rules(), 1)
    assert len(m.finished) > 3
    for prev, nxt in zip(m.finished, m.finished[1:], strict=False):
        assert nxt.dealer == (prev.dealer + 1) % 4


def test_thrown_in_hand_passes_the_deal_without_score() -> None:
    m = Match(Rules(), seed=3, first_dealer=2)
    act(m, *["pass"] * 8)
    f = m.finished[0]
    assert f.outcome == THROWN_IN and f.points == (0, 0)
    assert m.scores == [0, 0]
    assert m.hand.dealer == 3
    assert m.hands_played == 0


def test_misdeal_the_same_dealer_deals_again() -> None:
    rules = Rules(farmers_hand="redeal")
    farmer = deck_for(rules, 1, [None, None, "9C TC 9D TD 9S", None], "AH")
    m = Match(rules, seed=4, first_dealer=1, decks=[farmer])
    assert m.current_player == 2
    act(m, "farmer")
    assert m.finished[0].outcome == MISDEAL_REDEAL
    assert m.hand.dealer == 1
    assert m.scores == [0, 0]


@pytest.mark.parametrize("target", [5, 7, 10, 11])
def test_match_ends_when_a_side_reaches_the_target(target: int) -> None:
    for seed in range(4):
        m = random_match(Rules(target=target), seed)
        assert m.is_terminal() and m.winner is not None
        assert m.scores[m.winner] >= target
        assert all(v < target for s, v in enumerate(m.scores) if s != m.winner)
        assert all(max(f.scores_after) < target for f in m.finished[:-1])
        assert m.legal_actions() == []
        with pytest.raises(IllegalActionError, match="match is over"):
            m.apply_action(80)


def test_passing_the_target_counts_no_exact_landing() -> None:
    overshoot = [m for m in (random_match(Rules(target=5), s) for s in range(40))
                 if max(m.scores) > 5]
    assert overshoot, "some random match should finish above the target"
    for m in overshoot:
        assert m.winner == m.scores.index(max(m.scores))


def test_match_scores_add_up_the_hands() -> None:
    m = random_match(Rules(), 8)
    totals = [0, 0]
    for f in m.finished:
        totals = [a + b for a, b in zip(totals, f.points, strict=True)]
        assert list(f.scores_after) == totals
    assert m.scores == totals


def test_first_dealer_by_black_jack() -> None:
    rules = Rules(first_dealer="black_jack")
    black = {card(CLUBS, JACK), card(SPADES, JACK)}
    for seed in range(20):
        dealer, turned = first_dealer_by_black_jack(rules, random.Random(seed))
        assert turned[-1] in black
        assert not set(turned[:-1]) & black
        assert dealer == (len(turned) - 1) % 4  # dealt face up from seat 0 round the table
        m = Match(rules, seed=seed)
        assert m.first_dealer == first_dealer_by_black_jack(rules, random.Random(seed))[0]
        assert m.hand.dealer == m.first_dealer


def test_first_dealer_random_is_seeded() -> None:
    assert Match(Rules(), seed=12).first_dealer == Match(Rules(), seed=12).first_dealer
    assert {Match(Rules(), seed=s).first_dealer for s in range(30)} == {0, 1, 2, 3}


def test_single_hand_openspiel_match_ends_after_one_hand() -> None:
    m = random_match(preset("openspiel"), 5)
    assert len([f for f in m.finished if f.outcome != MISDEAL_REDEAL]) == 1
    f = m.finished[-1]
    assert f.outcome == SCORED  # stick the dealer: never thrown in


def test_cutthroat_tie_goes_to_the_first_defender_left_of_the_maker() -> None:
    rules = preset("cutthroat").replace(target=2)
    ties = 0
    for seed in range(60):
        m = random_match(rules, seed)
        last = m.finished[-1]
        leaders = [s for s, v in enumerate(m.scores) if v == max(m.scores)]
        if len(leaders) < 2:
            continue
        ties += 1
        maker = m.hand.maker
        assert maker not in leaders
        assert m.winner == (maker + 1) % 3
        assert last.points[maker] == 0
    assert ties > 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_a_match_to_its_end(name: str) -> None:
    rules = preset(name)
    m = random_match(rules, 21)
    assert m.is_terminal()
    if not rules.single_hand:
        assert m.scores[m.winner or 0] >= rules.target


def test_match_view_carries_the_score() -> None:
    m = Match(Rules(), seed=2)
    act(m, *["pass"] * 8)
    v = m.view(0)
    assert v.scores == (0, 0)
