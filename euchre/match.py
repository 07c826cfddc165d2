"""A match: hands until a side reaches the target, with the deal passing left.

The match owns the random generator (seeded, never the global one) and the list of finished
hands; it is itself OpenSpiel-shaped (``current_player``, ``legal_actions``, ``apply_action``)
and deals the next hand as soon as one ends, so a driver loop never has to. A thrown-in hand moves
the deal left without a score; a misdeal (farmer's hand, no ace no face) is redealt by the same
dealer (or, under ``misdeal_passes``, by the next one).

Under ``renege_penalty="deduct"`` scores can fall, so reaching the target alone might never end
a game: a side at minus the target loses (docs/rules.md, "How a game ends"). Every game also
ends at :data:`HAND_LIMIT` hands, so each one fits in a record.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from euchre.cards import CLUBS, JACK, SPADES, Card, card, deck_cards
from euchre.errors import IllegalActionError
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.state import MISDEAL_REDEAL, TERMINAL, THROWN_IN, HandState
from euchre.view import SeatView

BLACK_JACKS = (card(CLUBS, JACK), card(SPADES, JACK))

HAND_LIMIT = 5_000
"""The most hands (thrown-in and misdealt ones included) a match deals: the game then ends, the
higher score winning, or a draw when the leaders are level. A game to 10 takes about 20 hands;
the limit is for games that could otherwise go on without end (scores that fall under ``deduct``,
or players who always pass), and is low enough that every game fits in a record
(:data:`euchre.record.MAX_HANDS` hands and ``MAX_RECORD_CHARS`` characters: random players, who
make the longest hands, write under 1,000 characters a hand)."""


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand as it ended: enough to replay it (dealer, deck, actions) and its result."""

    dealer: Seat
    deck: tuple[Card, ...]
    actions: tuple[int, ...]
    outcome: str
    points: tuple[int, ...]
    scores_after: tuple[int, ...]


def first_dealer_by_black_jack(rules: Rules, rng: random.Random) -> tuple[int, list[int]]:
    """Deal face up around the table from seat 0 until a black Jack appears (docs/rules.md).

    Returns the dealer and the cards turned, so a record can show how the deal was chosen."""
    deck = list(deck_cards(rules.deck))
    rng.shuffle(deck)
    turned = []
    for i, c in enumerate(deck):
        turned.append(c)
        if c in BLACK_JACKS:
            return i % rules.players, turned
    raise AssertionError("every deck holds the black Jacks")  # pragma: no cover


class Match:
    """Hands until a side reaches ``rules.target`` (or one hand under ``single_hand``).

    ``winner`` is None while the match runs, then the winning side; -1 for a draw (OpenSpiel's
    word): a ``single_hand`` game whose scores are all equal (all passed with stick the dealer
    off), or a game stopped at :data:`HAND_LIMIT` with the leaders level."""

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        decks: list[tuple[int, ...]] | None = None,
    ) -> None:
        """``decks`` fixes the deck order of each hand in turn (for replays and tests); once
        they run out, decks come from the seeded generator."""
        self.rules = rules or Rules()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        # Always draw the first dealer, even when one is given, so that a replayed match's
        # generator is in step with the original and a resumed game continues identically.
        if self.rules.first_dealer == "black_jack":
            drawn, self.first_dealer_cards = first_dealer_by_black_jack(self.rules, self.rng)
        else:
            drawn, self.first_dealer_cards = self.rng.randrange(self.rules.players), []
        if first_dealer is None:
            first_dealer = drawn
        if (isinstance(first_dealer, bool) or not isinstance(first_dealer, int)
                or not 0 <= first_dealer < self.rules.players):
            raise IllegalActionError(
                f"first_dealer must be a seat 0..{self.rules.players - 1}, not {first_dealer!r}"
            )
        self.first_dealer = first_dealer
        self.scores = [0] * self.rules.num_sides
        self.finished: list[FinishedHand] = []
        self._decks = list(decks or [])
        self.winner: Seat | None = None
        self.hand = self._deal(first_dealer)

    def _deal(self, dealer: Seat) -> HandState:
        dealt = HandState.deal(self.rules, dealer, self.rng)  # keeps the generator in step
        if self._decks:
            return HandState(self.rules, dealer, self._decks.pop(0))
        return dealt

    # OpenSpiel-shaped surface -----------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.hand.cur

    def is_terminal(self) -> bool:
        return self.winner is not None

    def legal_actions(self) -> list[int]:
        return [] if self.winner is not None else self.hand.legal_actions()

    def apply_action(self, action: int) -> None:
        """Apply to the current hand; when it ends, score it and deal the next one."""
        if self.winner is not None:
            raise IllegalActionError("the match is over: no action is allowed")
        self.hand.apply_action(action)
        if self.hand.is_terminal():
            self._finish_hand()

    def view(self, seat: Seat) -> SeatView:
        return self.hand.view(seat, tuple(self.scores))

    # -----------------------------------------------------------------------------------------

    def _finish_hand(self) -> None:
        h = self.hand
        assert h.outcome is not None
        for side, p in enumerate(h.points):
            self.scores[side] += p
        self.finished.append(
            FinishedHand(
                dealer=h.dealer,
                deck=h.deck,
                actions=tuple(a for _, a in h.history),
                outcome=h.outcome,
                points=h.points,
                scores_after=tuple(self.scores),
            )
        )
        best = max(self.scores)
        if best >= self.rules.target:
            self.winner = self._leader(best)
            return
        if min(self.scores) <= -self.rules.target:
            # Only under "deduct": out at minus the target, the highest score wins.
            self.winner = self._leader(best)
            return
        if self.rules.single_hand and h.outcome != MISDEAL_REDEAL:
            # The higher score wins even below zero: a deducted renege decides the hand.
            self.winner = -1 if min(self.scores) == best else self.scores.index(best)
            return
        if len(self.finished) >= HAND_LIMIT:
            level = self.scores.count(best) > 1
            self.winner = -1 if level else self.scores.index(best)
            return
        # A misdeal is redealt by the same dealer, unless the table passes the deal
        # (``Rules.misdeal_passes``).
        same = h.outcome == MISDEAL_REDEAL and not self.rules.misdeal_passes
        dealer = h.dealer if same else (h.dealer + 1) % self.rules.players
        self.hand = self._deal(dealer)

    def _leader(self, best: int) -> int:
        leaders = [s for s, v in enumerate(self.scores) if v == best]
        return leaders[0] if len(leaders) == 1 else self._tie_break(leaders)

    def _tie_break(self, leaders: list[int]) -> int:
        # Only cutthroat can tie (two defenders both scoring a euchre, or left level when a
        # deducted maker falls to minus the target): the first of them in seat order from the
        # maker's left wins; documented in docs/rules.md.
        h = self.hand
        order = [(h.maker + 1 + i) % self.rules.players for i in range(self.rules.players)]
        for s in order:
            if s in leaders:
                return s
        return leaders[0]  # pragma: no cover

    @property
    def hands_played(self) -> int:
        return sum(1 for f in self.finished if f.outcome not in (THROWN_IN, MISDEAL_REDEAL))
