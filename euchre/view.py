"""What one seat may know: the only thing bots and user interfaces ever receive.

A :class:`SeatView` is a frozen value built by ``state.view(seat)``
(:func:`euchre.state.make_view`: this module does not know the state, so the two import in
one direction only). It holds the seat's own cards, the up-card and where it went, every public
act (bids, plays, declarations made, defending alone, claims) and the seat's private acts (its
own discard, its own farmer's swap). It never holds another hand, the kitty, another player's
discard or a declaration another player silently declined.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from euchre import actions as A
from euchre.actions import Action
from euchre.cards import EFFECTIVE_SUIT, NO_TRUMP, Card, Suit
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.seats import Seat, is_maker_side, partner, side_of
from euchre.variants import Variant, variant_for

HIDDEN_DISCARD: Final = -1
"""Stands in a view's history for another player's face-down discard."""
HIDDEN_SWAP: Final = -2
"""Stands in a view's history for another player's farmer's swap (which cards is private)."""
FACE_DOWN: Final = -1
"""Stands in a view's ``rows`` for a card still face down (two-handed with rows)."""

Trick = tuple[Seat, tuple[tuple[Seat, Card], ...], Seat]
"""(leader, ((seat, card), ...), winner)"""


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know about the current hand (and the match score, if any)."""

    rules: Rules
    seat: Seat
    dealer: Seat
    phase: Phase
    current_player: Seat
    hand: tuple[Card, ...]
    upcard: Card
    upcard_status: str
    trump: Suit
    """Trump suit 0..3, or 4 (``NO_TRUMP``) while bidding."""
    maker: Seat
    alone: bool
    lone_defender: Seat
    active: tuple[Seat, ...]
    history: tuple[tuple[Seat, Action], ...]
    """(seat, action) of every act this seat saw; hidden acts use HIDDEN_DISCARD/HIDDEN_SWAP."""
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[Seat, Card], ...]
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    discard: Card
    """This seat's own discard (dealer only), else -1."""
    swapped_out: tuple[Card, ...]
    """The low cards this seat gave to the kitty in a farmer's swap."""
    swapper: Seat
    legal_actions: tuple[Action, ...]
    """Empty unless it is this seat's turn."""
    outcome: str | None
    points: tuple[int, ...]
    scores: tuple[int, ...] = ()
    """Match score by side before this hand, when the view comes from a match."""
    rows: tuple[tuple[tuple[Card, Card], ...], ...] = ()
    """Two-handed with rows: per seat, its four columns as (face-up card, card under it), the
    card under it being ``FACE_DOWN`` until the card on it is played. A column's cards that
    were played show in the tricks; the rest lie face up (public) or face down (hidden from
    everyone, the seat itself included). Empty in every other game."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and ``copy.deepcopy`` by the fields, which the compiled (native, frozen)
        class needs: the dataclass's own way sets attributes a frozen class refuses."""
        return (SeatView, tuple(getattr(self, f.name) for f in fields(self)))

    def face_up(self, seat: Seat) -> list[Card]:
        """The cards ``seat`` has lying face up on the table now (rows only)."""
        played = set(self.played_cards())
        out = []
        for top, under in self.rows[seat] if self.rows else ():
            if top not in played:
                out.append(top)
            elif under != FACE_DOWN and under not in played:
                out.append(under)
        return out

    def face_down_count(self, seat: Seat) -> int:
        """How many cards ``seat`` still has face down in its row (rows only)."""
        return sum(1 for _, under in self.rows[seat] if under == FACE_DOWN) if self.rows else 0

    @property
    def contract(self) -> int:
        """Two-handed with rows: the highest bid (tricks the maker must take), 0 before any."""
        return max((A.bid_tricks(a) for _, a in self.history if A.is_bid(a)), default=0)

    @property
    def variant(self) -> Variant:
        """The game being played (:func:`euchre.variants.variant_for` the rules): ask it how
        this game differs (rows on the table, an auction of tricks, the tricks a hand)."""
        return variant_for(self.rules)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.seat

    @property
    def led_suit(self) -> int:
        """Effective suit of the card led to the current trick, or -1."""
        if not self.current_trick or self.trump == NO_TRUMP:
            return -1
        return EFFECTIVE_SUIT[self.trump][self.current_trick[0][1]]

    def partner(self, seat: Seat | None = None) -> Seat:
        """The partner across the table of ``seat`` (default: this seat); with two or three
        players, the seat itself."""
        return partner(self.seat if seat is None else seat, self.rules.players)

    def side_of(self, seat: Seat | None = None) -> int:
        """The scoring side of ``seat`` (default: this seat): the index into ``points`` and
        ``scores``. Partners share a side with four players; otherwise each seat is one."""
        return side_of(self.seat if seat is None else seat, self.rules.players)

    def is_maker_side(self, seat: Seat | None = None) -> bool:
        """Whether ``seat`` (default: this seat) plays for the makers: the maker and, with
        four players, the maker's partner. False before trump is made."""
        return is_maker_side(self.seat if seat is None else seat, self.maker, self.rules.players)

    def lawful_cards(self) -> list[Card]:
        """The cards this seat may play now without reneging: its legal actions that follow
        the suit led, when any does. Under renege "penalize" the legal actions also allow a
        renege (to be claimed later); the solvers and searching players play lawfully only.
        Outside its turn at card play, the legal actions as they are."""
        legal = list(self.legal_actions)
        if self.current_trick and self.trump < 4:
            led = self.led_suit
            follow = [c for c in legal if EFFECTIVE_SUIT[self.trump][c] == led]
            if follow:
                return follow
        return legal

    def played_cards(self) -> list[Card]:
        out = [c for _, cards, _ in self.tricks for _, c in cards]
        out += [c for _, c in self.current_trick]
        return out

    def voids(self) -> dict[Seat, set[Suit]]:
        """Effective suits each other seat has shown it lacks by not following (seat -> suits).

        Under renege "penalize" a failure to follow proves nothing, so no void is inferred; nor
        with rows, where only the hand and the face-up cards were void."""
        out: dict[Seat, set[Suit]] = {}
        if self.trump == NO_TRUMP or self.rules.renege == "penalize" \
                or not self.variant.lasting_voids:
            return out  # with rows, a face-down card turned up later may be of that suit
        eff = EFFECTIVE_SUIT[self.trump]
        tricks = [cards for _, cards, _ in self.tricks]
        if self.current_trick:
            tricks.append(self.current_trick)
        for cards in tricks:
            led = eff[cards[0][1]]
            for seat, c in cards[1:]:
                if eff[c] != led:
                    out.setdefault(seat, set()).add(led)
        return out


def public_history(history: list[tuple[Seat, Action]], seat: Seat
                   ) -> tuple[tuple[Seat, Action], ...]:
    """The acts ``seat`` saw after bidding began: other players' discards are face down."""
    return tuple(
        (who, HIDDEN_DISCARD if who != seat and A.is_discard(a) else a) for who, a in history
    )
