"""Core review findings: each test names the rule or contract a reviewer found broken."""

from __future__ import annotations

import pytest

from euchre.rules import PRESETS, Rules, preset


def test_rules_replace_players_reapplies_the_going_alone_default() -> None:
    # going_alone left unset means "on for four players, off for two and three" (the maker of a
    # two- or three-handed game already plays alone); changing only the player count of a rules
    # object must keep meaning that, not freeze the old count's answer.
    assert Rules().replace(players=3) == Rules(players=3)
    assert Rules().replace(players=2) == Rules(players=2)
    assert preset("cutthroat").replace(players=4) == Rules()
    assert preset("two-handed").replace(players=4).going_alone is True


def test_rules_replace_players_keeps_an_explicit_going_alone_choice() -> None:
    no_loners = Rules(going_alone=False)
    assert no_loners.replace(players=4).going_alone is False
    assert no_loners.replace(players=3) == Rules(players=3)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_replace_without_players_changes_nothing_else(name: str) -> None:
    r = preset(name)
    assert r.replace(target=r.target) == r
