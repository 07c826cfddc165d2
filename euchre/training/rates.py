"""How often a bidding policy orders, goes alone or passes, by round and seat.

The positions are those a table reaches: every bidding decision of seeded deals up to the
rollout policy's own bid (so a later seat's position is one where every earlier seat passed
with its cards). Every policy is asked the same positions, so the rates compare like with like.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from euchre import actions as A
from euchre.bots import rollout
from euchre.cards import JOKER
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.state import BID1, BID2, HandState
from euchre.tournament.core import derive_seed
from euchre.view import SeatView


def bidding_positions(deals: int, seed: int = 0, rules: Rules | None = None
                      ) -> list[SeatView]:
    """Every bidding decision of ``deals`` seeded deals, in order, up to the rollout policy's
    bid that ends the auction."""
    rules = rules or Rules()
    out = []
    for i in range(deals):
        rng = random.Random(derive_seed(seed, "bidding-rates", i))
        st = HandState.deal(rules, i % rules.players, rng)
        while st.phase in (BID1, BID2) and st.upcard != JOKER:
            out.append(st.view(st.cur))
            st.apply_action(rollout.policy_action(st))
    return out


def round_and_seat(view: SeatView) -> tuple[int, int]:
    """(bidding round, seat counted from the dealer's left: 1 the eldest, 4 the dealer)."""
    return (1 if view.phase == Phase.BID1 else 2), (view.seat - view.dealer - 1) % view.players + 1


@dataclass
class Rates:
    """Counts of one (round, seat): bids with the partner, alone, and passes."""

    order: int = 0
    alone: int = 0
    passes: int = 0
    actions: list[int] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.order + self.alone + self.passes

    def add(self, action: int) -> None:
        self.actions.append(action)
        if action == A.PASS:
            self.passes += 1
        elif action == A.ORDER_ALONE or action >= A.CALL_ALONE_BASE:
            self.alone += 1
        else:
            self.order += 1

    def percent(self) -> str:
        """'order / alone / pass' in percent."""
        n = max(self.n, 1)
        return " / ".join(f"{100 * k / n:.1f}" for k in (self.order, self.alone, self.passes))


def bidding_rates(choose: Callable[[SeatView], int], views: Iterable[SeatView]
                  ) -> dict[tuple[int, int], Rates]:
    """Each (round, seat)'s rates of ``choose`` over ``views``."""
    out: dict[tuple[int, int], Rates] = {}
    for view in views:
        out.setdefault(round_and_seat(view), Rates()).add(choose(view))
    return dict(sorted(out.items()))


__all__ = ["Rates", "bidding_positions", "bidding_rates", "round_and_seat"]
