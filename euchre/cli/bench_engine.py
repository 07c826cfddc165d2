"""``euchre bench engine``: speed measured side by side with a named peer in the same run.

The engine benchmark plays uniformly random legal actions through the public API
(``HandState.deal``, ``legal_actions``, ``apply_action``) and the same loop through OpenSpiel's
Python API (``pyspiel``), when installed, the two interleaved in short rounds
(:mod:`euchre.cli._measure`), and prints the median ratio and its spread.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from euchre._build import describe
from euchre.cli import Subparsers, positive_seconds
from euchre.cli._measure import Rate, Runner, interleave, positive_rounds
from euchre.rules import PRESETS, Rules, preset
from euchre.state import HandState


@dataclass(frozen=True)
class BenchResult:
    name: str
    hands: int
    seconds: float
    decisions: int
    cpu: float = 0.0
    """This process's CPU seconds over the same run."""

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
    cpu0 = time.process_time()
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
            return BenchResult("euchre", hands, now - start, decisions,
                               time.process_time() - cpu0)


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
    cpu0 = time.process_time()
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
            return BenchResult("openspiel", hands, now - start, steps,
                               time.process_time() - cpu0)


def openspiel_runner(seed: int = 0) -> Runner | None:
    """A runner of OpenSpiel's Python loop for :func:`~euchre.cli._measure.interleave` (each
    round continues from its own generator), or None when OpenSpiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        return None
    rounds = iter(range(1 << 30))

    def run(seconds: float) -> Rate:
        r = bench_openspiel(seconds, seed + next(rounds))
        assert r is not None
        return Rate(r.hands, r.seconds, r.cpu)

    return run


def run_engine_bench(seconds: float, preset_name: str, seed: int, rounds: int = 5) -> str:
    """Our engine and OpenSpiel's Python loop, ``seconds`` each in all, interleaved over
    ``rounds`` rounds; the median per-round ratio and its spread."""
    rules = preset(preset_name)
    build = describe()
    steps: list[float] = []
    round_seeds = iter(range(1 << 30))

    def ours(secs: float) -> Rate:
        r = bench_engine(secs, rules, seed + next(round_seeds))
        steps.append(r.steps_per_hand)
        return Rate(r.hands, r.seconds, r.cpu)

    peer = openspiel_runner(seed)
    if peer is None:
        r = bench_engine(seconds, rules, seed)
        return (f"euchre engine ({preset_name}, {build}): {r.hands_per_s:,.0f} hands/s "
                f"({r.steps_per_hand:.1f} decisions a hand)\n"
                "OpenSpiel not installed (pip install open-spiel): no peer measured")
    res = interleave(ours, peer, rounds, seconds / rounds)
    return "\n".join([
        f"euchre engine ({preset_name}, {build}): {res.ours_per_s:,.0f} random hands/s "
        f"({statistics.mean(steps):.1f} decisions a hand)",
        f"OpenSpiel euchre (pyspiel, Python loop): {res.peer_per_s:,.0f} random hands/s "
        "(about 43 steps a hand, 22 of them chance steps)",
        res.summary("euchre", "OpenSpiel"),
    ])


def register(sub: Subparsers) -> None:
    bp = sub.add_parser("engine", help="random full hands per second, OpenSpiel in the same run")
    bp.add_argument("--seconds", type=positive_seconds, default=5.0,
                    help="time per side, split over the rounds, 0.1 to 3600 (5)")
    bp.add_argument("--preset", choices=sorted(PRESETS), default="standard",
                    help="rules preset for our engine (standard)")
    bp.add_argument("--rounds", type=positive_rounds, default=5,
                    help="interleaved rounds the time is split into, 1 to 1000 (5)")
    bp.add_argument("--seed", type=int, default=0, help="random seed (0)")
    bp.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    print(run_engine_bench(args.seconds, args.preset, args.seed, args.rounds))
    return 0
