"""The site's side of the ratings: which computer levels a rated game may seat and under which
name each is rated, where their ratings start, one finished game's update over the players'
stored ratings, and what a player reads.

The model, its scale and every update are :mod:`euchre.tournament.ratings`'s (Weng and Lin's
team model through OpenSkill: one scale for people and computers, each rating a mean with its
uncertainty, provisional while that is wide); this module only maps the site's rows onto it.

A computer level is one player on the site, whatever name a seat asked for it by: ``rule`` is
the ``club`` level (the registry's ``same_as``) and shares its rating. Its site rating starts
where the calibration run measured it (``euchre rate --levels``, the shipped
``euchre/bots/data/ladder.json``), with the run's uncertainty: the anchor, ``club``, is the
scale's zero point and starts all but certain, the others within a few points, so computers'
ratings move little in a game while a newcomer's moves a lot. Levels the calibration did not
measure (plug-ins, the measurement baselines) are not rated: a table that seats one is not.
"""

from __future__ import annotations

from euchre.bots.registry import ANCHOR_NOTE, ladder_anchor, ladder_rating, levels
from euchre.tournament.ratings import Rating, level_rating

__all__ = ["ANCHOR_NOTE", "NOT_RATED", "Rating", "is_anchor", "rated_levels", "rated_name",
           "rating_text", "seed", "shown"]

#: A player with no rating yet (no rated game), as every page and ``euchre bots list`` say it.
NOT_RATED = "not rated yet"


def rated_name(level: str) -> str | None:
    """The player a computer ``level`` is rated as (``rule`` plays as ``club``), or None for a
    level the calibration did not measure."""
    found = levels().get(level)
    if found is None or ladder_rating(level) is None:
        return None
    return found.same_as or level


def rated_levels() -> list[str]:
    """Every level name a rated game may seat (the ladder's, the floor ``random``, and the
    names ``rule`` and ``search`` that play as ladder levels)."""
    return [name for name in levels() if rated_name(name) is not None]


def rated_computers() -> list[str]:
    """The computer players on the site's scale: each calibrated level once, by the name it is
    rated as (``club``, not ``rule``)."""
    return sorted({name for level in levels() if (name := rated_name(level)) is not None})


def seed(name: str) -> Rating:
    """Where the rated level ``name``'s site rating starts: its calibrated rating."""
    found = level_rating(name)
    if found is None:
        raise ValueError(f"{name!r} is not a calibrated computer level")
    return Rating(found.mu, found.sigma, 0)  # its games on this site: none yet


def is_anchor(name: str | None) -> bool:
    """Whether the player ``name`` is the computer level the scale is measured from (``club``,
    or ``rule``, which plays as it): its rating is fixed by definition, moved by no game."""
    anchor = ladder_anchor()
    return name is not None and anchor is not None and rated_name(name) == anchor


def rating_text(rating: Rating | None, name: str | None = None) -> str:
    """A rating in words, the one way the site's pages and the command line show it:
    "1601 ± 669 (provisional)", never without its margin; ``NOT_RATED`` for none; the anchor's
    (``name`` the anchor's) with ``ANCHOR_NOTE``: "1500 ± 0 (the scale's fixed anchor)"."""
    if rating is None:
        return NOT_RATED
    return f"{rating} ({ANCHOR_NOTE})" if is_anchor(name) else str(rating)


def shown(rating: Rating, name: str | None = None) -> dict[str, object]:
    """A rating as a player reads it (the number, its 95% margin, provisional or not, and all
    of that in words: ``text``; ``anchor``: the player ``name`` is the scale's fixed anchor),
    with the model's own mean and uncertainty for programs (a calibrated computer level moves
    by less than a point a game)."""
    return {"rating": round(rating.mu), "plus_minus": round(rating.half_width),
            "provisional": rating.provisional, "text": rating_text(rating, name),
            "anchor": is_anchor(name), "mu": rating.mu, "sigma": rating.sigma}

