"""The scoring table (000, 002, 003), from positions whose result no play can change, and from
random hands checked against the table."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import act, build, play_out

from euchre.rules import Rules, Scoring
from euchre.state import SCORED, HandState

pytestmark = pytest.mark.core

N, E, S, W = 0, 1, 2, 3

# East calls hearts in round two (up-card 10♣ turned down).
MARCH = ["AC KC QC AS KS", "JH JD AH KH QH", None, None]
"""East holds the five top trumps: every trick is East's whatever anyone plays."""
THREE_OR_FOUR = ["KH QH TH 9H AS", "JH JD AH 9C 9S", None, None]
"""East holds the three top trumps, North the other four: East wins each trick it trumps (at
least three) and North wins a trick it trumps without East (at least one)."""
EUCHRE = ["JH JD AH KH QH", "9C QC 9D TD 9S", None, None]
"""North holds the five top trumps against East's call: the makers take nothing."""


def east_calls_hearts(
    hands: list[str | None], alone: bool = False, rules: Rules | None = None
) -> HandState:
    h = build(hands, "TC", rules=rules)
    act(h, "pass", "pass", "pass", "pass", "call H alone" if alone else "call H")
    return h


def finish_every_way(make: object, seeds: int = 12) -> list[HandState]:
    """Play the position out with several random move orders."""
    out = []
    for seed in range(seeds):
        h = make()  # type: ignore[operator]
        assert isinstance(h, HandState)
        out.append(play_out(h, random.Random(seed)))
    return out


def ew(points: int) -> tuple[int, int]:
    return (0, points)


def ns(points: int) -> tuple[int, int]:
    return (points, 0)


def test_makers_take_three_or_four_tricks_score_one() -> None:
    seen = set()
    for h in finish_every_way(lambda: east_calls_hearts(THREE_OR_FOUR)):
        made = h.tricks_won[E] + h.tricks_won[W]
        assert made in (3, 4)
        seen.add(made)
        assert h.points == ew(1)
    assert seen  # at least one finish was observed


def test_march_makers_take_all_five_score_two() -> None:
    for h in finish_every_way(lambda: east_calls_hearts(MARCH)):
        assert h.tricks_won[E] == 5
        assert h.points == ew(2)


def test_lone_march_scores_four() -> None:
    for h in finish_every_way(lambda: east_calls_hearts(MARCH, alone=True)):
        assert h.alone and h.tricks_won[E] == 5
        assert h.points == ew(4)


def test_lone_maker_taking_three_or_four_scores_one() -> None:
    for h in finish_every_way(lambda: east_calls_hearts(THREE_OR_FOUR, alone=True)):
        assert h.alone and h.tricks_won[E] in (3, 4)
        assert h.points == ew(1)


def test_makers_euchred_defenders_score_two() -> None:
    for h in finish_every_way(lambda: east_calls_hearts(EUCHRE)):
        assert h.tricks_won[E] + h.tricks_won[W] < 3
        assert h.points == ns(2)


def test_lone_maker_euchred_defenders_score_two() -> None:
    for h in finish_every_way(lambda: east_calls_hearts(EUCHRE, alone=True)):
        assert h.points == ns(2)


def test_textbook_loner_from_the_guide_is_playable_alone() -> None:
    # 002: hearts trump, J♥ J♦ A♥ A♠ K♠ is a textbook loner.
    h = east_calls_hearts([None, "JH JD AH AS KS", None, None], alone=True)
    assert h.alone and W not in h.active
    play_out(h, random.Random(0))
    won = h.tricks_won[E]
    expected = 4 if won == 5 else 1 if won >= 3 else 0
    assert h.points == ew(expected) if expected else h.points == ns(2)


def test_only_one_side_scores_each_hand() -> None:
    rng = random.Random(11)
    for i in range(200):
        h = play_out(HandState.deal(Rules(), i % 4, rng), rng)
        assert sum(1 for p in h.points if p) <= 1
        if h.outcome == SCORED:
            assert sum(1 for p in h.points if p) == 1


def test_scoring_values_are_configurable() -> None:
    rules = Rules(scoring=Scoring(make=3, march=5, lone_march=9, euchre=7))
    assert next(iter(finish_every_way(
        lambda: east_calls_hearts(THREE_OR_FOUR, rules=rules), 1))).points == ew(3)
    assert finish_every_way(lambda: east_calls_hearts(MARCH, rules=rules), 1)[0].points == ew(5)
    assert finish_every_way(
        lambda: east_calls_hearts(MARCH, alone=True, rules=rules), 1)[0].points == ew(9)
    assert finish_every_way(lambda: east_calls_hearts(EUCHRE, rules=rules), 1)[0].points == ns(7)


# -------------------------------------------------------------------------------------------
# Random hands against the table


def expected_points(h: HandState) -> tuple[int, ...]:
    """The seeds' table, computed from the tricks (an independent restatement)."""
    maker_side = h.maker % 2
    made = h.tricks_won[h.maker] + h.tricks_won[(h.maker + 2) % 4]
    pts = [0, 0]
    if made == 5:
        pts[maker_side] = 4 if h.alone else 2
    elif made >= 3:
        pts[maker_side] = 1
    else:
        pts[1 - maker_side] = 4 if h.lone_defender >= 0 else 2
    return tuple(pts)


def category(h: HandState) -> str:
    made = h.tricks_won[h.maker] + h.tricks_won[(h.maker + 2) % 4]
    who = "lone " if h.alone else ""
    result = "march" if made == 5 else "make" if made >= 3 else "euchred"
    vs = " vs lone defender" if h.lone_defender >= 0 else ""
    return who + result + vs


def test_every_line_of_the_scoring_table_over_random_hands() -> None:
    rules = Rules(defend_alone=True)
    rng = random.Random(2024)
    seen: Counter[str] = Counter()
    for i in range(1500):
        h = play_out(HandState.deal(rules, i % 4, rng), rng)
        if h.outcome != SCORED:
            continue
        assert h.points == expected_points(h), category(h)
        seen[category(h)] += 1
    for cat in ("make", "march", "euchred", "lone make", "lone march", "lone euchred",
                "lone make vs lone defender", "lone euchred vs lone defender"):
        assert seen[cat] > 0, f"no random hand fell in {cat!r}: {dict(seen)}"


@pytest.mark.parametrize("alone", [False, True])
def test_defend_alone_does_not_change_the_makers_score(alone: bool) -> None:
    rules = Rules(defend_alone=True)
    h = east_calls_hearts(THREE_OR_FOUR, alone=alone, rules=rules)
    if alone:
        act(h, "pass", "defend alone")  # South passes, North defends alone
        assert h.lone_defender == N
    play_out(h, random.Random(5))
    assert h.points == ew(1)
