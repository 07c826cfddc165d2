"""Interleaved speed measurement: the two sides of a ratio alternate in short rounds.

The machines this project runs on are shared, so a single pair of back-to-back runs drifts by
±30% with whatever else is running. Alternating short rounds (ours, peer; then peer, ours; ...)
exposes both sides to the same load, and the median of the per-round ratios with its spread says
how far to trust the figure. Every ``euchre bench`` kind that prints a ratio uses this.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """One timed run: ``count`` units (hands) in ``seconds`` of wall time, and in ``cpu``
    seconds of this process's CPU time when measured (0: not measured)."""

    count: int
    seconds: float
    cpu: float = 0.0

    @property
    def per_s(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0

    @property
    def per_cpu_s(self) -> float:
        return self.count / self.cpu if self.cpu > 0 else 0.0


Runner = Callable[[float], Rate]
"""Runs for about the given number of seconds and says how much it did."""


@dataclass(frozen=True)
class Interleaved:
    """Per-round rates of both sides and their ratios (ours / peer)."""

    ours: tuple[Rate, ...]
    peer: tuple[Rate, ...]

    @property
    def ratios(self) -> list[float]:
        return [a.per_s / b.per_s for a, b in zip(self.ours, self.peer, strict=True)
                if b.per_s > 0]

    @property
    def median_ratio(self) -> float:
        return statistics.median(self.ratios)

    @property
    def cpu_ratios(self) -> list[float]:
        """Per-round ratios of CPU time: on a shared machine, time spent descheduled or
        slowed by other jobs weighs less here than on the wall clock (empty if not measured)."""
        return [a.per_cpu_s / b.per_cpu_s for a, b in zip(self.ours, self.peer, strict=True)
                if a.cpu > 0 and b.cpu > 0]

    @staticmethod
    def _total(rates: tuple[Rate, ...]) -> float:
        secs = sum(r.seconds for r in rates)
        return sum(r.count for r in rates) / secs if secs else 0.0

    @property
    def ours_per_s(self) -> float:
        return self._total(self.ours)

    @property
    def peer_per_s(self) -> float:
        return self._total(self.peer)

    def summary(self, ours_name: str, peer_name: str, unit: str = "hands") -> str:
        r = self.ratios
        text = (f"{ours_name}/{peer_name} ratio: median {self.median_ratio:.1f}x over "
                f"{len(r)} interleaved rounds (spread {min(r):.1f}x..{max(r):.1f}x; "
                f"{ours_name} {self.ours_per_s:,.0f} {unit}/s, "
                f"{peer_name} {self.peer_per_s:,.0f} {unit}/s)")
        c = self.cpu_ratios
        if c:
            text += (f"\n{ours_name}/{peer_name} ratio in CPU time: median "
                     f"{statistics.median(c):.2f}x (spread {min(c):.2f}x..{max(c):.2f}x)")
        return text


def interleave(ours: Runner, peer: Runner, rounds: int, seconds: float) -> Interleaved:
    """``rounds`` rounds of ``seconds`` per side; the order flips each round so neither side
    always runs first (a warm cache or a load spike then favours nobody)."""
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    a: list[Rate] = []
    b: list[Rate] = []
    for i in range(rounds):
        if i % 2 == 0:
            a.append(ours(seconds))
            b.append(peer(seconds))
        else:
            b.append(peer(seconds))
            a.append(ours(seconds))
    return Interleaved(tuple(a), tuple(b))


def positive_rounds(text: str) -> int:
    """An argparse type: a number of rounds, 1 to 1000."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of rounds") from None
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"rounds must be between 1 and 1000, not {text}")
    return value
