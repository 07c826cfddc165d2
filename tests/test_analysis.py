"""Analysis for players: bidding advice, game review, order-up charts and puzzles.

Hand-checked positions pin the judgements (the textbook loner must go alone; trumping a
partner's ace that already wins the trick is flagged), and every JSON output is validated
against its published schema (euchre/analysis/schemas, documented in docs/analysis.md). Budgets
are small: these tests check the wiring and the clear cases, not the precision.
"""

from __future__ import annotations

import csv
import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pexpect
import pytest
from helpers import cards, deck_for
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import actions as A
from euchre.analysis.advice import AdviceError, advice_to_json, advise, bidding_view
from euchre.analysis.charts import compute, hand_class
from euchre.analysis.puzzles import load_puzzles, mine, puzzle_view, puzzles_to_json
from euchre.analysis.review import Review, review_match, review_to_json
from euchre.analysis.values import evaluate, lawful_cards
from euchre.cards import HEARTS, card_symbol, parse_card
from euchre.cli import main
from euchre.match import Match
from euchre.phases import Phase
from euchre.record import to_json
from euchre.rules import Rules

STANDARD = Rules()
LONER = cards("JH JD AH AS KS")


def schema(name: str) -> dict[str, Any]:
    text = resources.files("euchre.analysis").joinpath(f"schemas/{name}.schema.json")
    data: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return data


def validate(doc: Any, name: str) -> None:
    jsonschema.validate(doc, schema(name))


# ---------------------------------------------------------------------------------------------
# Advice


def test_textbook_loner_orders_up_alone_in_round_one() -> None:
    adv = advise(STANDARD, LONER, parse_card("9H"), seat=1, dealer=0, deals=48, rounds=(1,))
    (r1,) = adv.rounds
    best, rest = r1.options[0], r1.options[1:]
    assert best.action == A.ORDER_ALONE
    # A lone hand that takes all five scores 4; with the partner the same hand scores 2.
    assert best.points > max(o.points for o in rest) + best.ci95


def test_textbook_loner_calls_hearts_alone_in_round_two() -> None:
    adv = advise(STANDARD, LONER, parse_card("9C"), seat=1, dealer=0, deals=48, rounds=(2,))
    (r2,) = adv.rounds
    assert r2.options[0].action == A.call(HEARTS, alone=True)


def test_a_hand_without_trumps_passes() -> None:
    adv = advise(STANDARD, cards("9C TD QS 9S TC"), parse_card("AH"), seat=1, dealer=0,
                 deals=32, rounds=(1,))
    assert adv.rounds[0].options[0].action == A.PASS


def test_advice_values_every_legal_bid_of_both_rounds() -> None:
    adv = advise(STANDARD, cards("JH JD AH KS 9C"), parse_card("TH"), seat=1, dealer=0,
                 scores=(8, 6), deals=16)
    assert [r.round for r in adv.rounds] == [1, 2]
    for r in adv.rounds:
        assert sorted(o.action for o in r.options) == sorted(r.view.legal_actions)
        assert all(o.win is not None and 0 <= o.win <= 1 for o in r.options)
    # Round two: hearts was turned down, so it cannot be named; the other three can, alone too.
    r2 = adv.rounds[1]
    assert A.call(HEARTS) not in r2.view.legal_actions
    assert len(r2.options) == 7
    validate(advice_to_json(adv), "advice")


def test_bidding_view_puts_the_seat_on_turn_after_passes() -> None:
    view = bidding_view(STANDARD, LONER, parse_card("9H"), seat=3, dealer=0, round_=1)
    assert view.phase == Phase.BID1 and view.current_player == 3
    assert [a for _, a in view.history] == [A.PASS, A.PASS]  # East and South passed
    with pytest.raises(AdviceError, match="up-card"):
        bidding_view(STANDARD, LONER, parse_card("JH"), seat=1, dealer=0)


def test_paired_gap_is_the_difference_of_the_means() -> None:
    view = bidding_view(STANDARD, LONER, parse_card("9H"), seat=1, dealer=0)
    vals = evaluate(view, 16, random.Random(4))
    a, b = A.ORDER_ALONE, A.PASS
    gap, ci = vals.gap(a, b)
    assert gap == pytest.approx(vals.option(a).points - vals.option(b).points)
    assert ci >= 0


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--hand", "JH JD AH KS", "--up", "TH"], "five different cards"),
        (["--hand", "JH JD AH KS ZZ", "--up", "TH"], "ZZ"),
        (["--hand", "JH JD AH KS 9C", "--up", "JH"], "up-card"),
        (["--hand", "JH JD AH KS 9C", "--up", "TH", "--seat", "7"], "--seat must be a seat"),
        (["--hand", "JH JD AH KS 9C", "--up", "TH", "--score", "12-3"], "already won"),
        (["--hand", "JH JD AH KS 9C", "--up", "TH", "--score", "6"], "--score must be"),
        (["--hand", "JH JD AH KS 9C", "--up", "TH", "--players", "3",
          "--going-alone"], "alone"),
    ],
)
def test_advise_bad_input_is_one_line_and_status_2(
        argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = {"--seat": "1", "--dealer": "0"}
    args = list(argv)
    for k, v in base.items():
        if k not in args:
            args += [k, v]
    assert main(["advise", *args, "--deals", "16"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("euchre advise: ") and "\n" not in err
    assert needle in err


def test_advise_cli_json_validates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--hand", "JH JD AH KS 9C", "--up", "TH", "--seat", "east",
                 "--dealer", "0", "--score", "6-8", "--deals", "16", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    validate(doc, "advice")
    # "6-8" is us-them: East's side (East-West, side 1) has 6.
    assert doc["score"] == [8, 6]


def test_advise_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--hand", "JH JD AH AS KS", "--up", "9H", "--seat", "1",
                 "--dealer", "0", "--round", "1", "--deals", "24"]) == 0
    out = capsys.readouterr().out
    assert "Order up alone" in out and "Best: Order up alone" in out


def test_advice_names_the_bid_with_the_best_game_chance_when_points_rank_another_first(
) -> None:
    """Near the end of a game the option ahead on points may not be the one that wins the game
    most often; the table shows both, and a sentence says which is which."""
    from rich.console import Console

    from euchre.analysis.advice import Advice, RoundAdvice
    from euchre.analysis.report import print_advice
    from euchre.analysis.values import Z95, OptionValue

    def option(action: int, points: float, ci95: float, win: float) -> OptionValue:
        return OptionValue(action, win, points, win, points_se=ci95 / Z95)

    hand, up = cards("JH JD AH KS 9C"), parse_card("TH")
    view = bidding_view(Rules(), hand, up, 1, 0, 1, (8, 6))

    def shown(options: tuple[OptionValue, ...]) -> str:
        adv = Advice(Rules(), tuple(hand), up, 1, 0, (8, 6),
                     (RoundAdvice(1, view, options, 100),))
        con = Console(record=True, width=120, force_terminal=False)
        print_advice(adv, 0.1, con)
        return con.export_text()

    split = shown((option(A.PASS, 1.31, 0.08, 0.40), option(A.ORDER_ALONE, 1.26, 0.08, 0.43),
                   option(A.ORDER, 1.25, 0.04, 0.39)))
    assert "score 6-8 (us-them)" in split
    assert ("For the game at 6-8, order up alone has the best chance: 43% against 40% for "
            "pass.") in split
    agree = shown((option(A.PASS, 1.31, 0.08, 0.43), option(A.ORDER_ALONE, 1.26, 0.08, 0.40),
                   option(A.ORDER, 1.25, 0.04, 0.39)))
    assert "For the game" not in agree and "Best: Pass" in agree


# ---------------------------------------------------------------------------------------------
# Review


def _trumped_ace_match() -> Match:
    """North picks up 9♥ and, last to play, trumps South's A♣ that already wins the trick."""
    deck = deck_for(STANDARD, 0, ["JH AH KH 9S TS", "9C JC AD KD QS", "AC KC QD 9D TD",
                                  "TC QC JS KS AS"], up="9H", kitty="JD TH QH")
    m = Match(STANDARD, seed=1, first_dealer=0, decks=[deck])
    for text in ("pass", "pass", "pass", "order", "discard 9S", "play 9C", "play AC",
                 "play TC", "play JH"):
        m.apply_action(A.action_from_str(text))
    return m


@pytest.fixture(scope="module")
def trumped_review() -> Review:
    return review_match(_trumped_ace_match(), play_deals=32, bid_deals=6, seed=1,
                        objective="points")


def test_review_flags_trumping_a_partners_winning_ace(trumped_review: Review) -> None:
    (worst,) = [d for d in trumped_review.decisions if d.choice == parse_card("JH")]
    assert worst.seat == 0 and worst.when == "trick 1, card 4"
    assert worst.clear and worst.loss > 0.2
    assert worst.best != parse_card("JH") and worst.best >> 3 != HEARTS  # throw off instead
    assert "already winning" in worst.why


def test_review_is_worst_first_and_best_choices_lose_nothing(trumped_review: Review) -> None:
    losses = [d.loss for d in trumped_review.decisions]
    assert losses == sorted(losses, reverse=True)
    for d in trumped_review.decisions:
        assert d.loss >= 0
        assert (d.loss == 0) == (d.best == d.choice)
    # Every decision with a choice is there: the 4 bids, the discard and the 4 plays (South
    # and West each held two clubs, North was void).
    assert {d.index for d in trumped_review.decisions} == {0, 1, 2, 3, 4, 5, 6, 7, 8}


def test_review_json_validates(trumped_review: Review) -> None:
    doc = review_to_json(trumped_review)
    validate(doc, "review")
    decisions: Any = doc["decisions"]
    assert decisions[0]["loss"] >= decisions[-1]["loss"]


def test_review_cli_reads_a_library_record(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(to_json(_trumped_ace_match(), players=["you", "rule", "rule", "rule"]))
    assert main(["review", str(path), "--json", "--play-deals", "8", "--bid-deals", "4"]) == 0
    doc = json.loads(capsys.readouterr().out)
    validate(doc, "review")
    assert doc["players"][0] == "North (you)"
    assert main(["review", str(path), "--play-deals", "8", "--bid-deals", "4"]) == 0
    assert "Costliest decisions" in capsys.readouterr().out


def test_review_cli_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# Charts


def test_hand_class_counts_the_left_bower_as_trump() -> None:
    hand = sum(1 << c for c in LONER)
    assert hand_class(hand, parse_card("9H")) == (3, 2, 1, parse_card("9H") & 7)


def test_charts_do_not_depend_on_the_number_of_processes() -> None:
    one = compute(STANDARD, 120, seed=3, jobs=1)
    two = compute(STANDARD, 120, seed=3, jobs=2)
    assert one.deals == two.deals == 120
    assert {k: (c.n, c.order, c.passed) for k, c in one.cells.items()} == {
        k: (c.n, c.order, c.passed) for k, c in two.cells.items()}
    # The eldest hand is asked on every deal (nobody bids before it).
    assert sum(c.n for k, c in one.cells.items() if k[0] == 0) == 120


def test_charts_command_at_a_tiny_size(tmp_path: Path) -> None:
    assert main(["charts", "--deals", "30", "--jobs", "1", "--out", str(tmp_path),
                 "--dpi", "30"]) == 0
    rows = list(csv.DictReader((tmp_path / "order_up.csv").open()))
    assert sum(int(r["n"]) for r in rows if r["position"] == "eldest") == 30
    for stem in ("order_gain_by_bowers", "order_gain_by_aces", "order_gain_by_upcard"):
        assert (tmp_path / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------------------------------------
# Puzzles


def test_mined_puzzles_have_one_clearly_best_card(tmp_path: Path) -> None:
    ps = mine(STANDARD, hands=2, seed=11, deals=16, threshold=0.3)
    assert ps.puzzles
    doc = puzzles_to_json(ps)
    validate(doc, "puzzles")
    for p in ps.puzzles:
        (best, bp), (_, sp) = p.values[0], p.values[1]
        assert best == p.answer and bp - sp >= 0.3 - 1e-9
        assert p.answer in puzzle_view(STANDARD, p).legal_actions
    again = load_puzzles(json.dumps(doc))
    assert again.puzzles == ps.puzzles


def test_shipped_puzzle_set_replays_and_validates() -> None:
    text = resources.files("euchre.analysis").joinpath("data/puzzles.json").read_text()
    validate(json.loads(text), "puzzles")
    ps = load_puzzles()
    assert len(ps.puzzles) >= 10
    assert all(p.gap >= ps.threshold for p in ps.puzzles)


def test_puzzle_command_checks_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    ps = load_puzzles()
    p = ps.puzzles[0]
    right = card_symbol(p.answer)
    assert main(["puzzle", "--number", "1", "--answer", right]) == 0
    assert "Right!" in capsys.readouterr().out
    wrong = next(c for c in puzzle_view(ps.rules, p).legal_actions if c != p.answer)
    assert main(["puzzle", "--number", "1", "--answer", card_symbol(wrong)]) == 0
    out = capsys.readouterr().out
    assert "Not quite" in out and "The answer is" in out
    assert main(["puzzle", "--number", "1", "--answer", "ZZ"]) == 2


def test_end_of_game_review_prints_the_costliest_decisions() -> None:
    from rich.console import Console

    from euchre.analysis.offer import review_in_terminal

    con = Console(record=True, width=100, force_terminal=False)
    review_in_terminal(_trumped_ace_match(), con)
    text = con.export_text()
    assert "Costliest decisions" in text and "already winning" in text


def test_review_totals_say_one_clear_mistake_not_one_clear_mistakes(
        trumped_review: Review) -> None:
    from rich.console import Console

    from euchre.analysis.report import print_review

    con = Console(record=True, width=100, force_terminal=False)
    print_review(trumped_review, 5, con)
    totals = [line.strip() for line in con.export_text().splitlines()
              if "points lost in all" in line]
    north = next(t for t in totals if t.startswith("North:"))
    assert north.startswith("North: 3 decisions,") and north.endswith(", 1 clear mistake")
    assert all(t.endswith(", 0 clear mistakes") for t in totals if t != north), totals


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), preset_name=st.sampled_from(
    ["standard", "cutthroat", "two-handed", "joker"]))
def test_every_decision_values_every_option_within_the_hand_limits(
        seed: int, preset_name: str) -> None:
    """At any decision of a random game, under any preset: every option (every lawful card in
    card play) is valued, best first, within what one hand can score."""
    from euchre.bots import make_bot
    from euchre.rules import preset

    rules = preset(preset_name)
    if rules.players != 4:
        rules = rules.replace(going_alone=False)
    rng = random.Random(seed)
    m = Match(rules, seed=seed)
    bots = [make_bot("rule", seed + s) for s in range(rules.players)]
    stop = rng.randrange(1, 25)
    for _ in range(stop):
        view = m.view(m.current_player)
        m.apply_action(bots[m.current_player].choose(view))
    view = m.view(m.current_player)
    if view.phase == Phase.CLAIM:
        return
    vals = evaluate(view, 6, rng)
    expected = lawful_cards(view) if view.phase == Phase.PLAY else list(view.legal_actions)
    assert sorted(vals.samples) == sorted(expected)
    ranked = vals.ranked()
    assert [o.points for o in ranked] == sorted((o.points for o in ranked), reverse=True)
    assert all(-4 <= o.points <= 4 for o in ranked)


def test_make_play_offers_a_review_at_the_end_of_the_game(tmp_path: Path) -> None:
    from test_play_cli import MOVE, NEXT, SAVE, plain, spawn

    child = spawn("--seed", "4", "--target", "1", env={"XDG_DATA_HOME": str(tmp_path)})
    child.timeout = 120
    while True:
        i = child.expect([MOVE, NEXT, SAVE])
        if i == 2:
            break
        child.sendline("1" if i == 0 else "")
    assert "Type 'review'" in plain(child.before)
    child.sendline("review")
    child.expect(SAVE)  # the review, then the same question again
    assert "Costliest decisions" in plain(child.before)
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_review_reads_a_record_saved_by_euchre_play(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "watched.json"
    assert main(["play", "--watch", "--level", "rule", "--seed", "3", "--target", "1",
                 "--delay", "0", "--save", str(saved)]) == 0
    capsys.readouterr()
    assert main(["review", str(saved), "--json", "--play-deals", "4", "--bid-deals", "4"]) == 0
    doc = json.loads(capsys.readouterr().out)
    validate(doc, "review")
    assert doc["decisions"] and doc["players"][0] == "North (rule)"


def test_review_record_gives_the_json_form_for_a_server() -> None:
    from euchre.analysis import review_record

    doc = review_record(to_json(_trumped_ace_match()), play_deals=4, bid_deals=4)
    validate(doc, "review")
    assert doc["players"] == ["North", "East", "South", "West"]


def test_review_flags_ordering_up_with_no_trump() -> None:
    """East orders the dealer's A♥ up holding no heart, no bower, no ace: the review says pass."""
    deck = deck_for(STANDARD, 0, [None, "9C TD QS 9S TC", None, None], up="AH")
    m = Match(STANDARD, seed=1, first_dealer=0, decks=[deck])
    m.apply_action(A.ORDER)
    rev = review_match(m, play_deals=4, bid_deals=32, seed=2, objective="points")
    (d,) = rev.decisions
    assert (d.seat, d.choice, d.best) == (1, A.ORDER, A.PASS)
    assert d.clear and d.loss > 0.5
