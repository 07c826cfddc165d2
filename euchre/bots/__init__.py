"""Computer players. They import the core and see only a seat's view; the core never imports
them.

``make_bot(name, seed, think=...)`` builds a player by level; :data:`BOT_NAMES` lists the levels,
weakest first: ``random``, ``beginner`` (obvious habits and mistakes), ``rule`` (table habits),
``search`` (the strongest), ``pimc-naive`` (search bidding from double-dummy results) and
``pimc-full`` (textbook PIMC bidding: later bids chosen with every card seen too), both kept for
comparison; ``rule-v1`` is ``rule`` before issue #6, kept as a measured baseline.
"""

from __future__ import annotations

from collections.abc import Callable

from euchre.bots.base import Bot
from euchre.bots.beginner import BeginnerBot
from euchre.bots.legacy_rule import LegacyRuleBot
from euchre.bots.random_bot import RandomBot
from euchre.bots.rule_based import RuleBasedBot
from euchre.view import SeatView


def _search(seed: int | None, think: object) -> Bot:
    # Imported on use: the search player pulls in the solver, which the other levels never need.
    from euchre.bots.search import SearchBot

    return SearchBot(seed, think)


def _naive(seed: int | None, think: object) -> Bot:
    from euchre.bots.search import SearchBot

    return SearchBot(seed, think, naive_bidding=True)


def _full(seed: int | None, think: object) -> Bot:
    from euchre.bots.search import SearchBot

    return SearchBot(seed, think, perfect_bidding=True)


def _learned(seed: int | None, think: object) -> Bot:
    from euchre.bots.learned import LearnedBidBot

    return LearnedBidBot(seed, think)


_FACTORIES: dict[str, Callable[[int | None, object], Bot]] = {
    "random": lambda seed, think: RandomBot(seed),
    "beginner": lambda seed, think: BeginnerBot(seed),
    "rule": lambda seed, think: RuleBasedBot(seed),
    "search": _search,
    "pimc-naive": _naive,
    "pimc-full": _full,
    "search-learned": _learned,
    "rule-v1": lambda seed, think: LegacyRuleBot(seed),
}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
#: The level a person plays with and against unless they choose another.
DEFAULT_LEVEL = "search"


def make_bot(name: str, seed: int | None = None, **options: object) -> Bot:
    """A new bot by level name.

    ``think``: the search levels' budget, a number of deals (``200``) or a time (``"0.5s"``);
    the other levels accept and ignore it, so one option works for every level. An unknown
    name or option, or a bad budget, raises ValueError saying what is allowed."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(
            f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}"
        ) from None
    unknown = sorted(set(options) - {"think"})
    if unknown:
        raise ValueError(f"unknown bot option(s) {', '.join(unknown)}; the only option is think")
    think = options.get("think")
    if think is not None:
        from euchre.bots.search import parse_think

        parse_think(think)  # a bad budget is refused for every level, not only search
    return factory(seed, think)


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
    "Adviser",
    "BeginnerBot",
    "Bot",
    "RandomBot",
    "RuleBasedBot",
    "make_bot",
]
