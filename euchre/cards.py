"""Cards as small ints, hands as bitmasks, and the trump-aware tables every rule goes through.

A card is ``suit * 8 + rank`` with suits ``C D H S`` (0..3) and ranks ``7 8 9 T J Q K A``
(0..7); the Joker is 32. A hand is an int whose bit ``c`` is set when card ``c`` is held, so
following suit is one ``&`` against a per-trump mask, and copying a hand costs nothing.

Everything that depends on trump (the left bower changing suit, the Joker being the top trump)
is precomputed here per trump suit, so no other module ever asks "is this a Jack of the same
colour": they look up ``EFFECTIVE_SUIT`` and ``SUIT_MASK`` instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from euchre.errors import NotationError, quote

Card: TypeAlias = int
"""A card id: ``suit * 8 + rank`` (0..31), or ``JOKER`` (32)."""
Suit: TypeAlias = int
"""A suit 0..3 (clubs, diamonds, hearts, spades); 4 (``NO_TRUMP``) stands for none."""
Mask: TypeAlias = int
"""A set of cards as a bitmask: bit ``c`` is set when card ``c`` is in it."""

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_LETTERS: Final = "789TJQKA"
RANK_NAMES: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")
SEVEN: Final = 0
EIGHT: Final = 1
NINE: Final = 2
TEN: Final = 3
JACK: Final = 4
QUEEN: Final = 5
KING: Final = 6
ACE: Final = 7
JOKER: Final = 32
NUM_CARD_IDS: Final = 33
NO_CARD: Final = -1

#: Ranks a card may be counted low with for the farmer's hand (7s and 8s exist in 32-card decks).
LOW_RANKS: Final = (SEVEN, EIGHT, NINE, TEN)


def card(suit: Suit, rank: int) -> Card:
    """The card id of ``rank`` of ``suit``."""
    return suit * 8 + rank


def suit_of(c: Card) -> Suit:
    """The printed suit (the Joker has none: -1). For play, use ``EFFECTIVE_SUIT`` instead."""
    return -1 if c == JOKER else c >> 3


def same_colour(suit: Suit) -> Suit:
    """The other suit of the same colour: clubs/spades, diamonds/hearts."""
    return 3 - suit


def deck_cards(size: int) -> tuple[Card, ...]:
    """The cards of a 24-, 25- (with Joker) or 32-card deck, in id order."""
    if size not in (24, 25, 32):
        raise ValueError(f"deck size must be 24, 25 or 32, not {size}")
    low = SEVEN if size == 32 else NINE
    cards = tuple(card(s, r) for s in SUITS for r in range(low, 8))
    return (*cards, JOKER) if size == 25 else cards


def deck_mask(size: int) -> Mask:
    return mask_of(deck_cards(size))


# ---------------------------------------------------------------------------------------------
# Notation

_SUIT_PARSE: Final = {
    "C": CLUBS, "D": DIAMONDS, "H": HEARTS, "S": SPADES,
    "♣": CLUBS, "♦": DIAMONDS, "♥": HEARTS, "♠": SPADES,
    "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES,
}
_RANK_PARSE: Final = {
    "7": SEVEN, "8": EIGHT, "9": NINE, "T": TEN, "10": TEN,
    "J": JACK, "Q": QUEEN, "K": KING, "A": ACE,
}


class CardParseError(NotationError):
    """Raised for text that is not a card or suit; the message says what is accepted.

    A :class:`~euchre.errors.NotationError` (so ``except euchre.NotationError`` catches every
    notation problem), kept as its own name for code that already catches it."""


def _need_text(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise CardParseError(f"a {what} is written as text, not {quote(text)}")
    return text


def parse_card(text: str | object) -> Card:
    """Read ``9C``, ``TC``, ``10C``, ``10♣``, ``c9`` or ``JOKER``/``BENNY``, in any case."""
    raw = _need_text(text, "card")
    t = raw.strip().upper().replace(" ", "")
    if t in ("JOKER", "BENNY", "JK", "BEN", "★", "🃏"):
        return JOKER
    for rank_text, suit_text in ((t[:-1], t[-1:]), (t[1:], t[:1])):
        if suit_text in _SUIT_PARSE and rank_text in _RANK_PARSE:
            return card(_SUIT_PARSE[suit_text], _RANK_PARSE[rank_text])
    raise CardParseError(
        f"{quote(raw.strip())} is not a card: write rank then suit, e.g. 9C TC 10C JD QH KS AS"
        " or J♥, or JOKER"
    )


def parse_suit(text: str | object) -> Suit:
    """Read ``H``, ``hearts``, ``♥``; case-insensitive."""
    t = _need_text(text, "suit").strip()
    up = t.upper()
    if up in _SUIT_PARSE:
        return _SUIT_PARSE[up]
    for s, name in enumerate(SUIT_NAMES):
        if t.lower() in (name, name[:-1]):
            return s
    raise CardParseError(
        f"{quote(t)} is not a suit: use C, D, H, S (or ♣ ♦ ♥ ♠, or clubs...spades)")


def card_str(c: Card) -> str:
    """Canonical ASCII notation (``9C``, ``TH``, ``JOKER``): what records store."""
    if c == JOKER:
        return "JOKER"
    return RANK_LETTERS[c & 7] + SUIT_LETTERS[c >> 3]


def card_symbol(c: Card) -> str:
    """Display notation with suit symbols (``10♥``, ``J♦``, ``🃏`` spelled ``Jkr``)."""
    if c == JOKER:
        return "Jkr"
    return RANK_NAMES[c & 7] + SUIT_SYMBOLS[c >> 3]


def suit_str(s: Suit) -> str:
    return SUIT_LETTERS[s]


# ---------------------------------------------------------------------------------------------
# Masks

#: BIT[card]: the mask of that card alone (``1 << card``), read from a table where the hot paths
#: would otherwise build a new int object for each card (in pure Python, 1 << c above 8 is one).
BIT: Final[tuple[Mask, ...]] = tuple(1 << c for c in range(NUM_CARD_IDS))


def mask_of(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _build_mask_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    tables = []
    for chunk in range(3):
        base = chunk * 11
        tables.append(
            tuple(
                tuple(base + b for b in range(11) if m >> b & 1 and base + b < NUM_CARD_IDS)
                for m in range(2048)
            )
        )
    return tuple(tables)


_CHUNKS: Final = _build_mask_tables()
_CHUNK0: Final = _CHUNKS[0]
_CHUNK1: Final = _CHUNKS[1]
_CHUNK2: Final = _CHUNKS[2]


def cards_of(mask: Mask) -> list[Card]:
    """The cards of a mask in id order: three table lookups instead of a bit loop."""
    if mask < 2048:
        return list(_CHUNK0[mask])
    return [*_CHUNK0[mask & 2047], *_CHUNK1[(mask >> 11) & 2047], *_CHUNK2[mask >> 22]]


# ---------------------------------------------------------------------------------------------
# Per-trump tables. Index 4 means "no trump yet" (printed suits; the Joker has suit 4 = none).

NO_TRUMP: Final = 4

SUIT_PLAIN_MASK: Final = tuple(mask_of(card(s, r) for r in range(8)) for s in SUITS)


def _effective_suit(c: int, trump: int) -> int:
    if c == JOKER:
        return trump  # with no trump, NO_TRUMP: a suit of its own
    s = c >> 3
    if trump != NO_TRUMP and (c & 7) == JACK and s == same_colour(trump):
        return trump
    return s


#: EFFECTIVE_SUIT[trump][card]: the suit a card follows as, the left bower and Joker in trump.
EFFECTIVE_SUIT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_effective_suit(c, t) for c in range(NUM_CARD_IDS)) for t in range(5)
)

#: SUIT_MASK[trump][suit]: every card whose effective suit is ``suit`` under ``trump``.
SUIT_MASK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        mask_of(c for c in range(NUM_CARD_IDS) if EFFECTIVE_SUIT[t][c] == s) for s in range(5)
    )
    for t in range(5)
)


def left_bower(trump: Suit) -> Card:
    return card(same_colour(trump), JACK)


def right_bower(trump: Suit) -> Card:
    return card(trump, JACK)


def _trump_rank(c: int, trump: int) -> int:
    """Rank within trump: 9..A as 2..7 (7 and 8 lower), left bower 8, right 9, Joker 10."""
    if c == JOKER:
        return 10
    if c == right_bower(trump):
        return 9
    if c == left_bower(trump):
        return 8
    return c & 7


#: STRENGTH[trump][led][card]: >0 when the card can win a trick led in ``led``; bigger wins.
#: Trumps score 100 + trump rank, cards of the led suit 1 + rank, everything else 0.
STRENGTH: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            (100 + _trump_rank(c, t))
            if EFFECTIVE_SUIT[t][c] == t
            else (1 + (c & 7) if EFFECTIVE_SUIT[t][c] == led else 0)
            for c in range(NUM_CARD_IDS)
        )
        for led in range(4)
    )
    for t in range(4)
)

#: POWER[trump][card]: a total order for sorting and for bots (trumps above every plain card).
POWER: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        (100 + _trump_rank(c, t)) if EFFECTIVE_SUIT[t][c] == t else (c & 7)
        for c in range(NUM_CARD_IDS)
    )
    for t in range(4)
)


def sort_hand(cards: Iterable[Card], trump: Suit = NO_TRUMP) -> list[Card]:
    """Display order: trump first (Joker, right, left, A..9), then the other suits high to low."""
    cs = list(cards)
    if trump == NO_TRUMP:
        return sorted(cs, key=lambda c: (-1, 0) if c == JOKER else (c >> 3, -(c & 7)))
    order = [trump, *(s for s in SUITS if s != trump)]
    return sorted(
        cs,
        key=lambda c: (order.index(EFFECTIVE_SUIT[trump][c]), -POWER[trump][c]),
    )


def lawful_mask(hand: Mask, trump: Suit, led: Suit) -> Mask:
    """The cards of ``hand`` that may be played to a trick led in effective suit ``led``
    without reneging: those that follow it, or the whole hand when none does (``led`` < 0:
    nothing led yet, every card)."""
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[trump][led]
    return follow if follow else hand
