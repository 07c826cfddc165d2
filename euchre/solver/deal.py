"""A hand in card play built from chosen cards: each seat's hand, trump, maker and leader.

The engine deals a shuffled deck and reaches card play through bidding, so a position given
as "these hands, hearts trump, East made it alone, South leads" has to be turned into a deck
order and a bidding sequence that produce it. :func:`play_state` does that through the
engine's public API only (``HandState(rules, dealer, deck)`` and ``apply_action``), so the
result is an ordinary state that every rule applies to: the dealer is the seat before the
leader, the up-card is a card nobody holds, and the maker orders it up (when it is of the
trump suit: the dealer then takes it and discards it again, or, two-handed, declines it) or
names trump in round two (when it is not). Bad input raises :class:`DealError` with a message
that names the problem.
"""

from __future__ import annotations

from collections.abc import Sequence

from euchre import actions as A
from euchre.cards import JOKER, Card, card_str, deck_cards
from euchre.rules import Rules
from euchre.seats import Seat, partner
from euchre.state import BID1, BID2, DEALER_TAKE, DEFEND, DISCARD, PLAY, HandState, seat_name

__all__ = ["DealError", "play_state"]


class DealError(ValueError):
    """The cards, trump, maker or leader given cannot be a hand of these rules."""


def _check(rules: Rules, hands: Sequence[Sequence[int]], trump: int, maker: Seat, alone: bool,
           leader: Seat, lone_defender: Seat | None) -> None:
    n = rules.players
    if len(hands) != n:
        raise DealError(f"{n} players need {n} hands, not {len(hands)}")
    deck = set(deck_cards(rules.deck))
    seen: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        name = seat_name(seat, n)
        if len(hand) != 5:
            raise DealError(f"{name} holds {len(hand)} cards; every hand has 5")
        for c in hand:
            if c not in deck:
                raise DealError(f"{card_str(c)} ({name}) is not in the {rules.deck}-card deck")
            if c in seen:
                other = seat_name(seen[c], n)
                where = "twice" if seen[c] == seat else f"by {other} and {name}"
                raise DealError(f"{card_str(c)} is dealt {where}")
            seen[c] = seat
    if not 0 <= trump < 4:
        raise DealError(f"trump must be a suit 0..3 (C, D, H, S), not {trump}")
    for what, seat in (("maker", maker), ("leader", leader)):
        if not 0 <= seat < n:
            raise DealError(f"the {what} must be a seat 0..{n - 1}, not {seat}")
    if alone and not rules.going_alone:
        raise DealError("going alone is off in these rules (with 2 or 3 players the maker "
                        "already plays alone)")
    if alone and leader == partner(maker, n):
        raise DealError(f"{seat_name(leader, n)} sits out (partner of a lone maker) and cannot "
                        "lead")
    if lone_defender is not None:
        if not rules.defend_alone:
            raise DealError("defending alone is off in these rules (set defend_alone)")
        if not alone and not rules.defend_alone_vs_partners:
            raise DealError("a lone defender needs a lone maker in these rules")
        if not 0 <= lone_defender < n or lone_defender in (maker, partner(maker, n)):
            raise DealError(f"the lone defender must be a seat of the defending side, not "
                            f"{lone_defender}")
        if leader == partner(lone_defender, n):
            raise DealError(f"{seat_name(leader, n)} sits out (partner of the lone defender) "
                            "and cannot lead")


def play_state(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    trump: int,
    maker: Seat,
    leader: Seat,
    *,
    alone: bool = False,
    lone_defender: Seat | None = None,
) -> HandState:
    """A state at the first lead of card play with exactly these hands (seat order).

    ``trump`` is a suit 0..3; ``maker`` made it (``alone`` if going alone; ``lone_defender``
    the defender playing alone against it, under ``defend_alone`` rules); ``leader`` plays the
    first card. Raises :class:`DealError` when that is not a possible hand."""
    _check(rules, hands, trump, maker, alone, leader, lone_defender)
    n = rules.players
    held = {c for h in hands for c in h}
    spare = [c for c in deck_cards(rules.deck) if c not in held and c != JOKER]
    # Prefer an up-card of another suit: it is turned down and the maker names trump in round
    # two, with no pickup. Only when every spare card is of the trump suit does the maker order
    # it up in round one; the dealer (if playing) then takes it and buries it again at once.
    others = [c for c in spare if c >> 3 != trump]
    up = others[0] if others else spare[0]
    dealer = (leader - 1) % n
    kitty = [c for c in deck_cards(rules.deck) if c not in held and c != up]
    per_seat = [list(h) for h in hands]
    probe = HandState(rules, dealer, deck_cards(rules.deck))
    order: list[int] = []
    taken = [0] * n
    for seat in probe.deal_seats:
        order.append(per_seat[seat][taken[seat]])
        taken[seat] += 1
    state = HandState(rules, dealer, [*order, up, *kitty])
    _bid(state, trump, maker, alone, lone_defender, up)
    if state.phase != PLAY or state.trump != trump or state.maker != maker:
        raise DealError("these rules do not let that bid be made")  # pragma: no cover
    return state


def _bid(state: HandState, trump: int, maker: Seat, alone: bool, lone_defender: Seat | None,
         up: Card) -> None:
    """Everyone passes until ``maker`` orders up (round one, an up-card of the trump suit) or
    names ``trump`` (round two), then the dealer keeps the hand as dealt."""
    round_one = up >> 3 == trump
    with_bid = alone and state.rules.alone_timing == "with_bid"
    guard = 0
    while state.phase != PLAY:
        guard += 1
        if guard > 64:  # pragma: no cover - a bidding sequence is far shorter
            raise DealError("could not reach card play with that bid")
        legal = state.legal_actions()
        seat = state.cur
        phase = state.phase
        if phase == BID1:
            if round_one and seat == maker:
                want = A.ORDER_ALONE if with_bid else A.ORDER
                if want not in legal:
                    raise DealError(f"{seat_name(seat, state.n)} may not order up "
                                    f"{'alone ' if alone else ''}under these rules")
                state.apply_action(want)
            else:
                state.apply_action(A.PASS)
        elif phase == BID2:
            if seat == maker:
                want = (A.CALL_ALONE_BASE if with_bid else A.CALL_BASE) + trump
                if want not in legal:
                    raise DealError(f"{seat_name(seat, state.n)} may not name that trump "
                                    "under these rules")
                state.apply_action(want)
            else:
                if A.PASS not in legal:
                    raise DealError("stick the dealer forces the dealer to name trump before "
                                    "the maker can")
                state.apply_action(A.PASS)
        elif phase == DEALER_TAKE:
            state.apply_action(A.DECLINE)
        elif phase == DISCARD:
            if A.DISCARD_BASE + up not in legal:
                raise DealError("every spare card is a trump and these rules do not let the "
                                "dealer bury the up-card: give the dealer's hand another way")
            state.apply_action(A.DISCARD_BASE + up)
        elif phase == DEFEND:
            state.apply_action(A.DEFEND_ALONE if seat == lone_defender else A.PASS)
        elif A.GO_ALONE in legal:  # the maker's alone decision after the discard
            state.apply_action(A.GO_ALONE if alone else A.WITH_PARTNER)
        else:  # pragma: no cover - no other phase comes before card play
            raise DealError(f"unexpected phase {state.phase_name} before card play")
