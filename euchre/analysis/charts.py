"""Order-up charts: when does ordering up beat passing, by seat and by hand class?

Each sampled deal (a random shuffle, four players) is walked through round one of the bidding.
At each seat's turn the hand is played out twice from the same deal by the rollout policy of
:mod:`euchre.bots.rollout` (the search player's model of sound play), once after ``order`` and
once after ``pass``, and the difference in the seat's side's points is recorded against the
seat's position (eldest, second, third, dealer) and its hand class (trumps held in the up-card's
suit counting the left bower, bowers, off-suit aces, the up-card's rank). The seat then bids as
the policy would; if it orders, the later seats never get the question on that deal, so every
recorded position is one the seat can really face (the earlier seats passed).

The work is split into chunks of deals, each with its own seed, run on every core
(:class:`concurrent.futures.ProcessPoolExecutor`); the totals do not depend on the number of
processes. The result is a CSV of every cell and PNG heat maps (matplotlib, the ``[plot]``
extra) of the mean gain of ordering up.
"""

from __future__ import annotations

import csv
import math
import random
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from euchre import actions as A
from euchre.bots import rollout
from euchre.cards import (
    ACE,
    EFFECTIVE_SUIT,
    JACK,
    RANK_NAMES,
    Card,
    cards_of,
    left_bower,
    right_bower,
)
from euchre.rules import Rules
from euchre.seats import POSITIONS_4, Seat
from euchre.state import BID1, DECLARE, HandState

__all__ = ["POSITIONS", "Cell", "ChartData", "compute", "draw_charts", "write_csv"]

POSITIONS = POSITIONS_4
#: Deals per chunk of work (one seed each).
CHUNK = 100
#: Heat-map cells with fewer samples than this are left blank.
MIN_CELL = 20

Key = tuple[int, int, int, int, int]
"""(position, trumps, bowers, off-suit aces, up-card rank)"""


@dataclass(slots=True)
class Cell:
    """Running sums for one (position, hand class) cell."""

    n: int = 0
    order: float = 0.0
    passed: float = 0.0
    gain2: float = 0.0

    def add(self, order: float, passed: float) -> None:
        self.n += 1
        self.order += order
        self.passed += passed
        self.gain2 += (order - passed) ** 2

    def merge(self, other: Cell) -> None:
        self.n += other.n
        self.order += other.order
        self.passed += other.passed
        self.gain2 += other.gain2

    @property
    def gain(self) -> float:
        return (self.order - self.passed) / self.n

    @property
    def ci95(self) -> float:
        if self.n < 2:
            return math.inf
        m = self.gain
        var = max(0.0, (self.gain2 - self.n * m * m) / (self.n - 1))
        return 1.96 * math.sqrt(var / self.n)


@dataclass(slots=True)
class ChartData:
    deals: int = 0
    cells: dict[Key, Cell] = field(default_factory=dict)

    def merge(self, other: ChartData) -> None:
        self.deals += other.deals
        for k, c in other.cells.items():
            self.cells.setdefault(k, Cell()).merge(c)

    def marginal(self, dims: tuple[int, int]) -> dict[tuple[int, int, int], Cell]:
        """Cells summed down to (position, key[dims[0]], key[dims[1]])."""
        out: dict[tuple[int, int, int], Cell] = {}
        for k, c in self.cells.items():
            out.setdefault((k[0], k[dims[0]], k[dims[1]]), Cell()).merge(c)
        return out


def hand_class(hand: int, upcard: Card) -> tuple[int, int, int, int]:
    """(trumps, bowers, off-suit aces, up-card rank) of a five-card hand under the up-card."""
    t = upcard >> 3
    eff = EFFECTIVE_SUIT[t]
    cs = cards_of(hand)
    trumps = sum(1 for c in cs if eff[c] == t)
    bowers = sum(1 for c in cs if c in (right_bower(t), left_bower(t)))
    aces = sum(1 for c in cs if c & 7 == ACE and eff[c] != t)
    return trumps, bowers, aces, upcard & 7


def _net(st: HandState, seat: Seat) -> float:
    return float(st.points[seat & 1] - st.points[1 - (seat & 1)])


def run_chunk(job: tuple[dict[str, Any], int, int]) -> ChartData:
    """``deals`` deals from ``seed`` (a unit of work for one process)."""
    rules_dict, seed, deals = job
    rules = Rules.from_dict(rules_dict)
    rng = random.Random(seed)
    data = ChartData(deals=deals)
    for _ in range(deals):
        st = HandState.deal(rules, 0, rng)
        while st.phase == DECLARE:
            st.apply_action(A.PASS)
        for pos in range(4):
            if st.phase != BID1:
                break
            seat = st.cur
            legal = st.legal_actions()
            if A.ORDER in legal and A.PASS in legal:
                vals = []
                for a in (A.ORDER, A.PASS):
                    w = st.clone()
                    w.apply_action(a)
                    rollout.play_out(w)
                    vals.append(_net(w, seat))
                key = (pos, *hand_class(st.hands[seat], st.upcard))
                data.cells.setdefault(key, Cell()).add(vals[0], vals[1])
            act = rollout.policy_action(st)
            if act != A.PASS:
                break
            st.apply_action(A.PASS)
    return data


def compute(rules: Rules, deals: int, seed: int = 0, jobs: int = 1,
            progress: Callable[[int], None] | None = None) -> ChartData:
    """Walk ``deals`` deals on ``jobs`` processes; ``progress(k)`` after each chunk of k."""
    if rules.players != 4:
        raise ValueError("order-up charts are for four players (eldest, second, third, dealer)")
    chunks = [(rules.to_dict(), seed * 1_000_003 + i, min(CHUNK, deals - i * CHUNK))
              for i in range(math.ceil(deals / CHUNK))]
    total = ChartData()
    results: Iterable[ChartData]
    if jobs <= 1:
        results = map(run_chunk, chunks)
        for r in results:
            total.merge(r)
            if progress:
                progress(r.deals)
        return total
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(run_chunk, chunks):
            total.merge(r)
            if progress:
                progress(r.deals)
    return total


def write_csv(data: ChartData, path: Path) -> None:
    """One row per (position, hand class) cell."""
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["position", "trumps", "bowers", "offsuit_aces", "upcard_rank", "n",
                    "order_points", "pass_points", "gain", "ci95"])
        for k in sorted(data.cells):
            c = data.cells[k]
            w.writerow([POSITIONS[k[0]], k[1], k[2], k[3], RANK_NAMES[k[4]], c.n,
                        f"{c.order / c.n:.4f}", f"{c.passed / c.n:.4f}", f"{c.gain:.4f}",
                        f"{c.ci95:.4f}" if math.isfinite(c.ci95) else ""])


#: (file stem, key index, axis label, tick labels) of each chart's second dimension.
_CHARTS: tuple[tuple[str, int, str, Callable[[int], str]], ...] = (
    ("order_gain_by_bowers", 2, "bowers held", lambda v: str(v)),
    ("order_gain_by_aces", 3, "off-suit aces", lambda v: str(v)),
    ("order_gain_by_upcard", 4, "up-card rank",
     lambda v: "J" if v == JACK else RANK_NAMES[v]),
)


def draw_charts(data: ChartData, out: Path, dpi: int = 80) -> list[Path]:
    """PNG heat maps: per position, trumps held (rows) against a second class (columns), the
    mean points gained by ordering up rather than passing. Needs matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    paths = []
    for stem, dim, label, tick in _CHARTS:
        marg = data.marginal((1, dim))
        cols = sorted({k[2] for k in marg})
        rows = list(range(0, 6))
        fig, axes = plt.subplots(1, 4, figsize=(13, 3.6), sharey=True)
        for pos, ax in enumerate(axes):
            grid = np.full((len(rows), len(cols)), np.nan)
            for (p, r, c), cell in marg.items():
                if p == pos and cell.n >= MIN_CELL:
                    grid[rows.index(r), cols.index(c)] = cell.gain
            im = ax.imshow(grid, cmap="RdBu", vmin=-2, vmax=2, origin="lower", aspect="auto")
            for i in range(len(rows)):
                for j in range(len(cols)):
                    if not np.isnan(grid[i, j]):
                        ax.text(j, i, f"{grid[i, j]:+.1f}", ha="center", va="center",
                                fontsize=7)
            ax.set_title(POSITIONS[pos])
            ax.set_xticks(range(len(cols)), [tick(c) for c in cols])
            ax.set_xlabel(label)
            if pos == 0:
                ax.set_yticks(range(len(rows)), [str(r) for r in rows])
                ax.set_ylabel("trumps held")
        fig.colorbar(im, ax=list(axes), label="points: order up minus pass")
        fig.suptitle(f"Ordering up versus passing ({data.deals:,} deals; blank: fewer than "
                     f"{MIN_CELL})", fontsize=10)
        path = out / f"{stem}.png"
        fig.savefig(path, dpi=dpi)
        plt.close(fig)
        paths.append(path)
    return paths
