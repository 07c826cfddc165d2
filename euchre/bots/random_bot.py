"""The uniformly random player: the floor every other bot is measured against."""

from __future__ import annotations

import random

from euchre.bots.base import require_turn
from euchre.view import SeatView


class RandomBot:
    """Picks any legal action with equal chance, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        legal = require_turn(view)
        return legal[int(self.rng.random() * len(legal))]

    def explain(self, view: SeatView) -> str:
        require_turn(view)
        return "I pick any legal action at random."
