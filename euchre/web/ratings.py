"""Ratings on the site: which computer levels are rated, where their ratings start, and one
rated game's update, for people and computers on one scale.

The model is OpenSkill's Plackett-Luce (Weng-Lin), a team rating model: a partnership is a
team, its strength the sum of its players'. Each rating is a mean and its uncertainty (mu,
sigma); it is shown as ``DISPLAY_BASE + DISPLAY_SCALE * (mu - MU)`` with twice its uncertainty,
and as provisional while that uncertainty is wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from euchre.web.levels import offered_levels

#: The model's starting rating and uncertainty (OpenSkill's defaults).
MU = 25.0
SIGMA = 25.0 / 3
#: Shown as DISPLAY_BASE + DISPLAY_SCALE * (mu - MU): a new player shows 1500.
DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 40.0
#: A rating whose uncertainty (sigma) is above this is shown as provisional.
PROVISIONAL_SIGMA = 2.75


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    def shown(self) -> dict[str, object]:
        """The rating as a player reads it: the number, its 95% margin, provisional or not."""
        return {"rating": round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - MU)),
                "plus_minus": round(2 * DISPLAY_SCALE * self.sigma),
                "provisional": self.sigma > PROVISIONAL_SIGMA}


def rated_levels() -> list[str]:
    """The computer levels a rated game may seat: the levels offered to people."""
    return [level for level in offered_levels() if level in seed_ratings()]


def seed_ratings() -> dict[str, Rating]:
    """Where each rated level's site rating starts (until it earns its own in games)."""
    return {level: Rating(MU, SIGMA) for level in offered_levels()}


def new_rating() -> Rating:
    return Rating(MU, SIGMA)


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """Each seat's new rating after one game: ``teams`` in seat order within each side,
    ``ranks`` 0 for the winners (equal ranks: a draw)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    out = model.rate([[model.create_rating([r.mu, r.sigma]) for r in team] for team in teams],
                     ranks=list(ranks))
    return [[Rating(r.mu, r.sigma) for r in team] for team in out]
