"""The terminal game loop: computer turns at a readable pace, the player's turns as a prompt.

On a terminal the table is redrawn in place after every act; when the output is a file or a
pipe, the loop writes one plain line per act instead (and the table before each of the player's
turns), so ``euchre play --watch > game.txt`` stays readable. Input is forgiving: a number from
the menu or any notation the library parses, plus ``hint``, ``last``, ``help`` and ``quit``;
anything else is explained and asked again. Games are saved as ordinary records (``euchre
replay`` reads them) with one extra key, ``players``, naming who sat where.
"""

from __future__ import annotations

import json
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from euchre import actions as A
from euchre.bots import Adviser, Bot, make_bot
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    SUIT_NAMES,
    CardParseError,
    cards_of,
    parse_suit,
    sort_hand,
)
from euchre.errors import NotationError
from euchre.match import Match
from euchre.narrate import last_act, phrase
from euchre.record import match_to_record
from euchre.state import HandState, seat_name
from euchre.tui.render import (
    ASCII,
    UNICODE,
    Glyphs,
    TableContext,
    action_text,
    card_plain,
    card_text,
    event_text,
    render_table,
    suit_text,
    wrap_items,
    wrap_text,
)
from euchre.tui.review import review_lines, worth_reviewing
from euchre.tui.rules_text import rules_lines, rules_title, rules_titles
from euchre.tui.stats import StatsRecorder
from euchre.view import SeatView

HUMAN = "human"
DEFAULT_SAVE = "euchre-save.json"

#: First words of the notation: input starting with one is a try at an option, not a card.
_VERBS = frozenset({"play", "discard", "call", "name", "order", "pick", "pass", "swap", "take",
                    "decline", "defend", "claim", "farmer", "misdeal", "alone", "go"})

HELP = (
    "Type the number of an option, or its notation: a card (JH, 10D, AS), pass, order, "
    "order alone, call H (or just H, hearts), call H alone, discard 9C, take, decline, defend "
    "alone. Commands: hint (what the computer would do, and why), last (the last trick), "
    "undo (take back your last card or bid), help rules (the rules of this game), help, "
    "quit (offers to save; Ctrl-C too)."
)

#: What the prompt of the next-hand pause accepts besides Enter.
NEXT_HAND_HELP = "Enter: next hand {dot} r: review this hand {dot} last {dot} quit"

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
    """Score cards beside the score: "5-6" (002) or "5-4" (000)."""


def _clean_input(text: str) -> str:
    """Input as it may be shown back and parsed: printable characters only (no escape
    sequences, control codes or undecodable bytes), so echoing it can never garble the
    screen."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    text = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b.", "", text)
    return "".join(ch if ch.isprintable() else " " for ch in text)


def _shown(text: str, limit: int = 24) -> str:
    """A player's input quoted back, shortened when long."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


class TerminalGame:
    """Runs one match at a terminal (or any text stream)."""

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
        self.bottom = self.human if self.human is not None else human_seat(self.n)
        self.bots: dict[int, Bot] = {
            s: make_bot(who, settings.bot_seed * 10 + s, think=settings.think)
            for s, who in enumerate(settings.seats) if who != HUMAN
        }
        self.adviser = Adviser(settings.bot_seed * 10 + 9, settings.think)  # the search player
        self._read = read_line or self._default_read
        self._sleep = sleep
        self.recent: list[Text] = []
        self.prev_last_trick: tuple[int, tuple[tuple[int, int], ...], int] | None = None
        self.saved_to: str | None = None
        self.width = min(console.width, 79)
        self.rules_name = rules_title(match.rules, room=10_000)
        self.stats = (StatsRecorder(settings.stats_path, self.rules_name, self.human)
                      if settings.stats_path is not None and self.human is not None else None)
        others_are_bots = all(w != HUMAN for s, w in enumerate(settings.seats) if s != self.human)
        self.can_undo = not settings.rated and others_are_bots and self.human is not None
        self.again = False

    # ------------------------------------------------------------------------------------------
    # Names

    def name(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        base = seat_name(seat, self.n)
        if self.n == 4 and self.human is not None and seat == (self.human + 2) % 4:
            return f"{base} (partner)"
        return base

    def plain_name(self, seat: int) -> str:
        return "You" if seat == self.human else seat_name(seat, self.n)

    def short(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        return "NESW"[seat] if self.n == 4 else f"P{seat + 1}"

    def side_names(self) -> list[str]:
        if self.n == 4:
            if self.human is None:
                return ["N-S", "E-W"]
            return ["Us", "Them"] if self.human % 2 == 0 else ["Them", "Us"]
        return ["You" if s == self.human else f"P{s + 1}" for s in range(self.n)]

    def side_long(self, side: int) -> str:
        if self.n == 4:
            if self.human is None:
                return ("North-South", "East-West")[side]
            return "Your side" if side == self.human % 2 else "Your opponents"
        return self.plain_name(side)

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

    def plain_seat(self, seat: int) -> str:
        """"You", or the seat's plain name ("West", "Player 2") for the bidding line."""
        return "You" if seat == self.human else seat_name(seat, self.n)

    def hold_seconds(self) -> float:
        s = self.settings
        return max(s.delay, 2.5 * s.delay if s.hold is None else s.hold)

    def g_text(self, s: str) -> str:
        return self.g.translate(s)

    def context(self, message: list[Text] | None = None, options: list[Text] | None = None,
                note: str = "") -> TableContext:
        return TableContext(
            glyphs=self.g,
            name=self.name,
            short=self.short,
            side_names=self.side_names(),
            scores=list(self.match.scores),
            target=self.match.rules.target,
            title=self.settings.title or rules_titles(self.match.rules)[0],
            titles=rules_titles(self.match.rules)[1:],
            hand_no=len(self.match.finished) + 1,
            bottom=self.bottom,
            message=message or [],
            options=options or [],
            extra_trick_note=note,
            width=self.width,
            plain=self.plain_seat,
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
        self.prev_last_trick = None
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
            declaring = before.phase_name == "declare"
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
            return _clean_input(self._read(prompt))
        except KeyboardInterrupt:
            self.out("")
            return "quit"

    def forced_card(self, hand: HandState) -> int | None:
        """With autoplay, the player's only legal card, shown for a moment and then played."""
        assert self.human is not None
        if not self.settings.autoplay or hand.phase_name != "play":
            return None
        legal = hand.legal_actions()
        if len(legal) != 1:
            return None
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
        t.append(f"{self.plain_name(h.dealer)} deal")
        t.append("" if h.dealer == self.human else "s")
        if h.columns:
            t.append("; two-handed with rows: no up-card")
        else:
            t.append("; the up-card is ").append_text(card_text(h.upcard, self.g))
        self.recent = [t]
        if not self.live:
            self.out(t)

    def event_line(self, seat: int, action: int, before: HandState) -> Text:
        shown = action
        if A.is_discard(action) and seat != self.bottom:
            shown = -1  # the view's HIDDEN_DISCARD: a face-down discard stays hidden
        if action >= A.SWAP_BASE and seat != self.bottom:
            shown = -2
        by_dealer = seat == before.dealer
        t = Text(self.plain_name(seat) + " ", style="bold")
        ev = event_text(shown, self.g, by_dealer)
        if action == A.PASS or before.rules.rows:  # which question does this act answer?
            act = last_act(before.history, before.rules, before.dealer, before.upcard)
            if act is not None and act.stage == "trump":  # rows: the maker names trump
                ev = Text("names ").append_text(suit_text(action - A.CALL_BASE, self.g))
                ev.append(" trump")
            elif act is not None and act.stage not in ("bid1", "bid2", "auction", "play"):
                ev = Text(phrase(act))
        if seat == self.human:
            # "You passes" reads badly: first person for the player.
            plain = ev.plain
            for third, first in (("passes", "pass"), ("plays", "play"), ("orders", "order"),
                                 ("picks", "pick"), ("calls", "call"), ("discards", "discard"),
                                 ("defends", "defend"), ("goes", "go"), ("declines", "decline"),
                                 ("takes", "take"), ("claims", "claim"), ("swaps", "swap"),
                                 ("makes", "make"), ("bids", "bid"), ("names", "name"),
                                 ("lets", "let")):
                if plain.startswith(third):
                    ev = Text(first) + ev[len(third):]
                    break
        return t.append_text(ev)

    def after_action(self, seat: int, action: int, before: HandState) -> None:
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
        if not self.live:
            self.out(line)
            if trick_done is not None:
                self.out(trick_done)
            return
        if trick_done is not None:
            # Hold the finished trick on the table, winning card highlighted, whoever played
            # its last card: otherwise the next lead replaces it before anyone can read it.
            view = self.bottom_view(before if before.is_terminal() else None)
            ctx = self.context(message=self.recent_lines(2))
            ctx.held = True
            self.draw(view, ctx)
            self.pause(self.hold_seconds())
        elif seat != self.human:
            view = self.bottom_view(before if before.is_terminal() else None)
            self.draw(view, self.context(message=self.recent_lines(2)))
            self.pause(self.settings.delay)

    def trick_line(self, k: int, cards: tuple[tuple[int, int], ...], winner: int) -> Text:
        t = Text(f"Trick {k}: ")
        t.append_text(Text(", ").join(
            Text(self.short(s) + " ").append_text(card_text(c, self.g)) for s, c in cards))
        t.append(" - won by ").append(self.plain_name(winner), style="bold")
        return t

    def recent_lines(self, rows: int) -> list[Text]:
        """The latest events, packed onto at most ``rows`` lines."""
        sep = f" {self.g.dot} "
        lines = wrap_items(self.recent[-8:], self.width, sep=sep)
        return lines[-rows:]

    # ------------------------------------------------------------------------------------------
    # The player's turn

    @staticmethod
    def menu(view: SeatView) -> list[int]:
        """The legal actions in menu order: cards in the order the hand is drawn."""
        legal = list(view.legal_actions)
        if view.phase in ("play", "discard"):
            order = {c: i for i, c in enumerate(sort_hand(view.hand, view.trump))}
            return sorted(legal, key=lambda a: order.get(
                a - A.DISCARD_BASE if A.is_discard(a) else a, 99))
        return legal

    def options(self, view: SeatView) -> list[Text]:
        items = []
        reneges = self.renege_cards(view)
        for i, a in enumerate(self.menu(view), 1):
            item = Text(f"{i}) ", style="bold cyan").append_text(
                action_text(a, self.g, view.dealer == view.seat))
            if a in reneges:
                item.append(" (renege)", style="yellow")
            items.append(item)
        return wrap_items(items)

    @staticmethod
    def renege_cards(view: SeatView) -> set[int]:
        """Cards that would fail to follow suit: offered when reneging is only penalized, and
        marked, so nobody reneges without knowing it."""
        if view.phase != "play" or not view.current_trick:
            return set()
        eff = EFFECTIVE_SUIT[view.trump]
        led = eff[view.current_trick[0][1]]
        if not any(eff[c] == led for c in view.hand):
            return set()
        return {c for c in view.legal_actions if eff[c] != led}

    def phase_question(self, view: SeatView) -> str:
        return {
            "declare": ("Farmer's hand: swap three low cards for the kitty?"
                        if any(a >= A.SWAP_BASE for a in view.legal_actions)
                        else "Declare before bidding?"),
            "bid1": ("The Joker turned up: name trump." if view.upcard == JOKER
                     else "Pick it up?" if view.dealer == view.seat
                     else "Order up the up-card?"),
            "bid2": "Name a trump suit?",
            "auction": ("Bid how many of the 12 tricks you will take (7 to 12)?"
                        if not view.contract else
                        f"Outbid {view.contract} tricks, or pass?" if view.contract < 12 else
                        "Nothing outbids 12: pass."),
            "trump": "You won the bidding: name trump.",
            "discard": "Discard a card (face down).",
            "dealer_take": "Take the up-card?",
            "alone": "Go alone?",
            "defend": "Defend alone?",
            "play": "Your card.",
            "claim": "Claim a renege?",
            "fix": "Take back a renege before the trick is quitted?",
        }.get(view.phase, "Your move.")

    def ask(self, hand: HandState) -> int | None:
        """The player's action, None when they quit, or UNDONE after a take-back."""
        assert self.human is not None
        message: list[Text] = []
        recent = self.recent_lines(2)
        self.recent = []
        w = self.width
        while True:
            view = hand.view(self.human, tuple(self.match.scores))
            legal = self.menu(view)
            msg = [*recent, *self.refit(message)]
            question = Text(self.phase_question(view), style="bold")
            explain = [Text(x, style="dim") for x in self.declaration_notes(view)]
            ctx = self.context(message=[*msg, *explain, question], options=self.options(view))
            if not self.live:
                self.out("")
            self.draw(view, ctx)
            numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"
            text = self.read(f"Your move ({numbers}, hint, last, help, quit) > ")
            recent = []
            low = " ".join(text.lower().split())
            if low == "h" and self.suit_call(low, view) is not None:
                low = "hearts"  # "h" names hearts when a suit may be named, else asks a hint
            if low in ("hint", "h"):
                a, why = self.adviser.decide(view)
                t = Text("Hint: ", style="bold").append_text(
                    action_text(a, self.g, view.dealer == view.seat))  # as the menu says it
                t.append(f" (option {legal.index(a) + 1}). {self.g_text(why)}")
                message = wrap_text(t)
                continue
            if low in ("last", "l"):
                message = wrap_text(self.last_trick(view), w)
                continue
            if low in ("help rules", "rules"):
                self.show_page([Text(x) for x in rules_lines(self.match.rules)])
                message = []
                continue
            if low in ("help", "?"):
                message = wrap_text(Text(HELP), w)
                continue
            if low in ("undo", "u", "take back"):
                done, why = self.undo()
                if done:
                    self.recent = [Text(why)]
                    return UNDONE
                message = wrap_text(Text(why, style="yellow"), w)
                continue
            if low in ("quit", "q", "exit"):
                if self.offer_save("Save first? "):
                    return None
                message = [Text("Not quitting: the game goes on.")]
                continue
            if not low:
                message = wrap_text(Text(self.choices_text(view) + " Or: hint, help.",
                                         style="yellow"), w)
                continue
            action, error = self.parse(low, view, hand)
            if action is not None:
                return action
            message = wrap_text(Text(error, style="yellow"), w)

    def refit(self, lines: list[Text]) -> list[Text]:
        """Lines wrapped for 79 columns, wrapped again for a narrower screen."""
        out: list[Text] = []
        for ln in lines:
            out += wrap_text(ln, self.width) if ln.cell_len > self.width else [ln]
        return out

    def declaration_notes(self, view: SeatView) -> list[str]:
        """What a declaration on offer would do, so "misdeal" or "farmer" is never a riddle."""
        if view.phase != "declare":
            return []
        notes = []
        if A.MISDEAL in view.legal_actions:
            notes.append("Misdeal: your hand has no ace, no face card and no trump, so you may "
                         "throw it in; the same dealer deals again and nobody scores.")
        if A.FARMER in view.legal_actions:
            notes.append("Farmer's hand: your hand is only 9s and 10s, so you may throw it in; "
                         "the same dealer deals again and nobody scores.")
        if any(a >= A.SWAP_BASE for a in view.legal_actions):
            notes.append("Swap: three of your low cards go face down to the kitty and you get "
                         "three of its cards in their place.")
        lines: list[str] = []
        for n in notes:
            lines += [x.plain for x in wrap_text(Text(n), self.width)]
        return lines

    def suit_call(self, text: str, view: SeatView) -> int | None:
        """"S", "spades", "♠" or "hearts alone" as a bid naming that suit, or None."""
        words = text.split()
        if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1] != "alone"):
            return None
        if not any(A.CALL_BASE <= a < A.CALL_ALONE_BASE + 4 for a in view.legal_actions):
            return None
        try:
            suit = parse_suit(words[0])
        except CardParseError:
            return None
        return A.call(suit, len(words) == 2)

    def undo(self) -> tuple[bool, str]:
        """Take back the player's last choice in this hand and every computer move after it.

        Only against computers and in an unrated game; a finished hand stands. The hand is
        rebuilt from its deal and the acts that stand, so the record keeps only those. Forced
        acts (a single legal card, a declaration with nothing to declare) are no choice, and
        are stepped over to the choice before them."""
        if not self.can_undo:
            why = "a rated game" if self.settings.rated else "a game against other people"
            return False, f"Undo is off in {why}."
        h = self.match.hand
        probe = HandState(h.rules, h.dealer, h.deck)
        choices: list[int] = []
        for i, (seat, a) in enumerate(h.history):
            if seat == self.human and len(probe.legal_actions()) > 1:
                choices.append(i)
            probe.apply_action(a)
        if not choices:
            return False, ("Nothing to take back in this hand: you have made no choice in it "
                           "yet (a finished hand stands).")
        k = choices[-1]
        seat, taken = h.history[k]
        again = HandState(h.rules, h.dealer, h.deck)
        for _, a in h.history[:k]:
            again.apply_action(a)
        self.match.hand = again
        others = len(h.history) - k - 1
        what = action_text(taken, self.g, h.dealer == seat).plain
        tail = f" and the {others} move{'s' if others != 1 else ''} after it" if others else ""
        return True, f"Taken back: your {what}{tail}."

    def show_page(self, lines: list[Text], prompt: str = "Press Enter to go back > ") -> str:
        """A full screen of text (the rules, a review) until Enter; what was typed."""
        if self.live:
            self.console.clear()
        for ln in lines:
            for part in wrap_text(ln, self.width) if ln.cell_len > self.width else [ln]:
                self.out(part)
        return " ".join(self.read(prompt).lower().split())

    def parse(self, text: str, view: SeatView, hand: HandState) -> tuple[int | None, str]:
        """(legal action, "") or (None, why not)."""
        legal = self.menu(view)
        if text.isascii() and text.isdigit():  # not "²" or "①": str.isdigit() takes those
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1], ""
            return None, f"There is no option {_shown(text)}. {self.choices_text(view)}"
        words = text.split()
        suit_word = len(words) == 1 or (len(words) == 2 and words[1] == "alone")
        try:
            a = A.call(parse_suit(words[0]), len(words) == 2) if suit_word else -1
        except CardParseError:
            a = -1
        if a >= 0:
            return (a, "") if a in legal else (None, self.why_not(a, view, hand))
        text = re.sub(r"\bjkr\b", "joker", text)  # the Joker as the screen writes it
        try:
            a = A.action_from_str(text)
        except NotationError as exc:
            # "swap" or "call" alone names an option when only one option starts with it.
            starts = [x for x in legal if A.action_to_str(x).startswith(text + " ")]
            if len(starts) == 1:
                return starts[0], ""
            word = text.split()[0]
            if len(word) > 3 or word in _VERBS:
                return None, (f"'{_shown(text)}' is not one of your options. "
                              f"{self.choices_text(view)}")
            if len(text) > 24:
                return None, f"'{_shown(text)}' is not a card. {self.choices_text(view)}"
            return None, self.g_text(str(exc))
        if view.phase == "discard" and A.is_play(a):
            a += A.DISCARD_BASE  # "9C" while discarding means bury the 9C
        if a in legal:
            return a, ""
        return None, self.why_not(a, view, hand)

    def choices_text(self, view: SeatView) -> str:
        """What may be typed now: the option numbers and their notation."""
        legal = self.menu(view)
        # As the screen writes them (10♣, call ♥, order up): each also reads back as input.
        words = [action_text(a, self.g, view.dealer == view.seat).plain for a in legal]
        if len(legal) == 1:
            return f"Type 1 or {words[0]} (the only option)."
        numbers = "1 or 2" if len(legal) == 2 else f"1 to {len(legal)}"
        return f"Type {numbers}, or one of: {', '.join(words)}."

    def why_not(self, a: int, view: SeatView, hand: HandState) -> str:
        """Why a well-formed action is illegal now, in the player's terms."""
        g = self.g
        phase = view.phase
        choices = self.choices_text(view)
        up = card_plain(view.upcard, g) if view.upcard >= 0 else ""
        held = set(view.hand)
        card = a - A.DISCARD_BASE if A.is_discard(a) else a
        is_call = A.CALL_BASE <= a < A.CALL_ALONE_BASE + 4
        if phase == "play":
            if not A.is_play(a):
                return f"Bidding is over: play a card. {choices}"
            if a not in held:
                return f"You do not hold {card_plain(a, g)}. {choices}"
            why = self.g_text(hand.explain_illegal(a))
            return f"{why[:1].upper()}{why[1:]}. {choices}"
        if A.is_play(a) or A.is_discard(a):
            if phase == "discard" and card not in held:
                return f"You do not hold {card_plain(card, g)}. {choices}"
            return f"Cards are played after the bidding. {choices}"
        if phase == "bid1":
            if view.upcard == JOKER and a in (A.ORDER, A.ORDER_ALONE, A.PASS):
                return f"The Joker turned up: as dealer you name trump. {choices}"
            if is_call:
                return (f"In the first round you may only order up the {up} or pass; a suit "
                        f"is named in the second round. {choices}")
            if a == A.ORDER and A.ORDER_ALONE in view.legal_actions:
                return ("Canadian loner: the dealer's partner may order up only by going "
                        f"alone. {choices}")
        if phase == "bid2":
            if is_call and view.upcard != JOKER and (a - A.CALL_BASE) % 4 == view.upcard >> 3:
                return (f"{SUIT_NAMES[view.upcard >> 3].capitalize()} was turned down: name "
                        f"another suit. {choices}")
            if a == A.PASS:
                return f"Stick the dealer: the dealer may not pass and must name trump. {choices}"
            if a in (A.ORDER, A.ORDER_ALONE):
                return f"The {up} was turned down: now you may name another suit. {choices}"
            if is_call:
                return f"Going alone is not allowed with these rules. {choices}"
        if phase == "bid1" and a == A.ORDER_ALONE:
            return f"Going alone is not allowed with these rules. {choices}"
        return f"{action_text(a, g).plain} is not possible now: {self.phase_question(view)} " \
            + choices

    def last_trick(self, view: SeatView) -> Text:
        if view.tricks:
            _, cards, winner = view.tricks[-1]
            return Text("Last: ").append_text(self.trick_line(len(view.tricks), cards, winner))
        if self.prev_last_trick is not None:
            _, cards, winner = self.prev_last_trick
            return Text("Last trick of the previous hand: ").append_text(
                self.trick_line(5, cards, winner))
        return Text("No trick has been played yet.")

    # ------------------------------------------------------------------------------------------
    # End of hand, end of game, saving

    def end_of_hand(self, h: HandState) -> None:
        if h.tricks:
            self.prev_last_trick = h.tricks[-1]
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
        view = self.bottom_view(h)
        ctx = self.context(message=[*self.recent_lines(1), *lines])
        ctx.hand_no = hand_no
        self.draw(view, ctx)
        if self.human is None:
            self.pause(self.settings.delay * 3)
        elif worth_reviewing(h):  # the game's last hand, when it is one to look back on
            self.console.clear()
            for ln in self.review(h, hand_no, lines):
                self.out(ln)

    def review(self, h: HandState, hand_no: int, result: list[Text]) -> list[Text]:
        def name(s: int) -> str:
            return "You" if s == self.human else self.name(s)

        return review_lines(h, hand_no, name, self.short, self.g, result, self.width)

    def next_hand_pause(self, h: HandState, hand_no: int, lines: list[Text]) -> None:
        """Between hands: the table or, after a euchre or a lone hand, the review; Enter goes
        on, ``r`` shows the review, ``last`` the last trick, ``quit`` offers to save."""
        view = self.bottom_view(h)
        showing_review = worth_reviewing(h)
        note: list[Text] = []
        while True:
            if showing_review:
                if self.live:
                    self.console.clear()
                for ln in self.review(h, hand_no, lines):
                    self.out(ln)
                for ln in note:
                    self.out(ln)
                for ln in wrap_text(Text(NEXT_HAND_HELP.format(dot=self.g.dot).replace(
                        "r: review this hand", "t: the table"), style="dim"), self.width):
                    self.out(ln)
            else:
                keys = wrap_text(Text(NEXT_HAND_HELP.format(dot=self.g.dot), style="dim"),
                                 self.width)
                ctx = self.context(message=[*self.recent_lines(1), *lines, *note, *keys])
                ctx.hand_no = hand_no
                self.draw(view, ctx)
            low = " ".join(self.read("Press Enter for the next hand > ").lower().split())
            note = []
            if not low:
                return
            if low in ("r", "review"):
                showing_review = True
            elif low in ("t", "table"):
                showing_review = False
            elif low in ("last", "l"):
                note = wrap_text(self.last_trick(view), self.width)
            elif low in ("quit", "q", "exit"):
                if self.offer_save("Save first? "):
                    raise _Quit
                note = [Text("Not quitting: the game goes on.")]
            else:
                note = [Text(f"'{_shown(low)}' is not an option here.", style="yellow")]

    def hand_summary(self, h: HandState) -> list[Text]:
        if h.outcome == "thrown_in":
            t = Text("Everyone passed: the hand is thrown in and the deal passes left.")
        elif h.outcome == "misdeal":
            t = Text("A misdeal was called: the same dealer deals again.")
        else:
            mk = h.maker
            made = h.maker_tricks()
            bid = h.contract
            t = Text(f"{self.plain_name(mk)} " + (f"bid {bid}, named " if bid else "made "))
            t.append_text(Text(self.g.suits[h.trump], style="bold red" if h.trump in (1, 2)
                               else "bold"))
            if h.alone:
                t.append(" alone")
            t.append(f" and took {made} trick{'s' if made != 1 else ''}")
            if h.renege_claimed >= 0:
                claimant_makers = h.is_maker_side(h.renege_claimed)
                by = [s for s, _, _ in h.reneges if h.is_maker_side(s) != claimant_makers]
                names = ", ".join(dict.fromkeys(self.plain_name(s) for s in by))
                t.append(f"; {self.plain_name(h.renege_claimed)} proved a renege by "
                         + names.replace("You", "you"))
            elif bid:  # two-handed with rows: a point a trick past six, if the bid is made
                t.append(": the bid is made" if made >= bid else ": short of the bid")
            elif made < 3:
                t.append(": euchred")
            elif made == 5:
                t.append(": a march")
            pts = [f"{self.side_long(s)} {p:+d}" for s, p in enumerate(h.points) if p]
            t.append(". " + (", ".join(pts) + "." if pts else "Nobody scores."))
            failed = [s for s, a in h.history if a == A.CLAIM_RENEGE and s != h.renege_claimed]
            for s in failed:
                t.append(f" {self.plain_name(s)} claimed a renege, but the other side "
                         "followed suit: no change.")
        score = Text("Score: " + ", ".join(
            f"{self.side_long(s)} {v}" for s, v in enumerate(self.match.scores)))
        return [*wrap_text(t, self.width), score]

    def end_of_game(self) -> bool:
        m = self.match
        w = m.winner
        if w is None or w < 0:
            t = Text("Game over: no side scored.", style="bold")
        elif self.n == 4 and self.human is not None:
            won = w == self.human % 2
            t = Text("Game over: " + ("you and your partner win" if won else
                                      "your opponents win"), style="bold")
        else:
            who = self.side_long(w)
            plural = who == "You" or self.n == 4  # "You win", "East-West win"
            t = Text(f"Game over: {who} win{'' if plural else 's'}", style="bold")
        # Whose score is whose: "You 3, Player 2 2, Player 3 6", never a bare "3-2-6".
        t.append(". Final score: " + ", ".join(f"{self.side_long(s)} {v}"
                                               for s, v in enumerate(m.scores)) + ".")
        self.say(t)
        if self.stats is not None and w is not None and self.human is not None:
            problem = self.stats.game(w == (self.human % 2 if self.n == 4 else self.human))
            if problem:
                self.say(Text(problem, style="yellow"))
        if self.settings.save_path:
            saved = self.save(self.settings.save_path)
            if saved and self.human is not None:
                self.say(Text(f"What each decision cost: euchre review "
                              f"{self.settings.save_path}", style="dim"))
            return saved
        if self.human is not None:
            self.say(Text("Type 'review' to see what each decision of this game cost.",
                          style="dim"))
            self.offer_save("Save this game as a record? ", default=None)
        return True

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
                text = self._read(f"{question}File name ({hint}) > ").strip()
            except KeyboardInterrupt:
                if default is None:  # the game is over: Ctrl-C just leaves
                    self.out("")
                    return True
                raise
            if not text.isprintable():
                self.say(Text("A file name cannot hold control characters; type another.",
                              style="yellow"))
                continue
            if text.lower() in ("n", "no"):
                return True
            if text.lower() in ("c", "cancel", "back") and default:
                return False
            if text.lower() in ("again", "a", "new") and not default:
                self.again = True
                return True
            if text.lower() in ("review", "r") and not default:
                self.review_game()
                continue
            path = text or default
            if path is None:
                return True
            if self.save(path):
                return True

    def save(self, path: str) -> bool:
        try:
            rec = match_to_record(self.match, list(self.settings.seats))
            if self.settings.rated:
                rec["rated"] = True  # a resumed rated game stays rated (no undo)
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

    def resume_command(self, path: str) -> str:
        """The command that continues a saved game, as the player started this one."""
        arg = shlex.quote(path)
        launcher = self.settings.launcher
        if not launcher.startswith("make "):
            return f"{launcher} --resume {arg}"
        # make hands ARGS to the shell: quote the whole, the file name inside it as needed.
        inner = f"--resume {arg}"
        if "'" not in inner:
            return f"{launcher} ARGS='{inner}'"
        if not any(ch in inner for ch in '"$`\\'):
            return f'{launcher} ARGS="{inner}"'
        return f"{launcher} ARGS={shlex.quote(inner)}"

    @staticmethod
    def _default_read(prompt: str) -> str:
        return input(prompt)


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


__all__ = ["HUMAN", "GameSettings", "TerminalGame", "human_seat",
           "seats_from_record"]
