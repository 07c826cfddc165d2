"""Duplicate-deal tournaments between players, with confidence intervals, on all cores or Ray.

``run(spec, units, workers=...)`` plays units (a deal, or a game to the target, from every
seating) and returns an :class:`Outcome`; :func:`summarize`, :func:`to_text`, :func:`to_json`
and :func:`plot` turn it into figures. The command is ``euchre tournament``.
"""

from __future__ import annotations

from euchre.tournament.core import (
    PEER_ISMCTS,
    PlayerSpec,
    TournamentSpec,
    UnitResult,
    derive_seed,
    parse_player,
    play_unit,
    seatings,
)
from euchre.tournament.report import SCHEMA, Summary, plot, summarize, to_json, to_text
from euchre.tournament.runner import BACKENDS, Outcome, default_workers, run
from euchre.tournament.stats import MeanCI, mean_ci, running_mean_ci

__all__ = [
    "BACKENDS",
    "PEER_ISMCTS",
    "SCHEMA",
    "MeanCI",
    "Outcome",
    "PlayerSpec",
    "Summary",
    "TournamentSpec",
    "UnitResult",
    "default_workers",
    "derive_seed",
    "mean_ci",
    "parse_player",
    "play_unit",
    "plot",
    "run",
    "running_mean_ci",
    "seatings",
    "summarize",
    "to_json",
    "to_text",
]
