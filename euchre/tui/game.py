"""The terminal game loop: computer turns at a readable pace, the player's turns as a prompt.

On a terminal the table is redrawn in place after every act; when the output is a file or a
pipe, the loop writes one plain line per act instead (and the table before each of the player's
turns), so ``euchre play --watch > game.txt`` stays readable. What a typed line means is
:mod:`euchre.tui.commands`'s to say; this module draws, paces, reads and saves. Games are saved
as ordinary records (``euchre replay`` reads them) with extra keys: ``players`` (who sat where),
``rated``, and ``save`` (the ``--save`` file of a game saved part-way, where the resumed game's
record goes).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from euchre import actions as A
from euchre.bots import Adviser, Bot, make_bot
from euchre.cards import cards_of, sort_hand
from euchre.match import Match
from euchre.narrate import last_act
from euchre.phases import Phase
from euchre.record import match_to_record
from euchre.seats import Seat
from euchre.state import HandState
from euchre.tui import commands as C
from euchre.tui.commands import Info, Move, Refusal, Request
from euchre.tui.render import (
    ASCII,
    UNICODE,
    Glyphs,
    TableContext,
    action_text,
    card_text,
    red_suits,
    render_table,
    wrap_items,
    wrap_text,
)
from euchre.tui.review import result_lines, review_lines, worth_reviewing
from euchre.tui.rules_text import rules_lines, rules_title, rules_titles
from euchre.tui.stats import StatsRecorder
from euchre.view import HIDDEN_DISCARD, HIDDEN_SWAP, SeatView
from euchre.words import Moment, action_words

HUMAN = "human"
DEFAULT_SAVE = "euchre-save.json"

#: Seconds a forced card (the only legal one) stays on screen before it is played for you.
AUTOPLAY_PAUSE = 0.6


class _Quit(Exception):
    """The player left (saved or not): unwinds the game loop."""


#: ``ask`` returns this when the player took back a move: the loop starts the turn again.
UNDONE = -100


def human_seat(players: int) -> int:
    """South in the four-handed game; Player 1 (seat 0) with two or three players."""
    return 2 if players == 4 else 0


@dataclass
class GameSettings:
    seats: list[str]
    """Per seat: "human" or a bot name."""
    delay: float = 0.6
    ascii: bool = False
    save_path: str | None = None
    title: str | None = None
    """Shown in the title line; None: the rules in words (``standard + defend alone``)."""
    bot_seed: int = 0
    think: str | None = None
    """The search players' budget (``--think``); None: the default strength."""
    hold: float | None = None
    """Seconds a finished trick stays on the table (at least ``delay``); None: 2.5 x delay."""
    autoplay: bool = True
    """Play the player's only legal card for them, after a short pause."""
    rated: bool = False
    """A rated game: no undo."""
    launcher: str = "euchre play"
    """The command the player started with, for "continue with ... --resume FILE"."""
    stats_path: Path | None = None
    """Where to keep the player's statistics; None: none kept."""
    markers: str = "5-6"
    """Score cards beside the score: the traditional "5-6" or the older "5-4"."""


class TerminalGame:
    """Runs one match at a terminal (or any text stream): draws, paces and reads; what a typed
    line means is :mod:`euchre.tui.commands`'s to say."""

    def __init__(
        self,
        match: Match,
        settings: GameSettings,
        console: Console,
        read_line: Callable[[str], str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.match = match
        self.settings = settings
        self.console = console
        self.live = console.is_terminal
        self.g: Glyphs = ASCII if settings.ascii else UNICODE
        self.n = match.rules.players
        humans = [s for s, who in enumerate(settings.seats) if who == HUMAN]
        self.human: int | None = humans[0] if humans else None
        self.seating = C.Seating(self.n, self.human)
        self.bottom = self.human if self.human is not None else human_seat(self.n)
        self.bots: dict[int, Bot] = {
            s: make_bot(who, settings.bot_seed * 10 + s, think=settings.think)
            for s, who in enumerate(settings.seats) if who != HUMAN
        }
        self.adviser = Adviser(settings.bot_seed * 10 + 9, settings.think)  # the search player
        self._read = read_line or self._default_read
        self._sleep = sleep
        self.recent: list[Text] = []
        self.prev_tricks: tuple[C.Trick, ...] = ()
        """The previous hand's tricks, for ``last`` before this hand's first trick."""
        self.forced = False
        """The player's card in the trick under way was played for them."""
        self.saved_to: str | None = None
        self.width = min(console.width, 79)
        self.rules_name = rules_title(match.rules, room=10_000)
        self.stats = (StatsRecorder(settings.stats_path, self.rules_name, self.human)
                      if settings.stats_path is not None and self.human is not None else None)
        others_are_bots = all(w != HUMAN for s, w in enumerate(settings.seats) if s != self.human)
        self.can_undo = not settings.rated and others_are_bots and self.human is not None
        self.again = False

    # ------------------------------------------------------------------------------------------
    # The command layer, in this table's alphabet

    def parse(self, text: str, view: SeatView, hand: HandState) -> tuple[int | None, str]:
        return C.parse(text, view, hand, self.g)

    def choices_text(self, view: SeatView) -> str:
        return C.choices_text(view, self.g)

    @staticmethod
    def suit_call(text: str, view: SeatView) -> int | None:
        return C.suit_call(text, view)

    def declaration_notes(self, view: SeatView) -> list[str]:
        """The notes, wrapped to the screen."""
        return [x.plain for n in C.declaration_notes(view) for x in wrap_text(Text(n), self.width)]

    def resume_command(self, path: str) -> str:
        return C.resume_command(path, self.settings.launcher)

    # ------------------------------------------------------------------------------------------
    # Output

    def out(self, t: Text | str) -> None:
        """A table line: cropped, never wrapped (render.py already sized it)."""
        self.console.print(Text(t) if isinstance(t, str) else t, overflow="crop", no_wrap=True,
                           crop=True, highlight=False)

    def say(self, t: Text | str) -> None:
        """A message: wrapped at the screen width (long file names fold). Strings are plain
        text, never Rich markup: a file name like ``[/x]`` must print as itself."""
        self.console.print(Text(t) if isinstance(t, str) else t, overflow="fold",
                           highlight=False)

    def hold_seconds(self, forced: bool = False) -> float:
        """How long a finished trick stays on the table. One the player's card was played for
        them in is held at least as long as at the default pace: no prompt of theirs follows
        to show it, and the next lead would replace it unseen."""
        s = self.settings
        if s.hold is not None:
            return max(s.delay, s.hold)
        return max(s.delay, 2.5 * s.delay, 2.5 * AUTOPLAY_PAUSE if forced else 0)

    def wrapped(self, text: str, style: str = "") -> list[Text]:
        return wrap_text(Text(text, style=style), self.width)

    def context(self, hand: HandState | None = None, message: list[Text] | None = None,
                options: list[Text] | None = None, note: str = "") -> TableContext:
        """What the screen shows around ``hand`` (the current one if None): a finished hand
        keeps its own number after the match has dealt the next."""
        h = hand or self.match.hand
        return TableContext(
            glyphs=self.g,
            name=self.seating.name,
            short=self.seating.short,
            side_names=self.seating.side_names(),
            scores=list(self.match.scores),
            target=self.match.rules.target,
            title=self.settings.title or rules_titles(self.match.rules)[0],
            titles=rules_titles(self.match.rules)[1:],
            hand_no=len(self.match.finished) + (0 if h.is_terminal() else 1),
            bottom=self.bottom,
            message=message or [],
            options=options or [],
            extra_trick_note=note,
            width=self.width,
            plain=self.seating.plain,
            you=self.human if self.human is not None else -1,
            marker_style=self.settings.markers,
        )

    def draw(self, view: SeatView, ctx: TableContext) -> None:
        if self.live:
            self.console.clear()
        for line in render_table(view, ctx):
            self.out(line)

    def bottom_view(self, hand: HandState | None = None) -> SeatView:
        h = hand or self.match.hand
        return h.view(self.bottom, tuple(self.match.scores))

    # ------------------------------------------------------------------------------------------
    # The loop

    def run(self) -> int:
        """Play to the end of the match (or until the player quits); the exit status.

        Nothing the player types ends the game but their own ``quit`` (or Ctrl-C, which offers
        the same save) and the end of input."""
        status = 0
        while True:
            try:
                status = self._run()
            except EOFError:
                self.out("")
                self.say("Input ended: leaving the game without saving.")
                return 0
            except _Quit:
                return 0
            except KeyboardInterrupt:  # a second Ctrl-C, at the save question itself
                self.out("")
                self.say("Interrupted: leaving the game without saving.")
                return 130
            if not self.again:
                return status
            self.new_game()

    def new_game(self) -> None:
        """The same rules and players again, with the next seed's deals."""
        self.again = False
        self.match = Match(self.match.rules, seed=(self.match.seed + 1) % 2**63)
        self.recent = []
        self.prev_tricks = ()
        self.saved_to = None
        if self.settings.save_path:
            p = Path(self.settings.save_path)
            self.settings.save_path = str(p.with_stem(p.stem + "-next"))

    def _run(self) -> int:
        m = self.match
        self.announce_hand()
        while not m.is_terminal():
            seat = m.current_player
            before = m.hand
            # With farmer's hands or no-ace-no-face on, every seat is asked before the bidding
            # (so being asked reveals nothing); a hand with nothing to declare can only pass,
            # which the player is not made to type, and which is not news worth a line.
            declaring = before.phase_name == Phase.DECLARE
            try:
                if declaring and m.legal_actions() == [A.PASS]:
                    action = A.PASS
                elif seat == self.human:
                    asked = self.forced_card(before)
                    if asked is None:
                        asked = self.ask(before)
                    if asked is None:
                        return 0
                    if asked == UNDONE:
                        continue
                    action = asked
                else:
                    action = self.bots[seat].choose(m.hand.view(seat))
            except KeyboardInterrupt:  # Ctrl-C while a computer thinks: nothing was played
                self.interrupted()
                continue
            m.apply_action(action)
            if declaring and action == A.PASS:
                # Every declaration pass alike: a line only for seats that had a choice would
                # tell the table who held a farmer's hand.
                continue
            try:
                self.after_action(seat, action, before)
                if m.hand is not before or m.is_terminal():
                    self.end_of_hand(before)
                    if not m.is_terminal():
                        self.announce_hand()
            except KeyboardInterrupt:  # Ctrl-C while the screen is drawn: the act stands
                self.interrupted()
        # A record asked for with --save that could not be written is a failed run.
        return 0 if self.end_of_game() else 1

    def interrupted(self) -> None:
        """Ctrl-C during play: the same offer as ``quit``; "keep playing" goes on."""
        self.out("")
        if self.human is None:
            raise KeyboardInterrupt
        if self.offer_save("Interrupted. Save first? "):
            raise _Quit
        self.recent = [Text("Not quitting: the game goes on.")]

    def pause(self, seconds: float) -> None:
        """Sleep; Ctrl-C here offers to save, like ``quit``."""
        if seconds <= 0:
            return
        try:
            self._sleep(seconds)
        except KeyboardInterrupt:
            self.interrupted()

    def read(self, prompt: str) -> str:
        """A line of input, cleaned of control codes; Ctrl-C reads as ``quit``."""
        try:
            return C.clean_input(self._read(prompt))
        except KeyboardInterrupt:
            self.out("")
            return "quit"

    def forced_card(self, hand: HandState) -> int | None:
        """With autoplay, the player's only legal card, shown for a moment and then played."""
        assert self.human is not None
        if not self.settings.autoplay or hand.phase_name != Phase.PLAY:
            return None
        legal = hand.legal_actions()
        if len(legal) != 1:
            return None
        self.forced = True
        if self.live:
            view = hand.view(self.human, tuple(self.match.scores))
            note = Text("Your only playable card, ").append_text(card_text(legal[0], self.g))
            note.append(", is played for you.")
            self.draw(view, self.context(message=[*self.recent_lines(2), note]))
            self.pause(min(self.settings.delay, AUTOPLAY_PAUSE))
        return legal[0]

    def announce_hand(self) -> None:
        h = self.match.hand
        t = Text(f"Hand {len(self.match.finished) + 1}: ", style="bold")
        t.append(f"{self.seating.plain(h.dealer)} deal")
        t.append("" if h.dealer == self.human else "s")
        if h.columns:
            t.append("; two-handed with rows: no up-card")
        else:
            t.append("; the up-card is ").append_text(card_text(h.upcard, self.g))
        self.recent = [t]
        if not self.live:
            self.out(t)

    def event_line(self, seat: Seat, action: int, before: HandState) -> Text:
        """What a seat did, in ``euchre.words``' words ("You pick it up", "West passes"), the
        name in bold and red suits coloured; another seat's discard or swap face down."""
        shown = action
        if A.is_discard(action) and seat != self.bottom:
            shown = HIDDEN_DISCARD  # a face-down discard stays hidden
        if action >= A.SWAP_BASE and seat != self.bottom:
            shown = HIDDEN_SWAP
        act = last_act(before.history, before.rules, before.dealer, before.upcard)
        stage = act.stage if act is not None else before.phase_name
        who = self.seating.who(seat)
        at = Moment(stage, seat, before.dealer, before.n, before.upcard)
        t = red_suits(self.g.translate(action_words(shown, at, "done", who)), self.g)
        t.stylize("bold", 0, len(who.name))
        return t

    def after_action(self, seat: Seat, action: int, before: HandState) -> None:
        line = self.event_line(seat, action, before)
        if seat == self.human and action >= A.SWAP_BASE:
            # The player's own swap: say which cards came in, not only which went.
            got = cards_of(before.hands[seat] & ~before.initial_hands[seat])
            line.append(" and get")
            for c in sort_hand(got, before.trump if before.trump < 4 else 4):
                line.append(" ").append_text(card_text(c, self.g))
        self.recent.append(line)
        trick_done: Text | None = None
        if A.is_play(action) and not before.trick and before.tricks:
            # ``before`` is the same object as the hand played: a trick just ended when its
            # current trick is empty after a play.
            _, cards, winner = before.tricks[-1]
            if cards[-1] == (seat, action):
                trick_done = self.trick_line(len(before.tricks), cards, winner)
                self.recent.append(trick_done)
        forced, self.forced = self.forced, self.forced and trick_done is None
        if not self.live:
            self.out(line)
            if trick_done is not None:
                self.out(trick_done)
            return
        if trick_done is not None:
            # Hold the finished trick on the table, winning card highlighted, whoever played
            # its last card: otherwise the next lead replaces it before anyone can read it.
            ctx = self.context(before, message=self.recent_lines(2))
            ctx.held = True
            self.draw(self.bottom_view(before), ctx)
            self.pause(self.hold_seconds(forced))
        elif seat != self.human:
            self.draw(self.bottom_view(before), self.context(before, message=self.recent_lines(2)))
            self.pause(self.settings.delay)

    def trick_line(self, k: int, cards: tuple[tuple[int, int], ...], winner: Seat) -> Text:
        t = Text(f"Trick {k}: ")
        t.append_text(Text(", ").join(
            Text(self.seating.short(s) + " ").append_text(card_text(c, self.g))
            for s, c in cards))
        t.append(" - won by ").append(self.seating.plain(winner), style="bold")
        return t

    def recent_lines(self, rows: int) -> list[Text]:
        """The latest events, packed onto at most ``rows`` lines."""
        sep = f" {self.g.dot} "
        lines = wrap_items(self.recent[-8:], self.width, sep=sep)
        return lines[-rows:]

    def recalled(self, view: SeatView, back: int) -> list[Text]:
        """``last``, asked ``back`` times before in a row: a trick of this hand (or the
        previous one), wrapped to the screen, saying what asking again shows."""
        got = C.recall(view.tricks, self.prev_tricks, back)
        if got is None:
            return self.wrapped("No trick has been played yet.")
        heading, k, (_, cards, winner) = got
        t = Text(f"{heading}: ").append_text(self.trick_line(k, cards, winner))
        after = C.recall(view.tricks, self.prev_tricks, back + 1)
        if after is not None and after[1] != k:
            t.append(f" {self.g.dot} last again: trick {after[1]}", style="dim")
        return wrap_text(t, self.width)

    # ------------------------------------------------------------------------------------------
    # The player's turn

    def options(self, view: SeatView) -> list[Text]:
        items = []
        reneges = C.renege_cards(view)
        for i, a in enumerate(C.menu(view), 1):
            item = Text(f"{i}) ", style="bold cyan").append_text(
                action_text(a, self.g, Moment.of(view)))
            if a in reneges:
                item.append(" (renege)", style="yellow")
            items.append(item)
        return wrap_items(items, self.width)

    def ask(self, hand: HandState) -> int | None:
        """The player's action, None when they quit, or UNDONE after a take-back."""
        assert self.human is not None
        message: list[Text] = []
        recent = self.recent_lines(2)
        self.recent = []
        back = -1  # how many times in a row 'last' was asked, less one
        while True:
            view = hand.view(self.human, tuple(self.match.scores))
            legal = C.menu(view)
            question = Text(C.phase_question(view), style="bold")
            explain = [Text(x, style="dim") for x in self.declaration_notes(view)]
            ctx = self.context(message=[*recent, *self.refit(message), *explain, question],
                               options=self.options(view))
            if not self.live:
                self.out("")
            self.draw(view, ctx)
            numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"
            reply = C.read_turn(self.read(f"Your move ({numbers}, hint, last, help, quit) > "),
                                view, hand, self.g)
            recent = []
            back = back + 1 if reply == Request("last") else -1
            match reply:
                case Move(action):
                    return action
                case Refusal(why):
                    message = self.wrapped(why, "yellow")
                case Info(text):
                    message = self.wrapped(text)
                case Request("hint"):
                    from euchre.analysis.assess import hint  # loads the judges on first use

                    a, why = hint(view, self.settings.bot_seed * 10 + 9, self.settings.think) \
                        or self.adviser.decide(view)
                    t = Text("Hint: ", style="bold").append_text(
                        action_text(a, self.g, Moment.of(view)))  # as the menu says
                    t.append(f" (option {legal.index(a) + 1}). {self.g.translate(why)}")
                    message = wrap_text(t)
                case Request("last"):
                    message = self.recalled(view, back)
                case Request("rules"):
                    self.show_page([Text(x) for x in rules_lines(self.match.rules)])
                    message = []
                case Request("undo"):
                    taken, why = self.undo()
                    if taken:
                        self.recent = [Text(why)]
                        return UNDONE
                    message = self.wrapped(why, "yellow")
                case Request("quit"):
                    if self.offer_save("Save first? "):
                        return None
                    message = [Text("Not quitting: the game goes on.")]

    def refit(self, lines: list[Text]) -> list[Text]:
        """Lines wrapped for 79 columns, wrapped again for a narrower screen."""
        out: list[Text] = []
        for ln in lines:
            out += wrap_text(ln, self.width) if ln.cell_len > self.width else [ln]
        return out

    def undo(self) -> tuple[bool, str]:
        """Take back the player's last choice in this hand and every computer move after it:
        only against computers and in an unrated game; a finished hand stands."""
        if not self.can_undo or self.human is None:
            why = "a rated game" if self.settings.rated else "a game against other people"
            return False, f"Undo is off in {why}."
        again, why = C.take_back(self.match.hand, self.human, self.g)
        if again is None:
            return False, why
        self.match.hand = again
        return True, why

    def show_page(self, lines: list[Text], prompt: str = "Press Enter to go back > ") -> str:
        """A full screen of text (the rules, a review) until Enter; what was typed."""
        if self.live:
            self.console.clear()
        for ln in lines:
            for part in wrap_text(ln, self.width) if ln.cell_len > self.width else [ln]:
                self.out(part)
        return " ".join(self.read(prompt).lower().split())

    # ------------------------------------------------------------------------------------------
    # End of hand, end of game, saving

    def end_of_hand(self, h: HandState) -> None:
        if h.tricks:  # a hand thrown in keeps the one before for 'last'
            self.prev_tricks = tuple(h.tricks)
        self.forced = False
        lines = self.hand_summary(h)
        if self.stats is not None:
            problem = self.stats.hand(h)
            if problem:
                lines.append(Text(problem, style="yellow"))
        if not self.live:
            for ln in lines:
                self.out(ln)
            return
        hand_no = len(self.match.finished)
        if self.human is not None and not self.match.is_terminal():
            self.next_hand_pause(h, hand_no, lines)
            return
        ctx = self.context(h, message=[*self.recent_lines(1), *lines])
        self.draw(self.bottom_view(h), ctx)
        if self.human is None:
            self.pause(self.settings.delay * 3)
        elif worth_reviewing(h):  # the game's last hand, when it is one to look back on
            self.console.clear()
            for ln in self.review(h, hand_no, lines):
                self.out(ln)

    def review(self, h: HandState, hand_no: int, result: list[Text]) -> list[Text]:
        return review_lines(h, hand_no, self.seating.name, self.seating.short, self.g, result,
                            self.width, who=self.seating.who)

    def next_hand_pause(self, h: HandState, hand_no: int, lines: list[Text]) -> None:
        """Between hands: the table or, after a euchre or a lone hand, the review; Enter goes
        on, ``r`` shows the review, ``last`` the last trick, ``quit`` offers to save."""
        view = self.bottom_view(h)
        showing_review = worth_reviewing(h)
        note: list[Text] = []
        back = -1
        keys = C.NEXT_HAND_HELP.format(dot=self.g.dot)
        while True:
            if showing_review:
                if self.live:
                    self.console.clear()
                for ln in [*self.review(h, hand_no, lines), *note, *self.wrapped(
                        keys.replace("r: review this hand", "t: the table"), "dim")]:
                    self.out(ln)
            else:
                ctx = self.context(h, message=[*self.recent_lines(1), *lines, *note,
                                                *self.wrapped(keys, "dim")])
                self.draw(view, ctx)
            reply = C.read_between_hands(self.read("Press Enter for the next hand > "))
            back = back + 1 if reply == Request("last") else -1
            note = []
            match reply:
                case Request("next"):
                    return
                case Request("review"):
                    showing_review = True
                case Request("table"):
                    showing_review = False
                case Request("last"):
                    note = self.recalled(view, back)
                case Request("quit"):
                    if self.offer_save("Save first? "):
                        raise _Quit
                    note = [Text("Not quitting: the game goes on.")]
                case Refusal(why):
                    note = [Text(why, style="yellow")]

    def hand_summary(self, h: HandState) -> list[Text]:
        return result_lines(h, self.seating, self.g, self.match.scores, self.width)

    def end_of_game(self) -> bool:
        w = self.match.winner
        t = Text(self.seating.game_over(w), style="bold")
        self.say(t.append(f". Final score: {self.seating.score_words(self.match.scores)}."))
        if self.stats is not None and w is not None and self.human is not None:
            problem = self.stats.game(w == (self.human % 2 if self.n == 4 else self.human))
            if problem:
                self.say(Text(problem, style="yellow"))
        if self.settings.save_path:
            saved = self.save(self.settings.save_path)
            if saved and self.human is not None:
                self.say(Text(f"What each decision cost: euchre review "
                              f"{self.settings.save_path}", style="dim"))
                self.game_over_pause()
            return saved
        if self.human is not None:
            self.say(Text("Type 'review' to see what each decision of this game cost.",
                          style="dim"))
            self.offer_save("Save this game as a record? ", default=None)
        return True

    def game_over_pause(self) -> None:
        """A game saved with ``--save``: the final screen stays until the player leaves (or
        asks for a new game or the review), as it does at the save question otherwise."""
        if not self.live:
            return
        while True:
            try:
                reply = C.read_game_over(self.read(C.GAME_OVER_PROMPT))
            except EOFError:
                return
            match reply:
                case Request("again"):
                    self.again = True
                    return
                case Request("review"):
                    self.review_game()
                case Refusal(why):
                    self.say(Text(why, style="yellow"))
                case _:
                    return

    def review_game(self) -> None:
        """The game review (euchre.analysis), offered at the end-of-game prompt."""
        try:
            from euchre.analysis.offer import review_in_terminal
        except ImportError:  # pragma: no cover - the analysis needs the solver's extras
            self.say(Text("The review needs the full install (make play).", style="yellow"))
            return
        names = ["you" if who == HUMAN else who for who in self.settings.seats]
        review_in_terminal(self.match, self.console, names)

    def offer_save(self, question: str, default: str | None = DEFAULT_SAVE) -> bool:
        """Ask for a file name and save; True when the caller may go on (saved or declined).

        At the end of a game (no ``default``) the same question offers a new game."""
        # Fits one 80-column line with the default name, and says how to take back a 'quit'.
        hint = (f"Enter: {default}, n: no, c: keep playing" if default
                else "Enter: skip, again: new game")
        while True:
            try:
                line = self._read(f"{question}File name ({hint}) > ")
            except KeyboardInterrupt:
                if default is None:  # the game is over: Ctrl-C just leaves
                    self.out("")
                    return True
                raise
            match C.read_save_answer(line, game_over=default is None):
                case Refusal(why):
                    self.say(Text(why, style="yellow"))
                case Request("no"):
                    return True
                case Request("cancel"):
                    return False
                case Request("again"):
                    self.again = True
                    return True
                case Request("review"):
                    self.review_game()
                case Request("save", path):
                    if self.save(path or default or DEFAULT_SAVE):
                        return True

    def save(self, path: str) -> bool:
        try:
            rec = match_to_record(self.match, list(self.settings.seats))
            if self.settings.rated:
                rec["rated"] = True  # a resumed rated game stays rated (no undo)
            if self.settings.save_path and not self.match.is_terminal():
                rec["save"] = self.settings.save_path  # where --resume saves the finished game
            Path(path).expanduser().write_text(json.dumps(rec, indent=1) + "\n",
                                               encoding="utf-8")
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.say(Text(f"Could not save to {path}: {why}", style="yellow"))
            return False
        self.saved_to = path
        if self.match.is_terminal():
            self.say(f"Saved the game record to {path} (euchre replay {path} shows it).")
        else:
            self.say(f"Saved to {path}: continue with  {self.resume_command(path)}")
        return True

    @staticmethod
    def _default_read(prompt: str) -> str:
        return input(prompt)


def save_path_from_record(text: str) -> str | None:
    """The ``--save`` file a game saved part-way was started with, so a resumed game still
    saves its record there; None when absent or malformed."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    path = data.get("save") if isinstance(data, dict) else None
    return path if isinstance(path, str) and path and path.isprintable() else None


def seats_from_record(text: str, players: int) -> list[str] | None:
    """The ``players`` key of a saved record, checked; None when absent or malformed."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    seats = data.get("players") if isinstance(data, dict) else None
    if (isinstance(seats, list) and len(seats) == players
            and all(isinstance(s, str) for s in seats)):
        return list(seats)
    return None


__all__ = ["HUMAN", "GameSettings", "TerminalGame", "human_seat", "save_path_from_record",
           "seats_from_record"]
