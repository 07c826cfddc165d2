"""Means with 95% confidence intervals, the one implementation every strength figure uses.

The unit of every interval is a *duplicate set*: one deal (or one game's sequence of deals)
played from every seating, its seatings averaged. Seatings of one deal share its luck, so their
results are strongly correlated; treating each hand as independent would make the interval too
narrow for the points of each side and too wide for the margin. Averaging within the set first
and taking the spread between sets is what makes the margin's interval reflect the variance
that duplicate dealing removes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Two-sided 95% normal quantile. Sets number in the hundreds at least, where Student's t and
#: the normal agree to the third digit.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class MeanCI:
    """A sample mean with its 95% confidence interval and the number of sets behind it."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of 0 (a significant difference)."""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}

    def __str__(self) -> str:
        return f"{self.mean:+.3f} (95% CI {self.low:+.3f} .. {self.high:+.3f})"


def mean_ci(xs: Sequence[float]) -> MeanCI:
    """Mean of ``xs`` with a normal 95% interval from the sample standard deviation.

    One value gives a zero-width interval (there is no spread to estimate); none is an error,
    because a figure with no data behind it must not look like a zero."""
    n = len(xs)
    if n == 0:
        raise ValueError("no results to average")
    mean = math.fsum(xs) / n
    if n == 1:
        return MeanCI(mean, mean, mean, 1)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return MeanCI(mean, mean - half, mean + half, n)


class RunningMeanCI:
    """The mean and 95% interval of the values added so far, updated one value at a time (the
    progress bar's running margin, the plot's curve).

    Welford's update keeps it one pass and numerically steady over hundreds of thousands of
    sets."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (x - self.mean)

    @property
    def half_width(self) -> float:
        """Half the 95% interval (0 before there are two values to spread)."""
        return Z95 * math.sqrt(self._m2 / (self.n - 1) / self.n) if self.n > 1 else 0.0

    def ci(self) -> MeanCI:
        if self.n == 0:
            raise ValueError("no results to average")
        half = self.half_width
        return MeanCI(self.mean, self.mean - half, self.mean + half, self.n)


def running_mean_ci(xs: Sequence[float]) -> tuple[list[float], list[float], list[float]]:
    """(mean, low, high) after each prefix of ``xs``: the curve and band of a running plot."""
    means: list[float] = []
    lows: list[float] = []
    highs: list[float] = []
    acc = RunningMeanCI()
    for x in xs:
        acc.add(x)
        ci = acc.ci()
        means.append(ci.mean)
        lows.append(ci.low)
        highs.append(ci.high)
    return means, lows, highs


class TimeHistogram:
    """Decision times in bins 1% wide on a log scale: the percentiles of millions of decisions
    in a few kilobytes, mergeable across units and workers.

    A tournament of a million hands takes some 25 million decisions; keeping every time would
    cost gigabytes. Bin ``k`` (k >= 1) holds times in ``(FLOOR * RATIO**(k-1), FLOOR *
    RATIO**k]``, bin 0 everything up to ``FLOOR``; a quantile is its bin's upper edge (never
    above the largest time seen), so it is at most 1% above the exact nearest-rank value and
    never below it. The count, the total (for the mean) and the maximum are exact."""

    FLOOR = 1e-7  # seconds: a tenth of a microsecond, below any decision's cost
    RATIO = 1.01

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.n = 0
        self.total = 0.0
        self.max = 0.0

    def _bin(self, seconds: float) -> int:
        if seconds <= self.FLOOR:
            return 0
        k = math.ceil(math.log(seconds / self.FLOOR) / math.log(self.RATIO))
        # Rounding in log() may put a time on an edge one bin low; the edge test settles it.
        while self.FLOOR * self.RATIO ** k < seconds:
            k += 1
        return max(1, k)

    def add(self, seconds: float) -> None:
        k = self._bin(seconds)
        self.counts[k] = self.counts.get(k, 0) + 1
        self.n += 1
        self.total += seconds
        self.max = max(self.max, seconds)

    def merge(self, other: TimeHistogram) -> None:
        for k, c in other.counts.items():
            self.counts[k] = self.counts.get(k, 0) + c
        self.n += other.n
        self.total += other.total
        self.max = max(self.max, other.max)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def quantile(self, q: float) -> float:
        """The nearest-rank ``q`` quantile (0 < q <= 1), to 1% (see the class docstring)."""
        if not self.n:
            raise ValueError("no times to take a quantile of")
        if not 0 < q <= 1:
            raise ValueError(f"a quantile lies in (0, 1], not {q}")
        rank = max(1, math.ceil(q * self.n))
        seen = 0
        for k in sorted(self.counts):
            seen += self.counts[k]
            if seen >= rank:
                return min(self.max, self.FLOOR * self.RATIO ** k)
        return self.max  # pragma: no cover - the counts add up to n
