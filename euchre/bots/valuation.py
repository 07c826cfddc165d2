"""The one valuation pipeline: deals consistent with a seat's view, weighted by the bidding, and
every option's result on each deal, with weighted means and their errors.

The search player decides with it and the analysis (hints, reviews, advice, puzzles) judges
with it, so a decision is never valued two ways:

* **Deals** (:class:`Worlds`, :func:`sample_worlds`) are drawn exactly uniformly among those
  consistent with the view (:class:`euchre.sampling.DealSampler`) and weighted by how likely
  the other players' bids made each one (:func:`euchre.bots.rollout.bidding_likelihood`: an
  opponent who passed rarely holds both bowers), or not weighted (``weighting=False``).
* **Card play** (:func:`solve_cards`): every lawful card solved double-dummy on each deal
  (:func:`euchre.solver.move_values_batch`), the points the hand scores after it.
* **Bids, discards, declarations** (:func:`play_options`): each option played out on each deal by
  the honest rollout policy (:mod:`euchre.bots.rollout`, every seat acting on what it sees) for
  a number of tricks, the rest solved double-dummy (all five tricks played out by default).
* **An outcome** (:func:`outcome`) is the deciding side's points minus the other side's (the
  others' mean, three-handed) and, in a game with its score known, the chance to win the game
  after it (:func:`euchre.bots.equity.win_probability`).

:class:`Values` holds the per-deal results of every option on shared deals (common random
numbers: a difference between two options is paired deal by deal), and gives each option as
an :class:`OptionValue`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from euchre.bots import rollout
from euchre.bots.equity import win_probability
from euchre.cards import Card
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.sampling import DealSampler
from euchre.state import PLAY, HandState
from euchre.view import SeatView

__all__ = [
    "CHUNK",
    "OBJECTIVES",
    "Z95",
    "Objective",
    "OptionValue",
    "Values",
    "Worlds",
    "default_objective",
    "evaluate",
    "game_objective",
    "net_points",
    "normalized",
    "outcome",
    "play_options",
    "sample_worlds",
    "solve_cards",
]

#: z for a two-sided 95% interval.
Z95 = 1.96

#: What an option is worth to the player: the chance to win the game, or the hand's points.
Objective = Literal["win", "points"]
#: Each objective in words, as hints, reviews and advice name it.
OBJECTIVES: dict[Objective, str] = {"win": "the chance to win the game",
                                    "points": "points this hand"}


def game_objective(rules: Rules, scores: Sequence[int]) -> Objective:
    """In a game with a known score what counts is winning the game (at 3-9 only a march keeps
    a side alive, whatever it does to the hand's average); one-hand play counts points."""
    aware = (len(scores) == 2 and rules.num_sides == 2 and not rules.single_hand
             and rules.target <= 200)
    return "win" if aware else "points"


def default_objective(view: SeatView) -> Objective:
    """The objective of ``view``'s decision: :func:`game_objective` of its rules and score."""
    return game_objective(view.rules, view.scores)


def net_points(view: SeatView, points: Sequence[int]) -> float:
    """A hand's points seen from the deciding seat: mine minus the other sides' mean."""
    mine = view.side_of()
    others = [p for s, p in enumerate(points) if s != mine]
    return points[mine] - sum(others) / len(others)


def outcome(view: SeatView, points: Sequence[int]) -> tuple[float, float | None]:
    """(net points for the deciding side, the chance to win the game after them, or None where
    the score does not make the game the objective) of a hand's ``points``."""
    net = net_points(view, points)
    if default_objective(view) != "win":
        return net, None
    mine = view.side_of()
    sc = view.scores
    return net, win_probability(view.players, view.rules.target, sc[mine] + points[mine],
                                sc[1 - mine] + points[1 - mine])


# ---------------------------------------------------------------------------------------------
# Deals


class Worlds:
    """A stream of deals consistent with ``view``, each with its raw weight from the bidding
    (1 for every deal without ``weighting``)."""

    def __init__(self, view: SeatView, rng: random.Random, weighting: bool = True) -> None:
        self.view, self.rng, self.weighting = view, rng, weighting
        self.sampler = DealSampler(view)

    def sample(self) -> HandState:
        return self.sampler.sample(self.rng)

    def weigh(self, worlds: Sequence[HandState]) -> list[float]:
        """Each deal's raw weight: how likely the other players' bids made it."""
        if not self.weighting:
            return [1.0] * len(worlds)
        return [rollout.bidding_likelihood(w, self.view.seat) for w in worlds]

    def draw(self, k: int) -> tuple[list[HandState], list[float]]:
        worlds = [self.sample() for _ in range(k)]
        return worlds, self.weigh(worlds)


def normalized(weights: Sequence[float]) -> list[float]:
    """Weights scaled to a mean of 1 (a weighted mean is the same; the numbers read as counts)."""
    total = sum(weights)
    return [x * len(weights) / total for x in weights]


def sample_worlds(view: SeatView, count: int, rng: random.Random, weighting: bool = True,
                  seconds: float | None = None, at_least: int = 1
                  ) -> tuple[list[HandState], list[float]]:
    """``count`` deals consistent with ``view`` (or as many as fit in ``seconds``, at least
    ``at_least``, weighed after) and each one's weight from the bidding, scaled to a mean of
    1 (all 1 without ``weighting``)."""
    source = Worlds(view, rng, weighting)
    if seconds is None:
        worlds = [source.sample() for _ in range(count)]
    else:
        stop = time.perf_counter() + seconds
        worlds = []
        while len(worlds) < at_least or (time.perf_counter() < stop and len(worlds) < count):
            worlds.append(source.sample())
    if not weighting:
        return worlds, [1.0] * len(worlds)
    return worlds, normalized(source.weigh(worlds))


# ---------------------------------------------------------------------------------------------
# Per-deal results


def _wmean(xs: Sequence[float], ws: Sequence[float]) -> float:
    return sum(w * x for w, x in zip(ws, xs, strict=True)) / sum(ws)


def _wse(xs: Sequence[float], ws: Sequence[float]) -> float:
    """Standard error of a weighted mean, with Kish's effective sample size."""
    total = sum(ws)
    n_eff = total * total / sum(w * w for w in ws)
    if n_eff <= 1.0 or len(xs) < 2:
        return math.inf
    m = _wmean(xs, ws)
    var = sum(w * (x - m) ** 2 for w, x in zip(ws, xs, strict=True)) / total
    var *= n_eff / (n_eff - 1)  # unbiased
    return math.sqrt(var / n_eff)


@dataclass(frozen=True, slots=True)
class OptionValue:
    """What one option of a decision is worth, averaged over the deals looked at: the one
    record of an option's value, for the search player's choice, the hint, the review and the
    advice alike."""

    action: int
    value: float
    """What the choice maximises: the chance to win the game (0..1) when the score counts,
    else net points this hand."""
    points: float
    """Expected points of my side minus the other side's (the others' mean), this hand."""
    win: float | None = None
    """The chance to win the game after this option, when the match score is known."""
    tricks: float | None = None
    """Card play: the tricks my side ends the hand with."""
    se: float = math.nan
    """Standard error of ``value`` (nan where not measured)."""
    points_se: float = math.nan
    """Standard error of ``points``."""
    win_se: float | None = None
    """Standard error of ``win``."""
    behind: float = 0.0
    """How much worse than the best option under the objective (0 for the best), paired deal
    by deal."""
    behind_se: float = 0.0
    """Standard error of ``behind``."""
    firm: bool = False
    """The best option leads this one beyond the error (an assessment's verdict)."""

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval of ``points``."""
        return Z95 * self.points_se

    @property
    def win_ci95(self) -> float | None:
        """Half-width of the 95% interval of ``win``."""
        return None if self.win_se is None else Z95 * self.win_se


@dataclass(slots=True)
class Values:
    """Per-deal results of every option of one decision, on shared deals."""

    view: SeatView
    kind: str
    """'play' (solved double-dummy) or 'rollout' (played out by the rollout policy)."""
    weights: list[float]
    samples: dict[int, list[float]]
    """action -> net points on each deal (same order as ``weights``)."""
    wins: dict[int, list[float]]
    """action -> game-winning chance on each deal (empty when the score is unknown)."""
    tricks: dict[int, list[float]] = field(default_factory=dict)
    """action -> my side's tricks on each deal (card play; empty elsewhere)."""

    @classmethod
    def empty(cls, view: SeatView, kind: str, options: Sequence[int], tricks: bool = False
              ) -> Values:
        aware = default_objective(view) == "win"
        return cls(view, kind, [], {a: [] for a in options},
                   {a: [] for a in options} if aware else {},
                   {a: [] for a in options} if tricks else {})

    @property
    def deals(self) -> int:
        return len(self.weights)

    @property
    def n_eff(self) -> float:
        """Kish's effective number of deals: fewer than ``deals`` when the weights differ."""
        total = sum(self.weights)
        squares = sum(w * w for w in self.weights)
        return total * total / squares if squares else 0.0

    @property
    def objective(self) -> Objective:
        """What the choice maximises here: :func:`default_objective`."""
        return "win" if self.wins else "points"

    def add(self, action: int, points: Sequence[int], tricks: float = 0.0) -> None:
        """One more deal's result of ``action``: the hand's ``points`` by side (and my side's
        ``tricks``, kept where these values count tricks)."""
        net, win = outcome(self.view, points)
        self.samples[action].append(net)
        if win is not None:
            self.wins[action].append(win)
        if self.tricks:
            self.tricks[action].append(tricks)

    def series(self, action: int, objective: Objective) -> list[float]:
        """Per-deal results of ``action`` under ``objective`` (ValueError when the score is
        unknown and the objective is the game)."""
        if objective == "points":
            return self.samples[action]
        if not self.wins:
            raise ValueError("the chance to win the game needs the match score; value "
                             "points instead")
        return self.wins[action]

    def _ws(self, weighted: bool, deals: slice = slice(None)) -> list[float]:
        ws = self.weights[deals]
        return ws if weighted else [1.0] * len(ws)

    def mean(self, action: int, objective: Objective = "points") -> float:
        return _wmean(self.series(action, objective), self.weights)

    def mean_se(self, action: int, objective: Objective = "points", weighted: bool = True
                ) -> tuple[float, float]:
        """(value, standard error) of ``action`` under ``objective``; ``weighted=False``: with
        every deal as likely (the same deals, read without the bidding)."""
        xs, ws = self.series(action, objective), self._ws(weighted)
        return _wmean(xs, ws), _wse(xs, ws)

    def diff_se(self, a: int, b: int, objective: Objective = "points",
                deals: slice = slice(None), weighted: bool = True) -> tuple[float, float]:
        """(mean, standard error) of ``a`` minus ``b``, paired deal by deal; ``deals`` picks
        a subset of the deals."""
        xa, xb = self.series(a, objective)[deals], self.series(b, objective)[deals]
        diffs = [x - y for x, y in zip(xa, xb, strict=True)]
        ws = self._ws(weighted, deals)
        return _wmean(diffs, ws), _wse(diffs, ws)

    def model_gap(self, action: int, objective: Objective = "points") -> tuple[float, float]:
        """(weighted minus unweighted value, its standard error) of ``action``: how much reading
        the bids moves the value, on the same deals. The difference is the mean of
        ``(w - 1) x`` with weights of mean 1, so its error is that mean's."""
        xs = self.series(action, objective)
        n = len(xs)
        if n < 2:
            return 0.0, math.inf
        m = sum(xs) / n
        terms = [(w - 1.0) * (x - m) for w, x in zip(normalized(self.weights), xs, strict=True)]
        d = sum(terms) / n
        var = sum((t - d) ** 2 for t in terms) / (n - 1)
        return _wmean(xs, self.weights) - m, math.sqrt(var / n)

    def gap(self, better: int, worse: int) -> tuple[float, float]:
        """(mean, 95% half-width) of ``better`` minus ``worse`` in points, paired."""
        d, se = self.diff_se(better, worse)
        return d, Z95 * se

    def option(self, action: int) -> OptionValue:
        """``action``'s value under this decision's objective, with its errors."""
        pts, pts_se = self.mean_se(action, "points")
        win = win_se = None
        if self.wins:
            win, win_se = self.mean_se(action, "win")
        tr = _wmean(self.tricks[action], self.weights) if self.tricks else None
        value, se = (win, win_se) if win is not None and win_se is not None else (pts, pts_se)
        return OptionValue(action, value, pts, win, tr, se, pts_se, win_se)

    def options(self) -> list[OptionValue]:
        """Every option's value, in the order the options were given."""
        return [self.option(a) for a in self.samples]

    def ranked(self) -> list[OptionValue]:
        """Every option, best first by expected points (ties to the lower action id)."""
        return sorted(self.options(), key=lambda e: (-round(e.points, 9), e.action))

    def head(self, deals: int) -> Values:
        """The first ``deals`` deals only."""
        def cut(d: dict[int, list[float]]) -> dict[int, list[float]]:
            return {a: xs[:deals] for a, xs in d.items()}

        return Values(self.view, self.kind, self.weights[:deals], cut(self.samples),
                      cut(self.wins), cut(self.tricks))


def solve_cards(view: SeatView, worlds: Sequence[HandState], cards: Sequence[Card],
                values: Values) -> None:
    """Card play: each of ``cards``' points under best play from there, on every deal (solved
    double-dummy), added to ``values`` with my side's tricks."""
    from euchre.solver import move_values_batch, points_for  # numba loads only when needed

    me = view.seat
    for w, vals in zip(worlds, move_values_batch(list(worlds)), strict=True):
        for c in cards:
            team = vals[c]
            maker_tricks = team if w.is_maker_side(me) else 5 - team
            values.add(c, points_for(w, maker_tricks), float(team))


def play_options(view: SeatView, worlds: Sequence[HandState], options: Sequence[int],
                 values: Values, honest: int = 5, out_of_time: Callable[[int], bool] | None = None,
                 to_the_end: bool = False) -> int:
    """Each of ``options`` played out on every deal: the honest rollout policy for the rest of
    the bidding and ``honest`` tricks (all five: a full rollout), the rest of the hand solved
    double-dummy; ``to_the_end``: played out whatever the number of tricks (two-handed rows,
    which the solver does not play), with my tricks counted. Stops before a deal when
    ``out_of_time(deals so far)``; returns the deals valued."""
    pending: list[tuple[int, int, HandState]] = []
    used = 0
    for w in worlds:
        if out_of_time is not None and out_of_time(used):
            break
        for a in options:
            st = w.clone()
            st.apply_action(a)
            if to_the_end:
                rollout.play_out(st)
                values.add(a, st.points, float(st.tricks_won[view.seat]))
                continue
            rollout.play_tricks(st, honest)
            if st.phase == PLAY:
                pending.append((a, len(values.samples[a]), st))
                values.add(a, [0] * len(st.points))  # solved below
            else:
                values.add(a, st.points)
        used += 1
    if pending:
        from euchre.solver import move_values_batch, points_for

        for (a, i, st), vals in zip(pending, move_values_batch([s for _, _, s in pending]),
                                    strict=True):
            team = max(vals.values())
            maker_tricks = team if st.is_maker_side(st.cur) else 5 - team
            net, win = outcome(view, points_for(st, maker_tricks))
            values.samples[a][i] = net
            if win is not None:
                values.wins[a][i] = win
    return used


#: Deals drawn and valued at a time (a time budget is checked between chunks).
CHUNK = 8


def evaluate(view: SeatView, deals: int, rng: random.Random,
             options: Sequence[int] | None = None, seconds: float | None = None,
             min_deals: int = 16, weighting: bool = True,
             until: Callable[[Values], bool] | None = None) -> Values:
    """Value every option of the decision ``view`` is asked (or only ``options``) over
    ``deals`` sampled deals, or as many as fit in ``seconds`` (at least ``min_deals``), or
    until ``until`` says the values so far settle the question (asked between chunks once
    ``min_deals`` are in).

    Card play goes to the solver, everything else to rollouts. Raises ValueError when it is
    not this seat's turn. The same view, rng state and ``deals`` give the same numbers."""
    if not view.legal_actions:
        raise ValueError("it is not this seat's turn: there is no decision to value")
    play = view.phase == Phase.PLAY
    opts = view.lawful_cards() if play else list(options or view.legal_actions)
    values = Values.empty(view, "play" if play else "rollout", opts, tricks=play)
    source = Worlds(view, rng, weighting)
    deadline = None if seconds is None else time.perf_counter() + seconds
    while values.deals < deals:
        if deadline is not None and values.deals >= min_deals \
                and time.perf_counter() > deadline:
            break
        worlds, raw = source.draw(min(CHUNK, deals - values.deals))
        values.weights += raw
        if play:
            solve_cards(view, worlds, opts, values)
        else:
            play_options(view, worlds, opts, values)
        if until is not None and min_deals <= values.deals < deals and until(values):
            break
    values.weights = normalized(values.weights)
    return values
