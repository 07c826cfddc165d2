"""Learning from one's games in the terminal: a game's clear mistakes written as puzzles by
``euchre review --puzzles`` and posed in turn by ``euchre puzzle --all``; the bidding trainer
``euchre train-bids`` (clear positions only, every bid's value with its error); and the
trainer's positions from the library."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from euchre import actions as A
from euchre.analysis.puzzles import load_puzzles, puzzle_view
from euchre.analysis.reference import stored_game
from euchre.cli import main
from euchre.rules import Rules


def test_a_games_clear_mistakes_become_puzzles_that_replay_and_are_posed_in_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, text = stored_game()
    game, out = tmp_path / "game.json", tmp_path / "mine.json"
    game.write_text(text)
    deals = ["--play-deals", "12", "--bid-deals", "12"]
    assert main(["review", str(game), "--seat", "east", "--json", *deals]) == 0
    review = json.loads(capsys.readouterr().out)
    clear = sorted((d for d in review["decisions"] if d["clear"]),
                   key=lambda d: (d["hand"], d["index"]))
    assert clear and {d["seat"] for d in clear} == {1}
    assert main(["review", str(game), "--seat", "east", "--puzzles", str(out), *deals]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert f"{len(clear)} clear mistake" in said and f"euchre puzzle --file {out} --all" in said
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, json.loads(resources.files("euchre.analysis").joinpath(
        "schemas/puzzles.schema.json").read_text(encoding="utf-8")))
    assert doc["source"] == {"record": str(game), "seat": 1,
                             "players": review["players"]}
    ps = load_puzzles(out.read_text())  # every position replays to East to move
    assert len(ps.puzzles) == len(clear)
    for p, d in zip(ps.puzzles, clear, strict=True):
        view = puzzle_view(ps.rules, p)
        assert view.seat == p.seat == 1 and (p.hand, p.index) == (d["hand"], d["index"])
        assert A.action_to_str(p.answer) == d["best"] and A.action_to_str(p.choice) == \
            d["choice"]
        assert p.objective == "win" and p.gap == d["loss"] and p.explanation == \
            d["why"].split("; solved")[0].split("; played")[0] + "."
    # posed in turn: the right answer to the first, the game's own choice to the others
    answers = iter([A.action_to_str(ps.puzzles[0].answer).split()[-1]] +
                   [A.action_to_str(p.choice).split()[-1] for p in ps.puzzles[1:]])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["puzzle", "--file", str(out), "--all"]) == 0
    posed = " ".join(capsys.readouterr().out.split())
    assert posed.count("In the game you chose") == len(ps.puzzles)
    assert posed.count("Right!") == 1 and f"1 of {len(ps.puzzles)} right." in posed
    if len(ps.puzzles) > 1:
        assert "of the chance to win the game. The answer is" in posed
    assert main(["puzzle", "--file", str(out), "--all", "--number", "1"]) == 2
    assert "--all poses every puzzle in turn" in capsys.readouterr().err


def test_the_bidding_trainer_poses_a_clear_position_and_values_every_bid(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train-bids", "--seed", "1", "--round", "1", "--answer", "pass"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("Position 1: you are ") and "Your bids: 1. Pass, 2." in out
    assert ("Right: Pass is the best bid." in out) != ("Not the best: Pass brings " in out)
    assert "Every bid over " in out and "±95%" in out and "Clearly worse: " in out
    # a wrong bid is told by one gap, the range the verdict rests on (not a value and a range)
    assert main(["train-bids", "--seed", "1", "--round", "1", "--answer", "order up"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert re.search(r"Not the best: Order up brings 0\.[0-9]+ to [0-9.]+ points less than "
                     r"Pass\. Every bid over", out), out
    assert "Score: " in out and "best." in out
    assert main(["train-bids", "--seed", "1", "--round", "1", "--answer", "call H"]) == 2
    assert "is not one of your bids" in capsys.readouterr().out
    assert main(["train-bids", "--preset", "two-handed-rows"]) == 2
    assert "five-card hands" in capsys.readouterr().err


def test_trainer_positions_are_clear_replay_and_follow_their_seed() -> None:
    from euchre.analysis.puzzles import puzzle_state
    from euchre.analysis.trainer import THRESHOLD, positions, trainer_position

    rules = Rules()
    first = [trainer_position(p) for _, p in zip(range(3), positions(rules, 7), strict=False)]
    again = [trainer_position(p) for _, p in zip(range(3), positions(rules, 7), strict=False)]
    assert first == again
    for pos, p in zip(first, positions(rules, 7), strict=False):
        st = puzzle_state(rules, p.puzzle)
        assert st.cur == pos["seat"] and A.action_from_str(pos["answer"]) in st.legal_actions()
        assert pos["values"][0]["action"] == pos["answer"]
        assert all(v["firm"] and v["behind"] >= THRESHOLD for v in pos["values"][1:])
    from euchre.rules import PRESETS

    with pytest.raises(ValueError, match="five-card hands"):
        next(positions(PRESETS["two-handed-rows"]))

