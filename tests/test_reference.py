"""The reference set the hint is measured against: built from real games between the bots,
every option valued on common deals, and the hint scored against it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from euchre.analysis.assess import equivalent_cards, hint_assessment
from euchre.analysis.reference import (
    check,
    collect,
    load_reference,
    reference_to_json,
    spot_view,
)
from euchre.cards import parse_card
from euchre.cli import main
from euchre.phases import Phase
from euchre.view import SeatView


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ref") / "ref.json"
    assert main(["bench", "advice", "--build", "--reference", str(path), "--decisions", "6",
                 "--deals", "48", "--seed", "2"]) == 0
    return path


def test_a_build_writes_its_settings_and_every_decision_valued_on_common_deals(
        tiny: Path) -> None:
    doc = json.loads(tiny.read_text())
    assert (doc["format"], doc["seed"], doc["deals"], doc["decisions"]) == (
        "euchre-advice-reference", 2, 48, 6)
    assert len(doc["entries"]) == 6
    assert {e["preset"] for e in doc["entries"]} == set(doc["presets"])  # one per preset
    ref = load_reference(tiny.read_text())
    for e in ref.entries:
        view = spot_view(e.spot)
        choices = view.lawful_cards() if view.phase == Phase.PLAY else list(view.legal_actions)
        assert sorted(o.action for o in e.options) == sorted(choices)
        assert e.deals == 48 and e.options[0].behind == 0.0
        assert [o.value for o in e.options] == sorted((o.value for o in e.options),
                                                      reverse=True)
        # Paired on the same deals: a difference's error is below the values' own errors.
        behind = [o for o in e.options[1:] if o.behind_se > 0]
        assert all(o.behind_se <= o.se + e.options[0].se for o in behind)
        assert e.separated == all(o.behind > 2 * o.behind_se or o.behind == o.behind_se == 0
                                  for o in e.options[1:])
    assert reference_to_json(ref)["entries"] == doc["entries"]


def test_a_build_resumes_where_it_stopped_and_refuses_other_settings(
        tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(tiny.read_text())
    part = tmp_path / "part.json"
    part.write_text(json.dumps({**doc, "entries": doc["entries"][:2]}))
    assert main(["bench", "advice", "--build", "--reference", str(part), "--decisions", "6",
                 "--deals", "48", "--seed", "2"]) == 0
    assert json.loads(part.read_text())["entries"] == doc["entries"]
    assert main(["bench", "advice", "--build", "--reference", str(part), "--decisions", "6",
                 "--deals", "64", "--seed", "2"]) == 2
    assert "was built with --seed 2 --deals 48 --decisions 6" in capsys.readouterr().err


def test_the_hint_is_scored_and_a_wrong_hint_counts_as_a_disagreement(
        tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = load_reference(tiny.read_text())
    assert any(e.separated for e in ref.entries)

    by_spot = {(e.spot.seat, spot_view(e.spot).history): e for e in ref.entries}

    def worst(view: SeatView, seed: int) -> tuple[int, bool]:
        """The option the reference ranks last: wrong wherever the reference separates (and
        not every option is the best's equal)."""
        hint_assessment(view, seed, "8")  # as long as a quick hint takes
        return by_spot[view.seat, view.history].options[-1].action, False

    res = check(ref, worst)
    separated = [i for i, e in enumerate(ref.entries) if e.separated]
    wrong = [i for i in separated if len(ref.entries[i].best) < len(ref.entries[i].options)]
    assert wrong
    assert res.separated == len(separated) and res.agree == len(separated) - len(wrong)
    assert list(res.disagreements) == wrong and res.sure_but_wrong == len(wrong)
    assert res.unseparated == len(ref.entries) - len(separated) and res.close == 0
    assert len(res.seconds) == len(ref.entries) and 0 < res.p50 <= res.p95
    assert main(["bench", "advice", "--reference", str(tiny), "--json", "--tie-asks", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decisions"] == 6 and out["separated"] == res.separated
    assert 0 <= out["agree"] <= out["separated"] and out["seconds_p95"] >= out["seconds_p50"]
    assert out["tie"]["asks"] == 3 and 0 <= out["tie"]["firm"] <= 3
    assert main(["bench", "advice", "--reference", str(tiny), "--tie-asks", "2"]) == 0
    text = capsys.readouterr().out
    assert "the hint's first choice is the reference's in" in text
    assert "A true tie (two aces equal by construction), asked 2 times: firm " in text
    assert "the rule promises at most 5%" in text


def test_the_tie_is_asked_with_a_seed_each_and_every_firm_answer_counted() -> None:
    from euchre.analysis.reference import tie_rate

    seeds: list[int] = []

    def every_other(view: SeatView, seed: int) -> tuple[int, bool]:
        seeds.append(seed)
        aces = [a for a in view.lawful_cards() if a in (parse_card("AC"), parse_card("AS"))]
        return aces[seed % 2], seed % 2 == 0  # close when even: firm half the time

    res = tie_rate(10, seed=2, hinter=every_other)
    assert res.asks == 10 and len(res.seconds) == 10 and len(set(seeds[1:])) == 10
    assert res.firm == sum(s % 2 for s in seeds[1:]) and res.rate == res.firm / 10

    def not_an_ace(view: SeatView, seed: int) -> tuple[int, bool]:
        return parse_card("9D"), True

    with pytest.raises(AssertionError, match="not the tie it was built to be"):
        tie_rate(1, hinter=not_an_ace)


def test_the_shipped_reference_covers_every_kind_of_decision_with_many_deals() -> None:
    ref = load_reference()
    assert len(ref.entries) >= 200 and ref.deals >= 2000
    kinds = {e.spot.kind for e in ref.entries}
    assert {"bid1", "bid2", "discard", "play"} <= kinds
    assert {e.spot.preset for e in ref.entries} == set(ref.presets)
    from euchre import actions as A

    alone = {A.ORDER_ALONE, *range(A.CALL_ALONE_BASE, A.CALL_ALONE_BASE + 4)}
    assert sum(any(o.action in alone for o in e.options) for e in ref.entries) >= 30
    assert [e.spot for e in ref.entries] == collect(ref.decisions, ref.seed, ref.presets)


def test_bad_reference_files_are_one_clear_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    assert main(["bench", "advice", "--reference", str(bad)]) == 2
    assert "not a reference set" in capsys.readouterr().err
    assert main(["bench", "advice", "--build"]) == 2
    assert "--build needs --reference FILE" in capsys.readouterr().err
    assert main(["bench", "advice", "--reference", str(tmp_path / "none.json")]) == 2
    assert "build it first with --build" in capsys.readouterr().err


def test_cards_with_nothing_in_play_between_them_are_equivalent() -> None:
    from helpers import deck_for

    from euchre import actions as A
    from euchre.match import Match
    from euchre.rules import Rules

    deck = deck_for(Rules(), 0, ["JH AH KH 9S TS", "9C JC AD KD QS", "AC KC QD 9D TD",
                                 "TC QC JS KS AS"], up="9H", kitty="JD TH QH")
    m = Match(Rules(), seed=1, first_dealer=0, decks=[deck])
    for text in ("pass", "pass", "pass", "order", "discard 9S"):
        m.apply_action(A.action_from_str(text))
    view = m.view(m.current_player)  # East leads, hearts trump: 9♣ J♣ A♦ K♦ Q♠
    same = equivalent_cards(view)
    ad, kd = parse_card("AD"), parse_card("KD")
    assert same[kd] == same[ad] == ad  # A♦ K♦: nothing between them
    assert same[parse_card("9C")] != same[parse_card("JC")]  # Q♣ K♣ A♣ T♣ are still out


def test_cards_that_tie_on_the_first_deals_but_are_not_equivalent_are_sampled_on() -> None:
    """10♦ and K♦ (hearts trump, Q♦ still out) come to the same on the first couple of dozen
    deals; only more deals show that K♦ is better, as the reference's 2,000 do."""
    from euchre.analysis.assess import assess

    e = load_reference().entries[11]
    view = spot_view(e.spot)
    assert {parse_card("TD"), parse_card("KD")} <= set(view.hand) and view.trump == 2
    a = assess(view, seed=1_000_003 + 11, seconds=None)
    assert a.deals > 24 and e.best == {parse_card("KD")} and a.best.action == parse_card("KD")
