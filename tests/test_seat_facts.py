"""The public seat and score facts: one answer however it is asked (module, state or view)."""

from __future__ import annotations

import random

import pytest

from euchre.phases import PLAY, Phase
from euchre.rules import Rules, preset
from euchre.scoring import hand_points, renege_points
from euchre.seats import deal_order, is_maker_side, partner, seat_name, side_of
from euchre.state import ROWS, STANDARD, HandState, variant_for

pytestmark = pytest.mark.core


def test_seat_functions_for_each_table_size() -> None:
    assert [partner(s, 4) for s in range(4)] == [2, 3, 0, 1]
    assert [partner(s, 3) for s in range(3)] == [0, 1, 2]
    assert [side_of(s, 4) for s in range(4)] == [0, 1, 0, 1]
    assert [side_of(s, 3) for s in range(3)] == [0, 1, 2]
    assert [is_maker_side(s, 1, 4) for s in range(4)] == [False, True, False, True]
    assert [is_maker_side(s, 1, 3) for s in range(3)] == [False, True, False]
    assert not any(is_maker_side(s, -1, 4) for s in range(4))
    assert seat_name(2, 4) == "South" and seat_name(2, 3) == "Player 3"


def test_deal_order_is_three_two_from_the_dealers_left() -> None:
    assert deal_order(4, 3) == (0, 0, 0, 1, 1, 2, 2, 2, 3, 3,
                                0, 0, 1, 1, 1, 2, 2, 3, 3, 3)
    for n in (2, 3, 4):
        for dealer in range(n):
            order = deal_order(n, dealer)
            assert sorted(order) == sorted(list(range(n)) * 5)
            assert HandState(Rules(players=n) if n != 4 else Rules(), dealer,
                             _deck(n)).deal_seats == order


def _deck(n: int) -> tuple[int, ...]:
    return HandState.deal(Rules(players=n) if n != 4 else Rules(), 0, random.Random(n)).deck


def test_views_states_and_the_module_agree_on_every_seat_fact() -> None:
    rng = random.Random(7)
    for name in ("standard", "cutthroat", "two-handed", "tournament"):
        rules = preset(name)
        for k in range(40):
            h = HandState.deal(rules, k % rules.players, rng)
            while not h.is_terminal():
                for seat in range(h.n):
                    v = h.view(seat)
                    assert v.partner() == h.partner(seat) == partner(seat, h.n)
                    assert v.side_of() == h.side_of(seat) == side_of(seat, h.n)
                    assert v.is_maker_side() == h.is_maker_side(seat)
                    assert [v.is_maker_side(s) for s in range(h.n)] == \
                        [h.is_maker_side(s) for s in range(h.n)]
                v = h.view(h.cur)
                if h.phase == PLAY:
                    assert v.lawful_cards() == h.lawful_cards()
                h.apply_action(rng.choice(h.legal_actions()))


def test_lawful_cards_follow_suit_even_where_a_renege_is_legal() -> None:
    rng = random.Random(3)
    rules = Rules(renege="penalize")
    seen_renege_option = False
    for k in range(200):
        h = HandState.deal(rules, k % 4, rng)
        while not h.is_terminal():
            if h.phase == PLAY and h.trick:
                lawful = h.lawful_cards()
                if lawful != h.legal_actions():
                    seen_renege_option = True
                    assert set(lawful) < set(h.legal_actions())
                    assert lawful == h.view(h.cur).lawful_cards()
            h.apply_action(rng.choice(h.legal_actions()))
    assert seen_renege_option


def test_a_finished_hand_scored_what_the_score_table_says() -> None:
    rng = random.Random(11)
    for name in ("standard", "cutthroat", "two-handed", "two-handed-rows", "tournament",
                 "joker"):
        rules = preset(name)
        if name == "tournament":
            rules = rules.replace(defend_alone=True)
        for k in range(60):
            h = HandState.deal(rules, k % rules.players, rng)
            while not h.is_terminal():
                h.apply_action(rng.choice(h.legal_actions()))
            if h.outcome != "scored" or h.renege_claimed >= 0:
                continue
            assert h.points == h.points_for(h.maker_tricks()) == hand_points(
                rules, h.maker, h.maker_tricks(), alone=h.alone,
                lone_defender=h.lone_defender >= 0, contract=h.contract)
            # The state keeps what it has scored per rules object: every other count too.
            for made in range(h.variant.tricks_per_hand + 1):
                assert h.points_for(made) == hand_points(
                    rules, h.maker, made, alone=h.alone, lone_defender=h.lone_defender >= 0,
                    contract=h.contract)


def test_the_game_dealt_is_its_variant_and_undo_depth_counts_pushes() -> None:
    assert variant_for(preset("two-handed-rows")) is ROWS
    assert variant_for(Rules()) is STANDARD
    rows = HandState.deal(preset("two-handed-rows"), 0, random.Random(1))
    assert rows.variant is ROWS and rows.phase_name == Phase.AUCTION and rows.under
    h = HandState.deal(Rules(), 0, random.Random(1))
    assert h.variant is STANDARD and h.phase_name == Phase.BID1 and h.under == ()
    assert h.undo_depth == 0
    h.push(h.legal_actions()[0])
    h.push(h.legal_actions()[0])
    assert h.undo_depth == 2
    h.pop()
    assert h.undo_depth == 1


def test_renege_points_by_penalty() -> None:
    points = Rules(renege="penalize", renege_penalty="points")
    sc = points.scoring
    # East (a maker) claims: the makers' side (East-West, side 1) gets the renege points.
    assert renege_points(points, 1, 3, claimant_makers=True) == (0, sc.renege)
    assert renege_points(points, 1, 3, claimant_makers=False) == (sc.renege, 0)
    assert renege_points(points, 1, 4, claimant_makers=True, alone=True) == (0, sc.renege_lone)
    deduct = points.replace(renege_penalty="deduct")
    assert renege_points(deduct, 1, 3, claimant_makers=True) == (-sc.renege, 0)
    tricks = points.replace(renege_penalty="tricks")
    # The defenders claim: two of the makers' three tricks go to them, a euchre.
    assert renege_points(tricks, 1, 3, claimant_makers=False) == (sc.euchre, 0)
    assert renege_points(tricks, 1, 4, claimant_makers=True) == (0, sc.march)
