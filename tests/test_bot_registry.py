"""The bot registry: levels a person picks, baselines, plug-in specs, register, entry points."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from euchre.bots import (
    BOT_NAMES,
    NamedSpecs,
    RandomBot,
    check_spec,
    is_level,
    level_names,
    make_bot,
    player_levels,
    refresh_installed,
    register,
    unregister,
)
from euchre.bots.base import Bot
from euchre.cli import main
from euchre.match import Match
from euchre.rules import Rules
from euchre.tournament import parse_player
from euchre.view import SeatView

ROOT = Path(__file__).resolve().parent.parent
BASELINES = ("pimc-naive", "pimc-full", "pimc-uniform", "rule-v1")


def _play(bots: list[Bot], seed: int = 1) -> list[int]:
    m = Match(Rules(target=3), seed=seed)
    out = []
    while not m.is_terminal():
        a = bots[m.current_player].choose(m.view(m.current_player))
        out.append(a)
        m.apply_action(a)
    return out


def _first_view() -> SeatView:
    m = Match(Rules(), seed=1)
    return m.view(m.current_player)


def test_menus_offer_players_and_the_tournament_keeps_the_baselines(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert player_levels() == ("beginner", "casual", "club", "expert")  # the rating ladder
    view = _first_view()
    for name in BASELINES:
        assert name in level_names() and name not in player_levels()
        assert make_bot(name, 0, think=8).choose(view) in view.legal_actions  # still built
        assert parse_player(name).make(0, think="8").choose(view) in view.legal_actions
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(expert): beginner, casual, club, expert (--levels says how strong each is" in text
    assert not any(name in text for name in BASELINES)


def test_module_spec_builds_the_same_player_as_its_level() -> None:
    spec = "euchre.bots.random_bot:RandomBot"
    assert _play([make_bot(spec, s) for s in range(4)]) == \
        _play([make_bot("random", s) for s in range(4)])
    assert make_bot(spec, 0, think=100)  # one budget works for every player: ignored here


def test_file_spec_loads_the_example() -> None:
    bot = make_bot(str(ROOT / "examples/python_bot.py") + ":LowCard", 1)
    assert bot.name == "low-card"
    assert len(_play([bot, make_bot("rule", 1), bot, make_bot("rule", 3)])) > 10


@pytest.mark.parametrize(("spec", "message"), [
    ("no_such_module_x:make", "cannot import no_such_module_x"),
    ("euchre.bots:no_such_factory", "has no callable no_such_factory"),
    ("nosuchlevel", "unknown bot 'nosuchlevel'; choose one of: beginner, casual, club, expert, "
                    "random, rule, search"),
    ("cmd:", "cmd: needs a command line"),
    ("cmd:node 'unclosed", "quote as in a shell"),
    ("nofile_here.py:make", "cannot import nofile_here.py"),
])
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match="^.*" + message.replace("(", r"\(")):
        make_bot(spec, 0)
    with pytest.raises(ValueError):
        check_spec(spec)


def test_factory_options_are_checked() -> None:
    with pytest.raises(ValueError, match="does not take these options"):
        make_bot("euchre.bots.random_bot:RandomBot", 0, depth=3)
    with pytest.raises(ValueError, match="no choose"):
        make_bot("builtins:str", 0)


def test_register_makes_a_level_everywhere_until_unregistered() -> None:
    made: list[int | None] = []

    def factory(seed: int | None) -> Bot:
        made.append(seed)
        return RandomBot(seed)

    register("my-test-bot", factory)
    try:
        assert is_level("my-test-bot") and "my-test-bot" in player_levels()
        view = _first_view()
        assert make_bot("my-test-bot", 7).choose(view) == RandomBot(7).choose(view)
        assert made == [7]
        assert parse_player("my-test-bot").make(5, think="10")  # think dropped for it
        register("my-spec-bot", "euchre.bots.random_bot:RandomBot", for_players=False)
        assert "my-spec-bot" in level_names() and "my-spec-bot" not in player_levels()
        assert make_bot("my-spec-bot", 2)
    finally:
        unregister("my-test-bot")
        unregister("my-spec-bot")
    assert not is_level("my-test-bot")
    with pytest.raises(ValueError, match="built-in level"):
        register("rule", factory)
    with pytest.raises(ValueError, match="without ':'"):
        register("a:b", factory)


def test_entry_points_add_levels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ep_bot_mod.py").write_text(
        "from euchre.bots import RandomBot\n\ndef make(seed=None):\n    return RandomBot(seed)\n")
    dist = tmp_path / "ep_bot-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: ep-bot\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[euchre.bots]\nep-bot = ep_bot_mod:make\nrule = ep_bot_mod:make\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    refresh_installed()
    try:
        assert "ep-bot" in player_levels()
        assert _play([make_bot("ep-bot", s) for s in range(4)]) == \
            _play([make_bot("random", s) for s in range(4)])
        assert BOT_NAMES.count("rule") == 1 and make_bot("rule", 0).name == "rule"  # not taken
    finally:
        monkeypatch.undo()
        refresh_installed()
        sys.modules.pop("ep_bot_mod", None)
    assert "ep-bot" not in level_names()


def test_openspiel_specs_name_the_tournament_peer() -> None:
    p = parse_player("openspiel:ismcts:sims=20")
    assert p.is_peer and dict(p.options) == {"sims": 20}
    with pytest.raises(ValueError, match="plays only in euchre tournament"):
        make_bot("openspiel:ismcts", 0)


def test_parse_player_reads_every_spec_form() -> None:
    assert parse_player("search:think=100").name == "search"
    assert parse_player("cmd:node bot.js --depth=3").name == "cmd:node bot.js --depth=3"
    p = parse_player("my_pkg.bots:make:depth=3")
    assert (p.name, p.options) == ("my_pkg.bots:make", (("depth", 3),))
    assert parse_player("examples/python_bot.py:LowCard").name == "examples/python_bot.py:LowCard"


def test_tournament_and_play_take_a_plug_in() -> None:
    spec = str(ROOT / "examples/python_bot.py") + ":LowCard"
    assert main(["tournament", spec, "rule", "--hands", "8", "--workers", "1", "--quiet"]) == 0
    assert main(["play", "--watch", "--delay", "0", "--seed", "2", "--target", "2",
                 "--level", spec]) == 0


def test_play_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--level", "nosuch"])
    assert "unknown bot 'nosuch'" in capsys.readouterr().err


def test_serve_names_bots_that_workers_can_build() -> None:
    import pickle

    from euchre.cli.serve import named_bot

    named = NamedSpecs(dict([named_bot("mine=euchre.bots.random_bot:RandomBot")]))
    factory = pickle.loads(pickle.dumps(named))
    view = _first_view()
    assert factory("mine", 3).choose(view) == make_bot("random", 3).choose(view)
    assert factory("rule", 3).choose(view) == make_bot("rule", 3).choose(view)
    import argparse

    for bad, why in (("rule=random", "built-in"), ("x", "NAME=SPEC"), ("y=nosuch", "unknown")):
        with pytest.raises(argparse.ArgumentTypeError, match=why):
            named_bot(bad)


def test_the_browser_table_offers_and_plays_a_bot_given_with_serve_bot(
        sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    from webtools import LiveServer

    from euchre.cli.serve import named_bot

    monkeypatch.setenv("EUCHRE_BOT_LOG_DIR", str(tmp_path))
    node = f"cmd:node {ROOT / 'examples/node_bot.js'}"
    bots = NamedSpecs(dict([named_bot(f"node-ex={node}")]), fallback="rule")
    bots.register_all()
    try:
        with LiveServer(db_url=sqlite_url, bot_factory=bots) as srv:
            status, opts = srv.get("/api/options")
            assert status == 200 and opts["levels"] == [*player_levels()]
            assert opts["levels"][-1] == "node-ex"
            t = srv.create(my_seat=-1, rules={"target": 2},
                           seats=[{"kind": "computer", "level": "node-ex" if i % 2 else "rule"}
                                  for i in range(4)])
            c = srv.connect(t["id"])
            end = c.until_state(lambda s: s["finished"], timeout=90)
            assert max(end["scores"]) >= 2
        logs = list(tmp_path.glob("*.log"))  # each start of the program writes a header
        assert len(logs) == 1 and "cmd:node" in logs[0].read_text()
        assert "plays this move" not in caplog.text  # the program's own moves, no stand-in
    finally:
        unregister("node-ex")
        from euchre.bots.protocol import set_fault_handler, stop_all

        set_fault_handler(None)  # the fallback was installed in this process (thread pool)
        stop_all()


def test_a_served_bot_that_breaks_down_hands_its_move_to_the_fallback(
        caplog: pytest.LogCaptureFixture) -> None:
    from euchre.bots.protocol import set_fault_handler, stop_all

    broken = f"cmd:{sys.executable} {ROOT / 'examples/broken_bot.py'} illegal"
    bots = NamedSpecs({"broken": broken}, fallback="rule")
    m = Match(Rules(), seed=4)
    try:
        while not m.is_terminal() and "plays this move" not in caplog.text:
            view = m.view(m.current_player)
            action = bots("broken", 1).choose(view)  # a fresh bot per move, as the server does
            assert action in view.legal_actions
            m.apply_action(action)
        assert "which is not legal" in caplog.text and "; rule plays this move" in caplog.text
    finally:
        set_fault_handler(None)
        stop_all()


def test_review_asks_a_plug_in_what_it_would_have_chosen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    record = tmp_path / "game.json"
    assert main(["play", "--watch", "--delay", "0", "--seed", "5", "--target", "1",
                 "--level", "random", "--save", str(record)]) == 0
    capsys.readouterr()
    spec = str(ROOT / "examples/python_bot.py") + ":LowCard"
    assert main(["review", str(record), "--bot", spec, "--play-deals", "4", "--bid-deals", "4",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    compared = out["bot"]
    assert compared["spec"] == spec and compared["decisions"] == len(out["decisions"]) > 0
    assert 0 <= compared["best_choices"] <= compared["decisions"]
    assert all(c["loss"] is None or c["loss"] >= 0 for c in compared["choices"])
    with pytest.raises(SystemExit):
        main(["review", str(record), "--bot", "nosuch"])


def test_a_top_level_module_factory_is_a_plug_in_in_the_tournament_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``my_euchre_bot:make`` in the current folder: a factory, not a level with options, and
    found there as ``python -m`` would find it (the installed command does not search it)."""
    (tmp_path / "my_euchre_bot_x.py").write_text(
        "from euchre.bots.random_bot import RandomBot\n\n"
        "def make(seed=None, depth=1):\n    return RandomBot(seed)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    p = parse_player("my_euchre_bot_x:make")
    assert (p.name, p.options) == ("my_euchre_bot_x:make", ())
    p = parse_player("my_euchre_bot_x:make:depth=3")
    assert (p.name, p.options) == ("my_euchre_bot_x:make", (("depth", 3),))
    assert parse_player("rule:think=8").name == "rule"  # a level's options as before
    with pytest.raises(ValueError, match="options are KEY=VALUE"):
        parse_player("rule:fast")
    assert main(["tournament", "my_euchre_bot_x:make", "random", "--hands", "4",
                 "--workers", "2", "--quiet"]) == 0
    assert str(tmp_path) == sys.path[-1]  # searched last: never hides an installed module
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(tmp_path)])
    with pytest.raises(ValueError, match="cannot import no_such_bot_module"):
        check_spec("no_such_bot_module:make")
    assert str(tmp_path) not in sys.path  # a failed look-up leaves the path as it was
