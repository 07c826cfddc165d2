"""``euchre bench engine``: speed measured side by side with a named peer in the same run.

The engine benchmark plays uniformly random legal actions through the public API
(``HandState.deal``, ``legal_actions``, ``apply_action``) for a fixed time, then runs the same loop
through OpenSpiel's Python API (``pyspiel``), when installed, and prints the ratio.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from euchre.cli import Subparsers, positive_seconds
from euchre.rules import PRESETS, Rules, preset
from euchre.state import HandState


@dataclass(frozen=True)
class BenchResult:
    name: str
    hands: int
    seconds: float
    decisions: int

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds

    @property
    def steps_per_hand(self) -> float:
        return self.decisions / self.hands


def bench_engine(seconds: float, rules: Rules, seed: int = 0) -> BenchResult:
    rng = random.Random(seed)
    rnd = rng.random
    hands = decisions = 0
    players = rules.players
    deal = HandState.deal
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            s = deal(rules, hands % players, rng)
            while not s.is_terminal():
                la = s.legal_actions()
                s.apply_action(la[int(rnd() * len(la))])
                decisions += 1
            hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return BenchResult("euchre", hands, now - start, decisions)


def bench_openspiel(seconds: float, seed: int = 0) -> BenchResult | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(seed)
    rnd = rng.random
    hands = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            s = game.new_initial_state()
            while not s.is_terminal():
                la = s.legal_actions()
                s.apply_action(la[int(rnd() * len(la))])
                steps += 1
            hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return BenchResult("openspiel", hands, now - start, steps)


def run_engine_bench(seconds: float, preset_name: str, seed: int) -> str:
    rules = preset(preset_name)
    ours = bench_engine(seconds, rules, seed)
    import euchre.state

    build = "mypyc-compiled" if not euchre.state.__file__.endswith(".py") else "pure Python"
    lines = [
        f"euchre engine ({preset_name}, {build}): {ours.hands:,} random hands in "
        f"{ours.seconds:.2f}s = "
        f"{ours.hands_per_s:,.0f} hands/s ({ours.steps_per_hand:.1f} decisions a hand)"
    ]
    peer = bench_openspiel(seconds, seed)
    if peer is None:
        lines.append("OpenSpiel not installed (pip install open-spiel): no peer measured")
    else:
        lines.append(
            f"OpenSpiel euchre (pyspiel): {peer.hands:,} random hands in {peer.seconds:.2f}s = "
            f"{peer.hands_per_s:,.0f} hands/s ({peer.steps_per_hand:.1f} steps a hand, "
            "chance steps included)"
        )
        lines.append(f"ratio euchre/OpenSpiel: {ours.hands_per_s / peer.hands_per_s:.2f}x")
    return "\n".join(lines)


def register(sub: Subparsers) -> None:
    bp = sub.add_parser("engine", help="random full hands per second, OpenSpiel in the same run")
    bp.add_argument("--seconds", type=positive_seconds, default=5.0,
                    help="time per measurement, 0.1 to 3600 (5)")
    bp.add_argument("--preset", choices=sorted(PRESETS), default="standard",
                    help="rules preset for our engine (standard)")
    bp.add_argument("--seed", type=int, default=0, help="random seed (0)")
    bp.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    print(run_engine_bench(args.seconds, args.preset, args.seed))
    return 0
