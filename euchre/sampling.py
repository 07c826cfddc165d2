"""Full deals consistent with what one seat knows: the worlds a search bot plays forward.

Bots and user interfaces only ever receive a :class:`~euchre.view.SeatView`. A search bot that
wants to look ahead needs whole :class:`~euchre.state.HandState` objects, so this module turns a
view back into complete states whose hidden cards are filled in, each one a state whose
``view(seat)`` is exactly the given view.

How: the cards the seat cannot place (the *unknown* cards) go to the *hidden locations* (each other
seat's hand as it is now, the face-down kitty, another dealer's buried discard, the three low cards
another player gave in a farmer's swap), each of a size the view tells. What play has shown becomes
per-card constraints: a player who did not follow a suit holds none of it (unless reneging is
allowed, and then only once a renege claim has failed), a card another dealer picked up is in that
dealer's hand or is the discard, a swap gives low cards only, a farmer's hand or a misdeal call
shows the whole hand was low. Cards with the same set of allowed locations are interchangeable, so
the number of completions is a small memoised count over the locations' remaining sizes; each
group of cards then picks how many go where in proportion to the completions left, which makes
every consistent assignment exactly equally likely.

An assignment is turned into a deal by undoing the hand (played cards back to their players,
pickups, discards and swaps undone), dealt into a deck order in the real packet order, and
replayed: hidden acts get the sampled cards, and the declarations a seat declined silently (which
the view rightly does not show) are declined again for whichever seats are asked in the sampled
deal. The replayed state's view is compared with the given one; the few constraints that are not
per-card (a player now being asked about a farmer's swap needs three low cards) are met by drawing
again, which keeps the draw exactly uniform.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate

from euchre import actions as A
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    NO_TRUMP,
    SUIT_MASK,
    SUIT_PLAIN_MASK,
    Card,
    card_str,
    cards_of,
    deck_cards,
    mask_of,
)
from euchre.errors import IllegalActionError
from euchre.phases import Phase
from euchre.seats import Seat, deal_order
from euchre.state import (
    DECLARE,
    HIGH_MASK,
    LOW_MASK,
    UP_TAKEN,
    UPCARD_STATUS_NAMES,
    HandState,
    rows_layout,
)
from euchre.view import FACE_DOWN, HIDDEN_DISCARD, HIDDEN_SWAP, SeatView

__all__ = ["DealSampler", "sample_hand_states"]

MAX_TRIES = 5000
"""Draws that may fail the replay check in a row before the view is declared inconsistent."""

_FACT = [1]
for _i in range(1, 40):
    _FACT.append(_FACT[-1] * _i)

# Location kinds (_DOWN: a seat's face-down row cards, two-handed with rows)
_HAND, _KITTY, _SWAP, _DISCARD, _DOWN = range(5)


def _is_declaration(a: int) -> bool:
    """A declaration other players see (a declined one, PASS, is never shown)."""
    return a in (A.FARMER, A.MISDEAL, HIDDEN_SWAP) or a >= A.SWAP_BASE


def _multinomial(k: int, parts: tuple[int, ...]) -> int:
    out = _FACT[k]
    for x in parts:
        out //= _FACT[x]
    return out


def _distributions(
    k: int, caps: tuple[int, ...], allowed: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """Every way of splitting ``k`` cards over the ``allowed`` locations within ``caps``."""
    out: list[tuple[int, ...]] = []
    size = len(caps)

    def rec(i: int, left: int, cur: list[int]) -> None:
        if i == len(allowed):
            if left == 0:
                out.append(tuple(cur))
            return
        loc = allowed[i]
        rest_cap = sum(caps[j] for j in allowed[i + 1 :])
        for x in range(max(0, left - rest_cap), min(left, caps[loc]) + 1):
            cur[loc] = x
            rec(i + 1, left - x, cur)
        cur[loc] = 0

    rec(0, k, [0] * size)
    return out


def _keep_taken_back(hist: tuple[tuple[int, int], ...], played_all: int, seat: Seat,
                     locs: list[tuple[int, int, int]], allowed: list[int]) -> None:
    """A card played and then taken back (a renege fixed in time, or a card played after it)
    was seen by everyone: it is in the hand of the player who played it, nowhere else."""
    for w, a in hist:
        if w == seat or not A.is_play(a) or played_all >> a & 1:
            continue
        for i, (kind, s, _) in enumerate(locs):
            if not (kind == _HAND and s == w):
                allowed[i] &= ~(1 << a)


class DealSampler:
    """Uniform sampler of full hand states consistent with one :class:`SeatView`.

    Building one analyses the view once (and raises ``ValueError`` when no deal can produce it);
    :meth:`sample` then costs a replay of the hand. ``count`` is the number of assignments of the
    unknown cards to the hidden locations that meet the per-card constraints; it is the exact
    number of consistent worlds when ``exact`` is true (the usual case), an upper bound otherwise.
    """

    def __init__(self, view: SeatView) -> None:
        self.view = view
        r = view.rules
        n = r.players
        seat = view.seat
        self.n = n
        if not 0 <= seat < n or len(view.hand_sizes) != n:
            raise ValueError(f"the view's seat {seat} or hand sizes do not fit {n} players")
        self.exact = True
        self.rejections = 0
        if view.variant.row_columns:  # cards lie in rows on the table too
            self._init_rows()
            return
        trump = view.trump
        eff = EFFECTIVE_SUIT[trump] if trump != NO_TRUMP else EFFECTIVE_SUIT[NO_TRUMP]
        all_mask = mask_of(deck_cards(r.deck))
        tricks = [cards for _, cards, _ in view.tricks]
        if view.current_trick:
            tricks.append(view.current_trick)
        known = self._known_cards(tricks, all_mask)
        known = self._place_upcard(known)
        hidden_discard = self._check_hidden_acts()
        unknown = all_mask & ~known
        locs = self._hidden_places(unknown, hidden_discard)
        forbidden = self._forbidden(tricks, eff, all_mask)
        allowed = self._allowed(locs, unknown, forbidden)
        _keep_taken_back(view.history, self.played_all, seat, locs, allowed)
        self._setup_counts(unknown, locs, allowed)

    def _known_cards(self, tricks: list[tuple[tuple[int, int], ...]], all_mask: int) -> int:
        """The cards whose place the seat knows (its hand, the cards played, its own discard and
        swap), checked against each other; sets ``played_by``, ``played_all``, ``own`` and
        ``own_discard``."""
        view = self.view
        n = self.n
        played_by = [0] * n
        played_all = 0
        for cards in tricks:
            for w, c in cards:
                bit = 1 << c
                if played_all & bit or not all_mask & bit or not 0 <= w < n:
                    raise ValueError(f"card {card_str(c)} is played twice or is not in the deck")
                played_all |= bit
                played_by[w] |= bit
        own = mask_of(view.hand)
        if own & played_all or own & ~all_mask:
            raise ValueError("the seat's hand holds a played card or a card not in the deck")
        known = own | played_all
        own_discard = view.discard
        if own_discard >= 0:
            if known & (1 << own_discard) and not own_discard == view.upcard:
                raise ValueError(f"the seat's discard {card_str(own_discard)} is also elsewhere")
            known |= 1 << own_discard
        own_swap = mask_of(view.swapped_out)
        if own_swap & known or own_swap & ~LOW_MASK:
            raise ValueError("the seat's swapped-out cards must be low cards found nowhere else")
        self.played_by = played_by
        self.played_all = played_all
        self.own = own
        self.own_discard = own_discard
        return known | own_swap

    def _place_upcard(self, known: int) -> int:
        """Where the up-card is: face up (known), in the seat's own hand, played, or hidden in
        another dealer's hand or discard (``up_hidden``); sets ``taken`` and ``up_hidden``."""
        view = self.view
        seat = view.seat
        up = view.upcard
        upbit = 1 << up
        dealer = view.dealer
        taken = view.upcard_status == UPCARD_STATUS_NAMES[UP_TAKEN]
        self.taken = taken
        self.up_hidden = False
        own_discard = self.own_discard
        if not taken:
            if known & upbit:
                raise ValueError(f"the up-card {card_str(up)} is face up and also elsewhere")
            known |= upbit
        elif dealer == seat:
            discard = 1 << own_discard if own_discard >= 0 else 0
            if not (self.own | self.played_by[seat] | discard) & upbit:
                raise ValueError("the seat took the up-card but does not have it")
        elif self.played_all & upbit:
            if not self.played_by[dealer] & upbit:
                raise ValueError("the up-card the dealer took was played by someone else")
        else:
            self.up_hidden = True
        return known

    def _check_hidden_acts(self) -> bool:
        """Check the other players' hidden discard and swap against the view; whether the
        dealer's discard is hidden from the seat."""
        view = self.view
        seat = view.seat
        hist = view.history
        hidden_discard = any(a == HIDDEN_DISCARD for _, a in hist)
        hidden_swapper = next((w for w, a in hist if a == HIDDEN_SWAP), -1)
        if hidden_discard and (view.dealer == seat or not self.taken):
            raise ValueError("a hidden discard by a seat that did not take the up-card")
        if hidden_swapper >= 0 and (hidden_swapper == seat or hidden_swapper != view.swapper):
            raise ValueError("a hidden farmer's swap that does not match the view's swapper")
        if view.swapper == seat and len(view.swapped_out) != 3:
            raise ValueError("the seat swapped but its view holds no three swapped-out cards")
        return hidden_discard

    def _hidden_places(self, unknown: int, hidden_discard: bool) -> list[tuple[int, int, int]]:
        """The hidden locations as (kind, seat, capacity), checked to hold exactly the unknown
        cards and to give every seat a deal of five."""
        view = self.view
        r = view.rules
        n = self.n
        seat = view.seat
        dealer = view.dealer
        locs: list[tuple[int, int, int]] = []
        for s in range(n):
            if s != seat:
                locs.append((_HAND, s, view.hand_sizes[s]))
        kitty_len = r.deck - 5 * n - 1
        locs.append((_KITTY, -1, kitty_len - (3 if view.swapper >= 0 else 0)))
        if view.swapper >= 0 and view.swapper != seat:
            locs.append((_SWAP, view.swapper, 3))
        if hidden_discard:
            locs.append((_DISCARD, dealer, 1))
        room = sum(cap for _, _, cap in locs)
        if any(cap < 0 for _, _, cap in locs) or room != unknown.bit_count():
            raise ValueError(
                f"the view's hand sizes leave room for {room} hidden cards "
                f"but {unknown.bit_count()} cards are unaccounted for"
            )
        self.locs = locs
        discarded = self.own_discard >= 0 or hidden_discard
        for s in range(n):
            dealt = view.hand_sizes[s] + self.played_by[s].bit_count()
            if s == dealer and self.taken:
                dealt += (1 if discarded else 0) - 1
            if dealt != 5:
                raise ValueError(f"no deal is consistent with this view: its hand sizes, plays "
                                 f"and discards give seat {s} a deal of {dealt} cards")
        return locs

    def _forbidden(self, tricks: list[tuple[tuple[int, int], ...]], eff: tuple[int, ...],
                   all_mask: int) -> list[int]:
        """Per seat, the cards its hand as it is now cannot hold: shown voids, and what a
        farmer's hand or a misdeal declared."""
        view = self.view
        r = view.rules
        n = self.n
        seat = view.seat
        trump = view.trump
        up = view.upcard
        forbidden = [0] * n
        fails = self._failures(tricks, eff, trump)
        if trump != NO_TRUMP and r.renege == "prevent":
            # Reneging is refused: every failure to follow shows a void.
            self._check_no_proven_renege(fails, set(range(n)), eff)
            self._add_voids(fails, set(range(n)), forbidden, trump)
        # Under "penalize" not following proves nothing. Renege claims come after the last
        # trick, when every card the players held is public, so they tell nothing hidden either.
        nanf = all_mask & ~HIGH_MASK & ~(SUIT_PLAIN_MASK[up >> 3] if up != JOKER else 0)
        for w, a in view.history:
            if w != seat and a == A.FARMER:
                forbidden[w] |= all_mask & ~LOW_MASK
            elif w != seat and a == A.MISDEAL:
                forbidden[w] |= all_mask & ~nanf
        # Every seat is asked about declarations, so being asked says nothing about a hand.
        if self.own & forbidden[seat]:
            raise ValueError("the seat's own hand breaks a void it showed")
        return forbidden

    def _allowed(self, locs: list[tuple[int, int, int]], unknown: int,
                 forbidden: list[int]) -> list[int]:
        """Per hidden location, the unknown cards it may hold."""
        view = self.view
        upbit = 1 << view.upcard
        up_hidden = self.up_hidden
        allowed: list[int] = []
        for kind, s, _ in locs:
            if kind == _HAND:
                m = unknown & ~forbidden[s]
                if up_hidden and s != view.dealer:
                    m &= ~upbit
            elif kind == _KITTY:
                m = unknown & ~(upbit if up_hidden else 0)
            elif kind == _SWAP:
                m = unknown & LOW_MASK & ~(upbit if up_hidden else 0)
            else:
                m = unknown & ~(0 if view.rules.dealer_may_discard_upcard else upbit)
            allowed.append(m)
        return allowed

    def _setup_counts(self, unknown: int, locs: list[tuple[int, int, int]],
                      allowed: list[int]) -> None:
        """Group the unknown cards by where they may be, and count the completions."""
        groups: dict[int, list[int]] = {}
        for c in cards_of(unknown):
            locmask = 0
            for i, m in enumerate(allowed):
                if m >> c & 1:
                    locmask |= 1 << i
            if not locmask:
                raise ValueError(f"no deal is consistent with this view: {card_str(c)} has no "
                                 "place it could be")
            groups.setdefault(locmask, []).append(c)
        order = sorted(groups, key=lambda lm: (-lm.bit_count(), -len(groups[lm])), reverse=True)
        self.groups = [(tuple(i for i in range(len(locs)) if lm >> i & 1), groups[lm])
                       for lm in order]
        self._count_memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._table_memo: dict[tuple[int, tuple[int, ...]],
                               tuple[list[tuple[int, ...]], list[int]]] = {}
        self.caps = tuple(cap for _, _, cap in locs)
        self.count = self._count(0, self.caps)
        if self.count == 0:
            raise ValueError("no deal is consistent with this view: its voids and hidden cards "
                             "cannot all be met")
        self.allowed = allowed
        self.locs = locs

    def _init_rows(self) -> None:
        """Two-handed with rows: the hidden places are the other player's hand (its part not
        lying face up) and both players' face-down row cards (the seat's own are hidden from it
        too). Failing to follow shows the hand (not the row) void, under 'prevent' only."""
        view = self.view
        r = view.rules
        seat = view.seat
        opp = 1 - seat
        all_mask = mask_of(deck_cards(r.deck))
        if len(view.rows) != 2:
            raise ValueError("a rows view must show both players' rows")
        played_by = [0, 0]
        played_all = 0
        tricks = [cards for _, cards, _ in view.tricks]
        if view.current_trick:
            tricks.append(view.current_trick)
        for cards in tricks:
            for w, c in cards:
                bit = 1 << c
                if played_all & bit or not all_mask & bit or not 0 <= w < 2:
                    raise ValueError(f"card {card_str(c)} is played twice or is not in the deck")
                played_all |= bit
                played_by[w] |= bit
        own = mask_of(view.hand)
        row_cards = [0, 0]
        for w in range(2):
            for top, under in view.rows[w]:
                row_cards[w] |= 1 << top | (1 << under if under != FACE_DOWN else 0)
        known = own | played_all | row_cards[0] | row_cards[1]
        unknown = all_mask & ~known
        own_private = own & ~mask_of(view.face_up(seat))
        opp_private = view.hand_sizes[opp] - len(view.face_up(opp))
        locs = [(_HAND, opp, opp_private), (_DOWN, opp, view.face_down_count(opp)),
                (_DOWN, seat, view.face_down_count(seat))]
        room = sum(cap for _, _, cap in locs)
        if opp_private < 0 or room != unknown.bit_count():
            raise ValueError(f"the view leaves room for {room} hidden cards but "
                             f"{unknown.bit_count()} cards are unaccounted for")
        from_hand = [played_by[w] & ~row_cards[w] for w in range(2)]
        if (own_private | from_hand[seat]).bit_count() != 4 or \
                opp_private + from_hand[opp].bit_count() != 4:
            raise ValueError("no deal is consistent with this view: a hand of four does not fit "
                             "its plays")
        forbidden = 0
        if view.trump != NO_TRUMP and r.renege == "prevent":
            for w, led, _t in self._failures(tricks, EFFECTIVE_SUIT[view.trump], view.trump):
                if w == opp:
                    forbidden |= SUIT_MASK[view.trump][led]
                elif own_private & SUIT_MASK[view.trump][led]:
                    raise ValueError("the seat's own hand breaks a void it showed")
        allowed = [unknown & ~forbidden, unknown, unknown]
        self.played_by = played_by
        self.own = own
        self.own_discard = -1
        self.up_hidden = False
        self.taken = False
        self._own_private = own_private
        self._from_hand = from_hand
        self._setup_counts(unknown, locs, allowed)

    def _build_rows(self, rng: random.Random, assignment: list[list[int]]) -> HandState | None:
        v = self.view
        seat = v.seat
        opp = 1 - seat
        private = [0, 0]
        private[seat] = self._own_private | self._from_hand[seat]
        private[opp] = mask_of(assignment[0]) | self._from_hand[opp]
        downs = {opp: list(assignment[1]), seat: list(assignment[2])}
        deck = [0] * v.rules.deck
        for w, down_pos, up_pos, hand_pos in rows_layout(v.dealer):
            hidden = downs[w]
            rng.shuffle(hidden)
            for c, (top, under) in enumerate(v.rows[w]):
                deck[up_pos[c]] = top
                deck[down_pos[c]] = hidden.pop() if under == FACE_DOWN else under
            cards = cards_of(private[w])
            if len(cards) != len(hand_pos):
                return None
            rng.shuffle(cards)
            for pos, card in zip(hand_pos, cards, strict=True):
                deck[pos] = card
        state = HandState(v.rules, v.dealer, deck)
        if not self._replay(state, -1, -1):
            return None
        return state

    # ---- constraint helpers

    @staticmethod
    def _failures(
        tricks: list[tuple[tuple[int, int], ...]], eff: tuple[int, ...], trump: int
    ) -> list[tuple[int, int, int]]:
        """(seat, led effective suit, trick index) of each failure to follow."""
        out: list[tuple[int, int, int]] = []
        if trump == NO_TRUMP:
            return out
        for t, cards in enumerate(tricks):
            led = eff[cards[0][1]]
            for w, c in cards[1:]:
                if eff[c] != led:
                    out.append((w, led, t))
        return out

    def _check_no_proven_renege(
        self, fails: list[tuple[int, int, int]], seats: set[int], eff: tuple[int, ...]
    ) -> None:
        """Failing to follow and then playing that suit later is a renege for certain."""
        tricks = [cards for _, cards, _ in self.view.tricks]
        if self.view.current_trick:
            tricks.append(self.view.current_trick)
        for w, led, t in fails:
            if w in seats and any(eff[c] == led for cards in tricks[t + 1 :]
                                  for s, c in cards if s == w):
                raise ValueError("no deal is consistent with this view: a renege claim failed "
                                 "although a renege is proven by the cards played")

    @staticmethod
    def _add_voids(
        fails: list[tuple[int, int, int]], seats: set[int], forbidden: list[int], trump: int
    ) -> None:
        """A seat that did not follow held none of the led suit then, so it holds none now."""
        for w, led, _t in fails:
            if w in seats:
                forbidden[w] |= SUIT_MASK[trump][led]

    # ---- counting and drawing

    def _count(self, g: int, caps: tuple[int, ...]) -> int:
        key = (g, caps)
        memo = self._count_memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        if g == len(self.groups):  # no unknown card at all
            return 0 if any(caps) else 1
        locs, cards = self.groups[g]
        k = len(cards)
        if g == len(self.groups) - 1:
            total = 0
            if all(x == 0 or i in locs for i, x in enumerate(caps)) and sum(caps) == k:
                total = _multinomial(k, tuple(x for x in caps if x))
        else:
            total = 0
            for x in _distributions(k, caps, locs):
                rest = tuple(a - b for a, b in zip(caps, x, strict=True))
                sub = self._count(g + 1, rest)
                if sub:
                    total += _multinomial(k, x) * sub
        memo[key] = total
        return total

    def _table(self, g: int, caps: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        key = (g, caps)
        hit = self._table_memo.get(key)
        if hit is not None:
            return hit
        locs, cards = self.groups[g]
        xs: list[tuple[int, ...]] = []
        weights: list[int] = []
        for x in _distributions(len(cards), caps, locs):
            rest = tuple(a - b for a, b in zip(caps, x, strict=True))
            w = _multinomial(len(cards), x) * self._count(g + 1, rest)
            if w:
                xs.append(x)
                weights.append(w)
        table = (xs, list(accumulate(weights)))
        self._table_memo[key] = table
        return table

    def draw_assignment(self, rng: random.Random) -> list[list[int]]:
        """Cards for each hidden location (in ``self.locs`` order), uniformly among the
        assignments that meet the per-card constraints."""
        caps = self.caps
        out: list[list[int]] = [[] for _ in caps]
        last = len(self.groups) - 1
        for g, (_locs, cards) in enumerate(self.groups):
            if g == last:
                x = caps
            else:
                xs, cum = self._table(g, caps)
                x = xs[bisect_right(cum, rng.randrange(cum[-1]))]
            pool = list(cards)
            rng.shuffle(pool)
            i = 0
            for loc, m in enumerate(x):
                if m:
                    out[loc].extend(pool[i : i + m])
                    i += m
            caps = tuple(a - b for a, b in zip(caps, x, strict=True))
        return out

    def assignment_of(self, state: HandState) -> tuple[frozenset[int], ...]:
        """The cards ``state`` holds in each hidden location (``self.locs`` order): what a
        sample is, for comparing samples with each other or with the true deal."""
        out: list[frozenset[int]] = []
        for kind, s, _ in self.locs:
            if kind == _HAND:
                out.append(frozenset(cards_of(state.hands[s])) - set(state.face_up(s)))
            elif kind == _DOWN:
                out.append(frozenset(state.face_down(s)))
            elif kind == _KITTY:
                out.append(frozenset(state.kitty[3:] if state.swapper >= 0 else state.kitty))
            elif kind == _SWAP:
                out.append(frozenset(state.swap_given))
            else:
                out.append(frozenset((state.discarded,)))
        return tuple(out)

    def is_possible(self, assignment: tuple[frozenset[int], ...] | list[list[int]]) -> bool:
        """Whether an assignment meets the sizes and the per-card constraints (the ones
        ``count`` counts)."""
        if len(assignment) != len(self.locs):
            return False
        seen = 0
        for (_, _, cap), m, cards in zip(self.locs, self.allowed, assignment, strict=True):
            bits = mask_of(cards)
            if len(cards) != cap or bits & ~m or bits & seen:
                return False
            seen |= bits
        return True

    def complete(
        self, assignment: tuple[frozenset[int], ...] | list[list[int]], rng: random.Random
    ) -> HandState | None:
        """The full state an assignment gives (dealt, then replayed), or None when the replay
        does not reproduce the view. ``rng`` orders what the view cannot tell apart: cards
        within a hand, the kitty, which cards a swapper received."""
        return self._build(rng, [sorted(cards) for cards in assignment])

    # ---- from an assignment to a replayed state

    def _build(self, rng: random.Random, assignment: list[list[int]]) -> HandState | None:
        v = self.view
        r = v.rules
        if v.variant.row_columns:
            return self._build_rows(rng, assignment)
        n = self.n
        seat = v.seat
        dealer = v.dealer
        hands = [0] * n
        hands[seat] = self.own
        kitty: list[Card] = []
        given: list[int] = list(v.swapped_out)
        discard = self.own_discard if seat == dealer else -1
        for (kind, s, _), cards in zip(self.locs, assignment, strict=True):
            if kind == _HAND:
                hands[s] = mask_of(cards)
            elif kind == _KITTY:
                kitty = cards
            elif kind == _SWAP:
                given = sorted(cards)
            else:
                discard = cards[0]
        initial = [hands[s] | self.played_by[s] for s in range(n)]
        up = v.upcard
        if self.taken:
            if discard >= 0:
                initial[dealer] |= 1 << discard
            initial[dealer] &= ~(1 << up)
        got: list[int] = []
        if v.swapper >= 0:
            x = v.swapper
            got = rng.sample(cards_of(initial[x]), 3)
            initial[x] = (initial[x] & ~mask_of(got)) | mask_of(given)
        if any(h.bit_count() != 5 for h in initial):
            return None  # only an assignment that breaks the constraints gets here
        rng.shuffle(kitty)
        per_seat = [cards_of(h) for h in initial]
        for cards in per_seat:
            rng.shuffle(cards)
        deck: list[Card] = []
        for s in deal_order(n, dealer):
            deck.append(per_seat[s].pop())
        deck.append(up)
        deck.extend(got)
        deck.extend(kitty)
        state = HandState(r, dealer, deck)
        swap_action = A.SWAP_ID.get(mask_of(given), -1) if v.swapper >= 0 else -1
        discard_action = A.DISCARD_BASE + discard if discard >= 0 else -1
        if not self._replay(state, swap_action, discard_action):
            return None
        return state

    def _replay(self, st: HandState, swap_action: int, discard_action: int) -> bool:
        v = self.view
        seat = v.seat
        hist = v.history
        total = len(hist)
        i = 0
        declare_now = v.phase == Phase.DECLARE
        try:
            while True:
                cur = st.cur
                if st.phase == DECLARE and cur != seat:
                    if i < total and hist[i][0] == cur and _is_declaration(hist[i][1]):
                        a = hist[i][1]
                        i += 1
                        if a == HIDDEN_SWAP:
                            a = swap_action
                    elif i == total and declare_now and v.current_player == cur:
                        break
                    else:
                        a = A.PASS  # declined silently: the view never shows it
                elif i < total:
                    w, a = hist[i]
                    i += 1
                    if w != cur:
                        return False
                    if a == HIDDEN_DISCARD:
                        a = discard_action
                else:
                    break
                st.apply_action(a)
        except IllegalActionError:
            return False
        return st.view(seat, v.scores) == v

    def sample(self, rng: random.Random) -> HandState:
        """One full state, uniformly among those consistent with the view."""
        for _ in range(MAX_TRIES):
            state = self._build(rng, self.draw_assignment(rng))
            if state is not None:
                return state
            self.rejections += 1
        raise ValueError(f"no deal consistent with this view was found in {MAX_TRIES} draws: "
                         "the view is inconsistent")


def sample_hand_states(view: SeatView, rng: random.Random, count: int) -> list[HandState]:
    """``count`` full hand states drawn uniformly (and independently) among the deals
    consistent with ``view``: each one's ``view(view.seat, view.scores)`` equals ``view``.

    Raises ``ValueError`` when no deal is consistent with the view."""
    if count < 0:
        raise ValueError(f"count must be zero or more, not {count}")
    sampler = DealSampler(view)
    return [sampler.sample(rng) for _ in range(count)]
