"""Computer players. They import the core and see only a seat's view; the core never imports
them.

``make_bot(spec, seed, think=...)`` builds a player from a level name or a spec (a plug-in
``package.module:factory``, a ``cmd:`` program speaking :mod:`euchre.bots.protocol`; see
:mod:`euchre.bots.registry`). :func:`player_levels` lists what a person picks from, the rating
ladder weakest first: ``beginner`` (obvious habits and mistakes), ``casual`` (table habits half
the time), ``club`` (table habits: the ``rule`` player) and ``expert`` (the strongest: the
``search`` player). :data:`BOT_NAMES` adds ``random``, the players by their own names, and the
baselines kept for measurement: ``pimc-naive`` (search bidding from double-dummy results),
``pimc-full`` (textbook PIMC bidding: later bids chosen with every card seen too),
``pimc-uniform`` (the same on uniform deals, the published comparisons' PIMC) and ``rule-v1``
(the first rule player). :func:`level_names` lists every name, plug-ins included.
:func:`register` adds a level for this process; installed packages add theirs through the
entry-point group ``euchre.bots``. Writing a bot: docs/writing-a-bot.md.
"""

from __future__ import annotations

from euchre.bots.base import Bot
from euchre.bots.beginner import BeginnerBot
from euchre.bots.random_bot import RandomBot
from euchre.bots.registry import (
    BUILTIN_NAMES,
    ENTRY_POINT_GROUP,
    LADDER,
    STRONGEST_LEVEL,
    TABLE_LEVEL,
    Level,
    NamedSpecs,
    check_spec,
    is_level,
    level_names,
    levels,
    make_bot,
    player_levels,
    refresh_installed,
    register,
    unregister,
)
from euchre.bots.rule_based import RuleBasedBot
from euchre.view import SeatView

#: The built-in levels: the ladder weakest first, then the players by their own names and the
#: measured baselines (:func:`level_names` adds plug-ins and registered levels).
BOT_NAMES: tuple[str, ...] = BUILTIN_NAMES
#: The level a person plays with and against at the terminal unless they choose another.
DEFAULT_LEVEL = STRONGEST_LEVEL


class Adviser:
    """The terminal's ``hint``: the search player's choice for a view and its reason in numbers.

    Built on first use, so a game whose players are all rule-based never loads the solver."""

    def __init__(self, seed: int | None = None, think: object = None) -> None:
        self.seed = seed
        self.think = think
        self._bot: Bot | None = None

    def decide(self, view: SeatView) -> tuple[int, str]:
        """(action, explanation) of the search player in this seat."""
        if self._bot is None:
            self._bot = make_bot("search", self.seed, think=self.think)
        return self._bot.choose(view), self._bot.explain(view)


__all__ = [
    "BOT_NAMES",
    "DEFAULT_LEVEL",
    "ENTRY_POINT_GROUP",
    "LADDER",
    "STRONGEST_LEVEL",
    "TABLE_LEVEL",
    "Adviser",
    "BeginnerBot",
    "Bot",
    "Level",
    "NamedSpecs",
    "RandomBot",
    "RuleBasedBot",
    "check_spec",
    "is_level",
    "level_names",
    "levels",
    "make_bot",
    "player_levels",
    "refresh_installed",
    "register",
    "unregister",
]
