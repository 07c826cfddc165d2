"""Tournaments: duplicate dealing, seeds that do not depend on workers or backend, honest
intervals, and the ``euchre tournament`` command's input checks, output and Ctrl-C."""

from __future__ import annotations

import json
import math
import os
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.bots import BOT_NAMES
from euchre.cli import main
from euchre.phases import BID1, PLAY
from euchre.rules import PRESETS, Rules, preset
from euchre.tournament import (
    SAME,
    DecisionClock,
    MeanCI,
    PlayerSpec,
    RunningMeanCI,
    TimeHistogram,
    TournamentSpec,
    derive_seed,
    first_difference,
    mean_ci,
    parse_player,
    play_unit,
    run,
    running_mean_ci,
    seatings,
    split,
    summarize,
    think_times,
    to_json,
    to_text,
)

EUCHRE = Path(sys.executable).parent / "euchre"
RULE, RANDOM = PlayerSpec("rule"), PlayerSpec("random")


def spec(a: PlayerSpec = RULE, b: PlayerSpec = RANDOM, rules: Rules | None = None,
         seed: int = 0, games: bool = False, **kw: object) -> TournamentSpec:
    return TournamentSpec((a, b), rules or Rules(), seed, games, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Statistics


def test_mean_ci_matches_the_textbook_normal_interval() -> None:
    xs = [1.0, 2.0, 3.0, 4.0, 10.0]
    ci = mean_ci(xs)
    half = 1.959963984540054 * statistics.stdev(xs) / math.sqrt(len(xs))
    assert ci.mean == pytest.approx(4.0)
    assert ci.low == pytest.approx(4.0 - half) and ci.high == pytest.approx(4.0 + half)
    assert ci.n == 5 and ci.excludes_zero
    assert not MeanCI(0.1, -0.2, 0.4, 3).excludes_zero
    assert mean_ci([2.5]) == MeanCI(2.5, 2.5, 2.5, 1)
    with pytest.raises(ValueError, match="no results"):
        mean_ci([])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-8, 8, allow_nan=False), min_size=1, max_size=40))
def test_running_interval_equals_the_interval_of_each_prefix(xs: list[float]) -> None:
    means, lows, highs = running_mean_ci(xs)
    for k in range(1, len(xs) + 1):
        ci = mean_ci(xs[:k])
        assert means[k - 1] == pytest.approx(ci.mean, abs=1e-9)
        assert lows[k - 1] == pytest.approx(ci.low, abs=1e-9)
        assert highs[k - 1] == pytest.approx(ci.high, abs=1e-9)


def test_progress_bar_shows_the_same_running_margin_as_the_report() -> None:
    from euchre.cli.tournament import ProgressBar

    out = run(spec(seed=6), 12)
    bar = ProgressBar(24, ["rule", "random"], games=False)
    for r in out.results:
        bar.update(r)
    ci = summarize(out).margin
    assert ci is not None and bar.margin.ci().mean == pytest.approx(ci.mean, abs=1e-12)
    assert bar.margin.half_width == pytest.approx(ci.half_width, abs=1e-12)
    task = bar.progress.tasks[0]
    assert task.completed == 24 and f"± {ci.half_width:.3f}" in task.description
    with pytest.raises(ValueError, match="no results"):
        RunningMeanCI().ci()


# --------------------------------------------------------------------------------------------
# Seatings, seeds, players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_sits_in_each_seat_equally_often(players: int) -> None:
    rows = seatings(players)
    for seat in range(players):
        assert Counter(row[seat] for row in rows) == {0: len(rows) // 2, 1: len(rows) // 2}
    if players == 4:  # partners sit opposite: the sides swap hands whole
        assert all(row[0] == row[2] and row[1] == row[3] != row[0] for row in rows)


def test_seeds_derive_from_the_master_seed_and_index_only() -> None:
    assert derive_seed(7, "deal", 3) == derive_seed(7, "deal", 3)
    seeds = {derive_seed(7, "deal", i) for i in range(1000)} | {derive_seed(8, "deal", 0)}
    assert len(seeds) == 1001
    assert all(0 <= s < 2**63 for s in seeds)


def test_player_options_parse_as_numbers_or_text() -> None:
    p = parse_player("search:think=100,budget=0.5,mode=fast")
    assert p == PlayerSpec("search", (("think", 100), ("budget", 0.5), ("mode", "fast")))
    assert p.label == "search:think=100,budget=0.5,mode=fast"
    for bad in ("", ":x=1", "rule:", "rule:think", "rule:=3", "rule:a b=1"):
        with pytest.raises(ValueError, match=r"KEY=VALUE|NAME"):
            parse_player(bad)


# --------------------------------------------------------------------------------------------
# Duplicate dealing


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 30, allow_nan=False), min_size=1, max_size=300),
       st.integers(1, 4))
def test_time_histogram_quantiles_are_within_one_percent_above_the_exact_ones(
        xs: list[float], parts: int) -> None:
    whole = TimeHistogram()
    merged = TimeHistogram()
    for k in range(parts):  # merging the histograms of parts equals one histogram of all
        part = TimeHistogram()
        for x in xs[k::parts]:
            part.add(x)
            whole.add(x)
        merged.merge(part)
    ordered = sorted(xs)
    for h in (whole, merged):
        assert h.n == len(xs) and h.max == ordered[-1]
        assert h.mean == pytest.approx(math.fsum(xs) / len(xs), abs=1e-9)
        for q in (0.01, 0.5, 0.95, 1.0):
            exact = ordered[math.ceil(q * len(xs)) - 1]  # nearest rank
            got = h.quantile(q)
            assert exact <= got <= max(exact * TimeHistogram.RATIO, TimeHistogram.FLOOR), q
    assert whole.counts == merged.counts


def test_time_histogram_refuses_empty_data_and_bad_quantiles() -> None:
    h = TimeHistogram()
    with pytest.raises(ValueError, match="no times"):
        h.quantile(0.5)
    h.add(0.003)
    assert h.quantile(0.5) == h.quantile(0.95) == h.max == 0.003
    with pytest.raises(ValueError, match="quantile"):
        h.quantile(0)


# --------------------------------------------------------------------------------------------
# Thinking: budget, paired seeds, decision times


def test_think_is_both_players_budget_unless_a_player_names_its_own() -> None:
    own = PlayerSpec("search", (("think", 7),))
    bots = spec(PlayerSpec("search"), own, think="5").bots(0, 0)
    assert [str(b.think) for b in bots] == ["5", "7", "5", "7"]  # type: ignore[attr-defined]
    assert str(spec(PlayerSpec("search"), own).bots(0, 1)[0].think) == "7"  # type: ignore[attr-defined]
    assert spec(think="0.5s") != spec()  # the budget is part of what decides a result


def test_paired_seeds_give_each_seat_one_seed_in_every_seating() -> None:
    # Random players choose from their seed alone: with paired seeds the two seatings of a
    # deal replay one hand with the names swapped (every margin 0); without, they differ.
    paired = spec(RANDOM, RANDOM, paired_seeds=True)
    assert all(play_unit(paired, i).margin == 0 for i in range(20))
    assert any(play_unit(spec(RANDOM, RANDOM), i).margin != 0 for i in range(20))
    three = spec(RANDOM, RANDOM, preset("cutthroat"), paired_seeds=True)
    assert all(play_unit(three, i).margin == 0 for i in range(10))
    assert run(paired, 30, workers=2).results == run(paired, 30, workers=1).results


def test_decision_times_per_player_by_wall_or_cpu_clock() -> None:
    for clock in ("wall", "cpu"):
        out = run(spec(clock=clock), 20)
        assert spec(clock=clock) == spec()  # timing never changes a result
        assert all(r.times == ((), ()) for r in out.results)  # folded into out.times
        for e in (0, 1):
            t = think_times(out, e)
            assert t.decisions == out.times[e].n == sum(r.decisions[e] for r in out.results) > 0
            assert 0 <= t.p50 <= t.p95 <= t.max and t.p50 <= t.mean * 50
        assert "time per decision (" + clock in to_text(out)
    with pytest.raises(ValueError, match="clock must be one of wall, cpu"):
        DecisionClock("sundial")


@pytest.mark.parametrize("rules", [Rules(), preset("cutthroat"), preset("two-handed")],
                         ids=["four", "cutthroat", "two-handed"])
def test_a_deterministic_bot_against_itself_cancels_exactly_on_every_deal(rules: Rules) -> None:
    # The rule bot decides from its view alone, so each seating replays the other's game with
    # the names swapped: if the sides did not get the same cards, margins would not be 0.
    s = spec(RULE, RULE, rules)
    for i in range(30):
        r = play_unit(s, i)
        assert r.hands == len(s.seatings)
        assert r.points[0] == r.points[1], i


TABLE_RULES: dict[str, Rules] = {
    **{name: preset(name) for name in sorted(PRESETS)},
    "defend alone, renege penalized and claimed": Rules(defend_alone=True, renege="penalize"),
    "cutthroat, renege penalized": Rules(players=3, going_alone=False, renege="penalize"),
    "two-handed, joker, renege penalized": Rules(players=2, going_alone=False, deck=25,
                                                 renege="penalize"),
}


@pytest.mark.parametrize("level", BOT_NAMES)
def test_every_level_plays_every_preset_and_player_count_in_a_tournament(level: str) -> None:
    for name, rules in TABLE_RULES.items():
        s = spec(PlayerSpec(level), RANDOM, rules, seed=2, think="2")
        r = play_unit(s, 0)
        assert r.hands == len(s.seatings) and r.decisions[0] > 0, name
        g = play_unit(spec(PlayerSpec(level), RANDOM, rules.replace(target=2), seed=2,
                           games=True, think="2"), 0)
        assert g.games == len(s.seatings) and sum(g.wins) == g.games, name


def test_games_mode_plays_each_game_from_both_seatings_to_the_target() -> None:
    rules = Rules(target=5)
    for i in range(4):
        r = play_unit(spec(RULE, RULE, rules, games=True), i)
        assert r.games == 2 and r.wins == (1, 1)  # same deals, same bots: one win each
        assert r.points[0] == r.points[1] >= 5
    r = play_unit(spec(RULE, RANDOM, rules, games=True), 0)
    assert sum(r.wins) == r.games == 2 and r.hands >= 2


def test_rule_beats_random_significantly_and_the_report_says_so() -> None:
    out = run(spec(seed=11), 150)
    s = summarize(out)
    assert s.hands == 300 and out.complete and not out.interrupted
    assert s.per_hand is not None and s.margin is not None
    assert s.per_hand[0].low > s.per_hand[1].high
    assert s.margin.low > 0.5 and s.leader == 0
    assert s.margin == mean_ci([r.margin for r in out.results])  # on duplicate sets
    text = to_text(out)
    assert "significant: rule is stronger" in text and "300 hands" in text


def test_the_split_names_the_first_decision_the_seatings_made_differently() -> None:
    # Dealer North (0): East is eldest, South second, West third.
    a = [(BID1, 1, 0, 80), (BID1, 2, 0, 81), (PLAY, 1, 0, 9)]
    assert first_difference(a, a, 0, 4) == SAME
    b = [(BID1, 1, 0, 80), (BID1, 2, 0, 80), (BID1, 3, 0, 80)]
    assert first_difference(a, b, 0, 4) == "round one, second"
    c = [(BID1, 1, 0, 80), (BID1, 2, 0, 81), (PLAY, 1, 0, 10)]
    assert first_difference(a, c, 0, 4) == "trick 1, eldest"
    assert first_difference(a, a[:2], 0, 4) == SAME  # alike as far as the shorter went


def test_the_split_adds_up_to_the_margin_and_a_player_against_itself_plays_alike() -> None:
    out = run(spec(RULE, PlayerSpec("rule-v1"), paired_seeds=True, seed=5), 120)
    rows = split(out)
    assert rows is not None
    s = summarize(out)
    assert s.margin is not None
    assert math.isclose(sum(r.contribution for r in rows), s.margin.mean, abs_tol=1e-12)
    assert sum(r.margin.n for r in rows) == 120
    assert len({r.where for r in rows}) == len(rows)
    for r in rows:  # each bin's margin is the mean of its deals' margins
        ms = [u.margin for u in out.results if u.split == r.where]
        assert r.margin == mean_ci(ms)
        if r.where == SAME:
            assert set(ms) == {0.0}
        else:
            what, where = r.where.split(", ")
            assert where in ("eldest", "second", "third", "dealer"), r.where
            assert what in ("round one", "round two", "discard", "defend") \
                or what.startswith("trick "), r.where
    assert rows[-1].where == SAME  # deals played alike come last
    moving = [abs(r.contribution) for r in rows if r.where != SAME]
    assert moving == sorted(moving, reverse=True) and moving[0] > 0
    alike = run(spec(RULE, RULE, paired_seeds=True, seed=5), 40)
    assert [(r.where, r.margin.n, r.contribution) for r in split(alike) or []] == [(SAME, 40, 0)]
    assert "where the two seatings first differed" in to_text(out, with_split=True)
    assert "first differed" not in to_text(out)
    assert to_json(out)["split"] == [r.to_dict() for r in rows]
    assert split(run(spec(rules=preset("cutthroat")), 4)) is None  # six seatings: no split
    assert split(run(spec(games=True, rules=Rules(target=3)), 2)) is None


def test_results_do_not_depend_on_workers_and_change_with_the_seed() -> None:
    one = run(spec(rules=preset("cutthroat"), seed=3), 60, workers=1)
    two = run(spec(rules=preset("cutthroat"), seed=3), 60, workers=2)
    assert one.results == two.results
    assert to_json(one)["margin"] == to_json(two)["margin"]
    other = run(spec(rules=preset("cutthroat"), seed=4), 60, workers=1)
    assert other.results != one.results


@pytest.mark.slow
def test_ray_backend_gives_the_same_results_as_processes() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        on_ray = run(spec(seed=5), 40, workers=2, backend="ray")
    finally:
        ray.shutdown()
    assert on_ray.backend == "ray"
    assert on_ray.results == run(spec(seed=5), 40, workers=1).results


# --------------------------------------------------------------------------------------------
# The command


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        rc = main(["tournament", *argv])
    except SystemExit as exc:  # argparse's usage errors
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("argv, says", [
    (["rule", "nobody"], "unknown bot 'nobody'; choose one of"),
    (["rule", "random", "--hands", "0"], "must be a whole number 1..100000000, not '0'"),
    (["rule", "random", "--hands", "10", "--games", "2"], "not allowed with"),
    (["rule", "random", "--workers", "x"], "must be a whole number 1..1024, not 'x'"),
    (["rule", "random", "--games", "1_0"], "must be a whole number 1..10000000"),
    (["rule", "random", "--address", "ray://x:1"], "use it with --backend ray"),
    (["rule:depth=3", "random"], "unknown bot option(s) depth"),
    (["rule:depth", "random"], "KEY=VALUE"),
    (["rule", "random", "--players", "2", "--defend-alone"], "no defending alone"),
    (["rule", "random", "--plot", "x.svg"], "FILE.png"),
    (["rule", "openspiel-ismcts", "--target", "5"], "--preset openspiel"),
    (["rule", "openspiel-ismcts:sims=0"], "sims must be"),
    (["rule", "openspiel-ismcts:depth=2"], "options are sims=N"),
    (["openspiel-ismcts", "openspiel-ismcts"], "only one side"),
    (["rule", "random", "--think", "0"], "think must be a number of deals"),
    (["rule", "random", "--think", "soon"], "think must be a number of deals"),
    (["rule", "random", "--clock", "sundial"], "invalid choice: 'sundial'"),
    (["search:think=-1", "random"], "think must be a number of deals"),
    (["rule", "openspiel-ismcts", "--games", "3"], "use --hands"),
    (["rule", "random", "--games", "3", "--split"], "a game's seatings differ"),
    (["rule", "random", "--players", "3", "--split"], "cutthroat plays each deal from six"),
    (["rule", "openspiel-ismcts", "--split"], "the OpenSpiel peers play in"),
])
def test_bad_input_is_one_clear_line_and_exit_status_2(
        capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    rc, out, err = _cli(capsys, *argv)
    assert rc == 2 and says in err and "Traceback" not in err, err
    assert out == ""


def test_json_output_follows_the_documented_schema(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    png = tmp_path / "margin.png"
    rc, out, _ = _cli(capsys, "rule", "random", "--hands", "40", "--workers", "1", "--json",
                      "--plot", str(png), "--seed", "2")
    assert rc == 0
    data = json.loads(out)
    assert data["schema"] == "euchre-tournament/1"
    assert data["players"] == ["rule", "random"] and data["mode"] == "hands"
    assert data["units"] == data["requested_units"] == 20 and data["hands"] == 40
    assert data["complete"] and not data["interrupted"]
    for side in data["sides"]:
        ci = side["points_per_hand"]
        assert ci["low"] <= ci["mean"] <= ci["high"] and ci["n"] == 20
    assert data["significant"] == (data["leader"] is not None)
    for side in data["sides"]:
        assert side["decisions"] > 0
        assert 0 <= side["think_ms_p50"] <= side["think_ms_p95"] <= side["think_ms_max"]
    assert data["think"] is None and data["paired_seeds"] is False and data["clock"] == "wall"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_think_paired_seeds_and_clock_flags_reach_the_result(
        capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _cli(capsys, "random", "random", "--hands", "20", "--workers", "1", "--json",
                      "--think", "3", "--paired-seeds", "--clock", "cpu")
    data = json.loads(out)
    assert rc == 0 and data["think"] == "3" and data["paired_seeds"] and data["clock"] == "cpu"
    assert data["margin"]["mean"] == data["margin"]["low"] == data["margin"]["high"] == 0
    rc, out, _ = _cli(capsys, "search", "rule", "--hands", "2", "--workers", "1", "--think", "2")
    assert rc == 0 and "think 2" in out and "search  decisions p50" in out


def test_games_mode_reports_games_won(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _cli(capsys, "rule", "random", "--games", "3", "--target", "5", "--workers",
                      "1", "--json", "--players", "2")
    data = json.loads(out)
    assert rc == 0 and data["mode"] == "games" and data["rules"]["target"] == 5
    assert sum(s["games_won"] for s in data["sides"]) == data["sides"][0]["games"] == 6


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_ctrl_c_stops_workers_and_prints_the_result_so_far(stop: int) -> None:
    # SIGTERM too: a run started in the background ignores Ctrl-C's signal from birth.
    proc = subprocess.Popen(
        [EUCHRE, "tournament", "rule", "random", "--hands", "2000000", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert "2 workers" in proc.stderr.readline()  # announced: the pool is starting
    deadline = time.monotonic() + 90
    children: list[int] = []
    while time.monotonic() < deadline and len(children) < 2:
        time.sleep(0.2)
        children = _children(proc.pid)
    while time.monotonic() < deadline and sum(map(_cpu_seconds, children)) < 2.0:
        time.sleep(0.2)  # let the workers start and finish some deals, however busy the machine
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "(interrupted)" in out and "points/hand" in out and "Traceback" not in err
    deadline = time.monotonic() + 10  # the pool's helpers exit once the parent's pipes close
    alive = children
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in children if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
    assert not alive, "a worker outlived Ctrl-C"


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except OSError:
        return True


# --------------------------------------------------------------------------------------------
# The OpenSpiel peer


def test_peer_match_plays_duplicate_deals_refereed_by_openspiel() -> None:
    pytest.importorskip("pyspiel")
    from euchre.compat.openspiel import rules_for

    s = spec(RULE, parse_player("openspiel-ismcts:sims=5"), rules_for(), seed=1)
    a = [play_unit(s, i) for i in range(2)]
    assert a == [play_unit(s, i) for i in range(2)]  # seeded: the same games again
    for r in a:
        assert r.hands == 2 and r.decisions[1] > 0
        assert r.points[0] >= 0 and r.points[1] >= 0
    native = spec(RULE, parse_player("openspiel-ismcts:sims=5,native=1"), rules_for(), seed=1)
    assert play_unit(native, 0).hands == 2


def test_consistent_resampler_moves_the_kitty_and_keeps_the_seats_information() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from euchre.compat.openspiel import OS_PASS, OS_SUIT_BASE, load_game, rules_for
    from euchre.tournament.openspiel_peer import ConsistentResampler, mirror_of, trump_named

    game, rules = load_game(), rules_for()
    cards = list(range(24))
    chance = [0, *cards[:21]]  # dealer North; the up-card is card 20 (9 of clubs... any)
    up_suit = chance[21] % 4
    named = [OS_SUIT_BASE + s for s in range(4) if s != up_suit][:2]

    def state(acts: list[int]) -> object:
        s = game.new_initial_state()
        for x in chance + acts:
            s.apply_action(x)
        return s

    # OpenSpiel's fault: the eldest's round-two call reads the same whatever the suit ...
    s1, s2 = state([OS_PASS] * 4 + [named[0]]), state([OS_PASS] * 4 + [named[1]])
    assert s1.information_state_string(2) == s2.information_state_string(2)  # type: ignore[attr-defined]
    # ... so ISMCTS's node keys carry the suit read from the history.
    assert trump_named(s1.history()) != trump_named(s2.history()) != -1  # type: ignore[attr-defined]
    # OpenSpiel's resampler never moves the kitty; ours draws it among the unseen cards.
    player = 1
    sampler = ConsistentResampler(game, rules, seed=3)
    kitties, native = set(), set()
    for _ in range(60):
        w = sampler(s1, player)
        assert w.information_state_string(player) == s1.information_state_string(player)  # type: ignore[attr-defined]
        kitties.add(frozenset(mirror_of(rules, w.history()).kitty))
        n = s1.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))  # type: ignore[attr-defined]
        native.add(frozenset(mirror_of(rules, n.history()).kitty))
    assert len(native) == 1 and len(kitties) > 10


def test_chunks_are_sized_to_about_a_second_of_measured_work() -> None:
    from euchre.tournament.runner import MAX_CHUNK, _Sizer

    fast, slow = _Sizer(), _Sizer()
    assert fast.size() == slow.size() == 1  # nothing measured yet: one unit at a time
    fast.add(100, 0.05)  # half a millisecond a unit
    slow.add(2, 9.0)  # a search bot: seconds a unit
    assert fast.size() == MAX_CHUNK and slow.size() == 1
    fast.add(100, 9.95)  # now 0.05 s a unit on average
    assert fast.size() == 20
