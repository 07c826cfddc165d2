"""The double-dummy solvers are exact: checked against brute-force minimax over the engine.

Brute force plays every lawful card at every turn through the engine's own push/pop, so it shares
nothing with the solvers but the rules. Positions are random (seeded, and drawn by hypothesis)
and cover every trick size (4 partners, 3 with a loner or cutthroat, 2 with a lone defender or
two-handed), every deck (24, 25 with the Joker, 32), mid-trick and after several tricks; only
their depth is kept small enough for brute force to enumerate.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_positions import DECKS, KINDS, random_position

from euchre.solver import (
    NotSolvableError,
    available_backends,
    maker_move_values,
    move_values_batch,
    points_for,
    position_of,
    principal_line,
    solve,
)
from euchre.solver.brute import brute_force_maker_tricks, brute_force_move_values
from euchre.solver.position import lawful_cards
from euchre.solver.reference import reference_move_values, reference_value
from euchre.state import HandState

ACTIVE = {"four": 4, "alone": 3, "lone_defender": 2, "cutthroat": 3, "two": 2}


def shallow_position(rng: random.Random, kind: str, deck: int) -> HandState:
    """A position brute force enumerates quickly: at most 3 tricks left with 3- or 4-card
    tricks, at most 4 with 2-card tricks; anywhere inside a trick."""
    k = ACTIVE[kind]
    min_tricks_done = 1 if k == 2 else 2
    plays = k * min_tricks_done + rng.randrange(k * (5 - min_tricks_done))
    return random_position(rng, kind, deck, plays)


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("kind", KINDS)
def test_reference_matches_brute_force_on_random_positions(kind: str, deck: int) -> None:
    rng = random.Random(f"ref-{kind}-{deck}")
    for _ in range(100):
        state = shallow_position(rng, kind, deck)
        assert reference_move_values(position_of(state)) == brute_force_move_values(state)


@pytest.mark.parametrize("backend", available_backends())
@pytest.mark.parametrize("kind", KINDS)
def test_batch_matches_brute_force_for_each_backend(kind: str, backend: str) -> None:
    rng = random.Random(f"batch-{kind}")
    states = [shallow_position(rng, kind, rng.choice(DECKS)) for _ in range(40)]
    got = move_values_batch(states, backend=backend)  # type: ignore[arg-type]
    for state, values in zip(states, got, strict=True):
        makers = brute_force_move_values(state)
        mover_is_maker = state.is_maker_side(state.cur)
        assert values == {c: v if mover_is_maker else 5 - v for c, v in makers.items()}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS), deck=st.sampled_from(DECKS))
def test_solve_value_is_brute_force_value(seed: int, kind: str, deck: int) -> None:
    state = shallow_position(random.Random(seed), kind, deck)
    sol = solve(state)
    assert sol.maker_tricks == brute_force_maker_tricks(state)
    assert sol.points == points_for(state, sol.maker_tricks)


@pytest.mark.parametrize("kind", KINDS)
def test_full_deals_playing_the_best_line_scores_what_solve_said(kind: str) -> None:
    """From the first lead, the engine playing the solver's line ends with the solver's tricks
    and points, and each step's chosen card keeps the value (best play is consistent)."""
    rng = random.Random(f"line-{kind}")
    for _ in range(4):
        state = random_position(rng, kind, rng.choice(DECKS), 0)
        sol = solve(state)
        line = principal_line(state)
        for seat, card, values, best in line:
            assert state.cur == seat and card in best
            assert values[card] == sol.maker_tricks
            state.apply_action(card)
        while not state.is_terminal():  # a renege-claim phase never happens in prevent mode
            state.apply_action(state.legal_actions()[0])
        assert state.maker_tricks() == sol.maker_tricks
        assert state.points == sol.points
        sides = [0] * state.rules.num_sides
        for seat, won in enumerate(state.tricks_won):
            sides[state.side_of(seat)] += won
        assert tuple(sides) == sol.tricks


@pytest.mark.parametrize("kind", KINDS)
def test_solution_is_consistent_with_solving_each_child(kind: str) -> None:
    rng = random.Random(f"child-{kind}")
    for _ in range(6):
        state = random_position(rng, kind, rng.choice(DECKS), rng.randrange(6))
        sol = solve(state)
        assert sorted(sol.move_values) == lawful_cards(state) == state.legal_actions()
        maker_moves = state.is_maker_side(state.cur)
        pick = max if maker_moves else min
        best_value = pick(mv.maker_tricks for mv in sol.move_values.values())
        assert sol.maker_tricks == best_value
        assert sol.best_moves == tuple(
            c for c, mv in sorted(sol.move_values.items()) if mv.maker_tricks == best_value
        )
        for card, mv in sol.move_values.items():
            assert sum(mv.tricks) == 5
            assert mv.points == points_for(state, mv.maker_tricks)
            state.push(card)
            if state.phase == 7:
                assert solve(state).maker_tricks == mv.maker_tricks
            else:
                assert state.maker_tricks() == mv.maker_tricks
            state.pop()


@pytest.mark.skipif("numba" not in available_backends(), reason="numba is not installed")
@pytest.mark.parametrize("kind", KINDS)
def test_numba_kernel_matches_reference_on_many_positions(kind: str) -> None:
    """The kernel against the reference on 2,000 positions (400 a kind, all decks), from
    the second trick on (the reference is slow on whole deals; those are checked elsewhere)."""
    rng = random.Random(f"kernel-{kind}")
    k = ACTIVE[kind]
    positions = [position_of(random_position(rng, kind, DECKS[i % 3], k + rng.randrange(4 * k)))
                 for i in range(400)]
    fast = maker_move_values(positions, "numba")
    assert fast == [reference_move_values(p) for p in positions]


def test_reference_value_counts_tricks_already_taken() -> None:
    rng = random.Random("taken")
    for _ in range(20):
        state = random_position(rng, "four", 24, 4 * rng.randrange(2, 4))
        pos = position_of(state)
        assert reference_value(pos) == brute_force_maker_tricks(state)
        assert reference_value(pos) >= state.maker_tricks()


def test_solve_refuses_a_hand_not_in_card_play() -> None:
    from euchre.rules import Rules

    state = HandState.deal(Rules(), 0, random.Random(3))
    with pytest.raises(NotSolvableError, match="card play"):
        solve(state)


def test_solve_refuses_two_handed_with_rows_instead_of_overrunning_the_kernel() -> None:
    # Twelve tricks and covered row cards are outside the solver; the compiled kernel does not
    # check bounds, so a rows hand reaching it corrupted memory before this refusal.
    from euchre.bots import make_bot
    from euchre.rules import preset
    from euchre.state import PLAY

    bots = [make_bot("rule", s) for s in range(2)]
    for seed in range(20):  # a deal where someone names trump (both passing ends the hand)
        state = HandState.deal(preset("two-handed-rows"), 0, random.Random(seed))
        while not state.is_terminal() and state.phase != PLAY:
            state.apply_action(bots[state.cur].choose(state.view(state.cur)))
        if state.phase == PLAY:
            break
    assert state.phase == PLAY
    for backend in available_backends():
        with pytest.raises(NotSolvableError, match="rows"):
            move_values_batch([state], backend)
    with pytest.raises(NotSolvableError, match="rows"):
        solve(state)


@pytest.mark.skipif("numba" not in available_backends(), reason="numba is not installed")
def test_numba_kernel_values_full_deals_one_at_a_time_as_the_reference() -> None:
    """Whole deals, each in its own call (the path a search player and the bench take, with
    arrays kept for one position) and all in one call: the kernel's value and every card's
    value equal the plain-Python reference's."""
    from euchre.cli.bench_solver import bench_deals
    from euchre.solver.fast import fast_move_values, fast_values

    deals = bench_deals(40, seed=11)
    expected = [reference_value(p) for p in deals]
    assert [fast_values([p])[0] for p in deals] == expected
    assert fast_values(deals) == expected
    moves = [fast_move_values([p])[0] for p in deals[:20]]
    assert moves == [reference_move_values(p) for p in deals[:20]]
    assert [max(m.values()) if p.to_move in p.maker_seats else min(m.values())
            for p, m in zip(deals[:20], moves, strict=True)] == expected[:20]


@pytest.mark.skipif("numba" not in available_backends(), reason="numba is not installed")
def test_numba_kernel_gives_each_thread_its_own_answers() -> None:
    """Threads solving at once share the process's table: each must get the values it would
    get alone (a guard for any state one call leaves for the next)."""
    import threading

    from euchre.cli.bench_solver import bench_deals
    from euchre.solver.fast import fast_move_values, fast_values

    deals = bench_deals(20, seed=12)
    alone = [fast_values([p])[0] for p in deals]
    alone_moves = [fast_move_values([p])[0] for p in deals]
    got: dict[int, list[object]] = {}

    def solve_all(t: int) -> None:
        order = deals[t:] + deals[:t]
        got[t] = [(fast_values([p])[0], fast_move_values([p])[0]) for p in order * 3]

    threads = [threading.Thread(target=solve_all, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for t in range(4):
        want = list(zip(alone[t:] + alone[:t], alone_moves[t:] + alone_moves[:t], strict=True))
        assert got[t] == want * 3, t


@pytest.mark.skipif("numba" not in available_backends(), reason="numba is not installed")
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS), deck=st.sampled_from(DECKS),
       plays=st.integers(0, 3))
def test_numba_kernel_values_whole_deals_as_the_reference(
        seed: int, kind: str, deck: int, plays: int) -> None:
    """Whole deals of every kind and deck, random trump, maker and leader, at the first lead
    or inside the first trick: the kernel's single-position entry (plain integers) and its
    batch entry (arrays) both give the reference's value and every card's value."""
    from euchre.solver.fast import fast_move_values, fast_values

    pos = position_of(random_position(random.Random(seed), kind, deck,
                                      min(plays, ACTIVE[kind] - 1)))
    assert pos.tricks_left == 5
    want = reference_move_values(pos)
    value = reference_value(pos)
    assert fast_move_values([pos]) == [want]
    assert fast_values([pos]) == [value]
    assert fast_move_values([pos, pos]) == [want, want]
    assert fast_values([pos, pos]) == [value, value]


_WITHOUT_BMI2 = """
import random, sys
sys.path.insert(0, {tests!r})
from solver_positions import DECKS, KINDS, random_position
from euchre.solver import bits, position_of
from euchre.solver.fast import fast_move_values, fast_values
from euchre.solver.reference import reference_move_values, reference_value
assert not bits.FAST_BMI2
rng = random.Random("no-bmi2")
for i in range(50):
    kind = KINDS[i % 5]
    pos = position_of(random_position(rng, kind, DECKS[i % 3], rng.randrange(0, 12)))
    want = reference_move_values(pos)
    assert fast_move_values([pos]) == [want] and fast_move_values([pos, pos]) == [want] * 2
    assert fast_values([pos]) == [reference_value(pos)], (kind, pos)
print("ok")
"""


@pytest.mark.slow
@pytest.mark.skipif("numba" not in available_backends(), reason="numba is not installed")
def test_numba_kernel_without_bmi2_values_as_the_reference(tmp_path: Path) -> None:
    """The kernel's other build: where the CPU lacks fast pdep/pext (an older AMD, or a named
    target without them) the squeezes are loops instead. Compiled for a generic x86-64 in a
    process of its own, it must give the reference's values on deals of every kind."""
    env = {**os.environ, "NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": str(tmp_path)}
    code = _WITHOUT_BMI2.format(tests=str(Path(__file__).parent))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "ok"
