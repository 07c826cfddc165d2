"""A computer player in 20 lines: ``euchre check-bot examples/python_bot.py:LowCard``.

A bot is any object with ``choose(view) -> action``; ``view`` is what its seat may know
(:class:`euchre.view.SeatView`) and the answer one of ``view.legal_actions``.
"""

import random

from euchre import actions as A
from euchre.view import SeatView


class LowCard:
    """Orders up with three trumps or more, else passes; plays its lowest legal card."""

    name = "low-card"
    deterministic = True  # the same seed, the same game: euchre check-bot holds it to that

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        legal = view.legal_actions
        if A.ORDER in legal:
            trumps = sum(1 for c in view.hand if c >> 3 == view.upcard >> 3)
            return A.ORDER if trumps >= 3 else A.PASS
        plays = [a for a in legal if A.is_play(a)]
        if plays:
            return min(plays, key=lambda c: (c & 7, c))  # the lowest rank first
        return A.PASS if A.PASS in legal else self.rng.choice(legal)
