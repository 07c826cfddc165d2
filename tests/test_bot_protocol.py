"""The bot protocol: views carried whole, schemas, the hidden-card audit, and faults."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from euchre.actions import is_play
from euchre.bots import RandomBot, make_bot
from euchre.bots.protocol import (
    SCHEMAS,
    BotFault,
    ProtocolBot,
    load_schema,
    rules_to_json,
    schema_for,
    set_fault_handler,
    stop_all,
    tell_game_over,
    tell_hand_over,
    view_from_json,
    view_to_json,
)
from euchre.cards import cards_of
from euchre.cli import main
from euchre.match import Match
from euchre.rules import PRESETS, Rules
from euchre.state import HandState
from euchre.testing import check_bot, random_rules
from euchre.tournament import TournamentSpec, parse_player, run, split, to_text
from euchre.tournament.report import FORFEITED
from euchre.view import FACE_DOWN, SeatView

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
NODE_BOT = f"cmd:node {ROOT / 'examples/node_bot.js'}"
PY_BOT = str(ROOT / "examples/python_bot.py") + ":LowCard"
BROKEN_COMMAND = f"{PY} {ROOT / 'examples/broken_bot.py'}"
BROKEN = f"cmd:{BROKEN_COMMAND}"
CARD = re.compile(r"\b(?:[789TJQKA][CDHS]|JOKER)\b")


@pytest.fixture(autouse=True)
def _logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("EUCHRE_BOT_LOG_DIR", str(tmp_path / "logs"))
    set_fault_handler(None)
    yield
    stop_all()
    set_fault_handler(None)


def _views(rules: Rules, hands: int, seed: int) -> Iterator[tuple[HandState, SeatView]]:
    """Every seat's view after every action of random hands (turn or not)."""
    rng = random.Random(seed)
    bot = RandomBot(seed)
    for h in range(hands):
        st = HandState.deal(rules, h % rules.players, rng)
        while True:
            for s in range(rules.players):
                yield st, st.view(s, (h, 0) if rules.num_sides == 2 else ())
            if st.is_terminal():
                break
            st.apply_action(bot.choose(st.view(st.cur)))


ALL_RULES = [*PRESETS.values(), *(random_rules(random.Random(k)) for k in range(6)),
             Rules(renege="penalize", renege_fix=True), Rules(farmers_hand="swap")]


def test_a_view_crosses_whole() -> None:
    """Every SeatView field is in the message (rules once, in new_game) and comes back equal."""
    names = {f.name for f in fields(SeatView)}
    for rules in ALL_RULES:
        for _, view in _views(rules, 6, 1):
            data = json.loads(json.dumps(view_to_json(view)))
            assert set(data) | {"rules"} == names
            assert view_from_json(data, Rules.from_dict(rules_to_json(rules))) == view


def _known_cards(st: HandState, seat: int) -> set[int]:
    """What ``seat`` may know, from the referee's state: its own cards (dealt, picked up or
    swapped in), the up-card, every card played (one taken back after a renege was seen too)
    and, with rows, the cards lying face up."""
    known = set(cards_of(st.initial_hands[seat])) | set(cards_of(st.hands[seat]))
    if st.upcard >= 0:
        known.add(st.upcard)
    for _, cards, _ in st.tricks:
        known |= {c for _, c in cards}
    known |= {c for _, c in st.trick}
    known |= {a for _, a in st.history if is_play(a)}
    if st.discarded >= 0 and seat == st.dealer:
        known.add(st.discarded)
    for column in st.columns or ():
        for top, under in column:
            known.add(top)
            if not any(top == c for _, cards, _ in st.tricks for _, c in cards) \
                    and top not in {c for _, c in st.trick}:
                continue
            known.add(under)
    return known


def _cards_named(message: Any) -> set[int]:
    from euchre.cards import parse_card

    return {parse_card(t) for t in CARD.findall(json.dumps(message))}


def test_no_message_names_a_card_its_seat_cannot_know() -> None:
    for rules in ALL_RULES:
        for st, view in _views(rules, 8, 2):
            sent = {"type": "decide", "id": 1, "view": view_to_json(view)}
            leak = _cards_named(sent) - _known_cards(st, view.seat)
            assert not leak, (rules, view.seat, leak)


def test_the_audit_catches_another_seats_card() -> None:
    st = HandState.deal(Rules(), 0, random.Random(4))
    other = cards_of(st.hands[1])[0]
    message = {"view": view_to_json(st.view(0))}
    message["view"]["hand"].append(view_to_json(st.view(1))["hand"][0])
    assert other in _cards_named(message) - _known_cards(st, 0)


def _registry() -> Registry[Any]:
    return Registry().with_resources(
        (load_schema(n)["$id"], Resource.from_contents(load_schema(n))) for n in SCHEMAS)


def test_a_recorded_session_keeps_to_the_schemas_and_hides_other_hands(tmp_path: Path) -> None:
    """Real bytes through a real pipe: a recording bot plays a game under every preset; every
    line it got is valid against its schema, is the seat's own view, and names no hidden card."""
    registry = _registry()
    logs = {s: tmp_path / f"seat{s}.jsonl" for s in range(4)}
    expected: dict[int, list[tuple[str, dict[str, Any], set[int]]]] = {s: [] for s in logs}
    games: dict[int, list[dict[str, Any]]] = {s: [] for s in logs}
    for k, rules in enumerate(PRESETS.values()):
        rules = rules.replace(target=2)
        bots = [ProtocolBot(f"{PY} {ROOT / 'tests/bot_recorder.py'} {logs[s]}", 10 * k + s)
                for s in range(rules.players)]
        m = Match(rules, seed=k)
        while not m.is_terminal():
            seat = m.current_player
            h, before = m.hand, tuple(m.scores)
            view = m.view(seat)
            expected[seat].append(("decide", view_to_json(view), _known_cards(h, seat)))
            m.apply_action(bots[seat].choose(view))
            if h.is_terminal():
                for s, bot in enumerate(bots):
                    final = h.view(s, before)
                    expected[s].append(("hand_end", view_to_json(final), _known_cards(h, s)))
                    tell_hand_over(bot, final)
        for s, bot in enumerate(bots):
            tell_game_over(bot, s, tuple(m.scores), m.winner)
            games[s].append({"seat": s, "seed": 10 * k + s, "rules": rules_to_json(rules)})
    stop_all()  # quit: the recorders have written everything
    for s in logs:
        lines = [json.loads(x) for x in logs[s].read_text().splitlines()]
        kinds = [x["type"] for x in lines]
        assert kinds[0] == "hello" and kinds[-1] == "quit"
        assert kinds.count("new_game") == kinds.count("game_end") == len(games[s])
        assert [{k: x[k] for k in ("seat", "seed", "rules")} for x in lines
                if x["type"] == "new_game"] == games[s]
        got = [x for x in lines if x["type"] in ("decide", "hand_end")]
        assert [(x["type"], x["view"]) for x in got] == [(kind, v) for kind, v, _ in expected[s]]
        for message, (_, _, known) in zip(got, expected[s], strict=True):
            assert _cards_named(message) <= known
        for message in lines:
            jsonschema.validate(message, load_schema(schema_for(message, "host")),
                                registry=registry)


def test_bot_answers_keep_to_their_schemas() -> None:
    registry = _registry()
    for message, sender in (
            ({"type": "hello", "protocol": 1, "name": "x", "deterministic": True}, "bot"),
            ({"type": "action", "id": 3, "action": "order alone", "explanation": "why"}, "bot"),
            ({"type": "action", "action": "JH"}, "bot")):
        jsonschema.validate(message, load_schema(schema_for(message, sender)), registry=registry)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "hello", "protocol": 2, "name": "x"},
                            load_schema("bot-hello"), registry=registry)


def test_the_same_bot_plays_the_same_through_the_protocol() -> None:
    """rule through `python -m euchre.bots.host rule` and in-process: identical games."""
    command = f"{PY} -m euchre.bots.host rule"
    for rules in (Rules(), PRESETS["two-handed-rows"], PRESETS["joker"]):
        local = Match(rules.replace(target=3), seed=5)
        remote = Match(rules.replace(target=3), seed=5)
        lb = [make_bot("rule", s) for s in range(rules.players)]
        rb = [ProtocolBot(command, s) for s in range(rules.players)]
        while not local.is_terminal():
            s = local.current_player
            a = lb[s].choose(local.view(s))
            assert rb[s].choose(remote.view(s)) == a
            local.apply_action(a)
            remote.apply_action(a)


def _our_processes(tag: str) -> list[int]:
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if tag.encode() in cmdline:
                out.append(int(pid))
    return out


FAULTS = {
    "crash": "exited (status 3)",
    "hang": "sent nothing for 0.5 s",
    "illegal": "\"play JOKER\", which is not legal",
    "garbage": "which is not JSON",
    "flood": "flooded its output",
    "version": "speaks protocol 99; this host speaks 1",
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_broken_bot_forfeits_and_the_tournament_carries_on(fault: str, tmp_path: Path) -> None:
    tag = f"tag{os.getpid()}{fault}"
    spec = TournamentSpec((parse_player(f"{BROKEN} {fault} {tag}"), parse_player("rule")),
                          Rules(), seed=1, move_time=0.5)
    outcome = run(spec, 3)
    assert outcome.complete and len(outcome.results) == 3
    lost = [r for r in outcome.results if r.forfeits == (1, 0)]
    assert lost, "the broken bot forfeited no deal"
    for r in lost:
        assert FAULTS[fault] in r.fault and "\n" not in r.fault
        assert r.points[0] == 0 and r.points[1] > 0
    text = to_text(outcome)
    assert f"forfeits (a bot broke down; the other player took the deal): " \
           f"{spec.players[0].label} {len(lost)}, rule 0" in text
    rows = split(outcome)  # a forfeited deal has its own bin in the split
    assert rows is not None and [r.margin.n for r in rows if r.where == FORFEITED] == [len(lost)]
    stop_all()
    assert _our_processes(tag) == []  # every process stopped, the hanging one too
    if fault != "version":
        logs = list((tmp_path / "logs").iterdir())
        assert any(f"breaking down now: {fault}" in p.read_text() for p in logs)


def test_a_broken_bot_forfeits_a_game_in_games_mode() -> None:
    spec = TournamentSpec((parse_player("rule"), parse_player(f"{BROKEN} crash")),
                          Rules(target=3), seed=2, games=True)
    outcome = run(spec, 2)
    assert outcome.complete
    for r in outcome.results:
        assert r.forfeits == (0, 1) and r.wins == (2, 0) and r.points == (6.0, 0.0)
        assert "exited (status 3)" in r.fault


def test_euchre_play_hands_a_broken_bots_seat_to_the_default(
        capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["play", "--watch", "--delay", "0", "--seed", "3", "--target", "2",
               "--opponents", f"{BROKEN} illegal", "--partner", "random", "--level", "random",
               "--think", "8"])
    captured = capsys.readouterr()
    assert rc == 0 and "Game over" in captured.out
    takeovers = [x for x in captured.err.splitlines() if "takes the seat over" in x]
    assert len(takeovers) == 2  # each opponent's seat, once
    assert "not legal" in takeovers[0] and "The expert player takes the seat over." in takeovers[0]


def test_without_a_handler_a_fault_is_raised_and_the_next_game_restarts_the_program() -> None:
    bot = ProtocolBot(f"{BROKEN_COMMAND} crash", 0)
    m = Match(Rules(), seed=2)
    with pytest.raises(BotFault, match="exited"):
        while not m.is_terminal():
            s = m.current_player
            m.apply_action(bot.choose(m.view(s)) if s == 0 else RandomBot(s).choose(m.view(s)))
    again = ProtocolBot(f"{BROKEN_COMMAND} crash", 0)
    view = Match(Rules(), seed=2).view(Match(Rules(), seed=2).current_player)
    assert again.choose(view) in view.legal_actions


def test_a_program_that_cannot_start_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "cmd:no-such-program-x", "rule", "--hands", "4"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == ("euchre tournament: cmd:no-such-program-x: cannot start "
                           "'no-such-program-x': No such file or directory")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is installed by system-deps")
def test_the_example_bots_pass_the_check_and_play_a_tournament() -> None:
    for spec in (NODE_BOT, PY_BOT):
        report = check_bot(spec, hands=40)
        assert report.passed, report.to_text()
        assert report.deterministic.startswith("claimed, and checked")
        assert not report.missing_phases
    match = TournamentSpec((parse_player(NODE_BOT), parse_player(PY_BOT)), Rules(), seed=3)
    outcome = run(match, 10, workers=2)
    assert outcome.complete and not any(any(r.forfeits) for r in outcome.results)
    assert sum(r.hands for r in outcome.results) == 20


def test_check_bot_fails_a_broken_bot_and_says_why() -> None:
    report = check_bot(f"{BROKEN} illegal", hands=13, move_time=2)
    assert not report.passed
    assert any("not legal" in p for p in report.problems)
    assert report.to_text().startswith("FAIL ")


def test_check_bot_catches_a_false_claim_of_determinism() -> None:
    class Liar:
        name = "liar"
        deterministic = True

        def __init__(self, seed: int | None = None) -> None:
            self.rng = random.Random()  # not seeded: a new game each time

        def choose(self, view: SeatView) -> int:
            return self.rng.choice(view.legal_actions)

        def explain(self, view: SeatView) -> str:
            return "at random"

    report = check_bot(Liar, hands=13)
    assert report.deterministic == "claimed, NOT deterministic" and not report.passed


def test_check_bot_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-bot", "rule", "--hands", "13", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] and data["decision_ms"]["p95"] >= data["decision_ms"]["p50"]
    assert main(["check-bot", "nosuch"]) == 2


def test_bench_bot_protocol_times_the_same_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bot-protocol", "--hands", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["different_answers"] == 0 and data["decisions"] > 20
    assert data["overhead_ms"]["mean"] > 0


def test_face_down_row_cards_stay_hidden_in_the_message() -> None:
    st = HandState.deal(PRESETS["two-handed-rows"], 0, random.Random(1))
    data = view_to_json(st.view(0))
    unders = {under for column in st.columns[1] for _, under in [column]}
    assert all(pair[1] is None for seat_rows in data["rows"] for pair in seat_rows)
    assert not (_cards_named(data) & unders - {FACE_DOWN})


# ---------------------------------------------------------------------------------------------
# What a bot author found wrong, each reproduced


def _ask_until_fault(command: str, move_time: float = 5) -> BotFault:
    bot = ProtocolBot(command, 0, move_time=move_time)
    m = Match(Rules(), seed=2)
    with pytest.raises(BotFault) as caught:
        while not m.is_terminal():
            s = m.current_player
            m.apply_action(bot.choose(m.view(s)) if s == 0 else RandomBot(s).choose(m.view(s)))
    return caught.value


def test_a_second_line_is_named_without_gluing_words_to_the_expected_actions() -> None:
    fault = _ask_until_fault(f"{BROKEN_COMMAND} twice")
    text = str(fault)
    assert "sent a second line" in text and "one line was expected" in text
    assert " alone alone" not in text and not re.search(r"\b[789TJQKA][CDHS] alone\b", text)
    assert fault.kind == "protocol"


def test_the_hello_timeout_names_the_hello_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import euchre.bots.protocol as protocol

    monkeypatch.setattr(protocol, "HELLO_TIME", 0.5)
    fault = _ask_until_fault(f"{BROKEN_COMMAND} mute", move_time=30)
    assert "sent nothing for 0.5 s (the hello time); expected its hello" in str(fault)
    assert "move time" not in str(fault) and fault.kind == "timeout"


def test_an_explanation_over_the_documented_length_is_a_fault() -> None:
    fault = _ask_until_fault(f"{BROKEN_COMMAND} wordy")
    assert "sent an explanation of 400 characters" in str(fault)
    assert "at most 300" in str(fault)


def test_a_wrong_id_is_a_fault_as_documented() -> None:
    fault = _ask_until_fault(f"{BROKEN_COMMAND} wrong-id")
    assert re.search(r"answered decision \d+ when asked decision \d+", str(fault))
    doc = (ROOT / "docs/writing-a-bot.md").read_text()
    assert "a wrong `id` is a fault" in doc  # optional, and checked when sent


def test_a_chatty_bots_stderr_log_stops_at_its_limit_and_says_so_once(tmp_path: Path) -> None:
    """A bot writing a megabyte to stderr at every decision: its log stays within the limit,
    says once that the rest was dropped, and the next start moves the full log aside."""
    import euchre.bots.protocol as protocol

    log = tmp_path / "chatty.log"
    for run_no in range(2):
        bot = ProtocolBot(f"{BROKEN_COMMAND} noisy", 0, log=str(log))
        m = Match(Rules(), seed=3)
        asked = 0
        while asked < 6:  # six decisions: six megabytes written
            s = m.current_player
            asked += s == 0
            m.apply_action(bot.choose(m.view(s)) if s == 0 else RandomBot(s).choose(m.view(s)))
            if m.is_terminal():
                m = Match(Rules(), seed=asked)
        stop_all()
        text = log.read_bytes()
        assert protocol.MAX_LOG <= len(text) <= protocol.MAX_LOG + 400, run_no
        assert text.count(b"this log reached") == 1
    old = log.with_name("chatty.log.1")
    assert old.exists() and old.stat().st_size <= protocol.MAX_LOG + 400


def test_check_bot_stops_at_a_bots_first_hang_and_says_why() -> None:
    import time

    t0 = time.perf_counter()
    report = check_bot(f"{BROKEN} hang", hands=300, move_time=0.5)
    took = time.perf_counter() - t0
    assert not report.passed and report.problem_count == 1
    assert "sent nothing for 0.5 s (the move time)" in report.problems[0]
    assert "the bot hung" in report.stopped and "stopped early: the bot hung" in report.to_text()
    assert report.deterministic == "not checked (the check stopped early)"
    assert took < 10, took  # one wait of the move time, not fifty


def test_check_bot_counts_the_joker_apart_from_the_phases() -> None:
    from euchre.phases import PHASE_NAMES

    report = check_bot("random", hands=30)
    assert set(report.phases) <= set(PHASE_NAMES) and report.joker > 0
    line = next(x for x in report.to_text().splitlines() if "decisions by phase" in x)
    phases_part, _, joker_part = line.partition(";")
    assert "joker" not in phases_part and f"the Joker {report.joker}" in joker_part
    data = report.to_dict()
    assert "joker" not in data["phases"] and data["joker_decisions"] == report.joker


def test_bench_bot_protocol_refuses_a_program_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bot-protocol", "--hands", "1", "--level", NODE_BOT]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a program already" in err and "Traceback" not in err


def test_bench_bot_protocol_reports_a_hello_failure_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.bots import register, unregister

    register("only-in-this-process", RandomBot)  # the served child cannot build it
    try:
        assert main(["bench", "bot-protocol", "--hands", "1",
                     "--level", "only-in-this-process"]) == 2
    finally:
        unregister("only-in-this-process")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "while the host waited for its hello" in err


def test_a_served_tables_programs_stop_once_idle(tmp_path: Path) -> None:
    """The browser table builds a fresh bot per move in its workers; their programs stop once
    no decision has come for the idle limit, not when the server stops."""
    import time

    from euchre.bots import NamedSpecs

    tag = f"idle{os.getpid()}"
    bots = NamedSpecs({"mine": f"cmd:{PY} {ROOT / 'examples/broken_bot.py'} fine {tag}"},
                      fallback="rule", idle=0.6)
    m = Match(Rules(target=2), seed=4)
    try:
        while not m.is_terminal():
            seat = m.current_player
            view = m.view(seat)
            m.apply_action((bots("mine", 1) if seat % 2 else RandomBot(seat)).choose(view))
        assert _our_processes(tag)  # a program per seat, kept between moves
        deadline = time.monotonic() + 10
        while _our_processes(tag) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _our_processes(tag) == []
        view = Match(Rules(), seed=5).view(Match(Rules(), seed=5).current_player)
        assert bots("mine", 2).choose(view) in view.legal_actions  # starts again when needed
    finally:
        set_fault_handler(None)
        stop_all()


def test_the_documented_python_none_values_are_the_constants() -> None:
    """writing-a-bot.md's table of what `null` is in a SeatView names each constant and its
    value; both must be what the code has."""
    import importlib

    doc = (ROOT / "docs/writing-a-bot.md").read_text()
    rows = re.findall(r"^\| (.+?) \| (`-?\d+`(?:, `-?\d+`)?) \| (.+?) \|$", doc, flags=re.M)
    named = 0
    for _, values, consts in rows:
        numbers = [int(v) for v in re.findall(r"-?\d+", values)]
        names = re.findall(r"`([\w.]+)`", consts)
        for number, name in zip(numbers, names, strict=False):
            module, _, attr = name.rpartition(".")
            value = getattr(importlib.import_module(module or "euchre.view"), attr)
            assert value == number, name
            named += 1
    assert named >= 6
    view = Match(Rules(), seed=1).view(0)  # bidding: no trump, no maker, nobody's swap
    assert (view.trump, view.maker, view.swapper, view.lone_defender) == (4, -1, -1, -1)
    data = view_to_json(view)
    assert (data["trump"], data["maker"], data["swapper"]) == (None, None, None)


def test_the_rows_hand_and_rows_are_as_documented() -> None:
    """With rows, `hand` holds the face-up row cards (8 at the auction) and `rows` keeps a card
    once it is played; the docs and the schema say so."""
    rules = PRESETS["two-handed-rows"]
    st = HandState.deal(rules, 0, random.Random(7))
    view = st.view(1)
    tops = {top for top, _ in view.rows[1]}
    assert len(view.hand) == 8 and tops <= set(view.hand)
    bot = RandomBot(3)

    def row_cards_played() -> set[int]:
        played = {c for _, cards, _ in st.tricks for _, c in cards}
        return played & {top for s in (0, 1) for top, _ in st.view(s).rows[s]}

    while not row_cards_played():
        st.apply_action(bot.choose(st.view(st.cur)))
    for seat in (0, 1):
        view = st.view(seat)
        mine = row_cards_played() & {top for top, _ in view.rows[seat]}
        assert not mine & set(view.hand)  # listed in rows still, gone from the hand
    doc = (ROOT / "docs/writing-a-bot.md").read_text()
    schema = load_schema("view")["properties"]
    for text in (doc, schema["hand"]["description"]):
        assert "face-up row cards" in text and "8 at the auction" in text
    for text in (doc, schema["rows"]["description"]):
        assert "A card played from a row stays listed".lower() in text.lower()


def test_the_players_doc_names_the_list_that_has_plug_ins() -> None:
    from euchre.bots import BOT_NAMES, level_names, register, unregister

    doc = " ".join((ROOT / "docs/players.md").read_text().split())
    assert "`euchre.bots.level_names()` lists every name" in doc
    register("doc-plug-in", RandomBot)
    try:
        assert "doc-plug-in" in level_names() and "doc-plug-in" not in BOT_NAMES
    finally:
        unregister("doc-plug-in")


def test_the_docs_say_a_tournament_stops_on_a_first_failed_hello(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", f"{BROKEN} version", "rule", "--hands", "4"]) == 2
    assert "speaks protocol 99" in capsys.readouterr().err
    doc = " ".join((ROOT / "docs/writing-a-bot.md").read_text().split())
    assert "fails its hello then stops the run before any deal" in doc
