"""The compiled double-dummy kernel (numba): the same search as the reference, built for speed.

Importing this module needs numba and numpy (the ``[fast]`` extra); :mod:`euchre.solver` falls
back to the plain-Python reference when either is missing. A whole batch of positions goes to
one compiled call, so a search player pays Python's cost once per decision, not per world. A
position travels as five integers (the four hands by card id and one of packed small facts,
:func:`_pack`), and a single position goes to an entry that takes them as plain arguments and
returns one integer: making numpy arrays and numba's checks of array arguments cost more than
most of a small solve.

Encoding (the kernel's only trick that the reference does not share): per trump, each card gets
a bit whose 16-bit field is its effective suit (trump in the top field, so any trump outranks
any plain card) and whose position inside the field is its strength there (the Joker, the right
bower and the left bower on top of the trump field). Following suit is one ``&`` with a field;
"does this card take the trick" is one comparison; the next higher card still in play is the
lowest set bit above it.

The search (alpha-beta on the makers' tricks, as :mod:`euchre.solver.reference`, but iterative
with an explicit stack, which numba compiles far better than a deep recursion): equivalent
cards searched once; the window checked against 0 and the tricks left before any work; sure
tricks at trick boundaries (the holder of the top trump wins with its unbroken run of top
trumps; a leader who can draw every other trump then cashes all its trumps and suit tops);
a transposition table of lower/upper bounds and the best card at trick boundaries, keyed by
the hands with the cards out of play squeezed out of each suit and by the leader (open
addressing, 4,096 entries, made invisible per position by a generation stamp rather than
cleared); the last trick played out without search; moves ordered with the table's best card
first, then for a leader its cards on top of a suit and then its others (high first), and
for a follower the cheapest card that takes the trick (or simply the cheapest when the team
already holds it).

The table and stack are kept per process in one buffer, behind a lock, so threads calling the
solver take turns; processes each have their own.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numba
import numpy as np
from numba.cpython.unsafe import numbers as _bits

from euchre import _jitcache
from euchre.cards import EFFECTIVE_SUIT, NUM_CARD_IDS, POWER
from euchre.solver.bits import FAST_BMI2, ctpop, pext
from euchre.solver.position import Position

# Cached kernels compiled against other versions of the modules they read are dropped first.
_jitcache.forget_if_changed(
    __file__, _jitcache.package_sources(Path(__file__).with_name("position.py"),
                                        Path(__file__).with_name("bits.py")))

FIELD_BITS = 16
TRUMP_FIELD = 3
MAX_MOVES = 5
TT_BITS = 12
TT_SIZE = 1 << TT_BITS
TT_MIN_TRICKS = 2
"""Positions with fewer tricks left are searched, not looked up: the search is cheaper."""
# Columns of a position's row in the ``out`` array.
O_BITS = 0  # .. 4: the mover's lawful cards (bits), -1 after the last
O_VALS = 5  # .. 9: the makers' tricks from now on after each
OUT_COLS = 10
# Bit fields of the one integer that carries a position's small facts to the kernel (beside
# the four hands): trump in bits 0-1, then:
X_MOVER = 2  # the seat to move (2 bits)
X_ACTIVE = 4  # the seats in play (4 bits)
X_MAKERS = 8  # the seats in play for the makers (4 bits)
X_TRICKS_LEFT = 12  # 3 bits
X_TRICK_LEN = 15  # cards on the trick in progress (2 bits)
X_TRICK = 17  # those cards: 8 bits each, seat | card id << 2
X_VALUES_ONLY = 41  # set: the position's value only (else every lawful card's)


def _encoding(trump: int) -> tuple[list[int], list[int]]:
    """(bit of each card id, card id of each bit or -1) under ``trump``."""
    others = [s for s in range(4) if s != trump]
    enc = [-1] * NUM_CARD_IDS
    dec = [-1] * 64
    for c in range(NUM_CARD_IDS):
        s = EFFECTIVE_SUIT[trump][c]
        if s == trump:
            field, strength = TRUMP_FIELD, POWER[trump][c] - 100
        else:
            field, strength = others.index(s), c & 7
        b = field * FIELD_BITS + strength
        enc[c] = b
        dec[b] = c
    return enc, dec


_TABLES = [_encoding(t) for t in range(4)]
ENCODE = np.array([t[0] for t in _TABLES], dtype=np.int64)
"""ENCODE[trump, card id] -> the card's bit in the kernel's encoding."""
DECODE = np.array([t[1] for t in _TABLES], dtype=np.int64)
"""DECODE[trump, bit] -> the card id (-1 for bits no card uses)."""
_DECODE_PY = [t[1] for t in _TABLES]
FIELD_MASK = np.array([((1 << 11) - 1) << (FIELD_BITS * f) for f in range(4)],
                      dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# Kernel


# With NUMBA_DISABLE_JIT=1 (to step through the kernel in plain Python) the LLVM intrinsics
# are unavailable, so plain-Python equivalents stand in.
if getattr(numba.config, "DISABLE_JIT", False):

    def _lsb_index(low: Any) -> Any:
        return np.int64((int(low) & -int(low)).bit_length() - 1)

    def _msb_index(x: Any) -> Any:
        return np.int64(int(x).bit_length() - 1)

else:
    _trailing_zeros: Any = _bits.trailing_zeros
    _leading_zeros: Any = _bits.leading_zeros

    @numba.njit(cache=True)
    def _lsb_index(low: Any) -> Any:
        """Index of the lowest set bit of a non-zero ``low``: one count-trailing-zeros
        instruction (LLVM's cttz, which numba exposes)."""
        return np.int64(_trailing_zeros(low))

    @numba.njit(cache=True)
    def _msb_index(x: Any) -> Any:
        """Index of the highest set bit of a positive ``x`` (LLVM's ctlz)."""
        return np.int64(63 - _leading_zeros(x))


# Columns of the search stack: one row per depth (one card played per level).
C_P, C_NP, C_LF, C_WP, C_WB, C_TB, C_TL = 0, 1, 2, 3, 4, 5, 6
C_A, C_B, C_A0, C_B0, C_BEST, C_NM, C_MI, C_SLOT, C_CARD, C_WON = range(7, 17)
C_KEY = 17  # .. 20: the node's table key (normalised hands)
C_MOVES = 21  # .. 28: the node's moves, in search order
STACK_COLS = 32
MAX_DEPTH = 24
# Transposition table columns.
T_KEY, T_META = 0, 4
TT_COLS = 5
# T_META packs an entry's upper bound (bits 0-2), lower bound (3-5), best card (6-11), and the
# tag (12 up): the generation and the mover, (gen << 2 | p) << 12.
C_BEST_MOVE = 29  # the card that gave C_BEST
C_TT_MOVE = 30  # the best card the table remembers for this node, or -1
NODES = MAX_DEPTH - 1  # the stack's last row (never a search depth) counts nodes in column 0
SCRATCH = MAX_DEPTH  # the position being solved: its hands (0-3) and makers' flags (4-7)
OUT_ROW = MAX_DEPTH + 1  # a single position's ``out`` row
STACK_ROWS = MAX_DEPTH + 2
ENTER, NEXT, RETURN = 0, 1, 2
# The one buffer a process keeps: the table, the stack, then the next free table generation.
TT_CELLS = TT_SIZE * TT_COLS
STACK_CELLS = STACK_ROWS * STACK_COLS
B_GEN = TT_CELLS + STACK_CELLS
BUF_CELLS = B_GEN + 1


@numba.njit(cache=True)
def _beats(c: Any, win_b: Any) -> Any:
    """Whether bit ``c`` takes a trick whose winning card so far is bit ``win_b``."""
    cf = c >> 4
    wf = win_b >> 4
    return (cf == wf and c > win_b) or (cf == 3 and wf != 3)


@numba.njit(cache=True)
def _child(hands: Any, k: Any, maker: Any, p: Any, nplayed: Any, led_f: Any, win_p: Any,
           win_b: Any, table: Any, tricks_left: Any, c: Any) -> Any:
    """Plays bit ``c`` for position ``p`` (removing it from the hand) and returns the next
    node: (mover, cards played to its trick, led field, winning position, winning bit, cards
    on the table, tricks left, 1 if the trick just ended went to the makers)."""
    bit = np.int64(1) << c
    hands[p] ^= bit
    if nplayed == 0:
        led_f = c >> 4
        win_p = p
        win_b = c
    elif _beats(c, win_b):
        win_p = p
        win_b = c
    if nplayed + 1 < k:
        q = p + 1
        if q == k:
            q = np.int64(0)
        return q, nplayed + 1, led_f, win_p, win_b, table | bit, tricks_left, np.int64(0)
    return (win_p, np.int64(0), np.int64(0), np.int64(-1), np.int64(-1), np.int64(0),
            tricks_left - 1, np.int64(maker[win_p]))


@numba.njit(cache=True)
def _search(hands: Any, k: Any, maker: Any, field_mask: Any, tt: Any, gen: Any, stk: Any,
            p0: Any, np0: Any, lf0: Any, wp0: Any, wb0: Any, tb0: Any, tl0: Any, alpha: Any,
            beta: Any) -> Any:
    """The makers' tricks from the given node on, under alpha-beta's contract (exact inside
    (alpha, beta), else a bound on the side it falls). Iterative, with an explicit stack of
    one row per card played: numba compiles a loop far better than a deep recursion."""
    d = 0
    stk[0, C_P] = p0
    stk[0, C_NP] = np0
    stk[0, C_LF] = lf0
    stk[0, C_WP] = wp0
    stk[0, C_WB] = wb0
    stk[0, C_TB] = tb0
    stk[0, C_TL] = tl0
    stk[0, C_A] = alpha
    stk[0, C_B] = beta
    mode = ENTER
    ret = np.int64(0)
    while True:
        if mode == ENTER:
            stk[NODES, 0] += 1
            p = stk[d, C_P]
            nplayed = stk[d, C_NP]
            tl = stk[d, C_TL]
            a = stk[d, C_A]
            b = stk[d, C_B]
            mode = RETURN
            if tl == 0 or b <= 0:
                ret = np.int64(0)
                continue
            if a >= tl:
                ret = tl
                continue
            slot = np.int64(-1)
            stk[d, C_TT_MOVE] = -1
            if nplayed == 0:
                if tl == 1:  # the last trick: one card each, played out
                    best_b = _lsb_index(hands[p])
                    best_p = p
                    q = p
                    for _ in range(k - 1):
                        q += 1
                        if q == k:
                            q = 0
                        c = _lsb_index(hands[q])
                        if _beats(c, best_b):
                            best_b = c
                            best_p = q
                    ret = np.int64(maker[best_p])
                    continue
                in_all = np.int64(0)
                for i in range(k):
                    in_all |= hands[i]
                    stk[d, C_KEY + i] = 0
                # Sure tricks, bounds for one team that may settle the window at once:
                # whoever holds the highest trump left wins a trick with it and with each
                # trump just below it that nobody else holds (one per trick, none beatable).
                trumps = in_all & field_mask[3]
                owner = np.int64(-1)
                sure = np.int64(0)
                if trumps != 0:
                    owner = np.int64(0)
                    top = np.int64(1) << _msb_index(trumps)
                    while not hands[owner] & top:
                        owner += 1
                    rest = trumps
                    while rest != 0:
                        top = np.int64(1) << _msb_index(rest)
                        if not hands[owner] & top:
                            break
                        sure += 1
                        rest ^= top
                    if maker[owner] == 1:
                        if sure >= b:
                            ret = sure
                            continue
                    elif tl - sure <= a:
                        ret = tl - sure
                        continue
                # A leader whose unbroken run of top trumps is at least as long as anyone
                # else's trumps draws them all, keeping the lead, then wins with every trump
                # left and each card on top of a suit: all sure tricks.
                lead = hands[p]
                run = sure if owner == p else np.int64(0)
                most = np.int64(0)
                for i in range(k):
                    if i != p:
                        count = ctpop(hands[i] & field_mask[3])
                        if count > most:
                            most = count
                if run >= most:
                    cash = ctpop(lead & field_mask[3])
                    for f in range(3):
                        rest = in_all & field_mask[f]
                        while rest != 0:
                            top = np.int64(1) << _msb_index(rest)
                            if not lead & top:
                                break
                            cash += 1
                            rest ^= top
                    if maker[p] == 1:
                        if cash >= b:
                            ret = cash
                            continue
                    elif tl - cash <= a:
                        ret = tl - cash
                        continue
                if tl >= TT_MIN_TRICKS:
                    # Table key: each hand with the cards out of play squeezed out of its suit,
                    # so positions differing only in which equivalent cards fell share an entry.
                    if FAST_BMI2:  # pext squeezes a hand's cards of a suit in one step
                        for i in range(k):
                            key = np.int64(0)
                            for f in range(4):
                                fm = field_mask[f]
                                key |= pext(hands[i] & fm, in_all & fm) << (FIELD_BITS * f)
                            stk[d, C_KEY + i] = key
                    c0 = np.int64(0)
                    c1 = np.int64(16)
                    c2 = np.int64(32)
                    c3 = np.int64(48)
                    rest = np.int64(0) if FAST_BMI2 else in_all
                    while rest != 0:
                        low = rest & -rest
                        rest ^= low
                        f = _lsb_index(low) >> 4
                        if f == 0:
                            nb = c0
                            c0 += 1
                        elif f == 1:
                            nb = c1
                            c1 += 1
                        elif f == 2:
                            nb = c2
                            c2 += 1
                        else:
                            nb = c3
                            c3 += 1
                        for i in range(k):
                            if hands[i] & low:
                                stk[d, C_KEY + i] |= np.int64(1) << nb
                                break
                    h = np.uint64(p + 1) * np.uint64(0x9E3779B97F4A7C15)
                    for i in range(k):
                        h = (h ^ np.uint64(stk[d, C_KEY + i])) * np.uint64(0xBF58476D1CE4E5B9)
                        h ^= h >> np.uint64(29)
                    slot = np.int64(h >> np.uint64(64 - TT_BITS))
                    meta = tt[slot, T_META]
                    hit = (meta >> 12) == ((gen << 2) | p)
                    if hit:
                        for i in range(k):
                            if tt[slot, T_KEY + i] != stk[d, C_KEY + i]:
                                hit = False
                                break
                    if hit:
                        stk[d, C_TT_MOVE] = (meta >> 6) & 63
                        lo = (meta >> 3) & 7
                        hi = meta & 7
                        if lo >= b or lo == hi:
                            ret = lo
                            continue
                        if hi <= a:
                            ret = hi
                            continue
                        if lo > a:
                            a = lo
                        if hi < b:
                            b = hi
            mode = NEXT
            stk[d, C_SLOT] = slot
            stk[d, C_A] = a
            stk[d, C_B] = b
            stk[d, C_A0] = a
            stk[d, C_B0] = b
            stk[d, C_BEST] = -1 if maker[p] == 1 else tl + 1
            stk[d, C_MI] = 0
            # Lawful cards, one representative per run of equivalent cards (the highest).
            hand = hands[p]
            legal = hand
            if nplayed > 0:
                follow = hand & field_mask[stk[d, C_LF]]
                if follow != 0:
                    legal = follow
            in_play = stk[d, C_TB]
            for i in range(k):
                in_play |= hands[i]
            reps = np.int64(0)
            tops = np.int64(0)
            rest = legal
            while rest != 0:
                low = rest & -rest
                rest ^= low
                higher = in_play & field_mask[_lsb_index(low) >> 4] & ~((low << 1) - 1)
                if higher == 0:
                    reps |= low
                    tops |= low
                elif (hand & (higher & -higher)) == 0:
                    reps |= low
            # Order: a leader's high cards first; a follower's cheapest card that takes the
            # trick first, or simply its cheapest when the team already holds the trick.
            n = 0
            if nplayed == 0:
                # The cards that are the best left in their suit first, then the rest, each
                # high first (the rest low first searched 8% more nodes at the 95th
                # percentile of whole deals).
                rest = tops
                while rest != 0:
                    low = rest & -rest
                    rest ^= low
                    stk[d, C_MOVES + n] = _lsb_index(low)
                    n += 1
                for i in range(n // 2):
                    t = stk[d, C_MOVES + i]
                    stk[d, C_MOVES + i] = stk[d, C_MOVES + n - 1 - i]
                    stk[d, C_MOVES + n - 1 - i] = t
                rest = reps & ~tops
                while rest != 0:
                    top = _msb_index(rest)
                    rest ^= np.int64(1) << top
                    stk[d, C_MOVES + n] = top
                    n += 1
            else:
                first = np.int64(0)
                wb = stk[d, C_WB]
                if maker[stk[d, C_WP]] != maker[p]:
                    wf = wb >> 4
                    first = reps & field_mask[wf] & ~((np.int64(2) << wb) - 1)
                    if wf != 3:
                        first |= reps & field_mask[3]
                rest = first
                while rest != 0:
                    low = rest & -rest
                    rest ^= low
                    stk[d, C_MOVES + n] = _lsb_index(low)
                    n += 1
                rest = reps & ~first
                while rest != 0:
                    low = rest & -rest
                    rest ^= low
                    stk[d, C_MOVES + n] = _lsb_index(low)
                    n += 1
            ttm = stk[d, C_TT_MOVE]
            if ttm >= 0 and (reps >> ttm) & 1:  # the table's best card first
                for i in range(n):
                    if stk[d, C_MOVES + i] == ttm:
                        for j in range(i, 0, -1):
                            stk[d, C_MOVES + j] = stk[d, C_MOVES + j - 1]
                        stk[d, C_MOVES] = ttm
                        break
            stk[d, C_BEST_MOVE] = stk[d, C_MOVES]
            stk[d, C_NM] = n
        elif mode == NEXT:
            mi = stk[d, C_MI]
            if mi == stk[d, C_NM] or stk[d, C_A] >= stk[d, C_B]:
                best = stk[d, C_BEST]
                slot = stk[d, C_SLOT]
                if slot >= 0:
                    p = stk[d, C_P]
                    meta = tt[slot, T_META]
                    same = (meta >> 12) == ((gen << 2) | p)
                    if same:
                        for i in range(k):
                            if tt[slot, T_KEY + i] != stk[d, C_KEY + i]:
                                same = False
                                break
                    lo = (meta >> 3) & 7 if same else np.int64(0)
                    hi = meta & 7 if same else stk[d, C_TL]
                    if best <= stk[d, C_A0]:
                        if best < hi:
                            hi = best
                    elif best >= stk[d, C_B0]:
                        if best > lo:
                            lo = best
                    else:
                        lo = best
                        hi = best
                    for i in range(k):
                        tt[slot, T_KEY + i] = stk[d, C_KEY + i]
                    tt[slot, T_META] = (((gen << 2) | p) << 12) | (stk[d, C_BEST_MOVE] << 6) \
                        | (lo << 3) | hi
                ret = best
                mode = RETURN
                continue
            c = stk[d, C_MOVES + mi]
            stk[d, C_MI] = mi + 1
            stk[d, C_CARD] = c
            q, nq, lf, wp, wb, tb, tl, won = _child(
                hands, k, maker, stk[d, C_P], stk[d, C_NP], stk[d, C_LF], stk[d, C_WP],
                stk[d, C_WB], stk[d, C_TB], stk[d, C_TL], c)
            stk[d, C_WON] = won
            e = d + 1
            stk[e, C_P] = q
            stk[e, C_NP] = nq
            stk[e, C_LF] = lf
            stk[e, C_WP] = wp
            stk[e, C_WB] = wb
            stk[e, C_TB] = tb
            stk[e, C_TL] = tl
            stk[e, C_A] = stk[d, C_A] - won
            stk[e, C_B] = stk[d, C_B] - won
            d = e
            mode = ENTER
        else:  # RETURN: hand ret to the parent
            if d == 0:
                return ret
            d -= 1
            p = stk[d, C_P]
            hands[p] ^= np.int64(1) << stk[d, C_CARD]
            v = stk[d, C_WON] + ret
            if maker[p] == 1:
                if v > stk[d, C_BEST]:
                    stk[d, C_BEST] = v
                    stk[d, C_BEST_MOVE] = stk[d, C_CARD]
                    if v > stk[d, C_A]:
                        stk[d, C_A] = v
            elif v < stk[d, C_BEST]:
                stk[d, C_BEST] = v
                stk[d, C_BEST_MOVE] = stk[d, C_CARD]
                if v < stk[d, C_B]:
                    stk[d, C_B] = v
            mode = NEXT


@numba.njit(cache=True)
def _encode_hand(trump: Any, ids: Any) -> Any:
    """A hand's card-id mask in the kernel's encoding under ``trump``."""
    out = np.int64(0)
    while ids != 0:
        low = ids & -ids
        ids ^= low
        out |= np.int64(1) << ENCODE[trump, _lsb_index(low)]
    return out


@numba.njit(cache=True)
def _load(stk: Any, a: Any, b: Any, c: Any, d: Any, x: Any) -> Any:
    """Unpacks a position (the card-id hands of seats 0-3 and the ``X_*`` fields of ``x``, as
    :func:`_pack` wrote them): the hands in play order and the makers' flags go to the stack's
    scratch row; returns (players, mover, cards on the trick, led field, winning position,
    winning bit, cards on the table, tricks left)."""
    trump = x & 3
    active = (x >> X_ACTIVE) & 15
    makers = (x >> X_MAKERS) & 15
    k = 0
    for s in range(4):
        if (active >> s) & 1:
            raw = a if s == 0 else b if s == 1 else c if s == 2 else d
            stk[SCRATCH, k] = _encode_hand(trump, raw)
            stk[SCRATCH, 4 + k] = (makers >> s) & 1
            k += 1
    for i in range(k, 4):
        stk[SCRATCH, i] = 0
        stk[SCRATCH, 4 + i] = 0
    p = ctpop(active & ((np.int64(1) << ((x >> X_MOVER) & 3)) - 1))
    nplayed = (x >> X_TRICK_LEN) & 3
    table = np.int64(0)
    led_f = np.int64(0)
    win_b = np.int64(-1)
    win_p = np.int64(-1)
    for i in range(nplayed):
        t = (x >> (X_TRICK + 8 * i)) & 255
        cb = ENCODE[trump, t >> 2]
        table |= np.int64(1) << cb
        if i == 0 or _beats(cb, win_b):
            win_b = cb
            win_p = ctpop(active & ((np.int64(1) << (t & 3)) - 1))
        if i == 0:
            led_f = cb >> 4
    return k, p, nplayed, led_f, win_p, win_b, table, (x >> X_TRICKS_LEFT) & 7


@numba.njit(cache=True)
def _solve_loaded(tt: Any, stk: Any, gen: Any, values_only: Any, out: Any, k: Any, p: Any,
                  nplayed: Any, led_f: Any, win_p: Any, win_b: Any, table: Any,
                  tl: Any) -> None:
    """Solves the position :func:`_load` left in the scratch row: fills the bits of the mover's
    lawful cards (``out[O_BITS..]``) and the makers' tricks from now on after each
    (``out[O_VALS..]``; equivalent cards share one search), or with ``values_only`` just the
    position's value in ``out[O_VALS]``."""
    field_mask = FIELD_MASK
    moves = stk[MAX_DEPTH - 2]
    h = stk[SCRATCH, 0:4]
    maker = stk[SCRATCH, 4:8]
    for j in range(OUT_COLS):
        out[j] = -1
    hand = h[p]
    legal = hand
    if nplayed > 0:
        follow = hand & field_mask[led_f]
        if follow != 0:
            legal = follow
    in_play = table
    for i in range(k):
        in_play |= h[i]
    # High to low, so a card equivalent to the one above it takes that card's value.
    n = 0
    rest = legal
    while rest != 0:
        low = rest & -rest
        rest ^= low
        moves[n] = _lsb_index(low)
        n += 1
    # One search per card (values_only: one search of the position itself), from a single
    # call site, so numba compiles the search once.
    for j in range(1 if values_only else n):
        if values_only:
            q, nq, lf, wp, wb, tb, tl2, won = (p, nplayed, led_f, win_p, win_b, table, tl,
                                               np.int64(0))
            low = np.int64(0)
        else:
            c = moves[n - 1 - j]
            low = np.int64(1) << c
            higher = in_play & field_mask[c >> 4] & ~((low << 1) - 1)
            out[O_BITS + j] = c
            if j > 0 and higher != 0 and (hand & (higher & -higher)) != 0:
                out[O_VALS + j] = out[O_VALS + j - 1]
                continue
            q, nq, lf, wp, wb, tb, tl2, won = _child(h, k, maker, p, nplayed, led_f,
                                                      win_p, win_b, table, tl, c)
        v = _search(h, k, maker, field_mask, tt, gen, stk, q, nq, lf, wp, wb, tb, tl2,
                    np.int64(-1), tl2 + 1)
        h[p] ^= low  # _child took the card from the hand
        out[O_VALS + j] = won + v


@numba.njit(cache=True)
def _views(buf: Any) -> Any:
    """The transposition table and the search stack inside the one buffer a process keeps."""
    tt = buf[:TT_CELLS].reshape((TT_SIZE, TT_COLS))
    stk = buf[TT_CELLS:TT_CELLS + STACK_CELLS].reshape((STACK_ROWS, STACK_COLS))
    return tt, stk


@numba.njit(cache=True)
def _batch_kernel(data: Any, out: Any, buf: Any, values_only: Any) -> None:
    """For each position (a row of ``data``: the four card-id hands and the packed fields, as
    :func:`_pack` gives them), fills its row of ``out`` (see :func:`_solve_loaded`)."""
    tt, stk = _views(buf)
    stk[NODES, 0] = 0
    gen = buf[B_GEN]
    for w in range(data.shape[0]):
        gen += 1
        k, p, nplayed, led_f, win_p, win_b, table, tl = _load(
            stk, data[w, 0], data[w, 1], data[w, 2], data[w, 3], data[w, 4])
        _solve_loaded(tt, stk, gen, values_only, out[w], k, p, nplayed, led_f, win_p, win_b,
                      table, tl)
    buf[B_GEN] = gen


@numba.njit(cache=True)
def _one_kernel(buf: Any, a: Any, b: Any, c: Any, d: Any, x: Any) -> Any:
    """One position from plain integers (no arrays to make: a single solve's call costs a
    fraction of the batch entry's). With ``X_VALUES_ONLY`` set in ``x`` returns the makers'
    tricks from now on; else the mover's lawful cards and their values packed as
    :func:`_unpack_moves` reads them (card ids, not the kernel's bits)."""
    tt, stk = _views(buf)
    stk[NODES, 0] = 0
    gen = buf[B_GEN] + 1
    buf[B_GEN] = gen
    k, p, nplayed, led_f, win_p, win_b, table, tl = _load(stk, a, b, c, d, x)
    out = stk[OUT_ROW, 0:OUT_COLS]
    values_only = (x >> X_VALUES_ONLY) & 1 == 1
    _solve_loaded(tt, stk, gen, values_only, out, k, p, nplayed, led_f, win_p, win_b, table,
                  tl)
    if values_only:
        return out[O_VALS]
    trump = x & 3
    packed = np.int64(0)
    n = np.int64(0)
    for j in range(MAX_MOVES):
        bit = out[O_BITS + j]
        if bit < 0:
            break
        packed |= (DECODE[trump, bit] | (out[O_VALS + j] << 6)) << (3 + 9 * j)
        n += 1
    return packed | n


# ---------------------------------------------------------------------------------------------
# Python side: packing positions, one call per batch


class _Table:
    """The transposition table and search stack in one buffer, kept for the process
    (allocating them costs more than a small solve); a generation number per position, kept in
    the buffer, makes old table entries invisible without clearing. One thread at a time
    (``lock``): two calls sharing a generation would read each other's entries as their own."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.buf = np.zeros(BUF_CELLS, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Search nodes (cards tried) in the latest call: for measurements."""
        return int(self.buf[TT_CELLS + NODES * STACK_COLS])


_TT = _Table()


@functools.lru_cache(maxsize=256)
def _seat_bits(order: tuple[int, ...], maker_seats: frozenset[int]) -> int:
    """The active seats and the active seats playing for the makers, as ``x``'s bit fields."""
    active = sum(1 << s for s in order)
    makers = sum(1 << s for s in order if s in maker_seats)
    return active << X_ACTIVE | makers << X_MAKERS


def _pack(pos: Position) -> tuple[int, int, int, int, int]:
    """A position as the kernel reads it: the card-id hands of seats 0-3 (0 for a seat not
    there) and one integer of small fields (``X_*``)."""
    x = pos.trump | pos.to_move << X_MOVER | _seat_bits(pos.order, pos.maker_seats) \
        | pos.tricks_left << X_TRICKS_LEFT | len(pos.trick) << X_TRICK_LEN
    shift = X_TRICK
    for seat, card in pos.trick:
        x |= (seat | card << 2) << shift
        shift += 8
    h = pos.hands
    if len(h) == 4:
        return h[0], h[1], h[2], h[3], x
    a, b, c, d = (*h, 0, 0, 0, 0)[:4]
    return a, b, c, d, x


def _unpack_moves(packed: int) -> dict[int, int]:
    """The mover's cards and the makers' tricks after each, from :func:`_one_kernel`."""
    out = {}
    for j in range(packed & 7):
        field = packed >> (3 + 9 * j)
        out[field & 63] = (field >> 6) & 7
    return out


def _run(positions: Sequence[Position], values_only: bool) -> list[list[int]]:
    """The kernel's ``out`` rows for ``positions``, all in one compiled call."""
    data = np.array([_pack(p) for p in positions], dtype=np.int64)
    out = np.empty((len(positions), OUT_COLS), dtype=np.int64)  # the kernel fills every cell
    tt = _TT
    kernel = cast(Any, _batch_kernel)
    with tt.lock:
        kernel(data, out, tt.buf, values_only)
    rows: list[list[int]] = out.tolist()
    return rows


def _one(pos: Position, values_only: bool) -> int:
    a, b, c, d, x = _pack(pos)
    if values_only:
        x |= 1 << X_VALUES_ONLY
    tt = _TT
    with tt.lock:
        return int(_ONE(tt.buf, a, b, c, d, x))


_ONE = cast(Any, _one_kernel)


def fast_move_values(positions: Sequence[Position]) -> list[dict[int, int]]:
    """For each position, the makers' final tricks after each lawful card of its player to
    move, all positions solved in one compiled call."""
    if len(positions) == 1:
        pos = positions[0]
        taken = pos.maker_tricks_taken
        got = _unpack_moves(_one(pos, False))
        return [{c: taken + got[c] for c in sorted(got)}]
    if not positions:
        return []
    results: list[dict[int, int]] = []
    for pos, row in zip(positions, _run(positions, False), strict=True):
        dec = _DECODE_PY[pos.trump]
        taken = pos.maker_tricks_taken
        values = {dec[b]: taken + v
                  for b, v in zip(row[O_BITS:O_BITS + MAX_MOVES], row[O_VALS:], strict=True)
                  if b >= 0}
        results.append(dict(sorted(values.items())))
    return results


def fast_values(positions: Sequence[Position]) -> list[int]:
    """For each position, the makers' final tricks under best play, in one compiled call."""
    if len(positions) == 1:
        pos = positions[0]
        return [pos.maker_tricks_taken + _one(pos, True)]
    if not positions:
        return []
    return [pos.maker_tricks_taken + row[O_VALS]
            for pos, row in zip(positions, _run(positions, True), strict=True)]


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernel; returns the seconds it took."""
    from euchre.solver.position import Position

    start = time.perf_counter()
    pos = Position(trump=0, hands=(1 << 5, 1 << 6, 1 << 7, 1 << 13), order=(0, 1, 2, 3),
                   to_move=0, trick=(), maker_seats=frozenset({0, 2}), maker_tricks_taken=4,
                   tricks_left=1)
    fast_move_values([pos])
    fast_values([pos])
    return time.perf_counter() - start

