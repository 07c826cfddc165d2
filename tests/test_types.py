"""The types say what they mean: a phase is a :class:`~euchre.phases.Phase` that no string
compares equal to under mypy, seats and cards carry their aliases in signatures, and the
two-handed rows game is asked about through its variant, never through the ``rows`` option."""

from __future__ import annotations

import ast
import json
import random
import re
import textwrap
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest
from mypy import api as mypy_api

import euchre.phases as P
from euchre import HandState, Rules
from euchre.bots.protocol import view_from_json, view_to_json
from euchre.cards import deck_cards
from euchre.phases import PHASE_NAMES, PHASES, Phase
from euchre.rules import PRESETS, preset
from euchre.scoring import hand_points
from euchre.solver import NotSolvableError, position_of, solvable
from euchre.variants import ROWS, STANDARD, variant_for

pytestmark = pytest.mark.core

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "euchre"


# ---------------------------------------------------------------------------------------------
# Phases


def test_phase_members_are_the_engine_numbers_and_the_wire_words() -> None:
    assert len(PHASES) == len(PHASE_NAMES) == 13
    for number, phase in enumerate(PHASES):
        assert getattr(P, phase.name) == number == phase.number  # P.PLAY == 7 == Phase.PLAY
        assert phase.value == PHASE_NAMES[number] == str(phase) == f"{phase}"
        assert Phase.of(phase.value) is phase
        assert phase.task == P.PHASE_TASKS[number]
    assert PHASE_NAMES[:3] == ("declare", "bid1", "bid2")


def test_an_unknown_phase_word_is_refused_with_the_words_allowed() -> None:
    with pytest.raises(ValueError, match=r"unknown phase 'plya': one of declare, bid1, .*trump"):
        Phase.of("plya")


def test_views_carry_a_phase_and_send_its_word() -> None:
    h = HandState.deal(Rules(), 0, random.Random(3))
    view = h.view(h.cur)
    assert view.phase is Phase.BID1 and h.phase_name is Phase.BID1
    assert msgspec.json.decode(msgspec.json.encode({"phase": view.phase})) == {"phase": "bid1"}
    data = json.loads(json.dumps(view_to_json(view)))  # the bot protocol: plain JSON
    assert data["phase"] == "bid1"
    assert view_from_json(data, view.rules).phase is Phase.BID1


_TYPOS = '''
from euchre import HandState, SeatView
from euchre.phases import Phase


def misspelt(view: SeatView) -> bool:
    return view.phase == "plya"


def misspelt_in_a_tuple(view: SeatView) -> bool:
    return view.phase in ("play", "bdi1")


def right_word_still_a_string(state: HandState) -> bool:
    return state.phase_name != "play"


def misspelt_member(view: SeatView) -> bool:
    return view.phase == Phase.PLYA


def fine(view: SeatView, state: HandState) -> bool:
    return view.phase == Phase.PLAY or state.phase_name in (Phase.BID1, Phase.BID2)
'''


def test_mypy_strict_rejects_a_phase_compared_with_a_string(tmp_path: Path) -> None:
    """The point of the enumeration: a misspelt phase (or any word at all) fails the type
    check instead of being a comparison that is silently never true."""
    src = tmp_path / "typos.py"
    src.write_text(_TYPOS)
    out, err, status = mypy_api.run(["--strict", "--no-error-summary", "--hide-error-context",
                                     "--config-file", str(ROOT / "pyproject.toml"), str(src)])
    assert status == 1, out + err
    lines = {int(m.group(1)): m.group(2) for m in re.finditer(r"typos\.py:(\d+): error: (.*)", out)}
    text = _TYPOS.split("\n")
    flagged = {text[n - 1].strip() for n in lines}
    assert flagged == {'return view.phase == "plya"', 'return view.phase in ("play", "bdi1")',
                       'return state.phase_name != "play"', "return view.phase == Phase.PLYA"}, out


# ---------------------------------------------------------------------------------------------
# Seat and Card in signatures

SEAT_NAMES = {"seat", "dealer", "leader", "maker", "lone_defender", "current_player", "swapper",
              "winner", "cur", "who", "bidder", "claimant", "viewer", "opp", "turn", "eldest",
              "you", "bottom"}
CARD_NAMES = {"card", "upcard", "discard", "up", "top", "under", "lead"}


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_seats_and_cards_are_annotated_with_their_aliases() -> None:
    """An argument or field named for a seat (``dealer``, ``maker``...) is a ``Seat``, one named
    for a card (``upcard``, ``discard``...) a ``Card``: never a bare ``int``."""
    bare = []
    for path in _sources():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.arg):
                name, ann = node.arg, node.annotation
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                name, ann = node.target.id, node.annotation
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
                name, ann = node.target.attr, node.annotation
            else:
                continue
            if ann is None or name not in SEAT_NAMES | CARD_NAMES:
                continue
            core = ann.left if isinstance(ann, ast.BinOp) else ann  # int | None
            if isinstance(core, ast.Name) and core.id == "int":
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}: int")
    assert bare == []


# ---------------------------------------------------------------------------------------------
# The rows game behind its variant

#: The rules' own module defines the option; the variants module maps rules to a game.
ROWS_OPTION_READERS = {"euchre/rules.py", "euchre/variants.py"}


def _reads_rows_option(node: ast.Attribute) -> bool:
    v = node.value
    return (isinstance(v, ast.Name) and v.id in ("rules", "r", "rs")) or (
        isinstance(v, ast.Attribute) and v.attr == "rules")


def test_no_module_but_the_game_definitions_reads_the_rows_option() -> None:
    """The sampler, bots, analysis, solver, encoders, terminal and web ask the variant (or the
    view's ``variant``) how the game differs; none of them branches on ``rules.rows``."""
    readers = []
    for path in _sources():
        rel = str(path.relative_to(ROOT))
        if rel in ROWS_OPTION_READERS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "rows" and _reads_rows_option(node):
                readers.append(f"{rel}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "getattr" and \
                    any(isinstance(a, ast.Constant) and a.value == "rows" for a in node.args):
                readers.append(f"{rel}:{node.lineno} getattr")
    for js in sorted((PACKAGE / "web" / "static").rglob("*.js")):
        for n, line in enumerate(js.read_text().splitlines(), 1):
            if re.search(r"rules\s*(\.\s*rows\b|\[\s*['\"]rows['\"])|isRows|\? 12 : 5", line):
                readers.append(f"{js.relative_to(ROOT)}:{n}")
    assert readers == []


def test_the_scan_finds_a_rows_test_where_there_is_one() -> None:
    """The scan above is not vacuous: it sees the option where it is read."""
    tree = ast.parse(textwrap.dedent("""
        if view.rules.rows or rules.rows or r.rows:
            pass
        view.rows  # the view's row cards: data, not the option
    """))
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "rows"
             and _reads_rows_option(n)]
    assert len(found) == 3


def test_the_variants_answer_what_their_clients_ask() -> None:
    rows = preset("two-handed-rows")
    assert variant_for(rows) is ROWS and variant_for(Rules()) is STANDARD
    assert (ROWS.tricks_per_hand, ROWS.row_columns, ROWS.bids_tricks, ROWS.lasting_voids) == \
        (12, 4, True, False)
    assert (STANDARD.tricks_per_hand, STANDARD.row_columns, STANDARD.bids_tricks,
            STANDARD.lasting_voids) == (5, 0, False, True)
    assert {name for name, r in PRESETS.items() if not solvable(r)} == {
        name for name, r in PRESETS.items() if r.rows}
    assert not solvable(rows)


def test_the_solver_refuses_a_rows_hand_by_asking_whether_it_can_play_it() -> None:
    rules = preset("two-handed-rows")
    h = HandState(rules, 0, deck_cards(rules.deck))
    while h.phase_name != Phase.PLAY:
        h.apply_action(h.legal_actions()[0])
    with pytest.raises(NotSolvableError, match="five-card hands"):
        position_of(h)


def test_a_contract_of_tricks_scores_by_the_rows_table() -> None:
    rows = preset("two-handed-rows")
    sc = rows.scoring
    assert hand_points(rows, 0, 9, contract=8) == (sc.make * 3, 0)
    assert hand_points(rows, 1, 7, contract=8) == (0, 0)  # a missed bid: nobody scores
    assert hand_points(replace(rows, rows_euchre=True), 1, 7, contract=8) == (sc.euchre, 0)
    assert hand_points(Rules(), 0, 5) == (sc.march, 0)
