"""Bad input never ends in a traceback (issue 12).

One test per way it used to (named for the item), then property/fuzz tests that would have
caught each: structure-aware mutations of valid records of every preset, random option dicts,
random text (control characters included) into every notation parser and every command-line
flag that takes a value, and hostile objects as actions. Each asserts either success with a
consistent result, or the library's own error with a one-line message free of raw control
characters.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import euchre
from euchre import actions as A
from euchre.bots import DEFAULT_LEVEL
from euchre.cli import main
from euchre.errors import EuchreError, IllegalActionError, NotationError, RecordError, RulesError
from euchre.match import Match
from euchre.phases import Phase
from euchre.record import (
    MAX_HAND_ACTIONS,
    MAX_HANDS,
    MAX_RECORD_CHARS,
    from_json,
    match_to_record,
    replay_record,
    to_json,
)
from euchre.rules import PRESETS, Rules
from euchre.state import HandState
from euchre.words import Moment, action_words

CONTROL = "".join(map(chr, range(32))) + "\x7f\x85\u2028\u2029\u202e\x1b[2J"


def clean(msg: str) -> None:
    """A message fit for one terminal line: no newline, no escape, nothing unprintable."""
    assert msg, "an error needs a message"
    assert msg.isprintable(), repr(msg)


def library_error(exc: BaseException, kind: type[EuchreError] = EuchreError) -> None:
    assert isinstance(exc, kind), repr(exc)
    clean(str(exc))


# ---------------------------------------------------------------------------------------------
# Valid records to start from: one finished game per preset (plus a few option mixes).

RECORD_RULES: dict[str, Rules] = {
    **PRESETS,
    "penalize-swap-joker": Rules(renege="penalize", farmers_hand="swap", deck=25, target=5),
    "cutthroat-32-misdeals": Rules(players=3, deck=32, no_ace_no_face=True,
                                   farmers_hand="redeal", target=5),
}


def _played(rules: Rules, seed: int, partial: bool = False) -> dict[str, Any]:
    m = Match(rules, seed=seed)
    rng = random.Random(seed)
    while not m.is_terminal():
        m.apply_action(rng.choice(m.legal_actions()))
        if partial and len(m.finished) >= 2 and len(m.hand.history) > 6:
            break
    return match_to_record(m, ["rule", "random", "human", "rule"][: rules.players])


BASE_RECORDS: dict[str, dict[str, Any]] = {
    **{name: _played(r, 7) for name, r in RECORD_RULES.items()},
    **{name + "-unfinished": _played(r, 8, partial=True)
       for name, r in RECORD_RULES.items() if not r.single_hand},
}


def check_replayed(m: Match) -> None:
    """A record that was accepted describes a consistent match."""
    assert m.scores == [sum(f.points[s] for f in m.finished) for s in range(len(m.scores))]
    again = from_json(to_json(m))
    assert again.finished == m.finished
    assert again.scores == m.scores and again.winner == m.winner
    assert [a for _, a in again.hand.history] == [a for _, a in m.hand.history]


def accept_or_refuse(text: str | bytes) -> Match | None:
    try:
        m = from_json(text)
    except RecordError as exc:
        clean(str(exc))
        return None
    check_replayed(m)
    return m


# ---------------------------------------------------------------------------------------------
# The eight items, one test each


def test_item1_an_integer_over_python_digit_limit_in_a_record_is_a_record_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = '{"seed": ' + "1" * 4301 + "}"
    with pytest.raises(RecordError, match="number too long") as info:
        from_json(text)
    clean(str(info.value))
    f = tmp_path / "big.json"
    f.write_text(text)
    assert main(["replay", str(f)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "number too long" in err


@pytest.mark.parametrize("options", [
    {"players": 4.0}, {"players": 2.0}, {"deck": 25.0}, {"deck": True}, {"players": True},
    {"target": 10.0}, {"scoring": {"make": 1.0}}, {"scoring": {"euchre": False}},
])
def test_item2_float_and_boolean_values_for_integer_options_are_refused(
        options: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(options)
    clean(str(info.value))
    assert "not " in str(info.value)
    rec = copy.deepcopy(BASE_RECORDS["standard"])
    rec["rules"] = options
    with pytest.raises(RecordError, match=r"^rules: "):
        replay_record(rec)


def test_item3_card_and_suit_parse_errors_are_notation_errors() -> None:
    for bad in ("ZZ", "", "1H", "JOKERS"):
        with pytest.raises(euchre.NotationError) as info:
            euchre.parse_card(bad)
        library_error(info.value, NotationError)
    with pytest.raises(euchre.EuchreError):
        euchre.parse_suit("X")
    assert issubclass(euchre.CardParseError, euchre.NotationError)
    assert "CardParseError" in euchre.__all__


@pytest.mark.parametrize("value", ["--5", "²", "٣", "1" * 5000, "1e3", " ", "+1", "0x1"])
def test_item4_scoring_flag_values_that_are_not_plain_numbers_are_usage_errors(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--watch", "--delay", "0", "--scoring", f"make={value}"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--scoring" in err and "FIELD=N" in err
    assert err.count("\n") == 1 and err.rstrip("\n").isprintable()


@dataclass
class FakeGame:
    """Stands in for the terminal game: records how a run was set up, plays nothing."""

    made: list[FakeGame] = field(default_factory=list)

    def __call__(self, match: Match, settings: Any, console: Any) -> FakeGame:
        self.match, self.settings = match, settings
        self.made.append(self)
        return self

    def run(self) -> int:
        return 0

    def end_of_game(self) -> bool:
        return True


@contextlib.contextmanager
def no_terminal_game() -> Iterator[FakeGame]:
    fake = FakeGame()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("euchre.tui.TerminalGame", fake)
        mp.setattr("euchre.cli.bench_engine.run_engine_bench", lambda *a: "measured")
        yield fake


def test_item5_resume_of_a_record_naming_people_seats_the_human_and_computers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = Match(Rules(), seed=3)
    for _ in range(7):
        m.apply_action(m.legal_actions()[0])
    f = tmp_path / "people.json"
    f.write_text(to_json(m, ["alice", "bob", "carol", "dave"]))
    assert main(["replay", str(f)]) == 0
    with no_terminal_game() as fake:
        assert main(["play", "--resume", str(f), "--delay", "0"]) == 0
    seats = fake.made[0].settings.seats
    # You sit South, as in a new game, with the default level in the other seats.
    assert seats == [DEFAULT_LEVEL, DEFAULT_LEVEL, "human", DEFAULT_LEVEL]
    out = capsys.readouterr()
    assert "'alice'" in out.out and "Traceback" not in out.err
    # The position is the saved one.
    assert [a for _, a in fake.made[0].match.hand.history] == [a for _, a in m.hand.history]


def test_item6_unknown_keys_holding_control_characters_are_quoted_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for key in ("a\nb", "\x1b[2J", "x" * 10_000, "\u202eevil"):
        for options in ({key: 1}, {"scoring": {key: 1}}):
            with pytest.raises(RulesError) as info:
                Rules.from_dict(options)
            clean(str(info.value))
            assert len(str(info.value)) < 400
    rec = copy.deepcopy(BASE_RECORDS["standard"])
    rec["rules"] = {"\x1b[2J\nclear": True}
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(rec))
    assert main(["replay", str(f)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.count("\n") == 1 and "\\x1b[2J\\nclear" in err


class IndexRaises:
    def __index__(self) -> int:
        raise ValueError("hostile")


def test_item7_a_push_whose_action_conversion_fails_keeps_the_undo_stack() -> None:
    h = HandState.deal(Rules(), 0, random.Random(1))
    first = h.legal_actions()[0]
    h.push(first)
    with pytest.raises(IllegalActionError) as info:
        h.push(IndexRaises())
    clean(str(info.value))
    assert h.pop() == first  # the failed push left nothing on the stack
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        h.pop()


def test_item8_library_entry_points_raise_library_errors_for_any_input() -> None:
    calls: list[tuple[Any, tuple[Any, ...], type[EuchreError]]] = [
        (Rules.from_dict, ({1: 2},), RulesError),
        (Rules.from_dict, ({("a",): 2},), RulesError),
        (Rules.from_dict, ([],), RulesError),
        (Rules.from_dict, ({"scoring": {None: 1}},), RulesError),
        (euchre.preset, (["standard"],), RulesError),
        (from_json, (b"\xff",), RecordError),
        (from_json, (None,), RecordError),
        (from_json, (12,), RecordError),
        (from_json, ("[" * 100_000,), RecordError),
        (replay_record, (None,), RecordError),
        (euchre.parse_card, (None,), NotationError),
        (euchre.parse_card, (12,), NotationError),
        (euchre.parse_suit, (b"H",), NotationError),
        (euchre.action_from_str, (None,), NotationError),
        (euchre.action_from_str, (["pass"],), NotationError),
        (euchre.action_to_str, ("pass",), NotationError),
        (euchre.action_to_str, (None,), NotationError),
        (action_words, (1.5, Moment(Phase.BID1, 0, 3)), NotationError),
        (HandState.deal(Rules(), 0, random.Random(2)).view, ("0",), IllegalActionError),
    ]
    for fn, args, kind in calls:
        with pytest.raises(EuchreError) as info:
            fn(*args)
        library_error(info.value, kind)
    # Bytes holding a valid record are read as UTF-8.
    assert from_json(to_json(Match(Rules(), seed=1)).encode()).seed == 1


# ---------------------------------------------------------------------------------------------
# The record size cap


def test_record_cap_refuses_text_over_the_character_limit() -> None:
    with pytest.raises(RecordError, match="too large") as info:
        from_json(" " * (MAX_RECORD_CHARS + 1))
    clean(str(info.value))


def test_record_cap_refuses_more_hands_or_actions_than_the_limits() -> None:
    rec = copy.deepcopy(BASE_RECORDS["standard"])
    rec["hands"] = [rec["hands"][0]] * (MAX_HANDS + 1)
    with pytest.raises(RecordError, match=f"at most {MAX_HANDS}"):
        replay_record(rec)
    rec = copy.deepcopy(BASE_RECORDS["standard"])
    rec["hands"][0]["actions"] = ["pass"] * (MAX_HAND_ACTIONS + 1)
    with pytest.raises(RecordError, match=f"at most {MAX_HAND_ACTIONS}"):
        replay_record(rec)


def test_record_cap_leaves_room_for_long_real_games() -> None:
    """A game to 100 (ten times the usual target) stays far inside every limit."""
    m = Match(Rules(target=100), seed=11)
    rng = random.Random(11)
    while not m.is_terminal():
        m.apply_action(rng.choice(m.legal_actions()))
    text = to_json(m)
    assert len(m.finished) * 10 < MAX_HANDS and len(text) * 10 < MAX_RECORD_CHARS
    assert from_json(text).scores == m.scores


# ---------------------------------------------------------------------------------------------
# Fuzz: structure-aware mutations of valid records

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.integers(),
    st.floats(allow_nan=False), st.text(max_size=12), st.text(alphabet=CONTROL, max_size=6),
    st.sampled_from(["9C", "JD", "JOKER", "7S", "pass", "order", "call H", "play AS",
                     "discard 9C", "claim renege", "farmer", "swap 9C TC 9D", "scored",
                     "thrown_in", "misdeal", "euchre-record", "rule", "human"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=8,
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _mutate(rec: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    paths = list(_paths(rec))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = data.draw(st.sampled_from(paths), label="path")
        parent: Any = rec
        for step in path[:-1]:
            parent = parent[step] if isinstance(parent, (dict, list)) else None
            if parent is None:
                break
        if not path or not isinstance(parent, (dict, list)):
            continue
        k = path[-1]
        if (isinstance(parent, dict) and k not in parent) or (isinstance(parent, list) and (
                not isinstance(k, int) or k >= len(parent))):
            continue
        old = parent[k]
        how = data.draw(st.sampled_from(
            ["replace", "delete", "nudge", "swap", "duplicate", "insert", "edit-text"]),
            label="how")
        if how == "replace":
            parent[k] = data.draw(json_values, label="value")
        elif how == "delete":
            del parent[k]
        elif how == "nudge" and isinstance(old, int) and not isinstance(old, bool):
            parent[k] = old + data.draw(st.sampled_from([-1, 1, -4, 4, 10**5]), label="by")
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = data.draw(st.integers(0, len(parent) - 1), label="with")
            parent[k], parent[j] = parent[j], parent[k]
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(k, copy.deepcopy(old))
        elif how == "insert":
            if isinstance(parent, list):
                parent.insert(k, data.draw(json_values, label="value"))
            else:
                parent[data.draw(st.text(max_size=8), label="key")] = data.draw(json_values)
        elif how == "edit-text" and isinstance(old, str):
            i = data.draw(st.integers(0, len(old)), label="at")
            parent[k] = old[:i] + data.draw(st.text(max_size=3), label="text") + old[i + 1:]
        paths = list(_paths(rec))
    return rec


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(BASE_RECORDS)), data=st.data())
def test_fuzz_mutated_records_of_every_preset_replay_or_are_refused(
        name: str, data: st.DataObject) -> None:
    rec = _mutate(BASE_RECORDS[name], data)
    accept_or_refuse(json.dumps(rec))


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(BASE_RECORDS)), data=st.data())
def test_fuzz_corrupted_record_text_replays_or_is_refused(name: str, data: st.DataObject) -> None:
    text = json.dumps(BASE_RECORDS[name])
    i = data.draw(st.integers(0, len(text)), label="at")
    cut = data.draw(st.integers(0, 5), label="cut")
    junk = data.draw(st.one_of(st.text(max_size=4), st.text(alphabet=CONTROL, max_size=3),
                               st.sampled_from(["1" * 4400, "[" * 5000, "\ud800", "\xff"])))
    mutated = text[:i] + junk + text[i + cut:]
    accept_or_refuse(mutated)
    with contextlib.suppress(UnicodeEncodeError):
        accept_or_refuse(mutated.encode("utf-8"))


# ---------------------------------------------------------------------------------------------
# Fuzz: random option dicts

OPTION_NAMES = ["players", "deck", "target", "stick_the_dealer", "going_alone",
                "defend_alone", "canadian_loner", "farmers_hand", "no_ace_no_face", "renege",
                "first_dealer", "scoring", "alone_timing", "dealer_may_discard_upcard",
                "defend_alone_vs_partners", "single_hand", "renege_fix", "renege_penalty",
                "misdeal_passes", "rows"]
SCORING_NAMES = ["make", "march", "lone_march", "euchre", "euchre_lone_defender", "renege",
                 "renege_lone"]
option_values = st.one_of(
    json_values, st.sampled_from([2, 3, 4, 24, 25, 32, 1, 5, 7, 10, 11, 1000, 1001, 0, -1]),
    st.sampled_from(["off", "redeal", "swap", "prevent", "penalize", "random", "black_jack",
                     "with_bid", "after_discard", "points", "deduct", "tricks"]),
    st.dictionaries(st.sampled_from(SCORING_NAMES), st.one_of(st.integers(-2, 120), json_values),
                    max_size=3),
)


@settings(max_examples=400, deadline=None)
@given(options=st.dictionaries(
    st.one_of(st.sampled_from(OPTION_NAMES), st.text(max_size=6),
              st.text(alphabet=CONTROL, max_size=4)),
    option_values, max_size=5))
def test_fuzz_random_option_dicts_build_rules_or_are_refused(options: dict[str, Any]) -> None:
    try:
        rules = Rules.from_dict(options)
    except RulesError as exc:
        clean(str(exc))
        return
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    m = Match(rules, seed=1)  # a valid configuration deals and plays
    for _ in range(12):
        if m.is_terminal():
            break
        m.apply_action(m.legal_actions()[-1])
    check_replayed(from_json(to_json(m)))


# ---------------------------------------------------------------------------------------------
# Fuzz: random text into every notation parser

any_text = st.one_of(st.text(max_size=20), st.text(alphabet=CONTROL + "9TJQKA7810CDHS♣♦♥♠ ",
                                                   max_size=12))


@settings(max_examples=500, deadline=None)
@given(text=any_text)
def test_fuzz_notation_parsers_read_or_refuse_any_text(text: str) -> None:
    for parse, show in ((euchre.parse_card, euchre.card_str),
                        (euchre.parse_suit, lambda s: "CDHS"[s]),
                        (euchre.action_from_str, euchre.action_to_str)):
        try:
            value = parse(text)
        except NotationError as exc:
            clean(str(exc))
            continue
        assert isinstance(value, int)
        assert parse(show(value)) == value  # what was read prints back to the same thing


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.none(), st.integers(), st.floats(), st.binary(max_size=4),
                       st.lists(st.integers(), max_size=2), st.booleans()))
def test_fuzz_notation_functions_refuse_non_text_and_non_ids(value: Any) -> None:
    for fn in (euchre.parse_card, euchre.parse_suit, euchre.action_from_str):
        with pytest.raises(NotationError) as info:
            fn(value)
        clean(str(info.value))
    try:
        text = euchre.action_to_str(value)
    except NotationError as exc:
        clean(str(exc))
    else:
        assert euchre.action_from_str(text) == value


# ---------------------------------------------------------------------------------------------
# Fuzz: random text into every command-line flag that takes a value

FLAGS: list[tuple[str, ...]] = [
    ("play", "--preset"), ("play", "--players"), ("play", "--target"), ("play", "--deck"),
    ("play", "--farmers-hand"), ("play", "--renege"), ("play", "--first-dealer"),
    ("play", "--alone-timing"), ("play", "--renege-penalty"), ("play", "--scoring"),
    ("play", "--seed"), ("play", "--resume"),
    ("play", "--save"), ("play", "--partner"), ("play", "--opponents"), ("play", "--delay"),
    ("bench", "engine", "--seconds"), ("bench", "engine", "--preset"),
    ("bench", "engine", "--seed"),
]
flag_values = st.one_of(
    st.text(max_size=16), st.text(alphabet=CONTROL + "0123456789-=.e", max_size=10),
    st.sampled_from(["4", "2", "25", "10", "0", "-1", "nan", "inf", "1e309", "1" * 5000,
                     "make=3", "make=--5", "march=²", "euchre=" + "9" * 5000, "standard",
                     "rule", "random", "penalize", "swap", "black-jack", "after_discard",
                     ".", "/", "/dev/null", "\x00", "missing.json"]),
)


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            rc = exc.code if isinstance(exc.code, int) else 2
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [["play", "--watch", "--delay=--"],
                                  ["play", "--watch", "--delay", "0", "--seed=--"],
                                  ["tournament", "rule", "random", "--hands=--"]])
def test_a_double_dash_given_as_a_flags_value_is_a_usage_error(argv: list[str]) -> None:
    # argparse drops '--' as an option's value and hands the command an empty list instead
    # (found by the fuzz test below: `play --delay=--` ended in a TypeError).
    with no_terminal_game():
        rc, _out, err = run_cli(argv)
    assert rc == 2
    assert "expected a value, not '--'" in err
    assert "Traceback" not in err


@settings(max_examples=300, deadline=None)
@given(flag=st.sampled_from(FLAGS), value=flag_values)
def test_fuzz_every_cli_flag_that_takes_a_value_runs_or_is_a_usage_error(
        flag: tuple[str, ...], value: str) -> None:
    watch = ["--watch", "--delay", "0"] if flag[0] == "play" else []
    argv = [*flag[:-1], *watch, f"{flag[-1]}={value}"]
    with no_terminal_game():
        rc, _out, err = run_cli(argv)
    assert rc in (0, 1, 2), (argv, rc)
    assert "Traceback" not in err
    for line in err.splitlines():
        assert line.isprintable(), line  # no raw control character reaches the terminal
    if rc:
        assert err.strip(), "a failure says why"


@settings(max_examples=60, deadline=None)
@given(value=flag_values)
def test_fuzz_replay_file_argument_reads_or_is_refused(value: str) -> None:
    rc, _out, err = run_cli(["replay", value])
    assert rc in (0, 1, 2)
    assert "Traceback" not in err
    for line in err.splitlines():
        assert line.isprintable(), line


# ---------------------------------------------------------------------------------------------
# Fuzz: hostile objects as actions


class EqRaises(int):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile eq")

    __hash__ = int.__hash__


class ReprRaises:
    def __repr__(self) -> str:
        raise RuntimeError("hostile repr")


class IndexReturns:
    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class IndexRecurses:
    def __index__(self) -> int:
        return int(self)  # type: ignore[call-overload,unused-ignore]


class ReprControl:
    def __repr__(self) -> str:
        return "\x1b[2J\nboom"


hostile_actions = st.one_of(
    st.integers(-(10**30), 10**30), st.integers(-5, 400), st.floats(), st.text(max_size=5),
    st.none(), st.booleans(), st.binary(max_size=2),
    st.builds(IndexReturns, st.integers(-10, 400)),
    st.sampled_from([IndexRaises(), ReprRaises(), IndexRecurses(), ReprControl(), EqRaises(5),
                     [1], (80,), {81: 1}, object(), 1 + 2j]),
)

HOSTILE_RULES = sorted(RECORD_RULES)


def _state_key(h: HandState) -> tuple[Any, ...]:
    return (list(h.hands), list(h.history), h.phase, h.cur, h.trick, list(h.tricks),
            h.trump, h.maker, h.outcome, h.points, h.undo_depth)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(HOSTILE_RULES), seed=st.integers(0, 2**16),
       steps=st.integers(0, 30), bad=hostile_actions, use_push=st.booleans())
def test_fuzz_hostile_objects_as_actions_apply_or_change_nothing(
        name: str, seed: int, steps: int, bad: Any, use_push: bool) -> None:
    rules = RECORD_RULES[name]
    rng = random.Random(seed)
    h = HandState.deal(rules, seed % rules.players, rng)
    for _ in range(steps):
        if h.is_terminal():
            break
        h.apply_action(rng.choice(h.legal_actions()))
    before = _state_key(h)
    legal = h.legal_actions()
    try:
        (h.push if use_push else h.apply_action)(bad)
    except IllegalActionError as exc:
        clean(str(exc))
        assert _state_key(h) == before  # refused: nothing changed, the undo stack included
        return
    # Accepted: it was one of the legal ids, under any integer-like disguise.
    taken = h.history[-1][1]
    assert type(taken) is int and taken in legal
    if use_push:
        assert h.pop() == taken and _state_key(h) == before
    assert A.action_to_str(taken)  # a real action id
