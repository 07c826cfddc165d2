"""Which computer levels the browser table offers. The one place the server reads the bot
registry's names, so a level added there (or by ``euchre serve``) shows up everywhere at once."""

from __future__ import annotations

from euchre.bots import is_level, player_levels


def offered_levels() -> list[str]:
    """The levels a person picks from for a table's computer seats (and their own stand-in):
    the registry's player levels, with any ``euchre serve --bot`` ones; the measurement
    baselines stay out of the menu."""
    return list(player_levels())


def accepted_level(level: str) -> bool:
    """Whether a seat may play at ``level``: any registered level, the baselines included,
    for API clients that ask for one by name."""
    return is_level(level)


def default_level() -> str:
    levels = offered_levels()
    return "rule" if "rule" in levels else levels[0]


def strongest_level() -> str:
    """The strongest computer player available: ``search`` once it exists, else ``rule``."""
    levels = offered_levels()
    for name in ("search", "rule"):
        if name in levels:
            return name
    return levels[0]
