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

The search (alpha-beta on the makers' tricks, as :mod:`euchre.solver.reference`; one
recursive call per card, the node's state in locals): equivalent cards searched once; the
window checked against 0 and the tricks left before any work; sure tricks at trick boundaries
(the holder of the top trump wins with its unbroken run of top trumps; a leader who can draw
every other trump then cashes all its trumps and suit tops); a transposition table of
lower/upper bounds and the best card at trick boundaries, keyed by the hands with the cards out
of play squeezed out and by the leader (open addressing, 4,096 entries, made invisible per
position by a generation stamp rather than cleared); the last trick played out without search;
moves ordered with the table's best card first, then for a leader its cards on top of a suit
and then its others (high first), and for a follower the cheapest card that takes the trick
(or simply the cheapest when the team already holds it); the first card searched with the
node's whole window, each other first with an empty one (does it beat the best so far?) and
again with the whole window only when it does (principal variation search: 6% fewer nodes).

Squeezing (BMI2's pext, where the CPU runs it fast; loops elsewhere): the cards in play, with
a stop bit above each suit's field (``SUIT_STOPS``), packed to the bottom of a word, so a card's
next higher card in play is simply the next bit. Which cards are equivalent, which are on top
of their suit, a run of top cards and the table's key each take a few instructions and no
branch.

The table and a scratch row are kept per process in one buffer, behind a lock, so threads
calling the solver take turns; processes each have their own.
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
from euchre.solver.bits import FAST_BMI2, ctpop, pdep, pext
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
SUIT_STOPS = np.int64(sum(1 << (FIELD_BITS * f + FIELD_BITS - 2) for f in range(4)))
"""A bit above every card of each field (the field's next-to-top bit; the top one of the last
field is the sign)."""
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


# Transposition table columns: the key (the squeezed hands, T_KEY..T_KEY + 3), then T_META.
T_KEY, T_META = 0, 4
TT_COLS = 5
# T_META packs an entry's upper bound (bits 0-2), lower bound (3-5), best card (6-11), and the
# tag (12 up): the generation and the mover, (gen << 2 | p) << 12.
TT_CELLS = TT_SIZE * TT_COLS
# The one buffer a process keeps: the table, then a scratch row with the position being solved.
S_HANDS = 0  # .. 3: its hands in play order (the search plays and takes back cards here)
S_MAKER = 4  # .. 7: 1 for each position playing for the makers
S_NODES = 8  # search nodes (cards tried) in the latest call
S_MOVES = 9  # .. 13: the mover's lawful cards
S_OUT = 16  # .. 25: a single position's ``out`` row
S_GEN = 26  # the next free table generation
HB = TT_CELLS + S_HANDS  # the hands' first cell in the buffer
SCRATCH_CELLS = 32
BUF_CELLS = TT_CELLS + SCRATCH_CELLS


@numba.njit(cache=True)
def _beats(c: Any, win_b: Any) -> Any:
    """Whether bit ``c`` takes a trick whose winning card so far is bit ``win_b``."""
    cf = c >> 4
    wf = win_b >> 4
    return (cf == wf and c > win_b) or (cf == 3 and wf != 3)


@numba.njit(cache=True)
def _child(buf: Any, k: Any, mk: Any, p: Any, nplayed: Any, led_f: Any, win_p: Any,
           win_b: Any, table: Any, tricks_left: Any, c: Any) -> Any:
    """Plays bit ``c`` for position ``p`` (removing it from the hand) and returns the next
    node: (mover, cards played to its trick, led field, winning position, winning bit, cards
    on the table, tricks left, 1 if the trick just ended went to the makers)."""
    bit = np.int64(1) << c
    buf[HB + p] ^= bit
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
            tricks_left - 1, (mk >> win_p) & 1)


@numba.njit(cache=True)
def _lawful(buf: Any, k: Any, p: Any, nplayed: Any, led_f: Any, table: Any) -> Any:
    """(the mover's hand, its lawful cards, every card in play: the hands and the table)."""
    hand = buf[HB + p]
    legal = hand
    if nplayed > 0:
        follow = hand & FIELD_MASK[led_f]
        if follow != 0:
            legal = follow
    in_play = table
    for i in range(k):
        in_play |= buf[HB + i]
    return hand, legal, in_play


@numba.njit(cache=True)
def _search(buf: Any, k: Any, mk: Any, gen: Any, p: Any, nplayed: Any, led_f: Any, win_p: Any,
            win_b: Any, table: Any, tl: Any, alpha: Any, beta: Any) -> Any:
    """The makers' tricks from the given node on, under alpha-beta's contract (exact inside
    (alpha, beta), else a bound on the side it falls). The hands in play order are in ``buf``
    (from ``HB``), where each card tried is taken out and put back. ``mk`` has bit i set for
    each position i playing for the makers."""
    buf[TT_CELLS + S_NODES] += 1
    if tl == 0 or beta <= 0:
        return np.int64(0)
    if alpha >= tl:
        return tl
    field_mask = FIELD_MASK
    is_maker = (mk >> p) & 1
    a = alpha
    b = beta
    slot = np.int64(-1)
    ttm = np.int64(-1)
    key0 = np.int64(0)
    key1 = np.int64(0)
    key2 = np.int64(0)
    key3 = np.int64(0)
    tag = np.int64(0)
    if nplayed == 0:
        if tl == 1:  # the last trick: one card each, played out
            best_b = _lsb_index(buf[HB + p])
            best_p = p
            q = p
            for _ in range(k - 1):
                q += 1
                if q == k:
                    q = 0
                c = _lsb_index(buf[HB + q])
                if _beats(c, best_b):
                    best_b = c
                    best_p = q
            return (mk >> best_p) & 1
        in_all = np.int64(0)
        for i in range(k):
            in_all |= buf[HB + i]
        # Sure tricks, bounds for one team that may settle the window at once: whoever holds
        # the highest trump left wins a trick with it and with each trump just below it that
        # nobody else holds (one per trick, none beatable).
        trumps = in_all & field_mask[3]
        owner = np.int64(-1)
        sure = np.int64(0)
        if FAST_BMI2:
            ip = in_all | SUIT_STOPS
            stops = pext(SUIT_STOPS, ip)
        if trumps != 0:
            owner = np.int64(0)
            top = np.int64(1) << _msb_index(trumps)
            while not buf[HB + owner] & top:
                owner += 1
            if FAST_BMI2:  # the owner's run below the trump field's stop, squeezed
                x = pext(buf[HB + owner], ip)
                run_bits = (np.int64(1) << _msb_index(stops) >> 1) & x
                while run_bits != 0:
                    sure += 1
                    run_bits = (run_bits >> 1) & x
            else:
                rest = trumps
                while rest != 0:
                    top = np.int64(1) << _msb_index(rest)
                    if not buf[HB + owner] & top:
                        break
                    sure += 1
                    rest ^= top
            if (mk >> owner) & 1:
                if sure >= b:
                    return sure
            elif tl - sure <= a:
                return tl - sure
        # A leader whose unbroken run of top trumps is at least as long as anyone else's
        # trumps draws them all, keeping the lead, then wins with every trump left and each
        # card on top of a suit: all sure tricks.
        lead = buf[HB + p]
        run = sure if owner == p else np.int64(0)
        most = np.int64(0)
        for i in range(k):
            if i != p:
                count = ctpop(buf[HB + i] & field_mask[3])
                if count > most:
                    most = count
        if run >= most:
            cash = ctpop(lead & field_mask[3])
            if FAST_BMI2:  # the leader's runs below the plain suits' stops, squeezed
                x = pext(lead, ip)
                run_bits = ((stops ^ (np.int64(1) << _msb_index(stops))) >> 1) & x
                while run_bits != 0:
                    cash += ctpop(run_bits)
                    run_bits = (run_bits >> 1) & x
            else:
                for f in range(3):
                    rest = in_all & field_mask[f]
                    while rest != 0:
                        top = np.int64(1) << _msb_index(rest)
                        if not lead & top:
                            break
                        cash += 1
                        rest ^= top
            if is_maker:
                if cash >= b:
                    return cash
            elif tl - cash <= a:
                return tl - cash
        if tl >= TT_MIN_TRICKS:
            # Table key: each hand with the cards out of play squeezed out, so positions
            # differing only in which equivalent cards fell share an entry.
            if FAST_BMI2:
                # Each hand squeezed to the cards in play and the suits' stops: the stops are
                # the zeros that no hand fills, so the keys still tell the suits apart.
                key0 = pext(buf[HB + 0], ip)
                key1 = pext(buf[HB + 1], ip)
                key2 = pext(buf[HB + 2], ip)
                key3 = pext(buf[HB + 3], ip)
            else:
                c0 = np.int64(0)
                c1 = np.int64(16)
                c2 = np.int64(32)
                c3 = np.int64(48)
                rest = in_all
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
                    nbit = np.int64(1) << nb
                    if buf[HB + 0] & low:
                        key0 |= nbit
                    elif buf[HB + 1] & low:
                        key1 |= nbit
                    elif buf[HB + 2] & low:
                        key2 |= nbit
                    else:
                        key3 |= nbit
            h = np.uint64(p + 1) * np.uint64(0x9E3779B97F4A7C15)
            h = (h ^ np.uint64(key0)) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(29)
            h = (h ^ np.uint64(key1)) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(29)
            if k > 2:
                h = (h ^ np.uint64(key2)) * np.uint64(0xBF58476D1CE4E5B9)
                h ^= h >> np.uint64(29)
            if k > 3:
                h = (h ^ np.uint64(key3)) * np.uint64(0xBF58476D1CE4E5B9)
                h ^= h >> np.uint64(29)
            slot = np.int64(h >> np.uint64(64 - TT_BITS)) * TT_COLS  # the entry's first cell
            tag = (gen << 2) | p
            meta = buf[slot + T_META]
            if ((meta >> 12) == tag and buf[slot + T_KEY] == key0 and buf[slot + T_KEY + 1] == key1
                    and buf[slot + T_KEY + 2] == key2 and buf[slot + T_KEY + 3] == key3):
                ttm = (meta >> 6) & 63
                lo = (meta >> 3) & 7
                hi = meta & 7
                if lo >= b or lo == hi:
                    return lo
                if hi <= a:
                    return hi
                if lo > a:
                    a = lo
                if hi < b:
                    b = hi
    a0 = a
    b0 = b
    best = np.int64(-1) if is_maker else tl + 1
    # Lawful cards, one representative per run of equivalent cards (the highest).
    hand, legal, in_play = _lawful(buf, k, p, nplayed, led_f, table)
    if FAST_BMI2:
        # Squeezed to the cards in play, with a stop on top of each suit, a card's next
        # higher card in play is the next bit: a representative is a card whose next bit is
        # not the mover's (another's card, or the stop), a top one whose next bit is a stop.
        ip = in_play | SUIT_STOPS
        hs = pext(hand, ip)
        ss = pext(SUIT_STOPS, ip)
        reps = pdep(hs & ~(hs >> 1), ip) & legal
        tops = pdep(hs & (ss >> 1), ip) & legal
    else:
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
    # Order, as two sets searched one after the other: a leader's cards on top of their suit,
    # then its others, each high first (the others low first search more nodes at the 95th
    # percentile of whole deals); a follower's cheapest cards that take the trick, then the
    # rest, each low first (the cheapest first when the team already holds the trick).
    if nplayed == 0:
        first = tops
        high_first = True
    else:
        high_first = False
        first = np.int64(0)
        if ((mk >> win_p) & 1) != is_maker:
            wf = win_b >> 4
            first = reps & field_mask[wf] & ~((np.int64(2) << win_b) - 1)
            if wf != 3:
                first |= reps & field_mask[3]
    second = reps & ~first
    if ttm >= 0 and (reps >> ttm) & 1:
        pending = ttm  # the table's best card first
        first &= ~(np.int64(1) << ttm)
        second &= ~(np.int64(1) << ttm)
    else:
        pending = np.int64(-1)
    best_move = np.int64(-1)
    while True:
        if pending >= 0:
            c = pending
            pending = np.int64(-1)
        elif first != 0:
            c = _msb_index(first) if high_first else _lsb_index(first)
            first ^= np.int64(1) << c
        elif second != 0:
            c = _msb_index(second) if high_first else _lsb_index(second)
            second ^= np.int64(1) << c
        else:
            break
        if best_move < 0:
            best_move = c
        q, nq, lf, wp, wb, tb, tl2, won = _child(buf, k, mk, p, nplayed, led_f, win_p,
                                                  win_b, table, tl, c)
        # The first card with the whole window, the others with an empty one that only asks
        # whether they beat the best so far: again with the whole window when they do.
        lo_w = a
        hi_w = b
        if best_move != c:
            if is_maker:
                hi_w = a + 1
            else:
                lo_w = b - 1
        while True:
            v = won + _search(buf, k, mk, gen, q, nq, lf, wp, wb, tb, tl2, lo_w - won,
                              hi_w - won)
            if (lo_w == a and hi_w == b) or not a < v < b:
                break
            lo_w = a
            hi_w = b
        buf[HB + p] ^= np.int64(1) << c
        if is_maker:
            if v > best:
                best = v
                best_move = c
                if v > a:
                    a = v
        elif v < best:
            best = v
            best_move = c
            if v < b:
                b = v
        if a >= b:
            break
    if slot >= 0:
        meta = buf[slot + T_META]
        same = ((meta >> 12) == tag and buf[slot + T_KEY] == key0 and buf[slot + T_KEY + 1] == key1
                and buf[slot + T_KEY + 2] == key2 and buf[slot + T_KEY + 3] == key3)
        lo = (meta >> 3) & 7 if same else np.int64(0)
        hi = meta & 7 if same else tl
        if best <= a0:
            if best < hi:
                hi = best
        elif best >= b0:
            if best > lo:
                lo = best
        else:
            lo = best
            hi = best
        buf[slot + T_KEY] = key0
        buf[slot + T_KEY + 1] = key1
        buf[slot + T_KEY + 2] = key2
        buf[slot + T_KEY + 3] = key3
        buf[slot + T_META] = (tag << 12) | (best_move << 6) | (lo << 3) | hi
    return best


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
def _load(row: Any, a: Any, b: Any, c: Any, d: Any, x: Any) -> Any:
    """Unpacks a position (the card-id hands of seats 0-3 and the ``X_*`` fields of ``x``, as
    :func:`_pack` wrote them): the hands in play order and the makers' flags go to the
    scratch row; returns (players, mover, cards on the trick, led field, winning position,
    winning bit, cards on the table, tricks left)."""
    trump = x & 3
    active = (x >> X_ACTIVE) & 15
    makers = (x >> X_MAKERS) & 15
    k = 0
    for s in range(4):
        if (active >> s) & 1:
            raw = a if s == 0 else b if s == 1 else c if s == 2 else d
            row[S_HANDS + k] = _encode_hand(trump, raw)
            row[S_MAKER + k] = (makers >> s) & 1
            k += 1
    for i in range(k, 4):
        row[S_HANDS + i] = 0
        row[S_MAKER + i] = 0
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


@numba.njit(cache=True, inline="always")
def _solve_loaded(buf: Any, row: Any, gen: Any, values_only: Any, out: Any, k: Any, p: Any,
                  nplayed: Any, led_f: Any, win_p: Any, win_b: Any, table: Any,
                  tl: Any) -> None:
    """Solves the position :func:`_load` left in the scratch row: fills the bits of the mover's
    lawful cards (``out[O_BITS..]``) and the makers' tricks from now on after each
    (``out[O_VALS..]``; equivalent cards share one search), or with ``values_only`` just the
    position's value in ``out[O_VALS]``. Inlined by numba into the two entries, so a fresh
    compile builds the search's callers two times, not three (about 1 s of CPU less)."""
    field_mask = FIELD_MASK
    moves = row[S_MOVES:S_MOVES + MAX_MOVES]
    maker = row[S_MAKER:S_MAKER + 4]
    mk = maker[0] | maker[1] << 1 | maker[2] << 2 | maker[3] << 3
    for j in range(OUT_COLS):
        out[j] = -1
    hand, legal, in_play = _lawful(buf, k, p, nplayed, led_f, table)
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
            q, nq, lf, wp, wb, tb, tl2, won = _child(buf, k, mk, p, nplayed, led_f,
                                                      win_p, win_b, table, tl, c)
        v = _search(buf, k, mk, gen, q, nq, lf, wp, wb, tb, tl2, np.int64(-1), tl2 + 1)
        buf[HB + p] ^= low  # _child took the card from the hand
        out[O_VALS + j] = won + v


@numba.njit(cache=True)
def _batch_kernel(data: Any, out: Any, buf: Any, values_only: Any) -> None:
    """For each position (a row of ``data``: the four card-id hands and the packed fields, as
    :func:`_pack` gives them), fills its row of ``out`` (see :func:`_solve_loaded`)."""
    row = buf[TT_CELLS:]
    row[S_NODES] = 0
    gen = row[S_GEN]
    for w in range(data.shape[0]):
        gen += 1
        k, p, nplayed, led_f, win_p, win_b, table, tl = _load(
            row, data[w, 0], data[w, 1], data[w, 2], data[w, 3], data[w, 4])
        _solve_loaded(buf, row, gen, values_only, out[w], k, p, nplayed, led_f, win_p, win_b,
                      table, tl)
    row[S_GEN] = gen


@numba.njit(cache=True)
def _one_kernel(buf: Any, a: Any, b: Any, c: Any, d: Any, x: Any) -> Any:
    """One position from plain integers (no arrays to make: a single solve's call costs a
    fraction of the batch entry's). With ``X_VALUES_ONLY`` set in ``x`` returns the makers'
    tricks from now on; else the mover's lawful cards and their values packed as
    :func:`_unpack_moves` reads them (card ids, not the kernel's bits)."""
    row = buf[TT_CELLS:]
    row[S_NODES] = 0
    gen = row[S_GEN] + 1
    row[S_GEN] = gen
    k, p, nplayed, led_f, win_p, win_b, table, tl = _load(row, a, b, c, d, x)
    out = row[S_OUT:S_OUT + OUT_COLS]
    values_only = (x >> X_VALUES_ONLY) & 1 == 1
    _solve_loaded(buf, row, gen, values_only, out, k, p, nplayed, led_f, win_p, win_b, table,
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
    """The transposition table and scratch row in one buffer, kept for the process (allocating
    them costs more than a small solve); a generation number per position, kept in the buffer,
    makes old table entries invisible without clearing. One thread at a time
    (``lock``): two calls sharing a generation would read each other's entries as their own."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.buf = np.zeros(BUF_CELLS, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Search nodes (cards tried) in the latest call: for measurements."""
        return int(self.buf[TT_CELLS + S_NODES])


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
    """Compile (or load from numba's cache) the kernel's two entries, for one position and for
    a batch; returns the seconds it took."""
    from euchre.solver.position import Position

    start = time.perf_counter()
    pos = Position(trump=0, hands=(1 << 5, 1 << 6, 1 << 7, 1 << 13), order=(0, 1, 2, 3),
                   to_move=0, trick=(), maker_seats=frozenset({0, 2}), maker_tricks_taken=4,
                   tricks_left=1)
    fast_move_values([pos])
    fast_values([pos])
    fast_values([pos, pos])
    return time.perf_counter() - start

