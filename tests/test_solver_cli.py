"""``euchre solve``, ``euchre bench solver``, building a hand from chosen cards, and the
numba kernel agreeing with the pure-Python fallback."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from solver_positions import DECKS, KINDS, random_position

from euchre.cards import HEARTS, SPADES, deck_cards, parse_card
from euchre.cli import main
from euchre.rules import Rules
from euchre.solver import available_backends, maker_move_values, position_of, solve
from euchre.solver.deal import DealError, play_state
from euchre.state import PLAY

DEAL = ["--north", "JS JC AS 9H TD", "--east", "KS QS AH KH 9C", "--south", "TS 9S AD KD QD",
        "--west", "AC KC QC JH QH"]


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def test_solve_prints_the_result_and_five_tricks(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["solve", *DEAL, "--trump", "S", "--maker", "north", "--leader", "east"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "the makers (North and South) take 5 tricks and march" in out
    assert "Points: North-South 2, East-West 0." in out
    assert [f"Trick {i} " in out for i in range(1, 6)] == [True] * 5
    assert out.count("won by") == 5
    # North's first card: the two red cards lose the march, the others keep it.
    assert "[J♣ 5*  J♠ 5*  A♠ 5*  10♦ 4  9♥ 4]" in out


def test_solve_alone_and_compact_hands(capsys: pytest.CaptureFixture[str]) -> None:
    hands = "JS JC AS 9H TD / KS QS AH KH 9C / TS 9S AD KD QD / AC KC QC JH QH"
    rc = main(["solve", "--hands", hands, "--trump", "spades", "--maker", "n", "--alone",
               "--leader", "e", "--ascii"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "South     (sits out)" in out
    assert "Points: North-South 1, East-West 0." in out
    assert "♠" not in out


def test_solve_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    hands = "JS JC AS 9H TD / KS QS AH KH 9C / TS 9S AD KD QD"
    rc = main(["solve", "--hands", hands, "--trump", "S", "--maker", "1", "--leader", "2"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Player 3" in out and out.count("won by") == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "JS JC AS 9H TD / KS QS AH KH 9C / TS 9S AD KD QX"], "'QX' is not a card"),
        (["--hands", "JS JC AS 9H TD / KS QS AH KH 9C / TS 9S AD KD JS"],
         "JS is dealt by Player 1 and Player 3"),
        (["--hands", "JS JC AS 9H / KS QS AH KH 9C / TS 9S AD KD QD"],
         "Player 1 holds 4 cards; every hand has 5"),
        (["--hands", "JS JC AS 9H TD"], "give 2, 3 or 4"),
        (["--north", "JS JC AS 9H TD"], "missing --east, --south, --west"),
        ([*DEAL, "--hands", "JS"], "not both"),
        ([*DEAL, "--deck", "24", "--north", "JS JC AS 9H 8D"], "8D (North) is not in the 24"),
    ],
)
def test_solve_bad_deal_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["solve", *args, "--trump", "S", "--maker", "1", "--leader", "2"])
    captured = capsys.readouterr()
    assert rc == 2
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], captured.err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--trump", "X", "--maker", "n", "--leader", "e"], "'X' is not a suit"),
        (["--trump", "S", "--maker", "up", "--leader", "e"], "--maker 'up' is not a seat"),
        (["--trump", "S", "--maker", "n", "--alone", "--leader", "s"], "South sits out"),
        (["--trump", "S", "--maker", "n", "--lone-defender", "s", "--alone", "--leader", "e"],
         "lone defender must be a seat of the defending side"),
    ],
)
def test_solve_bad_contract_is_one_line_and_exit_2(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["solve", *DEAL, *extra])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and message in err[0], err


def test_solve_lone_defender(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["solve", *DEAL, "--trump", "S", "--maker", "n", "--alone", "--lone-defender",
               "w", "--leader", "w"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "against West defending alone" in out
    assert "East      (sits out)" in out and "South     (sits out)" in out


def test_bench_solver_small_run(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["bench", "solver", "--deals", "20", "--rounds", "2", "--peer-every", "5"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "pure-Python reference, value" in out
    if "numba" in available_backends():
        assert "numba kernel, value" in out and "ratio reference/kernel per round" in out


def test_bench_solver_refuses_zero_deals(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench", "solver", "--deals", "0"])
    assert exc.value.code == 2
    assert "must be between 1 and 1000000" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# play_state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck", DECKS)
def test_play_state_deals_exactly_the_hands_given(players: int, deck: int) -> None:
    rng = random.Random(f"deal-{players}-{deck}")
    for _ in range(20):
        pool = list(deck_cards(deck))
        rng.shuffle(pool)
        hands = [pool[5 * i:5 * i + 5] for i in range(players)]
        trump, maker, leader = rng.randrange(4), rng.randrange(players), rng.randrange(players)
        state = play_state(Rules(players=players, deck=deck), hands, trump, maker, leader)
        assert state.phase == PLAY and state.trump == trump and state.maker == maker
        assert state.cur == leader
        assert [state.hands[s] for s in range(players)] == [
            sum(1 << c for c in h) for h in hands]


def test_play_state_orders_up_when_every_spare_card_is_trump() -> None:
    # The four cards nobody holds are all hearts: hearts is ordered up in round one.
    spare = cards("9H TH QH KH")
    rest = [c for c in deck_cards(24) if c not in spare]
    hands = [rest[0:5], rest[5:10], rest[10:15], rest[15:20]]
    for maker in range(4):
        state = play_state(Rules(), hands, HEARTS, maker, leader=(maker + 1) % 4)
        assert state.trump == HEARTS and state.maker == maker
        assert [state.hands[s] for s in range(4)] == [sum(1 << c for c in h) for h in hands]


def test_play_state_refuses_a_lone_defender_without_the_rule() -> None:
    hands = [cards(h) for h in ("JS JC AS 9H TD", "KS QS AH KH 9C", "TS 9S AD KD QD",
                                "AC KC QC JH QH")]
    with pytest.raises(DealError, match="defending alone is off"):
        play_state(Rules(), hands, SPADES, 0, 1, alone=True, lone_defender=1)


# ---------------------------------------------------------------------------------------------
# Backends


@pytest.mark.skipif("numba" not in available_backends(), reason="numba is not installed")
def test_numba_kernel_agrees_with_the_python_fallback_on_full_deals() -> None:
    rng = random.Random("backends")
    positions = [position_of(random_position(rng, KINDS[i % 5], DECKS[i % 3],
                                             rng.randrange(0, 4))) for i in range(60)]
    assert maker_move_values(positions, "numba") == maker_move_values(positions, "python")


def test_euchre_no_numba_forces_the_python_backend() -> None:
    code = ("import euchre.solver as s, sys; "
            "assert 'euchre.solver.fast' not in sys.modules; print(s.BACKEND)")
    env = {**os.environ, "EUCHRE_NO_NUMBA": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "python"


def test_solve_with_python_backend_equals_default_backend() -> None:
    state = random_position(random.Random(4), "four", 24, 2)
    assert solve(state, backend="python") == solve(state)
