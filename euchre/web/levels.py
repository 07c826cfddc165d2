"""Which computer levels the browser table offers. The one place the server reads the bot
registry's names, so a level added there (or by ``euchre serve``) shows up everywhere at once."""

from __future__ import annotations

from euchre.bots import is_level, level_names, player_levels
from euchre.bots.registry import STRONGEST_LEVEL, TABLE_LEVEL, describe_level, ladder_rating
from euchre.web import ratings as R


def offered_levels() -> list[str]:
    """The levels a person picks from for a table's computer seats (and their own stand-in):
    the registry's player levels, with any ``euchre serve --bot`` ones; the measurement
    baselines stay out of the menu."""
    return list(player_levels())


def accepted_levels() -> list[str]:
    """Every level a seat may play at (the menu's, the players by their own names such as
    ``rule``, the baselines): the labels a computer seat can be shown with."""
    return list(level_names())


def accepted_level(level: str) -> bool:
    """Whether a seat may play at ``level``: any registered level, the baselines included,
    for API clients that ask for one by name."""
    return is_level(level)


def default_level() -> str:
    levels = offered_levels()
    return TABLE_LEVEL if TABLE_LEVEL in levels else levels[0]


def strongest_level() -> str:
    """The strongest computer player there is (the registry's)."""
    return STRONGEST_LEVEL


def level_info() -> dict[str, dict[str, object]]:
    """Each offered level's measured rating and its 95% margin (None for one not calibrated,
    a plug-in) and its line on how it plays, for the form's menu."""
    out: dict[str, dict[str, object]] = {}
    for name in offered_levels():
        rating = ladder_rating(name)
        out[name] = {"rating": None if rating is None else round(rating.mu),
                     "plus_minus": None if rating is None else round(rating.half_width),
                     # in words, as every page says a rating (the anchor's with its note)
                     "text": None if rating is None
                     else R.rating_text(R.Rating(rating.mu, rating.sigma), name),
                     "about": describe_level(name)}
    return out
