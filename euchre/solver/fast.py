"""The compiled double-dummy kernel (numba): the same search as the reference, built for speed.

Importing this module needs numba and numpy (the ``[fast]`` extra); :mod:`euchre.solver` falls
back to the plain-Python reference when either is missing. A whole batch of positions goes to
one compiled call, so a search player pays Python's cost once per decision, not per world.

Encoding (the kernel's only trick that the reference does not share): per trump, each card gets
a bit whose 16-bit field is its effective suit (trump in the top field, so any trump outranks
any plain card) and whose position inside the field is its strength there (the Joker, the right
bower and the left bower on top of the trump field). Following suit is one ``&`` with a field;
"does this card take the trick" is one comparison; the next higher card still in play is the
lowest set bit above it.

The search (alpha-beta on the makers' tricks, exactly as :mod:`euchre.solver.reference`):
equivalent cards searched once; the window checked against 0 and the tricks left before any
work; a transposition table of lower/upper bounds at trick boundaries, keyed by the hands and
the leader (an open-addressed array table, invalidated per position by a generation stamp
rather than cleared); the last trick played out without search; moves ordered with the leader's
high cards first and, for a follower, the cheapest card that takes the trick first (or the
cheapest card when the partner's card is winning).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, cast

import numba
import numpy as np

from euchre.cards import EFFECTIVE_SUIT, NUM_CARD_IDS, POWER
from euchre.solver.position import Position

FIELD_BITS = 16
TRUMP_FIELD = 3
MAX_MOVES = 5
TT_BITS = 14
TT_SIZE = 1 << TT_BITS
# Columns of a position's row in the packed ``info`` array.
I_K, I_MOVER, I_NPLAYED, I_LED, I_WIN_P, I_WIN_B, I_TABLE, I_TL, I_MAKER = range(9)
INFO_COLS = I_MAKER + 4  # I_MAKER .. I_MAKER + 3: 1 for each position playing for the makers


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
_ENCODE_PY = [t[0] for t in _TABLES]
_DECODE_PY = [t[1] for t in _TABLES]
FIELD_MASK = np.array([((1 << 11) - 1) << (FIELD_BITS * f) for f in range(4)],
                      dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# Kernel


def _debruijn_table() -> list[int]:
    table = [0] * 64
    for i in range(64):
        table[(((1 << i) * DEBRUIJN) & (2**64 - 1)) >> 58] = i
    return table


DEBRUIJN = 0x03F79D71B4CB0A89
DEBRUIJN_INDEX = np.array(_debruijn_table(), dtype=np.int64)


@numba.njit(cache=True)
def _lsb_index(low: Any) -> Any:
    """Index of the single set bit of ``low`` (a power of two), by a de Bruijn multiply."""
    return DEBRUIJN_INDEX[(np.uint64(low) * np.uint64(DEBRUIJN)) >> np.uint64(58)]


# Columns of the search stack: one row per depth (one card played per level).
C_P, C_NP, C_LF, C_WP, C_WB, C_TB, C_TL = 0, 1, 2, 3, 4, 5, 6
C_A, C_B, C_A0, C_B0, C_BEST, C_NM, C_MI, C_SLOT, C_CARD, C_WON = range(7, 17)
C_KEY = 17  # .. 20: the node's table key (normalised hands)
C_MOVES = 21  # .. 28: the node's moves, in search order
STACK_COLS = 32
MAX_DEPTH = 24
# Transposition table columns.
T_KEY, T_P, T_GEN, T_LO, T_HI, T_MOVE = 0, 4, 5, 6, 7, 8
TT_COLS = 9
C_BEST_MOVE = 29  # the card that gave C_BEST
C_TT_MOVE = 30  # the best card the table remembers for this node, or -1
NODES = MAX_DEPTH - 1  # the stack's last row (never a search depth) counts nodes in column 0
ENTER, NEXT, RETURN = 0, 1, 2


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
                # Sure tricks: whoever holds the highest trump left, and the next ones below it
                # in an unbroken run, wins a trick with each (one per trick, none can be
                # beaten). A bound for that player's team that may settle the window.
                trumps = in_all & field_mask[3]
                if trumps != 0:
                    top = np.int64(58)
                    while not (trumps >> top) & 1:
                        top -= 1
                    owner = 0
                    while not (hands[owner] >> top) & 1:
                        owner += 1
                    sure = np.int64(0)
                    bit_i = top
                    while bit_i >= 48 and (trumps >> bit_i) & 1 and (hands[owner] >> bit_i) & 1:
                        sure += 1
                        bit_i -= 1
                    if maker[owner] == 1:
                        if sure >= b:
                            ret = sure
                            continue
                    elif tl - sure <= a:
                        ret = tl - sure
                        continue
                # Table key: each hand with the cards out of play squeezed out of its suit,
                # so positions differing only in which equivalent cards fell share an entry.
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
                    for i in range(k):
                        if hands[i] & low:
                            stk[d, C_KEY + i] |= np.int64(1) << nb
                            break
                h = np.uint64(p + 1) * np.uint64(0x9E3779B97F4A7C15)
                for i in range(k):
                    h = (h ^ np.uint64(stk[d, C_KEY + i])) * np.uint64(0xBF58476D1CE4E5B9)
                    h ^= h >> np.uint64(29)
                slot = np.int64(h >> np.uint64(64 - TT_BITS))
                hit = tt[slot, T_GEN] == gen and tt[slot, T_P] == p
                if hit:
                    for i in range(k):
                        if tt[slot, T_KEY + i] != stk[d, C_KEY + i]:
                            hit = False
                            break
                if hit:
                    stk[d, C_TT_MOVE] = tt[slot, T_MOVE]
                    lo = tt[slot, T_LO]
                    hi = tt[slot, T_HI]
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
            rest = legal
            while rest != 0:
                low = rest & -rest
                rest ^= low
                higher = in_play & field_mask[_lsb_index(low) >> 4] & ~((low << 1) - 1)
                if higher == 0 or (hand & (higher & -higher)) == 0:
                    reps |= low
            # Order: a leader's high cards first; a follower's cheapest card that takes the
            # trick first, or simply its cheapest when the team already holds the trick.
            n = 0
            if nplayed == 0:
                rest = reps
                while rest != 0:
                    low = rest & -rest
                    rest ^= low
                    stk[d, C_MOVES + n] = _lsb_index(low)
                    n += 1
                for i in range(n // 2):  # into high-first order
                    t = stk[d, C_MOVES + i]
                    stk[d, C_MOVES + i] = stk[d, C_MOVES + n - 1 - i]
                    stk[d, C_MOVES + n - 1 - i] = t
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
                    same = tt[slot, T_GEN] == gen and tt[slot, T_P] == p
                    if same:
                        for i in range(k):
                            if tt[slot, T_KEY + i] != stk[d, C_KEY + i]:
                                same = False
                                break
                    lo = tt[slot, T_LO] if same else np.int64(0)
                    hi = tt[slot, T_HI] if same else stk[d, C_TL]
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
                    tt[slot, T_P] = p
                    tt[slot, T_GEN] = gen
                    tt[slot, T_LO] = lo
                    tt[slot, T_HI] = hi
                    tt[slot, T_MOVE] = stk[d, C_BEST_MOVE]
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
def _batch_kernel(hands: Any, info: Any, field_mask: Any, out_bits: Any, out_vals: Any,
                  tt: Any, gen0: Any, values_only: Any) -> Any:
    """For each position (a row of ``hands`` and ``info``), fills the bits of the mover's
    lawful cards and the makers' tricks from now on after each (equivalent cards share one
    search), or with ``values_only`` just the position's value in ``out_vals[w, 0]``. Returns
    the next free table generation and the number of nodes searched."""
    stk = np.zeros((MAX_DEPTH, STACK_COLS), dtype=np.int64)
    moves = np.zeros(8, dtype=np.int64)
    gen = gen0
    for w in range(hands.shape[0]):
        gen += 1
        h = hands[w]
        k = info[w, I_K]
        maker = info[w, I_MAKER:I_MAKER + 4]
        p = info[w, I_MOVER]
        nplayed = info[w, I_NPLAYED]
        led_f = info[w, I_LED]
        win_p = info[w, I_WIN_P]
        win_b = info[w, I_WIN_B]
        table = info[w, I_TABLE]
        tl = info[w, I_TL]
        if values_only:
            out_vals[w, 0] = _search(h, k, maker, field_mask, tt, gen, stk, p, nplayed, led_f,
                                     win_p, win_b, table, tl, np.int64(-1), tl + 1)
            continue
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
        for j in range(n):
            c = moves[n - 1 - j]
            low = np.int64(1) << c
            higher = in_play & field_mask[c >> 4] & ~((low << 1) - 1)
            out_bits[w, j] = c
            if j > 0 and higher != 0 and (hand & (higher & -higher)) != 0:
                out_vals[w, j] = out_vals[w, j - 1]
                continue
            q, nq, lf, wp, wb, tb, tl2, won = _child(h, k, maker, p, nplayed, led_f, win_p,
                                                      win_b, table, tl, c)
            v = _search(h, k, maker, field_mask, tt, gen, stk, q, nq, lf, wp, wb, tb, tl2,
                        np.int64(-1), tl2 + 1)
            h[p] ^= low  # _child took the card from the hand
            out_vals[w, j] = won + v
    return gen, stk[NODES, 0]


# ---------------------------------------------------------------------------------------------
# Python side: packing positions, one call per batch


class _Table:
    """The transposition table, kept for the process (allocating it costs more than a small
    solve); a generation number per position makes old entries invisible without clearing."""

    def __init__(self) -> None:
        self.tt = np.zeros((TT_SIZE, TT_COLS), dtype=np.int64)
        self.next_gen = 0
        self.nodes = 0
        """Search nodes (cards tried) in the latest call: for measurements."""


_TT = _Table()


def _chunk_tables(enc: list[int]) -> tuple[list[int], list[int], list[int]]:
    """Encoded masks of every 11-bit chunk of card ids, so a hand encodes in three lookups."""
    out = []
    for base in (0, 11, 22):
        table = []
        for m in range(2048):
            v = 0
            for i in range(11):
                if m >> i & 1 and base + i < NUM_CARD_IDS:
                    v |= 1 << enc[base + i]
            table.append(v)
        out.append(table)
    return out[0], out[1], out[2]


_CHUNKS = [_chunk_tables(t[0]) for t in _TABLES]


def _pack(positions: Sequence[Position]) -> tuple[Any, Any]:
    """(hands, info) arrays for the kernel: hands per position in play order, encoded; one row
    of ``info`` (I_* columns) per position."""
    n = len(positions)
    hands_rows: list[list[int]] = []
    info_rows: list[list[int]] = []
    for pos in positions:
        enc = _ENCODE_PY[pos.trump]
        t0, t1, t2 = _CHUNKS[pos.trump]
        order = pos.order
        row = [0, 0, 0, 0]
        makers = [0, 0, 0, 0]
        for i, seat in enumerate(order):
            m = pos.hands[seat]
            row[i] = t0[m & 2047] | t1[(m >> 11) & 2047] | t2[m >> 22]
            makers[i] = 1 if seat in pos.maker_seats else 0
        hands_rows.append(row)
        table = 0
        led = win_b = win_p = -1
        if pos.trick:
            for seat, c in pos.trick:
                b = enc[c]
                table |= 1 << b
                if win_b < 0 or (b >> 4 == win_b >> 4 and b > win_b) or (
                        b >> 4 == TRUMP_FIELD and win_b >> 4 != TRUMP_FIELD):
                    win_b, win_p = b, order.index(seat)
            led = enc[pos.trick[0][1]] >> 4
        info_rows.append([len(order), order.index(pos.to_move), len(pos.trick), max(led, 0),
                          win_p, win_b, table, pos.tricks_left, *makers])
    hands = np.array(hands_rows, dtype=np.int64).reshape(n, 4)
    info = np.array(info_rows, dtype=np.int64).reshape(n, INFO_COLS)
    return hands, info


def _run(positions: Sequence[Position], values_only: bool) -> tuple[Any, Any]:
    hands, info = _pack(positions)
    n = len(positions)
    out_bits = np.full((n, MAX_MOVES), -1, dtype=np.int64)
    out_vals = np.zeros((n, MAX_MOVES), dtype=np.int64)
    tt = _TT
    kernel = cast(Any, _batch_kernel)
    gen, nodes = kernel(hands, info, FIELD_MASK, out_bits, out_vals, tt.tt,
                        np.int64(tt.next_gen), values_only)
    tt.next_gen = int(gen)
    tt.nodes = int(nodes)
    return out_bits, out_vals


def fast_move_values(positions: Sequence[Position]) -> list[dict[int, int]]:
    """For each position, the makers' final tricks after each lawful card of its player to
    move, all positions solved in one compiled call."""
    if not positions:
        return []
    out_bits, out_vals = _run(positions, False)
    results: list[dict[int, int]] = []
    bits = out_bits.tolist()
    vals = out_vals.tolist()
    for w, pos in enumerate(positions):
        dec = _DECODE_PY[pos.trump]
        taken = pos.maker_tricks_taken
        row = {dec[b]: taken + v for b, v in zip(bits[w], vals[w], strict=True) if b >= 0}
        results.append(dict(sorted(row.items())))
    return results


def fast_values(positions: Sequence[Position]) -> list[int]:
    """For each position, the makers' final tricks under best play, in one compiled call."""
    if not positions:
        return []
    _, out_vals = _run(positions, True)
    return [pos.maker_tricks_taken + v for pos, v in zip(positions, out_vals[:, 0].tolist(),
                                                          strict=True)]


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

