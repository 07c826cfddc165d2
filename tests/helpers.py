"""Builders shared by the rules tests: exact positions, scripted actions, random play-outs.

The engine deals a deck order in packets, so a test that wants "South holds these five cards"
has to know which deck positions South receives. ``deck_for`` inverts the engine's packet deal
map (read from a state's public ``deal_seats``) so tests can say what each seat holds and get
the deck order that deals it; unspecified cards are filled in id order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from euchre.actions import action_from_str
from euchre.cards import deck_cards, parse_card
from euchre.match import Match
from euchre.rules import Rules
from euchre.state import HandState

Hand = str | Sequence[int] | None
"""A seat's cards as text ("JH JD AH AS KS"), as card ids, or None for "anything left"."""


def cards(text: str) -> list[int]:
    """Card ids of a space-separated list: ``cards("JH 10D 9C")``."""
    return [parse_card(t) for t in text.split()]


def mask(text: str) -> int:
    m = 0
    for c in cards(text):
        m |= 1 << c
    return m


def _as_cards(h: Hand) -> list[int] | None:
    if h is None:
        return None
    return cards(h) if isinstance(h, str) else list(h)


def deal_seats(rules: Rules, dealer: int) -> tuple[int, ...]:
    """Which seat receives each of the first 5n deck cards (the engine's packet deal map)."""
    return HandState(rules, dealer, deck_cards(rules.deck)).deal_seats


def deck_for(
    rules: Rules,
    dealer: int,
    hands: Sequence[Hand],
    up: str | int,
    kitty: str | Sequence[int] = (),
) -> tuple[int, ...]:
    """The deck order (top first) that deals ``hands`` per seat, turns ``up`` and leaves
    ``kitty`` (top first) followed by any cards not named."""
    n = rules.players
    if len(hands) != n:
        raise ValueError(f"give one hand (or None) per seat: {n} seats")
    up_card = parse_card(up) if isinstance(up, str) else up
    kit = cards(kitty) if isinstance(kitty, str) else list(kitty)
    fixed = [_as_cards(h) for h in hands]
    named = [up_card, *kit, *(c for h in fixed if h is not None for c in h)]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    full = deck_cards(rules.deck)
    spare = [c for c in full if c not in named]
    per_seat: list[list[int]] = []
    for h in fixed:
        if h is None:
            per_seat.append([spare.pop(0) for _ in range(5)])
        else:
            if len(h) != 5:
                raise ValueError(f"a hand has five cards, not {len(h)}")
            per_seat.append(list(h))
    order: list[int] = []
    taken = [0] * n
    for seat in deal_seats(rules, dealer):
        order.append(per_seat[seat][taken[seat]])
        taken[seat] += 1
    order.append(up_card)
    order += kit + spare
    assert sorted(order) == sorted(full)
    return tuple(order)


def build(
    hands: Sequence[Hand],
    up: str | int,
    kitty: str | Sequence[int] = (),
    rules: Rules | None = None,
    dealer: int = 0,
) -> HandState:
    """A fresh hand with exactly these cards per seat (dealer North unless told)."""
    r = rules or Rules()
    return HandState(r, dealer, deck_for(r, dealer, hands, up, kitty))


def act(state: HandState | Match, *texts: str) -> None:
    """Apply actions written as text ("pass", "order alone", "discard 9C", "JH", ...)."""
    for t in texts:
        state.apply_action(action_from_str(t))


def play_out(
    state: HandState,
    rng: random.Random,
    choose: Callable[[HandState, random.Random], int] | None = None,
) -> HandState:
    """Play a hand to its end with random legal actions (or ``choose``)."""
    while not state.is_terminal():
        a = choose(state, rng) if choose else rng.choice(state.legal_actions())
        state.apply_action(a)
    return state


def random_match(rules: Rules, seed: int, play_seed: int | None = None) -> Match:
    """A whole match from ``seed`` with seeded random legal actions."""
    m = Match(rules, seed=seed)
    rng = random.Random(seed if play_seed is None else play_seed)
    while not m.is_terminal():
        m.apply_action(rng.choice(m.legal_actions()))
    return m


def hand_cards(state: HandState, seat: int) -> set[int]:
    """The set of card ids a seat holds now."""
    return {c for c in range(33) if state.hands[seat] >> c & 1}
