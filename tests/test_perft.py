"""Perft: counts of legal action sequences from real positions, our engine against OpenSpiel.

Counting every leaf of the action tree to a fixed depth pins the move generator far harder than
random playouts: one wrong legal action anywhere in the tree changes the count. Our side walks
the tree with ``push``/``pop`` (so undo is exercised at every node), OpenSpiel's with ``clone``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from euchre.phases import Phase

pytestmark = pytest.mark.core

pyspiel = pytest.importorskip("pyspiel")

from euchre.compat.openspiel import (  # noqa: E402
    deal_from_os_history,
    deck_for_deal,
    from_os_action,
    load_game,
    rules_for,
)
from euchre.state import HandState  # noqa: E402


def perft(state: HandState, depth: int) -> int:
    """Leaves at ``depth`` (terminal states before it count as one leaf)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for a in state.legal_actions():
        state.push(a)
        total += perft(state, depth - 1)
        state.pop()
    return total


def os_perft(state: Any, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += os_perft(child, depth - 1)
    return total


def _positions(game: Any, count: int, seed: int) -> list[tuple[Any, HandState]]:
    """Random deals, mirrored, each advanced by random legal actions to bidding or play."""
    rng = random.Random(seed)
    params = game.get_parameters()
    rules = rules_for(params["allow_lone_defender"], params["stick_the_dealer"])
    out: list[tuple[Any, HandState]] = []
    while len(out) < count:
        s = game.new_initial_state()
        while s.is_chance_node():
            s.apply_action(rng.choice(s.legal_actions()))
        dealer, hands, upcard = deal_from_os_history(s.history())
        ours = HandState(rules, dealer, deck_for_deal(dealer, hands, upcard))
        for _ in range(rng.randrange(0, 9)):  # some start in bidding, most in play
            if s.is_terminal():
                break
            a = rng.choice(s.legal_actions())
            ours.apply_action(from_os_action(ours, a))
            s.apply_action(a)
        if not s.is_terminal():
            out.append((s, ours))
    return out


@pytest.mark.parametrize("lone_defender", [False, True])
def test_perft_counts_match_openspiel(lone_defender: bool) -> None:
    game = load_game(allow_lone_defender=lone_defender, stick_the_dealer=True)
    positions = _positions(game, count=12, seed=7 + lone_defender)
    for os_state, ours in positions:
        before = [(s, a) for s, a in ours.history]
        for depth in (1, 2, 3, 5, 8):
            theirs = os_perft(os_state, depth)
            mine = perft(ours, depth)
            assert mine == theirs, (
                f"perft({depth}) {mine} != OpenSpiel's {theirs} from {os_state.history()}"
            )
        assert ours.history == before, "push/pop must leave the position exactly as it was"


def test_perft_of_a_full_play_phase_is_stable() -> None:
    """A whole play phase (20 cards) counted once: every path must also end in a score."""
    game = load_game()
    os_state, ours = _positions(game, count=1, seed=3)[0]
    while ours.phase_name != Phase.PLAY:
        a = ours.legal_actions()[-1]
        os_state.apply_action(_to_os(ours, a))
        ours.apply_action(a)
    # Play two tricks first so the full tree stays small enough for a unit test.
    for _ in range(8):
        a = ours.legal_actions()[0]
        os_state.apply_action(_to_os(ours, a))
        ours.apply_action(a)
    assert perft(ours, 12) == os_perft(os_state, 12)


def _to_os(ours: HandState, a: int) -> int:
    from euchre.compat.openspiel import to_os_action

    return to_os_action(ours, a)
