"""Actions as stable ints, and their text form.

Each action id means one thing in every phase (a discard of the 9♣ is never the same id as a play
of it), so a record is a plain list of ids or texts and ``legal_actions`` can be sorted ints like
OpenSpiel's. The text form round-trips: ``action_from_str(action_to_str(a)) == a``. An action
in a person's words, which read back here too, is :mod:`euchre.words`'s.

The ids and their text form::

    ids       text                        meaning
    0..32     ``play JH``                 play a card (also accepted: ``JH`` alone)
    40..72    ``discard 9C``              the dealer buries a card after taking the up-card
    73..78    ``bid 7`` .. ``bid 12``     two-handed with rows: tricks bid (the maker then names)
    80        ``pass``                    pass a bid, decline to defend alone / to claim / declare
    81, 82    ``order``, ``order alone``  round one: order up, assist or pick up (same act)
    84..87    ``call H``                  round two: name a suit (or the dealer under a Joker)
    88..91    ``call H alone``            the same, going alone
    92        ``defend alone``            a defender plays alone against a lone maker
    93, 94    ``alone``, ``partner``      OpenSpiel's separate alone decision after the discard
    95, 96    ``decline``, ``take``       two-handed: the dealer declines or takes an ordered card
    97        ``farmer``                  farmer's hand: call a redeal
    98        ``misdeal``                 no ace, no face, no trump: call a misdeal
    79        ``fix renege``              take back a renege before the trick is quitted (fix)
    99        ``claim renege``            claim the other side reneged (penalize mode)
    100..     ``swap 9C TC 9D``           farmer's swap of three low cards for the kitty
"""

from __future__ import annotations

from itertools import combinations
from typing import Final, TypeAlias

from euchre.cards import (
    LOW_RANKS,
    SUITS,
    Card,
    CardParseError,
    Suit,
    card,
    card_str,
    parse_card,
    parse_suit,
    suit_str,
)
from euchre.errors import NotationError, quote

Action: TypeAlias = int
"""An action id: each id means one thing in every phase (see the table above)."""

PLAY_BASE: Final = 0
DISCARD_BASE: Final = 40
BID_BASE: Final = 73
"""Two-handed with rows: ``bid k`` (k tricks of twelve) is ``BID_BASE + k - BID_MIN``."""
BID_MIN: Final = 7
BID_MAX: Final = 12
FIX_RENEGE: Final = 79
PASS: Final = 80
ORDER: Final = 81
ORDER_ALONE: Final = 82
CALL_BASE: Final = 84
CALL_ALONE_BASE: Final = 88
DEFEND_ALONE: Final = 92
GO_ALONE: Final = 93
WITH_PARTNER: Final = 94
DECLINE: Final = 95
TAKE: Final = 96
FARMER: Final = 97
MISDEAL: Final = 98
CLAIM_RENEGE: Final = 99
SWAP_BASE: Final = 100

#: Every three-card set of low cards (7-10 of any suit), in a fixed order: swap ids index this.
SWAP_SETS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    combinations(sorted(card(s, r) for s in SUITS for r in LOW_RANKS), 3)
)
SWAP_ID: Final[dict[int, int]] = {
    (1 << a) | (1 << b) | (1 << c): SWAP_BASE + i for i, (a, b, c) in enumerate(SWAP_SETS)
}
NUM_ACTIONS: Final = SWAP_BASE + len(SWAP_SETS)


def play(c: Card) -> Action:
    return PLAY_BASE + c


def discard(c: Card) -> Action:
    return DISCARD_BASE + c


def call(suit: Suit, alone: bool = False) -> Action:
    return (CALL_ALONE_BASE if alone else CALL_BASE) + suit


def bid(tricks: int | object) -> Action:
    """Two-handed with rows: the id of bidding ``tricks`` (BID_MIN..BID_MAX) of twelve."""
    if isinstance(tricks, bool) or not isinstance(tricks, int) \
            or not BID_MIN <= tricks <= BID_MAX:
        raise NotationError(f"a bid is {BID_MIN} to {BID_MAX} tricks, not {quote(tricks)}")
    return BID_BASE + tricks - BID_MIN


def is_bid(a: Action) -> bool:
    return BID_BASE <= a <= BID_BASE + BID_MAX - BID_MIN


def bid_tricks(a: Action) -> int:
    """The tricks a ``bid`` action promises."""
    return a - BID_BASE + BID_MIN


def swap(cards: tuple[int, int, int] | list[int]) -> Action:
    m = 0
    for c in cards:
        m |= 1 << c
    try:
        return SWAP_ID[m]
    except KeyError:
        raise NotationError(
            "a farmer's swap gives exactly three different low cards (7, 8, 9 or 10)"
        ) from None


def is_play(a: Action) -> bool:
    return 0 <= a <= 32


def is_discard(a: Action) -> bool:
    return DISCARD_BASE <= a <= DISCARD_BASE + 32


_WORDS: Final = {
    PASS: "pass",
    ORDER: "order",
    ORDER_ALONE: "order alone",
    DEFEND_ALONE: "defend alone",
    GO_ALONE: "alone",
    WITH_PARTNER: "partner",
    DECLINE: "decline",
    TAKE: "take",
    FARMER: "farmer",
    MISDEAL: "misdeal",
    CLAIM_RENEGE: "claim renege",
    FIX_RENEGE: "fix renege",
}
_ALIASES: Final = {
    "p": PASS,
    "order up": ORDER,
    "assist": ORDER,
    "pick up": ORDER,
    "pick it up": ORDER,
    "accept": ORDER,
    "order up alone": ORDER_ALONE,
    "assist alone": ORDER_ALONE,
    "pick up alone": ORDER_ALONE,
    "accept alone": ORDER_ALONE,
    "go alone": GO_ALONE,
    "with partner": WITH_PARTNER,
    "farmer's hand": FARMER,
    "farmers hand": FARMER,
    "redeal": FARMER,
    "renege": CLAIM_RENEGE,
    "claim": CLAIM_RENEGE,
    "take back": FIX_RENEGE,
    "fix": FIX_RENEGE,
    # the options as euchre.words offers them ("pick it up alone", "keep the hand"), each
    # read back as its action
    "pick it up alone": ORDER_ALONE,
    "play with partner": WITH_PARTNER,
    "take it": TAKE,
    "call a misdeal": MISDEAL,
    "claim a renege": CLAIM_RENEGE,
    "take back the renege": FIX_RENEGE,
    "keep the hand": PASS,
    "no claim": PASS,
    "let it stand": PASS,
}
_PARSE_WORDS: Final = {**{w: a for a, w in _WORDS.items()}, **_ALIASES}


def action_to_str(a: Action | object) -> str:
    """The canonical ASCII text of an action: what records store."""
    if isinstance(a, bool) or not isinstance(a, int):
        raise NotationError(f"an action is an integer id (0..{NUM_ACTIONS - 1}), not {quote(a)}")
    if 0 <= a <= 32:
        return "play " + card_str(a)
    if DISCARD_BASE <= a <= DISCARD_BASE + 32:
        return "discard " + card_str(a - DISCARD_BASE)
    if CALL_BASE <= a < CALL_BASE + 4:
        return "call " + suit_str(a - CALL_BASE)
    if is_bid(a):
        return f"bid {bid_tricks(a)}"
    if CALL_ALONE_BASE <= a < CALL_ALONE_BASE + 4:
        return "call " + suit_str(a - CALL_ALONE_BASE) + " alone"
    if SWAP_BASE <= a < NUM_ACTIONS:
        return "swap " + " ".join(card_str(c) for c in SWAP_SETS[a - SWAP_BASE])
    if a in _WORDS:
        return _WORDS[a]
    raise NotationError(f"{quote(a)} is not an action id (0..{NUM_ACTIONS - 1})")


def action_from_str(text: str | object) -> Action:
    """Parse an action's text (canonical or a documented alias); raises NotationError."""
    if not isinstance(text, str):
        raise NotationError(f"an action is written as text (e.g. 'JH', 'pass'), not {quote(text)}")
    t = " ".join(text.strip().lower().replace(",", " ").split())
    if not t:
        raise NotationError("empty action: type a card to play (e.g. JH) or a bid such as pass")
    if t in _PARSE_WORDS:
        return _PARSE_WORDS[t]
    words = t.split(" ")
    try:
        head = words[0]
        if head == "play" and len(words) == 2:
            return parse_card(words[1])
        if head == "discard" and len(words) == 2:
            return DISCARD_BASE + parse_card(words[1])
        if head in ("call", "name") and len(words) in (2, 3):
            alone = len(words) == 3
            if alone and words[2] != "alone":
                raise NotationError(f"{quote(text.strip())}: write 'call H' or 'call H alone'")
            return call(parse_suit(words[1]), alone)
        if head == "bid" and len(words) == 3 and words[2] == "tricks":
            words = words[:2]  # "bid 8 tricks", as the option reads
        if head == "bid" and len(words) == 2:
            if not (words[1].isascii() and words[1].isdigit() and len(words[1]) <= 2):
                raise NotationError(f"{quote(text.strip())}: a bid is a number of tricks, "
                                    f"{BID_MIN} to {BID_MAX} (e.g. 'bid 8')")
            return bid(int(words[1]))
        if head == "swap" and len(words) == 4:
            return swap([parse_card(w) for w in words[1:]])
        if len(words) == 1:
            return parse_card(words[0])
    except CardParseError as exc:
        raise NotationError(str(exc)) from None
    raise NotationError(
        f"{quote(text.strip())} is not an action; write a card (JH, 10D), 'pass', 'order', "
        "'order alone', 'call H', 'call H alone', 'bid 8', 'discard 9C', 'defend alone', 'take', "
        "'decline', 'farmer', 'misdeal', 'swap 9C TC 9D', 'fix renege' or 'claim renege'"
    )
