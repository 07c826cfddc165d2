"""Computer players. They import the core and see only a seat's view; the core never imports
them.

``make_bot("rule", seed)``, ``make_bot("beginner", seed)`` or ``make_bot("random", seed)``;
:data:`BOT_NAMES` lists the names. ``rule-v1`` is ``rule`` before issue #6, kept as a baseline.
"""

from __future__ import annotations

from collections.abc import Callable

from euchre.bots.base import Bot
from euchre.bots.beginner import BeginnerBot
from euchre.bots.legacy_rule import LegacyRuleBot
from euchre.bots.random_bot import RandomBot
from euchre.bots.rule_based import RuleBasedBot

_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "rule": RuleBasedBot,
    "random": RandomBot,
    "beginner": BeginnerBot,
    "rule-v1": LegacyRuleBot,
}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by name; an unknown name raises ValueError listing the known ones."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(
            f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}"
        ) from None
    return factory(seed)


__all__ = ["BOT_NAMES", "BeginnerBot", "Bot", "RandomBot", "RuleBasedBot", "make_bot"]
