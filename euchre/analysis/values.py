"""What each choice of a decision is worth, with error bars: the judge behind every analysis.

Everything here starts from a :class:`~euchre.view.SeatView` (what the deciding seat could
know), never from the true deal, so advice and reviews judge a decision on the information the
player had. The numbers come from the one valuation pipeline, :mod:`euchre.bots.valuation`,
which the search player decides with too: deals drawn uniformly among those consistent with
the view and weighted by how likely the other players' bids made each one; card play solved
double-dummy on every deal; bids, discards and declarations played out by the honest rollout
policy (the solver is not used there on purpose: with every card known every contract looks
makeable, so a double-dummy judge would call every pass a mistake).

Each option is played on the *same* deals, so the difference between two options is a paired
estimate whose noise is far below that of either value alone; :meth:`Values.diff_se` gives it
with its standard error.
"""

from __future__ import annotations

from euchre.bots.rollout import bidding_likelihood
from euchre.bots.valuation import (
    OBJECTIVES,
    Z95,
    Objective,
    OptionValue,
    Values,
    default_objective,
    evaluate,
    game_objective,
    net_points,
    sample_worlds,
)
from euchre.view import SeatView

__all__ = [
    "OBJECTIVES",
    "Z95",
    "Objective",
    "OptionValue",
    "Values",
    "bidding_likelihood",
    "default_objective",
    "evaluate",
    "game_objective",
    "lawful_cards",
    "net_points",
    "sample_worlds",
]


def lawful_cards(view: SeatView) -> list[int]:
    """The cards the seat may play without reneging (what the solver values)."""
    return view.lawful_cards()
