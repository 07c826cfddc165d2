"""Measure one bot against another on shared seeded deals, with confidence intervals.

Each deal is played once per seating (two seatings for two and four players, three for
cutthroat), so both sides hold the same cards in turn and the luck of the deal cancels out. The
unit of the statistics is the deal (its seatings averaged), which keeps the 95% interval honest
about that pairing. Run ``python -m euchre.bots.evaluate --hands 2000`` for the figure the README
quotes.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from euchre.bots import make_bot
from euchre.bots.base import Bot
from euchre.rules import PRESETS, Rules, preset
from euchre.state import HandState


@dataclass(frozen=True, slots=True)
class SideResult:
    """Mean points per hand of one side, with its 95% confidence interval."""

    name: str
    mean: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.name}: {self.mean:.3f} points/hand (95% CI {self.low:.3f}..{self.high:.3f})"


@dataclass(frozen=True, slots=True)
class Evaluation:
    hands: int
    a: SideResult
    b: SideResult
    diff: SideResult
    decisions: int
    """Decisions taken by side A's bots (timed)."""
    mean_decision_ms: float
    max_decision_ms: float
    p50_decision_ms: float = 0.0
    p95_decision_ms: float = 0.0

    def __str__(self) -> str:
        return "\n".join([
            f"{self.hands} hands, each deal played from both (all) seatings",
            str(self.a),
            str(self.b),
            str(self.diff),
            f"{self.a.name} decision time: mean {self.mean_decision_ms:.3f} ms, "
            f"p50 {self.p50_decision_ms:.3f} ms, p95 {self.p95_decision_ms:.3f} ms, "
            f"max {self.max_decision_ms:.3f} ms over {self.decisions} decisions",
        ])


def _ci(name: str, xs: Sequence[float]) -> SideResult:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return SideResult(name, mean, mean - half, mean + half)


def _seatings(players: int) -> list[set[int]]:
    """Seats side A takes in each seating of a deal."""
    if players == 4:
        return [{0, 2}, {1, 3}]
    return [{s} for s in range(players)]


def _play_deal(
    a: str, b: str, seed: int, d: int, rules: Rules, think: object, paired: bool = False,
    clock: str = "wall",
) -> tuple[float, float, list[float]]:
    """One deal from every seating: (side A's mean points, side B's, A's decision times).

    ``paired``: each seat's bot gets the same seed in every seating, so where two players
    decide alike (the search player and its naive-bidding twin share their card play) both
    seatings play the same hand and only the decisions that differ move the result."""
    n = rules.players
    seatings = _seatings(n)
    timer = time.perf_counter if clock == "wall" else time.thread_time
    rng = random.Random(seed * 1_000_003 + d)
    dealer = d % n
    deck = HandState.deal(rules, dealer, rng).deck
    xa = xb = 0.0
    times: list[float] = []
    for k, a_seats in enumerate(seatings):
        bots: list[Bot] = [
            make_bot(a if s in a_seats else b, seed * 7919 + d * 17 + (0 if paired else k * 5) + s,
                     think=think)
            for s in range(n)
        ]
        h = HandState(rules, dealer, deck)
        while not h.is_terminal():
            seat = h.cur
            view = h.view(seat)
            if seat in a_seats:
                t0 = timer()
                action = bots[seat].choose(view)
                times.append(timer() - t0)
            else:
                action = bots[seat].choose(view)
            h.apply_action(action)
        a_sides = {h.side_of(s) for s in a_seats}
        b_sides = {h.side_of(s) for s in range(n) if s not in a_seats}
        xa += sum(h.points[s] for s in a_sides) / len(a_sides)
        xb += sum(h.points[s] for s in b_sides) / len(b_sides)
    return xa / len(seatings), xb / len(seatings), times


def evaluate(
    a: str = "rule",
    b: str = "random",
    hands: int = 2000,
    seed: int = 0,
    rules: Rules | None = None,
    think: object = None,
    jobs: int = 1,
    paired: bool = False,
    progress: Callable[[str], None] | None = None,
    clock: str = "wall",
) -> Evaluation:
    """Play about ``hands`` single hands (whole deals times their seatings) of bot ``a``'s side
    against bot ``b``'s and return each side's mean points per hand with 95% intervals.

    ``think`` is the search levels' budget; ``jobs`` > 1 plays deals in that many processes
    (the same deals and bots, so the same result). ``clock`` times side A's decisions by
    "wall" clock or by this thread's "cpu" time, which a busy shared machine does not inflate."""
    if clock not in ("wall", "cpu"):
        raise ValueError(f"clock must be 'wall' or 'cpu', not {clock!r}")
    rules = rules or Rules()
    seatings = _seatings(rules.players)
    deals = max(2, math.ceil(hands / len(seatings)))
    results: list[tuple[float, float, list[float]]] = []

    def note(r: tuple[float, float, list[float]]) -> None:
        results.append(r)
        if progress is not None and len(results) % 25 == 0:
            diffs = [x - y for x, y, _ in results]
            progress(f"{len(results) * len(seatings)} hands: {_ci(f'{a} - {b}', diffs)}")

    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            for r in pool.map(_play_deal, *zip(*[(a, b, seed, d, rules, think, paired, clock)
                                                 for d in range(deals)], strict=True),
                              chunksize=2):
                note(r)
    else:
        for d in range(deals):
            note(_play_deal(a, b, seed, d, rules, think, paired, clock))
    a_points = [r[0] for r in results]
    b_points = [r[1] for r in results]
    times = sorted(t for r in results for t in r[2])
    diffs = [x - y for x, y in zip(a_points, b_points, strict=True)]

    def pct(q: float) -> float:
        return 1000 * times[min(len(times) - 1, int(q * len(times)))] if times else 0.0

    return Evaluation(
        hands=deals * len(seatings),
        a=_ci(a, a_points),
        b=_ci(b, b_points),
        diff=_ci(f"{a} - {b}", diffs),
        decisions=len(times),
        mean_decision_ms=1000 * sum(times) / max(1, len(times)),
        max_decision_ms=1000 * max(times, default=0.0),
        p50_decision_ms=pct(0.5),
        p95_decision_ms=pct(0.95),
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m euchre.bots.evaluate",
                                description="Bot against bot on shared seeded deals.")
    p.add_argument("--a", default="rule", help="bot of side A (rule)")
    p.add_argument("--b", default="random", help="bot of side B (random)")
    p.add_argument("--hands", type=int, default=2000, help="hands to play (2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (0)")
    p.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    p.add_argument("--think", default=None,
                   help="search levels' budget: deals per decision (200) or a time (0.5s)")
    p.add_argument("--jobs", type=int, default=1, help="processes (1)")
    p.add_argument("--paired-seeds", action="store_true",
                   help="each seat's bot keeps its seed in every seating, so players that "
                        "decide alike play identical hands (search against pimc-naive)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="time side A's decisions by wall clock or by this thread's CPU time")
    args = p.parse_args(argv)
    print(evaluate(args.a, args.b, args.hands, args.seed, preset(args.preset), args.think,
                   max(1, args.jobs), args.paired_seeds,
                   progress=lambda line: print(line, file=sys.stderr, flush=True),
                   clock=args.clock))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
