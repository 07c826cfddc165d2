"""Three-handed cutthroat (002, 003; scoring per RULES-NOTES)."""

from __future__ import annotations

import random

import pytest
from helpers import act, build, play_out, random_match

from euchre import actions as A
from euchre.cards import HEARTS, deck_cards
from euchre.errors import RulesError
from euchre.match import Match
from euchre.rules import Rules, preset
from euchre.state import DISCARD, PLAY, SCORED, HandState

pytestmark = pytest.mark.core

CUT = preset("cutthroat")
P1, P2, P3 = 0, 1, 2


def test_cutthroat_kitty_has_nine_cards_with_the_upcard() -> None:
    h = HandState(CUT, P1, deck_cards(24))
    assert [x.bit_count() for x in h.hands] == [5, 5, 5]
    assert len(h.kitty) + 1 == 9


def test_cutthroat_bidding_goes_round_from_the_dealers_left_and_the_dealer_picks_up() -> None:
    h = build(["9C TC QC KC AC", "9D TD QD KD AD", "9H TH QH KH AH"], "JH", rules=CUT)
    assert h.current_player == P2
    assert h.legal_actions() == [A.PASS, A.ORDER]  # no going alone: the maker already is
    act(h, "pass", "order")
    assert h.maker == P3 and h.trump == HEARTS
    assert h.phase == DISCARD and h.current_player == P1


def test_cutthroat_maker_plays_alone_against_the_other_two() -> None:
    h = build(["9C TC QC KC AC", "9D TD QD KD AD", "9H TH QH KH AH"], "JH", rules=CUT)
    act(h, "order", "discard 9C")
    assert h.phase == PLAY and h.current_player == P2
    play_out(h, random.Random(0))
    assert all(len(t) == 3 for _, t, _ in h.tricks)
    assert h.is_maker_side(P2) and not h.is_maker_side(P1) and not h.is_maker_side(P3)


def test_cutthroat_scoring_maker_one_or_two_euchre_two_to_each_opponent() -> None:
    rng = random.Random(9)
    seen = set()
    for i in range(400):
        h = play_out(HandState.deal(CUT, i % 3, rng), rng)
        if h.outcome != SCORED:
            continue
        made = h.tricks_won[h.maker]
        expected = [0, 0, 0]
        if made == 5:
            expected[h.maker] = 2
        elif made >= 3:
            expected[h.maker] = 1
        else:
            expected = [0 if s == h.maker else 2 for s in range(3)]
        assert list(h.points) == expected
        seen.add("march" if made == 5 else "make" if made >= 3 else "euchred")
    assert seen == {"march", "make", "euchred"}


def test_cutthroat_has_no_going_alone_or_partners() -> None:
    assert Rules(players=3).going_alone is False
    with pytest.raises(RulesError, match="no going alone"):
        Rules(players=3, going_alone=True)
    with pytest.raises(RulesError, match=r"Canadian loner|going_alone"):
        Rules(players=3, canadian_loner=True)


def test_cutthroat_first_player_to_the_target_wins() -> None:
    for seed in range(5):
        m = random_match(CUT, seed)
        assert m.winner is not None and m.scores[m.winner] >= CUT.target
        assert max(m.scores) == m.scores[m.winner]
        for f in m.finished[:-1]:
            assert max(f.scores_after) < CUT.target


def test_cutthroat_deal_passes_left_round_three_seats() -> None:
    m = random_match(CUT, 3)
    dealers = [f.dealer for f in m.finished]
    for a, b, f in zip(dealers, dealers[1:], m.finished, strict=False):
        assert b == (a if f.outcome == "misdeal" else (a + 1) % 3)
    assert isinstance(m, Match)
