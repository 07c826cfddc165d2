"""Which computer levels the browser table offers. The one place the server reads the bot
registry's names, so a level added there (or by ``euchre serve``) shows up everywhere at once."""

from __future__ import annotations

from euchre.bots import BOT_NAMES


def offered_levels() -> list[str]:
    """The levels a table's computer seats (and a person's stand-in) may play at."""
    return list(BOT_NAMES)


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
