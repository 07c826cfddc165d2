"""One rating scale for people and computers: the team model, its values, the estimate from
duplicate games, the ladder's fit and file, and `euchre rate`."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from euchre.bots.registry import LADDER, ladder_rating, levels, player_levels
from euchre.cli import main
from euchre.tournament import PlayerSpec, parse_player
from euchre.tournament.rate import CALIBRATION, calibrate, rate, same_player
from euchre.tournament.ratings import (
    BETA,
    ELO_SCALE,
    MU0,
    PROVISIONAL_SIGMA,
    SIGMA0,
    Ladder,
    Matchup,
    PairResult,
    Rating,
    Score,
    fit_ladder,
    level_rating,
    load_ladder,
    rate_game,
    rating_from_games,
    win_probability,
)
from euchre.tournament.stats import Z95


def elo(d: float) -> float:
    """Elo's chance of winning with ``d`` points more."""
    return 1 / (1 + 10 ** (-d / 400))


# ---------------------------------------------------------------------------------------------
# The values


def test_a_rating_is_a_checked_value_shown_with_its_interval() -> None:
    r = Rating()
    assert (r.mu, r.sigma, r.games) == (MU0, SIGMA0, 0) == (1500, 350, 0)
    assert r.provisional and str(r) == "1500 ± 686 (provisional)"
    settled = Rating(1640.4, 17.9, 300)
    assert not settled.provisional and str(settled) == "1640 ± 35"
    assert settled.low == pytest.approx(1640.4 - 1.959964 * 17.9, abs=1e-3)
    assert Rating.from_dict(settled.to_dict()) == settled
    assert json.loads(json.dumps(settled.to_dict())) == settled.to_dict()
    for bad in ({"mu": "1500"}, {"sigma": 0}, {"sigma": -3}, {"games": -1}, {"games": 1.5},
                {"mu": float("nan")}, {"sigma": float("inf")}, {"rating": 3}, [1, 2]):
        with pytest.raises(ValueError):
            Rating.from_dict(bad)  # type: ignore[arg-type]
    assert Rating(sigma=PROVISIONAL_SIGMA).provisional is False
    assert Rating(sigma=PROVISIONAL_SIGMA + 0.1).provisional is True


def test_settled_odds_follow_elos_convention_for_a_partnership() -> None:
    """Two players each d points above the other partnership's two win as Elo says."""
    for d in (0, 100, 200, 400):
        settled = 1e-6
        a = [Rating(MU0 + d, settled), Rating(MU0 + d, settled)]
        b = [Rating(MU0, settled), Rating(MU0, settled)]
        assert win_probability(a, b) == pytest.approx(elo(d), abs=1e-6)
    assert pytest.approx(ELO_SCALE * math.sqrt(2)) == BETA
    # Uncertain ratings predict less confidently.
    a, b = [Rating(1700), Rating(1700)], [Rating(1500), Rating(1500)]
    assert 0.5 < win_probability(a, b) < elo(200)


# ---------------------------------------------------------------------------------------------
# A finished game


def test_a_game_moves_the_winners_up_and_the_losers_down_by_their_uncertainty() -> None:
    ratings = {"ann": Rating(1500, 300, 4), "club": Rating(1500, 20, 900),
               "bob": Rating(1500, 120, 60), "expert": Rating(1570, 15, 400)}
    new = rate_game([["ann", "club"], ["bob", "expert"]], ratings, winner=0)
    assert set(new) == set(ratings)
    assert new["ann"].mu > 1500 and new["club"].mu > 1500
    assert new["bob"].mu < 1500 and new["expert"].mu < 1570
    assert new["ann"].mu - 1500 > new["club"].mu - 1500  # the least known moves the most
    assert all(new[k].games == ratings[k].games + 1 for k in ratings)
    assert all(new[k].sigma < ratings[k].sigma for k in ("ann", "bob"))
    # A new player (absent from the mapping) starts at the defaults; fixed ones do not move.
    new = rate_game([["cy", "club"], ["bob", "expert"]], ratings, 1, fixed={"club", "expert"})
    assert set(new) == {"cy", "bob"} and new["cy"].mu < MU0 and new["cy"].games == 1


def test_a_level_on_both_sides_ends_about_where_it_was_and_twice_on_one_side_moves_twice() -> None:
    ratings = {"ann": Rating(1500, 200), "bob": Rating(1500, 200), "club": Rating(1500, 100)}
    both = rate_game([["ann", "club"], ["bob", "club"]], ratings, 0)
    assert both["club"].mu == pytest.approx(1500, abs=0.5) and both["club"].games == 1
    once = rate_game([["club", "ann"], ["bob", "x"]], ratings, 0, tau=0)
    twice = rate_game([["club", "club"], ["bob", "x"]], ratings, 0, tau=0)
    gain_once, gain_twice = once["club"].mu - 1500, twice["club"].mu - 1500
    assert 1.5 < gain_twice / gain_once < 2.5  # it carried the partnership alone
    assert twice["club"].sigma < once["club"].sigma


def test_tau_keeps_a_rating_able_to_move() -> None:
    r = {"p": Rating(1500, 40), "q": Rating(1500, 40)}
    frozen = rate_game([["p"], ["q"]], r, 0, tau=0)["p"]
    moving = rate_game([["p"], ["q"]], r, 0)["p"]
    assert moving.sigma > frozen.sigma and moving.mu > frozen.mu


def test_a_bad_game_is_refused_with_a_reason() -> None:
    r = {"a": Rating(), "b": Rating()}
    for sides, winner, why in (([["a"]], 0, "at least two sides"),
                               ([["a"], []], 0, "at least two sides"),
                               ([["a"], ["b"]], 2, "winner is the index of a side"),
                               ([["a"], ["b"]], True, "winner is the index of a side")):
        with pytest.raises(ValueError, match=why):
            rate_game(sides, r, winner)
    with pytest.raises(ValueError, match="tau"):
        rate_game([["a"], ["b"]], r, 0, tau=-1)


def test_ratings_from_games_find_the_true_strength_within_their_interval() -> None:
    """Simulated players of known strength, each in both seats of a partnership against
    settled opponents: after 200 games the interval holds the truth about 95% of the time
    (never much less: the model is conservative), and the error is small."""
    rng = random.Random(11)
    covered = 0
    errors = []
    trials = 40
    for _ in range(trials):
        true = rng.uniform(1100, 1900)
        r = {"me": Rating()}
        for _ in range(200):
            level = rng.choice((1200, 1500, 1800))
            r["lv"] = Rating(level, 1e-3)
            won = rng.random() < elo(true - level)
            r.update(rate_game([["me", "me"], ["lv", "lv"]], r, 0 if won else 1,
                               fixed={"lv"}, tau=0))
        me = r["me"]
        covered += me.low <= true <= me.high
        errors.append(me.mu - true)
    assert covered >= 0.9 * trials
    assert math.sqrt(sum(e * e for e in errors) / trials) < 90


# ---------------------------------------------------------------------------------------------
# From duplicate games


def test_a_share_of_wins_reads_as_a_rating_difference_with_its_error() -> None:
    even = Score(0.5, 0.05, 400)
    d, se = even.difference()
    assert d == pytest.approx(0, abs=1e-9) and se == pytest.approx(ELO_SCALE * 0.05 / Z95 / 0.25)
    d, _ = Score(0.64, 0.02, 4000).difference()
    assert d == pytest.approx(100, abs=3)  # Elo: 64% is 100 points
    up, _ = Score(0.7, 0.03, 1000).difference()
    down, _ = Score(0.3, 0.03, 1000).difference()
    assert up == pytest.approx(-down)
    sweep, se = Score(1.0, 0.0, 20).difference()  # all won: large, finite, and uncertain
    assert math.isfinite(sweep) and 400 < sweep < 1000 and se > 100
    with pytest.raises(ValueError):
        Score(1.2, 0, 3)


def test_a_rating_from_several_levels_weights_each_by_its_precision() -> None:
    near = Matchup("club", Rating(1500, 10), Score(0.5, 0.04, 400))
    far = Matchup("expert", Rating(1600, 10), Score(0.5, 0.2, 40))
    r = rating_from_games([near, far])
    assert 1500 < r.mu < 1520 and r.games == 440
    assert r.sigma < math.sqrt(near.estimate()[1])
    alone = rating_from_games([Matchup("club", Rating(1500, 30), Score(0.5, 1e-9, 10 ** 6))])
    assert alone.sigma == pytest.approx(30, rel=0.01)  # never narrower than the level's own
    with pytest.raises(ValueError, match="no games"):
        rating_from_games([])


def _pair(a: str, b: str, d: float, games: int = 2000, half: float = 0.02) -> PairResult:
    return PairResult(a, b, Score(elo(d), half, games))


def test_the_ladder_fit_recovers_the_gaps_and_their_uncertainty() -> None:
    pairs = [_pair("b", "a", 300), _pair("c", "b", 200), _pair("c", "a", 500, half=0.01),
             _pair("d", "c", 80)]
    fit = fit_ladder(pairs, anchor="c", anchor_rating=1500)
    assert fit["c"].mu == 1500
    assert fit["b"].mu == pytest.approx(1300, abs=1) and fit["a"].mu == pytest.approx(1000, abs=1)
    assert fit["d"].mu == pytest.approx(1580, abs=1)
    assert fit["a"].sigma > 0 and fit["a"].games == 4000 and fit["c"].games == 6000
    with pytest.raises(ValueError, match="no games connect e, f to the anchor of the ladder, c"):
        fit_ladder([*pairs, _pair("e", "f", 10)], anchor="c")


def test_the_shipped_ladder_rates_every_level_a_person_picks(tmp_path: Path) -> None:
    ladder = load_ladder()
    assert set(ladder.levels) == {level.name for level in LADDER} | {"random"}
    assert ladder.anchor == "club" and ladder.levels["club"].mu == 1500
    order = sorted(ladder.levels, key=lambda n: ladder.levels[n].mu)
    assert order == ["random", *(level.name for level in LADDER)]  # the ladder climbs
    assert ladder.command.startswith("euchre rate --levels") and ladder.date
    assert all(p.score.games >= 100 for p in ladder.pairs)
    for name in player_levels():
        found = ladder_rating(name)
        assert found is not None and level_rating(name) == Rating(*found)
    assert level_rating("rule") == level_rating("club")
    assert level_rating("search") == level_rating("expert")
    assert level_rating("pimc-full") is None
    copy = tmp_path / "ladder.json"
    copy.write_text(json.dumps(ladder.to_dict()))
    assert Ladder.from_dict(json.loads(copy.read_text())).levels == ladder.levels
    copy.write_text("{}")
    with pytest.raises(ValueError, match="not a ladder file"):
        load_ladder(copy)
    with pytest.raises(ValueError, match="cannot read the ladder"):
        load_ladder(tmp_path / "missing.json")


# ---------------------------------------------------------------------------------------------
# Playing for a rating


def test_a_level_is_not_rated_against_itself() -> None:
    assert same_player("rule", "club") and same_player("club", "club")
    assert same_player("search", "expert") and not same_player("rule", "expert")
    assert not same_player("my_pkg:make", "club")
    ladder = {"club": Rating(1500, 1e-9), "casual": Rating(1300, 10)}
    assert rate(PlayerSpec("rule"), ladder, precision=500, max_games=8).itself == {"club"}
    with_options = rate(parse_player("club:think=8"), ladder, precision=500, max_games=8)
    assert with_options.itself == frozenset()  # the level with options of its own is another
    top = rate(PlayerSpec("rule"), {"club": Rating(1500, 1e-9), "casual": Rating(1000, 10)},
               precision=500, max_games=8)
    assert top.place() == "above casual, the strongest other level"


LADDER_FOR_TESTS = {"random": Rating(600, 20), "beginner": Rating(1150, 15),
                    "casual": Rating(1330, 10), "club": Rating(1500, 1e-9)}


def test_rate_plays_until_the_interval_is_as_narrow_as_asked_and_places_the_bot() -> None:
    result = rate(PlayerSpec("beginner"), LADDER_FOR_TESTS, precision=120, max_games=600,
                  seed=3)
    r = result.rating
    assert r is not None and result.reached and r.half_width <= 120
    assert {m.opponent for m in result.matchups} <= {"random", "casual", "club"}
    assert "beginner" not in {m.opponent for m in result.matchups}
    assert r.low < 1150 + 150 and r.high > 1150 - 150  # where the ladder says it is
    assert result.place() in ("between random and casual",)
    data = result.to_json()
    assert data["schema"] == "euchre-rate/1" and data["games"] == r.games <= 600
    assert data["reached"] and data["rating"]["provisional"] is False
    again = rate(PlayerSpec("beginner"), LADDER_FOR_TESTS, precision=120, max_games=600, seed=3)
    assert again.rating == r  # the same seed, the same games, the same rating
    text = result.to_text()
    assert text.startswith(f"beginner: {r.mu:.0f} ± {r.half_width:.0f} (95%), between random "
                           "and casual: ")


def test_rate_stops_at_max_games_and_says_the_precision_was_not_reached() -> None:
    result = rate(PlayerSpec("casual"), LADDER_FOR_TESTS, precision=5, max_games=40, seed=1)
    assert result.rating is not None and not result.reached and result.rating.games <= 40
    assert "not yet ± 5" in result.to_text()


def test_calibrate_fits_the_plan_anchored(monkeypatch: pytest.MonkeyPatch) -> None:
    ladder = calibrate([("beginner", "random", 30), ("club", "beginner", 30)], seed=2,
                       command="test")
    assert ladder.levels["club"].mu == MU0 and ladder.anchor == "club"
    assert ladder.levels["random"].mu < ladder.levels["beginner"].mu < MU0
    assert [p.score.games for p in ladder.pairs] == [60, 60]
    assert {a for a, _, _ in CALIBRATION} | {b for _, b, _ in CALIBRATION} == \
        {level.name for level in LADDER} | {"random"}


def test_the_rate_command(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["rate", "beginner", "--precision", "150", "--max-games", "200", "--workers",
                 "1", "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == "beginner" and data["rating"]["games"] <= 200
    assert all(a["level"] != "beginner" for a in data["against"])
    import euchre.tournament.rate as rate_module

    monkeypatch.setattr(rate_module, "CALIBRATION", (("beginner", "random", 20),
                                                     ("club", "beginner", 20)))
    out = tmp_path / "ladder.json"
    assert main(["rate", "--levels", "--output", str(out), "--workers", "1", "--quiet"]) == 0
    written = load_ladder(out)
    assert written.command == "euchre rate --levels --workers 1"
    assert "club" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["rate"], "name a bot to rate (SPEC), or --levels"),
    (["rate", "rule", "--levels"], "name a bot to rate (SPEC), or --levels"),
    (["rate", "rule", "--output", "x.json"], "--output and --scale go with --levels"),
    (["rate", "nosuch"], "unknown bot 'nosuch'"),
    (["rate", "cmd:no-such-program-y"], "cannot start 'no-such-program-y'"),
])
def test_bad_rate_input_is_one_line_and_exit_status_2(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["rate", "rule", "--precision", "1"])
    assert "must be 5-500 rating points, not 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["rate", "--levels", "--scale", "0"])
    assert "must be 0.001-100 times the planned games, not 0" in capsys.readouterr().err


def test_the_levels_people_pick_are_the_ladder_and_the_old_names_still_play() -> None:
    assert player_levels() == ("beginner", "casual", "club", "expert")
    found = levels()
    assert found["rule"].same_as == "club" and found["search"].same_as == "expert"
    assert not found["rule"].for_players and not found["random"].for_players
    assert parse_player("rule").make(1).name == "rule"
    assert parse_player("club").make(1).name == "club"
