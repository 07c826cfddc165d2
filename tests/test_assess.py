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
from euchre.analysis.review import cross_fitted_loss, review_match
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
    assert "J♥ is" in words and " ± " in words and "close call" not in words


def _synthetic(per_deal: dict[int, list[float]]) -> Values:
    m = _trick_one_card_four()
    view = m.view(m.current_player)
    n = len(next(iter(per_deal.values())))
    return Values(view, "play", [1.0] * n, per_deal, {})


def test_options_within_their_error_are_a_close_call_not_a_winner() -> None:
    ah, kh = parse_card("AH"), parse_card("KH")
    values = _synthetic({ah: [1.0, -1.0, 2.0, 0.0] * 6, kh: [0.0, 1.0, 0.0, -1.0] * 6})
    a = valued(values.view, values, "points")
    assert a.close
    words = assessment_words(a)
    assert words.startswith("A♥: you expect +0.5 ± ")
    assert "a close call: K♥ is 0.5 ± 0.6 points worse, within the error" in words


def test_an_expected_result_is_said_as_a_result_not_as_a_cost() -> None:
    ah, kh = parse_card("AH"), parse_card("KH")
    values = _synthetic({ah: [-1.0, -1.0, -0.5, -1.2] * 10, kh: [-2.0, -1.5, -1.0, -1.5] * 10})
    words = assessment_words(valued(values.view, values, "points"))
    assert words.startswith("A♥: you expect −0.9 ± 0.1 points this hand; K♥ is 0.6 ± ")
    assert "loses" not in words and "cost" not in words


# ---------------------------------------------------------------------------------------------
# Review without the winner's curse


def test_a_leader_made_by_the_picking_deals_is_not_a_loss_on_the_others() -> None:
    ah, kh = parse_card("AH"), parse_card("KH")
    # K♥ leads the choice A♥ on the first half of the deals and trails it on the second: on
    # all deals together it looks ahead (the winner's curse), measured apart it is not.
    values = _synthetic({ah: [0.0] * 24, kh: [1.0, 0.5, 1.5, 1.0] * 3 + [-1.0, -0.5] * 6})
    full_gap, _ = values.diff_se(kh, ah)
    assert full_gap > 0
    loss, se, _ = cross_fitted_loss(values, ah)
    assert loss < 0 < se


def _short_rule_game(seed: int) -> Match:
    m = Match(Rules(target=3), seed=seed)
    bots = [make_bot("rule", seed + s) for s in range(4)]
    while not m.is_terminal():
        m.apply_action(bots[m.current_player].choose(m.view(m.current_player)))
    return m


@pytest.mark.slow
def test_a_game_reviewed_with_24_or_400_deals_gives_totals_within_their_error_bars() -> None:
    m = _short_rule_game(5)
    few, many = (review_match(m, n, n, seed=2).seat_totals() for n in (24, 400))
    assert any(float(str(t["loss"])) > 0 for t in many)
    for a, b in zip(few, many, strict=True):
        ea, eb = a["loss_ci95"], b["loss_ci95"]
        assert isinstance(ea, float) and isinstance(eb, float)
        gap = abs(float(str(a["loss"])) - float(str(b["loss"])))
        assert gap <= math.hypot(ea, eb), (few, many)


# ---------------------------------------------------------------------------------------------
# The hint of the terminal and the browser


def test_the_browser_hint_is_the_services_answer_with_its_objective_named() -> None:
    from euchre.web.hints import hint_job

    m = _trick_one_card_four()
    view = m.view(m.current_player)
    action, why = hint_job(make_bot, "search", 7, view)
    assert action in view.lawful_cards() and action != parse_card("JH")
    assert why.startswith(f"{card_symbol(action)}: ") and " ± " in why
    assert why.endswith("deals.") and "Judged by the chance to win the game" in why


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
    values = Values(view, "play", [1.0] * 24,
                    {ah: [1.0, 1.2] * 12, kh: [0.0, 0.2] * 12},
                    {ah: [0.10, 0.12] * 12, kh: [0.20, 0.22] * 12})
    words = assessment_words(valued(view, values, "win"))
    assert words.startswith("K♥: 21.0% ± 0.4% to win the game")
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
    assert "to win the game against " in trump.short and "for J♥" in trump.short
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
    values = Values(view, "play", [1.0] * 24,
                    {ah: [1.0, 1.2] * 12, kh: [0.0, 0.2] * 12},
                    {ah: [0.10, 0.12] * 12, kh: [0.20, 0.22] * 12})
    assert objectives_differ(view, values, kh, "win") == (
        "On points alone A♥ is ahead (+1.1 against +0.1 this hand), but at 3-9 any point the "
        "other side scores ends the game: the points that win or save the game are what count.")
    # Asked for points, the game's better option is named too.
    assert objectives_differ(view, values, ah, "points") == (
        "For the game K♥ has the better chance (21% against 11%): at 3-9 any point the other "
        "side scores ends the game.")
    # Within the error, nothing is said.
    close = Values(view, "play", [1.0] * 24, {ah: [1.0, -1.0] * 12, kh: [0.0, 0.2] * 12},
                   {ah: [0.10, 0.30] * 12, kh: [0.20, 0.22] * 12})
    assert objectives_differ(view, close, kh, "win") == ""
    m.scores = [0, 0]
    assert score_stakes(m.view(m.current_player)) == ""


def test_advice_says_each_bid_against_the_best_with_its_error_and_never_as_a_cost(
        capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main

    assert main(["advise", "--hand", "QH 9S TC QD KH", "--up", "TH", "--seat", "1",
                 "--dealer", "0", "--round", "1", "--deals", "200"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Best: Pass: you expect −" in out and "points this hand; Order up is " in out
    assert " points worse" in out and " ± " in out and "loses" not in out
    assert "Over 200 deals; judged by points this hand." in out
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
