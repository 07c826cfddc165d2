"""An action's words, from their one home (``euchre.words``): the grammar for every subject
(the reader's own seat, a person's name, a computer's label, a partnership), alone or not; the
game's end with the winner's score first; and the table's messages, which carry these words to
every viewer in that viewer's own person, the page only showing them."""

from __future__ import annotations

import ast
import itertools
import random
import re
from pathlib import Path

import pytest

from euchre import actions as A
from euchre.actions import action_from_str
from euchre.bots import make_bot
from euchre.match import Match
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.view import HIDDEN_DISCARD, HIDDEN_SWAP
from euchre.web.store import SeatData, TableData
from euchre.web.table import Table
from euchre.words import (
    YOU,
    Moment,
    Who,
    action_words,
    game_over_title,
    hand_result,
    side,
)

pytestmark = pytest.mark.core

#: Subjects a sentence may have: the reader, people (one named like a seat, one with a mark
#: telling same-named people apart) and computers, alone and in partnerships.
NAMES = ["East (rule)", "West (search)", "Ann", "Bo#2", "North", "Player 2", "Zoë"]
SUBJECTS = [YOU, *(Who(n) for n in NAMES)]

#: Every action in every phase it can be taken in.
PHASED = [(a, p) for p in Phase if p != Phase.OVER
          for a in [*range(33), *range(A.DISCARD_BASE, A.DISCARD_BASE + 33), *range(73, 100),
                    A.SWAP_BASE, A.NUM_ACTIONS - 1, HIDDEN_DISCARD, HIDDEN_SWAP]
          if a not in (83,) and not 33 <= a < A.DISCARD_BASE]


def test_every_act_agrees_with_every_subject() -> None:
    """"You pass" and "East (rule) passes", never "You passes" or "East (rule) pass": the
    verb of each act, in each phase, after the reader and after every name."""
    for a, phase in PHASED:
        for seat, dealer in ((0, 3), (3, 3)):  # another seat's act and the dealer's
            at = Moment(phase, seat, dealer)
            mine = action_words(a, at, "done", YOU)
            verb = mine.split()[1]
            assert mine.startswith("You ") and (verb == "pass" or not verb.endswith("s")), mine
            for who in SUBJECTS[1:]:
                theirs = action_words(a, at, "done", who)
                assert theirs.startswith(who.name + " "), theirs
                verb = theirs[len(who.name) + 1:].split()[0]
                assert verb.endswith("s"), theirs
                assert theirs[len(who.name):] == " " + action_words(a, at, "done")


def test_options_read_back_as_the_action_they_offer() -> None:
    for a, phase in PHASED:
        if a < 0:
            continue  # another seat's face-down discard or swap: never an option
        for seat in (0, 3):
            words = action_words(a, Moment(phase, seat, 3))
            assert action_from_str(words) == a, (a, phase, words)


def test_ordering_up_is_picking_it_up_for_the_dealer_and_a_joker_is_named() -> None:
    assert action_words(A.ORDER, Moment(Phase.BID1, 3, 3)) == "pick it up"
    assert action_words(A.ORDER_ALONE, Moment(Phase.BID1, 3, 3)) == "pick it up alone"
    assert action_words(A.ORDER_ALONE, Moment(Phase.BID1, 1, 3), "done", Who("East (rule)")) \
        == "East (rule) orders it up alone"
    joker = Moment(Phase.BID1, 3, 3, upcard=32)
    assert action_words(A.call(2), joker, "done", YOU) == "You name ♥"
    assert action_words(A.call(2), Moment(Phase.BID2, 0, 3), "done", YOU) == "You call ♥"
    assert action_words(A.call(2), Moment(Phase.TRUMP, 0, 1, 2), "done", Who("Ann")) \
        == "Ann names ♥ trump"
    assert action_words(A.PASS, Moment(Phase.DEFEND, 0, 3), "done", YOU) \
        == "You decline to defend alone"
    assert action_words(A.PASS, Moment(Phase.DEFEND, 0, 3), "gerund") == "not defending alone"


@pytest.mark.parametrize("who", SUBJECTS, ids=lambda w: w.name)
def test_a_hands_result_reads_right_for_every_maker_alone_or_not(who: Who) -> None:
    """"You were euchred" / "East (rule) was euchred", "went alone and made it": the bugs were
    "You was euchred" and "East (rule) (alone) made it"."""
    be = "were" if who is YOU else "was"
    for alone, (tricks, done) in itertools.product(
            (False, True), ((0, f"{be} euchred"), (2, f"{be} euchred"), (3, "made it"),
                            (4, "made it"), (5, "took all the tricks"))):
        said = hand_result("scored", who, alone=alone, tricks=tricks)
        lead = "went alone and " if alone else ""
        assert said == f"{who.name} {lead}{done}", said
        assert "(alone)" not in said and "You was" not in said
    assert hand_result("scored", who, alone=False, tricks=9, contract=8,
                       tricks_per_hand=12) == f"{who.name} bid 8 and took 9 tricks: made it"
    assert hand_result("scored", who, alone=False, tricks=1, contract=7,
                       tricks_per_hand=12) == f"{who.name} bid 7 and took 1 trick, short of the bid"


def test_the_game_over_title_puts_the_winners_score_first() -> None:
    east_west = side(Who("East (rule)"), Who("West (rule)"))
    assert game_over_title(east_west, [5, 10], 10) == "East (rule) & West (rule) win 10 – 5!"
    assert game_over_title(side(Who("North (rule)"), YOU), [10, 3], 10) \
        == "You & North (rule) win 10 – 3!"
    assert game_over_title(Who("Ann"), [7, 10], 10) == "Ann wins 10 – 7!"
    assert game_over_title(YOU, [3, 10, 6], 10) == "You win 10 – 3 – 6!"
    assert game_over_title(None, [0, 0]) == "Game over: nobody scored."
    assert game_over_title(None, [4, 4]) == "Game over: a draw."


# the table's messages ----------------------------------------------------------------------------

SEATS = ["North (rule)", "East (rule)", "Ann", "West (rule)"]


def table_after(log: list[tuple[int, int]], rules: Rules, seed: int,
                names: list[str] = SEATS) -> Table:
    seats = [SeatData(i, f"tok{i}", "human" if "(" not in n else "computer", "rule", n, True)
             for i, n in enumerate(names)]
    return Table(TableData("t1", 0.0, rules.to_dict(), seed, "inv", seats, log, None, []))


def a_lone_hand(made: bool) -> tuple[Rules, int, list[tuple[int, int]], int]:
    """A game played by rule players until a lone hand ends (made or euchred, as asked):
    (rules, seed, the log, the lone maker)."""
    rules = Rules(target=10)
    for seed in range(400):
        m = Match(rules, seed=seed)
        bots = [make_bot("rule", seed * 4 + s) for s in range(4)]
        log = []
        while not m.is_terminal():
            hand = m.hand
            seat = m.current_player
            a = bots[seat].choose(m.view(seat))
            m.apply_action(a)
            log.append((seat, a))
            if m.hand is not hand and hand.alone and hand.outcome == "scored":
                if (hand.maker_tricks() >= 3) == made:
                    return rules, seed, log, hand.maker
                break
    raise AssertionError("no such lone hand in 400 games")


@pytest.mark.parametrize("made", [True, False])
def test_every_viewer_reads_a_lone_hand_in_its_own_person(made: bool) -> None:
    rules, seed, log, maker = a_lone_hand(made)
    table = table_after(log, rules, seed)
    done = "made it" if made else "euchred"
    for viewer in (-1, 0, 1, 2, 3):
        s = table.state_message(viewer)
        said = s.result[0]
        subject = "You" if viewer == maker else SEATS[maker]
        assert said.startswith(f"{subject} went alone and "), said
        assert done in said or "took all the tricks" in said, said
        if not made:
            be = "were" if viewer == maker else "was"
            assert said.startswith(f"{subject} went alone and {be} euchred"), said
        assert "(alone)" not in said and "You was" not in said
        assert s.result[2].startswith("Score: ") and s.result[1].startswith("Tricks: ")
        mine = [n for n in s.sides if n.startswith("You")]
        assert len(mine) == (1 if viewer >= 0 else 0), s.sides


def test_the_states_words_are_each_viewers_and_the_title_leads_with_the_winner() -> None:
    rules = Rules(target=5)
    m = Match(rules, seed=7)
    bots = [make_bot("rule", s) for s in range(4)]
    log = []
    while not m.is_terminal():
        seat = m.current_player
        a = bots[seat].choose(m.view(seat))
        m.apply_action(a)
        log.append((seat, a))
    table = table_after(log, rules, 7)
    w = m.winner
    assert w is not None
    for viewer in (-1, 0, 1, 2, 3):
        s = table.state_message(viewer)
        score = f"{m.scores[w]} – {m.scores[1 - w]}"
        mine = viewer >= 0 and viewer % 2 == w
        names = [SEATS[w], SEATS[w + 2]]
        expected = (f"You & {names[1 - names.index(SEATS[viewer])]}" if mine
                    else " & ".join(names)) + f" win {score}!"
        assert s.title == expected, (viewer, s.title)
    # a bid's words, each for its own reader: the legal choices are the seat's options
    table = table_after([], rules, 7)
    cur = table.match.current_player
    s = table.state_message(cur)
    texts = {a.code: a.text for a in s.legal}
    assert texts["pass"] == "Pass" and texts["order"] in ("Order up", "Pick it up")
    table.apply(cur, A.PASS)
    for viewer in range(4):
        last = table.state_message(viewer).last
        assert last is not None
        assert last.text == ("You pass" if viewer == cur else f"{SEATS[cur]} passes")
        assert last.said == "Pass" and last.code == "pass"


def test_the_browser_and_terminal_word_no_action_themselves() -> None:
    """The copies are gone: no script re-words an action (the page shows the server's words),
    and no module but ``euchre.words`` spells out the options' phrases."""
    static = Path(__file__).parent.parent / "euchre" / "web" / "static" / "js"
    assert not (static / "bids.js").exists()
    for js in static.glob("*.js"):
        text = js.read_text()
        assert "bidText" not in text and not re.search(r'"Pick it up"|"Order up"', text), js
    package = Path(__file__).parent.parent / "euchre"
    phrases = {"picks it up", "orders it up", "pick it up", "order up alone", "assist",
               "declines to defend alone", "goes alone", "with partner"}
    for py in package.rglob("*.py"):
        if py.relative_to(package).as_posix() in ("words.py", "actions.py"):
            continue  # the home, and the notation's reader of what a person types
        for node in ast.walk(ast.parse(py.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value.strip().lower() not in phrases, (py, node.lineno, node.value)


def test_a_random_game_has_words_for_every_act_every_viewer_sees() -> None:
    rules = Rules(farmers_hand="swap", defend_alone=True, target=5)
    rng = random.Random(3)
    m = Match(rules, seed=3)
    log: list[tuple[int, int]] = []
    while not m.is_terminal() and len(log) < 300:
        seat = m.current_player
        a = rng.choice(m.legal_actions())
        m.apply_action(a)
        log.append((seat, a))
        table = table_after(log, rules, 3)
        for viewer in (-1, seat, (seat + 1) % 4):
            s = table.state_message(viewer)
            for ev in [*s.bids, *([s.last] if s.last else [])]:
                if ev.kind != "quiet":
                    assert ev.text and ev.said, ev
                    assert not ev.text.startswith("You ") or ev.seat == viewer
