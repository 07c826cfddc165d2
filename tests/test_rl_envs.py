"""The RL environments: PettingZoo's own api_test and seed_test for every preset and mode, the
Gymnasium environment against bots, and the observation encoding's promise (built from the
seat's view only: no hidden card, the same vector for every deal consistent with the view)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from euchre import actions as A
from euchre.errors import IllegalActionError
from euchre.match import Match
from euchre.rl.encoding import (
    FIELDS,
    NUM_CARDS,
    O_HAND,
    O_SCORES,
    O_TO_ACT,
    OBS_SIZE,
    action_mask,
    cards_in,
    encode,
)
from euchre.rl.gym_env import EuchreGymEnv
from euchre.rl.pettingzoo_env import EuchreAECEnv, env
from euchre.rules import PRESETS, Rules
from euchre.sampling import sample_hand_states
from euchre.state import HandState

#: Two-handed with rows has no encoding yet: the environments refuse it (tested below).
CONFIGS: dict[str, Rules] = {
    **{name: r for name, r in PRESETS.items() if not r.rows},
    "every-four-handed-option": Rules(
        stick_the_dealer=True, defend_alone=True, canadian_loner=True, farmers_hand="swap",
        no_ace_no_face=True, renege="penalize", deck=25, target=7,
    ),
    "redeal-32-lone-defenders": Rules(
        farmers_hand="redeal", deck=32, defend_alone=True, defend_alone_vs_partners=True,
        first_dealer="black_jack", target=5,
    ),
    "two-handed-joker-swap-penalize": Rules(
        players=2, deck=25, stick_the_dealer=True, renege="penalize", farmers_hand="swap",
        target=7,
    ),
    "cutthroat-32-misdeals": Rules(
        players=3, deck=32, no_ace_no_face=True, farmers_hand="redeal", target=5,
    ),
}
NAMES = sorted(CONFIGS)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("mode", ["match", "hand"])
def test_pettingzoo_api_test_passes(name: str, mode: str) -> None:
    api_test(env(CONFIGS[name], mode=mode), num_cycles=300)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: env(CONFIGS[name]), num_cycles=300)


def test_pettingzoo_match_mode_plays_to_the_target_and_rewards_the_winner() -> None:
    e = EuchreAECEnv("standard", mode="match")
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += float(reward)
        if term or trunc:
            e.step(None)
            continue
        assert obs["observation"].shape == (OBS_SIZE,)
        # The acting seat sees itself to act in slot 0 (seats rotated to it).
        assert obs["observation"][O_TO_ACT] == 1.0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.game is not None and e.game.winner is not None
    assert max(e.game.scores) >= 10
    win = e.game.winner
    assert totals == {f"player_{s}": (1.0 if s % 2 == win else -1.0) for s in range(4)}


def test_pettingzoo_hand_mode_rewards_are_the_hand_returns() -> None:
    e = EuchreAECEnv("cutthroat", mode="hand")
    for seed in range(20):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            totals[agent] += float(reward)
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        assert e.game is not None
        assert len([f for f in e.game.finished if f.outcome != "misdeal"]) == 1
        assert list(totals.values()) == e.game.hand.returns()


def test_pettingzoo_illegal_action_raises_and_changes_nothing() -> None:
    e = env("standard")
    e.reset(seed=1)
    before = e.observe(e.agent_selection)
    with pytest.raises(IllegalActionError):
        e.step(A.play(0) if before["action_mask"][A.play(0)] == 0 else A.TAKE)
    after = e.observe(e.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])


def test_bad_environment_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="mode must be"):
        env("standard", mode="tournament")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        EuchreGymEnv(opponents="nobody")
    with pytest.raises(ValueError, match="one per other seat"):
        EuchreGymEnv(opponents=["random", "rule"])
    with pytest.raises(ValueError, match=r"seat must be 0\.\.2"):
        EuchreGymEnv("cutthroat", seat=3)


# ---------------------------------------------------------------------------------------------
# Gymnasium


@pytest.mark.parametrize("opponents", ["random", "rule"])
def test_gym_env_plays_whole_hands_against_named_bots(opponents: str) -> None:
    g = EuchreGymEnv("standard", opponents=opponents, seat=1)
    rng = np.random.default_rng(5)
    rewards = []
    for ep in range(60):
        obs, info = g.reset(seed=ep)
        carried = float(info["carried_reward"])
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert g.game is not None and g.game.current_player == 1
        total = 0.0
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, trunc, info = g.step(action)
            total += float(reward)
            assert not trunc
        rewards.append(total)
        # The episode's rewards are this hand's return plus any hand the bots played alone.
        assert total == g.game.hand.returns()[1] + carried
    assert any(r > 0 for r in rewards) and any(r < 0 for r in rewards)


def test_gym_env_carries_the_reward_of_hands_it_never_acted_in() -> None:
    # With random bots the partner (seat 2) often orders alone before seat 0 bids.
    g = EuchreGymEnv("standard", opponents="random", seat=0)
    carried = [float(g.reset(seed=s)[1]["carried_reward"]) for s in range(300)]
    assert any(c != 0 for c in carried)


def test_gym_env_replays_from_its_seed_and_match_mode_ends_with_win_or_loss() -> None:
    def run(seed: int) -> list[int]:
        g = EuchreGymEnv("tournament", opponents=["rule", "random", "rule"], mode="match")
        obs, _ = g.reset(seed=seed)
        acts: list[int] = []
        rng = np.random.default_rng(seed)
        done = False
        total = 0.0
        while not done:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            acts.append(a)
            obs, r, done, _, _ = g.step(a)
            total += float(r)
        assert total in (1.0, -1.0)
        assert g.game is not None and (total == 1.0) == (g.game.winner == 0)
        return acts

    assert run(11) == run(11)


def test_gym_env_passes_gymnasiums_checker_when_illegal_actions_lose() -> None:
    g = EuchreGymEnv("standard", illegal_action="lose")
    check_env(g, skip_render_check=True)
    obs, _ = g.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = g.step(illegal)
    assert done and reward == -1.0 and info["illegal"]


# ---------------------------------------------------------------------------------------------
# The encoding


def hidden_from(h: HandState, seat: int) -> set[int]:
    """Cards ``seat`` may not know now: other hands, the kitty, another dealer's discard."""
    hidden: set[int] = set()
    for s in range(h.n):
        if s != seat:
            hidden |= {c for c in range(NUM_CARDS) if h.hands[s] >> c & 1}
    hidden |= set(h.kitty)
    if h.discarded >= 0 and seat != h.dealer:
        hidden.add(h.discarded)
    if seat == h.swapper:
        hidden -= set(h.swap_given)
    hidden.discard(h.upcard)  # the up-card is seen by everyone, wherever it goes
    return hidden


@pytest.mark.parametrize("name", NAMES)
def test_encoding_holds_no_hidden_card_and_depends_only_on_the_view(name: str) -> None:
    rules = CONFIGS[name]
    rng = random.Random(f"encoding-{name}")
    sampled = 0
    for game in range(12):
        m = Match(rules, seed=game)
        decisions = 0
        while not m.is_terminal() and decisions < 60:
            h = m.hand
            for seat in range(rules.players):
                view = m.view(seat)
                obs = encode(view)
                assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                assert not cards_in(obs) & hidden_from(h, seat), (name, seat, view)
                # The hand field is exactly the seat's hand.
                held = set(np.flatnonzero(obs[O_HAND:O_HAND + NUM_CARDS]).tolist())
                assert held == set(view.hand)
                if any(m.scores):
                    assert obs[O_SCORES:O_SCORES + 4].any()
                if rng.random() < 0.08:
                    for other in sample_hand_states(view, rng, 2):
                        assert np.array_equal(encode(other.view(seat, view.scores)), obs)
                        sampled += 1
            mask = action_mask(m.view(m.current_player))
            assert set(np.flatnonzero(mask).tolist()) == set(m.legal_actions())
            m.apply_action(rng.choice(m.legal_actions()))
            decisions += 1
    assert sampled > 20


def test_encoding_field_table_covers_the_vector_without_overlap() -> None:
    spans = sorted(FIELDS.values())
    at = 0
    for start, size in spans:
        assert start == at and size > 0
        at += size
    assert at == OBS_SIZE


def test_two_handed_rows_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="no RL observation encoding yet"):
        env("two-handed-rows")
    with pytest.raises(ValueError, match="no RL observation encoding yet"):
        EuchreGymEnv("two-handed-rows")
