"""``euchre bench batch``: the numba batch simulator against OpenSpiel's Python loop.

Both sides play whole hands of uniformly random legal actions: ours in chunks of hands per
compiled call (:func:`euchre.rl.batch.play_random`), OpenSpiel through ``pyspiel`` one step at a
time (the loop of ``euchre bench engine``), each in one thread. The two alternate in short
rounds (:mod:`euchre.cli._measure`); the median per-round ratio and its spread are printed, in
wall-clock and in CPU time. The JIT
compile happens (or the on-disk cache loads) before the first round, outside the timing.
"""

from __future__ import annotations

import argparse
import itertools
import time

from euchre.cli import Subparsers, positive_seconds
from euchre.cli._measure import Rate, Runner, interleave, positive_rounds
from euchre.cli.bench_engine import openspiel_runner
from euchre.rules import Rules

VARIANTS = {
    "standard": Rules(),
    "stick": Rules(stick_the_dealer=True),
    "defend-alone": Rules(defend_alone=True),
    "no-alone": Rules(going_alone=False),
}


def batch_runner(rules: Rules, chunk: int, seed: int) -> tuple[float, Runner]:
    """Compile (or load) the kernel, then return its runner; the first value is the seconds
    the warm-up took."""
    from euchre.rl.batch import play_random

    t0 = time.perf_counter()
    play_random(rules, 16, seed)
    warm = time.perf_counter() - t0
    seeds = itertools.count(seed + 1)

    def run(seconds: float) -> Rate:
        hands = 0
        start = time.perf_counter()
        cpu0 = time.process_time()
        deadline = start + seconds
        while True:
            play_random(rules, chunk, next(seeds))
            hands += chunk
            now = time.perf_counter()
            if now >= deadline:
                return Rate(hands, now - start, time.process_time() - cpu0)

    return warm, run


def run_batch_bench(seconds: float, variant: str, rounds: int, chunk: int, seed: int) -> str:
    rules = VARIANTS[variant]
    warm, ours = batch_runner(rules, chunk, seed)
    lines = [f"numba kernel ready in {warm:.2f}s (JIT compile or on-disk cache load; not timed)"]
    peer = openspiel_runner(seed)
    if peer is None:
        rate = ours(seconds)
        lines.append(f"batch ({variant}): {rate.per_s:,.0f} random hands/s; OpenSpiel not "
                     "installed (pip install open-spiel): no peer measured")
        return "\n".join(lines)
    res = interleave(ours, peer, rounds, seconds / rounds)
    lines += [
        f"batch simulator ({variant}, {chunk:,} hands a call, one thread): "
        f"{res.ours_per_s:,.0f} random hands/s",
        f"OpenSpiel euchre (pyspiel, Python loop): {res.peer_per_s:,.0f} random hands/s",
        res.summary("batch", "OpenSpiel"),
    ]
    return "\n".join(lines)


def _chunk(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of hands") from None
    if not 1 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError(f"chunk must be 1 to 10,000,000 hands, not {text}")
    return value


def register(sub: Subparsers) -> None:
    bp = sub.add_parser("batch", help="numba batch hands per second, OpenSpiel interleaved")
    bp.add_argument("--seconds", type=positive_seconds, default=6.0,
                    help="time per side, split over the rounds, 0.1 to 3600 (6)")
    bp.add_argument("--rounds", type=positive_rounds, default=6,
                    help="interleaved rounds, 1 to 1000 (6)")
    bp.add_argument("--variant", choices=sorted(VARIANTS), default="standard",
                    help="table rules the kernel plays (standard)")
    bp.add_argument("--chunk", type=_chunk, default=20_000,
                    help="hands per compiled call (20000)")
    bp.add_argument("--seed", type=int, default=0, help="random seed (0)")
    bp.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        import numba  # noqa: F401
    except ImportError:
        print("euchre bench batch needs the rl extra: pip install 'euchre[rl]'")
        return 1
    print(run_batch_bench(args.seconds, args.variant, args.rounds, args.chunk, args.seed))
    return 0
