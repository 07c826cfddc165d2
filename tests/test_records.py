"""Game records: a match round-trips through its JSON record for every preset, every malformed
or tampered record is refused with a RecordError naming where, and ``euchre replay FILE``
validates a file and prints it (exit 0), or says in one line why not (exit 1; 2 when unreadable).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from euchre.errors import RecordError
from euchre.match import Match
from euchre.record import FORMAT, VERSION, from_json, match_to_record, to_json
from euchre.rules import PRESETS, Rules

pytestmark = pytest.mark.core

RULE_SETS: dict[str, Rules] = {
    **PRESETS,
    "swap-penalize-joker": Rules(deck=25, farmers_hand="swap", no_ace_no_face=True,
                                 renege="penalize", first_dealer="black_jack"),
    "redeal-defend-alone": Rules(farmers_hand="redeal", defend_alone=True, target=5),
    "two-handed-32": Rules(players=2, deck=32, stick_the_dealer=True),
}

EUCHRE = Path(sys.executable).parent / "euchre"


def play(match: Match, rng: random.Random, steps: int | None = None) -> Match:
    """Random legal actions until the match ends (or ``steps`` actions)."""
    done = 0
    while not match.is_terminal() and (steps is None or done < steps):
        match.apply_action(rng.choice(match.legal_actions()))
        done += 1
    return match


def finished_match(rules: Rules, seed: int = 1) -> Match:
    return play(Match(rules, seed=seed), random.Random(seed))


def record_of(rules: Rules, seed: int = 1) -> dict[str, Any]:
    return match_to_record(finished_match(rules, seed))


def hand_state(match: Match) -> tuple[Any, ...]:
    h = match.hand
    return (h.dealer, h.deck, tuple(h.history), tuple(h.hands), h.phase, h.cur, h.trump,
            h.maker, h.alone, tuple(h.tricks), h.trick, h.points, h.outcome)


# --------------------------------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_record_round_trip_of_a_finished_match(name: str) -> None:
    m = finished_match(RULE_SETS[name], seed=3)
    text = to_json(m)
    again = from_json(text)
    assert again.rules == m.rules
    assert again.scores == m.scores and again.winner == m.winner
    assert again.finished == m.finished
    assert again.first_dealer == m.first_dealer
    assert to_json(again) == text  # writing the replayed match gives the same record


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_record_round_trip_keeps_the_hand_in_progress_and_continues_identically(
    name: str,
) -> None:
    rules = RULE_SETS[name]
    full = finished_match(rules, seed=4)
    total = sum(len(f.actions) for f in full.finished)
    rng = random.Random(4)
    m = play(Match(rules, seed=4), rng, steps=total // 2 + 1)
    assert not m.is_terminal()
    again = from_json(to_json(m))
    assert again.finished == m.finished and again.scores == m.scores
    assert hand_state(again) == hand_state(m)
    assert again.legal_actions() == m.legal_actions()
    # Both continue with the same choices: later deals come from the same seeded generator.
    state = rng.getstate()
    play(m, rng)
    rng.setstate(state)
    play(again, rng)
    assert again.finished == m.finished and again.winner == m.winner


def test_record_holds_the_rules_options_and_player_names() -> None:
    rules = RULE_SETS["swap-penalize-joker"]
    m = finished_match(rules)
    rec = json.loads(to_json(m, players=["Ann", "Bob", "Cy", "Di"]))
    assert rec["format"] == FORMAT and rec["version"] == VERSION
    assert rec["rules"] == {"deck": 25, "farmers_hand": "swap", "no_ace_no_face": True,
                            "renege": "penalize", "first_dealer": "black_jack"}
    assert rec["players"] == ["Ann", "Bob", "Cy", "Di"]
    assert from_json(json.dumps(rec)).scores == m.scores


# --------------------------------------------------------------------------------------------
# Malformed and tampered records


def refused(rec: Any) -> str:
    """The RecordError message for a record (a dict, or raw text)."""
    text = rec if isinstance(rec, str) else json.dumps(rec)
    with pytest.raises(RecordError) as info:
        from_json(text)
    return str(info.value)


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    rec = record_of(Rules(), seed=3)
    assert len(rec["hands"]) >= 3
    return rec


def tampered(good: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(good)


def test_record_bad_json_is_refused_with_its_position() -> None:
    assert refused('{"format": "euchre-record",').startswith("not valid JSON: ")
    assert "line 1 column 1" in refused("")
    assert refused("[" * 100_000 + "]" * 100_000).startswith("not a record")
    assert refused("[]") == "record: must be a JSON object"


def test_record_truncated_text_is_refused(good: dict[str, Any]) -> None:
    text = json.dumps(good)
    assert refused(text[: len(text) // 2]).startswith("not valid JSON")


def test_record_wrong_format_or_version_is_refused(good: dict[str, Any]) -> None:
    rec = tampered(good)
    rec["format"] = "chess-pgn"
    assert refused(rec) == "record: 'format' must be 'euchre-record', not 'chess-pgn'"
    rec = tampered(good)
    rec["version"] = VERSION + 1
    assert refused(rec).startswith(f"record: unsupported version {VERSION + 1}")
    rec = tampered(good)
    del rec["version"]
    assert refused(rec).startswith("record: unsupported version None")


def test_record_unknown_or_bad_rules_option_is_refused(good: dict[str, Any]) -> None:
    rec = tampered(good)
    rec["rules"] = {"stick_the_dealer": True, "screw_the_dealer": True}
    msg = refused(rec)
    assert msg.startswith("rules: unknown rules option(s) 'screw_the_dealer'")
    rec["rules"] = {"players": 5}
    assert refused(rec) == "rules: players must be 2, 3 or 4, not 5"
    rec["rules"] = {"scoring": {"march": -2}}
    assert "scoring.march" in refused(rec)
    rec["rules"] = ["players", 4]
    assert refused(rec).startswith("rules: rules must be an object")


def test_record_bad_card_in_a_deck_is_refused(good: dict[str, Any]) -> None:
    rec = tampered(good)
    rec["hands"][1]["deck"][5] = "1Z"
    assert refused(rec).startswith("hand 2: deck: '1Z' is not a card")
    rec = tampered(good)
    rec["hands"][0]["deck"][0] = 9
    assert refused(rec).startswith("hand 1: 'deck' must be a list of cards")
    rec = tampered(good)
    rec["hands"][2]["deck"][0] = "8C"  # a real card, but not in a 24-card deck
    assert refused(rec).startswith("hand 3: deck: 8C is not in the 24-card deck")


def test_record_duplicate_or_missing_card_in_a_deck_names_the_card_and_hand(
    good: dict[str, Any],
) -> None:
    rec = tampered(good)
    deck = rec["hands"][2]["deck"]
    deck[7] = deck[3]
    assert refused(rec) == f"hand 3: deck: {deck[3]} appears twice"
    rec = tampered(good)
    gone = rec["hands"][1]["deck"].pop()
    assert refused(rec) == f"hand 2: deck: holds 23 cards, not 24; missing {gone}"


def test_record_illegal_action_is_refused_with_hand_and_action_number(
    good: dict[str, Any],
) -> None:
    rec = tampered(good)
    acts = rec["hands"][1]["actions"]
    # The first action of a hand is a bid: a card play is not allowed there.
    acts[0] = "play " + rec["hands"][1]["deck"][0]
    msg = refused(rec)
    assert msg.startswith(f"hand 2, action 1 ({acts[0]!r}): ")
    assert "not allowed now" in msg
    rec = tampered(good)
    rec["hands"][0]["actions"][0] = "dance a jig"
    assert refused(rec).startswith("hand 1, action 1 ('dance a jig'): ")
    rec = tampered(good)
    rec["hands"][0]["actions"].append("pass")
    n = len(rec["hands"][0]["actions"])
    assert refused(rec) == f"hand 1, action {n}: 'pass' comes after the hand was over"


def test_record_tampered_points_scores_outcome_or_winner_are_refused(
    good: dict[str, Any],
) -> None:
    rec = tampered(good)
    real = rec["hands"][0]["points"]
    rec["hands"][0]["points"] = [p + 1 for p in real]
    assert refused(rec).startswith("hand 1: points ")
    rec = tampered(good)
    rec["scores"] = [s + 1 for s in rec["scores"]]
    assert refused(rec).startswith("record: scores ")
    rec = tampered(good)
    rec["scores"] = [bool(s) for s in rec["scores"]]  # true == 1 in Python, never in a record
    assert refused(rec).startswith("record: scores ")
    rec = tampered(good)
    rec["hands"][0]["outcome"] = "misdeal"
    assert refused(rec).startswith("hand 1: outcome 'misdeal' does not match")
    rec = tampered(good)
    rec["winner"] = 1 - rec["winner"]
    assert refused(rec).startswith("record: winner ")


def test_record_wrong_dealer_is_refused(good: dict[str, Any]) -> None:
    rec = tampered(good)
    right = rec["hands"][1]["dealer"]
    rec["hands"][1]["dealer"] = (right + 1) % 4
    assert refused(rec) == (f"hand 2: dealer should be seat {right} (the deal passes left), "
                            f"not {(right + 1) % 4}")
    rec = tampered(good)
    rec["first_dealer"] = 4
    assert refused(rec) == "record: 'first_dealer' must be a seat 0..3"


def test_record_truncated_hands_or_actions_are_refused(good: dict[str, Any]) -> None:
    rec = tampered(good)
    rec["hands"] = rec["hands"][:-1]
    assert refused(rec).startswith("record: scores ")
    rec = tampered(good)
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:-1]
    assert refused(rec) == "hand 1: has points but its actions do not finish it"
    rec = tampered(good)
    del rec["hands"][0]["points"]
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:-1]
    assert refused(rec) == "hand 1: has an outcome but its actions do not finish it"
    rec = tampered(good)
    for h in rec["hands"]:
        h.pop("points")
        h.pop("outcome")
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:-1]
    assert refused(rec) == "hand 1: is unfinished but more hands follow"


def test_record_hands_after_the_match_ended_are_refused(good: dict[str, Any]) -> None:
    rec = tampered(good)
    rec["hands"].append(copy.deepcopy(rec["hands"][-1]))
    assert refused(rec).startswith(f"hand {len(rec['hands'])}: the match was already over")


def test_record_bad_shapes_are_refused(good: dict[str, Any]) -> None:
    rec = tampered(good)
    rec["hands"] = {"1": rec["hands"][0]}
    assert refused(rec) == "record: 'hands' must be a list"
    rec = tampered(good)
    rec["hands"][0] = "deal"
    assert refused(rec) == "hand 1: must be an object"
    rec = tampered(good)
    rec["hands"][0]["actions"] = "pass pass"
    assert refused(rec) == "hand 1: 'actions' must be a list of action texts"
    rec = tampered(good)
    rec["seed"] = "lucky"
    assert refused(rec) == "record: 'seed' must be an integer or null"
    rec = tampered(good)
    rec["players"] = ["Ann", "Bob"]
    assert refused(rec) == "record: 'players' must be a list of 4 names"


# --------------------------------------------------------------------------------------------
# euchre replay FILE


def run_replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EUCHRE), "replay", *args], capture_output=True, text=True,
                          timeout=60, check=False)


def test_replay_command_prints_hands_and_final_score(tmp_path: Path) -> None:
    m = finished_match(Rules(), seed=3)
    path = tmp_path / "game.json"
    path.write_text(to_json(m), encoding="utf-8")
    done = run_replay(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    for i in range(1, len(m.finished) + 1):
        assert f"Hand {i}\n" in out
    ns, ew = m.scores
    winner = "North-South" if m.winner == 0 else "East-West"
    assert out.rstrip().splitlines()[-1] == (
        f"Final: North-South {ns}, East-West {ew}; {winner} win"
    )
    quiet = run_replay("-q", str(path))
    assert quiet.returncode == 0 and quiet.stdout.strip().startswith("Final: ")
    assert len(quiet.stdout.strip().splitlines()) == 1


def test_replay_command_shows_a_match_in_progress(tmp_path: Path) -> None:
    m = play(Match(Rules(players=3), seed=8), random.Random(8), steps=40)
    path = tmp_path / "partial.json"
    path.write_text(to_json(m), encoding="utf-8")
    done = run_replay(str(path))
    assert done.returncode == 0, done.stderr
    assert f"Hand {len(m.finished) + 1} (in progress)" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith(
        f"In progress after {len(m.finished)} hand{'' if len(m.finished) == 1 else 's'}: "
        "Player 1 "
    )


@pytest.mark.parametrize("content", [
    "{not json",
    json.dumps({"format": "euchre-record", "version": 99}),
    json.dumps({"format": "euchre-record", "version": 1, "rules": {"jokers": 2}}),
    "[" * 50_000,
])
def test_replay_command_refuses_an_invalid_record_in_one_line(tmp_path: Path,
                                                                content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    done = run_replay(str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith(f"euchre replay: {path} is not a valid record: ")


def test_replay_command_refuses_a_tampered_record_naming_where(tmp_path: Path,
                                                                good: dict[str, Any]) -> None:
    rec = tampered(good)
    rec["hands"][1]["points"] = [7, 7]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    done = run_replay(str(path))
    assert done.returncode == 1
    assert "hand 2: points [7, 7] do not match the replay's" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_replay_command_refuses_a_binary_file_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\x80\x81\xff\x00")
    done = run_replay(str(path))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "not UTF-8" in done.stderr


def test_replay_command_missing_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    done = run_replay(str(path))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"euchre replay: cannot read {path}: No such file or directory"
    )

