"""The learned bidding: its shipped model, the bot that uses it, and `euchre train`."""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from euchre import actions as A
from euchre.bots import make_bot, rollout
from euchre.bots.learned import (
    CARD_PLAY_DEALS,
    LearnedBidBot,
    bid_values,
    covered,
    load_model,
    parse_model,
    shipped_model,
    shipped_model_path,
)
from euchre.bots.search import BID_DEALS, DEFAULT_SAMPLES, SearchBot
from euchre.cli import main
from euchre.phases import Phase
from euchre.rules import Rules, preset
from euchre.state import BID1, BID2, PLAY, HandState
from euchre.training.bidding import (
    TrainSettings,
    bid_policy,
    deal_decisions,
    deal_samples,
    finish_bidding,
    policy_bid,
    shard_path,
    simulate,
    train,
)
from euchre.training.calibrate import close_decisions, compare
from euchre.training.calibrate import main as calibrate_main
from euchre.view import SeatView


def first_view(rules: Rules, seed: int) -> SeatView:
    h = HandState.deal(rules, seed % 4, random.Random(seed))
    return h.view(h.cur)


def round_two_view(rules: Rules, seed: int) -> SeatView:
    h = HandState.deal(rules, seed % 4, random.Random(seed))
    for _ in range(4):
        h.apply_action(A.PASS)
    return h.view(h.cur)


def test_the_shipped_model_is_checked_and_records_its_training() -> None:
    model = shipped_model()
    assert model.settings["deals"] >= 10_000 and "labels" in model.settings
    assert model.reached["round1"]["decisions"] > 0
    text = (Path(__file__).parent.parent / "euchre" / "bots" / "data" / "bidding.json"
            ).read_text()
    data = json.loads(text)
    data["models"]["bid1"]["b2"][0] += 0.5  # a changed weight no longer matches its hash
    with pytest.raises(ValueError, match="SHA-256"):
        parse_model(json.dumps(data))
    with pytest.raises(ValueError, match="not a bidding model"):
        parse_model("{}")


def test_it_covers_the_standard_game_and_its_common_options_only() -> None:
    assert covered(Rules()) and covered(preset("tournament"))
    assert covered(Rules(defend_alone=True, stick_the_dealer=True, target=5))
    assert not covered(preset("cutthroat")) and not covered(preset("joker"))
    assert not covered(Rules(canadian_loner=True)) and not covered(preset("openspiel"))
    model = shipped_model()
    for rules in (Rules(), Rules(stick_the_dealer=True), Rules(defend_alone=True)):
        for seed in range(20):
            for view in (first_view(rules, seed), round_two_view(rules, seed)):
                values = bid_values(model, view)
                assert values is not None
                assert {a for a, _, _ in values.options} == set(view.legal_actions)
    assert bid_values(model, first_view(preset("cutthroat"), 1)) is None


def test_the_same_position_gets_the_same_bid_whatever_the_seed() -> None:
    for seed in range(30):
        view = first_view(Rules(), seed)
        a, b = make_bot("search", 1), make_bot("search", 2)
        assert a.choose(view) == b.choose(view)


def test_explain_says_what_the_policy_prefers_and_by_how_much() -> None:
    bot = make_bot("search", 0)
    view = first_view(Rules(), 3)
    text = bot.explain(view)
    assert "learned bidding values it at" in text and "less)" in text
    values = bid_values(shipped_model(), view)
    assert values is not None
    best, v, _ = values.options[0]
    assert bot.choose(view) == best and f"{v:+.2f}" in text


def test_everything_else_is_the_search_player() -> None:
    bot = LearnedBidBot(4, think=8)
    assert bot.analyse(first_view(Rules(), 5)).kind == "learned"
    assert bot.analyse(first_view(preset("cutthroat"), 5)).kind != "learned"
    # A whole hand: the card play and the discard come from the search player, all legal.
    h = HandState.deal(Rules(stick_the_dealer=True), 0, random.Random(9))
    kinds = set()
    while not h.is_terminal():
        view = h.view(h.cur)
        an = bot.analyse(view)
        kinds.add(an.kind)
        assert an.action in view.legal_actions
        h.apply_action(an.action)
    assert "learned" in kinds and kinds & {"play", "rule"}


def test_the_card_play_looks_at_four_times_the_search_players_deals_unless_told() -> None:
    # The learned bids leave the decision time to the card play, where more deals measured
    # stronger; an explicit budget (a tournament's --think, search:think=N) still wins.
    assert CARD_PLAY_DEALS == 4 * DEFAULT_SAMPLES
    assert LearnedBidBot(1).think.samples == CARD_PLAY_DEALS
    level: Any = make_bot("search", 1)
    assert level.think.samples == CARD_PLAY_DEALS
    assert LearnedBidBot(1, think=8).think.samples == 8
    timed: Any = make_bot("search", 1, think="0.2s")
    assert timed.think.seconds == 0.2
    bot = LearnedBidBot(2)
    played = 0
    for seed in range(4):
        h = HandState.deal(Rules(stick_the_dealer=True), seed, random.Random(seed))
        while h.phase != PLAY:
            h.apply_action(bot.choose(h.view(h.cur)))
        an = bot.analyse(h.view(h.cur))
        if an.kind == "play":
            assert an.deals == CARD_PLAY_DEALS
            played += 1
    assert played


@pytest.mark.slow
def test_where_the_model_does_not_reach_search_is_the_rollout_player_at_its_own_deals() -> None:
    # Outside the rules the model covers the bids are rolled out again; at four times the deals
    # they would take four times as long, so the default budget falls back to the rollout
    # player's own, with the solved discard. An explicit budget still applies as given.
    for name in ("cutthroat", "two-handed", "joker"):
        rules = preset(name)
        assert not covered(rules)
        for seed in range(2):
            h = HandState.deal(rules, seed % rules.players, random.Random(seed))
            plays = 0
            while not h.is_terminal() and plays < 2:
                view = h.view(h.cur)
                level: Any = make_bot("search", 5)
                rollout_bot = SearchBot(5, None, solved_discard=True)
                an = level.analyse(view)
                assert an == rollout_bot.analyse(view), (name, seed, view.phase)
                assert level.explain(view) == rollout_bot.explain(view)
                if an.kind in ("play", "bid"):
                    assert an.deals <= BID_DEALS * DEFAULT_SAMPLES
                plays += h.phase == PLAY
                h.apply_action(an.action)
    told: Any = make_bot("search", 5, think=8)
    assert told.analyse(first_view(preset("cutthroat"), 1)).deals == 8 * BID_DEALS


def test_the_dealers_discard_is_solved_double_dummy_not_played_out() -> None:
    # The dealer picks the up-card up; the learned player values each discard by solving the
    # hand from the first card, the search player by rule-bot rollouts.
    found = 0
    for seed in range(60):
        h = HandState.deal(Rules(), seed % 4, random.Random(seed))
        for _ in range(3):
            h.apply_action(A.PASS)
        h.apply_action(A.ORDER)
        view = h.view(h.cur)
        assert view.phase == Phase.DISCARD
        learned = LearnedBidBot(1, think=8).analyse(view)
        search = make_bot("search-rollout", 1, think=8).analyse(view)  # type: ignore[attr-defined]
        if len(view.legal_actions) > 1 and learned.kind != "rule":
            assert learned.kind == "naive" and search.kind == "bid", seed
            assert learned.action in view.legal_actions
            assert "solved double-dummy" in LearnedBidBot(1, think=8).explain(view)
            found += 1
    assert found >= 20


def test_training_data_conditions_on_earlier_passes() -> None:
    rng = random.Random(1)
    seen_round_two = False
    for _ in range(40):
        rows = deal_samples(rng)
        # One row per decision reached, round one before round two; values where legal.
        assert [r for r, _, _ in rows] == sorted(r for r, _, _ in rows)
        for round_, _, ys in rows:
            assert len(ys) == (3 if round_ == 1 else 7)
            if round_ == 1:
                assert not math.isnan(ys[0])  # passing is always open in round one
        seen_round_two |= any(r == 2 for r, _, _ in rows)
    assert seen_round_two
    assert all(r == 2 for _ in range(10) for r, _, _ in deal_samples(rng, rounds=(2,)))


@pytest.mark.slow
def test_train_resumes_from_its_shards_and_is_reproducible(tmp_path: Path) -> None:
    settings = TrainSettings(deals=30, round2_deals=30, shard_deals=10, hidden=4, epochs=2)
    first, seconds = train(tmp_path / "a", settings)
    assert seconds > 0
    assert simulate(tmp_path / "a", settings) == 0  # every shard is on disk: nothing to do
    again, seconds = train(tmp_path / "a", settings)
    assert seconds == 0 and again.bid1 == first.bid1
    other, _ = train(tmp_path / "b", settings, workers=2)
    assert other.bid1 == first.bid1 and other.bid2 == first.bid2


def test_train_command_writes_a_model_the_bot_can_load(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    out = tmp_path / "m.json"
    rc = main(["train", "bidding", "--deals", "20", "--shard-deals", "10", "--hidden", "4",
               "--epochs", "1", "--workers", "1", "--dir", str(tmp_path / "shards"),
               "--out", str(out), "--quiet", "--round2-deals", "20"])
    text = capsys.readouterr().out
    assert rc == 0 and "wrote" in text and "round2" in text
    model = load_model(out)
    assert model.settings["deals"] == 20 and model.settings["hidden"] == 4
    bot = LearnedBidBot(1, model=model)
    assert bot.choose(first_view(Rules(), 2)) in first_view(Rules(), 2).legal_actions
    with pytest.raises(SystemExit):
        main(["train", "bidding", "--deals", "5"])  # too few: refused before any work
    assert "must be a whole number" in capsys.readouterr().err


def test_each_decision_has_a_rollout_and_a_double_dummy_target() -> None:
    rng = random.Random(3)
    rows = [row for _ in range(20) for row in deal_decisions(rng)]
    assert rows
    for _, _, ys, ds in rows:
        assert [math.isnan(v) for v in ys] == [math.isnan(v) for v in ds]
        assert all(abs(v) <= 4 for v in ds if not math.isnan(v))
    assert any(y != d for _, _, ys, ds in rows for y, d in zip(ys, ds, strict=True)
               if not math.isnan(y))


def test_the_target_blend_is_a_setting_recorded_in_the_model(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    rollouts = TrainSettings(deals=20, round2_deals=0, shard_deals=10, hidden=4, epochs=2)
    blended = dataclasses.replace(rollouts, dd_weight=0.6)
    a, _ = train(tmp_path, rollouts)
    b, seconds = train(tmp_path, blended)  # the same shards, fitted to another target
    assert seconds == 0 and a.bid1 != b.bid1
    assert b.settings["dd_weight"] == 0.6 and "0.6 x its double-dummy" in b.settings["labels"]
    with pytest.raises(SystemExit):
        main(["train", "bidding", "--dd-weight", "1.5"])
    assert "from 0 to 1" in capsys.readouterr().err


def test_later_bids_can_come_from_a_learned_model_remembered_within_a_deal() -> None:
    """Policy iteration: the bids around the one valued are the model's own choices, and the
    per-deal memory of them never answers a position with anything but the model's bid."""
    path = str(shipped_model_path())
    model = shipped_model()
    assert bid_policy("") is rollout.policy_action
    differs = 0
    for seed in range(60):
        rules = Rules(stick_the_dealer=seed % 2 == 0)
        st = HandState.deal(rules, seed % 4, random.Random(seed))
        policy = bid_policy(path)
        trial = st.clone()
        while trial.phase in (BID1, BID2):
            expected = policy_bid(model, trial)
            assert expected is not None
            differs += expected != rollout.policy_action(trial)
            assert policy(trial) == expected
            trial.apply_action(expected)
        again = st.clone()
        finish_bidding(again, policy)  # the remembered bids: the same auction
        assert again.history == trial.history
    assert differs > 0  # the two policies do bid differently, or this test would be empty


def test_shards_of_different_later_bidders_are_never_mixed(tmp_path: Path) -> None:
    path = str(shipped_model_path())
    plain = TrainSettings(deals=20, round2_deals=20, shard_deals=10, hidden=4, epochs=1)
    learned = dataclasses.replace(plain, later_bids=path)
    assert shard_path(tmp_path, plain, "all", 0) != shard_path(tmp_path, learned, "all", 0)
    ra, rb = random.Random(4), random.Random(4)
    a = [deal_decisions(ra, (1, 2)) for _ in range(10)]
    b = [deal_decisions(rb, (1, 2), path) for _ in range(10)]
    assert a != b  # the same deals at another table: other targets, other decisions reached
    model, _ = train(tmp_path, learned)
    assert model.settings["later_bids"] == "bidding.json"
    assert model.settings["later_bids_sha256"] == shipped_model_path().read_text().split(
        '"sha256": "')[1][:64]
    assert "the other bids by the learned policy" in model.settings["labels"]


def test_train_refuses_a_later_bids_file_that_is_not_a_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    rc = main(["train", "bidding", "--deals", "10", "--later-bids", str(bad),
               "--dir", str(tmp_path / "s"), "--out", str(tmp_path / "m.json"), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and "--later-bids" in err and "not a bidding model" in err
    assert not (tmp_path / "m.json").exists() and "Traceback" not in err


def test_calibration_plays_each_close_option_three_ways(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    rows = list(close_decisions(seed=5, deals=4, think=2))
    assert rows
    for row in rows:
        legal = [not math.isnan(v) for v in row.real]
        assert legal[0] and [not math.isnan(v) for v in row.rollout] == legal
        assert [not math.isnan(v) for v in row.double_dummy] == legal
        assert row.round == (1 if row.state.phase == BID1 else 2 if row.state.phase == BID2 else 0)
    lines = compare(rows)
    assert lines[0].startswith("round ") and any("per-deal error by blend" in x for x in lines)
    out = tmp_path / "rows.pkl"
    out.write_bytes(pickle.dumps(rows))
    assert calibrate_main(["--compare", str(out)]) == 0
    assert "double-dummy - real" in capsys.readouterr().out
    assert calibrate_main(["--compare", str(tmp_path / "missing.pkl")]) == 2
