"""Bot against bot with 95% intervals: a thin, serial front to :mod:`euchre.tournament`.

Kept so that ``python -m euchre.bots.evaluate --a rule --b random`` and ``evaluate(...)`` go on
working; the deals, seatings and statistics are the tournament's own (one implementation), and
``euchre tournament`` is the command to use: it adds all cores, Ray, progress, JSON and plots.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass

from euchre.rules import PRESETS, Rules, preset


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

    def __str__(self) -> str:
        return "\n".join([
            f"{self.hands} hands, each deal played from every seating",
            str(self.a),
            str(self.b),
            str(self.diff),
            f"{self.a.name} decision time: mean {self.mean_decision_ms:.3f} ms, "
            f"max {self.max_decision_ms:.3f} ms over {self.decisions} decisions",
        ])


def evaluate(
    a: str = "rule",
    b: str = "random",
    hands: int = 2000,
    seed: int = 0,
    rules: Rules | None = None,
) -> Evaluation:
    """About ``hands`` single hands (deals times their seatings) of bot ``a`` against bot ``b``
    in this process: each side's mean points per hand and the difference, with 95% intervals
    over duplicate deals."""
    from euchre.tournament import TournamentSpec, parse_player, run, summarize

    spec = TournamentSpec((parse_player(a), parse_player(b)), rules or Rules(), seed)
    deals = max(2, math.ceil(hands / len(spec.seatings)))
    outcome = run(spec, deals, workers=1)
    s = summarize(outcome)
    assert s.per_hand is not None and s.margin is not None
    rs = outcome.results
    decisions = sum(r.decisions[0] for r in rs)
    think = sum(r.think_s[0] for r in rs)

    def side(name: str, ci: object) -> SideResult:
        from euchre.tournament import MeanCI

        assert isinstance(ci, MeanCI)
        return SideResult(name, ci.mean, ci.low, ci.high)

    return Evaluation(
        hands=s.hands,
        a=side(a, s.per_hand[0]),
        b=side(b, s.per_hand[1]),
        diff=side(f"{a} - {b}", s.margin),
        decisions=decisions,
        mean_decision_ms=1000 * think / max(1, decisions),
        max_decision_ms=1000 * max((r.max_think_s[0] for r in rs), default=0.0),
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m euchre.bots.evaluate",
                                description="Bot against bot on duplicate deals, in one "
                                            "process (euchre tournament does more).")
    p.add_argument("--a", default="rule", help="bot of side A (rule)")
    p.add_argument("--b", default="random", help="bot of side B (random)")
    p.add_argument("--hands", type=int, default=2000, help="hands to play (2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (0)")
    p.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    args = p.parse_args(argv)
    print(evaluate(args.a, args.b, args.hands, args.seed, preset(args.preset)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
