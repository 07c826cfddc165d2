"""The `rule` level's fixes of issue #6, one constructed deal per habit that lost points.

Each test shows the habit on ``rule-v1`` (the frozen pre-fix bot) where it can, then checks that
``rule`` now decides otherwise and says why. Seats: 0 North, 1 East, 2 South, 3 West; North and
South are partners.
"""

from __future__ import annotations

from helpers import act, build, cards

from euchre import Rules
from euchre import actions as A
from euchre.bots import make_bot
from euchre.bots.legacy_rule import LegacyRuleBot
from euchre.bots.rule_based import RuleBasedBot, estimate, lone_losers
from euchre.cards import CLUBS, HEARTS, SPADES, card_symbol, parse_card
from euchre.phases import Phase
from euchre.tournament import PlayerSpec, TournamentSpec, run, summarize, think_times


def test_no_order_into_an_opponent_dealer_on_off_suit_aces_alone() -> None:
    """A♦ K♥ A♥ K♠ A♠ with K♣ turned by West (an opponent): no trump at all. The old bot
    counted 0.75 a side ace and ordered; with no trump the aces are ruffed, so pass."""
    h = build(["AD KH AH KS AS", None, None, None], "KC", dealer=3)
    view = h.view(0)
    assert LegacyRuleBot().choose(view) == A.ORDER  # the habit
    bot = RuleBasedBot()
    assert bot.choose(view) == A.PASS
    assert bot.explain(view).startswith("With clubs as trump and the dealer getting the K♣")


def test_side_aces_are_worth_less_with_one_trump_than_with_two() -> None:
    one = estimate(cards("9C AD AH KS AS"), CLUBS)
    two = estimate(cards("9C TC AH KS AS"), CLUBS)
    assert two - one > 0.3  # the ten of trumps backs the aces, more than its own 0.36 minus ace


def test_passes_a_weak_round_one_suit_for_a_far_better_round_two_suit() -> None:
    """J♣ A♣ K♦ J♠ A♠ dealing with the Q♦ turned: picking up diamonds (the old bot) was
    euchred; passing keeps clubs, where the hand goes alone, for round two."""
    h = build([None, None, None, "JC AC KD JS AS"], "QD", dealer=3)
    act(h, "pass", "pass", "pass")
    view = h.view(3)
    assert LegacyRuleBot().choose(view) == A.ORDER  # the habit
    bot = RuleBasedBot()
    assert bot.choose(view) == A.PASS
    assert bot.explain(view).startswith("Clubs would be far better than diamonds")
    act(h, "pass", "pass", "pass", "pass")  # round two comes back to the dealer
    assert bot.choose(h.view(3)) == A.call(CLUBS, alone=True)


def test_goes_alone_with_both_bowers_and_two_more_trumps() -> None:
    """J♣ J♦ 9♠ J♠ Q♠, naming spades in round two: the old bot kept its partner (3.95 counted
    tricks, threshold 4); both bowers and four trumps with one side loser go alone."""
    h = build(["JC JD 9S JS QS", None, None, None], "9H", dealer=3)
    act(h, "pass", "pass", "pass", "pass")
    view = h.view(0)
    assert LegacyRuleBot().choose(view) == A.call(SPADES)  # the habit
    bot = RuleBasedBot()
    assert bot.choose(view) == A.call(SPADES, alone=True)
    assert "go alone" in bot.explain(view)
    assert lone_losers(view.hand, SPADES) == 1.0  # the J♦


def test_no_loner_with_more_than_two_likely_losers() -> None:
    """K♥ 10♥ J♦ A♦ K♦ naming hearts counts about 3.6 tricks, but without the right bower and
    the ace of trumps a lone hand loses three or four tricks: call with partner."""
    h = build(["KH TH JD AD KD", None, None, None], "9C", dealer=3)
    act(h, "pass", "pass", "pass", "pass")
    view = h.view(0)
    assert estimate(view.hand, HEARTS) > 3.5
    assert lone_losers(view.hand, HEARTS) == 3.5
    assert RuleBasedBot().choose(view) == A.call(HEARTS)


def test_loner_counts_lone_losers_as_a_player_does() -> None:
    assert lone_losers(cards("JH JD AH KH QH"), HEARTS) == 0.0  # the top five trumps
    assert lone_losers(cards("JH JD AH AS KS"), HEARTS) == 0.5  # a king behind its ace
    assert lone_losers(cards("JH JD AH 9C 9S"), HEARTS) == 2.0  # two side nines
    assert lone_losers(cards("JD AH KH 9C AS"), HEARTS) == 2.0  # the right bower is out
    # The J♥ turned down in round two is out of play: the left bower is then the top trump.
    assert lone_losers(cards("JD AH KH 9C AS"), HEARTS, dead=parse_card("JH")) == 1.0


def test_third_hand_plays_over_a_partners_weak_card() -> None:
    """Partner leads the 9♣, East shows out with a diamond, South holds A♣ and 10♣ and West
    still has the Q♣: the old bot played the 10♣ behind its partner; the A♣ takes the trick."""
    hands = ["9C 9H TH QH 9S", "9D TD QD KD TS", "AC TC AS QS KS", "QC KC JC JS JD"]
    h = build(hands, "AH", dealer=3)
    act(h, "order", "discard JC", "play 9C", "play 9D")
    view = h.view(2)
    assert LegacyRuleBot().choose(view) == parse_card("TC")  # the habit
    bot = RuleBasedBot()
    assert bot.choose(view) == parse_card("AC")
    assert bot.explain(view) == (
        "My partner's 9♣ can still be beaten, so I play over it with the A♣.")


def test_third_hand_still_plays_low_when_it_cannot_beat_its_partner() -> None:
    """Partner's A♣ is the best club left: nothing South holds plays over it, so low it is."""
    hands = ["AC 9H TH QH 9S", "9D TD QD KD TS", "KC TC AS QS KS", "QC 9C JC JS JD"]
    h = build(hands, "AH", dealer=3)
    act(h, "order", "discard JC", "play AC", "play 9D")
    view = h.view(2)
    bot = RuleBasedBot()
    assert bot.choose(view) == parse_card("TC")
    assert bot.explain(view).endswith("so I play low: the 10♣.")


def test_no_loner_when_a_march_with_partner_already_wins_the_game() -> None:
    """The textbook loner J♥ J♦ A♥ A♠ K♠ at 4-3 in a game to 5: two points win the game as
    surely as four, and a partner makes the march likelier, so order up with partner."""
    rules = Rules(target=5)
    h = build(["JH JD AH AS KS", None, None, None], "9H", rules=rules, dealer=3)
    bot = RuleBasedBot()
    assert bot.choose(h.view(0, (0, 0))) == A.ORDER_ALONE
    assert LegacyRuleBot().choose(h.view(0, (4, 3))) == A.ORDER_ALONE  # the habit
    assert bot.choose(h.view(0, (4, 3))) == A.ORDER


def test_no_thin_pickup_when_a_euchre_would_lose_the_game() -> None:
    """West deals the A♣ to 9♣ K♣ K♦ 9♠ Q♠: about 2.3 tricks, a pickup at 0-0; at 7-8 in a
    game to 10 a euchre gives the other side the game, so pass."""
    h = build([None, None, None, "9C KC KD 9S QS"], "AC", dealer=3)
    act(h, "pass", "pass", "pass")
    bot = RuleBasedBot()
    assert bot.choose(h.view(3, (0, 0))) == A.ORDER
    at_7_8 = h.view(3, (8, 7))  # scores by side: North-South 8, East-West (the dealer's) 7
    assert LegacyRuleBot().choose(at_7_8) == A.ORDER  # the habit
    assert bot.choose(at_7_8) == A.PASS
    assert "give the other side the game" in bot.explain(at_7_8)


def test_needing_one_point_to_win_calls_a_little_lighter() -> None:
    h = build([None, None, None, "9C KC KD 9S QS"], "TC", dealer=3)
    act(h, "pass", "pass", "pass")
    bot = RuleBasedBot()
    # Without a match score the hand is a hair short; at 9-5 one made point wins the game.
    assert bot.choose(h.view(3)) == A.PASS
    assert bot.choose(h.view(3, (5, 9))) == A.ORDER


def test_forced_follow_says_it_must_follow_not_that_it_plays_low() -> None:
    """South's only spade is the A♠ behind its partner's winning K♠: "I play low: the A♠" was
    the old sentence; the play is forced, and the hint says so."""
    hands = ["KS 9H TH QH 9D", "9S TD QD KD AD", "AS QC KC AC TC", "QS 9C JC JS JD"]
    h = build(hands, "AH", dealer=3)
    act(h, "order", "discard JC", "play KS", "play 9S")
    view = h.view(2)
    assert LegacyRuleBot().explain(view).endswith("so I play low: the A♠.")  # the habit
    bot = RuleBasedBot()
    assert bot.choose(view) == parse_card("AS")
    assert bot.explain(view) == "The A♠ is my only legal card."
    # Where a renege is only penalized every card is playable, yet the bot still follows.
    h = build(hands, "AH", dealer=3, rules=Rules(renege="penalize"))
    act(h, "order", "discard JC", "play KS", "play 9S")
    view = h.view(2)
    assert len(view.legal_actions) == 5
    assert bot.choose(view) == parse_card("AS")
    assert bot.explain(view) == "I must follow suit, and the A♠ is my only spade."


def test_a_last_card_says_it_is_the_only_legal_card() -> None:
    hands = ["KS 9H TH QH 9D", "9S TD QD KD AD", "AS QC KC AC TC", "QS 9C JC JS JD"]
    h = build(hands, "AH", dealer=3)
    act(h, "order", "discard JC")
    bot = make_bot("rule")
    while len(h.legal_actions()) > 1 or h.phase_name != Phase.PLAY:
        h.apply_action(bot.choose(h.view(h.cur)))
    view = h.view(h.cur)
    (only,) = view.legal_actions
    assert bot.explain(view) == f"The {card_symbol(only)} is my only legal card."


def test_rule_beats_rule_v1_and_decides_within_a_millisecond_on_average() -> None:
    """A small run: the real figure (10,000+ duplicate hands) is in docs/benchmarks.md."""
    out = run(TournamentSpec((PlayerSpec("rule"), PlayerSpec("rule-v1")), Rules(), 3), 200)
    margin = summarize(out).margin
    assert margin is not None and margin.mean > 0
    assert think_times(out, 0).mean < 1.0  # milliseconds
