"""What the player types at the terminal, read against their :class:`~euchre.view.SeatView`.

A line becomes a :class:`Move` (a legal action), a :class:`Request` the table carries out (a
hint, the last trick, the rules page, undo, quit), an :class:`Info` to show (the help), or a
:class:`Refusal` saying what was wrong and what may be typed. Nothing here draws, sleeps or
reads: the game loop in :mod:`euchre.tui.game` does, so every answer the table can give is
tested here without a terminal. Input is forgiving: an option's number, any notation the
library parses (``JH``, ``order alone``), a suit alone while a suit may be named, the Joker as
the screen writes it (``Jkr``).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from euchre import actions as A
from euchre.cards import EFFECTIVE_SUIT, JOKER, CardParseError, parse_suit, sort_hand
from euchre.errors import NotationError
from euchre.explain import why_illegal
from euchre.phases import Phase
from euchre.seats import Seat, side_name
from euchre.state import HandState, seat_name
from euchre.tui.words import Glyphs, card_error
from euchre.view import SeatView
from euchre.words import YOU, Moment, Who, action_words

#: First words of the notation: input starting with one is a try at an option, not a card.
_VERBS = frozenset({"play", "discard", "call", "name", "order", "pick", "pass", "swap", "take",
                    "decline", "defend", "claim", "farmer", "misdeal", "alone", "go"})

HELP = (
    "Type the number of an option, or its notation: a card (JH, 10D, AS), pass, order, "
    "order alone, call H (or just H, hearts), call H alone, discard 9C, take, decline, defend "
    "alone. Commands: hint (what the computer would do, and why), last (the last trick; again "
    "for the one before), undo (take back your last card or bid), help rules (the rules of "
    "this game), help, quit (offers to save; Ctrl-C too)."
)

#: What the prompt of the next-hand pause accepts besides Enter.
NEXT_HAND_HELP = "Enter: next hand {dot} r: review this hand {dot} last {dot} quit"

#: The prompt after the last hand of a game already saved with ``--save``.
GAME_OVER_PROMPT = "Enter: leave, again: new game, r: review > "

_WORDS = {
    "hint": "hint", "last": "last", "l": "last", "help rules": "rules", "rules": "rules",
    "undo": "undo", "u": "undo", "take back": "undo", "quit": "quit", "q": "quit",
    "exit": "quit",
}


@dataclass(frozen=True, slots=True)
class Move:
    """A legal action, ready to apply."""

    action: int


@dataclass(frozen=True, slots=True)
class Request:
    """Something for the table to do: ``hint``, ``last``, ``rules``, ``undo``, ``quit``; between
    hands ``next``, ``review``, ``table``; at a save question ``no``, ``cancel``, ``again``,
    ``save`` (``arg`` the file name); after a saved game ``leave``."""

    name: str
    arg: str = ""


@dataclass(frozen=True, slots=True)
class Info:
    """Text to show, no move made (the help)."""

    text: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """The line was not something to do now: why, and what may be typed instead."""

    text: str


Reply = Move | Request | Info | Refusal


def clean_input(text: str) -> str:
    """Input as it may be shown back and parsed: printable characters only (no escape
    sequences, control codes or undecodable bytes), so echoing it can never garble the
    screen."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    text = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b.", "", text)
    return "".join(ch if ch.isprintable() else " " for ch in text)


def shown(text: str, limit: int = 24) -> str:
    """A player's input quoted back, shortened when long."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _words(line: str) -> str:
    return " ".join(line.lower().split())


@dataclass(frozen=True, slots=True)
class Seating:
    """Who the seats are from the player's chair: "You", "North (partner)", "Us"/"Them"."""

    players: int
    human: int | None

    def name(self, seat: Seat) -> str:
        """The table's label: "You", "North (partner)", "West"."""
        if seat == self.human:
            return "You"
        base = seat_name(seat, self.players)
        if self.players == 4 and self.human is not None and seat == (self.human + 2) % 4:
            return f"{base} (partner)"
        return base

    def who(self, seat: Seat) -> Who:
        """A seat as the subject of a sentence: "You" (who take a verb's plural) or its
        name."""
        return YOU if seat == self.human else Who(self.plain(seat))

    def plain(self, seat: Seat) -> str:
        """"You", or the seat's name without notes ("West", "Player 2")."""
        return "You" if seat == self.human else seat_name(seat, self.players)

    def short(self, seat: Seat) -> str:
        """A tag for tight lines: "You", "N", "P2"."""
        if seat == self.human:
            return "You"
        return "NESW"[seat] if self.players == 4 else f"P{seat + 1}"

    def side_names(self) -> list[str]:
        """The score's labels, one per scoring side."""
        if self.players == 4:
            if self.human is None:
                return ["N-S", "E-W"]
            return ["Us", "Them"] if self.human % 2 == 0 else ["Them", "Us"]
        return ["You" if s == self.human else f"P{s + 1}" for s in range(self.players)]

    def side_long(self, side: int) -> str:
        """A scoring side in a sentence: "Your side", "East-West", "Player 2"."""
        if self.players == 4:
            if self.human is None:
                return side_name(side, 4)
            return "Your side" if side == self.human % 2 else "Your opponents"
        return self.plain(side)

    def score_words(self, scores: list[int] | tuple[int, ...]) -> str:
        """Whose score is whose: "You 3, Player 2 2, Player 3 6", never a bare "3-2-6"."""
        return ", ".join(f"{self.side_long(s)} {v}" for s, v in enumerate(scores))

    def game_over(self, winner: Seat | None) -> str:
        """"Game over: ..." from the player's side: who won, in the right number."""
        if winner is None or winner < 0:
            return "Game over: no side scored"
        if self.players == 4 and self.human is not None:
            return "Game over: " + ("you and your partner win" if winner == self.human % 2
                                    else "your opponents win")
        who = self.side_long(winner)
        plural = who == "You" or self.players == 4  # "You win", "East-West win"
        return f"Game over: {who} win{'' if plural else 's'}"


# ---------------------------------------------------------------------------------------------
# The options on offer


def menu(view: SeatView) -> list[int]:
    """The legal actions in menu order: cards in the order the hand is drawn."""
    legal = list(view.legal_actions)
    if view.phase in (Phase.PLAY, Phase.DISCARD):
        order = {c: i for i, c in enumerate(sort_hand(view.hand, view.trump))}
        return sorted(legal, key=lambda a: order.get(
            a - A.DISCARD_BASE if A.is_discard(a) else a, 99))
    return legal


def renege_cards(view: SeatView) -> set[int]:
    """Cards that would fail to follow suit: offered when reneging is only penalized, and
    marked, so nobody reneges without knowing it."""
    if view.phase != Phase.PLAY or not view.current_trick:
        return set()
    eff = EFFECTIVE_SUIT[view.trump]
    led = eff[view.current_trick[0][1]]
    if not any(eff[c] == led for c in view.hand):
        return set()
    return {c for c in view.legal_actions if eff[c] != led}


def phase_question(view: SeatView) -> str:
    """The question the table asks the player now."""
    return {
        Phase.DECLARE: ("Farmer's hand: swap three low cards for the kitty?"
                        if any(a >= A.SWAP_BASE for a in view.legal_actions)
                        else "Declare before bidding?"),
        Phase.BID1: ("The Joker turned up: name trump." if view.upcard == JOKER
                     else "Pick it up?" if view.dealer == view.seat
                     else "Order up the up-card?"),
        Phase.BID2: "Name a trump suit?",
        Phase.AUCTION: ("Bid how many of the 12 tricks you will take (7 to 12)?"
                        if not view.contract else
                        f"Outbid {view.contract} tricks, or pass?" if view.contract < 12 else
                        "Nothing outbids 12: pass."),
        Phase.TRUMP: "You won the bidding: name trump.",
        Phase.DISCARD: "Discard a card (face down).",
        Phase.DEALER_TAKE: "Take the up-card?",
        Phase.ALONE: "Go alone?",
        Phase.DEFEND: "Defend alone?",
        Phase.PLAY: "Your card.",
        Phase.CLAIM: "Claim a renege?",
        Phase.FIX: "Take back a renege before the trick is quitted?",
    }.get(view.phase, "Your move.")


def choices_text(view: SeatView, g: Glyphs) -> str:
    """What may be typed now: the option numbers and their notation."""
    legal = menu(view)
    # As the screen writes them (10♣, call ♥, order up): each also reads back as input.
    words = [g.translate(action_words(a, Moment.of(view))) for a in legal]
    if len(legal) == 1:
        return f"Type 1 or {words[0]} (the only option)."
    numbers = "1 or 2" if len(legal) == 2 else f"1 to {len(legal)}"
    return f"Type {numbers}, or one of: {', '.join(words)}."


def declaration_notes(view: SeatView) -> list[str]:
    """What a declaration on offer would do, so "misdeal" or "farmer" is never a riddle."""
    if view.phase != Phase.DECLARE:
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
    return notes


# ---------------------------------------------------------------------------------------------
# Reading a line


def suit_call(text: str, view: SeatView) -> int | None:
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


def why_not(a: int, view: SeatView, hand: HandState, g: Glyphs) -> str:
    """Why a well-formed action is illegal now, in the player's terms: the engine's one
    explanation (:func:`euchre.explain.why_illegal`) addressed to "you", in this terminal's
    glyphs, then the choices."""
    why = why_illegal(hand, a, you=True, asked=phase_question(view))
    return f"{g.translate(why)} {choices_text(view, g)}"


def parse(text: str, view: SeatView, hand: HandState, g: Glyphs) -> tuple[int | None, str]:
    """(legal action, "") or (None, why not), for a line already lower-cased and spaced."""
    legal = menu(view)
    if text.isascii() and text.isdigit():  # not "²" or "①": str.isdigit() takes those
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1], ""
        return None, f"There is no option {shown(text)}. {choices_text(view, g)}"
    words = text.split()
    suit_word = len(words) == 1 or (len(words) == 2 and words[1] == "alone")
    try:
        a = A.call(parse_suit(words[0]), len(words) == 2) if suit_word else -1
    except CardParseError:
        a = -1
    if a >= 0:
        return (a, "") if a in legal else (None, why_not(a, view, hand, g))
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
            return None, (f"'{shown(text)}' is not one of your options. "
                          f"{choices_text(view, g)}")
        if len(text) > 24:
            return None, f"'{shown(text)}' is not a card. {choices_text(view, g)}"
        return None, g.translate(card_error(str(exc), view.rules))
    if view.phase == Phase.DISCARD and A.is_play(a):
        a += A.DISCARD_BASE  # "9C" while discarding means bury the 9C
    if a in legal:
        return a, ""
    return None, why_not(a, view, hand, g)


def read_turn(line: str, view: SeatView, hand: HandState, g: Glyphs) -> Reply:
    """What a line typed at the player's turn asks for."""
    low = _words(line)
    if low == "h" and suit_call(low, view) is not None:
        low = "hearts"  # "h" names hearts when a suit may be named, else asks a hint
    if low == "h":
        return Request("hint")
    if low in _WORDS:
        return Request(_WORDS[low])
    if low in ("help", "?"):
        return Info(HELP)
    if not low:
        return Refusal(choices_text(view, g) + " Or: hint, help.")
    action, why = parse(low, view, hand, g)
    return Move(action) if action is not None else Refusal(why)


def read_between_hands(line: str) -> Request | Refusal:
    """The next-hand pause: Enter, ``r``/``t`` (review or table), ``last`` or ``quit``."""
    low = _words(line)
    names = {"": "next", "r": "review", "review": "review", "t": "table", "table": "table",
             "last": "last", "l": "last", "quit": "quit", "q": "quit", "exit": "quit"}
    if low in names:
        return Request(names[low])
    return Refusal(f"'{shown(low)}' is not an option here.")


def read_save_answer(line: str, game_over: bool) -> Request | Refusal:
    """The answer to "File name (...)": during a game Enter takes the default name, ``n``
    saves nothing, ``c`` goes back to play; at the end of a game Enter skips, and ``again``
    (a new game) and ``review`` are offered too."""
    text = line.strip()
    if not text.isprintable():
        return Refusal("A file name cannot hold control characters; type another.")
    low = text.lower()
    if low in ("n", "no"):
        return Request("no")
    if low in ("c", "cancel", "back") and not game_over:
        return Request("cancel")
    if low in ("again", "a", "new") and game_over:
        return Request("again")
    if low in ("review", "r") and game_over:
        return Request("review")
    if not text and game_over:
        return Request("no")
    return Request("save", text)


def read_game_over(line: str) -> Request | Refusal:
    """After the last hand of a game saved with ``--save``: Enter leaves."""
    low = _words(line)
    names = {"": "leave", "again": "again", "a": "again", "new": "again", "r": "review",
             "review": "review", "q": "leave", "quit": "leave", "exit": "leave"}
    if low in names:
        return Request(names[low])
    return Refusal(f"'{shown(low)}' is not an option here.")


# ---------------------------------------------------------------------------------------------
# Requests that need no terminal


Trick = tuple[int, tuple[tuple[int, int], ...], int]


def recall(tricks: tuple[Trick, ...], previous: tuple[Trick, ...],
           back: int) -> tuple[str, int, Trick] | None:
    """The trick ``last`` shows after ``back`` earlier asks in a row: the hand's latest first,
    then the ones before it, round again after the first; the previous hand's when this hand
    has none yet. (heading, trick number, trick), or None before any trick."""
    shown_tricks = tricks or previous
    if not shown_tricks:
        return None
    k = len(shown_tricks) - 1 - back % len(shown_tricks)
    if not tricks:
        heading = "Last trick of the previous hand" if k == len(previous) - 1 \
            else "Earlier in the previous hand"
    else:
        heading = "Last" if k == len(tricks) - 1 else "Earlier"
    return heading, k + 1, shown_tricks[k]


def take_back(hand: HandState, seat: Seat, g: Glyphs) -> tuple[HandState | None, str]:
    """The hand as it was before ``seat``'s last choice in it, with what was taken back.

    The hand is rebuilt from its deal and the acts that stand, so a record keeps only those.
    Forced acts (a single legal card, a declaration with nothing to declare) are no choice, and
    are stepped over to the choice before them. (None, why) when there is nothing to take
    back."""
    probe = HandState(hand.rules, hand.dealer, hand.deck)
    choices: list[int] = []
    for i, (who, a) in enumerate(hand.history):
        if who == seat and len(probe.legal_actions()) > 1:
            choices.append(i)
        probe.apply_action(a)
    if not choices:
        return None, ("Nothing to take back in this hand: you have made no choice in it "
                      "yet (a finished hand stands).")
    k = choices[-1]
    who, taken = hand.history[k]
    again = HandState(hand.rules, hand.dealer, hand.deck)
    for _, a in hand.history[:k]:
        again.apply_action(a)
    others = len(hand.history) - k - 1
    what = g.translate(action_words(taken, Moment(again.phase_name, who, again.dealer, again.n,
                                                  again.upcard)))
    tail = f" and the {others} move{'s' if others != 1 else ''} after it" if others else ""
    return again, f"Taken back: your {what}{tail}."


def resume_command(path: str, launcher: str) -> str:
    """The command that continues a saved game, as the player started this one."""
    arg = shlex.quote(path)
    if not launcher.startswith("make "):
        return f"{launcher} --resume {arg}"
    # make hands ARGS to the shell: quote the whole, the file name inside it as needed.
    inner = f"--resume {arg}"
    if "'" not in inner:
        return f"{launcher} ARGS='{inner}'"
    if not any(ch in inner for ch in '"$`\\'):
        return f'{launcher} ARGS="{inner}"'
    return f"{launcher} ARGS={shlex.quote(inner)}"


__all__ = [
    "GAME_OVER_PROMPT", "HELP", "NEXT_HAND_HELP", "Info", "Move", "Refusal", "Reply", "Request",
    "Seating", "choices_text", "clean_input", "declaration_notes", "menu", "parse",
    "phase_question", "read_between_hands", "read_game_over", "read_save_answer", "read_turn",
    "recall", "renege_cards", "resume_command", "shown", "suit_call", "take_back", "why_not",
]
