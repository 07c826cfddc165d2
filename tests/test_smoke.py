"""A seeded random match runs to the target and replays from its record."""

import random

import pytest

import euchre

pytestmark = pytest.mark.core


def test_seeded_match_reaches_target_and_replays() -> None:
    m = euchre.Match(euchre.Rules(), seed=5)
    rng = random.Random(1)
    while not m.is_terminal():
        m.apply_action(rng.choice(m.legal_actions()))
    assert max(m.scores) >= 10
    again = euchre.from_json(euchre.to_json(m))
    assert again.scores == m.scores and again.winner == m.winner
