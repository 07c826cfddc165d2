"""The reference double-dummy solver: plain Python, written to be read and trusted.

It is the yardstick the compiled kernel is tested against, the fallback when numba is missing,
and the peer ``euchre bench solver`` measures the kernel against. It works directly on the
engine's card ids and its trump tables (``EFFECTIVE_SUIT``, ``SUIT_MASK``, ``STRENGTH``), so it
shares no encoding with the kernel that could hide a common mistake.

The search is alpha-beta over single card plays, valued in tricks the makers take from here on:
the makers' seats maximise, the defenders' minimise. Three exact reductions keep it quick:

* **Equivalent cards.** Two cards of one hand with no card still in play (in any hand or on the
  table) ranked between them win and lose exactly the same tricks, so only one of them is
  searched and the other gets the same value.
* **Bounds.** The makers take between 0 and the tricks left; a window that lies outside that
  range is decided without search.
* **A transposition table at trick boundaries.** Who leads and who holds what fixes the rest of
  the hand, so a bound once proved for that is reused (lower and upper bounds, as alpha-beta
  proves only one side when it cuts off).
"""

from __future__ import annotations

from euchre.cards import EFFECTIVE_SUIT, NUM_CARD_IDS, POWER, STRENGTH, SUIT_MASK, Card, lawful_mask
from euchre.seats import Seat
from euchre.solver.position import Position


class ReferenceSolver:
    """Solves one :class:`Position` (and the positions reached from it)."""

    def __init__(self, pos: Position) -> None:
        self.trump = pos.trump
        self.suit_of = EFFECTIVE_SUIT[pos.trump]
        self.suit_mask = SUIT_MASK[pos.trump]
        self.strength = STRENGTH[pos.trump]
        self.power = POWER[pos.trump]
        #: Every card id of each effective suit, strongest first.
        self.ranked = [
            sorted((c for c in range(NUM_CARD_IDS) if self.suit_of[c] == suit),
                   key=self.power.__getitem__, reverse=True)
            for suit in range(4)
        ]
        self.order = pos.order
        self.next_seat = {s: pos.order[(i + 1) % len(pos.order)] for i, s in enumerate(pos.order)}
        self.maker = [s in pos.maker_seats for s in range(len(pos.hands))]
        self.players = len(pos.order)
        self.table: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
        self.nodes = 0

    # -----------------------------------------------------------------------------------------
    # Moves

    def lawful(self, hand: int, trick: tuple[tuple[int, int], ...]) -> int:
        """The cards of ``hand`` that may be played to ``trick``: follow the led suit if able."""
        return lawful_mask(hand, self.trump, self.suit_of[trick[0][1]] if trick else -1)

    def representatives(
        self, hands: list[int], seat: Seat, trick: tuple[tuple[int, int], ...]
    ) -> list[tuple[int, list[int]]]:
        """The lawful cards of ``seat`` grouped into classes of equivalent cards, each as
        (the card to search, every card of the class), in the order worth searching first."""
        mine = self.lawful(hands[seat], trick)
        in_play = 0
        for h in hands:
            in_play |= h
        for _, c in trick:
            in_play |= 1 << c
        groups: list[tuple[int, list[int]]] = []
        for suit in range(4):
            if not mine & self.suit_mask[suit]:
                continue
            run: list[int] = []
            for c in self.ranked[suit]:  # high to low: our cards with nobody else's between
                if not in_play >> c & 1:
                    continue
                if mine >> c & 1:
                    run.append(c)
                elif run:
                    groups.append((run[0], run))
                    run = []
            if run:
                groups.append((run[0], run))
        if trick:
            groups.sort(key=lambda g: self.follow_order(trick, seat, g[0]))
        else:
            groups.sort(key=lambda g: -self.power[g[0]])
        return groups

    def follow_order(
        self, trick: tuple[tuple[int, int], ...], seat: Seat, card: Card
    ) -> tuple[int, int]:
        """Move ordering for a card played to a trick (only speed depends on it): with the
        trick won by our team, cheap cards first; otherwise the cheapest card that takes the
        lead first, then the rest cheapest first."""
        table = self.strength[self.suit_of[trick[0][1]]]
        win_seat, win = trick[0][0], table[trick[0][1]]
        for seat, c in trick[1:]:
            if table[c] > win:
                win_seat, win = seat, table[c]
        ours = self.maker[win_seat] == self.maker[seat]
        beats = table[card] > win
        return (0 if beats and not ours else 1, self.power[card])

    def winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        led = self.suit_of[trick[0][1]]
        table = self.strength[led]
        best_seat, best = trick[0][0], -1
        for seat, c in trick:
            if table[c] > best:
                best_seat, best = seat, table[c]
        return best_seat

    # -----------------------------------------------------------------------------------------
    # Search

    def value(
        self,
        hands: list[int],
        seat: Seat,
        trick: tuple[tuple[int, int], ...],
        tricks_left: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Tricks the makers take from now on (the trick in progress included), ``seat`` to
        play. Exact when the result lies strictly inside (alpha, beta); otherwise a bound on
        the side of the window it falls (alpha-beta's contract)."""
        self.nodes += 1
        if tricks_left == 0:
            return 0
        if alpha >= tricks_left:
            return tricks_left  # cannot do better than every trick left: fails low
        if beta <= 0:
            return 0  # cannot do worse than none: fails high
        key: tuple[tuple[int, ...], int] | None = None
        if not trick:
            key = (tuple(hands), seat)
            known = self.table.get(key)
            if known is not None:
                lo, hi = known
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        maximising = self.maker[seat]
        best = -1 if maximising else tricks_left + 1
        a, b = alpha, beta
        for card, _ in self.representatives(hands, seat, trick):
            v = self.after_play(hands, seat, card, trick, tricks_left, a, b)
            if maximising:
                if v > best:
                    best = v
                    a = max(a, v)
            elif v < best:
                best = v
                b = min(b, v)
            if a >= b:
                break
        if key is not None:
            lo, hi = self.table.get(key, (0, tricks_left))
            if best <= alpha:
                hi = min(hi, best)
            elif best >= beta:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi)
        return best

    def after_play(
        self,
        hands: list[int],
        seat: Seat,
        card: Card,
        trick: tuple[tuple[int, int], ...],
        tricks_left: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The makers' tricks from now on after ``seat`` plays ``card`` (same contract)."""
        hands[seat] ^= 1 << card
        played = (*trick, (seat, card))
        if len(played) < self.players:
            v = self.value(hands, self.next_seat[seat], played, tricks_left, alpha, beta)
        else:
            win = self.winner(played)
            won = 1 if self.maker[win] else 0
            v = won + self.value(hands, win, (), tricks_left - 1, alpha - won, beta - won)
        hands[seat] ^= 1 << card
        return v

    def exact_value(self, pos: Position) -> int:
        """The makers' tricks from now on under best play."""
        return self.value(list(pos.hands), pos.to_move, pos.trick, pos.tricks_left, -1,
                          pos.tricks_left + 1)

    def move_values(self, pos: Position) -> dict[int, int]:
        """For each lawful card of the player to move, the makers' tricks from now on after it
        (equivalent cards share one search)."""
        hands = list(pos.hands)
        out: dict[int, int] = {}
        for card, group in self.representatives(hands, pos.to_move, pos.trick):
            v = self.after_play(hands, pos.to_move, card, pos.trick, pos.tricks_left, -1,
                                pos.tricks_left + 1)
            for c in group:
                out[c] = v
        return dict(sorted(out.items()))


def reference_value(pos: Position) -> int:
    """The makers' final trick count (tricks taken included) under best play."""
    return pos.maker_tricks_taken + ReferenceSolver(pos).exact_value(pos)


def reference_move_values(pos: Position) -> dict[int, int]:
    """The makers' final trick count after each lawful card of the player to move."""
    taken = pos.maker_tricks_taken
    return {c: taken + v for c, v in ReferenceSolver(pos).move_values(pos).items()}
