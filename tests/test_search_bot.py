"""The search player and the levels: legal everywhere, deterministic, sound bidding, explained.

Budgets are tiny (a few deals a decision) so the suite stays fast; strength is measured by
``euchre tournament``, not here."""

from __future__ import annotations

import random

import pytest

from euchre import HandState, Match, Rules, preset
from euchre import actions as A
from euchre.bots import BOT_NAMES, Adviser, make_bot, rollout
from euchre.bots.equity import win_probability
from euchre.bots.learned import LearnedBidBot
from euchre.bots.search import BID_DEALS, SearchBot, Think, parse_think
from euchre.cards import parse_card
from euchre.phases import Phase
from euchre.sampling import sample_hand_states
from euchre.seats import deal_order

THINK = 4

VARIANTS: dict[str, Rules] = {
    "standard": preset("standard"),
    "tournament (stick the dealer)": preset("tournament"),
    "two-handed": preset("two-handed"),
    "cutthroat": preset("cutthroat"),
    "joker": preset("joker"),
    "openspiel (alone after discard, lone defender vs pairs)": preset("openspiel"),
    "defend alone + Canadian loner": Rules(defend_alone=True, canadian_loner=True),
    "farmer's swap + no ace no face": Rules(farmers_hand="swap", no_ace_no_face=True),
    "farmer's redeal, 32 cards": Rules(farmers_hand="redeal", deck=32),
    "two-handed with the Joker": preset("two-handed").replace(deck=25),
    "cutthroat, stick the dealer": preset("cutthroat").replace(stick_the_dealer=True),
}


def _play_hand(rules: Rules, seed: int, names: list[str]) -> HandState:
    """One hand with the given level per seat; every choice is checked against the view's
    legal actions, and every search decision's explanation against its choice."""
    rng = random.Random(seed)
    state = HandState.deal(rules, seed % rules.players, rng)
    bots = [make_bot(name, seed * 10 + s, think=THINK) for s, name in enumerate(names)]
    while not state.is_terminal():
        seat = state.cur
        view = state.view(seat, (0,) * rules.num_sides)
        action = bots[seat].choose(view)
        assert action in view.legal_actions, (rules, view.phase, action)
        why = bots[seat].explain(view)
        assert why and why[-1] == "."
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_search_plays_legally_in_every_preset_and_variant(name: str) -> None:
    rules = VARIANTS[name]
    for seed in range(2):
        names = ["search" if s % 2 == seed % 2 else "pimc-naive" for s in range(rules.players)]
        state = _play_hand(rules, seed, names)
        assert state.outcome is not None


def test_search_claims_a_renege_the_tricks_prove_and_plays_legally_under_penalize() -> None:
    # Random players renege often under "penalize"; the search player must claim when it can.
    rules = Rules(renege="penalize")
    claims = 0
    for seed in range(6):
        state = _play_hand(rules, seed, ["search", "random", "search", "random"])
        claims += any(a == A.CLAIM_RENEGE for w, a in state.history if w in (0, 2))
        # A search seat never reneges on purpose.
        assert all(w in (1, 3) for w, _, _ in state.reneges)
    assert claims >= 1


def test_joker_up_card_and_two_handed_take_or_decline_are_decided_by_search() -> None:
    rules = preset("joker")
    seen_joker = False
    for seed in range(200):
        st = HandState.deal(rules, 0, random.Random(seed))
        if st.upcard == 32:
            view = st.view(st.cur)
            bot = SearchBot(1, THINK)
            assert bot.choose(view) in view.legal_actions
            assert "deals consistent with what you see" in bot.explain(view)
            seen_joker = True
            break
    assert seen_joker
    two = preset("two-handed")
    for seed in range(50):
        st = HandState.deal(two, 0, random.Random(seed))
        st.apply_action(A.ORDER)  # the non-dealer orders up: the dealer takes or declines
        view = st.view(st.cur)
        assert set(view.legal_actions) == {A.TAKE, A.DECLINE}
        assert SearchBot(seed, THINK).choose(view) in (A.TAKE, A.DECLINE)
        if seed >= 2:
            break


def test_same_seed_same_game_and_explain_describes_the_choice() -> None:
    def game(seed: int) -> list[tuple[int, ...]]:
        m = Match(Rules(target=3), seed=5)
        bots = [make_bot("search", seed + s, think=THINK) for s in range(4)]
        while not m.is_terminal():
            view = m.view(m.current_player)
            m.apply_action(bots[m.current_player].choose(view))
        return [h.actions for h in m.finished]

    assert game(3) == game(3)


def test_a_decision_depends_only_on_seed_and_view_not_on_earlier_calls() -> None:
    st = HandState.deal(Rules(), 0, random.Random(8))
    view = st.view(st.cur)
    fresh = SearchBot(42, 8).choose(view)
    used = SearchBot(42, 8)
    other = HandState.deal(Rules(), 1, random.Random(9))
    used.choose(other.view(other.cur))
    assert used.choose(view) == fresh


def _dealt(hand: list[str], up: str, seat: int, dealer: int, seed: int) -> HandState:
    """A deal where ``seat`` holds ``hand`` and ``up`` is turned; the rest shuffled."""
    mine = [parse_card(c) for c in hand]
    upc = parse_card(up)
    rest = [c for c in range(32) if c & 7 >= 2 and c not in mine and c != upc]
    random.Random(seed).shuffle(rest)
    deck = [mine.pop() if s == seat else rest.pop() for s in deal_order(4, dealer)]
    return HandState(Rules(), dealer, [*deck, upc, *rest])


def test_bidding_avoids_the_naive_over_order_on_aces_without_trumps() -> None:
    # The hand: A♦ K♥ A♥ K♠ A♠ with K♣ turned by the opponent on the right. The rule
    # player ordered it and took one trick. Played out, ordering loses clearly to passing.
    st = _dealt(["AD", "KH", "AH", "KS", "AS"], "KC", seat=1, dealer=0, seed=1)
    view = st.view(1)
    bot = SearchBot(7, 48)
    an = bot.analyse(view)
    assert an.action == A.PASS
    values = {o.action: o.points for o in an.options}
    assert values[A.PASS] > values[A.ORDER] + 0.3
    # Alone is not even played out: the hand counts 2.6 tricks, far from a lone march.
    assert A.ORDER_ALONE not in values


def test_search_goes_alone_where_naive_double_dummy_bidding_passes() -> None:
    # J♣ 10♦ J♦ A♦ J♥ (both bowers, the ace and ten of trumps) with K♦ turned by the dealer, an
    # opponent. Solved double-dummy, the defenders always keep the right guard against a lone
    # hand, so the loner looks worst and passing (to defend, or to name hearts in round two)
    # best; played out by players who see only their own cards, the loner wins clearly.
    st = _dealt(["JC", "TD", "JD", "AD", "JH"], "KD", seat=1, dealer=0, seed=0)
    view = st.view(1)
    naive = SearchBot(0, 32, naive_bidding=True).analyse(view)
    assert naive.action == A.PASS and naive.kind == "naive"
    assert naive.options[-1].action == A.ORDER_ALONE
    an = SearchBot(0, 32).analyse(view)
    values = {o.action: o.points for o in an.options}
    assert an.action == A.ORDER_ALONE and an.kind == "bid"
    assert values[A.ORDER_ALONE] > max(values[A.ORDER], values[A.PASS]) + 0.3


def test_bidding_rollouts_can_stop_early_for_the_solver() -> None:
    # honest_tricks sets how far the honest policy plays before the solver finishes the hand:
    # none is exactly the naive twin, five is a full rollout (the default).
    st = _dealt(["9C", "JD", "AH", "TS", "KS"], "TD", seat=2, dealer=0, seed=0)
    st.apply_action(A.PASS)
    view = st.view(2)
    naive = SearchBot(3, 8, naive_bidding=True).analyse(view)
    zero = SearchBot(3, 8, honest_tricks=0).analyse(view)
    assert [(o.action, o.points) for o in zero.options] == \
        [(o.action, o.points) for o in naive.options]
    full = SearchBot(3, 8).analyse(view)
    assert full.options == SearchBot(3, 8, honest_tricks=5).analyse(view).options
    assert full.deals == naive.deals == 8 * BID_DEALS
    for honest, deals in ((6, 2), (-1, 2), (5, 0)):
        with pytest.raises(ValueError, match=r"honest_tricks must be 0\.\.5"):
            SearchBot(1, 8, honest_tricks=honest, bid_deals=deals)


def test_textbook_pimc_backs_up_each_later_bid_as_best_for_its_bidder() -> None:
    from euchre.bots.search import BidNode, back_up

    # Points by side (North-South, East-West) of four solved positions.
    solved: list[tuple[int, ...]] = [(0, 2), (1, 0), (2, 0), (0, 4)]
    # North (side 0) picks leaf 2 (+2 for its side) over leaf 3 (-4); West (side 1), before
    # North, picks leaf 0 (+2 for its side) over passing on to North's choice (-2).
    north = BidNode(seat=0, children=(BidNode(leaf=2), BidNode(leaf=3)))
    west = BidNode(seat=3, children=(north, BidNode(leaf=0)))
    assert back_up(north, solved, 4) == (2, 0)
    assert back_up(west, solved, 4) == (0, 2)
    # A tie goes to the first choice (passing comes first in the legal actions).
    tie = BidNode(seat=1, children=(BidNode(points=(0, 0)), BidNode(leaf=1), BidNode(leaf=0)))
    assert back_up(tie, [(0, 0), (0, 0)], 4) == (0, 0)


def test_textbook_pimc_differs_from_the_naive_twin_only_through_later_bids() -> None:
    # The dealer's last call in round two: no bid comes after it, so seeing every card for
    # the later bids changes nothing and pimc-full values every option as pimc-naive does.
    st = _dealt(["9C", "JD", "AH", "TS", "KS"], "TD", seat=0, dealer=0, seed=2)
    for _ in range(7):
        st.apply_action(A.PASS)
    last = st.view(0)
    full = SearchBot(5, 8, perfect_bidding=True).analyse(last)
    naive = SearchBot(5, 8, naive_bidding=True).analyse(last)
    assert full.kind == naive.kind == "naive" and full.deals == naive.deals == 8 * BID_DEALS
    assert [(o.action, round(o.points, 9)) for o in full.options] == \
        [(o.action, round(o.points, 9)) for o in naive.options]
    # The first bid of round one: three seats bid after it, with every card seen.
    first = _dealt(["9C", "JD", "AH", "TS", "KS"], "TD", seat=1, dealer=0, seed=2).view(1)
    full1 = {o.action: o.points for o in SearchBot(5, 8, perfect_bidding=True)
             .analyse(first).options}
    naive1 = {o.action: o.points for o in SearchBot(5, 8, naive_bidding=True)
              .analyse(first).options}
    assert full1.keys() == naive1.keys() and full1[A.PASS] != naive1[A.PASS]
    assert make_bot("pimc-full", 5, think=8).choose(first) == \
        SearchBot(5, 8, perfect_bidding=True).choose(first)


def test_pimc_uniform_is_pimc_full_reading_nothing_into_the_bids() -> None:
    # The eldest and the dealer's partner pass, the third seat orders the dealer up and the
    # eldest leads. pimc-full counts each of its sampled deals by how likely those bids made
    # it (an orderer probably holds trumps), pimc-uniform counts the same deals alike, as the
    # published PIMC comparisons do.
    st = _dealt(["9C", "JD", "AH", "TS", "KS"], "TD", seat=1, dealer=0, seed=3)
    for bid in (A.PASS, A.PASS, A.ORDER):
        st.apply_action(bid)
    while st.phase_name != Phase.PLAY:
        st.apply_action(rollout.policy_action(st))
    view = st.view(st.cur)
    full, uniform = make_bot("pimc-full", 5, think=16), make_bot("pimc-uniform", 5, think=16)
    assert isinstance(full, SearchBot) and isinstance(uniform, SearchBot)
    assert (full.name, uniform.name) == ("pimc-full", "pimc-uniform")
    fa, ua = full.analyse(view), uniform.analyse(view)
    assert fa.weighted and not ua.weighted and fa.deals == ua.deals == 16
    assert {o.action for o in fa.options} == {o.action for o in ua.options}
    assert [o.points for o in fa.options] != [o.points for o in ua.options]
    same = SearchBot(5, 16, perfect_bidding=True, weighting=False).analyse(view)
    assert [(o.action, o.points) for o in same.options] == \
        [(o.action, o.points) for o in ua.options]
    # Its bids are pimc-full's textbook bids: at the first bid of the hand no one else has bid,
    # so the weights are all alike and the two value every option the same.
    first = _dealt(["9C", "JD", "AH", "TS", "KS"], "TD", seat=1, dealer=0, seed=2).view(1)
    fb, ub = full.analyse(first), uniform.analyse(first)
    assert ub.kind == fb.kind == "naive" and ub.deals == fb.deals
    assert [(o.action, round(o.points, 9)) for o in ub.options] == \
        [(o.action, round(o.points, 9)) for o in fb.options]


def test_explanations_say_why_in_numbers() -> None:
    st = _dealt(["AD", "KH", "AH", "KS", "AS"], "KC", seat=1, dealer=0, seed=1)
    text = SearchBot(7, 16).explain(st.view(1))
    assert text.startswith("Pass: ")
    # A bid looks at BID_DEALS times the card play's deals.
    assert f"a hand on average over {16 * BID_DEALS} deals consistent with what you see" in text
    assert "played out by players who see only their own cards" in text
    assert "ordering up loses" in text
    # Card play: tricks per card.
    st.apply_action(A.PASS)
    while st.phase_name != Phase.PLAY:
        st.apply_action(rollout.policy_action(st))
    while True:
        view = st.view(st.cur)
        if len(view.legal_actions) > 1:
            break
        st.apply_action(view.legal_actions[0])
    bot = SearchBot(3, 8)
    card = bot.choose(view)
    text = bot.explain(view)
    from euchre.cards import card_symbol

    assert text.startswith(card_symbol(card) + ": ")
    assert "tricks on average over 8 deals consistent with what you see" in text
    # With a match score the game-winning chance is given too.
    scored = st.view(st.cur, (8, 9))
    assert "At " in SearchBot(3, 8).explain(scored) and "% to win the game" in \
        SearchBot(3, 8).explain(scored)


def test_a_time_budget_decides_within_its_time() -> None:
    import time

    st = HandState.deal(Rules(), 0, random.Random(2))
    view = st.view(st.cur)
    bot = SearchBot(1, "0.05s")
    t0 = time.perf_counter()
    assert bot.choose(view) in view.legal_actions
    assert time.perf_counter() - t0 < 2.0  # generous: the machine is shared


def test_make_bot_levels_and_options() -> None:
    assert BOT_NAMES[:4] == ("beginner", "casual", "club", "expert")  # the ladder, weakest first
    assert BOT_NAMES[4:7] == ("random", "rule", "search")  # then the players by their names
    assert "pimc-naive" in BOT_NAMES and "pimc-full" in BOT_NAMES
    for name in BOT_NAMES:
        bot = make_bot(name, 1, think=8)
        assert bot.name == name
    with pytest.raises(ValueError, match="unknown bot 'grandmaster'; choose one of: beginner"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="unknown bot option"):
        make_bot("search", 1, depth=3)
    with pytest.raises(ValueError, match="think must be a number of deals"):
        make_bot("rule", 1, think="fast")


def test_parse_think() -> None:
    assert parse_think(None) == Think()
    assert parse_think(200) == Think(samples=200)
    assert parse_think("200") == Think(samples=200)
    assert parse_think("0.5s").seconds == 0.5
    assert parse_think("250ms").seconds == 0.25
    for bad in (0, -3, "abc", "0s", "nan s", "infs", True, 1.5, "1e9s", 10**9):
        with pytest.raises(ValueError, match="think must be"):
            parse_think(bad)


def test_adviser_gives_the_search_players_choice_and_reason() -> None:
    st = _dealt(["AD", "KH", "AH", "KS", "AS"], "KC", seat=1, dealer=0, seed=1)
    a, why = Adviser(7, 16).decide(st.view(1))
    assert a == LearnedBidBot(7, 16).choose(st.view(1))
    assert why == LearnedBidBot(7, 16).explain(st.view(1))
    assert "the learned bidding values it at" in why


def test_win_probability_is_a_chance_that_grows_with_the_lead() -> None:
    for players in (2, 4):
        assert win_probability(players, 10, 5, 5) == pytest.approx(0.5)
        assert win_probability(players, 10, 9, 0) > win_probability(players, 10, 5, 0) > 0.5
        for a, b in ((0, 3), (7, 8), (9, 9)):
            total = win_probability(players, 10, a, b) + win_probability(players, 10, b, a)
            assert total == pytest.approx(1.0)
        assert win_probability(players, 10, 10, 9) == 1.0


def test_rollout_policy_reads_only_what_its_seat_sees() -> None:
    # The policy's choice must not change when the hidden cards are dealt differently.
    rules = Rules()
    for seed in range(25):
        st = HandState.deal(rules, seed % 4, random.Random(seed))
        for _ in range(random.Random(seed).randrange(4, 14)):
            if st.is_terminal():
                break
            st.apply_action(rollout.policy_action(st))
        if st.is_terminal():
            continue
        view = st.view(st.cur)
        worlds = sample_hand_states(view, random.Random(seed), 6)
        assert {rollout.policy_action(w) for w in worlds} == {rollout.policy_action(st)}


def test_play_command_defaults_to_the_strongest_and_accepts_every_level() -> None:
    import argparse

    from euchre.cli.play import add_play_arguments, resolve_levels

    p = argparse.ArgumentParser()
    add_play_arguments(p)
    args = p.parse_args([])
    resolve_levels(args)
    assert (args.partner, args.opponents) == ("expert", "expert")  # the search player
    for name in BOT_NAMES:
        args = p.parse_args(["--level", name, "--opponents", "rule", "--think", "0.2s"])
        resolve_levels(args)
        assert (args.partner, args.opponents, args.think) == (name, "rule", "0.2s")


def test_watching_search_players_finishes_and_a_bad_budget_exits_2() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    euchre = str(Path(sys.executable).parent / "euchre")
    r = subprocess.run([euchre, "play", "--watch", "--delay", "0", "--target", "1", "--seed", "3",
                        "--partner", "search", "--opponents", "pimc-naive", "--think", "3"],
                       capture_output=True, text=True, check=False, timeout=120,
                       # The plain-Python solver: no compiled-code load in a fresh process.
                       env={**os.environ, "EUCHRE_NO_NUMBA": "1"})
    assert r.returncode == 0, r.stderr
    assert "Game over: " in r.stdout
    r = subprocess.run([euchre, "play", "--think", "lots"], capture_output=True, text=True,
                       check=False)
    assert r.returncode == 2 and "think must be a number of deals" in r.stderr
    assert "Traceback" not in r.stderr


def test_bench_search_reports_decision_time_percentiles(capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main

    assert main(["bench", "search", "--hands", "1", "--think", "3"]) == 0
    out = capsys.readouterr().out
    assert "p95 ms" in out and "mean ms" in out and "cpu mean" in out
    assert "peer: the rule player" in out
    for kind in ("bid", "play", "all"):
        assert any(line.split()[:1] == [kind] for line in out.splitlines())


def test_paired_seeds_make_identical_players_tie_exactly() -> None:
    # The same player on both sides with the same seed per seat plays each deal's two seatings
    # as one hand with the sides swapped: every deal's difference is exactly zero.
    from euchre.tournament import PlayerSpec, TournamentSpec, run, summarize, think_times

    search = PlayerSpec("search")
    out = run(TournamentSpec((search, search), Rules(), 2, think="3", paired_seeds=True), 2)
    assert all(r.margin == 0 for r in out.results)
    margin = summarize(out).margin
    assert margin is not None and margin.low == margin.high == 0
    t = think_times(out, 0)
    assert t.decisions > 0 and t.max >= t.p95 >= t.p50 > 0


def test_the_search_family_decides_exactly_as_recorded_before_sharing_the_pipeline() -> None:
    """The search players sample, weight and value their deals with the analysis's pipeline
    (:mod:`euchre.bots.valuation`); every decision of the search family on fixed seeds, with
    its numbers and words, is the one recorded by the code before it did
    (``tests/golden/search-decisions.json``, written by ``tests/search_golden.py``)."""
    import json
    from pathlib import Path

    from search_golden import LEVELS, record

    from euchre.rules import PRESETS

    golden = json.loads((Path(__file__).parent / "golden" / "search-decisions.json").read_text())
    now = json.loads(json.dumps(record()))
    assert set(now) == set(golden) and len(now) == len(PRESETS) * len(LEVELS)
    for key, decisions in golden.items():
        assert now[key] == decisions, key
