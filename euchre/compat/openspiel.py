"""Translate between OpenSpiel 2.0.2's ``euchre`` game and our ``openspiel`` rules profile.

OpenSpiel numbers cards ``rank * 4 + suit`` (ranks 9..A, suits C D H S) and reuses a few action
ids across phases (24 Pass, 25..28 a suit, 29 Alone, 30 Partner), so a translation needs the
phase it happens in; ours are unique per meaning. Its deal is chance actions (the dealer, 20
cards one at a time from the dealer round, then the up-card); we deal a deck order in packets,
so :func:`deck_for_deal` builds the order that gives every seat the same hand and up-card.

``pyspiel`` is imported only inside :func:`load_game`: the conversions work without it.
"""

from __future__ import annotations

from typing import Any

from euchre import actions as A
from euchre.cards import NINE, SUITS, Card, card, deck_cards
from euchre.rules import Rules, preset
from euchre.seats import Seat, deal_order
from euchre.state import ALONE, BID1, BID2, DEFEND, DISCARD, PLAY, HandState

OS_NUM_CARDS = 24
OS_PASS = 24
OS_SUIT_BASE = 25  # Clubs, Diamonds, Hearts, Spades: the same suit order as ours
OS_ALONE = 29
OS_PARTNER = 30


def card_from_os(c: int) -> int:
    """Our card id of OpenSpiel card ``c`` (``rank * 4 + suit``, ranks 9..A)."""
    if not 0 <= c < OS_NUM_CARDS:
        raise ValueError(f"OpenSpiel euchre cards are 0..23, not {c!r}")
    return card(c % 4, NINE + c // 4)


def card_to_os(c: int) -> int:
    """OpenSpiel's id of our card ``c`` (9..A of a plain suit only)."""
    suit, rank = divmod(c, 8)
    if not (suit in SUITS and rank >= NINE):
        raise ValueError(f"card {c!r} is not in OpenSpiel's 24-card deck")
    return (rank - NINE) * 4 + suit


def rules_for(allow_lone_defender: bool = False, stick_the_dealer: bool = True) -> Rules:
    """Our rules equal to OpenSpiel's game parameters (its defaults are the defaults here)."""
    r = preset("openspiel")
    if allow_lone_defender:
        r = r.replace(defend_alone=True, defend_alone_vs_partners=True)
    if not stick_the_dealer:
        r = r.replace(stick_the_dealer=False)
    return r


def deck_for_deal(dealer: Seat, hands: list[list[int]], upcard: Card,
                  rest: list[int] | None = None) -> list[int]:
    """A deck order (our card ids) whose packet deal gives seat ``s`` exactly ``hands[s]``,
    turns ``upcard`` up, and leaves ``rest`` (default: the other cards in id order) face down."""
    queues = [sorted(h) for h in hands]
    if any(len(q) != 5 for q in queues):
        raise ValueError("each of the four hands must hold five cards")
    top = [queues[seat].pop(0) for seat in deal_order(4, dealer)]
    used = {*top, upcard}
    if rest is None:
        rest = [c for c in deck_cards(24) if c not in used]
    deck = [*top, upcard, *rest]
    if sorted(deck) != list(deck_cards(24)):
        raise ValueError("hands, up-card and rest must hold the 24 cards once each")
    return deck


def deal_from_os_history(history: list[int]) -> tuple[int, list[list[int]], int]:
    """(dealer, hands, up-card) in our ids from the first 22 chance actions of an OpenSpiel
    euchre history: the dealer seat, then card k of 20 to seat ``(dealer + k) % 4``, then the
    up-card."""
    if len(history) < 22:
        raise ValueError("an OpenSpiel euchre deal is 22 chance actions")
    dealer = history[0]
    hands: list[list[int]] = [[], [], [], []]
    for k, c in enumerate(history[1:21]):
        hands[(dealer + k) % 4].append(card_from_os(c))
    return dealer, hands, card_from_os(history[21])


def to_os_action(state: HandState, a: int) -> int:
    """OpenSpiel's id of our action ``a`` in ``state``'s current phase."""
    p = state.phase
    if p == PLAY:
        return card_to_os(a)
    if p == DISCARD:
        return card_to_os(a - A.DISCARD_BASE)
    if p in (BID1, BID2):
        if a == A.PASS:
            return OS_PASS
        if p == BID1 and a == A.ORDER:
            # Round one offers only the up-card's suit; the dealer naming it picks it up.
            return OS_SUIT_BASE + (state.upcard >> 3)
        if p == BID2 and A.CALL_BASE <= a < A.CALL_BASE + 4:
            return OS_SUIT_BASE + a - A.CALL_BASE
    if p == ALONE and a in (A.GO_ALONE, A.WITH_PARTNER):
        return OS_ALONE if a == A.GO_ALONE else OS_PARTNER
    if p == DEFEND and a in (A.DEFEND_ALONE, A.PASS):
        return OS_ALONE if a == A.DEFEND_ALONE else OS_PARTNER
    raise ValueError(f"action {A.action_to_str(a)!r} has no OpenSpiel id in phase "
                     f"{state.phase_name}")


def from_os_action(state: HandState, a: int) -> int:
    """Our id of OpenSpiel action ``a`` in ``state``'s current phase."""
    p = state.phase
    if p == PLAY and 0 <= a < OS_NUM_CARDS:
        return card_from_os(a)
    if p == DISCARD and 0 <= a < OS_NUM_CARDS:
        return A.DISCARD_BASE + card_from_os(a)
    if p in (BID1, BID2):
        if a == OS_PASS:
            return A.PASS
        if p == BID1 and a == OS_SUIT_BASE + (state.upcard >> 3):
            return A.ORDER
        if p == BID2 and OS_SUIT_BASE <= a < OS_SUIT_BASE + 4:
            return A.CALL_BASE + a - OS_SUIT_BASE
    if p == ALONE and a in (OS_ALONE, OS_PARTNER):
        return A.GO_ALONE if a == OS_ALONE else A.WITH_PARTNER
    if p == DEFEND and a in (OS_ALONE, OS_PARTNER):
        return A.DEFEND_ALONE if a == OS_ALONE else A.PASS
    raise ValueError(f"OpenSpiel action {a!r} has no meaning here in phase {state.phase_name}")


def load_game(allow_lone_defender: bool = False, stick_the_dealer: bool = True) -> Any:
    """OpenSpiel's euchre with these parameters (needs the ``open-spiel`` package)."""
    import pyspiel

    return pyspiel.load_game(
        "euchre",
        {"allow_lone_defender": allow_lone_defender, "stick_the_dealer": stick_the_dealer},
    )
