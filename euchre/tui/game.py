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
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

from euchre import actions as A
from euchre.bots import Adviser, Bot, make_bot
from euchre.cards import EFFECTIVE_SUIT, JOKER, SUIT_NAMES, sort_hand
from euchre.errors import NotationError
from euchre.match import Match
from euchre.record import to_json
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
    wrap_items,
    wrap_text,
)
from euchre.view import SeatView

HUMAN = "human"
DEFAULT_SAVE = "euchre-save.json"

#: First words of the notation: input starting with one is a try at an option, not a card.
_VERBS = frozenset({"play", "discard", "call", "name", "order", "pick", "pass", "swap", "take",
                    "decline", "defend", "claim", "farmer", "misdeal", "alone", "go"})

HELP = (
    "Type the number of an option, or its notation: a card (JH, 10D, AS), pass, order, "
    "order alone, call H, call H alone, discard 9C, take, decline, defend alone. "
    "Commands: hint (what the computer would do, and why), last (the last trick), "
    "help, quit (offers to save)."
)


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
    title: str = "standard"
    bot_seed: int = 0
    think: str | None = None
    """The search players' budget (``--think``); None: the default strength."""


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
        self.console.print(t, overflow="crop", no_wrap=True, crop=True, highlight=False)

    def say(self, t: Text | str) -> None:
        """A message: wrapped at the screen width (long file names fold)."""
        self.console.print(t, overflow="fold", highlight=False)

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
            title=self.settings.title,
            hand_no=len(self.match.finished) + 1,
            bottom=self.bottom,
            message=message or [],
            options=options or [],
            extra_trick_note=note,
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
        """Play to the end of the match (or until the player quits); the exit status."""
        try:
            return self._run()
        except EOFError:
            self.out("")
            self.say("Input ended: leaving the game without saving.")
            return 0

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
            if declaring and m.legal_actions() == [A.PASS]:
                action = A.PASS
            elif seat == self.human:
                asked = self.ask(before)
                if asked is None:
                    return 0
                action = asked
            else:
                action = self.bots[seat].choose(m.hand.view(seat))
            m.apply_action(action)
            if declaring and action == A.PASS:
                # Every declaration pass alike: a line only for seats that had a choice would
                # tell the table who held a farmer's hand.
                continue
            self.after_action(seat, action, before)
            if m.hand is not before or m.is_terminal():
                self.end_of_hand(before)
                if not m.is_terminal():
                    self.announce_hand()
        # A record asked for with --save that could not be written is a failed run.
        return 0 if self.end_of_game() else 1

    def announce_hand(self) -> None:
        h = self.match.hand
        t = Text(f"Hand {len(self.match.finished) + 1}: ", style="bold")
        t.append(f"{self.plain_name(h.dealer)} deal")
        t.append("" if h.dealer == self.human else "s")
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
        if seat == self.human:
            # "You passes" reads badly: first person for the player.
            plain = ev.plain
            for third, first in (("passes", "pass"), ("plays", "play"), ("orders", "order"),
                                 ("picks", "pick"), ("calls", "call"), ("discards", "discard"),
                                 ("defends", "defend"), ("goes", "go"), ("declines", "decline"),
                                 ("takes", "take"), ("claims", "claim"), ("swaps", "swap")):
                if plain.startswith(third):
                    ev = Text(first) + ev[len(third):]
                    break
        return t.append_text(ev)

    def after_action(self, seat: int, action: int, before: HandState) -> None:
        line = self.event_line(seat, action, before)
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
        if seat != self.human or trick_done is not None:
            view = self.bottom_view(before if before.is_terminal() else None)
            msg = self.recent_lines(2)
            self.draw(view, self.context(message=msg))
            if self.settings.delay > 0 and seat != self.human:
                self._sleep(self.settings.delay)

    def trick_line(self, k: int, cards: tuple[tuple[int, int], ...], winner: int) -> Text:
        t = Text(f"Trick {k}: ")
        t.append_text(Text(", ").join(
            Text(self.short(s) + " ").append_text(card_text(c, self.g)) for s, c in cards))
        t.append(" - won by ").append(self.plain_name(winner), style="bold")
        return t

    def recent_lines(self, rows: int) -> list[Text]:
        """The latest events, packed onto at most ``rows`` lines."""
        sep = f" {self.g.dot} "
        lines = wrap_items(self.recent[-8:], sep=sep)
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
            "discard": "Discard a card (face down).",
            "dealer_take": "Take the up-card?",
            "alone": "Go alone?",
            "defend": "Defend alone?",
            "play": "Your card.",
            "claim": "Claim a renege?",
        }.get(view.phase, "Your move.")

    def ask(self, hand: HandState) -> int | None:
        """The player's action, or None when they quit."""
        assert self.human is not None
        message: list[Text] = []
        recent = self.recent_lines(2)
        self.recent = []
        while True:
            view = hand.view(self.human, tuple(self.match.scores))
            legal = self.menu(view)
            msg = [*recent, *message]
            question = Text(self.phase_question(view), style="bold")
            ctx = self.context(message=[*msg, question], options=self.options(view))
            if not self.live:
                self.out("")
            self.draw(view, ctx)
            numbers = "1" if len(legal) == 1 else f"1-{len(legal)}"
            text = self._read(f"Your move ({numbers}, hint, last, help, quit) > ")
            recent = []
            low = " ".join(text.lower().split())
            if low in ("hint", "h"):
                a, why = self.adviser.decide(view)
                t = Text("Hint: ", style="bold").append_text(
                    action_text(a, self.g, view.dealer == view.seat))  # as the menu says it
                t.append(f" (option {legal.index(a) + 1}). {self.g_text(why)}")
                message = wrap_text(t)
                continue
            if low in ("last", "l"):
                message = [self.last_trick(view)]
                continue
            if low in ("help", "?"):
                message = wrap_text(Text(HELP))
                continue
            if low in ("quit", "q", "exit"):
                if self.offer_save("Save first? "):
                    return None
                message = [Text("Not quitting: the game goes on.")]
                continue
            if not low:
                message = wrap_text(Text(self.choices_text(view) + " Or: hint, help.",
                                         style="yellow"))
                continue
            action, error = self.parse(low, view, hand)
            if action is not None:
                return action
            message = wrap_text(Text(error, style="yellow"))

    def parse(self, text: str, view: SeatView, hand: HandState) -> tuple[int | None, str]:
        """(legal action, "") or (None, why not)."""
        legal = self.menu(view)
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1], ""
            return None, f"There is no option {k}. {self.choices_text(view)}"
        try:
            a = A.action_from_str(text)
        except NotationError as exc:
            # "swap" or "call" alone names an option when only one option starts with it.
            starts = [x for x in legal if A.action_to_str(x).startswith(text + " ")]
            if len(starts) == 1:
                return starts[0], ""
            word = text.split()[0]
            if len(word) > 3 or word in _VERBS:
                return None, f"'{text}' is not one of your options. {self.choices_text(view)}"
            return None, self.g_text(str(exc))
        if view.phase == "discard" and A.is_play(a):
            a += A.DISCARD_BASE  # "9C" while discarding means bury the 9C
        if a in legal:
            return a, ""
        return None, self.why_not(a, view, hand)

    def choices_text(self, view: SeatView) -> str:
        """What may be typed now: the option numbers and their notation."""
        legal = self.menu(view)
        words = [A.action_to_str(a).removeprefix("play ") for a in legal]
        if len(legal) == 1:
            return f"Type 1 or {words[0]} (the only option)."
        return f"Type 1 to {len(legal)} or one of: {', '.join(words)}."

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
        if not self.live:
            for ln in lines:
                self.out(ln)
            return
        view = self.bottom_view(h)
        ctx = self.context(message=[*self.recent_lines(1), *lines])
        ctx.hand_no = len(self.match.finished)
        self.draw(view, ctx)
        if self.human is not None and not self.match.is_terminal():
            self._read("Press Enter for the next hand > ")
        elif self.settings.delay > 0:
            self._sleep(self.settings.delay * 3)

    def hand_summary(self, h: HandState) -> list[Text]:
        if h.outcome == "thrown_in":
            t = Text("Everyone passed: the hand is thrown in and the deal passes left.")
        elif h.outcome == "misdeal":
            t = Text("A misdeal was called: the same dealer deals again.")
        else:
            mk = h.maker
            made = h.maker_tricks()
            t = Text(f"{self.plain_name(mk)} made ")
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
            elif made < 3:
                t.append(": euchred")
            elif made == 5:
                t.append(": a march")
            pts = [f"{self.side_long(s)} +{p}" for s, p in enumerate(h.points) if p]
            t.append(". " + ", ".join(pts) + ".")
            failed = [s for s, a in h.history if a == A.CLAIM_RENEGE and s != h.renege_claimed]
            for s in failed:
                t.append(f" {self.plain_name(s)} claimed a renege, but the other side "
                         "followed suit: no change.")
        score = Text("Score: " + ", ".join(
            f"{self.side_long(s)} {v}" for s, v in enumerate(self.match.scores)))
        return [*wrap_text(t), score]

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
        t.append(" " + "-".join(str(v) for v in m.scores) + ".")
        self.say(t)
        if self.settings.save_path:
            return self.save(self.settings.save_path)
        if self.human is not None:
            self.offer_save("Save this game as a record? ", default=None)
        return True

    def offer_save(self, question: str, default: str | None = DEFAULT_SAVE) -> bool:
        """Ask for a file name and save; True when the caller may go on (saved or declined)."""
        # Fits one 80-column line with the default name, and says how to take back a 'quit'.
        hint = f"Enter: {default}, n: no, c: keep playing" if default else "Enter to skip"
        while True:
            text = self._read(f"{question}File name ({hint}) > ").strip()
            if text.lower() in ("n", "no"):
                return True
            if text.lower() in ("c", "cancel", "back") and default:
                return False
            path = text or default
            if path is None:
                return True
            if self.save(path):
                return True

    def save(self, path: str) -> bool:
        try:
            Path(path).write_text(to_json(self.match, list(self.settings.seats)) + "\n",
                                  encoding="utf-8")
        except OSError as exc:
            self.say(Text(f"Could not save to {path}: {exc.strerror}", style="yellow"))
            return False
        self.saved_to = path
        if self.match.is_terminal():
            self.say(f"Saved the game record to {path} (euchre replay {path} shows it).")
        else:
            self.say(f"Saved to {path}: continue with  euchre play --resume {path}")
        return True

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
