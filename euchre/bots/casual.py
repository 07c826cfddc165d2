"""The ``casual`` level: a player who knows a good table player's habits but does not always
think, between ``beginner`` and ``club`` (``rule``) on the rating ladder.

At each decision it either thinks, and decides as :class:`~euchre.bots.rule_based.RuleBasedBot`
does, or plays by rote, as :class:`~euchre.bots.beginner.BeginnerBot` does (orders on two cards
of the up-card's suit, always plays high, sometimes forgets to trump in). Which of the two is
drawn from the bot's seed and the view, so ``choose`` and ``explain`` agree and a game replays
exactly. The share of rote decisions, :data:`ROTE`, was chosen so that the level's measured
rating falls near the middle of the gap between the two (docs/players.md).
"""

from __future__ import annotations

import random

from euchre.bots.base import Bot
from euchre.bots.beginner import BeginnerBot
from euchre.bots.rule_based import RuleBasedBot
from euchre.view import SeatView

#: The chance that a decision is played by rote, as a beginner plays it.
ROTE = 0.5


class CasualBot:
    """Decides as ``rule`` about half the time and as ``beginner`` otherwise."""

    name = "casual"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = 0 if seed is None else seed
        self.thinking = RuleBasedBot(seed)
        self.rote = BeginnerBot(seed)

    def _player(self, view: SeatView) -> Bot:
        key = f"casual:{self.seed}:{view.seat}:{view.dealer}:{view.hand}:{view.history}"
        return self.rote if random.Random(key).random() < ROTE else self.thinking

    def choose(self, view: SeatView) -> int:
        return self._player(view).choose(view)

    def explain(self, view: SeatView) -> str:
        return self._player(view).explain(view)
