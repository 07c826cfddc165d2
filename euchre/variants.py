"""The games a hand can be: the standard deal, and two-handed with rows.

What differs between games that are more than a rule toggle lives here, behind one small class:
how a deck is dealt, which phase the bidding opens with, how many tricks a hand has, whether
cards lie in rows on the table, whether the bidding is an auction of tricks, what a failure to
follow proves. The state deals and bids through its :class:`Variant`; the sampler, the bots, the
analysis, the encoders and the front ends ask the variant (``variant_for(rules)`` or
``view.variant``) the question they have, so none of them tests the ``rows`` option itself and
a new game is one more subclass. The hooks take and give plain values (a deck, the bids, a seat's
hand and rows), not the state: the state imports this module, never the other way round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, TypeAlias

from euchre import actions as A
from euchre.actions import Action
from euchre.cards import BIT, Card
from euchre.phases import AUCTION, BID1, UP_FACE, UP_NONE
from euchre.rules import Rules
from euchre.scoring import ROWS_TRICKS_PER_HAND, TRICKS_PER_HAND
from euchre.seats import Seat, deal_order

__all__ = ["ROWS", "ROW_COLUMNS", "STANDARD", "Columns", "Dealt", "RowsVariant", "Variant",
           "rows_layout", "variant_for"]

Columns: TypeAlias = tuple[tuple[tuple[Card, Card], ...], ...]
"""Two-handed with rows: each seat's columns on the table, (face-up card, the card under it)
each (none in games without rows)."""

Dealt: TypeAlias = tuple[tuple[Seat, ...], tuple[int, ...], list[int], Card, tuple[Card, ...],
                         int, Columns, tuple[Card, ...]]
"""What a deal gives the hand: the seat each deck position went to, each seat's dealt cards and
its cards to play from (bit masks), the up-card (-1: none), the kitty, the up-card's status, the
columns, and the card under each face-up card (-1 where none). A plain tuple: the compiled
build returns it without allocating."""

ROW_COLUMNS: Final = 4
"""Two-handed with rows: columns of a face-down card under a face-up one, per player."""

_DEAL_MAPS: Final = {(n, d): deal_order(n, d) for n in (2, 3, 4) for d in range(n)}


def rows_layout(dealer: Seat) -> tuple[tuple[Seat, tuple[int, ...], tuple[int, ...],
                                             tuple[int, ...]], ...]:
    """Two-handed with rows: (seat, face-down positions, face-up positions, hand positions) in
    the deck. The dealer deals alternately from the non-dealer: a row of four face down each,
    four face up on top of them (column by column), then four to each hand."""
    out = []
    for k, seat in enumerate(((dealer + 1) % 2, dealer)):
        down = tuple(2 * c + k for c in range(ROW_COLUMNS))
        up = tuple(8 + 2 * c + k for c in range(ROW_COLUMNS))
        hand = tuple(16 + 2 * c + k for c in range(ROW_COLUMNS))
        out.append((seat, down, up, hand))
    return tuple(out)


_SEAT_POSITIONS: Final = {
    key: tuple(
        (seat, tuple(i for i, s in enumerate(seats) if s == seat)) for seat in range(key[0])
    )
    for key, seats in _DEAL_MAPS.items()
}
# The two tables above by ``4 * players + dealer``: a deal reads them without building a key.
_DEAL_MAP_AT: Final = tuple(_DEAL_MAPS.get((k // 4, k % 4), ()) for k in range(20))
_SEAT_POSITIONS_AT: Final = tuple(_SEAT_POSITIONS.get((k // 4, k % 4), ()) for k in range(20))


class Variant:
    """The hooks in which one game differs from the shared hand: how a deck is dealt, which
    phase the bidding opens with, how many tricks are played and what was contracted.

    Every game that only toggles a rule (cutthroat, two-handed, the Joker, stick the dealer...)
    is this standard deal of five cards a seat with an up-card; two-handed with rows, which deals
    every card into hands and rows and bids a number of tricks, is :class:`RowsVariant`. The
    state asks its variant and carries no flag of its own for the game being played."""

    __slots__ = ()

    name: ClassVar[str] = "standard"
    tricks_per_hand: ClassVar[int] = TRICKS_PER_HAND
    row_columns: ClassVar[int] = 0
    """Columns of a face-down card under a face-up one each player has on the table (none:
    every card is dealt into hands, the up-card and the kitty)."""
    bids_tricks: ClassVar[bool] = False
    """Whether the bidding is an auction of a number of tricks (the highest bid is the
    contract), rather than ordering up or naming a suit."""
    lasting_voids: ClassVar[bool] = True
    """Whether a seat that fails to follow suit can hold no card of that suit later in the hand,
    so its failure shows a void for good."""

    def deal(self, deck: tuple[Card, ...], n: int, dealer: Seat) -> Dealt:
        """Deal ``deck`` in packets of 3 and 2 from the dealer's left; the next card is the
        up-card, the rest the face-down kitty in order."""
        hands = [0] * n
        bit = BIT  # a table, not 1 << card: no new int object per card in pure Python
        for seat, (p0, p1, p2, p3, p4) in _SEAT_POSITIONS_AT[4 * n + dealer]:
            hands[seat] = (bit[deck[p0]] | bit[deck[p1]] | bit[deck[p2]] | bit[deck[p3]]
                           | bit[deck[p4]])
        k = 5 * n
        return (_DEAL_MAP_AT[4 * n + dealer], tuple(hands), hands, deck[k], deck[k + 1 :],
                UP_FACE, (), ())

    def bidding_phase(self) -> int:
        """The phase the bidding opens with."""
        return BID1

    def high_bid(self, history: Sequence[tuple[Seat, Action]], start: int) -> tuple[int, Seat]:
        """(tricks, seat) of the highest bid of tricks so far (``history``: the hand's actions,
        its bidding from ``start``): (0, -1) in games without one."""
        return 0, -1

    def face_down(self, hand: int, columns: Columns, seat: Seat) -> list[Card]:
        """The cards still face down in ``seat``'s row (``hand``: the cards it may play from;
        ``columns``: every seat's), none in games without rows."""
        return []

    def face_up(self, hand: int, columns: Columns, seat: Seat) -> list[Card]:
        """The cards ``seat`` has lying face up on the table (``hand``: the cards it may play
        from; ``columns``: every seat's), none in games without rows."""
        return []


class RowsVariant(Variant):
    """Two-handed with rows: every card is dealt (no up-card, no kitty), a row of four face-up
    cards on four face-down ones a player, and the bidding is an auction of tricks of twelve."""

    __slots__ = ()

    name: ClassVar[str] = "rows"
    tricks_per_hand: ClassVar[int] = ROWS_TRICKS_PER_HAND
    row_columns: ClassVar[int] = ROW_COLUMNS
    bids_tricks: ClassVar[bool] = True
    lasting_voids: ClassVar[bool] = False
    """A face-down card turned up later (when the card on it is played) may be of the suit the
    seat could not follow from its hand and face-up cards."""

    def deal(self, deck: tuple[Card, ...], n: int, dealer: Seat) -> Dealt:
        """A seat may play what it holds in hand and its face-up cards, so its hand holds both;
        a face-down card joins it when the card on it is played (``under``)."""
        hands = [0, 0]
        initial = [0, 0]
        seats = [0] * len(deck)
        under = [-1] * 33
        columns: list[tuple[tuple[int, int], ...]] = [(), ()]
        for seat, down, up, hand in rows_layout(dealer):
            for pos in (*down, *up, *hand):
                seats[pos] = seat
                initial[seat] |= 1 << deck[pos]
            for pos in (*up, *hand):
                hands[seat] |= 1 << deck[pos]
            columns[seat] = tuple((deck[u], deck[d]) for u, d in zip(up, down, strict=True))
            for u, d in zip(up, down, strict=True):
                under[deck[u]] = deck[d]
        return (tuple(seats), tuple(initial), hands, -1, (), UP_NONE, tuple(columns),
                tuple(under))

    def bidding_phase(self) -> int:
        return AUCTION

    def high_bid(self, history: Sequence[tuple[Seat, Action]], start: int) -> tuple[int, Seat]:
        """Read from the history (two entries at most), so undo and copies need nothing more."""
        best, who = 0, -1
        for seat, a in history[start:start + 2]:
            if A.is_bid(a) and A.bid_tricks(a) > best:
                best, who = A.bid_tricks(a), seat
        return best, who

    def face_down(self, hand: int, columns: Columns, seat: Seat) -> list[Card]:
        return [d for u, d in columns[seat] if hand >> u & 1]

    def face_up(self, hand: int, columns: Columns, seat: Seat) -> list[Card]:
        out = []
        for u, d in columns[seat]:
            if hand >> u & 1:
                out.append(u)
            elif hand >> d & 1:
                out.append(d)
        return out


STANDARD: Final = Variant()
ROWS: Final = RowsVariant()


def variant_for(rules: Rules) -> Variant:
    """The game ``rules`` describe: two-handed with rows, or the standard deal."""
    return ROWS if rules.rows else STANDARD
