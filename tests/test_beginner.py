"""The `beginner` level: legal everywhere, deterministic for a seed, its habits and mistakes on
constructed deals, and its place between `random` and `rule`."""

from __future__ import annotations

import random

import pytest
from helpers import act, build
from test_bots import VARIANTS

from euchre import Rules
from euchre import actions as A
from euchre.bots import BeginnerBot, make_bot
from euchre.cards import parse_card
from euchre.phases import Phase
from euchre.state import HandState
from euchre.tournament import MeanCI, PlayerSpec, TournamentSpec, run, summarize


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_beginner_and_rule_v1_play_legally_in_every_variant(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(name + "beginner")
    phases: set[Phase] = set()
    for hand_no in range(40):
        # Beginners at the table with rule and rule-v1 (the frozen baseline is checked too).
        bots = [make_bot(("beginner", "rule", "rule-v1")[(s + hand_no) % 3], hand_no * 10 + s)
                for s in range(rules.players)]
        h = HandState.deal(rules, hand_no % rules.players, rng)
        while not h.is_terminal():
            view = h.view(h.cur)
            bot = bots[h.cur]
            a = bot.choose(view)
            assert a in view.legal_actions
            if isinstance(bot, BeginnerBot):
                phases.add(view.phase)
                assert bot.explain(view).endswith(".")
            h.apply_action(a)
        assert h.reneges == []  # it follows suit even where reneging is only penalized
    assert {Phase.BID1, Phase.PLAY} <= phases


def _game(seed: int) -> list[int]:
    rules = Rules()
    bots = [make_bot("beginner", seed + s) for s in range(4)]
    h = HandState.deal(rules, 0, random.Random(seed))
    out: list[int] = []
    while not h.is_terminal():
        a = bots[h.cur].choose(h.view(h.cur))
        out.append(a)
        h.apply_action(a)
    return out


def test_beginner_is_deterministic_for_a_seed() -> None:
    assert all(_game(s) == _game(s) for s in range(20))
    # choose and explain agree however often they are asked (the habit does not drift).
    h = HandState.deal(Rules(), 0, random.Random(5))
    bot = BeginnerBot(3)
    view = h.view(h.cur)
    assert len({bot.choose(view) for _ in range(5)}) == 1


def test_beginner_orders_with_any_two_trumps_and_forgets_the_left_bower() -> None:
    two = build(["9H TH AC KS 9D", None, None, None], "QH", dealer=3)
    assert BeginnerBot().choose(two.view(0)) == A.ORDER  # two small trumps: a weak order
    left = build(["JD 9H AC KS 9S", None, None, None], "QH", dealer=3)
    assert BeginnerBot().choose(left.view(0)) == A.PASS  # the J♦ is a heart: it forgot


def test_beginner_never_goes_alone() -> None:
    h = build(["JH JD AH AS KS", None, None, None], "9H", dealer=3)
    bot = BeginnerBot()
    assert make_bot("rule").choose(h.view(0)) == A.ORDER_ALONE
    assert bot.choose(h.view(0)) == A.ORDER
    assert "alone" not in bot.explain(h.view(0))


def test_beginner_leads_its_ace_and_plays_highest_over_its_partner() -> None:
    hands = ["AC 9H TH QH 9S", "9D TD QD KD TS", "KC TC AS QS KS", "QC 9C JC JS JD"]
    h = build(hands, "AH", dealer=3)
    act(h, "order", "discard JC")
    bot = BeginnerBot()
    assert bot.choose(h.view(0)) == parse_card("AC")  # the maker leads an ace, not trump
    act(h, "play AC", "play 9D")
    assert bot.choose(h.view(2)) == parse_card("KC")  # over its partner's winning ace


def test_beginner_sometimes_forgets_to_trump_in() -> None:
    """Void in the led suit with a trump in hand: over many seeds it trumps most of the time
    and forgets about a third of the time."""
    # North (maker, hearts) leads the A♣; East holds no club, the K♥ and four diamonds.
    h2 = build(["AC 9H TH QH 9S", "9D TD QD KD KH", "KC TC AS QS KS", "QC 9C JC JS JD"],
               "AH", dealer=3)
    act(h2, "order", "discard JC", "play AC")
    view = h2.view(1)
    picks = [BeginnerBot(seed).choose(view) for seed in range(200)]
    trumped = picks.count(parse_card("KH"))
    assert set(picks) == {parse_card("KH"), parse_card("9D")}
    assert 0.5 < trumped / len(picks) < 0.85


def test_beginner_beats_random_and_loses_to_rule() -> None:
    def margin(a: str, b: str, seed: int) -> MeanCI:
        m = summarize(run(TournamentSpec((PlayerSpec(a), PlayerSpec(b)), Rules(), seed), 150))
        assert m.margin is not None
        return m.margin

    assert margin("beginner", "random", 21).low > 0
    assert margin("rule", "beginner", 22).low > 0
