"""The numba batch simulator plays the engine's rules: random streams replayed move by move in
HandState, kernel observations equal to the encoder's from the seat's view, policy-driven play,
and the options it refuses."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from euchre.cards import suit_of
from euchre.errors import IllegalActionError
from euchre.rl import batch as B
from euchre.rl.encoding import OBS_SIZE, encode
from euchre.rules import Rules
from euchre.seats import deal_order
from euchre.state import HandState

VARIANTS = {
    "standard": Rules(),
    "stick-the-dealer": Rules(stick_the_dealer=True),
    "defend-alone": Rules(defend_alone=True),
    "stick-defend-alone": Rules(stick_the_dealer=True, defend_alone=True),
    "no-going-alone": Rules(going_alone=False),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_random_kernel_hands_replay_in_the_engine_with_the_same_points(name: str) -> None:
    """An odd count too: the kernel plays hands in pairs, and the last one alone."""
    rules = VARIANTS[name]
    seed = sorted(VARIANTS).index(name)
    run = B.play_random(rules, 2001, seed=seed)
    assert run.dealers is None  # nothing recorded unless asked
    rec = B.play_random(rules, 2001, seed=seed, record=True)
    assert np.array_equal(rec.points, run.points)
    assert rec.decisions == run.decisions  # the kernel that does not record counts the same
    assert rec.dealers is not None and rec.decks is not None and rec.actions is not None
    lone = lone_defence = 0
    decisions = 0
    for i in range(2001):
        h = HandState(rules, int(rec.dealers[i]), [int(c) for c in rec.decks[i]])
        for a in rec.actions[i]:
            if a < 0:
                break
            h.apply_action(int(a))  # raises if the kernel made an illegal move
            decisions += 1
        assert h.is_terminal(), (i, h)
        assert tuple(h.points) == tuple(int(p) for p in rec.points[i]), i
        lone += h.alone
        lone_defence += h.lone_defender >= 0
    assert decisions == rec.decisions
    assert (lone > 0) == bool(rules.going_alone)
    assert (lone_defence > 0) == rules.defend_alone


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_batch_steps_match_the_engine_move_by_move_with_equal_observations(name: str) -> None:
    """Random games stepped in the batch and mirrored in HandState: at every decision the same
    player, the same legal actions, and for every seat the same observation as
    ``encode(state.view(seat))``; at the end, the same points."""
    rules = VARIANTS[name]
    n = 100
    sim = B.BatchSim(rules, n, seed=7)
    rec = B.play_random(rules, n, seed=11, record=True)
    assert rec.dealers is not None and rec.decks is not None
    sim.set_deals(rec.dealers, rec.decks)
    mirrors = [HandState(rules, int(rec.dealers[i]), [int(c) for c in rec.decks[i]])
               for i in range(n)]
    rng = np.random.default_rng(3)
    checked = 0
    while True:
        idx = sim.unfinished()
        assert [i for i in range(n) if not mirrors[i].is_terminal()] == idx.tolist()
        if len(idx) == 0:
            break
        obs, masks = sim.observe(idx)
        assert np.array_equal(sim.current_players[idx], [mirrors[i].current_player for i in idx])
        for seat in range(4):
            seat_obs = sim.observe_seat(seat)
            for i in idx[:25]:
                assert np.array_equal(seat_obs[i], encode(mirrors[i].view(seat))), (i, seat)
                checked += 1
        actions = []
        for j, i in enumerate(idx):
            legal = mirrors[i].legal_actions()
            assert np.flatnonzero(masks[j]).tolist() == legal
            assert np.array_equal(obs[j], encode(mirrors[i].view(mirrors[i].current_player)))
            a = int(rng.choice(legal))
            mirrors[i].apply_action(a)
            actions.append(a)
        sim.step(np.array(actions), idx)
    assert all(tuple(sim.points[i]) == mirrors[i].points for i in range(n))
    assert checked > 800


def _uniform(counts: np.ndarray, support: list[int], total: int) -> bool:
    """Every outcome of ``support`` within five standard deviations of total/len, none else."""
    expected = total / len(support)
    return (set(np.flatnonzero(counts).tolist()) == set(support)
            and all(abs(counts[c] - expected) < 5 * np.sqrt(expected) for c in support))


def test_random_card_play_picks_each_playable_card_equally_often() -> None:
    """The branch-free pick (the r-th set bit of the mask, r drawn by multiplying the random
    fraction by the count) must be the r-th card for every r, from a lone card to a dealer's
    six and the deck's 24: each card of a mask comes up 1/n of the time, and only cards of the
    mask do; the fraction it leaves gives a second draw that is uniform too and independent of
    the first (one generator output serves several draws)."""
    rng = np.random.default_rng(0)
    draws = 12_000
    xs = rng.integers(0, 2**63, size=draws, dtype=np.int64).astype(np.uint64) * np.uint64(2)
    xs |= rng.integers(0, 2, size=draws, dtype=np.int64).astype(np.uint64)
    for mask in (0b1, 0b1000_0010, 0x0101_0101, 0x0A_0400_11, (1 << 31) | 0x1E, 0x3E00_0000,
                 0xFC, 0xFCFC_FCFC):
        cards = [c for c in range(32) if mask >> c & 1]
        first, second = [], []
        for x in xs:
            c, rest = B.pick_card(np.int64(mask), x)
            first.append(c)
            second.append(B.pick_card(np.int64(mask), np.uint64(rest))[0])
        for picks in (first, second):
            assert _uniform(np.bincount(picks, minlength=32), cards, draws), hex(mask)
        if len(cards) == 2:
            pairs = [2 * cards.index(a) + cards.index(b)
                     for a, b in zip(first, second, strict=True)]
            assert _uniform(np.bincount(pairs, minlength=4), [0, 1, 2, 3], draws)


def test_the_rth_set_bit_is_found_with_and_without_pdep() -> None:
    """The deal and every pick take the r-th set bit of a mask: by BMI2's pdep where the CPU
    has it, else by clearing r low bits; both must give the r-th card for every r."""
    rng = np.random.default_rng(1)
    masks = [0b1, 0xFC, 0xFCFC_FCFC, (1 << 31) | 0x1E,
             *(int(m) & 0xFCFC_FCFC for m in rng.integers(1, 2**32, size=40))]
    for mask in masks:
        bits = [1 << c for c in range(32) if mask >> c & 1]
        for r, bit in enumerate(bits):
            assert B.nth_bit_by_clearing(np.int64(mask), np.int64(r)) == bit
            assert B.nth_bit(np.int64(mask), np.int64(r)) == bit


def test_two_hands_are_put_in_trump_order_at_once_as_each_alone() -> None:
    """After the bidding the kernel re-encodes two hands in one int64 (one in each 32-bit
    half); each half must come out as that hand re-encoded alone, for every trump, whatever
    the other half holds (no bit may cross between the halves, the top card's bit 63 included)."""
    rng = np.random.default_rng(2)
    deck = int(B.DECK_MASK)
    for _ in range(4000):
        lo, hi = (int(m) & deck for m in rng.integers(0, 2**32, size=2))
        for trump in range(4):
            packed = np.int64(np.uint64(lo | hi << 32).view(np.int64))
            two = int(np.int64(B._trump_order(packed, np.int64(trump), B.LANES2)).view(np.uint64))
            assert two & 0xFFFF_FFFF == B._in_trump_order(lo, trump), (hex(lo), trump)
            assert two >> 32 == B._in_trump_order(hi, trump), (hex(hi), trump)
    assert B._in_trump_order(deck, 0) >> 31 == 1  # the right bower is the top bit


def test_random_deals_and_first_answers_are_uniform() -> None:
    """The kernel's deal and first bid, over recorded hands: each dealer, each up-card and each
    card in each seat's hand as often as a shuffled deck makes them, and the first answer
    (pass, order up, order up alone) a third of the time each."""
    n = 24_000
    rec = B.play_random(Rules(), n, seed=5, record=True)
    assert rec.dealers is not None and rec.decks is not None and rec.actions is not None
    assert _uniform(np.bincount(rec.dealers, minlength=4), [0, 1, 2, 3], n)
    deck = sorted(int(c) for c in rec.decks[0])
    assert all(sorted(int(c) for c in d) == deck for d in rec.decks[:500])
    assert _uniform(np.bincount(rec.decks[:, 20], minlength=32), deck, n)
    left = (rec.dealers + 1) % 4  # the dealer's left gets deck positions 0-2 and 10-11
    held = np.concatenate([rec.decks[left == 1][:, [0, 1, 2, 10, 11]].ravel()])
    assert _uniform(np.bincount(held, minlength=32), deck, len(held))
    answers = rec.actions[:, 0] - 80  # PASS, ORDER, ORDER_ALONE
    assert _uniform(np.bincount(answers, minlength=3), [0, 1, 2], n)


def test_every_seat_is_dealt_each_card_equally_often_and_a_pairs_deals_are_independent() -> None:
    """The kernel deals each seat's five cards in turn and two hands side by side: over recorded
    hands, every seat (counted from the dealer's left, its deck positions as the engine deals
    them) holds each card 1/24 of the time, every deck is the whole deck, and the two hands
    dealt together have independent dealers and up-card suits."""
    n = 24_000
    rec = B.play_random(Rules(), n, seed=9, record=True)
    assert rec.dealers is not None and rec.decks is not None
    deck = sorted(int(c) for c in rec.decks[0])
    assert len(deck) == 24
    assert all(sorted(d.tolist()) == deck for d in rec.decks)
    for rel in range(4):
        held = [int(rec.decks[i, k]) for i in range(n)
                for k, seat in enumerate(deal_order(4, int(rec.dealers[i])))
                if seat == (int(rec.dealers[i]) + 1 + rel) % 4]
        assert len(held) == 5 * n
        assert _uniform(np.bincount(held, minlength=32), deck, len(held)), rel
    first, second = rec.dealers[0::2], rec.dealers[1::2]
    assert _uniform(np.bincount(4 * first + second, minlength=16), list(range(16)), n // 2)
    suits = np.array([suit_of(int(c)) for c in rec.decks[:, 20]])
    assert _uniform(np.bincount(4 * suits[0::2] + suits[1::2], minlength=16), list(range(16)),
                    n // 2)


def test_policy_play_calls_back_with_observations_masks_and_seats() -> None:
    calls = []

    def first_legal(obs: np.ndarray, masks: np.ndarray, seats: np.ndarray) -> np.ndarray:
        assert obs.shape == (len(masks), OBS_SIZE) and obs.dtype == np.float32
        assert masks.any(axis=1).all() and set(seats.tolist()) <= {0, 1, 2, 3}
        calls.append(len(masks))
        chosen: np.ndarray = np.argmax(masks, axis=1)
        return chosen

    points = B.play_policy(Rules(stick_the_dealer=True), first_legal, 500, seed=1)
    assert points.shape == (500, 2) and (points.max(axis=1) > 0).all()  # stick: all scored
    assert calls[0] == 500 and len(calls) >= 10
    pts_random = B.play_policy(Rules(), B.random_policy(4), 500, seed=1)
    assert pts_random.shape == (500, 2)


@pytest.mark.parametrize("stick", [False, True])
def test_everyone_passing_throws_the_hand_in_unless_the_dealer_is_stuck(stick: bool) -> None:
    def pass_if_allowed(obs: np.ndarray, masks: np.ndarray, seats: np.ndarray) -> np.ndarray:
        chosen: np.ndarray = np.where(masks[:, 80] == 1, 80, np.argmax(masks, axis=1))
        return chosen

    sim = B.BatchSim(Rules(stick_the_dealer=stick), 200, seed=5)
    points = sim.run(pass_if_allowed)
    scored = points.max(axis=1) > 0
    assert scored.all() if stick else not scored.any()
    # Under stick the dealer the dealer named trump in every hand.
    assert (sim.state[:, B.MAKER] == sim.state[:, B.DEALER]).all() == stick


def test_batch_refuses_illegal_actions_and_unsupported_rules() -> None:
    sim = B.BatchSim(Rules(), 4, seed=0)
    before = sim.state.copy()
    _, masks = sim.observe()
    actions = np.argmax(masks, axis=1)
    actions[2] = 99  # claim renege: never legal here
    with pytest.raises(IllegalActionError, match="hand 2"):
        sim.step(actions)
    assert np.array_equal(sim.state, before)  # all or nothing
    with pytest.raises(ValueError, match="players=3"):
        B.BatchSim(Rules(players=3), 4)
    with pytest.raises(ValueError, match="canadian_loner"):
        B.play_random(Rules(canadian_loner=True), 4)


@pytest.mark.slow
def test_bench_batch_prints_the_median_interleaved_ratio_to_openspiel() -> None:
    import subprocess
    import sys
    from pathlib import Path

    euchre = Path(sys.executable).parent / "euchre"
    r = subprocess.run([euchre, "bench", "batch", "--seconds", "0.4", "--rounds", "2",
                        "--chunk", "2000"], capture_output=True, text=True, check=True)
    assert "hands/s" in r.stdout
    assert "ratio: median" in r.stdout and "2 interleaved rounds" in r.stdout
    assert "ratio in CPU time: median" in r.stdout  # what a loaded machine blurs least
    for flags in (["--rounds", "0"], ["--chunk", "x"], ["--variant", "cutthroat"],
                  ["--seconds", "-1"]):
        bad = subprocess.run([euchre, "bench", "batch", *flags], capture_output=True, text=True,
                             check=False)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr, flags


def test_interleaved_measurement_alternates_sides_and_takes_the_median_ratio() -> None:
    from euchre.cli._measure import Rate, interleave

    order: list[str] = []

    def ours(seconds: float) -> Rate:
        order.append("ours")
        return Rate(count=[300, 100, 200][len([o for o in order if o == "ours"]) - 1],
                    seconds=1.0)

    def peer(seconds: float) -> Rate:
        order.append("peer")
        return Rate(count=10, seconds=1.0)

    res = interleave(ours, peer, rounds=3, seconds=0.01)
    assert order == ["ours", "peer", "peer", "ours", "ours", "peer"]
    assert res.ratios == [30.0, 10.0, 20.0] and res.median_ratio == 20.0
    assert "median 20.0x over 3 interleaved rounds (spread 10.0x..30.0x" in res.summary("a", "b")
    assert res.cpu_ratios == [] and "CPU time" not in res.summary("a", "b")  # not measured
    timed = interleave(lambda s: Rate(100, 1.0, cpu=0.5), lambda s: Rate(10, 1.0, cpu=1.0),
                       rounds=2, seconds=0.01)
    assert timed.cpu_ratios == [20.0, 20.0]
    assert "ratio in CPU time: median 20.00x (spread 20.00x..20.00x)" in timed.summary("a", "b")
