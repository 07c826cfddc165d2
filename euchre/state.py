"""One hand of Euchre (a deal to its score) as an OpenSpiel-shaped state.

``current_player``, sorted int ``legal_actions``, ``apply_action``, ``push``/``pop`` to undo,
``clone``, ``is_terminal`` and ``points``. The deal happens when the state is built (from a seeded
generator or an explicit deck order), so a hand is replayed from its deck plus its list of
actions. Hands are bitmasks and every trump-dependent question is a table lookup from
:mod:`euchre.cards`: that is what keeps a random hand in the tens of microseconds.

The state is the whole truth, hidden cards included. Players, bots and UIs get
:meth:`HandState.view`, which holds only what one seat may know.

How it is laid out: each phase (:mod:`euchre.phases`) has one method listing its actions
(``_legal_<phase>``) and one applying an action in it (``_on_<phase>``), chosen by phase number
in ``_legal`` and ``_apply``; card play, the hot path, stays inline in
``legal_actions`` and ``apply_action``. What differs between games that are more than a rule
toggle (the deal, the opening bid, the tricks a hand, the contract) is a
:class:`~euchre.variants.Variant`. The words of a refusal are :mod:`euchre.explain`'s, the score
table :mod:`euchre.scoring`'s and the seat facts :mod:`euchre.seats`'.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from itertools import combinations
from math import floor
from typing import Any, Final, SupportsIndex

from euchre import actions as A
from euchre import explain
from euchre.actions import Action
from euchre.cards import (
    ACE,
    BIT,
    EFFECTIVE_SUIT,
    JACK,
    JOKER,
    KING,
    LOW_RANKS,
    NO_TRUMP,
    QUEEN,
    STRENGTH,
    SUIT_MASK,
    SUIT_PLAIN_MASK,
    SUITS,
    Card,
    card,
    cards_of,
    deck_cards,
    lawful_mask,
    mask_of,
)
from euchre.errors import IllegalActionError, quote
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
    FIX,
    MISDEAL_REDEAL,
    OVER,
    PHASE_NAMES,
    PHASE_TASKS,
    PHASES,
    PLAY,
    SCORED,
    TERMINAL,
    THROWN_IN,
    TRUMP,
    UP_FACE,
    UP_LEFT,
    UP_NONE,
    UP_TAKEN,
    UP_TURNED_DOWN,
    UPCARD_STATUS_NAMES,
    Phase,
)
from euchre.rules import Rules
from euchre.scoring import hand_points, renege_points
from euchre.seats import SEAT_NAMES_4, Seat, deal_order, is_maker_side, partner, seat_name, side_of
from euchre.variants import (
    ROW_COLUMNS,
    ROWS,
    STANDARD,
    RowsVariant,
    Variant,
    rows_layout,
    variant_for,
)
from euchre.view import FACE_DOWN, HIDDEN_SWAP, SeatView, Trick, public_history

__all__ = [
    "ALONE", "AUCTION", "BID1", "BID2", "CLAIM", "DEALER_TAKE", "DECLARE", "DEFEND", "DISCARD",
    "FIX", "HIGH_MASK", "LOW_MASK", "MISDEAL_REDEAL", "OVER", "PHASES", "PHASE_NAMES",
    "PHASE_TASKS", "PLAY", "ROWS", "ROW_COLUMNS", "SCORED", "SEAT_NAMES_4", "STANDARD", "TERMINAL",
    "THROWN_IN", "TRUMP", "UPCARD_STATUS_NAMES", "UP_FACE", "UP_LEFT", "UP_NONE", "UP_TAKEN",
    "UP_TURNED_DOWN", "HandState", "Phase", "RowsVariant", "Variant", "deal_order", "rows_layout",
    "seat_name", "variant_for",
]

LOW_MASK: Final = mask_of(card(s, r) for s in SUITS for r in LOW_RANKS)
HIGH_MASK: Final = mask_of(card(s, r) for s in SUITS for r in (JACK, QUEEN, KING, ACE)) | (
    1 << JOKER
)


_BidTables = tuple[
    tuple[int, ...],  # round one
    tuple[int, ...],  # round one, the dealer's partner under the Canadian loner
    tuple[int, ...],  # round one under a turned-up Joker (the dealer names trump)
    tuple[tuple[int, ...], ...],  # round two, by turned-down suit (NO_TRUMP: none, rows)
    tuple[tuple[int, ...], ...],  # round two for the dealer, by turned-down suit
    bool,  # the Canadian loner applies
]
class _Facts:
    """What a hand reads from its rules, worked out once per rules object: the bids each seat
    may make (bidding asks for legal actions twice a decision, to list them and to check the
    choice, and these tuples turn both into a lookup) and the options the engine consults.
    Reading them from this (compiled) class rather than from the pure-Python ``Rules`` saves a
    dictionary lookup an attribute on the compiled build's hot path."""

    __slots__ = (
        "all_seats",
        "ask_alone",
        "bidding_phase",
        "bids",
        "deck",
        "declaring",
        "defend_alone",
        "defend_vs_partners",
        "discard_upcard",
        "fix",
        "n",
        "next_seat",
        "no_points",
        "ntricks",
        "points",
        "prevent",
        "rules",
        "sit_outs",
        "variant",
    )

    def __init__(self, rules: Rules, bids: _BidTables) -> None:
        self.rules = rules
        n = self.n = rules.players
        self.deck = rules.deck
        self.fix = rules.renege_fix
        self.prevent = rules.renege == "prevent"
        self.declaring = rules.farmers_hand != "off" or rules.no_ace_no_face
        self.discard_upcard = rules.dealer_may_discard_upcard
        self.ask_alone = rules.alone_timing == "after_discard" and rules.going_alone
        self.defend_alone = rules.defend_alone
        self.defend_vs_partners = rules.defend_alone_vs_partners
        self.points: dict[int, tuple[int, ...]] = {}
        """What each finished hand scores (:func:`~euchre.scoring.hand_points`), by its
        :func:`_points_key`, filled as hands finish."""
        self.variant = variant_for(rules)
        self.ntricks = self.variant.tricks_per_hand
        self.bidding_phase = self.variant.bidding_phase()
        self.sit_outs: dict[tuple[tuple[Seat, ...], Seat], tuple[tuple[Seat, ...],
                                                                  tuple[Seat, ...]]] = {}
        """The seats still playing and each seat's next one (``active``, ``nxt``) once a seat
        sits out of those playing, by (those playing, that seat): filled as hands need them."""
        self.bids = bids
        self.all_seats: tuple[Seat, ...] = tuple(range(n))
        self.next_seat: tuple[Seat, ...] = tuple((s + 1) % n for s in range(n))
        self.no_points: tuple[int, ...] = (0,) * (2 if n == 4 else n)


_FACTS: Final[dict[int, _Facts]] = {}


def _facts(rules: Rules) -> _Facts:
    """The :class:`_Facts` of ``rules``, kept by identity (hashing a dataclass of every option
    costs more than the work it saves), with the rules kept alive in the entry."""
    hit = _FACTS.get(id(rules))
    if hit is not None and hit.rules is rules:
        return hit
    with_bid = bool(rules.going_alone) and rules.alone_timing == "with_bid"
    round_one = (A.PASS, A.ORDER, *((A.ORDER_ALONE,) if with_bid else ()))
    canadian = rules.canadian_loner and rules.players == 4
    canadian_one = (A.PASS, *((A.ORDER_ALONE,) if rules.going_alone else ()))
    joker = tuple(A.CALL_BASE + s for s in SUITS) + (
        tuple(A.CALL_ALONE_BASE + s for s in SUITS) if with_bid else ()
    )

    def round_two(dead: int, may_pass: bool) -> tuple[int, ...]:
        calls = [A.CALL_BASE + s for s in SUITS if s != dead]
        if with_bid:
            calls += [A.CALL_ALONE_BASE + s for s in SUITS if s != dead]
        return (A.PASS, *calls) if may_pass else tuple(calls)

    tables: _BidTables = (
        round_one,
        canadian_one,
        joker,
        tuple(round_two(d, True) for d in (*SUITS, NO_TRUMP)),
        tuple(round_two(d, not rules.stick_the_dealer) for d in (*SUITS, NO_TRUMP)),
        canadian,
    )
    if len(_FACTS) > 256:
        _FACTS.clear()
    facts = _FACTS[id(rules)] = _Facts(rules, tables)
    return facts


def _as_action(action: object) -> int:
    """Accept integer-like actions (numpy ints from RL code) as plain ints; refuse the rest."""
    if isinstance(action, bool):
        raise IllegalActionError(f"an action is an integer id, not {action!r}")
    try:
        # Any failure of a hostile __index__ (not only TypeError) is the caller's bad action.
        return operator.index(action)  # type: ignore[arg-type]
    except Exception:
        raise IllegalActionError(
            f"an action is an integer id (see euchre.actions), not {quote(action)}; "
            "use euchre.action_from_str to read text"
        ) from None


_ENTRIES: Final[tuple[tuple[Any, ...], ...]] = tuple(
    tuple((seat, a) for a in range(A.NUM_ACTIONS)) for seat in range(4))
"""Every (seat, action) pair the history logs, by seat then action, built once and shared.
Typed ``Any`` so that the compiled build passes the tuple itself along instead of unpacking it
into two native ints and building a new one."""
_DECKS: Final = {size: deck_cards(size) for size in (24, 25, 32)}
_SHUFFLE_STEPS: Final = {size: tuple((i, i + 1) for i in range(size - 1, 0, -1))
                         for size in _DECKS}
"""By deck size: (position, cards drawn from) for each step of a Fisher-Yates shuffle from
the top down, worked out once instead of at every step of every deal."""


class HandState:
    """A single deal, from the declarations before bidding to the score."""

    __slots__ = (
        "_bids",
        "_facts",
        "_fix",
        "_follow_mask",
        "_led_strength",
        "_ntricks",
        "_prevent",
        "_stack",
        "_strength",
        "_suit_mask",
        "active",
        "alone",
        "bid_start",
        "bids",
        "claimants",
        "columns",
        "cur",
        "deal_seats",
        "dealer",
        "deck",
        "decl_queue",
        "discarded",
        "forced",
        "hands",
        "history",
        "initial_hands",
        "kitty",
        "leader",
        "led",
        "lone_defender",
        "maker",
        "n",
        "nxt",
        "outcome",
        "phase",
        "points",
        "renege_claimed",
        "reneges",
        "rules",
        "swap_given",
        "swapper",
        "trick",
        "tricks",
        "tricks_won",
        "trump",
        "under",
        "up_status",
        "upcard",
        "variant",
        "win_seat",
        "win_str",
    )

    rules: Rules
    variant: Variant
    """The game being dealt (:func:`variant_for` the rules)."""
    n: int
    dealer: Seat
    deck: tuple[Card, ...]
    deal_seats: tuple[Seat, ...]
    initial_hands: tuple[int, ...]
    hands: list[int]
    kitty: tuple[Card, ...]
    upcard: Card
    up_status: int
    phase: int
    cur: Seat
    bids: int
    bid_start: int
    trump: int
    maker: Seat
    alone: bool
    lone_defender: Seat
    active: tuple[Seat, ...]
    nxt: tuple[Seat, ...]
    discarded: Card
    swapper: Seat
    swap_given: tuple[Card, ...]
    decl_queue: tuple[Seat, ...]
    claimants: tuple[Seat, ...]
    leader: Seat
    led: int
    win_seat: Seat
    win_str: int
    trick: tuple[tuple[Seat, Card], ...]
    tricks: list[Trick]
    tricks_won: list[int]
    reneges: list[tuple[Seat, int, Card]]
    """(seat, trick index, card) of every renege still standing (a fixed one is removed)."""
    forced: int
    """Bit per seat that fixed a renege in the current trick and so must follow suit."""
    columns: tuple[tuple[tuple[Card, Card], ...], ...]
    """Two-handed with rows: per seat, the four (face-up card, face-down card under it) as
    dealt; empty otherwise."""
    under: tuple[Card, ...]
    """Two-handed with rows: by card id, the face-down card a row card lies on (-1: none), which
    turns up when the card on it is played; empty in games without rows."""
    renege_claimed: int
    history: list[tuple[Seat, Action]]
    outcome: str | None
    points: tuple[int, ...]
    _bids: _BidTables
    _facts: _Facts
    _fix: bool
    _ntricks: int
    _prevent: bool
    _stack: list[tuple[Any, ...]]
    _strength: tuple[tuple[int, ...], ...]
    _suit_mask: tuple[int, ...]
    _follow_mask: int
    """The cards that follow the suit led to the current trick (``_suit_mask[led]``; none, 0,
    between tricks), and ``_led_strength`` that suit's row of ``_strength``: looked up once
    when the trick is led instead of at every card played to it and every listing of the
    legal cards, and 0 between tricks so that neither asks whether a trick is under way."""
    _led_strength: tuple[int, ...]

    # -----------------------------------------------------------------------------------------
    # Construction

    def __init__(
        self,
        rules: Rules,
        dealer: Seat | object,
        deck: list[Card] | tuple[Card, ...],
        *,
        _trusted: bool = False,
    ) -> None:
        """Deal ``deck`` (top card first) in packets of 3 and 2 from the dealer's left.

        The first ``5 * players`` cards go to the hands, the next is the up-card, the rest are
        the face-down kitty in order (two-handed with rows deals them as
        :class:`RowsVariant` says). Use :meth:`deal` for a seeded random deck.
        """
        facts = _facts(rules)
        n = facts.n
        if not _trusted:
            # ``Seat | object``: a bool or a string is refused here, in the compiled build too
            # (mypyc would convert or refuse a typed argument before this check).
            if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
                raise IllegalActionError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
            full = _DECKS[facts.deck]
            if len(deck) != len(full) or sorted(deck) != list(full):
                raise IllegalActionError(
                    f"a deck order must hold each of the {rules.deck} cards of this deck "
                    "exactly once"
                )
        self.rules = rules
        self.n = n
        # A seat by now: checked above, or given by a trusted caller (a compiled build checks
        # the type again here; a cast would cost a call in the pure one).
        self.dealer = dealer  # type: ignore[assignment]
        self.deck = tuple(deck)
        self._facts = facts
        variant = self.variant = facts.variant
        (self.deal_seats, self.initial_hands, self.hands, self.upcard, self.kitty,
         self.up_status, self.columns, self.under) = variant.deal(self.deck, n, self.dealer)
        self._ntricks = facts.ntricks
        self._fix = facts.fix
        self.forced = 0
        self.trump = NO_TRUMP
        self.maker = -1
        self.alone = False
        self.lone_defender = -1
        self.active = facts.all_seats
        self.nxt = facts.next_seat
        self.discarded = -1
        self.swapper = -1
        self.swap_given = ()
        self.claimants = ()
        self.leader = -1
        self.led = -1
        self.win_seat = -1
        self.win_str = -1
        self.trick = ()
        self.tricks = []
        self.tricks_won = [0] * n
        self.reneges = []
        self.renege_claimed = -1
        self.history = []
        self.outcome = None
        self.points = facts.no_points
        self.bids = 0
        self.bid_start = 0
        self._stack = []
        self._prevent = facts.prevent
        self._bids = facts.bids
        self._strength = STRENGTH[0]
        self._suit_mask = SUIT_MASK[NO_TRUMP]
        self._follow_mask = 0
        self._led_strength = STRENGTH[0][0]
        if facts.declaring:  # every seat is asked (see _declarers), from the dealer's left
            self.decl_queue = self._declarers()
            self.phase = DECLARE
            self.cur = self.decl_queue[0]
        else:
            self._start_bidding()

    def face_down(self, seat: Seat) -> list[Card]:
        """Two-handed with rows: the cards still face down in ``seat``'s row (hidden from
        everyone, the seat itself included)."""
        return self.variant.face_down(self.hands[seat], self.columns, seat)

    def face_up(self, seat: Seat) -> list[Card]:
        """Two-handed with rows: ``seat``'s cards lying face up on the table (public)."""
        return self.variant.face_up(self.hands[seat], self.columns, seat)

    @classmethod
    def deal(cls, rules: Rules, dealer: Seat, rng: random.Random) -> HandState:
        """Shuffle with ``rng`` (never the global generator) and deal."""
        size = rules.deck
        deck = list(_DECKS[size])
        rnd = rng.random
        for i, span in _SHUFFLE_STEPS[size]:  # Fisher-Yates, i from the top down
            # floor, not int(): equal for a draw >= 0 (the deals of every seed are unchanged),
            # and a plain call where int() goes through the type's constructor.
            j = floor(rnd() * span)
            deck[i], deck[j] = deck[j], deck[i]
        if not 0 <= dealer < rules.players:
            raise IllegalActionError(f"dealer must be a seat 0..{rules.players - 1}, not {dealer}")
        if cls is HandState:  # a direct call, which the compiled build makes natively
            return HandState(rules, dealer, deck, _trusted=True)
        return cls(rules, dealer, deck, _trusted=True)

    # -----------------------------------------------------------------------------------------
    # Queries

    @property
    def current_player(self) -> Seat:
        return self.cur

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> Phase:
        """The phase as clients name it: a :class:`~euchre.phases.Phase`, whose ``str`` is the
        word (``phase`` itself is the engine's number)."""
        return PHASES[self.phase]

    @property
    def undo_depth(self) -> int:
        """How many :meth:`push` calls :meth:`pop` can still undo."""
        return len(self._stack)

    def side_of(self, seat: Seat) -> int:
        """The scoring side of a seat: its partnership (seat % 2) with four players, else itself."""
        return side_of(seat, self.n)

    def partner(self, seat: Seat) -> Seat:
        """The partner across the table (four players only; otherwise the seat itself)."""
        return partner(seat, self.n)

    def is_maker_side(self, seat: Seat) -> bool:
        """Whether ``seat`` plays for the makers (the maker, or the maker's partner)."""
        return is_maker_side(seat, self.maker, self.n)

    def eldest(self) -> Seat:
        return (self.dealer + 1) % self.n

    def returns(self) -> list[float]:
        """Zero-sum per seat: own side's points minus the mean of the other sides' points.

        With four players this is OpenSpiel's returns (+points for the scoring team's seats, the
        negative for the others)."""
        pts = self.points
        sides = len(pts)
        total = sum(pts)
        out = []
        for s in range(self.n):
            mine = pts[self.side_of(s)]
            out.append(float(mine - (total - mine) / (sides - 1)))
        return out

    def legal_actions(self) -> list[Action]:
        """Sorted action ids the current player may take (empty when the hand is over).

        A fresh list on every call, so a caller may keep or change it without harm."""
        if self.phase == PLAY:
            hand = self.hands[self.cur]
            follow = hand & self._follow_mask  # none while no trick is led
            if follow and (self._prevent or self.forced >> self.cur & 1):
                return cards_of(follow)
            return cards_of(hand)
        if self.phase == BID1:  # the commonest other question: no second call to dispatch
            return list(self._legal_bid1())
        return list(self._legal())

    def lawful_cards(self) -> list[Card]:
        """The cards the player to move may play without reneging: those of the led suit when
        it holds any, else its whole hand.

        Under ``renege="prevent"`` these are exactly the legal actions of card play; under
        ``"penalize"`` the engine also lets a player fail to follow (to be claimed later), and
        the solvers and the rollout policy play lawfully only."""
        return cards_of(lawful_mask(self.hands[self.cur], self.trump,
                                    self.led if self.trick else -1))

    def _legal(self) -> Sequence[Action]:
        """The actions of the current phase other than card play, from that phase's method.
        An if-chain (commonest phases first) rather than a table of methods: the compiled
        build makes these native calls, where a table would call through Python."""
        p = self.phase
        if p == BID1:
            return self._legal_bid1()
        if p == BID2:
            return self._legal_bid2()
        if p == DISCARD:
            return self._legal_discard()
        if p == DECLARE:
            return self._legal_declare()
        if p == DEALER_TAKE:
            return self._legal_dealer_take()
        if p == ALONE:
            return self._legal_alone()
        if p == DEFEND:
            return self._legal_defend()
        if p == CLAIM:
            return self._legal_claim()
        if p == FIX:
            return self._legal_fix()
        if p == AUCTION:
            return self._legal_auction()
        if p == TRUMP:
            return self._legal_trump()
        return self._legal_none()  # PLAY is inline in legal_actions; OVER has none

    def _apply(self, p: int, seat: Seat, a: Action) -> None:
        """Apply ``a`` (checked legal and logged) in phase ``p`` other than card play: the
        phase's ``_on_`` method, chosen as :meth:`_legal` chooses."""
        if p == BID1:
            self._on_bid1(seat, a)
        elif p == BID2:
            self._on_bid2(seat, a)
        elif p == DISCARD:
            self._on_discard(seat, a)
        elif p == DECLARE:
            self._on_declare(seat, a)
        elif p == DEALER_TAKE:
            self._on_dealer_take(seat, a)
        elif p == ALONE:
            self._on_alone(seat, a)
        elif p == DEFEND:
            self._on_defend(seat, a)
        elif p == CLAIM:
            self._on_claim(seat, a)
        elif p == FIX:
            self._on_fix(seat, a)
        elif p == AUCTION:
            self._on_auction(seat, a)
        elif p == TRUMP:
            self._on_trump(seat, a)
        else:
            self._on_none(seat, a)

    # One method per phase: the actions it offers (card play is inline in legal_actions).

    def _legal_declare(self) -> Sequence[Action]:
        return self._declarations(self.cur) or [A.PASS]

    def _legal_bid1(self) -> Sequence[Action]:
        bids = self._bids
        if self.upcard == JOKER:
            return bids[2]  # a turned-up Joker: the dealer names trump
        if bids[5] and self.cur == partner(self.dealer, 4):
            return bids[1]  # Canadian loner: the dealer's partner orders only alone
        return bids[0]

    def _legal_bid2(self) -> Sequence[Action]:
        dead = self.upcard >> 3 if self.upcard >= 0 else NO_TRUMP
        return (self._bids[4] if self.cur == self.dealer else self._bids[3])[dead]

    def _legal_dealer_take(self) -> Sequence[Action]:
        return [A.DECLINE, A.TAKE]

    def _legal_discard(self) -> Sequence[Action]:
        return [A.DISCARD_BASE + c for c in cards_of(self._discardable())]

    def _discardable(self) -> int:
        """The cards the dealer may bury: the hand, less the up-card just taken unless the
        rules let it go straight back. A mask, so that applying a discard checks one bit."""
        hand = self.hands[self.cur]
        if not self._facts.discard_upcard:
            hand &= ~(1 << self.upcard)
        return hand

    def _legal_alone(self) -> Sequence[Action]:
        return [A.GO_ALONE, A.WITH_PARTNER]

    def _legal_defend(self) -> Sequence[Action]:
        return [A.PASS, A.DEFEND_ALONE]

    def _legal_none(self) -> Sequence[Action]:
        return []

    def _legal_claim(self) -> Sequence[Action]:
        return [A.PASS, A.CLAIM_RENEGE]

    def _legal_fix(self) -> Sequence[Action]:
        ti = len(self.tricks)
        cur = self.cur
        if any(w == cur and t == ti for w, t, _ in self.reneges):
            return [A.FIX_RENEGE, A.PASS]
        return [A.PASS]

    def _legal_auction(self) -> Sequence[Action]:
        standing = self.contract
        offers = [A.bid(k) for k in range(max(A.BID_MIN, standing + 1), A.BID_MAX + 1)]
        stuck = self.rules.stick_the_dealer and self.cur == self.dealer and not standing
        return offers if stuck else [*offers, A.PASS]  # sorted ids: bids 73.., pass 80

    def _legal_trump(self) -> Sequence[Action]:
        return [A.CALL_BASE + s for s in SUITS]

    # -----------------------------------------------------------------------------------------
    # Declarations before bidding (farmer's hand, no ace no face no trump)

    def _declarations(self, seat: Seat) -> list[Action]:
        r = self.rules
        hand = self.hands[seat]
        out = []
        if r.farmers_hand == "redeal" and not hand & ~LOW_MASK:
            out.append(A.FARMER)
        if r.no_ace_no_face and self._no_ace_no_face(hand):
            out.append(A.MISDEAL)
        if r.farmers_hand == "swap" and self.swapper < 0 and len(self.kitty) >= 3:
            low = cards_of(hand & LOW_MASK)
            if len(low) >= 3:
                out += sorted(A.swap(c) for c in combinations(low, 3))
        return [A.PASS, *out] if out else []

    def _no_ace_no_face(self, hand: int) -> bool:
        if hand & HIGH_MASK:
            return False
        if self.upcard == JOKER:
            return True
        return not hand & SUIT_PLAIN_MASK[self.upcard >> 3]

    def _declarers(self) -> tuple[Seat, ...]:
        """Every seat from the dealer's left, when a declaration option is on.

        Asking only the seats whose hands qualify would tell the table who holds a farmer's hand:
        so everyone is asked, and a seat with nothing to declare can only pass (privately)."""
        if not self._facts.declaring:
            return ()
        return tuple((self.dealer + 1 + i) % self.n for i in range(self.n))

    # -----------------------------------------------------------------------------------------
    # Applying actions

    def apply_action(self, action: SupportsIndex) -> None:
        """Apply a legal action; an illegal one raises IllegalActionError and changes nothing.

        Any integer-like id is taken (a numpy int from RL code); anything else is refused
        with IllegalActionError, in the compiled build too (hence ``SupportsIndex``, which
        mypyc does not check on the way in, rather than ``int``)."""
        a = action if type(action) is int else _as_action(action)
        seat = self.cur
        phase = self.phase
        if phase != PLAY:
            if phase == BID1:
                refused = a not in self._legal_bid1()
            elif phase == DISCARD:  # one bit, not the list of discards built to be searched
                refused = (a < A.DISCARD_BASE
                           or not self._discardable() >> (a - A.DISCARD_BASE) & 1)
            else:
                refused = a not in self._legal()
            if refused:
                raise IllegalActionError(self.explain_illegal(a))
            self.history.append(_ENTRIES[seat][a])
            if phase == BID1:
                self._on_bid1(seat, a)
            else:
                self._apply(phase, seat, a)
            return
        # Playing a card: the hot path, validated by masks and kept inline, every check before
        # the first change (a refused card changes nothing).
        hand = self.hands[seat]
        if a < 0 or not hand >> a & 1:  # a hand holds cards only: no other id has a bit in it
            raise IllegalActionError(self.explain_illegal(a))
        follow = hand & self._follow_mask  # none while no trick is led
        if follow and not follow >> a & 1:
            if self._prevent or self.forced >> seat & 1:
                raise IllegalActionError(self.explain_illegal(a))
            self.reneges.append((seat, len(self.tricks), a))
        entry = _ENTRIES[seat][a]  # (seat, a), shared: no tuple built per card
        self.history.append(entry)
        self.hands[seat] = hand ^ BIT[a]
        if self.under:  # a row card played turns up the card under it
            under = self.under[a]
            if under >= 0:
                self.hands[seat] |= 1 << under
        trick: tuple[Any, ...] = self.trick  # Any: see _ENTRIES
        if not trick:
            led = EFFECTIVE_SUIT[self.trump][a]
            self.led = led
            self._follow_mask = self._suit_mask[led]
            strength = self._led_strength = self._strength[led]
            self.leader = self.win_seat = seat
            self.win_str = strength[a]
            self.trick = (entry,)
            self.cur = self.nxt[seat]
            return
        st = self._led_strength[a]
        if st > self.win_str:
            self.win_str = st
            self.win_seat = seat
        k = len(trick)  # the trick so far and this card, spelt out: no list built on the way
        if k == 1:
            trick = (trick[0], entry)
        elif k == 2:
            trick = (trick[0], trick[1], entry)
        elif k == 3:
            trick = (trick[0], trick[1], trick[2], entry)
        else:
            trick = (*trick, entry)
        nxt = self.nxt[seat]
        if nxt != self.leader:  # someone has still to play to it: ``nxt`` skips who sits out
            self.trick = trick
            self.cur = nxt
            return
        if self._fix and self._ask_fixes(trick):
            return
        self._close_trick(trick)

    def _close_trick(self, trick: tuple[tuple[int, int], ...]) -> None:
        """The trick is turned and quitted: its winner takes it and leads the next."""
        winner = self.win_seat
        tricks = self.tricks
        tricks.append((self.leader, trick, winner))
        self.tricks_won[winner] += 1
        self.trick = ()
        self._follow_mask = 0
        self.forced = 0
        if len(tricks) == self._ntricks:
            self._end_of_play()
        else:
            self.phase = PLAY
            self.cur = winner

    def _ask_fixes(self, trick: tuple[tuple[int, int], ...]) -> bool:
        """renege_fix: before a complete trick is quitted, ask every player who did not follow
        suit (in playing order) whether to fix a renege. Asking all of them, not only those who
        reneged, keeps the question from telling the table who could have followed."""
        eff = EFFECTIVE_SUIT[self.trump]
        led = self.led
        asked = tuple(w for w, c in trick[1:] if eff[c] != led)
        if not asked:
            return False
        self.trick = trick
        self.phase = FIX
        self.decl_queue = asked
        self.cur = asked[0]
        return True

    def _take_back(self, seat: Seat) -> None:
        """``seat`` fixes its renege: it and every player who played after it take their cards
        back; it must now follow suit, the others may play any card again (the same one
        included)."""
        trick = self.trick
        pos = next(i for i, (w, _) in enumerate(trick) if w == seat)
        later = {w for w, _ in trick[pos:]}
        for w, c in trick[pos:]:
            self.hands[w] |= 1 << c
        ti = len(self.tricks)
        self.reneges = [r for r in self.reneges if not (r[1] == ti and r[0] in later)]
        kept = trick[:pos]
        strength = self._strength[self.led]
        self.win_seat, self.win_str = kept[0][0], strength[kept[0][1]]
        for w, c in kept[1:]:
            if strength[c] > self.win_str:
                self.win_seat, self.win_str = w, strength[c]
        self.trick = kept
        self.forced |= 1 << seat
        self.decl_queue = ()
        self.phase = PLAY
        self.cur = seat

    def push(self, action: SupportsIndex) -> None:
        """Apply ``action`` after saving a snapshot that :meth:`pop` restores."""
        self._stack.append(self._snapshot())
        try:
            self.apply_action(action)
        except BaseException:  # whatever failed, the state is unchanged: so is the stack
            self._stack.pop()
            raise

    def pop(self) -> Action:
        """Undo back to the state before the latest :meth:`push`; returns that push's action."""
        if not self._stack:
            raise IllegalActionError("nothing to undo: pop() follows push()")
        snap = self._stack.pop()
        action: int = self.history[snap[0]][1]
        self._restore(snap)
        return action


    # One method per phase: what an action (already checked legal and logged) does in it.

    def _on_declare(self, seat: Seat, a: Action) -> None:
        if a == A.FARMER or a == A.MISDEAL:
            self.outcome = MISDEAL_REDEAL
            self._finish()
            return
        if a >= A.SWAP_BASE:
            given = A.SWAP_SETS[a - A.SWAP_BASE]
            got = self.kitty[:3]
            hand = self.hands[seat]
            for c in given:
                hand ^= 1 << c
            for c in got:
                hand |= 1 << c
            self.hands[seat] = hand
            self.kitty = (*given, *self.kitty[3:])
            self.swapper = seat
            self.swap_given = given
        if not self._ask_next():
            self._start_bidding()

    def _ask_next(self) -> bool:
        """The seat asked (first in ``decl_queue``) has answered: ask the next; False when
        nobody is left to ask."""
        rest = self.decl_queue[1:]
        self.decl_queue = rest
        if rest:
            self.cur = rest[0]
        return bool(rest)

    def _on_bid1(self, seat: Seat, a: Action) -> None:
        n = self.n
        if a == A.PASS:
            self.bids += 1
            if self.bids == n:
                self.up_status = UP_TURNED_DOWN
                self.phase = BID2
                self.bids = 0
                self.cur = self.eldest()
            else:
                self.cur = (seat + 1) % n
            return
        if a >= A.CALL_BASE:  # Joker up-card: the dealer names the suit.
            alone = a >= A.CALL_ALONE_BASE
            self._make(seat, a - (A.CALL_ALONE_BASE if alone else A.CALL_BASE), alone)
        else:
            self._make(seat, self.upcard >> 3, a == A.ORDER_ALONE)
        if n == 2 and seat != self.dealer:
            self.phase = DEALER_TAKE
            self.cur = self.dealer
            return
        self._dealer_picks_up()

    def _on_bid2(self, seat: Seat, a: Action) -> None:
        if a == A.PASS:
            self.bids += 1
            if self.bids == self.n:
                self.outcome = THROWN_IN
                self._finish()
            else:
                self.cur = (seat + 1) % self.n
            return
        alone = a >= A.CALL_ALONE_BASE
        self._make(seat, a - (A.CALL_ALONE_BASE if alone else A.CALL_BASE), alone)
        self._after_trump()

    def _on_dealer_take(self, seat: Seat, a: Action) -> None:
        if a == A.TAKE:
            self._dealer_picks_up()
        else:
            self.up_status = UP_LEFT
            self._after_trump()

    def _on_discard(self, seat: Seat, a: Action) -> None:
        c = a - A.DISCARD_BASE
        self.hands[seat] ^= 1 << c
        self.discarded = c
        self._after_trump()

    def _on_alone(self, seat: Seat, a: Action) -> None:
        if a == A.GO_ALONE:
            self._set_alone()
        self._start_defence()

    def _on_defend(self, seat: Seat, a: Action) -> None:
        if a == A.DEFEND_ALONE:
            self.lone_defender = seat
            self._sit_out(partner(seat, 4))
            self._start_play()
            return
        later = [s for s in self.decl_queue if s != seat]
        self.decl_queue = tuple(later)
        if later:
            self.cur = later[0]
        else:
            self._start_play()

    def _on_none(self, seat: Seat, a: Action) -> None:  # pragma: no cover
        raise AssertionError(f"no action applies in phase {PHASE_NAMES[self.phase]}")

    def _on_claim(self, seat: Seat, a: Action) -> None:
        if a == A.CLAIM_RENEGE:
            claimant_makers = self.is_maker_side(seat)
            offenders = [s for s, _, _ in self.reneges
                         if self.is_maker_side(s) != claimant_makers]
            if offenders:
                self.renege_claimed = seat
                self._score_renege(seat, claimant_makers)
                return
        rest = self.claimants[1:]
        self.claimants = rest
        if rest:
            self.cur = rest[0]
        else:
            self._score()

    def _on_fix(self, seat: Seat, a: Action) -> None:
        if a == A.FIX_RENEGE:
            self._take_back(seat)
            return
        if not self._ask_next():
            self._close_trick(self.trick)

    def _on_auction(self, seat: Seat, a: Action) -> None:
        if seat != self.dealer:  # the non-dealer bid first; now the dealer
            self.cur = self.dealer
            return
        bidder = self.bidder
        if bidder < 0:
            self.outcome = THROWN_IN
            self._finish()
            return
        self.phase = TRUMP
        self.cur = bidder

    def _on_trump(self, seat: Seat, a: Action) -> None:
        self._make(seat, a - A.CALL_BASE, False)
        self._after_trump()

    # Transitions

    def _start_bidding(self) -> None:
        self.phase = self._facts.bidding_phase
        self.bids = 0
        self.bid_start = len(self.history)
        self.decl_queue = ()
        self.cur = self.dealer if self.upcard == JOKER else self.eldest()

    def _make(self, seat: Seat, suit: int, alone: bool) -> None:
        self.trump = suit
        self._strength = STRENGTH[suit]
        self._suit_mask = SUIT_MASK[suit]
        self.maker = seat
        if alone:
            self._set_alone()

    def _set_alone(self) -> None:
        self.alone = True
        self._sit_out(partner(self.maker, 4))

    def _sit_out(self, seat: Seat) -> None:
        """``seat`` sits the hand out (a lone maker's or lone defender's partner): the seats in
        play and each seat's next one in play, worked out once per rules and kept, as every
        hand with a loner asks the same few questions."""
        key = (self.active, seat)
        known = self._facts.sit_outs.get(key)
        if known is None:
            active = tuple(s for s in self.active if s != seat)
            nxt = list(self.nxt)
            for s in range(self.n):
                t = (s + 1) % self.n
                while t not in active:
                    t = (t + 1) % self.n
                nxt[s] = t
            known = self._facts.sit_outs[key] = (active, tuple(nxt))
        self.active, self.nxt = known

    def _dealer_picks_up(self) -> None:
        d = self.dealer
        if d not in self.active:
            # The dealer's partner went alone: the dealer's hand is laid aside and the up-card
            # stays in the kitty, out of play. No discard is asked (RULES-NOTES).
            self.up_status = UP_LEFT
            self._after_trump()
            return
        self.hands[d] |= 1 << self.upcard
        self.up_status = UP_TAKEN
        self.phase = DISCARD
        self.cur = d

    def _after_trump(self) -> None:
        # A Canadian loner already went alone with the bid: nothing left to ask.
        if self._facts.ask_alone and not self.alone:
            self.phase = ALONE
            self.cur = self.maker
            return
        self._start_defence()

    def _start_defence(self) -> None:
        facts = self._facts
        if facts.defend_alone and (self.alone or facts.defend_vs_partners):
            order = [(self.dealer + 1 + i) % 4 for i in range(4)]
            defenders = tuple(s for s in order if not self.is_maker_side(s))
            self.decl_queue = defenders
            self.phase = DEFEND
            self.cur = defenders[0]
            return
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.decl_queue = ()
        e = self.eldest()
        self.cur = e if e in self.active else self.nxt[e]

    def _end_of_play(self) -> None:
        if not self._prevent:  # renege "penalize": each side may claim one
            order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
            claimants: list[int] = []
            sides_seen: set[bool] = set()
            for s in order:
                if s in self.active and self.is_maker_side(s) not in sides_seen:
                    sides_seen.add(self.is_maker_side(s))
                    claimants.append(s)
            self.claimants = tuple(claimants)
            self.phase = CLAIM
            self.cur = claimants[0]
            return
        self._score()

    @property
    def contract(self) -> int:
        """Two-handed with rows: the tricks the maker bid (the highest bid), 0 before any."""
        return self.variant.high_bid(self.history, self.bid_start)[0]

    @property
    def bidder(self) -> Seat:
        """Two-handed with rows: the seat holding the highest bid, -1 before any."""
        return self.variant.high_bid(self.history, self.bid_start)[1]

    def maker_tricks(self) -> int:
        """Tricks the makers' side has taken so far (0 before trump is made)."""
        m = self.maker
        if m < 0:
            return 0
        won = self.tricks_won
        return won[m] + won[partner(m, 4)] if self.n == 4 else won[m]

    def points_for(self, maker_tricks: int) -> tuple[int, ...]:
        """What this hand scores, per side, if the makers finish with ``maker_tricks`` tricks
        and no renege is claimed (:func:`euchre.scoring.hand_points`)."""
        maker, alone, contract = self.maker, self.alone, self.contract
        lone = self.lone_defender >= 0
        # Kept once worked out, since scoring reads a dozen options of the rules: a key for every
        # value a hand can reach, none (-1) for anything else a caller may ask about.
        key = ((((contract * 16 + maker_tricks) * 4 + maker) * 2 + alone) * 2 + lone
               if 0 <= maker < 4 and 0 <= maker_tricks < 16 and 0 <= contract < 16 else -1)
        table = self._facts.points
        pts = table.get(key)
        if pts is None:
            pts = hand_points(self.rules, maker, maker_tricks, alone=alone, lone_defender=lone,
                              contract=contract)
            if key >= 0:
                table[key] = pts
        return pts

    def _score(self, made: int | None = None) -> None:
        """Score the hand on the makers' tricks (``made``: after a renege's trick penalty)."""
        self.points = self.points_for(self.maker_tricks() if made is None else made)
        self.outcome = SCORED
        self._finish()

    def _score_renege(self, claimant: Seat, claimant_makers: bool) -> None:
        """A true renege claim, settled as ``rules.renege_penalty`` says."""
        self.points = renege_points(
            self.rules, self.maker, self.maker_tricks(), claimant_makers=claimant_makers,
            alone=self.alone, lone_defender=self.lone_defender >= 0, contract=self.contract)
        self.outcome = SCORED
        self._finish()

    def _finish(self) -> None:
        self.phase = OVER
        self.cur = TERMINAL

    # -----------------------------------------------------------------------------------------
    # Snapshots, copies

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            len(self.history), list(self.hands), self.kitty, self.up_status, self.phase,
            self.cur, self.bids, self.bid_start, self.trump, self.maker, self.alone,
            self.lone_defender,
            self.active, self.nxt, self.discarded, self.swapper, self.swap_given,
            self.decl_queue, self.claimants, self.leader, self.led, self.win_seat,
            self.win_str, self.trick, len(self.tricks), list(self.tricks_won),
            tuple(self.reneges), self.renege_claimed, self.outcome, self.points, self.forced,
        )

    def _restore(self, s: tuple[Any, ...]) -> None:
        (h, hands, self.kitty, self.up_status, self.phase, self.cur, self.bids, self.bid_start,
         self.trump,
         self.maker, self.alone, self.lone_defender, self.active, self.nxt, self.discarded,
         self.swapper, self.swap_given, self.decl_queue, self.claimants, self.leader, self.led,
         self.win_seat, self.win_str, self.trick, nt, tw, reneges, self.renege_claimed,
         self.outcome, self.points, self.forced) = s
        self.hands = hands
        self.reneges = list(reneges)
        self.tricks_won = tw
        self._strength = STRENGTH[self.trump & 3]
        self._suit_mask = SUIT_MASK[self.trump]
        self._follow_mask = self._suit_mask[self.led] if self.trick else 0
        self._led_strength = self._strength[self.led]
        del self.history[h:]
        del self.tricks[nt:]

    def clone(self) -> HandState:
        """An independent copy (the undo stack is not copied)."""
        # Rebuilt from the same deal, then given this state's snapshot: no __new__/__slots__
        # tricks, so the class stays compilable with mypyc.
        other = HandState(self.rules, self.dealer, self.deck, _trusted=True)
        other.history = list(self.history)
        other.tricks = list(self.tricks)
        other._restore(self._snapshot())
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling and ``copy.deepcopy``: the deal, then this state's snapshot, the undo
        stack included. Explicit because the compiled class has no instance ``__dict__`` for
        the default protocol to copy."""
        return (_rebuild, (self.rules, self.dealer, self.deck, list(self.history),
                           list(self.tricks), self._snapshot(), list(self._stack)))

    def copy(self) -> HandState:
        """The same as :meth:`clone`, under the name ``copy`` users reach for. A def, not
        ``copy = clone``: mypyc compiles such an alias into a class that cannot be built."""
        return self.clone()

    def view(self, seat: Seat | object, scores: tuple[int, ...] = ()) -> SeatView:
        """What ``seat`` may know now: the only thing to hand a bot or a user interface.
        Anything but a seat number is refused with IllegalActionError."""
        return make_view(self, seat, scores)

    # -----------------------------------------------------------------------------------------
    # Explanations

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not allowed now, and what is: the text of IllegalActionError
        (:func:`euchre.explain.why_illegal`)."""
        return explain.why_illegal(self, action)

    def __repr__(self) -> str:
        return (
            f"<HandState {PHASE_NAMES[self.phase]} dealer={self.dealer} "
            f"cur={self.cur} trump={'CDHS-'[self.trump]} tricks={self.tricks_won}>"
        )


def _rebuild(rules: Rules, dealer: Seat, deck: tuple[Card, ...],
             history: list[tuple[Seat, Action]], tricks: list[Trick], snapshot: tuple[Any, ...],
             stack: list[tuple[Any, ...]]) -> HandState:
    """The state :meth:`HandState.__reduce__` describes."""
    state = HandState(rules, dealer, deck, _trusted=True)
    state.history = history
    state.tricks = tricks
    state._restore(snapshot)
    state._stack = stack
    return state




def make_view(state: HandState, seat: Seat | object, scores: tuple[int, ...] = ()) -> SeatView:
    """Build ``seat``'s view of a :class:`~euchre.state.HandState`."""
    s = state
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise IllegalActionError(f"seat must be 0..{s.n - 1}, not {quote(seat)}")
    hist = s.history
    # A misdeal ends the hand during the declarations, before bidding ever begins.
    n_decl = len(hist) if s.phase == DECLARE or s.outcome == MISDEAL_REDEAL else s.bid_start
    decl = tuple(
        (w, a if (w == seat or a < A.SWAP_BASE) else HIDDEN_SWAP)
        for w, a in hist[:n_decl]
        if w == seat or a != A.PASS  # a declined declaration is invisible at a real table
    )
    visible = (*decl, *public_history(hist[n_decl:], seat))
    return SeatView(
        rules=s.rules,
        seat=seat,
        dealer=s.dealer,
        phase=PHASES[s.phase],
        current_player=s.cur,
        hand=tuple(cards_of(s.hands[seat])),
        upcard=s.upcard,
        upcard_status=UPCARD_STATUS_NAMES[s.up_status],
        trump=s.trump,
        maker=s.maker,
        alone=s.alone,
        lone_defender=s.lone_defender,
        active=s.active,
        history=visible,
        tricks=tuple(s.tricks),
        current_trick=s.trick,
        tricks_won=tuple(s.tricks_won),
        hand_sizes=tuple(h.bit_count() for h in s.hands),
        discard=s.discarded if seat == s.dealer else -1,
        swapped_out=s.swap_given if seat == s.swapper else (),
        swapper=s.swapper,
        legal_actions=tuple(s.legal_actions()) if s.cur == seat else (),
        outcome=s.outcome,
        points=s.points,
        scores=scores,
        rows=tuple(
            tuple((top, FACE_DOWN if s.hands[w] >> top & 1 else under)
                  for top, under in s.columns[w])
            for w in range(s.n)
        ) if s.columns else (),
    )

