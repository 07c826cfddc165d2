"""Our ``openspiel`` rules profile plays exactly like OpenSpiel 2.0.2's euchre.

Random OpenSpiel games (every chance and player action drawn uniformly from a seeded generator)
are mirrored move by move in our engine, in all four settings of OpenSpiel's two parameters:
at every decision both must name the same player and the same legal actions, and both must end
together with the same returns. The translation of ids lives in :mod:`euchre.compat.openspiel`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = pytest.mark.core

pyspiel = pytest.importorskip("pyspiel")

from euchre import actions as A  # noqa: E402
from euchre.cards import card_str, deck_cards, parse_card  # noqa: E402
from euchre.compat.openspiel import (  # noqa: E402
    OS_ALONE,
    OS_PARTNER,
    OS_PASS,
    OS_SUIT_BASE,
    card_from_os,
    card_to_os,
    deal_from_os_history,
    deck_for_deal,
    from_os_action,
    load_game,
    rules_for,
    to_os_action,
)
from euchre.state import ALONE, BID1, BID2, DEFEND, DISCARD, PLAY, SCORED, THROWN_IN, HandState  # noqa: E402

GAMES_PER_SETTING = 4000
SETTINGS = [
    pytest.param(stick, lone, id=f"stick={'on' if stick else 'off'}-lone_defender="
                 f"{'on' if lone else 'off'}")
    for stick in (True, False)
    for lone in (False, True)
]


def _describe(os_state: Any, ours: HandState | None) -> str:
    """The history of both games, for a failure message that can be replayed by hand."""
    text = f"OpenSpiel history: {os_state.history()}"
    if ours is not None:
        text += (f"\nour dealer {ours.dealer}, deck {[card_str(c) for c in ours.deck]}"
                 f"\nour history: {[(s, A.action_to_str(a)) for s, a in ours.history]}")
    return text


def _mirror_one_game(game: Any, rng: random.Random) -> tuple[Any, HandState]:
    """Play one random OpenSpiel game and the same game in our engine, checking every step."""
    rules = rules_for(
        allow_lone_defender=game.get_parameters()["allow_lone_defender"],
        stick_the_dealer=game.get_parameters()["stick_the_dealer"],
    )
    os_state = game.new_initial_state()
    while os_state.is_chance_node():
        os_state.apply_action(rng.choice(os_state.legal_actions()))
    history = os_state.history()
    assert len(history) == 22, _describe(os_state, None)
    dealer, hands, upcard = deal_from_os_history(history)
    ours = HandState(rules, dealer, deck_for_deal(dealer, hands, upcard))
    assert list(ours.initial_hands) == [sum(1 << c for c in h) for h in hands]
    assert ours.upcard == upcard
    while not os_state.is_terminal():
        where = _describe(os_state, ours)
        assert not ours.is_terminal(), "ours ended first\n" + where
        assert ours.current_player == os_state.current_player(), "player differs\n" + where
        os_legal = sorted(os_state.legal_actions())
        ours_legal = sorted(to_os_action(ours, a) for a in ours.legal_actions())
        assert ours_legal == os_legal, (
            f"legal actions differ in phase {ours.phase_name}: ours {ours_legal} "
            f"vs OpenSpiel {os_legal}\n{where}")
        a = rng.choice(os_legal)
        mine = from_os_action(ours, a)
        assert to_os_action(ours, mine) == a, where
        os_state.apply_action(a)
        ours.apply_action(mine)
    where = _describe(os_state, ours)
    assert ours.is_terminal(), "OpenSpiel ended first\n" + where
    assert ours.returns() == list(os_state.returns()), (
        f"returns differ: ours {ours.returns()} vs OpenSpiel {os_state.returns()}\n{where}")
    return os_state, ours


@pytest.mark.slow
@pytest.mark.parametrize(("stick", "lone"), SETTINGS)
def test_openspiel_profile_matches_openspiel_random_games(stick: bool, lone: bool) -> None:
    game = load_game(allow_lone_defender=lone, stick_the_dealer=stick)
    rng = random.Random(f"openspiel-conformance-{stick}-{lone}")
    outcomes = {SCORED: 0, THROWN_IN: 0}
    lone_makers = lone_defenders = 0
    for _ in range(GAMES_PER_SETTING):
        os_state, ours = _mirror_one_game(game, rng)
        outcomes[ours.outcome or ""] += 1
        lone_makers += ours.alone
        lone_defenders += ours.lone_defender >= 0
        # Our points are the result the returns come from: one side scores, the other does not.
        if ours.outcome == THROWN_IN:
            assert ours.points == (0, 0) and not ours.tricks
        else:
            assert len(ours.tricks) == 5 and min(ours.points) == 0 < max(ours.points)
            made = ours.maker_tricks() >= 3
            assert (ours.points[ours.maker % 2] > 0) == made
        # OpenSpiel's returns are our points: + for the scoring side's seats, - for the others.
        assert list(os_state.returns()) == [
            float(ours.points[s % 2] - ours.points[1 - s % 2]) for s in range(4)]
    # The random games reached every branch the setting has.
    assert outcomes[SCORED] > 0 and lone_makers > 0
    assert (outcomes[THROWN_IN] > 0) == (not stick)
    assert (lone_defenders > 0) == lone


def test_openspiel_card_ids_translate_both_ways() -> None:
    assert sorted(card_from_os(c) for c in range(24)) == list(deck_cards(24))
    assert all(card_to_os(card_from_os(c)) == c for c in range(24))
    # OpenSpiel card 0 is the nine of clubs, 23 the ace of spades, 9 the jack of diamonds.
    assert [card_str(card_from_os(c)) for c in (0, 23, 9)] == ["9C", "AS", "JD"]


def test_openspiel_deal_gives_each_seat_its_hand_and_upcard() -> None:
    game = load_game()
    rng = random.Random(7)
    for _ in range(50):
        os_state = game.new_initial_state()
        while os_state.is_chance_node():
            os_state.apply_action(rng.choice(os_state.legal_actions()))
        dealer, hands, upcard = deal_from_os_history(os_state.history())
        ours = HandState(rules_for(), dealer, deck_for_deal(dealer, hands, upcard))
        for seat in range(4):
            # OpenSpiel's own listing of the seat's hand, e.g. "H KQJT9" per suit line.
            info = os_state.information_state_string(seat)
            listed = 0
            for line in info.split("Hand:\n")[1].splitlines():
                suit, ranks = line.split(" ")
                for r in "" if ranks == "none" else ranks:
                    listed |= 1 << parse_card(r + suit)
            assert ours.initial_hands[seat] == listed, info
        assert card_to_os(ours.upcard) == os_state.history()[21]
        assert ours.current_player == os_state.current_player() == (dealer + 1) % 4


def test_openspiel_bid_and_alone_action_ids_depend_on_phase() -> None:
    game = load_game(allow_lone_defender=True)
    rng = random.Random(3)
    seen: set[tuple[int, int, int]] = set()
    for _ in range(300):
        os_state = game.new_initial_state()
        while os_state.is_chance_node():
            os_state.apply_action(rng.choice(os_state.legal_actions()))
        dealer, hands, upcard = deal_from_os_history(os_state.history())
        ours = HandState(rules_for(allow_lone_defender=True), dealer,
                         deck_for_deal(dealer, hands, upcard))
        while not ours.is_terminal() and ours.phase != PLAY:
            for a in ours.legal_actions():
                seen.add((ours.phase, a, to_os_action(ours, a)))
            a = rng.choice(ours.legal_actions())
            os_state.apply_action(to_os_action(ours, a))
            ours.apply_action(a)
    phase_map = {(p, a): o for p, a, o in seen}
    assert phase_map[(BID1, A.PASS)] == phase_map[(BID2, A.PASS)] == OS_PASS
    assert phase_map[(DEFEND, A.PASS)] == OS_PARTNER
    assert phase_map[(DEFEND, A.DEFEND_ALONE)] == phase_map[(ALONE, A.GO_ALONE)] == OS_ALONE
    assert phase_map[(ALONE, A.WITH_PARTNER)] == OS_PARTNER
    calls = {(a, o) for p, a, o in seen if p == BID2 and a != A.PASS}
    assert calls == {(A.CALL_BASE + s, OS_SUIT_BASE + s) for s in range(4)}
    assert {o for p, a, o in seen if p == BID1 and a == A.ORDER} == set(range(25, 29))
    assert all(o < 24 for p, _, o in seen if p == DISCARD)
