"""Computer players: legal in every rules variant, sensible in the situations a partner expects,
strictly behind the seat's view, and measurably better than random."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from euchre import Rules, preset
from euchre import actions as A
from euchre.bots import BOT_NAMES, BeginnerBot, Bot, RandomBot, RuleBasedBot, make_bot
from euchre.bots.rule_based import estimate, visible_reneges
from euchre.cards import HEARTS, deck_cards, parse_card
from euchre.phases import Phase
from euchre.seats import deal_order
from euchre.state import HandState
from euchre.tournament import PlayerSpec, TournamentSpec, run, summarize, think_times

ROOT = Path(__file__).resolve().parent.parent

VARIANTS: dict[str, Rules] = {
    **{name: preset(name) for name in ("standard", "tournament", "two-handed", "cutthroat",
                                       "joker", "openspiel")},
    "defend-alone": Rules(defend_alone=True),
    "canadian-loner": Rules(canadian_loner=True),
    "farmer-redeal": Rules(farmers_hand="redeal"),
    "farmer-swap": Rules(farmers_hand="swap"),
    "no-ace-no-face": Rules(no_ace_no_face=True),
    "renege-penalize": Rules(renege="penalize"),
    "deck-32": Rules(deck=32),
    "openspiel-lone-defender": preset("openspiel").replace(
        defend_alone=True, defend_alone_vs_partners=True),
    "cutthroat-swap-joker": Rules(players=3, going_alone=False, deck=25, farmers_hand="swap"),
    "two-handed-stick-32": Rules(players=2, going_alone=False, deck=32, stick_the_dealer=True),
}


def deck_for(rules: Rules, dealer: int, hands: dict[int, list[str]], upcard: str) -> list[int]:
    """A deck order that deals ``hands`` (seat -> cards) and turns ``upcard``; the rest of the
    cards fill the other hands and the kitty in id order."""
    n = rules.players
    seats = deal_order(n, dealer)
    wanted = {s: [parse_card(c) for c in cs] for s, cs in hands.items()}
    used = {c for cs in wanted.values() for c in cs} | {parse_card(upcard)}
    spare = [c for c in deck_cards(rules.deck) if c not in used]
    deck: list[int] = []
    for s in seats:
        deck.append(wanted[s].pop(0) if wanted.get(s) else spare.pop(0))
    return [*deck, parse_card(upcard), *spare]


def play_until(h: HandState, seat: int, script: list[str]) -> None:
    for text in script:
        h.apply_action(A.action_from_str(text))
    assert h.cur == seat


# --------------------------------------------------------------------------------------------
# Legal everywhere


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_bots_choose_legal_actions_in_every_variant_and_phase(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(name)
    phases: set[Phase] = set()
    for hand_no in range(60):
        bots: list[Bot] = [make_bot("rule" if (s + hand_no) % 3 else "random", hand_no * 10 + s)
                           for s in range(rules.players)]
        h = HandState.deal(rules, hand_no % rules.players, rng)
        while not h.is_terminal():
            view = h.view(h.cur)
            bot = bots[h.cur]
            a = bot.choose(view)
            assert a in view.legal_actions
            if isinstance(bot, RuleBasedBot):
                phases.add(view.phase)
                why = bot.explain(view)
                assert why.endswith(".") and why.count(". ") == 0 and len(why) < 120
            h.apply_action(a)
    assert {Phase.BID1, Phase.PLAY} <= phases


def test_rule_bot_meets_every_decision_phase_across_the_variants() -> None:
    """Declarations, take/decline, the alone question, defend alone, claims: all decided."""
    seen: set[Phase] = set()
    for name, rules in VARIANTS.items():
        rng = random.Random(name + "phases")
        bot = RuleBasedBot()
        for hand_no in range(80):
            h = HandState.deal(rules, hand_no % rules.players, rng)
            while not h.is_terminal():
                view = h.view(h.cur)
                seen.add(view.phase)
                h.apply_action(bot.choose(view))
    assert seen == {Phase.DECLARE, Phase.BID1, Phase.BID2, Phase.DEALER_TAKE, Phase.DISCARD,
                    Phase.ALONE, Phase.DEFEND, Phase.PLAY, Phase.CLAIM}


def test_rule_bot_never_reneges_when_reneging_is_only_penalized() -> None:
    rules = Rules(renege="penalize")
    rng = random.Random(3)
    bot = RuleBasedBot()
    for hand_no in range(100):
        h = HandState.deal(rules, hand_no % 4, rng)
        while not h.is_terminal():
            h.apply_action(bot.choose(h.view(h.cur)))
        assert h.reneges == []


def test_bots_see_only_the_seat_view_and_the_core_never_imports_bots() -> None:
    for path in (ROOT / "euchre" / "bots").glob("*.py"):
        if path.name in ("search.py", "rollout.py", "valuation.py"):
            # Determinized search (and the valuation pipeline it shares with the analysis)
            # builds whole states, but only sampled ones (from the view, by euchre.sampling);
            # the bot itself still receives only a SeatView.
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("euchre.state", "euchre.match"), path.name
    for path in (ROOT / "euchre").glob("*.py"):
        assert "euchre.bots" not in path.read_text(encoding="utf-8"), path.name


def test_make_bot_registry_and_seeded_random_bot() -> None:
    assert set(BOT_NAMES) == {"beginner", "casual", "club", "expert", "random", "rule", "search",
                              "search-rollout", "pimc-naive", "pimc-full", "pimc-uniform",
                              "rule-v1"}
    assert isinstance(make_bot("rule", 1), RuleBasedBot)
    assert isinstance(make_bot("beginner", 1), BeginnerBot)
    assert make_bot("rule-v1").name == "rule-v1"
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        make_bot("nobody")
    h = HandState.deal(Rules(), 0, random.Random(1))
    view = h.view(h.cur)
    picks_a = [RandomBot(9).choose(view) for _ in range(3)]
    picks_b = [RandomBot(9).choose(view) for _ in range(3)]
    assert picks_a == picks_b
    with pytest.raises(ValueError, match="not its turn"):
        RuleBasedBot().choose(h.view((h.cur + 1) % 4))


# --------------------------------------------------------------------------------------------
# Bidding


def test_rule_bot_goes_alone_with_the_textbook_loner() -> None:
    """Seed 002's example: J♥ J♦ A♥ A♠ K♠ with hearts trump is a loner."""
    rules = Rules()
    deck = deck_for(rules, 3, {0: ["JH", "JD", "AH", "AS", "KS"]}, "9H")
    h = HandState(rules, 3, deck)
    view = h.view(0)
    assert RuleBasedBot().choose(view) == A.ORDER_ALONE
    assert estimate(view.hand, HEARTS) >= 4.0


def test_rule_bot_orders_a_strong_hand_and_passes_a_weak_one() -> None:
    rules = Rules()
    strong = HandState(rules, 3, deck_for(rules, 3, {0: ["JH", "AH", "KH", "9C", "9S"]}, "9H"))
    assert RuleBasedBot().choose(strong.view(0)) == A.ORDER
    # With the A♣ instead of the 9♣ the hand has one likely loser: since #6 it goes alone.
    loner = HandState(rules, 3, deck_for(rules, 3, {0: ["JH", "AH", "KH", "AC", "9S"]}, "9H"))
    assert RuleBasedBot().choose(loner.view(0)) == A.ORDER_ALONE
    weak = HandState(rules, 3, deck_for(rules, 3, {0: ["9C", "TC", "QD", "TS", "9H"]}, "QH"))
    assert RuleBasedBot().choose(weak.view(0)) == A.PASS


def test_rule_bot_counts_who_gets_the_up_card() -> None:
    """The same middling hand orders a Jack into its partner's hand, not an opponent's."""
    rules = Rules()
    hand = ["QH", "TH", "AC", "KC", "9S"]
    # Seat 0's partner (seat 2) deals: ordering gives partner the right bower.
    partner_deals = HandState(rules, 2, deck_for(rules, 2, {0: list(hand)}, "JH"))
    partner_deals.apply_action(A.PASS)  # seat 3 passes; seat 0 to bid
    assert partner_deals.cur == 0
    assert RuleBasedBot().choose(partner_deals.view(0)) == A.ORDER
    # An opponent (seat 3) deals: ordering would hand them the right bower.
    opponent_deals = HandState(rules, 3, deck_for(rules, 3, {0: list(hand)}, "JH"))
    assert RuleBasedBot().choose(opponent_deals.view(0)) == A.PASS


def test_rule_bot_does_not_go_alone_when_the_opponent_dealer_gets_the_right_bower() -> None:
    """Left bower, A K Q of clubs and an ace count as a loner, but with the J♣ turned up by an
    opponent the dealer holds the top trump: a march is impossible, so order up with partner."""
    rules = Rules()
    h = HandState(rules, 3, deck_for(rules, 3, {0: ["JS", "AC", "KC", "QC", "AH"]}, "JC"))
    view = h.view(0)
    assert estimate(view.hand, 0) >= 4.0  # alone it would look like a march
    bot = RuleBasedBot()
    assert bot.choose(view) == A.ORDER
    assert "the dealer getting the J♣" in bot.explain(view)


def test_rule_bot_reasons_never_count_negative_tricks() -> None:
    rules = Rules()
    # A hand with nothing in clubs while the opponent dealer turns up the J♣ (seed 1's deal).
    h = HandState(rules, 1, deck_for(rules, 1, {2: ["QD", "KH", "JH", "9H", "KS"]}, "JC"))
    view = h.view(2)
    why = RuleBasedBot().explain(view)
    assert RuleBasedBot().choose(view) == A.PASS
    assert "-" not in why and "about 0.0 tricks" in why


def test_canadian_loner_partner_of_the_dealer_passes_saying_it_could_only_go_alone() -> None:
    rules = Rules(canadian_loner=True)
    # North deals the K♥; East passes; South, the dealer's partner, holds a middling hand.
    h = HandState(rules, 0, deck_for(rules, 0, {2: ["TC", "QD", "QH", "JH", "KS"]}, "KH"))
    play_until(h, 2, ["pass"])
    view = h.view(2)
    assert A.ORDER not in view.legal_actions
    bot = RuleBasedBot()
    assert bot.choose(view) == A.PASS
    # Not "my partner picking up the K♥": ordering here means going alone.
    assert bot.explain(view).startswith("I could only order hearts alone here")


def test_two_handed_maker_leads_trump_against_one_defender() -> None:
    rules = preset("two-handed")
    # Seat 0 (eldest against dealer 1) orders hearts with two low trumps and leads.
    h = HandState(rules, 1, deck_for(rules, 1, {0: ["TH", "9H", "AC", "KC", "AS"]}, "QH"))
    play_until(h, 1, ["order"])
    while h.cur == 1:  # the dealer takes (or declines) the up-card and discards
        h.apply_action(RuleBasedBot().choose(h.view(1)))
    view = h.view(0)
    assert view.phase == Phase.PLAY and view.maker == 0
    bot = RuleBasedBot()
    assert bot.choose(view) == parse_card("9H")
    assert bot.explain(view).endswith("to pull the defender's trumps.")  # one defender


def test_stuck_dealer_names_its_best_suit() -> None:
    rules = Rules(stick_the_dealer=True)
    h = HandState(rules, 3, deck_for(rules, 3, {3: ["9C", "TC", "QS", "KS", "9D"]}, "KH"))
    play_until(h, 3, ["pass"] * 7)
    assert A.PASS not in h.legal_actions()
    bot = RuleBasedBot()
    assert bot.choose(h.view(3)) == A.call(3)  # spades: the king and queen
    assert "may not pass" in bot.explain(h.view(3))


# --------------------------------------------------------------------------------------------
# Discarding and play


def test_rule_bot_discards_to_create_a_void() -> None:
    rules = Rules()
    h = HandState(rules, 3, deck_for(rules, 3, {3: ["JH", "AH", "KH", "QS", "AC"]}, "9H"))
    play_until(h, 3, ["pass", "pass", "pass", "order"])
    bot = RuleBasedBot()
    view = h.view(3)
    assert bot.choose(view) == A.discard(parse_card("QS"))
    assert "void in spades" in bot.explain(view)


def test_rule_bot_leads_trump_as_maker() -> None:
    rules = Rules()
    # Seat 0 (eldest) orders hearts and leads: it holds the right bower.
    h = HandState(rules, 3, deck_for(rules, 3, {0: ["JH", "QH", "TH", "AC", "AS"]}, "9H"))
    play_until(h, 0, ["order", "discard 9H"])
    bot = RuleBasedBot()
    view = h.view(0)
    assert view.phase == Phase.PLAY and view.maker == 0
    assert bot.choose(view) == parse_card("JH")
    assert "trump" in bot.explain(view)


def test_rule_bot_calls_a_singleton_lead_a_singleton_not_a_low_card() -> None:
    rules = Rules()
    # Seed 1's first hand: West orders clubs, South leads with Q♦ K♥ J♥ 9♥ K♠ (no trump).
    hands = {2: ["QD", "KH", "JH", "9H", "KS"]}
    h = HandState(rules, 1, deck_for(rules, 1, hands, "JC"))
    play_until(h, 1, ["pass", "order"])  # South passes, West orders; East discards
    h.apply_action(A.discard(h.view(1).hand[0]))
    view = h.view(2)
    assert view.phase == Phase.PLAY and not view.current_trick
    bot = RuleBasedBot()
    assert bot.choose(view) == parse_card("QD")
    assert bot.explain(view) == "I lead my singleton Q♦ to void myself in diamonds, so I can " \
        "trump it later."


def test_rule_bot_plays_low_under_its_partners_winning_card() -> None:
    rules = Rules()
    hands = {0: ["AC", "9S", "TS", "9D", "TD"], 1: ["9C", "QS", "KS", "QD", "KD"],
             2: ["QC", "KC", "AS", "AD", "9H"], 3: ["TC", "JS", "JC", "TH", "QH"]}
    h = HandState(rules, 3, deck_for(rules, 3, hands, "AH"))
    # Seat 0 orders hearts, dealer 3 buries; seat 0 leads the A♣, seat 1 follows low.
    play_until(h, 2, ["order", "discard TC", "play AC", "play 9C"])
    bot = RuleBasedBot()
    view = h.view(2)
    assert bot.choose(view) == parse_card("QC")  # not the K♣
    assert "partner is winning" in bot.explain(view)


def test_cutthroat_defender_does_not_call_the_other_defender_its_partner() -> None:
    rules = preset("cutthroat")
    hands = {0: ["AC", "9S", "TS", "9D", "TD"], 1: ["9C", "QS", "KS", "QD", "KD"],
             2: ["QC", "KC", "AS", "JS", "9H"]}
    h = HandState(rules, 2, deck_for(rules, 2, hands, "AH"))
    # Seat 0 orders hearts into dealer 2's hand (the dealer defends with seat 1) and leads the
    # 9♠; seat 1 wins the trick so far with the K♠; the dealer, last, plays low under it.
    play_until(h, 2, ["order", "discard 9H", "play 9S", "play KS"])
    view = h.view(2)
    why = RuleBasedBot().explain(view)
    assert "partner" not in why and why.startswith("The other defender is winning")


def test_rule_bot_trumps_in_when_the_trick_is_otherwise_lost() -> None:
    rules = Rules()
    hands = {1: ["AC", "KS", "QS", "9D", "TD"], 2: ["9C", "TC", "AS", "KD", "QD"],
             3: ["QC", "KC", "9S", "TS", "JS"], 0: ["9H", "TH", "QH", "AD", "JD"]}
    h = HandState(rules, 0, deck_for(rules, 0, hands, "KH"))
    # Seat 1 orders hearts into dealer 0's hand; the dealer (all trumps now) is void in clubs.
    play_until(h, 1, ["order", "discard AD"])
    for text in ["play AC", "play 9C", "play QC"]:
        h.apply_action(A.action_from_str(text))
    bot = RuleBasedBot()
    view = h.view(0)
    assert view.current_player == 0
    assert bot.choose(view) == parse_card("9H")  # the lowest trump that wins
    assert "trump in" in bot.explain(view)


def test_rule_bot_claims_a_visible_renege_by_the_other_side() -> None:
    rules = Rules(renege="penalize")
    hands = {0: ["AC", "9S", "TS", "9D", "TD"], 1: ["9C", "QS", "KS", "QD", "KD"],
             2: ["QC", "KC", "AS", "AD", "9H"], 3: ["TC", "JS", "JC", "TH", "QH"]}
    h = HandState(rules, 3, deck_for(rules, 3, hands, "AH"))
    # Hearts trump, made by seat 0. Seat 1 fails to follow clubs (plays the Q♠) although it
    # holds the 9♣, which it shows in the next trick: a public, provable renege.
    script = ["order", "discard TC", "play AC", "play QS", "play KC", "play JC",
              "play 9S", "play 9C"]
    for text in script:
        h.apply_action(A.action_from_str(text))
    bot = RuleBasedBot()
    while h.phase_name == Phase.PLAY:  # the rest is played by bots, which never renege
        h.apply_action(bot.choose(h.view(h.cur)))
    assert h.phase_name == Phase.CLAIM and h.cur == 0
    view = h.view(0)
    assert visible_reneges(view) == [1]
    assert bot.choose(view) == A.CLAIM_RENEGE
    assert bot.explain(view).startswith("East failed to follow suit")  # a name, not a number


def test_rule_bot_does_not_claim_without_a_visible_renege() -> None:
    rules = Rules(renege="penalize")
    rng = random.Random(8)
    bot = RuleBasedBot()
    claims = 0
    for hand_no in range(40):
        h = HandState.deal(rules, hand_no % 4, rng)
        while not h.is_terminal():
            view = h.view(h.cur)
            a = bot.choose(view)
            claims += a == A.CLAIM_RENEGE
            h.apply_action(a)
    assert claims == 0  # nobody reneged: four rule bots always follow suit


# --------------------------------------------------------------------------------------------
# Strength and speed


def test_rule_bot_beats_random_by_a_wide_margin_over_300_hands() -> None:
    out = run(TournamentSpec((PlayerSpec("rule"), PlayerSpec("random")), Rules(), 11), 150)
    s = summarize(out)
    assert s.hands == 300 and s.per_hand is not None and s.margin is not None
    assert s.per_hand[0].low > s.per_hand[1].high
    assert s.margin.low > 0.5  # points per hand
    assert think_times(out, 0).mean < 5.0  # milliseconds


@pytest.mark.parametrize("name", ["beginner", "rule", "search"])
def test_explanations_name_the_joker_in_full_as_every_refusal_does(name: str) -> None:
    """Hints show a bot's explanation: with the Joker in the deck it reads "Joker", never the
    compact "Jkr" of a hand listing."""
    from euchre.cards import JOKER

    rules = preset("joker")
    bot = make_bot(name, seed=1, think=4) if name == "search" else make_bot(name, seed=1)
    rng = random.Random(5)
    mentions = 0
    for dealer in range(40):
        h = HandState.deal(rules, dealer=dealer % 4, rng=rng)
        while not h.is_terminal() and mentions < 3:
            view = h.view(h.current_player)
            if JOKER in view.hand or view.upcard == JOKER:
                words = bot.explain(view)
                assert "Jkr" not in words, words
                mentions += "Joker" in words
            h.apply_action(bot.choose(view))
        if mentions >= 3:
            break
    assert mentions >= 1


def test_casual_decides_as_club_or_as_beginner_about_half_each_and_replays() -> None:
    from euchre.bots.casual import ROTE, CasualBot

    rng = random.Random(4)
    rote = thinking = 0
    for hand_no in range(200):
        h = HandState.deal(Rules(), hand_no % 4, rng)
        bot, again = CasualBot(hand_no), CasualBot(hand_no)
        while not h.is_terminal():
            view = h.view(h.cur)
            a = bot.choose(view)
            assert a == again.choose(view) and bot.explain(view) == again.explain(view)
            as_rule, as_beginner = RuleBasedBot().choose(view), BeginnerBot(hand_no).choose(view)
            assert a in (as_rule, as_beginner)
            if as_rule != as_beginner:
                rote += a == as_beginner
                thinking += a == as_rule
            h.apply_action(a)
    share = rote / (rote + thinking)
    assert abs(share - ROTE) < 0.08, share
    assert make_bot("casual", 1).name == "casual"
