"""An action in words, for whoever reads them: the one home of how the game speaks of what a
seat may do and what it did, and of what a hand and a game came to.

Every front end asks here: the browser's buttons, bubbles and log (the server sends these
words; the page only shows them), the terminal's menu, the hints and the analysis, the replay
and the terminal's hand review. So one action reads alike everywhere, and its grammar is right
for every name: "You were euchred" and "East (rule) was euchred", "You & North win" and "Ann
wins", "East (rule) went alone and made it".

An action's words depend on more than its id: ``pass`` is a bid, a declined defend-alone or a
declined renege claim; ``order`` is "pick it up" from the dealer; under a turned-up Joker the
dealer *names* a suit. :class:`Moment` carries what
decides that, and :func:`action_words` gives the words in one of three voices:

- ``"option"``: the choice as it is offered to the seat that takes it, which also reads back as
  that action's notation (``euchre.actions.action_from_str``): "pick it up alone", "call ♥",
  "J♠" (a card is its own option), "bid 8 tricks";
- ``"gerund"``: the same as a noun phrase, for explanations ("ordering up loses 0.4 points");
- ``"done"``: what a seat did, after its name ("orders it up"), or with ``who`` a whole sentence
  in the right person ("You order it up", "West (rule) orders it up").

Front ends start a sentence or a button with :func:`capital`. Pure standard library, like the
rest of the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from euchre import actions as A
from euchre.actions import Action
from euchre.cards import JOKER, SUIT_SYMBOLS, Card, card_symbol
from euchre.phases import Phase
from euchre.seats import Seat
from euchre.view import HIDDEN_DISCARD, HIDDEN_SWAP, SeatView

__all__ = ["YOU", "Moment", "Voice", "Who", "action_words", "capital", "card_words",
           "game_over_title", "hand_result", "option_words", "side", "who_played"]

Voice = Literal["option", "gerund", "done"]


@dataclass(frozen=True, slots=True)
class Who:
    """Whom a sentence is about, as its reader calls them: the verb agrees with it ("You
    pass", "East (rule) passes", "You & North win", "Ann wins")."""

    name: str
    plural: bool = False

    def says(self, plural: str, singular: str) -> str:
        """The sentence with this subject and the verb phrase that agrees with it."""
        return f"{self.name} {plural if self.plural else singular}"


YOU = Who("You", plural=True)
"""The reader, about their own seat: the word each viewer's own page uses, never a name shown
to others."""


def side(*members: Who) -> Who:
    """A partnership as one subject ("You & North (rule)"): the reader first, and plural."""
    ordered = sorted(members, key=lambda w: w is not YOU)
    return Who(" & ".join(w.name for w in ordered), plural=len(members) > 1 or ordered[0].plural)


@dataclass(frozen=True, slots=True)
class Moment:
    """What an action's words depend on besides the action: the phase it is taken in, by which
    seat, who deals, how many play, and the up-card (-1: none or unknown)."""

    phase: Phase
    seat: Seat
    dealer: Seat
    players: int = 4
    upcard: Card = -1

    @classmethod
    def of(cls, view: SeatView) -> Moment:
        """Where a seat's view is: the moment of the seat's own choice now."""
        return cls(view.phase, view.seat, view.dealer, view.players, view.upcard)

    @property
    def by_dealer(self) -> bool:
        return self.seat == self.dealer



def card_words(c: Card) -> str:
    """A card as these words write it: ``J♠``, ``10♥``, and the Joker as ``Joker``."""
    return "Joker" if c == JOKER else card_symbol(c)


def capital(text: str) -> str:
    """``text`` starting a sentence or a button: its first letter in upper case."""
    return text[:1].upper() + text[1:]


# (option, gerund, "done" after a plural subject, "done" after a singular one)
Forms = tuple[str, str, str, str]


def _same(verb: str, rest: str, third: str | None = None) -> Forms:
    """The four forms of a regular verb phrase ("go alone": "going alone", "goes alone")."""
    third = third or (verb + "es" if verb.endswith(("s", "o")) else verb + "s")
    gerund = verb[:-1] + "ing" if verb.endswith("e") and verb != "see" else verb + "ing"
    tail = f" {rest}" if rest else ""
    return f"{verb}{tail}", f"{gerund}{tail}", f"{verb}{tail}", f"{third}{tail}"


_PASSES: dict[Phase, Forms] = {
    Phase.DECLARE: ("keep the hand", "keeping the hand", "have nothing to declare",
                    "has nothing to declare"),
    Phase.DEFEND: ("pass", "not defending alone", "decline to defend alone",
                   "declines to defend alone"),
    Phase.CLAIM: ("no claim", "making no claim", "make no renege claim",
                  "makes no renege claim"),
    Phase.FIX: ("let it stand", "letting the trick stand", "let the trick stand",
                "lets the trick stand"),
}

_FIXED: dict[Action, Forms] = {
    A.DEFEND_ALONE: _same("defend", "alone"),
    A.GO_ALONE: _same("go", "alone"),
    A.WITH_PARTNER: _same("play", "with partner"),
    A.TAKE: ("take it", "taking the up-card", "take the up-card", "takes the up-card"),
    A.DECLINE: ("decline", "declining the up-card", "leave the up-card", "leaves the up-card"),
    A.FARMER: ("farmer's hand", "calling a farmer's redeal", "call a farmer's hand: redeal",
               "calls a farmer's hand: redeal"),
    A.MISDEAL: ("call a misdeal", "calling a misdeal",
                "call a misdeal (no ace, no face, no trump)",
                "calls a misdeal (no ace, no face, no trump)"),
    A.CLAIM_RENEGE: _same("claim", "a renege"),
    A.FIX_RENEGE: ("take back the renege", "taking back the renege", "take back a renege",
                   "takes back a renege"),
    HIDDEN_DISCARD: ("discard", "discarding a card face down", "discard a card face down",
                     "discards a card face down"),
    HIDDEN_SWAP: ("swap", "swapping three low cards", "swap three low cards for the kitty",
                  "swaps three low cards for the kitty"),
}


def _forms(a: Action, at: Moment) -> Forms:
    if A.is_play(a):  # a card is its own option: "J♠"
        card = card_words(a)
        return card, f"playing {card}", f"play {card}", f"plays {card}"
    if A.is_discard(a):
        return _same("discard", card_words(a - A.DISCARD_BASE))
    if A.SWAP_BASE <= a < A.NUM_ACTIONS:
        cards = " ".join(card_words(c) for c in A.SWAP_SETS[a - A.SWAP_BASE])
        return (f"swap {cards}", f"swapping {cards}", f"swap {cards} for the kitty",
                f"swaps {cards} for the kitty")
    if a in _FIXED:
        return _FIXED[a]
    if a == A.PASS:
        return _PASSES.get(at.phase, ("pass", "passing", "pass", "passes"))
    if A.is_bid(a):
        k = A.bid_tricks(a)
        return f"bid {k} tricks", f"bidding {k}", f"bid {k}", f"bids {k}"
    alone = " alone" if a == A.ORDER_ALONE or A.CALL_ALONE_BASE <= a < A.CALL_ALONE_BASE + 4 \
        else ""
    if a in (A.ORDER, A.ORDER_ALONE):
        if at.by_dealer:
            return ("pick it up" + alone, "picking it up" + alone, "pick it up" + alone,
                    "picks it up" + alone)
        return ("order up" + alone, "ordering up" + alone, "order it up" + alone,
                "orders it up" + alone)
    if A.CALL_BASE <= a < A.CALL_ALONE_BASE + 4:
        suit = SUIT_SYMBOLS[(a - A.CALL_BASE) % 4]
        option, gerund = f"call {suit}{alone}", f"calling {suit}{alone}"
        if at.phase == Phase.TRUMP:  # two-handed with rows: the auction's winner names it
            return option, gerund, f"name {suit} trump", f"names {suit} trump"
        if at.phase == Phase.BID1 and at.upcard == JOKER:  # the dealer names under a Joker
            return option, gerund, f"name {suit}{alone}", f"names {suit}{alone}"
        return option, gerund, f"call {suit}{alone}", f"calls {suit}{alone}"
    text = A.action_to_str(a)  # raises NotationError naming a value that is no action
    return text, text, text, text


def action_words(action: Action, at: Moment, voice: Voice = "option",
                 who: Who | None = None) -> str:
    """``action`` in words, as taken at ``at``, in ``voice`` (see the module's docstring);
    ``who`` makes the ``"done"`` voice a sentence about them. Raises ``NotationError`` for a
    value that is no action."""
    if isinstance(action, bool) or not isinstance(action, int):
        A.action_to_str(action)  # raises NotationError naming the value
    option, gerund, plural, singular = _forms(action, at)
    if voice == "option":
        return option
    if voice == "gerund":
        return gerund
    return singular if who is None else who.says(plural, singular)


def option_words(action: Action, view: SeatView) -> str:
    """``action`` as offered to ``view``'s seat now, starting a sentence or a button ("Pick it
    up alone", "Call ♥", "J♠")."""
    return capital(action_words(action, Moment.of(view)))


def who_played(who: Who) -> str:
    """The end of a card's name for a screen reader: "played by you", "played by West"."""
    return "played by you" if who is YOU else f"played by {who.name}"


# what a hand and a game came to ------------------------------------------------------------------


def hand_result(outcome: str, maker: Who, *, alone: bool, tricks: int, contract: int = 0,
                tricks_per_hand: int = 5, players: int = 4) -> str:
    """What a hand came to, in the past tense: "You went alone and made it", "East (rule) was
    euchred", "Ann bid 8 and took 9 tricks: made it"; a hand thrown in or misdealt says so.
    ``outcome``: the hand's (``scored``, ``thrown_in``, ``misdeal``); ``contract``: the tricks
    bid (the two-handed game with rows), 0 for a hand made by ordering or calling."""
    if outcome == "thrown_in":
        return ("Both passed: the hand is thrown in and the deal passes" if players == 2 else
                "Everyone passed: the hand is thrown in and the deal passes left")
    if outcome == "misdeal":
        return "A misdeal was called: the same dealer deals again"
    if contract:
        took = f"bid {contract} and took {tricks} trick{'' if tricks == 1 else 's'}"
        return maker.says(took, took) + (": made it" if tricks >= contract
                                         else ", short of the bid")
    if tricks * 2 > tricks_per_hand:
        result = "took all the tricks" if tricks == tricks_per_hand else "made it"
        result = f"went alone and {result}" if alone else result
        return maker.says(result, result)
    lone = "went alone and " if alone else ""
    return maker.says(f"{lone}were euchred", f"{lone}was euchred")


def game_over_title(winner: Who | None, scores: list[int], winner_score: int = -1) -> str:
    """The game's end: "You & North (rule) win 10 – 5!", the winner's score first (then the
    others' in seat order); a game with no winner is a draw, or one nobody scored in."""
    if winner is None or winner_score < 0:
        return "Game over: a draw." if any(scores) else "Game over: nobody scored."
    others = list(scores)
    others.remove(winner_score)
    shown = " – ".join(str(v) for v in [winner_score, *others])
    return winner.says(f"win {shown}!", f"wins {shown}!")
