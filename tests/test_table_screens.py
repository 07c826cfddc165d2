"""What a player sees between the moves, checked on a drawn (not real) terminal: held tricks
when cards are played for you, 'last' paging back, the header between hands, the final screen
after a saved game, a resumed game's --save, and the words of stats and puzzles."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pexpect
from rich.console import Console
from test_play_cli import MOVE, NEXT, OVER, SAVE, plain, spawn, unwrapped

import euchre
from euchre import actions as A
from euchre.match import Match
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.state import HandState
from euchre.tui import GameSettings, TerminalGame, save_path_from_record
from euchre.tui.render import TableContext
from euchre.tui.stats import Stats, table
from euchre.view import SeatView

EUCHRE = str(Path(sys.executable).parent / "euchre")


@dataclass
class Entry:
    kind: str
    """draw, sleep or read."""
    view: SeatView | None = None
    ctx: TableContext | None = None
    seconds: float = 0.0

    @property
    def message(self) -> str:
        return " ".join(m.plain for m in self.ctx.message) if self.ctx else ""


class Recorded(TerminalGame):
    """A table on a terminal of its own: every screen drawn and every pause, in order."""

    def __init__(self, match: Match, answers: list[str] | None = None, delay: float = 0.6
                 ) -> None:
        self.log: list[Entry] = []
        self.answers = list(answers or [])
        self.file = io.StringIO()
        console = Console(file=self.file, force_terminal=True, width=80)
        super().__init__(match, GameSettings(seats=["rule", "rule", "human", "rule"],
                                             delay=delay),
                         console, read_line=self.answer, sleep=self.slept)

    def draw(self, view: SeatView, ctx: TableContext) -> None:
        self.log.append(Entry("draw", view, ctx))
        super().draw(view, ctx)

    def slept(self, seconds: float) -> None:
        self.log.append(Entry("sleep", seconds=seconds))

    def answer(self, prompt: str) -> str:
        self.log.append(Entry("read"))
        if self.answers:
            return self.answers.pop(0)
        if prompt.startswith("Your move"):
            return "1"
        if sum(x.kind == "read" for x in self.log) > 400:
            raise EOFError
        return ""


def test_a_trick_your_card_was_played_for_you_in_is_held_even_at_no_delay() -> None:
    game = Recorded(Match(Rules(), seed=1), delay=0.0)
    game.run()
    held = [i for i, x in enumerate(game.log) if x.ctx is not None and x.ctx.held]
    forced = [i for i, x in enumerate(game.log) if "is played for you" in x.message]
    assert forced, "no card was played for the player"
    for f in forced:
        i = next(i for i in held if i > f)
        assert game.log[i + 1] == Entry("sleep", seconds=1.5), game.log[i:i + 2]
    # A trick the player chose their card in keeps the pace asked for (none).
    assert len(held) > len(forced) + 2
    assert sum(x.kind == "sleep" for x in game.log) == len(forced)


def test_last_pages_back_through_the_tricks_of_the_hand() -> None:
    game = Recorded(Match(Rules(), seed=1), answers=["pass", "KS", "last", "last", "last",
                                                     "last", "quit", "n"], delay=0.0)
    game.run()
    shown = [x.message for x in game.log if x.kind == "draw"]
    pages = [s for s in shown if "Trick " in s and ("Last:" in s or "Earlier:" in s)]
    assert len(pages) == 4, pages
    assert re.search(r"Last: Trick 2: .* last again: trick 1", pages[0]), pages[0]
    assert re.search(r"Earlier: Trick 1: You K♠, W A♠, N Q♠, E 9♦ - won by West", pages[1])
    assert "Last: Trick 2" in pages[2] and "Earlier: Trick 1" in pages[3]


def test_between_hands_the_header_names_the_hand_just_played_and_its_dealer() -> None:
    m = Match(Rules(), seed=1)
    game = Recorded(m, delay=0.0)
    game.run()
    dealers = [f.dealer for f in m.finished]
    screens = 0
    for x in game.log:
        if x.view is not None and x.ctx is not None and x.ctx.hand_no <= len(dealers):
            assert x.view.dealer == dealers[x.ctx.hand_no - 1], (x.ctx.hand_no, x.view.dealer)
            screens += 1
    assert screens > 20 and len(dealers) >= 2


def test_you_pick_it_up_alone_reads_in_the_first_person() -> None:
    for seed in range(200):
        m = Match(Rules(), seed=seed)
        while m.hand.phase_name == Phase.BID1 and m.current_player != m.hand.dealer:
            m.apply_action(A.PASS)
        if m.hand.dealer == 2 and A.ORDER_ALONE in m.legal_actions():
            break
    else:
        raise AssertionError("South never dealt")
    game = Recorded(m)
    before = m.hand
    m.apply_action(A.ORDER_ALONE)
    assert game.event_line(2, A.ORDER_ALONE, before).plain == "You pick it up alone"
    assert game.event_line(3, A.ORDER_ALONE, HandState(Rules(), 3, before.deck)).plain == \
        "West picks it up alone"


def test_a_game_saved_with_save_ends_on_a_screen_that_waits(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    child = spawn("--seed", "4", "--target", "1", "--save", str(saved))
    while (i := child.expect([MOVE, NEXT, OVER, SAVE, pexpect.EOF])) < 2:
        child.sendline("1" if i == 0 else "")
    assert i == 2, plain(child.before)[-500:]
    said = plain(child.before)
    assert "Game over:" in said
    assert unwrapped(f"Saved the game record to {saved}") in unwrapped(said)
    child.sendline("wat")
    child.expect(OVER)
    assert "'wat' is not an option here." in plain(child.before)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and euchre.from_json(saved.read_text("utf-8")).winner is not None


def test_a_resumed_game_still_saves_where_save_asked(tmp_path: Path) -> None:
    final, part = tmp_path / "final.json", tmp_path / "part.json"
    child = spawn("--seed", "4", "--target", "1", "--save", str(final))
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(SAVE)
    child.sendline(str(part))
    child.expect(pexpect.EOF)
    text = part.read_text(encoding="utf-8")
    assert save_path_from_record(text) == str(final) and json.loads(text)["save"] == str(final)
    again = spawn("--resume", str(part))
    while (i := again.expect([MOVE, NEXT, OVER, SAVE, pexpect.EOF])) < 2:
        again.sendline("1" if i == 0 else "")
    assert i == 2, plain(again.before)[-500:]  # not "Save this game as a record?"
    again.sendline("")
    again.expect(pexpect.EOF)
    assert euchre.from_json(final.read_text(encoding="utf-8")).winner is not None
    assert save_path_from_record(final.read_text(encoding="utf-8")) is None


def test_stats_say_we_only_with_a_partner() -> None:
    stats = Stats()
    for rules, title in ((Rules(), "standard"), (Rules(players=3, going_alone=False),
                                                 "cutthroat"),
                         (Rules(players=2, going_alone=False), "two-handed")):
        h = HandState(rules, 0, euchre.cards.deck_cards(24))
        while not h.is_terminal():
            legal = h.legal_actions()
            h.apply_action(next((a for a in legal if a != A.PASS), legal[0]))  # no throw-in
        stats.add_hand(title, h, 0)
    blocks = "\n".join(table(stats)).split("\n")
    by_title: dict[str, str] = {}
    for line in blocks:
        if not line.startswith(" "):
            current = line
        by_title[current] = by_title.get(current, "") + line + "\n"
    assert " we called trump" in by_title["standard"] and "my loners" in by_title["standard"]
    for lone in ("cutthroat", "two-handed"):
        assert " we " not in by_title[lone] and "my " not in by_title[lone], by_title[lone]
        assert "you called trump" in by_title[lone]
    assert Stats.from_json(stats.to_json()).by_rules == stats.by_rules


def test_puzzles_help_and_answers_read_cleanly() -> None:
    r = subprocess.run([EUCHRE, "puzzles", "--help"], capture_output=True, text=True,
                       check=False, env={**os.environ, "COLUMNS": "80"})
    assert r.returncode == 0 and "95%" in r.stdout and "%%" not in r.stdout
    r = subprocess.run([EUCHRE, "puzzle", "--seed", "1", "--answer", "9H"], capture_output=True,
                       text=True, check=False, env={**os.environ, "COLUMNS": "50"})
    lines = r.stdout.splitlines()
    answer = lines[lines.index("Which card is clearly best?") + 1:]
    assert answer and all(len(ln) < 50 for ln in answer), answer
    assert "points a hand on average" in " ".join(answer)
    r = subprocess.run([EUCHRE, "puzzle", "--seed", "1", "--answer", "zz"], capture_output=True,
                       text=True, check=False)
    assert "'zz' is not a card" in r.stdout and "JOKER" not in r.stdout


def test_every_option_is_listed_on_a_narrow_screen() -> None:
    m = Match(Rules(), seed=1)  # East deals; West orders up and East has six cards to bury
    game = TerminalGame(m, GameSettings(seats=["rule", "human", "rule", "rule"]),
                        Console(file=io.StringIO(), width=40))
    while m.hand.phase_name != Phase.DISCARD:
        m.apply_action(A.ORDER if m.current_player == 3 else A.PASS)
    view = m.hand.view(1)
    assert len(view.legal_actions) == 6
    lines = [t.plain for t in game.options(view)]
    assert all(len(ln) <= 39 for ln in lines), lines
    assert all(f"{k}) discard " in " ".join(lines) for k in range(1, 7)), lines
