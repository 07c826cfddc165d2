"""Sampling full deals consistent with one seat's view (the issue: "a way to sample full deals
consistent with a view (including voids shown in play)").

The key property: every sampled state's view for the seat equals the view it was sampled from,
for every preset and variant, at random points of random hands. Then: the true deal is always a
possible sample, voids shown in play hold, and on small cases the sampler's support is exactly
the set of consistent worlds found by brute force (each checked by an engine replay), drawn
uniformly.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest

from euchre import actions as A
from euchre.cards import EFFECTIVE_SUIT, LOW_RANKS, SUIT_MASK, card, cards_of
from euchre.phases import Phase
from euchre.rules import PRESETS, Rules
from euchre.sampling import DealSampler, sample_hand_states
from euchre.state import HandState
from euchre.view import HIDDEN_SWAP, SeatView

pytestmark = pytest.mark.core

VARIANTS: dict[str, Rules] = {
    **{f"preset-{name}": r for name, r in PRESETS.items()},
    "farmer-swap": Rules(farmers_hand="swap", no_ace_no_face=True),
    "farmer-redeal": Rules(farmers_hand="redeal", no_ace_no_face=True),
    "renege-penalize": Rules(renege="penalize"),
    "defend-alone": Rules(defend_alone=True, canadian_loner=True),
    "openspiel-lone-defender": PRESETS["openspiel"].replace(
        defend_alone=True, defend_alone_vs_partners=True
    ),
    "joker-swap-penalize": Rules(deck=25, farmers_hand="swap", renege="penalize"),
    "two-players-32-swap": Rules(players=2, deck=32, farmers_hand="swap"),
    "three-players-penalize-redeal": Rules(
        players=3, renege="penalize", farmers_hand="redeal", no_ace_no_face=True
    ),
    "three-players-joker-stick": Rules(players=3, deck=25, stick_the_dealer=True),
    # Issue 10's table rules: a card taken back is known to be in its player's hand again.
    "renege-fix-deduct-passes": Rules(renege="penalize", renege_fix=True,
                                      renege_penalty="deduct", farmers_hand="redeal",
                                      misdeal_passes=True),
    "three-players-renege-fix-tricks": Rules(players=3, renege="penalize", renege_fix=True,
                                             renege_penalty="tricks"),
    "rows-penalize-stick": Rules(players=2, rows=True, renege="penalize",
                                 stick_the_dealer=True),
}


def random_hand_states(rules: Rules, rng: random.Random) -> list[HandState]:
    """Every state of one hand played with uniformly random legal actions."""
    st = HandState.deal(rules, rng.randrange(rules.players), rng)
    out = [st.clone()]
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
        out.append(st.clone())
    return out


def random_views(rules: Rules, rng: random.Random, hands: int, points: int
                 ) -> Iterator[tuple[HandState, SeatView]]:
    for _ in range(hands):
        states = random_hand_states(rules, rng)
        for st in rng.sample(states, min(points, len(states))):
            for seat in range(rules.players):
                yield st, st.view(seat)


def failures_to_follow(view: SeatView) -> list[tuple[int, int]]:
    """(seat, led effective suit) for every card played that did not follow."""
    eff = EFFECTIVE_SUIT[view.trump]
    out = []
    tricks = [cards for _, cards, _ in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    for cards in tricks:
        led = eff[cards[0][1]]
        out += [(w, led) for w, c in cards[1:] if eff[c] != led]
    return out


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_sampled_deals_show_the_seat_exactly_its_view(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(f"views-{name}")
    checked = 0
    for _truth, view in random_views(rules, rng, hands=25, points=3):
        for sample in sample_hand_states(view, rng, 3):
            assert sample.view(view.seat) == view
            checked += 1
    assert checked >= 25 * 3 * rules.players


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_true_deal_is_always_a_possible_sample(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(f"truth-{name}")
    for truth, view in random_views(rules, rng, hands=20, points=3):
        sampler = DealSampler(view)
        true_assignment = sampler.assignment_of(truth)
        assert sampler.is_possible(true_assignment), (name, view)
        rebuilt = sampler.complete(true_assignment, rng)
        assert rebuilt is not None and rebuilt.view(view.seat) == view
        assert [cards_of(h) for h in rebuilt.hands] == [cards_of(h) for h in truth.hands]


def test_the_true_deal_is_drawn_with_its_share_of_probability() -> None:
    """Late in a hand few worlds remain: the truth turns up about once in ``count`` draws."""
    rng = random.Random(7)
    tested = 0
    while tested < 15:
        truth, view = next(random_views(Rules(), rng, hands=1, points=1))
        if not truth.tricks or len(truth.tricks) < 3:
            continue
        sampler = DealSampler(view)
        if not sampler.exact or not 2 <= sampler.count <= 40:
            continue
        draws = 60 * sampler.count
        target = sampler.assignment_of(truth)
        hits = sum(sampler.assignment_of(sampler.sample(rng)) == target for _ in range(draws))
        # Binomial(draws, 1/count): mean 60, standard deviation under 8.
        assert 20 <= hits <= 110, (sampler.count, hits)
        tested += 1


@pytest.mark.parametrize("name", ["preset-standard", "preset-joker", "preset-cutthroat",
                                  "defend-alone", "preset-openspiel"])
def test_voids_shown_in_play_are_respected_by_every_sample(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(f"voids-{name}")
    voids_seen = 0
    for _truth, view in random_views(rules, rng, hands=30, points=2):
        fails = [(w, s) for w, s in failures_to_follow(view) if w != view.seat]
        for sample in sample_hand_states(view, rng, 4):
            for w, led in fails:
                assert not sample.hands[w] & SUIT_MASK[view.trump][led]
                voids_seen += 1
    assert voids_seen > 100


def test_renege_penalize_shows_no_void_in_play() -> None:
    """Under renege "penalize" not following proves nothing, so samples may hold the suit a
    player failed to follow (and still reproduce the view, claims included)."""
    rng = random.Random(11)
    rules = Rules(renege="penalize")
    held_anyway = 0
    for _truth, view in random_views(rules, rng, hands=40, points=4):
        fails = [(w, s) for w, s in failures_to_follow(view) if w != view.seat]
        for sample in sample_hand_states(view, rng, 3):
            assert sample.view(view.seat) == view
            for w, led in fails:
                if sample.hands[w] & SUIT_MASK[view.trump][led]:
                    held_anyway += 1
    assert held_anyway > 0


def all_assignments(sampler: DealSampler, unknown: list[int]) -> Iterator[list[list[int]]]:
    """Every split of the unknown cards over the hidden locations' sizes (brute force)."""
    caps = [cap for _, _, cap in sampler.locs]

    def rec(i: int, left: list[int]) -> Iterator[list[list[int]]]:
        if i == len(caps) - 1:
            yield [left]
            return
        for chosen in combinations(left, caps[i]):
            rest = [c for c in left if c not in chosen]
            for tail in rec(i + 1, rest):
                yield [list(chosen), *tail]

    yield from rec(0, unknown)


def small_cases(
    rules: Rules, seed: str, want: int, limit: int, kinds: set[int] | None = None
) -> Iterator[tuple[SeatView, int]]:
    """Views whose brute-force split count is small (and that have hidden locations of the
    given ``kinds``: 0 hand, 1 kitty, 2 swap, 3 discard), with that count."""
    rng = random.Random(seed)
    found = 0
    while found < want:
        _truth, view = next(random_views(rules, rng, hands=1, points=1))
        sampler = DealSampler(view)
        if kinds and not kinds <= {kind for kind, _, _ in sampler.locs}:
            continue
        unknown = sorted({c for loc in sampler.assignment_of(_truth) for c in loc})
        size = math.factorial(len(unknown))
        for _, _, cap in sampler.locs:
            size //= math.factorial(cap)
        if not 3 <= size <= limit:
            continue
        found += 1
        yield view, size


@pytest.mark.parametrize(("name", "kinds"), [
    ("preset-standard", set()),
    ("preset-standard", {3}),
    ("renege-penalize", set()),
    ("preset-two-handed", set()),
    ("farmer-swap", {2}),
    ("preset-openspiel", {3}),
    ("preset-cutthroat", set()),
    ("preset-two-handed-rows", set()),
    ("preset-two-handed-rows", {4}),
    ("renege-fix-deduct-passes", set()),
])
def test_samples_are_uniform_over_exactly_the_consistent_worlds(name: str, kinds: set[int]
                                                                ) -> None:
    """Brute force every split of the unknown cards, keep those whose engine replay reproduces
    the view, and compare with the sampler: same set, same count, uniform frequencies."""
    rules = VARIANTS[name]
    limit = 3000 if rules.players == 4 else 800
    rng = random.Random(5)
    for view, _size in small_cases(rules, f"small-{name}-{kinds}", 3, limit, kinds):
        sampler = DealSampler(view)
        truth_like = sampler.sample(rng)
        unknown = sorted({c for loc in sampler.assignment_of(truth_like) for c in loc})
        consistent = set()
        for split in all_assignments(sampler, unknown):
            state = sampler.complete(split, rng)
            if state is not None:
                assert state.view(view.seat) == view
                consistent.add(tuple(frozenset(cards) for cards in split))
        assert consistent
        possible = {a for a in consistent if sampler.is_possible(a)}
        assert possible == consistent  # the per-card constraints never exclude a real world
        if sampler.exact:
            assert sampler.count == len(consistent)
        k = len(consistent)
        draws = 40 * k if k <= 50 else 2000
        counts = Counter(sampler.assignment_of(sampler.sample(rng)) for _ in range(draws))
        assert set(counts) <= consistent
        if k <= 50:
            assert set(counts) == consistent
            expected = draws / k
            chi2 = sum((counts[a] - expected) ** 2 / expected for a in consistent)
            df = k - 1
            assert chi2 < df + 6 * math.sqrt(2 * df) + 10, (k, chi2)


def test_uniform_when_a_dealer_picked_up_and_others_showed_voids() -> None:
    """A crafted spot: East dealt and took the up-card, then failed to follow spades. Every
    consistent world is equally likely and the up-card is in East's hand or East's discard."""
    rules = Rules()
    rng = random.Random(3)
    tried = 0
    while True:
        tried += 1
        truth_states = random_hand_states(rules, rng)
        for st in truth_states:
            if len(st.tricks) != 3 or st.trick or st.up_status != 1:
                continue
            seat = (st.dealer + 1) % 4
            view = st.view(seat)
            if not any(w == st.dealer for w, _ in failures_to_follow(view)):
                continue
            sampler = DealSampler(view)
            draws = 30 * sampler.count
            if sampler.count > 200:
                continue
            counts = Counter(sampler.assignment_of(sampler.sample(rng)) for _ in range(draws))
            assert len(counts) == sampler.count
            for a in counts:
                placed = [i for i, cards in enumerate(a) if st.upcard in cards]
                kinds = {sampler.locs[i][:2] for i in placed}
                assert kinds <= {(0, st.dealer), (3, st.dealer)} or st.upcard in view.played_cards()
            expected = draws / sampler.count
            chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
            df = sampler.count - 1
            assert chi2 < df + 6 * math.sqrt(2 * df) + 10
            return
        assert tried < 2000


def test_declined_declarations_are_regenerated_for_the_sampled_deal() -> None:
    """A view never shows another seat silently declining a farmer's swap; a sampled deal
    declines again for every seat that declined in truth, so the replay still matches."""
    rules = Rules(farmers_hand="swap")
    rng = random.Random(2)
    checked = 0
    for truth, view in random_views(rules, rng, hands=40, points=2):
        if view.phase in (Phase.DECLARE,):
            continue
        hidden = [w for w, a in truth.history[: truth.bid_start] if a == A.PASS and w != view.seat]
        for sample in sample_hand_states(view, rng, 5):
            true_passes = [w for w, a in truth.history[: truth.bid_start] if a == A.PASS]
            sampled = [w for w, a in sample.history[: sample.bid_start] if a == A.PASS]
            assert sampled == true_passes
            assert sample.view(view.seat) == view
            checked += bool(hidden)
    assert checked > 0


def test_a_hidden_farmers_swap_gives_low_cards_to_the_kitty() -> None:
    rules = Rules(farmers_hand="swap")
    rng = random.Random(4)
    low = {card(s, r) for s in range(4) for r in LOW_RANKS}
    seen = 0
    for _truth, view in random_views(rules, rng, hands=80, points=2):
        if not any(a == HIDDEN_SWAP for _, a in view.history):
            continue
        for sample in sample_hand_states(view, rng, 4):
            assert len(sample.swap_given) == 3 and set(sample.swap_given) <= low
            assert sample.swapper == view.swapper
            seen += 1
    assert seen > 0


def test_a_misdeal_does_not_reveal_an_earlier_farmers_swap() -> None:
    """Hidden information stays hidden: when a later seat calls a misdeal the hand ends during
    the declarations, and the swap (which cards) must stay private to the swapper."""
    rules = Rules(farmers_hand="swap", no_ace_no_face=True)
    rng = random.Random(0)
    for _ in range(200_000):
        st = HandState.deal(rules, 0, rng)
        while st.phase == 0:
            la = st.legal_actions()
            if A.MISDEAL in la and st.swapper >= 0:
                st.apply_action(A.MISDEAL)
            elif st.swapper < 0 and la[-1] >= A.SWAP_BASE:
                st.apply_action(la[-1])
            else:
                st.apply_action(A.PASS)
        if st.outcome == "misdeal" and st.swapper >= 0:
            for seat in range(4):
                view = st.view(seat)
                shown = [a for w, a in view.history if w == st.swapper]
                if seat == st.swapper:
                    assert shown and shown[0] >= A.SWAP_BASE
                else:
                    assert shown == [HIDDEN_SWAP]
                    assert all(a != A.PASS for w, a in view.history if w != seat)
                for sample in sample_hand_states(view, rng, 3):
                    assert sample.view(seat) == view
            return
    raise AssertionError("no swap followed by a misdeal was dealt")  # pragma: no cover


def test_an_inconsistent_view_raises_a_clear_value_error() -> None:
    rng = random.Random(9)
    states = random_hand_states(Rules(), rng)
    st = next(s for s in states if len(s.tricks) == 2)
    view = st.view(0)
    sizes = list(view.hand_sizes)
    sizes[1] += 1
    with pytest.raises(ValueError, match="hand sizes"):
        DealSampler(dataclasses.replace(view, hand_sizes=tuple(sizes)))
    played = view.played_cards()[0]
    with pytest.raises(ValueError, match="played"):
        DealSampler(dataclasses.replace(view, hand=(*view.hand[:-1], played)))
    # The seat's own hand holds a suit it showed it lacks (impossible when reneging is refused).
    eff = EFFECTIVE_SUIT[view.trump]
    mine = [(w, led) for w, led in failures_to_follow(view) if w == 0]
    if mine:
        led = mine[0][1]
        other = next(c for c in cards_of(SUIT_MASK[view.trump][led])
                     if c not in view.played_cards() and c not in view.hand
                     and eff[c] == led and c != view.upcard)
        with pytest.raises(ValueError):
            DealSampler(dataclasses.replace(view, hand=(*view.hand[:-1], other)))
    with pytest.raises(ValueError, match="count"):
        sample_hand_states(view, rng, -1)


def test_sampling_is_reproducible_from_the_seed() -> None:
    rng = random.Random(12)
    states = random_hand_states(Rules(), rng)
    view = states[len(states) // 2].view(2)
    a = sample_hand_states(view, random.Random(1), 5)
    b = sample_hand_states(view, random.Random(1), 5)
    assert [s.deck for s in a] == [s.deck for s in b]


def test_sampling_speed_is_reported() -> None:
    """Search bots draw many worlds per decision: report the rate (and require a floor far
    below it, so only a real slowdown fails)."""
    rng = random.Random(13)
    views = [v for _, v in random_views(Rules(), rng, hands=40, points=2)]
    start = time.perf_counter()
    total = 0
    for view in views:
        total += len(sample_hand_states(view, rng, 10))
    elapsed = time.perf_counter() - start
    rate = total / elapsed
    print(f"\nsampling: {total} deals from {len(views)} views in {elapsed:.2f}s "
          f"= {rate:,.0f} samples/s")
    assert rate > 300
