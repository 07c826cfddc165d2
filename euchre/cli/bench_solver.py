"""``euchre bench solver``: double-dummy solves per second, the compiled kernel against the
plain-Python reference solver in the same run.

Deals are random (seeded) four-handed 24-card deals at the first lead, with trump (spades) and
the maker (East, with partner, North dealing so East leads) fixed. Each solve is timed on its
own, through the public entry points (``fast_values`` / ``fast_move_values`` of
:mod:`euchre.solver.fast` and the reference's value), so the figures include packing the
position and the call. The two solvers alternate in short rounds, so a busy shared machine
slows both alike; the ratio is taken per round, on the same deals, and reported as a median
with its spread. Times are wall clock; the thread's CPU time is shown beside it, because on a
loaded machine the wall clock's slow tail is mostly time spent descheduled.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from euchre.cards import SPADES, deck_cards
from euchre.cli import Subparsers
from euchre.rules import Rules
from euchre.solver import available_backends
from euchre.solver.deal import play_state
from euchre.solver.position import Position, position_of
from euchre.solver.reference import reference_value


def bench_deals(count: int, seed: int) -> list[Position]:
    """``count`` random full deals at the first lead: spades trump, East the maker with
    partner, North dealing (so East leads)."""
    rng = random.Random(seed)
    rules = Rules()
    deck = list(deck_cards(24))
    out = []
    for _ in range(count):
        rng.shuffle(deck)
        hands = [deck[5 * i:5 * i + 5] for i in range(4)]
        out.append(position_of(play_state(rules, hands, SPADES, maker=1, leader=1)))
    return out


@dataclass
class Timings:
    """Per-solve wall and CPU seconds of one solver."""

    wall: list[float]
    cpu: list[float]

    def add(self, other: Timings) -> None:
        self.wall += other.wall
        self.cpu += other.cpu


def _time_each(solve_one: Callable[[Position], object], deals: Sequence[Position]) -> Timings:
    wall: list[float] = []
    cpu: list[float] = []
    clock = time.perf_counter
    thread = time.thread_time
    for pos in deals:
        c0 = thread()
        t0 = clock()
        solve_one(pos)
        t1 = clock()
        c1 = thread()
        wall.append(t1 - t0)
        cpu.append(c1 - c0)
    return Timings(wall, cpu)


def _single(batch: Callable[[Sequence[Position]], object]) -> Callable[[Position], object]:
    """One position through a batch entry point: what a caller with one deal pays."""

    def one(pos: Position) -> object:
        return batch([pos])

    return one


def _p95(xs: Sequence[float]) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _line(name: str, t: Timings) -> str:
    med = statistics.median(t.wall)
    return (f"{name:<34} median {med * 1e3:7.4f} ms  p95 {_p95(t.wall) * 1e3:7.4f} ms  "
            f"{1 / med:10,.0f} solves/s   (CPU: median {statistics.median(t.cpu) * 1e3:.4f} "
            f"ms, p95 {_p95(t.cpu) * 1e3:.4f} ms)   n={len(t.wall)}")


def run_solver_bench(deals: int, peer_every: int, rounds: int, seed: int) -> str:
    positions = bench_deals(deals, seed)
    lines = [f"{deals:,} random deals (4 players, 24 cards, spades trump, East makes with "
             f"partner and leads), seed {seed}; {rounds} interleaved rounds"]
    have_numba = "numba" in available_backends()
    fast_values = fast_moves = None
    if have_numba:
        from euchre.solver import fast

        warm = fast.warm_up()
        lines.append(f"numba kernel ready in {warm:.2f}s (JIT compile, or load from numba's "
                     "on-disk cache when present)")
        fast_values, fast_moves = fast.fast_values, fast.fast_move_values
    else:
        lines.append("numba is not available (or EUCHRE_NO_NUMBA is set): only the reference "
                     "is measured")

    def ref_one(pos: Position) -> object:
        return reference_value(pos)

    kernel_value = Timings([], [])
    kernel_moves = Timings([], [])
    reference = Timings([], [])
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    chunk = -(-deals // rounds)
    for r in range(rounds):
        part = positions[r * chunk:(r + 1) * chunk]
        if not part:
            break
        peer_part = part[::peer_every]
        ref_t = _time_each(ref_one, peer_part)
        reference.add(ref_t)
        if fast_values is not None and fast_moves is not None:
            val_t = _time_each(_single(fast_values), part)
            kernel_value.add(val_t)
            kernel_moves.add(_time_each(_single(fast_moves), part))
            ratios.append(statistics.median(ref_t.wall)
                          / statistics.median(val_t.wall[::peer_every]))
            cpu_ratios.append(statistics.median(ref_t.cpu)
                              / statistics.median(val_t.cpu[::peer_every]))
    if kernel_value.wall:
        lines.append(_line("numba kernel, value", kernel_value))
        lines.append(_line("numba kernel, every move's value", kernel_moves))
        assert fast_values is not None
        c0 = time.thread_time()
        start = time.perf_counter()
        fast_values(positions)
        batch = time.perf_counter() - start
        batch_cpu = time.thread_time() - c0
        lines.append(f"numba kernel, value, all {deals:,} deals in one call: "
                     f"{batch / deals * 1e3:.4f} ms a deal, {deals / batch:,.0f} solves/s "
                     f"(CPU: {batch_cpu / deals * 1e3:.4f} ms a deal; one long call is the "
                     "likeliest to be descheduled on a busy machine)")
    lines.append(_line(f"pure-Python reference, value (1 deal in {peer_every})", reference))
    for what, rs in (("wall", ratios), ("CPU", cpu_ratios)):
        if rs:
            lines.append(f"ratio reference/kernel per round, same deals, {what} time: median "
                         f"{statistics.median(rs):.0f}x, spread {min(rs):.0f}x-{max(rs):.0f}x "
                         f"over {len(rs)} rounds")
    return "\n".join(lines)


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= v <= 1_000_000:
        raise argparse.ArgumentTypeError(f"must be between 1 and 1000000, not {text}")
    return v


def register(sub: Subparsers) -> None:
    bp = sub.add_parser(
        "solver",
        help="double-dummy solves per second: numba kernel vs the pure-Python reference",
        description="Times double-dummy solves of random full deals (spades trump, East makes "
                    "and leads): the numba kernel on every deal, the pure-Python reference "
                    "on every Nth, interleaved in rounds; prints median and p95 ms per solve, "
                    "solves/s and the per-round ratio.",
    )
    bp.add_argument("--deals", type=_positive, default=1000, help="random deals (1000)")
    bp.add_argument("--peer-every", type=_positive, default=10,
                    help="the reference solves every Nth deal, as it is slow (10)")
    bp.add_argument("--rounds", type=_positive, default=10,
                    help="interleaved rounds, for the ratio's spread (10)")
    bp.add_argument("--seed", type=int, default=0, help="random seed (0)")
    bp.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    print(run_solver_bench(args.deals, args.peer_every, args.rounds, args.seed))
    return 0
