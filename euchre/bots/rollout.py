"""A fast, honest play policy for rollouts: how the search player imagines a hand going on.

The search player values a bid by playing the hand out over many sampled deals. Those rollouts
must be played by an *imperfect-information* policy: a double-dummy solver sees every card, so
every contract looks makeable to it (strategy fusion) and bidding from it orders up far too
much. This module is that policy, written straight on :class:`~euchre.state.HandState` for
speed (a rollout is a few hundred microseconds, where building a ``SeatView`` per decision would
cost ten times more), but *honest*: every decision of a seat reads only what that seat could
know at the table: its own hand (``state.hands[seat]``), the up-card and where it went, the
public bids and the cards played, and its own discard or swap. Nothing else of the state is
read, so the policy never peeks at a sampled opponent's cards.

The habits are the rule-based player's (counted tricks for bidding; draw trumps as maker, cash
bosses, play low under a partner who is winning, trump in, throw off short), with one of its
known leaks fixed: behind a partner's beatable card it wins with a sure winner instead of
playing low. :func:`bid_probabilities` turns the same bidding counts into soft probabilities,
which the search player uses to weight sampled deals by how likely the bidding made them.
"""

from __future__ import annotations

import math
from typing import Final

from euchre import actions as A
from euchre.bots import rule_based
from euchre.bots.rule_based import FULL_ACES, card_value
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    NUM_CARD_IDS,
    POWER,
    STRENGTH,
    SUIT_MASK,
    SUITS,
    Card,
    cards_of,
    deck_mask,
)
from euchre.phases import (
    ALONE,
    AUCTION,
    BID1,
    BID2,
    CLAIM,
    DEALER_TAKE,
    DECLARE,
    DEFEND,
    DISCARD,
    OVER,
    PLAY,
    TRUMP,
    UP_TAKEN,
)
from euchre.seats import Seat
from euchre.state import HandState

#: Expected tricks needed to make trump, by number of players.
CALL_THRESHOLD: Final = {4: 2.2, 3: 2.9, 2: 2.4}
ALONE_THRESHOLD: Final = 4.0
#: Two-handed with rows: the eight visible cards are two thirds of the twelve played.
ROWS_SCALE: Final = 1.5
DEFEND_ALONE_THRESHOLD: Final = 3.0
DEFEND_ALONE_VS_PAIR_THRESHOLD: Final = 3.6
#: Softness (in counted tricks) of the bidding model used to weight deals.
BID_TEMPERATURE: Final = 0.5
#: No observed bid makes a deal less likely than this (other players are not this model).
BID_FLOOR: Final = 0.05

def _higher_masks() -> tuple[tuple[int, ...], ...]:
    """HIGHER[trump][card]: cards of the same effective suit that rank above it."""
    out = []
    for t in range(4):
        row = []
        for c in range(NUM_CARD_IDS):
            s = EFFECTIVE_SUIT[t][c]
            row.append(sum(1 << o for o in range(NUM_CARD_IDS)
                           if EFFECTIVE_SUIT[t][o] == s and POWER[t][o] > POWER[t][c]))
        out.append(tuple(row))
    return tuple(out)


def _beats_masks() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """BEATS[trump][led][card]: cards that would beat it in a trick led in ``led``."""
    return tuple(
        tuple(
            tuple(sum(1 << o for o in range(NUM_CARD_IDS) if st[o] > st[c])
                  for c in range(NUM_CARD_IDS))
            for st in STRENGTH[t]
        )
        for t in range(4)
    )


HIGHER: Final = _higher_masks()
BEATS: Final = _beats_masks()
_DECK_MASK: Final = {size: deck_mask(size) for size in (24, 25, 32)}


def estimate(hand: int, trump: int, deck: int = 24) -> float:
    """Expected tricks of a hand (a mask) with ``trump``: the rule-based player's count
    (:func:`euchre.bots.rule_based.estimate`) with every side ace counted fully, as the first
    rule bot counted."""
    return rule_based.estimate(cards_of(hand), trump, deck, FULL_ACES)


def best_discard(hand: int, trump: int, deck: int, keep: int = -1) -> tuple[float, int]:
    """(count of the best five, the card to bury) for a six-card hand; ``keep`` may not go."""
    return rule_based.best_discard(cards_of(hand), trump, deck, keep, FULL_ACES)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


# ---------------------------------------------------------------------------------------------
# Bidding counts (shared by the policy and the bidding model)


def bid1_counts(st: HandState, seat: Seat) -> tuple[float, float]:
    """(count for ordering up, count for ordering alone) of ``seat`` in round one."""
    r = st.rules
    hand = st.hands[seat]
    up = st.upcard
    t = up >> 3
    if seat == st.dealer:
        keep = -1 if r.dealer_may_discard_upcard else up
        est, _ = best_discard(hand | 1 << up, t, r.deck, keep)
        return est, est
    base = estimate(hand, t, r.deck)
    value = card_value(up, t)
    if st.n == 4 and st.dealer == st.partner(seat):
        return base + 0.6 * value, base
    est = base - 0.5 * value
    return est, est


def _joker_call(st: HandState, seat: Seat) -> tuple[int, float]:
    best_suit, best_est = 0, -1.0
    for s in SUITS:
        e, _ = best_discard(st.hands[seat] | 1 << JOKER, s, st.rules.deck)
        if e > best_est:
            best_suit, best_est = s, e
    return best_suit, best_est


def bid2_counts(st: HandState, seat: Seat, legal: list[int]) -> list[tuple[float, int]]:
    """(count, suit) of every suit ``seat`` may name in round two, best first."""
    hand = st.hands[seat]
    deck = st.rules.deck
    return sorted(((estimate(hand, s, deck), s) for s in SUITS if A.call(s) in legal),
                  reverse=True)


def bid_probabilities(st: HandState, seat: Seat, action: int) -> float:
    """How likely a sound player holding ``seat``'s hand in ``st`` makes ``action`` (a bid in
    round one or two), in a soft version of this module's bidding counts.

    Used to weight sampled deals: a deal in which an opponent who ordered up holds no trump is
    far less likely than one in which they hold three. Floored at ``BID_FLOOR``, because other
    players do not bid exactly like this model."""
    legal = st.legal_actions()
    tau = BID_TEMPERATURE
    thr = CALL_THRESHOLD[st.n]
    p = 1.0
    if st.phase == BID1:
        if st.upcard == JOKER:
            return 1.0
        est, alone_est = bid1_counts(st, seat)
        p_alone = _sigmoid((alone_est - ALONE_THRESHOLD) / tau) if A.ORDER_ALONE in legal else 0.0
        p_order = (1 - p_alone) * _sigmoid((est - thr) / tau) if A.ORDER in legal else 0.0
        if action == A.ORDER_ALONE:
            p = p_alone
        elif action == A.ORDER:
            p = p_order
        else:
            p = 1.0 - p_alone - p_order
    elif st.phase == BID2:
        counts = bid2_counts(st, seat, legal)
        best = counts[0][0]
        p_call = _sigmoid((best - thr) / tau) if A.PASS in legal else 1.0
        if action == A.PASS:
            p = 1.0 - p_call
        else:
            alone = action >= A.CALL_ALONE_BASE
            suit = action - (A.CALL_ALONE_BASE if alone else A.CALL_BASE)
            z = sum(math.exp((e - best) / 0.3) for e, _ in counts)
            e_s = next(e for e, s in counts if s == suit)
            p = p_call * math.exp((e_s - best) / 0.3) / z
            if A.call(suit, True) in legal:
                p_al = _sigmoid((e_s - ALONE_THRESHOLD) / tau)
                p *= p_al if alone else 1.0 - p_al
    return max(BID_FLOOR, p)


# ---------------------------------------------------------------------------------------------
# The policy


def policy_action(st: HandState) -> int:
    """The action the player to move takes, from what that player can see."""
    p = st.phase
    if p == PLAY:
        return play_card(st)
    seat = st.cur
    legal = st.legal_actions()
    r = st.rules
    deck = r.deck
    if p == BID1:
        if st.upcard == JOKER:
            suit, est = _joker_call(st, seat)
            alone = A.call(suit, True)
            return alone if alone in legal and est >= ALONE_THRESHOLD else A.call(suit)
        est, alone_est = bid1_counts(st, seat)
        if A.ORDER_ALONE in legal and alone_est >= ALONE_THRESHOLD:
            return A.ORDER_ALONE
        if A.ORDER in legal and est >= CALL_THRESHOLD[st.n]:
            return A.ORDER
        return A.PASS if A.PASS in legal else legal[0]
    if p == BID2:
        est, s = bid2_counts(st, seat, legal)[0]
        if A.call(s, True) in legal and est >= ALONE_THRESHOLD:
            return A.call(s, True)
        if est >= CALL_THRESHOLD[st.n] or A.PASS not in legal:
            return A.call(s)
        return A.PASS
    if p == DISCARD:
        allowed = [a - A.DISCARD_BASE for a in legal]
        keep = -1 if st.upcard in allowed else st.upcard
        _, c = best_discard(st.hands[seat], st.trump, deck, keep)
        return A.discard(c) if c in allowed else legal[0]
    if p in (AUCTION, TRUMP):
        # Two-handed with rows: the rule bot's bidding (bid 7, free if missed; outbid only
        # with the tricks for it), trump the best suit of the cards this seat can see.
        est, s = max((estimate(st.hands[seat], s, deck), s) for s in SUITS)
        if p == TRUMP:
            return A.call(s)
        standing = st.contract
        k = A.BID_MIN if not standing else standing + 1
        free = k == A.BID_MIN and not st.rules.rows_euchre  # a missed 7 costs nothing
        if k <= A.BID_MAX and A.bid(k) in legal and (free or est * ROWS_SCALE >= k):
            return A.bid(k)
        return A.PASS if A.PASS in legal else legal[0]
    if p == DEALER_TAKE:
        without = estimate(st.hands[seat], st.trump, deck)
        with_up, _ = best_discard(st.hands[seat] | 1 << st.upcard, st.trump, deck)
        return A.TAKE if with_up >= without else A.DECLINE
    if p == ALONE:
        est = estimate(st.hands[seat], st.trump, deck)
        return A.GO_ALONE if est >= ALONE_THRESHOLD else A.WITH_PARTNER
    if p == DEFEND:
        est = estimate(st.hands[seat], st.trump, deck)
        need = DEFEND_ALONE_THRESHOLD if st.alone else DEFEND_ALONE_VS_PAIR_THRESHOLD
        return A.DEFEND_ALONE if est >= need else A.PASS
    if p == CLAIM:
        # After the last trick every card is public, so the reneges are known to all.
        mine = st.is_maker_side(seat)
        if any(st.is_maker_side(s) != mine for s, _, _ in st.reneges):
            return A.CLAIM_RENEGE
        return A.PASS
    if p == DECLARE:
        if A.FARMER in legal:
            return A.FARMER
        if A.MISDEAL in legal:
            return A.MISDEAL
        swaps = [a for a in legal if a >= A.SWAP_BASE]
        if swaps:
            return min(swaps, key=lambda a: swap_cost(a, st.upcard))
        return A.PASS
    return legal[0]  # pragma: no cover - every phase with a decision is handled above


def swap_cost(a: int, upcard: Card) -> tuple[int, int]:
    """Which low cards a farmer's swap should give away first: not the up-card's suit, then
    the lowest."""
    up_suit = upcard >> 3 if upcard != JOKER else -1
    cards = A.SWAP_SETS[a - A.SWAP_BASE]
    return (sum(1 for c in cards if c >> 3 == up_suit), sum(c & 7 for c in cards))


def _allies(st: HandState, me: int) -> tuple[int, ...]:
    if st.n == 4:
        return (me, st.partner(me))
    if st.n == 3 and st.maker >= 0 and st.maker != me:
        return tuple(s for s in range(3) if s != st.maker)
    return (me,)


def play_card(st: HandState) -> int:
    """A card for the player to move, from its own hand and the public cards only."""
    me = st.cur
    t = st.trump
    hand = st.hands[me]
    seen = hand
    for _, cards, _ in st.tricks:
        for _, c in cards:
            seen |= 1 << c
    for _, c in st.trick:
        seen |= 1 << c
    if me == st.dealer and st.discarded >= 0:
        seen |= 1 << st.discarded
    if me == st.swapper:
        for c in st.swap_given:
            seen |= 1 << c
    if st.up_status != UP_TAKEN and st.upcard >= 0:  # rows has no up-card
        seen |= 1 << st.upcard
    out = _DECK_MASK[st.rules.deck] & ~seen
    legal = st.lawful_cards()  # the policy never reneges
    if len(legal) == 1:
        return legal[0]
    eff = EFFECTIVE_SUIT[t]
    pw = POWER[t]
    allies = _allies(st, me)
    if not st.trick:
        return _lead(st, legal, out, allies)
    trick = st.trick
    led = st.led
    beats = BEATS[t][led]
    strength = STRENGTH[t][led]
    win_seat, win_card = trick[0]
    for seat, c in trick[1:]:
        if strength[c] > strength[win_card]:
            win_seat, win_card = seat, c
    remaining = len(st.active) - len(trick) - 1
    following = eff[legal[0]] == led
    beat = sorted((c for c in legal if strength[c] > strength[win_card]), key=lambda c: pw[c])
    sure = [c for c in beat if not out & beats[c]]
    if win_seat in allies:
        if remaining and out & beats[win_card] and sure:
            return sure[0]  # the partner's card can be beaten: take it with a sure winner
        return min(legal, key=lambda c: pw[c]) if following else _throw_off(legal, out, t, hand)
    if beat:
        if not following or remaining == 0:
            return beat[0]
        if sure:
            return sure[0]
        return beat[-1]
    if following:
        return min(legal, key=lambda c: pw[c])
    return _throw_off(legal, out, t, hand)


def _suit_len(hand: int, c: int, t: int) -> int:
    return (hand & SUIT_MASK[t][EFFECTIVE_SUIT[t][c]]).bit_count()


def _throw_off(cands: list[int], out: int, t: int, hand: int) -> int:
    eff = EFFECTIVE_SUIT[t]
    pw = POWER[t]
    higher = HIGHER[t]
    offs = [c for c in cands if eff[c] != t] or cands
    return min(offs, key=lambda c: (not out & higher[c] and eff[c] != t, pw[c] >= 100,
                                    _suit_len(hand, c, t), pw[c]))


def _lead(st: HandState, legal: list[int], out: int, allies: tuple[int, ...]) -> int:
    t = st.trump
    eff = EFFECTIVE_SUIT[t]
    pw = POWER[t]
    higher = HIGHER[t]
    hand = st.hands[st.cur]
    trumps = sorted((c for c in legal if eff[c] == t), key=lambda c: -pw[c])
    offs = [c for c in legal if eff[c] != t]
    out_trumps = out & SUIT_MASK[t][t]
    maker_side = st.maker in allies
    if maker_side and trumps and out_trumps:
        top = trumps[0]
        if not out & higher[top]:
            return top
        if st.cur == st.maker and len(trumps) >= 2:
            return trumps[-1]
        if st.cur != st.maker and not any(not out & higher[c] for c in offs):
            return top
    bosses = sorted((c for c in offs if not out & higher[c]),
                    key=lambda c: (_suit_len(hand, c, t), -pw[c]))
    if bosses:
        return bosses[0]
    if offs:
        return min(offs, key=lambda c: (_suit_len(hand, c, t), pw[c]))
    return trumps[0] if not out & higher[trumps[0]] else trumps[-1]


def play_out(st: HandState) -> None:
    """Play ``st`` to its end with every seat on this policy."""
    while st.phase != OVER:
        st.apply_action(policy_action(st))


def play_until_cards(st: HandState) -> None:
    """Apply the policy until the card play starts (or the hand ends first)."""
    while st.phase != PLAY and st.phase != OVER:
        st.apply_action(policy_action(st))


def play_tricks(st: HandState, tricks: int) -> None:
    """Apply the policy until ``tricks`` tricks are complete with no trick under way (or the
    hand ends first): the honest part of a truncated rollout."""
    while st.phase != OVER and not (st.phase == PLAY and len(st.tricks) >= tricks
                                    and not st.trick):
        st.apply_action(policy_action(st))


__all__ = [
    "BID_FLOOR",
    "best_discard",
    "bid_probabilities",
    "estimate",
    "play_card",
    "play_out",
    "play_tricks",
    "play_until_cards",
    "policy_action",
]


def bidding_likelihood(world: HandState, me: int) -> float:
    """How likely the other players' bids are in ``world`` for sound bidders: the product of
    :func:`bid_probabilities` over every bid but ``me``'s (an opponent who passed round one
    rarely holds three trumps and a bower). The search player weights its sampled deals by it,
    and the analysis tools weight theirs the same way so that their numbers agree."""
    st = HandState(world.rules, world.dealer, world.deck)
    weight = 1.0
    for seat, a in world.history:
        if st.phase not in (DECLARE, BID1, BID2):
            break
        if seat != me and st.phase in (BID1, BID2):
            weight *= bid_probabilities(st, seat, a)
        st.apply_action(a)
    return weight
