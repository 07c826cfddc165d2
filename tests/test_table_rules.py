"""The last table rules of the seeds (issue 10): a revoke fixed in time, what an established
revoke costs by table agreement, a misdeal passing the deal, two-handed with rows.

Each rule is an option whose default leaves the game as it was; these tests play the rule from
exact deals. The property tests (test_properties.py) and the sampler tests (test_sampling.py)
run every new option over random games too.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

import pytest
from helpers import act, build, cards, deck_for, hand_cards

from euchre import actions as A
from euchre.bots import make_bot
from euchre.cards import SUIT_MASK, deck_cards
from euchre.cli import build_parser
from euchre.cli.play import build_rules
from euchre.cli.replay import describe_record
from euchre.errors import IllegalActionError, RulesError
from euchre.match import Match
from euchre.phases import TRUMP, Phase
from euchre.record import from_json, to_json
from euchre.rules import PRESETS, Rules
from euchre.sampling import DealSampler, sample_hand_states
from euchre.state import FIX, PLAY, SCORED, UP_NONE, HandState
from euchre.view import FACE_DOWN

FIX_RULES = Rules(renege="penalize", renege_fix=True)

# North deals; East orders hearts up; North buries 9C. East leads AS; South holds 9S but
# plays AH (a renege); West follows; North has no spade.
HANDS = ["9C TC QC KC AC", "AS 9D TD QD KD", "9S AH KH QH TH", "TS JS QS KS AD"]
UP = "9H"


def revoke_trick(rules: Rules) -> HandState:
    h = build(HANDS, UP, rules=rules, dealer=0)
    act(h, "order", "discard 9C", "AS", "AH", "TS", "TC")
    return h


def follow_first(h: HandState) -> int:
    """A legal action that follows suit when it can (so no other renege happens)."""
    legal = h.legal_actions()
    if h.phase == PLAY and h.trick:
        follow = h.hands[h.cur] & SUIT_MASK[h.trump][h.led]
        for a in legal:
            if follow >> a & 1:
                return a
    return A.PASS if A.PASS in legal else legal[0]


def play_to_claims(h: HandState) -> HandState:
    while h.phase_name != Phase.CLAIM:
        h.apply_action(follow_first(h))
    return h


# ---------------------------------------------------------------------------------------------
# A revoke fixed in time (000: "Fix it before the trick is turned and quitted")


def test_renege_fix_asks_before_the_trick_is_quitted_and_takes_back_the_later_cards() -> None:
    h = revoke_trick(FIX_RULES)
    assert h.phase == FIX and h.cur == 2  # South, the first who did not follow
    assert h.legal_actions() == [A.FIX_RENEGE, A.PASS]
    assert len(h.tricks) == 0 and len(h.trick) == 4  # complete, not yet quitted
    act(h, "fix renege")
    # South and everyone after it (West, North) have their cards back; the trick holds the lead.
    assert list(h.trick) == [(1, cards("AS")[0])]
    assert {*cards("AH 9S")} <= hand_cards(h, 2)
    assert cards("TS")[0] in hand_cards(h, 3) and cards("TC")[0] in hand_cards(h, 0)
    assert h.reneges == []
    assert h.phase == PLAY and h.cur == 2


def test_renege_fix_the_fixer_must_follow_the_others_may_play_any_card_again() -> None:
    h = revoke_trick(FIX_RULES)
    act(h, "fix renege")
    assert h.legal_actions() == cards("9S")  # the fixer must now follow suit
    with pytest.raises(IllegalActionError, match="must follow"):
        act(h, "AH")
    act(h, "9S")
    assert sorted(h.legal_actions()) == sorted(cards("TS JS QS KS AD"))  # West: any card
    act(h, "AD")  # West reneges this time (it holds spades)
    act(h, "TC")
    assert h.phase == FIX and h.decl_queue == (3, 0)  # West, then North (who is void)
    assert h.legal_actions() == [A.FIX_RENEGE, A.PASS]
    act(h, "pass")
    assert h.cur == 0 and h.legal_actions() == [A.PASS]  # North did not renege: pass only
    with pytest.raises(IllegalActionError):
        act(h, "fix renege")
    act(h, "pass")
    assert len(h.tricks) == 1 and h.phase == PLAY and h.forced == 0
    assert h.reneges == [(3, 0, cards("AD")[0])]  # West's renege is established


def test_renege_fix_everyone_who_did_not_follow_is_asked_so_the_question_tells_nothing() -> None:
    h = revoke_trick(FIX_RULES)
    act(h, "pass")  # South lets its renege stand
    assert h.cur == 0 and h.legal_actions() == [A.PASS]
    act(h, "pass")
    assert h.reneges == [(2, 0, cards("AH")[0])]
    # Both questions are public acts; nothing in them says who could have followed.
    view = h.view(1)
    assert view.history[-2:] == ((2, A.PASS), (0, A.PASS))


def test_renege_fix_an_unfixed_revoke_is_established_and_claimed_at_the_end() -> None:
    h = revoke_trick(FIX_RULES)
    act(h, "pass", "pass")
    play_to_claims(h)
    assert h.cur == 1  # East (maker side) is asked first
    act(h, "claim renege")
    assert h.outcome == SCORED and h.points == (0, 2)


def test_renege_fix_cards_taken_back_are_known_to_every_sample() -> None:
    h = revoke_trick(FIX_RULES)
    act(h, "fix renege")
    view = h.view(1)  # East saw AH, TS and TC go back
    for sample in sample_hand_states(view, random.Random(3), 30):
        assert sample.view(1) == view
        assert cards("AH")[0] in hand_cards(sample, 2)
        assert cards("TS")[0] in hand_cards(sample, 3)
        assert cards("TC")[0] in hand_cards(sample, 0)


def test_renege_fix_needs_the_penalize_rule() -> None:
    with pytest.raises(RulesError, match="renege_fix needs renege='penalize'"):
        Rules(renege_fix=True)
    # Off (the default), a renege is never asked about before the trick is quitted.
    h = revoke_trick(Rules(renege="penalize"))
    assert h.phase == PLAY and len(h.tricks) == 1


# ---------------------------------------------------------------------------------------------
# What an established revoke costs (000, 002)


def claimed(rules: Rules) -> HandState:
    h = revoke_trick(rules)
    if rules.renege_fix:
        act(h, "pass", "pass")
    play_to_claims(h)
    act(h, "claim renege")
    return h


def test_renege_penalty_points_is_the_default_and_unchanged() -> None:
    h = claimed(Rules(renege="penalize"))
    assert Rules().renege_penalty == "points"
    assert h.points == (0, 2)  # 2 to the other side


def test_renege_penalty_deduct_takes_two_points_off_the_offending_side() -> None:
    h = claimed(Rules(renege="penalize", renege_penalty="deduct"))
    assert h.points == (-2, 0)  # North-South (South reneged) lose 2; nobody scores


def test_renege_penalty_deduct_scores_go_below_zero_in_match_record_and_replay() -> None:
    rules = Rules(renege="penalize", renege_penalty="deduct")
    m = Match(rules, seed=1, first_dealer=0, decks=[deck_for(rules, 0, HANDS, UP)])
    act(m, "order", "discard 9C", "AS", "AH", "TS", "TC")
    while m.hand.phase_name != Phase.CLAIM:
        m.apply_action(follow_first(m.hand))
    act(m, "claim renege")
    assert m.scores == [-2, 0] and m.finished[0].points == (-2, 0)
    again = from_json(to_json(m))
    assert again.scores == [-2, 0] and again.finished == m.finished
    text = describe_record(again)
    assert "North-South -2" in text and "Score: North-South -2, East-West 0" in text


def test_renege_penalty_tricks_gives_two_tricks_to_the_other_side_then_scores() -> None:
    h = claimed(Rules(renege="penalize", renege_penalty="tricks"))
    made = h.maker_tricks()  # East-West, the makers, claimed South's renege
    expect = min(5, made + 2)
    assert h.points == ((0, 2) if expect == 5 else (0, 1) if expect >= 3 else (2, 0))
    # And the other way: the makers' renege costs the makers two tricks.
    rules = Rules(renege="penalize", renege_penalty="tricks")
    # East orders; South leads? No: East leads, West (maker side) reneges holding spades.
    h2 = build(["9C TC QC KC AC", "AS 9D TD QD KD", "9S AH KH QH TH", "TS JH JS QS KS"],
               "9H", rules=rules, dealer=0)
    act(h2, "order", "discard 9C", "AS", "9S", "JH", "TC")  # West trumps, holding spades
    play_to_claims(h2)
    before = h2.maker_tricks()
    act(h2, "pass")  # East (makers) does not claim
    act(h2, "claim renege")  # South claims West's renege
    after = max(0, before - 2)
    assert h2.points == ((0, 2) if after == 5 else (0, 1) if after >= 3 else (2, 0))


def test_renege_penalty_needs_the_penalize_rule() -> None:
    with pytest.raises(RulesError, match="renege_penalty needs renege='penalize'"):
        Rules(renege_penalty="deduct")


# ---------------------------------------------------------------------------------------------
# Misdeal passes the deal (002: "some tables pass the deal instead")

FARMER = ["9C TC QC KC AC", "9D TD 9S TS 9H", None, None]


@pytest.mark.parametrize(("option", "call", "up"), [
    ({"farmers_hand": "redeal"}, "farmer", "AH"),
    ({"no_ace_no_face": True}, "misdeal", "JC"),
])
def test_misdeal_passes_the_deal_for_farmers_hand_and_no_ace_no_face(
        option: dict[str, object], call: str, up: str) -> None:
    for passes, next_dealer in ((False, 0), (True, 1)):
        rules = Rules.from_dict({**option, "misdeal_passes": passes})
        m = Match(rules, seed=2, first_dealer=0, decks=[deck_for(rules, 0, FARMER, up)])
        act(m, call)  # East, first from the dealer's left, calls the misdeal
        assert m.finished[0].outcome == "misdeal"
        assert m.hand.dealer == next_dealer
    with pytest.raises(RulesError, match="misdeal_passes needs a misdeal"):
        Rules(misdeal_passes=True)


# ---------------------------------------------------------------------------------------------
# Two-handed with rows (002)

ROWS = PRESETS["two-handed-rows"]


def test_two_handed_rows_deals_four_down_four_up_four_in_hand_and_no_up_card() -> None:
    deck = deck_cards(24)
    h = HandState(ROWS, 0, deck)  # Player 1 deals; Player 2 (seat 1) is the non-dealer
    assert h.columns[1] == tuple((deck[8 + 2 * c], deck[2 * c]) for c in range(4))
    assert h.columns[0] == tuple((deck[9 + 2 * c], deck[2 * c + 1]) for c in range(4))
    assert h.face_down(1) == [deck[2 * c] for c in range(4)]
    assert sorted(hand_cards(h, 1)) == sorted(
        [deck[8 + 2 * c] for c in range(4)] + [deck[16 + 2 * c] for c in range(4)])
    assert h.up_status == UP_NONE and h.kitty == () and h.upcard == -1


def test_two_handed_rows_bidding_is_an_auction_of_tricks_then_the_higher_bidder_names_trump(
) -> None:
    # euchre.com: bids like Spades, minimum seven, non-dealer first; the higher bidder names
    # trump. Our choice: one bid each, the dealer must outbid; the non-dealer still leads.
    h = HandState(ROWS, 0, deck_cards(24))
    assert h.phase_name == Phase.AUCTION and h.cur == 1
    assert h.legal_actions() == [*(A.bid(k) for k in range(7, 13)), A.PASS]
    act(h, "bid 8")
    assert h.cur == 0 and h.legal_actions() == [*(A.bid(k) for k in range(9, 13)), A.PASS]
    with pytest.raises(IllegalActionError, match="beat the standing bid of 8"):
        h.apply_action(A.bid(8))
    with pytest.raises(IllegalActionError, match="first bids tricks"):
        h.apply_action(A.call(0))
    act(h, "bid 9")
    assert h.phase == TRUMP and h.cur == 0 and h.contract == 9 and h.bidder == 0
    assert h.legal_actions() == [A.call(s) for s in range(4)]  # no going alone, no pass
    act(h, "call D")
    assert h.maker == 0 and h.trump == 1 and h.phase == PLAY and h.cur == 1
    assert h.view(1).contract == 9


def test_two_handed_rows_the_non_dealer_keeps_its_bid_when_the_dealer_passes() -> None:
    h = HandState(ROWS, 0, deck_cards(24))
    act(h, "bid 7", "pass")
    assert h.phase_name == Phase.TRUMP and h.cur == 1
    act(h, "call H")
    assert h.maker == 1 and h.contract == 7 and h.cur == 1


def test_two_handed_rows_both_pass_throws_in_and_stick_the_dealer_makes_the_dealer_bid(
) -> None:
    h = HandState(ROWS, 0, deck_cards(24))
    act(h, "pass", "pass")
    assert h.outcome == "thrown_in"
    stick = HandState(ROWS.replace(stick_the_dealer=True), 0, deck_cards(24))
    act(stick, "pass")
    assert stick.legal_actions() == [A.bid(k) for k in range(7, 13)]
    with pytest.raises(IllegalActionError, match="stick the dealer"):
        stick.apply_action(A.PASS)
    bid12 = HandState(ROWS.replace(stick_the_dealer=True), 0, deck_cards(24))
    act(bid12, "bid 12")
    assert bid12.legal_actions() == [A.PASS]  # nothing higher to bid


def test_two_handed_rows_bids_are_actions_bid_7_to_bid_12() -> None:
    for k in range(7, 13):
        assert A.action_from_str(f"bid {k}") == A.bid(k)
        assert A.action_to_str(A.bid(k)) == f"bid {k}" and A.bid_tricks(A.bid(k)) == k
    assert not any(A.is_bid(a) for a in (A.FIX_RENEGE, A.DISCARD_BASE + 32, A.PASS))
    for bad in ("bid 6", "bid 13", "bid x", "bid 99999"):
        with pytest.raises(ValueError, match="7 to 12"):
            A.action_from_str(bad)


def test_two_handed_rows_playing_a_face_up_card_turns_up_the_card_under_it() -> None:
    deck = deck_cards(24)
    h = HandState(ROWS, 0, deck)
    act(h, "bid 7", "pass", "call S")
    top, under = h.columns[1][0]
    assert under not in h.legal_actions()  # face down: not playable
    h.apply_action(top)  # the non-dealer leads its first face-up card
    assert under in hand_cards(h, 1) and under in h.face_up(1)
    assert under not in h.face_down(1) and len(h.face_down(1)) == 3


def test_two_handed_rows_view_shows_both_face_up_rows_and_hides_face_down() -> None:
    deck = deck_cards(24)
    h = HandState(ROWS, 0, deck)
    act(h, "bid 7", "pass", "call S")
    top, under = h.columns[1][0]
    v0 = h.view(0)
    assert [t for t, _ in v0.rows[1]] == [t for t, _ in h.columns[1]]
    assert all(u == FACE_DOWN for _, u in v0.rows[0]) and all(u == FACE_DOWN for _, u in v0.rows[1])
    assert not set(h.face_down(0)) & set(v0.hand)  # its own face-down cards are hidden too
    assert sorted(v0.face_up(1)) == sorted(h.face_up(1))
    h.apply_action(top)
    v0 = h.view(0)
    assert v0.rows[1][0] == (top, under)  # turned up: everyone sees it
    assert under in v0.face_up(1) and v0.face_down_count(1) == 3


def test_two_handed_rows_only_the_maker_scores_a_point_a_trick_past_six_if_the_bid_is_made(
) -> None:
    # euchre.com: 7 tricks 1 point ... 12 tricks 6; fewer than 7 score 0; only the maker
    # scores. Our choice: the bid binds, so fewer tricks than the bid also score 0.
    seen: Counter[str] = Counter()
    for seed in range(120):
        rng = random.Random(seed)
        h = HandState.deal(ROWS, seed % 2, rng)
        while not h.is_terminal():
            h.apply_action(rng.choice(h.legal_actions()))
        if h.outcome != SCORED:
            continue
        made, bid = h.maker_tricks(), h.contract
        assert sum(h.tricks_won) == 12 and len(h.tricks) == 12 and 7 <= bid <= 12
        if made >= bid:
            want, kind = made - 6, "made"
        else:
            want, kind = 0, "missed" if made >= 7 else "under seven"
        assert h.points[h.maker] == want and h.points[1 - h.maker] == 0
        seen[kind] += 1
    assert seen["made"] and seen["missed"] and seen["under seven"]


def rows_scored(bid: str, won: int, rules: Rules = ROWS) -> tuple[int, ...]:
    """The points when the non-dealer (seat 1) bids ``bid``, names spades and takes ``won``."""
    h = HandState(rules, 0, deck_cards(24))
    act(h, bid, "pass", "call S")
    return h.points_for(won)


def test_two_handed_rows_scores_from_exact_hands() -> None:
    # A maker who bid 8 and took 10 scores 4; one who bid 9 and took 8 scores nothing.
    assert rows_scored("bid 8", 10) == (0, 4)
    assert rows_scored("bid 9", 8) == (0, 0)
    assert rows_scored("bid 7", 6) == (0, 0)
    assert rows_scored("bid 12", 12) == (0, 6)


def test_rows_euchre_a_maker_short_of_its_bid_gives_the_other_player_two() -> None:
    # Our addition (off by default): the five-card game's euchre for a missed rows bid.
    rules = ROWS.replace(rows_euchre=True)
    assert rows_scored("bid 9", 8, rules) == (2, 0)
    assert rows_scored("bid 7", 6, rules) == (2, 0)
    assert rows_scored("bid 8", 10, rules) == (0, 4)
    with pytest.raises(RulesError, match="rows=True"):
        Rules(players=2, rows_euchre=True)
    assert build_rules(parse("--preset", "two-handed-rows", "--rows-euchre")) == rules
    assert from_json(to_json(Match(rules, seed=1))).rules == rules


def test_two_handed_rows_sampler_keeps_views_exact_and_face_down_cards_hidden() -> None:
    rng = random.Random(4)
    h = HandState.deal(ROWS, 1, rng)
    act(h, "bid 8", "bid 9", "call H")
    for _ in range(5):
        h.apply_action(rng.choice(h.legal_actions()))
    view = h.view(0)
    sampler = DealSampler(view)
    assert sampler.is_possible(sampler.assignment_of(h))
    own_down, opp_down = set(), set()
    for sample in sample_hand_states(view, rng, 40):
        assert sample.view(0) == view
        own_down.add(frozenset(sample.face_down(0)))
        opp_down.add(frozenset(sample.face_down(1)))
    assert len(own_down) > 1 and len(opp_down) > 1  # neither row's face-down cards are known


@pytest.mark.parametrize("bot", ["rule", "random"])
def test_two_handed_rows_bots_play_whole_games(bot: str) -> None:
    for seed in range(3):
        m = Match(ROWS, seed=seed)
        players = [make_bot(bot, seed), make_bot(bot, seed + 1)]
        while not m.is_terminal():
            m.apply_action(players[m.current_player].choose(m.view(m.current_player)))
        assert max(m.scores) >= ROWS.target
        assert from_json(to_json(m)).scores == m.scores


def test_two_handed_rows_refuses_what_it_cannot_have() -> None:
    for bad, why in (({"rows": True}, "players=2"),
                     ({"rows": True, "players": 2, "deck": 25}, "deck=24"),
                     ({"rows": True, "players": 2, "farmers_hand": "swap"}, "farmer"),
                     ({"rows": True, "players": 2, "renege": "penalize", "renege_fix": True},
                      "take a card back")):
        with pytest.raises(RulesError, match=why):
            Rules.from_dict(bad)


# ---------------------------------------------------------------------------------------------
# Flags and records


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


def test_new_rules_are_flags_of_euchre_play() -> None:
    r = build_rules(parse("--renege", "penalize", "--renege-fix", "--renege-penalty", "deduct"))
    assert r.renege_fix and r.renege_penalty == "deduct"
    r = build_rules(parse("--farmers-hand", "redeal", "--misdeal-passes"))
    assert r.misdeal_passes
    assert build_rules(parse("--preset", "two-handed-rows")) == ROWS
    assert build_rules(parse("--players", "2", "--rows")) == ROWS
    with pytest.raises(RulesError, match="players=2"):
        build_rules(parse("--rows"))


@pytest.mark.parametrize("rules", [
    Rules(renege="penalize", renege_fix=True, renege_penalty="tricks"),
    Rules(renege="penalize", renege_penalty="deduct", farmers_hand="redeal",
          misdeal_passes=True),
    ROWS, ROWS.replace(renege="penalize", renege_penalty="deduct"),
], ids=["fix-tricks", "deduct-passes", "rows", "rows-deduct"])
def test_new_rules_round_trip_in_records(rules: Rules) -> None:
    m = Match(rules, seed=5)
    rng = random.Random(5)
    # Random players renege often, so under 'deduct' a game can drift below zero for long:
    # eight hands (then the record of a game in progress) are enough.
    while not m.is_terminal() and len(m.finished) < 8:
        m.apply_action(rng.choice(m.legal_actions()))
    again = from_json(to_json(m))
    assert again.rules == rules and again.finished == m.finished and again.scores == m.scores


# ---------------------------------------------------------------------------------------------
# The terminal: 5-and-4 score markers (000) and the rows drawn


def test_five_and_four_markers_show_scores_to_ten_with_two_cards() -> None:
    from euchre.tui.render import ASCII, markers

    shown = {k: markers(k, ASCII, "5-4").plain for k in range(-1, 11)}
    assert shown[0] == "[#####][####]"  # both face down
    assert shown[3] == "[#####][ooo.]"  # three pips of the 4 under the face-down 5
    assert shown[5] == "[ooooo][####]"  # the 5 alone
    assert shown[8] == "[ooooo][ooo.]"  # the 5 and three pips of the 4
    assert shown[10] == shown[-1] == ""  # 10 wins; below zero cannot be shown
    assert markers(7, ASCII).plain == "[o....][oooooo]"  # the 5-and-6 default is unchanged


def test_markers_flag_and_rows_are_drawn_on_the_table() -> None:
    from euchre.tui.render import ASCII, TableContext, render_table

    assert parse("--markers", "5-4").markers == "5-4"
    assert parse().markers == "5-6"
    h = HandState(ROWS, 0, deck_cards(24))
    act(h, "bid 7", "pass", "call S")
    top = h.columns[1][0][0]
    h.apply_action(top)
    view = h.view(0)
    ctx = TableContext(glyphs=ASCII, name=lambda s: "You" if s == 0 else "Player 2",
                       short=lambda s: str(s + 1), side_names=["You", "P2"], scores=[3, 0],
                       target=10, title="two-handed-rows", hand_no=1, bottom=0,
                       marker_style="5-4")
    text = "\n".join(t.plain for t in render_table(view, ctx))
    assert "Your row: " in text and "Player 2 row: " in text
    assert "3 face down" in text and "4 face down" in text  # one of Player 2's turned up
    assert "No up-card" not in text and "Up-card" not in text  # trump named, no up-card
    assert "[#####][ooo.]" in text


def test_two_handed_rows_review_refuses_in_one_line_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main

    m = Match(ROWS, seed=1)
    rng = random.Random(1)
    while len(m.finished) < 1:
        m.apply_action(rng.choice(m.legal_actions()))
    path = tmp_path / "rows.json"
    path.write_text(to_json(m))
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert "two-handed with rows" in err and "Traceback" not in err and err.count("\n") == 1
