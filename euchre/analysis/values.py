"""What each choice of a decision is worth, with error bars: the judge behind every analysis.

Everything here starts from a :class:`~euchre.view.SeatView` (what the deciding seat could
know), never from the true deal, so advice and reviews judge a decision on the information the
player had. The deals are drawn uniformly among those consistent with the view
(:class:`euchre.sampling.DealSampler`) and, like the search player does, weighted by how likely
the other players' bids made each one (:func:`euchre.bots.rollout.bid_probabilities`).

Two judges, the two the search player uses:

* **Card play** is valued by the double-dummy solver on every sampled deal
  (:func:`euchre.solver.move_values_batch`): the points the hand scores after each card under
  best play from there. Averaged over many deals this is the determinized (PIMC) value, the
  standard judge of card-play mistakes.
* **Bids, discards and declarations** are valued by playing the hand out from each option with
  the honest rollout policy of :mod:`euchre.bots.rollout` (each seat acting on what it sees).
  The solver is not used here on purpose: with every card known every contract looks
  makeable, so a double-dummy judge would call every pass a mistake (strategy fusion).

Each option is played on the *same* deals, so the difference between two options is a paired
estimate whose noise is far below that of either value alone; :meth:`Values.gap` gives it with
its 95% interval, which is what a review's "loss" is.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from euchre.bots import rollout
from euchre.bots.equity import win_probability
from euchre.bots.rollout import bidding_likelihood
from euchre.rules import Rules
from euchre.sampling import DealSampler
from euchre.state import HandState
from euchre.view import SeatView

__all__ = [
    "OBJECTIVES",
    "Estimate",
    "Objective",
    "Values",
    "bidding_likelihood",
    "default_objective",
    "evaluate",
    "game_objective",
    "lawful_cards",
    "my_side",
    "net_points",
    "sample_worlds",
]

#: z for a two-sided 95% interval.
Z95 = 1.96

#: What an option is worth to the player: the chance to win the game, or the hand's points.
Objective = Literal["win", "points"]
#: Each objective in words, as hints, reviews and advice name it.
OBJECTIVES: dict[Objective, str] = {"win": "the chance to win the game",
                                    "points": "points this hand"}


@dataclass(frozen=True, slots=True)
class Estimate:
    """One option's value: net points per hand for the deciding seat's side."""

    action: int
    points: float
    """Expected points of my side minus the other side's (the others' mean, three-handed)."""
    ci95: float
    """Half-width of the 95% confidence interval of ``points``."""
    win: float | None = None
    """The chance to win the game after this option, when the match score is known."""
    win_ci95: float | None = None
    """Half-width of the 95% confidence interval of ``win``."""


def my_side(view: SeatView) -> int:
    """The index into ``points``/``scores`` of the deciding seat's side."""
    return view.side_of()


def net_points(view: SeatView, points: Sequence[int]) -> float:
    """A hand's points seen from the deciding seat: mine minus the other sides' mean."""
    mine = my_side(view)
    others = [p for s, p in enumerate(points) if s != mine]
    return points[mine] - sum(others) / len(others)


def _score_aware(view: SeatView) -> bool:
    return game_objective(view.rules, view.scores) == "win"


def game_objective(rules: Rules, scores: Sequence[int]) -> Objective:
    """In a game with a known score what counts is winning the game (at 3-9 only a march keeps
    a side alive, whatever it does to the hand's average); one-hand play counts points."""
    aware = (len(scores) == 2 and rules.num_sides == 2 and not rules.single_hand
             and rules.target <= 200)
    return "win" if aware else "points"


def default_objective(view: SeatView) -> Objective:
    """The objective of ``view``'s decision: :func:`game_objective` of its rules and score."""
    return game_objective(view.rules, view.scores)


def _win(view: SeatView, points: Sequence[int]) -> float:
    mine = my_side(view)
    sc = view.scores
    return win_probability(view.players, view.rules.target, sc[mine] + points[mine],
                           sc[1 - mine] + points[1 - mine])


def sample_worlds(view: SeatView, deals: int, rng: random.Random,
                  weighting: bool = True) -> tuple[list[HandState], list[float]]:
    """``deals`` full deals consistent with ``view`` and each one's weight (mean 1)."""
    sampler = DealSampler(view)
    worlds = [sampler.sample(rng) for _ in range(deals)]
    if not weighting:
        return worlds, [1.0] * deals
    weights = [bidding_likelihood(w, view.seat) for w in worlds]
    total = sum(weights)
    return worlds, [x * deals / total for x in weights]


def lawful_cards(view: SeatView) -> list[int]:
    """The cards the seat may play without reneging (what the solver values)."""
    return view.lawful_cards()


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


def _wci(xs: Sequence[float], ws: Sequence[float]) -> float:
    """95% half-width of a weighted mean."""
    return Z95 * _wse(xs, ws)


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

    @property
    def deals(self) -> int:
        return len(self.weights)

    def estimate(self, action: int) -> Estimate:
        xs = self.samples[action]
        if action not in self.wins:
            return Estimate(action, _wmean(xs, self.weights), _wci(xs, self.weights))
        ws = self.wins[action]
        return Estimate(action, _wmean(xs, self.weights), _wci(xs, self.weights),
                        _wmean(ws, self.weights), _wci(ws, self.weights))

    def ranked(self) -> list[Estimate]:
        """Every option, best first (expected points; ties to the lower action id)."""
        return sorted((self.estimate(a) for a in self.samples),
                      key=lambda e: (-round(e.points, 9), e.action))

    def series(self, action: int, objective: Objective) -> list[float]:
        """Per-deal results of ``action`` under ``objective`` (ValueError when the score is
        unknown and the objective is the game)."""
        if objective == "points":
            return self.samples[action]
        if not self.wins:
            raise ValueError("the chance to win the game needs the match score; value "
                             "points instead")
        return self.wins[action]

    def mean_se(self, action: int, objective: Objective = "points") -> tuple[float, float]:
        """(value, standard error) of ``action`` under ``objective``."""
        xs = self.series(action, objective)
        return _wmean(xs, self.weights), _wse(xs, self.weights)

    def diff_se(self, a: int, b: int, objective: Objective = "points",
                deals: slice = slice(None)) -> tuple[float, float]:
        """(mean, standard error) of ``a`` minus ``b``, paired deal by deal; ``deals`` picks
        a subset of the deals (a review measures on deals that did not choose the best)."""
        xa, xb = self.series(a, objective)[deals], self.series(b, objective)[deals]
        ws = self.weights[deals]
        diffs = [x - y for x, y in zip(xa, xb, strict=True)]
        return _wmean(diffs, ws), _wse(diffs, ws)

    def gap(self, better: int, worse: int) -> tuple[float, float]:
        """(mean, 95% half-width) of ``better`` minus ``worse``, paired deal by deal."""
        diffs = [b - w for b, w in zip(self.samples[better], self.samples[worse], strict=True)]
        return _wmean(diffs, self.weights), _wci(diffs, self.weights)


def _play_chunk(view: SeatView, worlds: Sequence[HandState], cands: Sequence[int],
                samples: dict[int, list[float]], wins: dict[int, list[float]]) -> None:
    """Card play: each lawful card's points under best play from there, deal by deal."""
    from euchre.solver import move_values_batch, points_for  # numba loads only when needed

    me = view.seat
    for w, vals in zip(worlds, move_values_batch(list(worlds)), strict=True):
        for c in cands:
            team = vals[c]
            maker_tricks = team if w.is_maker_side(me) else 5 - team
            pts = points_for(w, maker_tricks)
            samples[c].append(net_points(view, pts))
            if wins:
                wins[c].append(_win(view, pts))


def _rollout_chunk(view: SeatView, worlds: Sequence[HandState], options: Sequence[int],
                   samples: dict[int, list[float]], wins: dict[int, list[float]]) -> None:
    """Bids, discards, declarations: each option played out by the rollout policy."""
    for w in worlds:
        for a in options:
            st = w.clone()
            st.apply_action(a)
            rollout.play_out(st)
            samples[a].append(net_points(view, st.points))
            if wins:
                wins[a].append(_win(view, st.points))


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
    play = view.phase == "play"
    opts = lawful_cards(view) if play else list(options or view.legal_actions)
    aware = _score_aware(view)
    samples: dict[int, list[float]] = {a: [] for a in opts}
    wins: dict[int, list[float]] = {a: [] for a in opts} if aware else {}
    weights: list[float] = []
    sampler = DealSampler(view)
    deadline = None if seconds is None else time.perf_counter() + seconds
    while len(weights) < deals:
        if deadline is not None and len(weights) >= min_deals \
                and time.perf_counter() > deadline:
            break
        k = min(CHUNK, deals - len(weights))
        worlds = [sampler.sample(rng) for _ in range(k)]
        if weighting:
            weights += [bidding_likelihood(w, view.seat) for w in worlds]
        else:
            weights += [1.0] * k
        if play:
            _play_chunk(view, worlds, opts, samples, wins)
        else:
            _rollout_chunk(view, worlds, opts, samples, wins)
        if until is not None and len(weights) >= min_deals and len(weights) < deals \
                and until(Values(view, "play" if play else "rollout", weights, samples, wins)):
            break
    total = sum(weights)
    weights = [x * len(weights) / total for x in weights]
    return Values(view, "play" if play else "rollout", weights, samples, wins)
