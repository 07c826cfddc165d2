"""Many hands stepped at once: a numba kernel for training and for measuring.

The kernel plays the engine's rules for four-handed Euchre with the 24-card deck and the
standard scoring, with any mix of the common table options: stick the dealer, going alone
(declared with the bid) and defending alone against a lone maker. Other options raise
``ValueError`` naming what is not supported (use the environments for those).

Each hand is one row of an int64 matrix (the layout below), so a batch is stepped by one call
that loops over rows in compiled code. Two ways to drive it:

- :func:`play_random`: whole hands of uniformly random legal actions in one call (what
  ``euchre bench batch`` measures), optionally recording each hand's dealer, deck order and
  action stream so the engine can replay them;
- :class:`BatchSim` (and :func:`play_policy`): the hands advance one decision at a time; each
  round, a policy callback receives the observations (:mod:`euchre.rl.encoding`'s layout, from
  the acting seat's point of view, written by the kernel) and action masks of the unfinished
  hands and returns one action id each.

Speed choices (``play_random``, measured by ``euchre bench batch``): the whole hand in locals,
never in a row; a counter-based generator (splitmix64) in a register, each output serving
several draws by multiplying the random fraction (:func:`_draw`); the deal drawn card by card
from the deck's mask with pdep (:func:`nth_bit`), two hands' deals side by side; the first round
of bidding drawn without a branch; the cards re-encoded per trump (:func:`_in_trump_order`) so
that following suit is a byte and beating a card a comparison, two hands at a time; a follower's
card kept as its bit; the recording compiled out of the kernel that does not record; no array
view made per hand and few arrays passed (each costs numba two atomic reference counts).
Mispredicted branches, chains of dependent operations and then the count of instructions, not
any one costly operation, were most of a hand's time. Elsewhere: int8 tables, ``cache=True``
so the JIT cost (seconds) is paid once per machine, every literal int an int64. Correctness: the
tests replay the recorded random streams through :class:`~euchre.state.HandState` move by move
(same player, same legal actions, same points), check the deals and picks are uniform, and
check the kernel's observations equal the encoder's from the view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
from numba.extending import intrinsic

from euchre import _jitcache
from euchre import actions as A
from euchre.cards import EFFECTIVE_SUIT, JACK, STRENGTH, SUIT_MASK, deck_cards
from euchre.errors import IllegalActionError
from euchre.rl import encoding as E
from euchre.rules import Rules, Scoring
from euchre.seats import Seat, deal_order
from euchre.solver.bits import FAST_BMI2, ctpop, pdep

# Cached kernels compiled against other versions of the modules they read are dropped first.
_HERE = Path(__file__).parent
_jitcache.forget_if_changed(
    __file__, _jitcache.package_sources(_HERE / "encoding.py", _HERE.parent / "solver" / "bits.py"))

F = TypeVar("F", bound=Callable[..., Any])


def _jit(f: F) -> F:
    """numba.njit with the on-disk cache, typed for mypy as the function it compiles."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(f))


def _inline(f: F) -> F:
    """A kernel helper inlined into its callers at numba's IR level: a call passing a row
    array costs several words of arguments and a status check, per decision."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(f))


Ints = npt.NDArray[np.int64]

# ---------------------------------------------------------------------------------------------
# Row layout (int64 columns of one hand)
DEALER, UPCARD, UPST, PHASE, CUR, BIDS, TRUMP, MAKER = 0, 1, 2, 3, 4, 5, 6, 7
ALONE, LONEDEF, ACTIVE, DISCARD, LEADER, LED, WINSEAT, WINSTR = 8, 9, 10, 11, 12, 13, 14, 15
NTRICKS, NCUR, PTS0, PTS1, NACTS, DEFQ, OUTCOME = 16, 17, 18, 19, 20, 21, 22
HANDS = 24  # 4 hand masks
TWON = 28  # 4 tricks won
TRICKS = 32  # 5 tricks x 4 seats: the card each seat played, -1 none
LEADERS = 52  # 5 leaders
ACTS = 57  # 20 acts x (seat, kind)
DECK = 97  # 24 cards: the deck order that was dealt
ROW = 121
MAX_STEPS = 40
"""Decisions in one hand are at most 4 + 4 bids, a discard, 2 defend answers and 20 plays."""

# Phases and up-card places: the engine's numbers (euchre.state)
P_BID1, P_BID2, P_DISCARD, P_DEFEND, P_PLAY, P_OVER = 1, 2, 4, 6, 7, 9
UP_FACE, UP_TAKEN, UP_TURNED_DOWN, UP_LEFT = 0, 1, 2, 3
NO_TRUMP = 4
TERMINAL = -4
SCORED, THROWN_IN = 0, 1

# Rule flags
STICK, GOING_ALONE, DEFEND_ALONE = 1, 2, 4

# Tables (int8 where they fit: PERFORMANCE-NOTES measured +16%)
STR_T = np.array(STRENGTH, dtype=np.int8)  # [trump][led][card]
SMASK_T = np.array(SUIT_MASK, dtype=np.int64)  # [trump][suit]
EFF_T = np.array(EFFECTIVE_SUIT, dtype=np.int8)  # [trump][card]
DEAL_T = np.array([deal_order(4, d) for d in range(4)], dtype=np.int8)  # [dealer][position]
DECK_T = np.array(deck_cards(24), dtype=np.int8)
NEXT_T = np.array([[next(((seat + k) & 3 for k in range(1, 5) if active >> ((seat + k) & 3) & 1),
                          -1) for seat in range(4)] for active in range(16)], dtype=np.int8)
"""NEXT_T[active seats mask][seat]: the next active seat clockwise."""
COUNT_T = np.array([bin(m).count("1") for m in range(16)], dtype=np.int8)
BIT_T = np.zeros(37, dtype=np.int8)  # (1 << c) % 37 -> c: the lowest set bit's card
for _c in range(36):
    BIT_T[(1 << _c) % 37] = _c


def rule_flags(rules: Rules) -> int:
    """The kernel's flags for ``rules``; ValueError naming any option it does not play."""
    bad = []
    if rules.players != 4:
        bad.append(f"players={rules.players}")
    if rules.deck != 24:
        bad.append(f"deck={rules.deck}")
    for name, default in (("farmers_hand", "off"), ("no_ace_no_face", False),
                          ("canadian_loner", False), ("renege", "prevent"),
                          ("alone_timing", "with_bid"), ("dealer_may_discard_upcard", True),
                          ("defend_alone_vs_partners", False)):
        if getattr(rules, name) != default:
            bad.append(f"{name}={getattr(rules, name)!r}")
    if rules.scoring != Scoring():
        bad.append("a custom scoring table")
    if bad:
        raise ValueError(
            "the batch simulator plays four-handed 24-card euchre with stick the dealer, going "
            "alone and defend alone as options; not supported here: " + ", ".join(bad)
            + " (use euchre.rl.pettingzoo_env or the engine for those)")
    return ((STICK if rules.stick_the_dealer else 0)
            | (GOING_ALONE if rules.going_alone else 0)
            | (DEFEND_ALONE if rules.defend_alone else 0))


# ---------------------------------------------------------------------------------------------
# Kernel


@_jit
def _rand(rng: Any, n: Any) -> Any:
    """xorshift64: a uniform int in [0, n) by a multiply and a shift, not a division (bias
    below 2**-27 for n <= 32)."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return np.int64(((x >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


trailing_zeros: Any = _trailing_zeros


@_inline
def nth_bit_by_clearing(mask: Any, r: Any) -> Any:
    """The r-th lowest set bit of ``mask`` (r counted from 0), r low bits cleared one at a
    time: what :func:`nth_bit` does on a CPU without pdep."""
    for _ in range(r):
        mask &= mask - 1
    return mask & -mask


@_inline
def nth_bit(mask: Any, r: Any) -> Any:
    """The r-th lowest set bit of ``mask`` (r counted from 0): pdep where the CPU has it."""
    if FAST_BMI2:
        return pdep(np.int64(1) << r, mask)
    return nth_bit_by_clearing(mask, r)


def _mulhi_typing(typingctx: Any, a: Any, b: Any) -> Any:
    """The high 64 bits of a 64 x 64-bit product (one ``mul`` instruction gives both halves)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        wide = ir.IntType(128)
        p = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(p, ir.Constant(wide, 64)), ir.IntType(64))

    return sig, codegen


_mulhi: Any = cast(Any, intrinsic)(_mulhi_typing)


@_inline
def _draw(u: Any, n: Any) -> Any:
    """A uniform int in [0, n) from the random fraction ``u`` (64 bits), and what is left of
    the fraction for the next draw: ``u * n`` is the draw (its high word) and a fraction again
    (its low word), so one generator output serves several draws. Each draw uses up log2(n)
    of the 64 bits; the callers draw at most 2**35 outcomes from one output, so every draw is
    uniform to within 2**-29."""
    nn = np.uint64(n)
    return np.int64(_mulhi(u, nn)), u * nn


@_inline
def pick_card(hand: Any, u: Any) -> Any:
    """A uniformly random card of the non-empty mask ``hand`` from the random fraction ``u``
    (and what is left of ``u``): the r-th lowest set bit for r uniform below the count, found
    without a branch (mispredicted branches, not arithmetic, were most of a hand's time)."""
    r, u = _draw(u, ctpop(hand))
    return np.int64(trailing_zeros(nth_bit(hand, r))), u


@_inline
def _mix(x: Any) -> Any:
    """splitmix64's output function: the generator is a counter stepped by the golden ratio
    and this mix of it, so the next number never waits for the last (xorshift's state is a
    chain of six dependent operations per number)."""
    z = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


GOLDEN = np.uint64(0x9E3779B97F4A7C15)
DECK_MASK = np.int64(sum(1 << c for c in deck_cards(24)))
TRUMP_SLOT = np.int64(0xFF) << 24
POS_T = np.array([[k for k in range(20) if DEAL_T[3, k] == rel] for rel in range(4)],
                 dtype=np.int64)
"""POS_T[r]: the deck positions dealt to the seat r places left of the dealer's left."""
ORDER_T = np.zeros((16, 4), dtype=np.int64)
"""ORDER_T[active][leader]: the next three active seats after ``leader``, two bits each."""
for _a in range(16):
    for _s in range(4):
        _seat, _v = _s, 0
        for _j in range(3):
            _seat = max(int(NEXT_T[_a, _seat]), 0)
            _v |= _seat << (2 * _j)
        ORDER_T[_a, _s] = _v


def _in_trump_order(h: Any, t: Any, lanes: Any = 1) -> Any:
    """Re-encode the hand ``h`` so that a card's bit says its strength once ``t`` is trump: the
    trump suit (left bower included) takes the top byte in the order 9 10 Q K A left right, the
    other suits keep their bytes (the suit in the top byte moves to trump's), the left bower
    leaves its suit. A card then beats another of its byte, or any outside the top byte, when
    its number is higher, and the byte of a card is its suit for following. With ``lanes``
    ``LANES2`` ``h`` holds two hands, one in each 32-bit half, re-encoded at once (no bit
    crosses from one half to the other: every shift is masked back into its own)."""
    sis = 3 - t
    tb = (h >> (8 * t)) & (0xFF * lanes)
    lb = (h >> (8 * sis + JACK)) & lanes
    top = ((tb >> 2) & (0x3B * lanes)) | (lb << 6) | (((tb >> JACK) & lanes) << 7)
    rest = h & ~((0xFF * lanes) << (8 * t)) & ~(lanes << (8 * sis + JACK))
    rest = (rest & (0xFFFFFF * lanes)) | (((rest >> 24) & (0xFF * lanes)) << (8 * t))
    return rest | (top << 24)


LANES2 = np.int64(0x1_0000_0001)
"""The lanes of two hands in one int64 for :func:`_in_trump_order`."""
LOW32 = np.int64(0xFFFF_FFFF)
_trump_order = _inline(_in_trump_order)
FROM_TRUMP_ORDER_T = np.full((4, 32), -1, dtype=np.int8)
"""FROM_TRUMP_ORDER_T[trump][bit]: the card id of a bit of :func:`_in_trump_order`."""
for _t in range(4):
    for _c in deck_cards(24):
        FROM_TRUMP_ORDER_T[_t, int(_in_trump_order(1 << _c, _t)).bit_length() - 1] = _c


@_jit
def _deal(s: Any, dealer: Any) -> None:
    """Fill row ``s`` for a new hand from the deck order already in ``s[DECK:]``."""
    # Only what a new hand reads before writing: the scalars, hands, tricks won and the trick
    # table (leaders and acts are read only below the counts NTRICKS and NACTS).
    for k in range(TRICKS):
        s[k] = 0
    for k in range(TRICKS, TRICKS + 20):
        s[k] = -1
    for k in range(20):
        seat = DEAL_T[dealer, k]
        s[HANDS + seat] |= np.int64(1) << s[DECK + k]
    s[DEALER] = dealer
    s[UPCARD] = s[DECK + 20]
    s[UPST] = UP_FACE
    s[PHASE] = P_BID1
    s[CUR] = (dealer + 1) & 3
    s[TRUMP] = NO_TRUMP
    s[MAKER] = -1
    s[LONEDEF] = -1
    s[ACTIVE] = 15
    s[DISCARD] = -1
    s[LEADER] = -1
    s[LED] = -1
    s[WINSEAT] = -1


@_jit
def _shuffle_deal(s: Any, rng: Any) -> None:
    for k in range(24):
        s[DECK + k] = DECK_T[k]
    for i in range(23, 0, -1):
        j = _rand(rng, i + 1)
        t = s[DECK + i]
        s[DECK + i] = s[DECK + j]
        s[DECK + j] = t
    _deal(s, _rand(rng, 4))


@_inline
def _next_active(s: Any, seat: Any) -> Any:
    return np.int64(NEXT_T[s[ACTIVE], seat])


@_inline
def _act(s: Any, seat: Any, kind: Any) -> None:
    k = s[NACTS]
    s[ACTS + 2 * k] = seat
    s[ACTS + 2 * k + 1] = kind
    s[NACTS] = k + 1


@_inline
def _start_play(s: Any) -> None:
    s[PHASE] = P_PLAY
    e = (s[DEALER] + 1) & 3
    s[CUR] = e if (s[ACTIVE] >> e) & 1 else _next_active(s, e)


@_inline
def _defender(s: Any, k: Any) -> Any:
    """The ``k``-th defender from the dealer's left (defenders are asked in that order)."""
    m = s[MAKER]
    for i in range(4):
        seat = (s[DEALER] + 1 + i) & 3
        if (seat & 1) != (m & 1):
            if k == 0:
                return seat
            k -= 1
    return -1


@_inline
def _start_defence(s: Any, flags: Any) -> None:
    if (flags & DEFEND_ALONE) and s[ALONE]:
        s[PHASE] = P_DEFEND
        s[DEFQ] = 0
        s[CUR] = _defender(s, 0)
    else:
        _start_play(s)


@_inline
def _make(s: Any, seat: Any, suit: Any, alone: Any) -> None:
    s[TRUMP] = suit
    s[MAKER] = seat
    if alone:
        s[ALONE] = 1
        s[ACTIVE] &= ~(np.int64(1) << ((seat + 2) & 3))


@_inline
def _finish(s: Any, outcome: Any) -> None:
    s[OUTCOME] = outcome
    s[PHASE] = P_OVER
    s[CUR] = TERMINAL


@_inline
def _score(s: Any) -> None:
    m = s[MAKER]
    made = s[TWON + m] + s[TWON + ((m + 2) & 3)]
    if made >= 3:
        value = 1 if made < 5 else (4 if s[ALONE] else 2)
        s[PTS0 + (m & 1)] = value
    else:
        s[PTS0 + 1 - (m & 1)] = 4 if s[LONEDEF] >= 0 else 2
    _finish(s, SCORED)


def _legal_body(s: Any, flags: Any, buf: Any) -> Any:
    """Write the legal action ids of the player to act into ``buf``, sorted; return the count."""
    p = s[PHASE]
    cur = s[CUR]
    n = 0
    if p == P_PLAY:
        hand = s[HANDS + cur]
        if s[NCUR] > 0:
            follow = hand & SMASK_T[s[TRUMP], s[LED]]
            if follow:
                hand = follow
        while hand:
            low = hand & -hand
            buf[n] = BIT_T[low % 37]
            n += 1
            hand ^= low
        # Bits come out lowest first: already sorted.
        return n
    if p == P_BID1:
        buf[0] = A.PASS
        buf[1] = A.ORDER
        n = 2
        if flags & GOING_ALONE:
            buf[2] = A.ORDER_ALONE
            n = 3
        return n
    if p == P_BID2:
        dead = s[UPCARD] >> 3
        if not ((flags & STICK) and cur == s[DEALER]):
            buf[0] = A.PASS
            n = 1
        for suit in range(4):
            if suit != dead:
                buf[n] = A.CALL_BASE + suit
                n += 1
        if flags & GOING_ALONE:
            for suit in range(4):
                if suit != dead:
                    buf[n] = A.CALL_ALONE_BASE + suit
                    n += 1
        return n
    if p == P_DISCARD:
        hand = s[HANDS + cur]
        while hand:
            low = hand & -hand
            buf[n] = A.DISCARD_BASE + BIT_T[low % 37]
            n += 1
            hand ^= low
        return n
    if p == P_DEFEND:
        buf[0] = A.PASS
        buf[1] = A.DEFEND_ALONE
        return 2
    return 0


_legal = _jit(_legal_body)


@_jit
def _is_legal(s: Any, flags: Any, a: Any, buf: Any) -> Any:
    n = _legal(s, flags, buf)
    for k in range(n):  # noqa: SIM110 - numba compiles loops, not generator expressions
        if buf[k] == a:
            return True
    return False


def _apply_body(s: Any, a: Any, flags: Any) -> None:
    """Apply a legal action to row ``s`` (the engine's transitions, four-handed subset)."""
    seat = s[CUR]
    p = s[PHASE]
    if p == P_PLAY:
        bit = np.int64(1) << a
        s[HANDS + seat] ^= bit
        t = s[NTRICKS]
        s[TRICKS + 4 * t + seat] = a
        trump = s[TRUMP]
        if s[NCUR] == 0:
            led = EFF_T[trump, a]
            s[LED] = led
            s[LEADER] = seat
            s[LEADERS + t] = seat
            s[WINSEAT] = seat
            s[WINSTR] = STR_T[trump, led, a]
            s[NCUR] = 1
            s[CUR] = _next_active(s, seat)
            return
        st = STR_T[trump, s[LED], a]
        if st > s[WINSTR]:
            s[WINSTR] = st
            s[WINSEAT] = seat
        s[NCUR] += 1
        if s[NCUR] < COUNT_T[s[ACTIVE]]:
            s[CUR] = _next_active(s, seat)
            return
        w = s[WINSEAT]
        s[TWON + w] += 1
        s[NTRICKS] = t + 1
        s[NCUR] = 0
        if t + 1 == 5:
            _score(s)
        else:
            s[CUR] = w
        return
    if p == P_BID1:
        if a == A.PASS:
            _act(s, seat, E.KIND_PASS)
            s[BIDS] += 1
            if s[BIDS] == 4:
                s[UPST] = UP_TURNED_DOWN
                s[PHASE] = P_BID2
                s[BIDS] = 0
                s[CUR] = (s[DEALER] + 1) & 3
            else:
                s[CUR] = (seat + 1) & 3
            return
        alone = 1 if a == A.ORDER_ALONE else 0
        _act(s, seat, E.KIND_ORDER_ALONE if alone else E.KIND_ORDER)
        _make(s, seat, s[UPCARD] >> 3, alone)
        d = s[DEALER]
        if not (s[ACTIVE] >> d) & 1:
            s[UPST] = UP_LEFT  # the dealer sits out: the up-card stays in the kitty
            _start_defence(s, flags)
            return
        s[HANDS + d] |= np.int64(1) << s[UPCARD]
        s[UPST] = UP_TAKEN
        s[PHASE] = P_DISCARD
        s[CUR] = d
        return
    if p == P_BID2:
        if a == A.PASS:
            _act(s, seat, E.KIND_PASS)
            s[BIDS] += 1
            if s[BIDS] == 4:
                _finish(s, THROWN_IN)
            else:
                s[CUR] = (seat + 1) & 3
            return
        if a >= A.CALL_ALONE_BASE:
            _act(s, seat, E.KIND_CALL_ALONE + a - A.CALL_ALONE_BASE)
            _make(s, seat, a - A.CALL_ALONE_BASE, 1)
        else:
            _act(s, seat, E.KIND_CALL + a - A.CALL_BASE)
            _make(s, seat, a - A.CALL_BASE, 0)
        _start_defence(s, flags)
        return
    if p == P_DISCARD:
        c = a - A.DISCARD_BASE
        _act(s, seat, E.KIND_DISCARD)
        s[HANDS + seat] ^= np.int64(1) << c
        s[DISCARD] = c
        _start_defence(s, flags)
        return
    if p == P_DEFEND:
        if a == A.DEFEND_ALONE:
            _act(s, seat, E.KIND_DEFEND_ALONE)
            s[LONEDEF] = seat
            s[ACTIVE] &= ~(np.int64(1) << ((seat + 2) & 3))
            _start_play(s)
            return
        _act(s, seat, E.KIND_PASS)
        s[DEFQ] += 1
        if s[DEFQ] == 2:
            _start_play(s)
        else:
            s[CUR] = _defender(s, s[DEFQ])
        return


_apply = _jit(_apply_body)


@_jit
def _encode(s: Any, me: Any, o: Any) -> None:
    """Write ``me``'s observation of row ``s`` into ``o`` (zeroed here): the layout of
    :func:`euchre.rl.encoding.encode`, from what ``me`` may know only."""
    for k in range(o.shape[0]):
        o[k] = 0.0
    hand = s[HANDS + me]
    while hand:
        low = hand & -hand
        o[E.O_HAND + BIT_T[low % 37]] = 1.0
        hand ^= low
    o[E.O_UPCARD + s[UPCARD]] = 1.0
    o[E.O_UPSTATUS + s[UPST]] = 1.0
    o[E.O_DEALER + ((s[DEALER] - me) & 3)] = 1.0
    o[E.O_PHASE + s[PHASE]] = 1.0
    o[E.O_TRUMP + s[TRUMP]] = 1.0
    o[E.O_MAKER + (4 if s[MAKER] < 0 else (s[MAKER] - me) & 3)] = 1.0
    o[E.O_ALONE] = 1.0 if s[ALONE] else 0.0
    o[E.O_LONE_DEF + (4 if s[LONEDEF] < 0 else (s[LONEDEF] - me) & 3)] = 1.0
    for seat in range(4):
        if (s[ACTIVE] >> seat) & 1:
            o[E.O_ACTIVE + ((seat - me) & 3)] = 1.0
    o[E.O_TO_ACT + (4 if s[CUR] < 0 else (s[CUR] - me) & 3)] = 1.0
    if me == s[DEALER] and s[DISCARD] >= 0:
        o[E.O_DISCARD + s[DISCARD]] = 1.0
    o[E.O_SWAPPER + 4] = 1.0  # no farmer's swap in these rules
    for k in range(s[NACTS]):
        base = E.O_ACTS + k * E.ACT_WIDTH
        o[base + ((s[ACTS + 2 * k] - me) & 3)] = 1.0
        o[base + E.MAX_SEATS + s[ACTS + 2 * k + 1]] = 1.0
    shown = s[NTRICKS] + (1 if s[NCUR] > 0 else 0)
    for t in range(shown):
        o[E.O_LEADERS + t * 4 + ((s[LEADERS + t] - me) & 3)] = 1.0
        for seat in range(4):
            c = s[TRICKS + 4 * t + seat]
            if c >= 0:
                o[E.O_TRICKS + (t * 4 + ((seat - me) & 3)) * E.NUM_CARDS + c] = 1.0
    for seat in range(4):
        o[E.O_TRICKS_WON + ((seat - me) & 3)] = s[TWON + seat] / 5.0


# ---------------------------------------------------------------------------------------------
# Batch entry points (compiled)


@_inline
def _bid(x: Any, hs: Any, row: Any, dealer: Any, up: Any, flags: Any, record: Any, rec: Any,
         i: Any) -> Any:
    """Random bidding (and the dealer's discard, and the defenders' answers) of the hand dealt
    into row ``row`` of ``hs``, in locals (``row``, not ``b``: named ``b`` like the loop in its
    caller, the kernel gave wrong points). The first round is drawn without a branch: four
    answers at once, the first that is not a pass stands (a random branch mispredicts every
    other hand). Returns (generator, maker or -1 if thrown in, alone, trump, active seats, lone
    defender or -1, decisions)."""
    nb1 = 3 if flags & GOING_ALONE else 2
    x += GOLDEN
    u = _mix(x)
    c0, u = _draw(u, nb1)
    c1, u = _draw(u, nb1)
    c2, u = _draw(u, nb1)
    c3, u = _draw(u, nb1)
    first = np.int64(trailing_zeros(np.int64(c0 != 0) | (np.int64(c1 != 0) << 1)
                                    | (np.int64(c2 != 0) << 2) | (np.int64(c3 != 0) << 3)
                                    | 16))
    active = np.int64(15)
    lonedef = np.int64(-1)
    if first < 4:
        cf = ((c0 | (c1 << 2) | (c2 << 4) | (c3 << 6)) >> (2 * first)) & 3
        maker = (dealer + 1 + first) & 3
        alone = cf - 1
        trump = up >> 3
        if record:
            for b in range(first):
                rec[i, R_ACTS + b] = A.PASS
            rec[i, R_ACTS + first] = A.PASS + cf  # ORDER or ORDER_ALONE
        k = first + 1
        active ^= alone << ((maker + 2) & 3)
        plays = (active >> dealer) & 1  # else the dealer sits out: the up-card stays down
        h = hs[row, dealer] | (np.int64(1) << up)
        d, u = pick_card(h, u)
        hs[row, dealer] = (h ^ (np.int64(1) << d)) if plays else hs[row, dealer]
        if record and plays:
            rec[i, R_ACTS + k] = A.DISCARD_BASE + d
        k += plays
    else:
        k = np.int64(4)
        if record:
            for b in range(4):
                rec[i, R_ACTS + b] = A.PASS
        maker = np.int64(-1)
        alone = np.int64(0)
        trump = np.int64(NO_TRUMP)
        dead = up >> 3
        calls = 6 if flags & GOING_ALONE else 3
        x += GOLDEN
        u = _mix(x)
        for b in range(4):
            seat = (dealer + 1 + b) & 3
            stuck = (flags & STICK) != 0 and seat == dealer
            c, u = _draw(u, calls if stuck else calls + 1)
            if not stuck:
                if c == 0:
                    if record:
                        rec[i, R_ACTS + k] = A.PASS
                    k += 1
                    continue
                c -= 1
            alone = np.int64(1) if c >= 3 else np.int64(0)
            t = c - 3 * alone
            suit = t + (1 if t >= dead else 0)  # the t-th suit other than the turned-down one
            if record:
                rec[i, R_ACTS + k] = (A.CALL_ALONE_BASE if alone else A.CALL_BASE) + suit
            k += 1
            maker = seat
            trump = suit
            active ^= alone << ((maker + 2) & 3)
            break
    if maker >= 0 and (flags & DEFEND_ALONE) and alone:
        x += GOLDEN
        u = _mix(x)
        for b in range(4):
            seat = (dealer + 1 + b) & 3
            if (seat & 1) == (maker & 1):
                continue
            c, u = _draw(u, 2)
            if record:
                rec[i, R_ACTS + k] = A.DEFEND_ALONE if c else A.PASS
            k += 1
            if c:
                lonedef = seat
                active ^= np.int64(1) << ((seat + 2) & 3)
                break
    return x, maker, alone, trump, active, lonedef, k


@_inline
def _trick(u: Any, hs: Any, row: Any, leader: Any, trump: Any, active: Any, others: Any,
           record: Any, rec: Any, i: Any, k: Any) -> Any:
    """One random trick of the hand in row ``row`` of ``hs`` (cards in :func:`_in_trump_order`,
    so following is a byte and winning a comparison, with no table on the path from one
    trick's winner to the next lead), its draws from the fraction ``u`` (a hand's 20 plays
    have at most 5!**4 < 2**28 outcomes: one generator output serves them all). A follower's
    card is kept as its bit, the bit's index never taken: its bit if it follows suit or is
    trump, else 0, beats the best so far when it is the larger number (8% of a hand: the
    index and the two tests it took were most of a follower's instructions). Returns (what is
    left of ``u``, winner, decisions)."""
    leader &= 3
    order = ORDER_T[active, leader]
    hand = hs[row, leader]
    c, u = pick_card(hand, u)
    best = np.int64(1) << c
    hs[row, leader] = hand ^ best
    if record:
        rec[i, R_ACTS + k] = FROM_TRUMP_ORDER_T[trump, c]
    k += 1
    follow = np.int64(0xFF) << (c & 0x38)
    counts = follow | TRUMP_SLOT
    win = leader
    for _ in range(others):
        seat = order & 3
        order >>= 2
        hand = hs[row, seat]
        f = hand & follow
        legal = f if f != 0 else hand
        r, u = _draw(u, ctpop(legal))
        bit = nth_bit(legal, r)
        hs[row, seat] = hand ^ bit
        if record:
            rec[i, R_ACTS + k] = FROM_TRUMP_ORDER_T[trump, trailing_zeros(bit)]
        k += 1
        counted = bit & counts  # 0 unless it follows suit or is trump
        gt = counted > best
        best = counted if gt else best
        win = seat if gt else win
    return u, win, k


@_inline
def _write_points(points: Any, i: Any, maker: Any, alone: Any, lonedef: Any,
                  made: Any) -> None:
    if maker < 0:
        points[i, 0] = 0
        points[i, 1] = 0
        return
    side = maker & 1
    won = np.int64(1) if made < 5 else 2 + 2 * alone
    points[i, side] = won if made >= 3 else 0
    points[i, 1 - side] = 0 if made >= 3 else (4 if lonedef >= 0 else 2)


H_MAKER, H_ALONE, H_TRUMP, H_ACTIVE, H_LONEDEF, H_DECISIONS, H_LEADER, H_FOLLOWERS = range(4, 12)
"""Columns of a dealt and bid hand's facts while its cards are played, in its ``work`` row
after the four hands (see :func:`_deal_and_bid`)."""
R_DEALER, R_DECK, R_ACTS = 0, 1, 25
R_WIDTH = R_ACTS + MAX_STEPS
"""A recorded hand's row (``rec``): its dealer, its deck (24 cards, top first), its actions
(-1 after the last); one array, not three, for the reason ``work`` is one."""


@_jit
def _deal_and_bid(x: Any, work: Any, pair: Any, flags: Any, record: Any, rec: Any,
                  i: Any) -> Any:
    """Deal hands ``i`` and ``i + 1`` into rows 0 and 1 of ``work`` and bid them (:func:`_bid`);
    their facts go to the rows' H_* columns and, for a hand that is played, its cards to
    :func:`_in_trump_order`. A function of its own, not inlined: called once a pair, it costs
    little, and each kernel that inlined it took seconds longer to compile. The deal draws
    each seat's five cards in turn from the deck's mask (one generator output a seat), then
    the up-card from the four left; the two hands' deals go step by step side by side, so that
    while one waits for its last card to leave the mask (each draw needs the mask the draw
    before left) the CPU works on the other's. With ``pair`` 1 the second hand is dealt but
    neither recorded nor bid. Returns the generator."""
    x += GOLDEN
    u0 = _mix(x)
    x += GOLDEN
    u1 = _mix(x)
    dealer0, u0 = _draw(u0, 4)
    dealer1, u1 = _draw(u1, 4)
    rem0 = DECK_MASK
    rem1 = DECK_MASK
    for rel in range(4):
        if rel > 0:
            x += GOLDEN
            u0 = _mix(x)
            x += GOLDEN
            u1 = _mix(x)
        m0 = np.int64(0)
        m1 = np.int64(0)
        for j in range(5):
            left = 24 - 5 * rel - j
            r0, u0 = _draw(u0, left)
            r1, u1 = _draw(u1, left)
            bit0 = nth_bit(rem0, r0)
            bit1 = nth_bit(rem1, r1)
            rem0 ^= bit0
            rem1 ^= bit1
            m0 |= bit0
            m1 |= bit1
            if record:
                rec[i, R_DECK + POS_T[rel, j]] = trailing_zeros(bit0)
                if pair == 2:
                    rec[i + 1, R_DECK + POS_T[rel, j]] = trailing_zeros(bit1)
        work[0, (dealer0 + 1 + rel) & 3] = m0
        work[1, (dealer1 + 1 + rel) & 3] = m1
    up0, u0 = pick_card(rem0, u0)
    up1, u1 = pick_card(rem1, u1)
    for b in range(pair):
        dealer = dealer0 if b == 0 else dealer1
        up = up0 if b == 0 else up1
        if record:
            rem = (rem0 if b == 0 else rem1) ^ (np.int64(1) << up)
            rec[i + b, R_DEALER] = dealer
            rec[i + b, R_DECK + 20] = up
            for k in range(21, 24):
                low = rem & -rem
                rec[i + b, R_DECK + k] = trailing_zeros(low)
                rem ^= low
        x, maker, alone, trump, active, lonedef, k = _bid(x, work, b, dealer, up, flags, record,
                                                          rec, i + b)
        work[b, H_MAKER] = maker
        work[b, H_ALONE] = alone
        work[b, H_TRUMP] = trump
        work[b, H_ACTIVE] = active
        work[b, H_LONEDEF] = lonedef
        work[b, H_DECISIONS] = k
        if maker >= 0:
            for q in range(0, 4, 2):  # two hands at once: 7% of a hand, one at a time
                two = _trump_order(work[b, q] | (work[b, q + 1] << 32), trump, LANES2)
                work[b, q] = two & LOW32
                work[b, q + 1] = (two >> 32) & LOW32
            work[b, H_FOLLOWERS] = np.int64(COUNT_T[active]) - 1
            e = (dealer + 1) & 3
            work[b, H_LEADER] = e if (active >> e) & 1 else np.int64(NEXT_T[active, e])
    return x


def _random_hands_body(n: Any, seed: Any, flags: Any, record: Any, points: Any,
                       rec: Any) -> Any:
    """Play ``n`` random hands; return the number of decisions. With ``record``, keep each
    hand's dealer, deck and actions (-1 padded) for replay.

    Hands go in pairs: both are dealt side by side and bid, then their tricks are played
    alternately, so that while one trick waits for the last (its winner leads the next) the CPU
    works on the other hand's (10% faster). A pair's hands and facts are the two rows of
    ``work``, indexed in place: a row taken as a view of its own costs two atomic reference
    counts, 8% of a hand; each array passed to :func:`_deal_and_bid` costs two a pair (hence
    one ``work`` and one ``rec``, 2% of a hand against five arrays). The generator's state
    is a local (a register)."""
    x = np.uint64(seed) * GOLDEN
    work = np.zeros((2, H_FOLLOWERS + 1), dtype=np.int64)
    steps = 0
    for i in range(0, n, 2):
        pair = 2 if i + 1 < n else 1
        x = _deal_and_bid(x, work, pair, flags, record, rec, i)
        x += GOLDEN
        u0 = _mix(x)
        x += GOLDEN
        u1 = _mix(x)
        w0 = work[0, H_LEADER]
        w1 = work[1, H_LEADER]
        k0 = work[0, H_DECISIONS]
        k1 = work[1, H_DECISIONS]
        m0 = work[0, H_MAKER]
        m1 = work[1, H_MAKER] if pair == 2 else np.int64(-1)
        made0 = 0
        made1 = 0
        if m0 >= 0 and m1 >= 0:
            t0 = work[0, H_TRUMP]
            a0 = work[0, H_ACTIVE]
            f0 = work[0, H_FOLLOWERS]
            t1 = work[1, H_TRUMP]
            a1 = work[1, H_ACTIVE]
            f1 = work[1, H_FOLLOWERS]
            for _ in range(5):
                u0, w0, k0 = _trick(u0, work, 0, w0, t0, a0, f0, record, rec, i, k0)
                u1, w1, k1 = _trick(u1, work, 1, w1, t1, a1, f1, record, rec, i + 1, k1)
                made0 += ((w0 ^ m0) & 1) ^ 1
                made1 += ((w1 ^ m1) & 1) ^ 1
        elif m0 >= 0 or m1 >= 0:  # the other was thrown in (or there is only one)
            b = 0 if m0 >= 0 else 1
            w = w0 if b == 0 else w1
            k = k0 if b == 0 else k1
            u = u0 if b == 0 else u1
            made = 0
            for _ in range(5):
                u, w, k = _trick(u, work, b, w, work[b, H_TRUMP], work[b, H_ACTIVE],
                                 work[b, H_FOLLOWERS], record, rec, i + b, k)
                made += ((w ^ work[b, H_MAKER]) & 1) ^ 1
            if b == 0:
                k0 = k
                made0 = made
            else:
                k1 = k
                made1 = made
        _write_points(points, i, m0, work[0, H_ALONE], work[0, H_LONEDEF], made0)
        steps += k0
        if pair == 2:
            _write_points(points, i + 1, m1, work[1, H_ALONE], work[1, H_LONEDEF], made1)
            steps += k1
    return steps


_random_body = _inline(_random_hands_body)


@_jit
def _random_hands(n: Any, seed: Any, flags: Any, points: Any) -> Any:
    """:func:`_random_hands_body` with nothing recorded: a constant ``record`` lets the
    compiler drop every recording branch from the loop."""
    none = np.zeros((0, R_WIDTH), dtype=np.int64)
    return _random_body(n, seed, flags, False, points, none)


@_jit
def _random_hands_recorded(n: Any, seed: Any, flags: Any, points: Any, rec: Any) -> Any:
    return _random_body(n, seed, flags, True, points, rec)


@_jit
def _reset_rows(st: Any, rng: Any) -> None:
    for i in range(st.shape[0]):
        _shuffle_deal(st[i], rng)


@_jit
def _set_rows(st: Any, dealers: Any, decks: Any) -> None:
    for i in range(st.shape[0]):
        for k in range(24):
            st[i, DECK + k] = decks[i, k]
        _deal(st[i], dealers[i])


@_jit
def _observe_rows(st: Any, idx: Any, flags: Any, obs: Any, masks: Any) -> None:
    buf = np.zeros(32, dtype=np.int64)
    for j in range(idx.shape[0]):
        s = st[idx[j]]
        _encode(s, s[CUR], obs[j])
        for k in range(masks.shape[1]):
            masks[j, k] = 0
        m = _legal(s, flags, buf)
        for k in range(m):
            masks[j, buf[k]] = 1


@_jit
def _step_rows(st: Any, idx: Any, actions: Any, flags: Any) -> Any:
    """Apply ``actions[j]`` to hand ``idx[j]``, all or none: the position of the first illegal
    action (nothing applied), or -1."""
    buf = np.zeros(32, dtype=np.int64)
    for j in range(idx.shape[0]):
        s = st[idx[j]]
        if s[PHASE] == P_OVER or not _is_legal(s, flags, actions[j], buf):
            return j
    for j in range(idx.shape[0]):
        _apply(st[idx[j]], actions[j], flags)
    return -1


@_jit
def _observe_seat(st: Any, seat: Any, obs: Any) -> None:
    for i in range(st.shape[0]):
        _encode(st[i], seat, obs[i])


# ---------------------------------------------------------------------------------------------
# Python API


@dataclass(frozen=True)
class RandomRun:
    """What :func:`play_random` returns: points per hand by side (0 = seats 0 and 2) and, when
    recorded, each hand's dealer, deck order (top first) and actions (-1 after the last)."""

    points: Ints
    decisions: int
    dealers: Ints | None = None
    decks: Ints | None = None
    actions: Ints | None = None


def play_random(rules: Rules, hands: int, seed: int = 0, record: bool = False) -> RandomRun:
    """``hands`` whole hands of uniformly random legal actions, in one compiled call."""
    flags = rule_flags(rules)
    if hands < 0:
        raise ValueError(f"hands must be zero or more, not {hands}")
    points = np.zeros((hands, 2), dtype=np.int64)
    if not record:
        return RandomRun(points, int(_random_hands(np.int64(hands), np.int64(seed),
                                                   np.int64(flags), points)))
    rec = np.full((hands, R_WIDTH), -1, dtype=np.int64)
    steps = _random_hands_recorded(np.int64(hands), np.int64(seed), np.int64(flags), points, rec)
    return RandomRun(points, int(steps), rec[:, R_DEALER].copy(),
                     rec[:, R_DECK:R_DECK + 24].copy(), rec[:, R_ACTS:].copy())


Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8], Ints], Any]
"""``policy(observations, masks, seats) -> actions``: one row per unfinished hand; ``seats`` is
each hand's acting seat (so one policy can play some seats and another the rest)."""


class BatchSim:
    """``hands`` hands stepped together, one decision per hand per :meth:`step`."""

    def __init__(self, rules: Rules, hands: int, seed: int = 0) -> None:
        self.flags = np.int64(rule_flags(rules))
        if hands <= 0:
            raise ValueError(f"hands must be at least 1, not {hands}")
        self.rules = rules
        self.state = np.zeros((hands, ROW), dtype=np.int64)
        mixed = (int(seed) * 0x9E3779B97F4A7C15 | 1) & (2**64 - 1)
        self._rng = np.array([mixed], dtype=np.uint64)
        self.reset()

    def reset(self) -> None:
        """Deal every hand again (random dealers and decks from the simulator's generator)."""
        _reset_rows(self.state, self._rng)

    def set_deals(self, dealers: Ints, decks: Ints) -> None:
        """Deal given hands: ``decks[i]`` (24 card ids, top first) dealt by ``dealers[i]``."""
        _set_rows(self.state, np.asarray(dealers, dtype=np.int64),
                  np.asarray(decks, dtype=np.int64))

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.state[:, PHASE] == P_OVER)

    @property
    def current_players(self) -> Ints:
        return self.state[:, CUR].copy()

    @property
    def points(self) -> Ints:
        """(hands, 2): points of side 0 (seats 0, 2) and side 1, once a hand is over."""
        return self.state[:, PTS0:PTS1 + 1].copy()

    def unfinished(self) -> Ints:
        return np.flatnonzero(self.state[:, PHASE] != P_OVER).astype(np.int64)

    def observe(self, idx: Ints | None = None
                ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Observations and action masks of the acting seat of hands ``idx`` (default: the
        unfinished ones)."""
        idx = self.unfinished() if idx is None else np.asarray(idx, dtype=np.int64)
        obs = np.zeros((len(idx), E.OBS_SIZE), dtype=np.float32)
        masks = np.zeros((len(idx), A.NUM_ACTIONS), dtype=np.int8)
        _observe_rows(self.state, idx, self.flags, obs, masks)
        return obs, masks

    def observe_seat(self, seat: Seat) -> npt.NDArray[np.float32]:
        """Every hand as ``seat`` sees it (used to check the kernel against the encoder)."""
        obs = np.zeros((len(self.state), E.OBS_SIZE), dtype=np.float32)
        _observe_seat(self.state, np.int64(seat), obs)
        return obs

    def step(self, actions: Ints, idx: Ints | None = None) -> None:
        """Apply one action to each hand of ``idx`` (default: the unfinished ones); an illegal
        action raises IllegalActionError and no hand changes."""
        idx = self.unfinished() if idx is None else np.asarray(idx, dtype=np.int64)
        acts = np.asarray(actions, dtype=np.int64)
        if acts.shape != idx.shape:
            raise ValueError(f"give one action per hand: {len(idx)} hands, {acts.shape} actions")
        bad = int(_step_rows(self.state, idx, acts, self.flags))
        if bad >= 0:
            raise IllegalActionError(
                f"action {int(acts[bad])} is not legal in hand {int(idx[bad])} (or it is over)")

    def run(self, policy: Policy) -> Ints:
        """Step every hand to its end with ``policy``; returns the points (hands, 2)."""
        while True:
            idx = self.unfinished()
            if len(idx) == 0:
                return self.points
            obs, masks = self.observe(idx)
            self.step(np.asarray(policy(obs, masks, self.state[idx, CUR]), dtype=np.int64), idx)


def play_policy(rules: Rules, policy: Policy, hands: int, seed: int = 0) -> Ints:
    """``hands`` hands played by ``policy`` (see :data:`Policy`); points per hand by side."""
    return BatchSim(rules, hands, seed).run(policy)


def random_policy(seed: int = 0) -> Policy:
    """A uniformly random policy over the mask, from its own numpy generator."""
    rng = np.random.default_rng(seed)

    def policy(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.int8], seats: Ints) -> Ints:
        u = rng.random(masks.shape) * masks
        chosen: Ints = np.argmax(u, axis=1).astype(np.int64)
        return chosen

    return policy
