"""The evaluation service: every option valued on shared deals for a named objective, sampled
until the best is settled, and a close call said as one."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import deck_for

from euchre import actions as A
from euchre.analysis.assess import assess, assessment_words, hint, valued
from euchre.analysis.review import review_match
from euchre.analysis.values import Objective, Values
from euchre.bots import make_bot
from euchre.cards import card_symbol, parse_card
from euchre.match import Match
from euchre.rules import Rules
from euchre.state import HandState

STANDARD = Rules()
DECK = deck_for(STANDARD, 0, ["JH AH KH 9S TS", "9C JC AD KD QS", "AC KC QD 9D TD",
                              "TC QC JS KS AS"], up="9H", kitty="JD TH QH")


def _trick_one_card_four() -> Match:
    """North, last to play to trick one, may trump South's winning A♣ or throw off."""
    m = Match(STANDARD, seed=1, first_dealer=0, decks=[DECK])
    for text in ("pass", "pass", "pass", "order", "discard 9S", "play 9C", "play AC",
                 "play TC"):
        m.apply_action(A.action_from_str(text))
    return m


def test_a_game_is_judged_by_the_chance_to_win_and_a_hand_alone_by_points() -> None:
    m = _trick_one_card_four()
    in_game = assess(m.view(m.current_player), seed=1, seconds=None, max_deals=64)
    assert in_game.objective == "win"
    assert "Judged by the chance to win the game" in assessment_words(in_game)
    h = HandState(STANDARD, 0, DECK)
    one_hand = assess(h.view(h.cur), seed=1, seconds=None, max_deals=48)
    assert one_hand.objective == "points"
    assert "Judged by points this hand" in assessment_words(one_hand)
    with pytest.raises(ValueError, match="needs a two-sided game with a known score"):
        assess(h.view(h.cur), "win")


def test_a_clear_answer_stops_sampling_early_and_names_a_winner() -> None:
    m = _trick_one_card_four()
    a = assess(m.view(m.current_player), "points", seed=3, seconds=None, max_deals=2000)
    assert a.deals < 2000 and not a.close
    assert a.best.action != parse_card("JH")  # throw off, do not trump the partner's ace
    # Every option was valued on the same deals: the paired error of a difference is below
    # the error of either value alone.
    jh = next(o for o in a.options if o.action == parse_card("JH"))
    assert jh.behind > 2 * jh.behind_se > 0
    assert jh.behind_se < jh.se
    words = assessment_words(a)
    assert "you expect" in words and "points this hand" in words
    assert "Clearly worse: " in words and "J♥" in words and "close call" not in words


def _synthetic(per_deal: dict[int, list[float]]) -> Values:
    m = _trick_one_card_four()
    view = m.view(m.current_player)
    n = len(next(iter(per_deal.values())))
    return Values(view, "play", [1.0] * n, per_deal, {})


def test_options_within_their_error_are_a_close_call_not_a_winner() -> None:
    ah, kh = parse_card("AH"), parse_card("KH")
    values = _synthetic({ah: [1.0, -1.0, 2.0, 0.0] * 12, kh: [0.0, 1.0, 0.0, -1.0] * 12})
    a = valued(values.view, values, "points")
    assert a.close and not a.options[1].firm
    words = assessment_words(a)
    assert words.startswith("A♥: you expect +0.5 ± ")
    # one range for the comparison, on both sides of level: K♥ may be as good
    assert "A close call with K♥ (from 0.2 points more to 1.2 less): within the error." \
        in words


def test_an_expected_result_is_said_as_a_result_not_as_a_cost() -> None:
    ah, kh = parse_card("AH"), parse_card("KH")
    values = _synthetic({ah: [-1.0, -1.0, -0.5, -1.2] * 12, kh: [-2.0, -1.5, -1.0, -1.5] * 12})
    words = assessment_words(valued(values.view, values, "points"))
    assert words.startswith("A♥: you expect −0.9 ± 0.1 points this hand. Clearly worse: K♥ (")
    assert "loses" not in words and "cost" not in words


# ---------------------------------------------------------------------------------------------
# Review without the winner's curse


def _short_rule_game(seed: int) -> Match:
    m = Match(Rules(target=3), seed=seed)
    bots = [make_bot("rule", seed + s) for s in range(4)]
    while not m.is_terminal():
        m.apply_action(bots[m.current_player].choose(m.view(m.current_player)))
    return m


def _stored_game() -> Match:
    """The stored game ``euchre bench review`` reviews: to ten points, rule players
    North-South against beginners East-West, 59 decisions in four hands."""
    from euchre.analysis.reference import stored_game

    return stored_game()[0]


def test_a_pick_is_the_same_at_every_budget_and_seed_and_measured_on_other_deals() -> None:
    """No winner's curse and no budget in the pick: the best option is picked on deals of its
    own, seeded by the decision alone, and the loss measured on the review's fresh deals."""
    m = _stored_game()
    few, many, other = (review_match(m, n, n, seed=s, hands={2}, objective="points")
                        for n, s in ((12, 0), (400, 0), (12, 5)))
    by = [{(d.hand, d.index): d for d in r.decisions} for r in (few, many, other)]
    assert by[0].keys() == by[1].keys() == by[2].keys()
    measured = 0
    for key, d in by[0].items():
        assert by[1][key].best == d.best == by[2][key].best
        assert by[1][key].pick_values is d.pick_values  # picked once, from memory
        again = by[2][key].values
        if d.values is not None and again is not None and d.pick_values is not None:
            assert d.deals == 12 and by[1][key].deals == 400
            if len(set(d.pick_values.samples[d.best])) > 1:  # deals that tell deals apart
                measured += 1
                assert d.values.samples[d.best] != d.pick_values.samples[d.best][:12]
                assert d.values.samples[d.best] != again.samples[d.best]
    assert measured >= 2


@pytest.mark.slow
def test_review_totals_are_unbiased_at_every_budget_and_their_error_bars_are_the_seeds_spread(
) -> None:
    """The all-seat total of two hands of a stored game, over 30 seeds at 12 and at 24 deals
    a decision: the mean is the 400-deal total within its error, and the error bar a review
    shows is the spread between seeds (the cross-fitted review erred low by 5.8 standard
    errors at 12 deals here)."""
    m = _stored_game()

    def total(deals: int, seed: int) -> tuple[float, float]:
        rev = review_match(m, deals, deals, seed=seed, hands={1, 2})
        return (sum(d.estimate for d in rev.decisions),
                1.96 * math.sqrt(sum(d.se ** 2 for d in rev.decisions)))

    ref, ref_ci = total(400, 100)
    for deals in (12, 24):
        runs = [total(deals, s) for s in range(30)]
        totals = [t for t, _ in runs]
        mean = sum(totals) / len(totals)
        sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / (len(totals) - 1))
        shown = sum(ci for _, ci in runs) / len(runs)
        assert abs(mean - ref) <= 3 * math.hypot(sd / math.sqrt(len(totals)), ref_ci / 1.96), \
            (deals, mean, ref)
        assert 0.7 <= shown / (1.96 * sd) <= 1.4, (deals, shown, sd)


def test_a_clear_mistake_is_one_that_fresh_deals_confirm() -> None:
    """West's A♠ lead in hand 2 of the stored game is as good as Q♣ (2,000 deals: A♠ is the
    best card); the cross-fitted review at its default 24 deals called it a clear mistake with
    seed 4 (Q♣, 2.9% ± 2.9% of the chance to win given up). Now the pick leads it only on deals
    that cannot tell them apart firmly, and no seed makes it a clear mistake; North trumping
    South's winning ace is one, picked firmly and confirmed."""
    m = _stored_game()
    for seed in range(5):
        rev = review_match(m, seed=seed, hands={2})
        (lead,) = [d for d in rev.decisions if (d.hand, d.index) == (2, 2)]
        assert lead.choice == parse_card("AS") and not lead.clear, (seed, lead.why)
        assert "clear mistake" not in lead.short
    trumped = _trick_one_card_four()
    trumped.apply_action(parse_card("JH"))
    (d,) = [d for d in review_match(trumped).decisions if d.choice == parse_card("JH")]
    assert d.pick_firm and d.clear and d.loss > d.ci95 > 0
    assert "a clear mistake: the deals that picked it and fresh ones both say so" in d.short


def test_bench_review_reports_each_budgets_mean_spread_and_error_bar(
        capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main

    assert main(["bench", "review", "--budgets", "8,12", "--seeds", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["record"] == "the stored game" and [r["deals"] for r in out["budgets"]] == [8, 12]
    for r in out["budgets"]:
        assert r["seeds"] == 3 and len(r["totals"]) == 3 and r["decisions"] == 59
        assert r["spread"] >= 0 and r["mean_ci95"] > 0 and r["objective"] == "win"
    assert out["budgets"][1]["from_largest_se"] == 0.0
    assert main(["bench", "review", "--budgets", "8", "--seeds", "2"]) == 0
    assert "8 deals: mean +" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["bench", "review", "--budgets", "8,x"])
    assert "budgets are deals a decision, 4..2000" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# The hint of the terminal and the browser


def test_the_browser_hint_is_the_services_answer_with_its_objective_named() -> None:
    from euchre.web.hints import hint_job

    m = _trick_one_card_four()
    view = m.view(m.current_player)
    action, why = hint_job(make_bot, "search", 7, view)
    assert action in view.lawful_cards() and action != parse_card("JH")
    assert why.startswith(f"{card_symbol(action)}: ") and " ± " in why
    assert "Judged by the chance to win the game, over " in why
    assert why.endswith(", each weighted by how likely the others' bids made it.")


def test_a_forced_choice_is_said_as_one_and_a_deal_budget_is_kept() -> None:
    m = _trick_one_card_four()
    view = m.view(m.current_player)
    got = hint(view, 1, "12")  # --think 12: twice the search player's 12 deals
    assert got is not None and "over 24 deals" in got[1]
    bot = make_bot("rule", 1)
    while len(view.hand) > 1:
        m.apply_action(bot.choose(view))
        view = m.view(m.current_player)
    got = hint(view, 1)
    assert got == (view.hand[0], f"{card_symbol(view.hand[0])} is your only lawful choice.")


def test_advise_ranks_by_the_game_with_a_score_and_by_points_without_and_says_which(
        capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main

    args = ["advise", "--hand", "JH JD AH KS 9C", "--up", "TH", "--seat", "1", "--dealer",
            "0", "--round", "1", "--deals", "48"]
    assert main([*args, "--score", "8-9", "--json"]) == 0
    (game,) = json.loads(capsys.readouterr().out)["rounds"]
    assert game["objective"] == "win" and isinstance(game["close_call"], bool)
    wins = [o["win"] for o in game["options"]]
    assert wins == sorted(wins, reverse=True)
    assert main([*args, "--json"]) == 0
    (hand,) = json.loads(capsys.readouterr().out)["rounds"]
    assert hand["objective"] == "points"
    assert main([*args, "--score", "8-9"]) == 0
    assert "judged by the chance to win the game" in " ".join(capsys.readouterr().out.split())


def test_review_can_measure_losses_in_the_chance_to_win_the_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main
    from euchre.record import to_json

    m = _trick_one_card_four()
    m.apply_action(parse_card("JH"))  # trumps the partner's winning A♣
    path = tmp_path / "game.json"
    path.write_text(to_json(m))
    assert main(["review", str(path), "--json", "--play-deals", "32", "--bid-deals", "4",
                 "--objective", "win"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["objective"] == "win"
    (trump,) = [d for d in doc["decisions"] if d["choice"] == "play JH"]
    assert 0 < trump["loss"] < 1 and trump["clear"]
    assert main(["review", str(path), "--play-deals", "32", "--bid-deals", "4",
                 "--objective", "win"]) == 0
    assert "Judged by the chance to win the game" in " ".join(capsys.readouterr().out.split())


def test_review_seat_shows_one_seats_decisions_with_the_same_numbers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main
    from euchre.record import to_json

    path = tmp_path / "game.json"
    path.write_text(to_json(_short_rule_game(5)))
    deals = ["--play-deals", "8", "--bid-deals", "8", "--json"]
    assert main(["review", str(path), *deals]) == 0
    every = json.loads(capsys.readouterr().out)
    assert main(["review", str(path), *deals, "--seat", "south"]) == 0
    south = json.loads(capsys.readouterr().out)
    assert south["decisions"] and {d["seat"] for d in south["decisions"]} == {2}
    assert south["seat_totals"] == [t for t in every["seat_totals"] if t["seat"] == 2]
    assert main(["review", str(path), "--seat", "7"]) == 2
    assert "--seat must be a seat 0..3" in capsys.readouterr().err


def test_a_game_hint_says_why_when_the_hands_points_rank_another_option_first() -> None:
    ah, kh = parse_card("AH"), parse_card("KH")
    m = Match(STANDARD, seed=1, first_dealer=0, decks=[DECK])
    m.scores = [3, 9]  # North-South 3, East-West 9: only a march keeps North-South alive
    for text in ("pass", "pass", "pass", "order", "discard 9S", "play 9C", "play AC",
                 "play TC"):
        m.apply_action(A.action_from_str(text))
    view = m.view(m.current_player)
    # A♥ scores more points a hand, K♥ wins the game more often.
    values = Values(view, "play", [1.0] * 48,
                    {ah: [1.0, 1.2] * 24, kh: [0.0, 0.2] * 24},
                    {ah: [0.10, 0.12] * 24, kh: [0.20, 0.22] * 24})
    words = assessment_words(valued(view, values, "win"))
    assert words.startswith("K♥: 21.0% ± 0.3% to win the game")
    assert "On points alone A♥ is ahead (+1.1 against +0.1 this hand), but at 3-9 " in words


# ---------------------------------------------------------------------------------------------
# One objective, in words


def test_a_review_judges_a_game_by_the_chance_to_win_it_and_one_hand_by_points(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main
    from euchre.record import to_json
    from euchre.rules import preset

    m = _trick_one_card_four()
    m.apply_action(parse_card("JH"))  # trumps the partner's winning A♣
    rev = review_match(m, 32, 4, seed=1)
    assert rev.objective == "win"
    (trump,) = [d for d in rev.decisions if d.choice == parse_card("JH")]
    # one comparison, one gap: what the choice gave up, not two values side by side
    assert "instead of J♥: " in trump.short and trump.short.count("±") == 1
    assert "of the chance to win given up" in trump.short
    assert "cost" not in trump.short and "loses" not in trump.short
    one = Match(preset("openspiel"), seed=2)
    bot = make_bot("rule", 1)
    for _ in range(6):
        one.apply_action(bot.choose(one.view(one.current_player)))
    assert review_match(one, 4, 4).objective == "points"
    with pytest.raises(ValueError, match="needs a two-sided game with a known score"):
        review_match(one, 4, 4, objective="win")
    path = tmp_path / "one.json"
    path.write_text(to_json(one))
    assert main(["review", str(path), "--objective", "win"]) == 2
    assert "--objective win needs a two-sided game" in capsys.readouterr().err


def test_the_score_is_said_in_words_when_the_game_and_the_hand_disagree() -> None:
    from euchre.analysis.assess import objectives_differ, score_stakes

    ah, kh = parse_card("AH"), parse_card("KH")
    m = Match(STANDARD, seed=1, first_dealer=0, decks=[DECK])
    m.scores = [3, 9]
    for text in ("pass", "pass", "pass", "order", "discard 9S", "play 9C", "play AC",
                 "play TC"):
        m.apply_action(A.action_from_str(text))
    view = m.view(m.current_player)
    assert score_stakes(view) == "any point the other side scores ends the game"
    values = Values(view, "play", [1.0] * 48,
                    {ah: [1.0, 1.2] * 24, kh: [0.0, 0.2] * 24},
                    {ah: [0.10, 0.12] * 24, kh: [0.20, 0.22] * 24})
    assert objectives_differ(view, values, kh, "win") == (
        "On points alone A♥ is ahead (+1.1 against +0.1 this hand), but at 3-9 any point the "
        "other side scores ends the game: the points that win or save the game are what count.")
    # Asked for points, the game's better option is named too.
    assert objectives_differ(view, values, ah, "points") == (
        "For the game K♥ has the better chance (21% against 11%): at 3-9 any point the other "
        "side scores ends the game.")
    # Within the error, nothing is said.
    close = Values(view, "play", [1.0] * 48, {ah: [1.0, -1.0] * 24, kh: [0.0, 0.2] * 24},
                   {ah: [0.10, 0.30] * 24, kh: [0.20, 0.22] * 24})
    assert objectives_differ(view, close, kh, "win") == ""
    m.scores = [0, 0]
    assert score_stakes(m.view(m.current_player)) == ""


def test_advice_says_each_bid_against_the_best_with_its_error_and_never_as_a_cost(
        capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main

    assert main(["advise", "--hand", "QH 9S TC QD KH", "--up", "TH", "--seat", "1",
                 "--dealer", "0", "--round", "1", "--deals", "200"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Best: Pass: you expect −" in out
    assert "points this hand. Clearly worse: Order up (" in out
    assert " points less)" in out and " ± " in out and "loses" not in out
    assert "Over 200 deals, every one as likely (no other player's bid to read); judged by " \
        "points this hand." in out
    assert main(["advise", "--hand", "QH 9S TC QD KH", "--up", "TH", "--seat", "1",
                 "--dealer", "0", "--round", "1", "--deals", "200", "--score", "4-4"]) == 0
    out = capsys.readouterr().out
    assert "Win game" in out and out.count("±95%") == 2  # the game's chance has its error too


def test_review_bot_comparison_measures_a_choice_as_the_review_measures_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player asked at every decision is measured on the deals apart from those that picked
    the best, as the review measures the game's own choices: one that makes the same choices
    gives up exactly the review's totals."""
    from euchre.cli.review import compare_bot

    rev = review_match(_short_rule_game(5), 8, 8, seed=2)
    chosen = {id(d.view): d.choice for d in rev.decisions}

    class Replay:
        def choose(self, view: object) -> int:
            return chosen[id(view)]

    monkeypatch.setattr("euchre.bots.make_bot", lambda spec, seed: Replay())
    out = compare_bot(rev, "replay", 0)
    assert out["valued"] == out["decisions"] == len(rev.decisions)
    assert out["best_choices"] == sum(d.best == d.choice for d in rev.decisions)
    assert out["loss"] == pytest.approx(sum(d.estimate for d in rev.decisions), abs=1e-3)
    assert out["loss_ci95"] == pytest.approx(
        1.96 * math.sqrt(sum(d.se ** 2 for d in rev.decisions)), abs=1e-3)


def test_the_end_of_game_review_gives_the_numbers_euchre_review_gives() -> None:
    from rich.console import Console

    from euchre.analysis.offer import review_in_terminal
    from euchre.analysis.report import print_review

    m = _trick_one_card_four()
    m.apply_action(parse_card("JH"))

    def totals(show: Callable[[Console], None]) -> list[str]:
        con = Console(record=True, width=200, force_terminal=False)
        show(con)
        return [ln.strip() for ln in con.export_text().splitlines() if "lost in all" in ln]

    in_game = totals(lambda con: review_in_terminal(m, con))
    cli = totals(lambda con: print_review(review_match(m), 10, con))
    assert in_game == cli and len(in_game) == 4
    assert all("of the chance to win the game lost in all" in t for t in in_game)


def test_a_review_with_nothing_given_up_says_so_in_its_objective() -> None:
    from rich.console import Console

    from euchre.analysis.report import print_review
    from euchre.analysis.review import Review

    said: list[tuple[Objective, str]] = [("win", "any of the chance to win the game"),
                                         ("points", "any points")]
    for objective, words in said:
        rev = Review(("North", "East", "South", "West"), (), 24, 24, 0.1, objective)
        con = Console(record=True, width=200, force_terminal=False)
        print_review(rev, 5, con)
        assert f"No decision gave up {words} against the best choice" in con.export_text()


# ---------------------------------------------------------------------------------------------
# The stopping rule keeps its promise on a true tie


def test_the_two_aces_of_the_constructed_tie_are_equal_by_construction() -> None:
    """The constructed tie (``reference.tie_state``): East leads holding A♣ A♠ 9♦ 10♦ Q♦
    after North picked up the 9♥ on three passes. A deal and its clubs-spades mirror look
    the same to East, weigh the same, and solve to mirrored values."""
    import random

    from euchre.analysis.reference import mirrored, tie_state
    from euchre.bots.rollout import bidding_likelihood
    from euchre.sampling import DealSampler
    from euchre.solver import move_values_batch

    view = tie_state().view(1, (0, 0))
    ac, as_ = parse_card("AC"), parse_card("AS")
    assert view.seat == 1 and {ac, as_} <= set(view.lawful_cards())
    sampler, rng = DealSampler(view), random.Random(3)
    worlds = [sampler.sample(rng) for _ in range(40)]
    mirrors = []
    for w in worlds:
        m = mirrored(w)
        assert m.view(1, (0, 0)) == view  # what East sees is the same
        # the same weight (to the last bit or two of a float sum taken in another order)
        assert bidding_likelihood(m, 1) == pytest.approx(bidding_likelihood(w, 1), rel=1e-12)
        mirrors.append(m)
    values, solved = move_values_batch(worlds), move_values_batch(mirrors)
    assert all(v[ac] == mv[as_] and v[as_] == mv[ac] for v, mv in zip(values, solved,
                                                                      strict=True))
    assert any(v[ac] != v[as_] for v in values)  # a tie on average, not deal by deal


@pytest.mark.slow
def test_a_true_tie_asked_again_and_again_is_rarely_called_firm() -> None:
    """The service on the constructed tie, asked 50 times with 480 deals each (looked at
    every 8 from 48 on): at most FIRM_ALPHA of the answers are firm. The two-standard-error
    rule that looked every 8 deals from 24 on called 6 of these 50 firm."""
    from euchre.analysis.assess import FIRM_ALPHA
    from euchre.analysis.reference import tie_state

    view = tie_state().view(1, (0, 0))
    aces = {parse_card("AC"), parse_card("AS")}
    firm = 0
    for seed in range(1000, 1050):
        a = assess(view, seed=seed, seconds=None, max_deals=480)
        assert a.best.action in aces
        firm += a.settled
    assert firm <= FIRM_ALPHA * 50, firm


def test_the_firm_boundary_holds_its_rate_over_every_look() -> None:
    """2,000 asks on a true tie drawn from the constructed tie's own deals (its per-deal
    weights and differences, each difference's sign flipped at random: a tie exactly), each
    looked at every 8 deals from the floor to 2,000 deals as the service looks: the firm rule
    calls at most FIRM_ALPHA of them firm at any look; two standard errors at every look
    would call far more."""
    import random

    import numpy as np

    from euchre.analysis.assess import FIRM_ALPHA, FIRM_FLOOR, firm
    from euchre.analysis.reference import tie_state
    from euchre.analysis.values import evaluate

    view = tie_state().view(1, (0, 0))
    vals = evaluate(view, 1000, random.Random(9))
    diffs = np.array(vals.wins[parse_card("AC")]) - np.array(vals.wins[parse_card("AS")])
    weights = np.array(vals.weights)
    assert np.count_nonzero(diffs) > 50 and weights.std() > 0.1
    rng = np.random.default_rng(4)
    asks, deals = 2000, 2000
    looks = range(FIRM_FLOOR, deals + 1, 8)
    firm_any = np.zeros(asks, bool)
    naive_any = np.zeros(asks, bool)
    for part in range(0, asks, 500):
        idx = rng.integers(0, len(diffs), size=(500, deals))
        x = diffs[idx] * rng.choice([-1.0, 1.0], size=(500, deals))
        w = weights[idx]
        s0, s1 = np.cumsum(w, 1), np.cumsum(w * x, 1)
        s2, q = np.cumsum(w * x * x, 1), np.cumsum(w * w, 1)
        for n in looks:
            t0, t1, t2, tq = s0[:, n - 1], s1[:, n - 1], s2[:, n - 1], q[:, n - 1]
            mean = t1 / t0
            n_eff = t0 * t0 / tq
            var = np.maximum(t2 / t0 - mean * mean, 0.0) * n_eff / (n_eff - 1)
            se = np.sqrt(var / n_eff)
            gap = np.abs(mean)
            firm_any[part:part + 500] |= [firm(g, e, n, ne)
                                          for g, e, ne in zip(gap, se, n_eff, strict=True)]
            naive_any[part:part + 500] |= (gap > 2 * se) & (n >= 24)
    assert firm_any.mean() <= FIRM_ALPHA, firm_any.mean()
    assert naive_any.mean() > 2 * FIRM_ALPHA, naive_any.mean()


def test_an_expected_value_names_its_model_of_the_unseen_cards_and_shows_both_where_they_differ(
) -> None:
    """The deals are weighted by how likely the others' bids made them; the same deals read
    with every deal as likely give the other model's value. Where the two differ by more than
    the error of their difference, both are said; where no bid weighs a deal, one model is."""
    from euchre.analysis.values import Z95

    ah, kh = parse_card("AH"), parse_card("KH")
    flat = _synthetic({ah: [1.0, 2.0, 0.0, 1.0] * 12, kh: [0.0, 0.5, -1.0, 0.0] * 12})
    words = assessment_words(valued(flat.view, flat, "points"))
    assert words.endswith("over 48 deals, every one as likely (no other player's bid to read).")
    assert "reading the others' bids" not in words
    # the bids make the deals where A♥ scores 2 far likelier, and those where it scores 0 rarer
    weights = [1.0, 3.0, 0.2, 1.0] * 12
    read = Values(flat.view, "play", weights, flat.samples, {})
    gap, se = read.model_gap(ah)
    assert gap > Z95 * se > 0
    words = assessment_words(valued(read.view, read, "points"))
    assert words.startswith("A♥: you expect +1.5 ± 0.2 points this hand, reading the others' "
                            "bids (with every deal you could face as likely: +1.0 ± 0.2 "
                            "points).")
    assert words.endswith("each weighted by how likely the others' bids made it.")
    # weighted a little, within the error: one model said
    close = Values(flat.view, "play", [1.0, 1.02, 0.98, 1.0] * 12, flat.samples, {})
    assert "reading the others' bids (" not in assessment_words(valued(close.view, close,
                                                                       "points"))
