"""Duplicate-deal tournaments between players, with confidence intervals, on all cores or Ray.

``run(spec, units, workers=...)`` plays units (a deal, or a game to the target, from every
seating) and returns an :class:`Outcome`; :func:`summarize`, :func:`think_times`,
:func:`to_text`, :func:`to_json`, :func:`split` and :func:`plot` turn it into figures. The
command is ``euchre tournament``; it is the project's one way to measure a player against
another.
"""

from __future__ import annotations

from euchre.tournament.core import (
    CLOCKS,
    PEER_ISMCTS,
    PEER_MCTS,
    PEERS,
    SAME,
    DecisionClock,
    PlayerSpec,
    TournamentSpec,
    UnitResult,
    derive_seed,
    first_difference,
    parse_player,
    seatings,
)
from euchre.tournament.report import (
    SCHEMA,
    SplitRow,
    Summary,
    ThinkTimes,
    plot,
    split,
    summarize,
    think_times,
    to_json,
    to_text,
)
from euchre.tournament.runner import BACKENDS, Outcome, default_workers, run
from euchre.tournament.stats import (
    MeanCI,
    RunningMeanCI,
    TimeHistogram,
    mean_ci,
    running_mean_ci,
)
from euchre.tournament.units import play_unit

__all__ = [
    "BACKENDS",
    "CLOCKS",
    "PEERS",
    "PEER_ISMCTS",
    "PEER_MCTS",
    "SAME",
    "SCHEMA",
    "DecisionClock",
    "MeanCI",
    "Outcome",
    "PlayerSpec",
    "RunningMeanCI",
    "SplitRow",
    "Summary",
    "ThinkTimes",
    "TimeHistogram",
    "TournamentSpec",
    "UnitResult",
    "default_workers",
    "derive_seed",
    "first_difference",
    "mean_ci",
    "parse_player",
    "play_unit",
    "plot",
    "run",
    "running_mean_ci",
    "seatings",
    "split",
    "summarize",
    "think_times",
    "to_json",
    "to_text",
]
