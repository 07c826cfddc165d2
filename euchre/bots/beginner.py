"""The ``beginner`` level: a new player's habits, good and bad, so a person can win and learn.

A beginner knows the rules (every card it plays is legal, it follows suit, it knows the bowers
when it plays) but bids and plays by rote, with the mistakes a teacher corrects first:

- it orders up, or picks up, with any two cards of the up-card's printed suit, forgetting the
  left bower and ignoring who gets the up-card; in round two it names any suit it holds three of;
- it never goes alone and never defends alone, never calls a farmer's hand or a misdeal, never
  claims a renege (it does not watch the other hands);
- it leads its aces first, then its highest card; it always plays its highest card of the led
  suit, even over its partner's winning card;
- when it cannot follow it usually trumps in with its highest trump, but about one time in three
  it forgets and throws off its lowest card instead.

The bot is deterministic for a seed: the one random habit (forgetting to trump) is drawn from a
generator seeded by the bot's seed and the view, so ``choose`` and ``explain`` always agree and
the same game replays the same way. It reads only its :class:`~euchre.view.SeatView`.
"""

from __future__ import annotations

import random

from euchre import actions as A
from euchre.bots.base import require_turn
from euchre.cards import (
    ACE,
    EFFECTIVE_SUIT,
    JOKER,
    POWER,
    SUIT_NAMES,
    SUITS,
    suit_of,
)
from euchre.phases import Phase
from euchre.view import SeatView
from euchre.words import card_words as card_name

#: Chance of forgetting to trump in when void in the led suit and the trick is not partner's.
FORGET_TO_TRUMP = 0.35

Decision = tuple[int, str]


def _printed_count(hand: tuple[int, ...] | list[int], suit: int) -> int:
    """Cards of ``suit`` by their printed suit (a beginner forgets the left bower); the Joker
    counts, because everyone remembers the Joker."""
    return sum(1 for c in hand if c == JOKER or suit_of(c) == suit)


def _longest_suit(hand: tuple[int, ...] | list[int], allowed: list[int]) -> int:
    return max(allowed, key=lambda s: (_printed_count(hand, s), -s))


class BeginnerBot:
    """Plays legally by rote: bids on two trumps, leads aces, always plays high, never alone."""

    name = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = 0 if seed is None else seed

    def choose(self, view: SeatView) -> int:
        return self.decide(view)[0]

    def explain(self, view: SeatView) -> str:
        return self.decide(view)[1]

    def decide(self, view: SeatView) -> Decision:
        """(action, one-sentence reason); the action is always one of the legal ones."""
        legal = require_turn(view)
        if len(legal) == 1:
            return legal[0], "It is the only thing I may do."
        phase = view.phase
        if phase == Phase.PLAY:
            action, why = self._play(view)
        elif phase == Phase.BID1:
            action, why = self._bid1(view)
        elif phase == Phase.BID2:
            action, why = self._bid2(view)
        elif phase == Phase.AUCTION:
            action, why = self._auction(view)
        elif phase == Phase.TRUMP:
            s = _longest_suit(view.hand, list(SUITS))
            action, why = A.call(s), f"I name {SUIT_NAMES[s]}, the suit I hold most of."
        elif phase == Phase.DISCARD:
            action, why = self._discard(view)
        elif phase == Phase.DEALER_TAKE:
            action, why = A.TAKE, "I always take the card: more trumps are better."
        elif phase == Phase.ALONE:
            action, why = A.WITH_PARTNER, "I never go alone: I want my partner's help."
        elif phase == Phase.DEFEND:
            action, why = A.PASS, "I never defend alone."
        elif phase in (Phase.CLAIM, Phase.DECLARE):
            action, why = A.PASS, "I do not bother with that."
        else:  # pragma: no cover - the engine has no other phase with a decision
            action, why = legal[0], "I do the first thing I may."
        if action not in legal:  # a habit that does not fit this table's rules
            return legal[0], "I do the first thing I may."
        return action, why

    # Bidding ---------------------------------------------------------------------------------

    def _bid1(self, view: SeatView) -> Decision:
        legal = view.legal_actions
        up = view.upcard
        hand = list(view.hand)
        if up == JOKER:  # the dealer names trump: the suit it holds most of
            calls = [s for s in SUITS if A.call(s) in legal]
            s = _longest_suit(hand, calls)
            return A.call(s), f"I name {SUIT_NAMES[s]}, the suit I hold most of."
        t = suit_of(up)
        count = _printed_count(hand, t) + (1 if view.seat == view.dealer else 0)
        if count >= 2 and A.ORDER in legal:
            return A.ORDER, f"I have {count} {SUIT_NAMES[t]}, so I make them trump."
        return A.PASS, f"I do not have two {SUIT_NAMES[t]}, so I pass."

    def _bid2(self, view: SeatView) -> Decision:
        legal = view.legal_actions
        calls = [s for s in SUITS if A.call(s) in legal]
        s = _longest_suit(view.hand, calls)
        count = _printed_count(view.hand, s)
        if count >= 3 or A.PASS not in legal:
            return A.call(s), f"I have {count} {SUIT_NAMES[s]}, so I name them."
        return A.PASS, "I do not have three cards of any suit, so I pass."

    def _auction(self, view: SeatView) -> Decision:
        """Two-handed with rows: the lowest bid when nobody has bid; outbid only with six
        cards of one suit among the eight it sees."""
        legal = view.legal_actions
        standing = view.contract
        if not standing and A.bid(A.BID_MIN) in legal:
            return A.bid(A.BID_MIN), "I bid seven, the least I may."
        count = max(_printed_count(view.hand, s) for s in SUITS)
        if standing < A.BID_MAX and count >= 6 and A.bid(standing + 1) in legal:
            return A.bid(standing + 1), f"I have {count} cards of one suit, so I bid one more."
        return A.PASS, "I do not outbid without six cards of one suit."

    def _discard(self, view: SeatView) -> Decision:
        allowed = [a - A.DISCARD_BASE for a in view.legal_actions]
        t = view.trump
        # The lowest card by rank, trump or not: a beginner does not think about voids.
        c = min(allowed, key=lambda x: (x & 7 if x != JOKER else 99, POWER[t][x]))
        return A.discard(c), f"I throw away my lowest card, the {card_name(c)}."

    # Play ------------------------------------------------------------------------------------

    def _play(self, view: SeatView) -> Decision:
        legal = list(view.legal_actions)
        t = view.trump
        eff = EFFECTIVE_SUIT[t]
        pw = POWER[t]
        if not view.current_trick:
            aces = [c for c in legal if eff[c] != t and c & 7 == ACE and c != JOKER]
            if aces:
                c = aces[0]
                return c, f"I lead my ace, the {card_name(c)}."
            c = max(legal, key=lambda x: pw[x])
            return c, f"I lead my highest card, the {card_name(c)}."
        led = eff[view.current_trick[0][1]]
        follow = [c for c in legal if eff[c] == led]
        if follow:  # never reneges, even where the rules would only penalize it
            c = max(follow, key=lambda x: pw[x])
            return c, f"I play my highest {SUIT_NAMES[led]}, the {card_name(c)}."
        trumps = [c for c in legal if eff[c] == t]
        others = [c for c in legal if eff[c] != t]
        if trumps and (not others or not self._forgets(view)):
            c = max(trumps, key=lambda x: pw[x])
            return c, f"I cannot follow, so I trump with my highest trump, the {card_name(c)}."
        c = min(others or legal, key=lambda x: pw[x])
        return c, f"I cannot follow, so I throw away the {card_name(c)}."

    def _forgets(self, view: SeatView) -> bool:
        """The beginner's one random habit, the same every time for the same seed and view."""
        key = f"{self.seed}:{view.seat}:{view.dealer}:{view.hand}:{view.history}"
        return random.Random(key).random() < FORGET_TO_TRUMP
