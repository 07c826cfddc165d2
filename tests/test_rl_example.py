"""The training example (examples/train_policy_gradient.py) runs end to end at a tiny size."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("numba")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy_gradient.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy_gradient", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_example_trains_and_evaluates_at_a_tiny_size(capsys: pytest.CaptureFixture[str]) -> None:
    ex = load_example()
    policy = ex.train(iterations=3, hands=64, seed=0)
    assert np.abs(policy.w).sum() > 0  # the gradient steps changed the policy
    est = ex.evaluate(policy, hands=12, seed=1)
    assert est.low <= est.mean <= est.high
    assert ex.main(["--iterations", "2", "--hands", "32", "--eval-hands", "10"]) == 0
    out = capsys.readouterr().out
    assert "trained agent in seat 0" in out and "random agent in seat 0" in out
    assert "95% CI" in out


def test_example_policy_only_chooses_legal_actions() -> None:
    ex = load_example()
    policy = ex.LinearPolicy(np.random.default_rng(0).normal(
        size=(ex.USED_ACTIONS, ex.OBS_SIZE)).astype(np.float32))
    env = ex.EuchreGymEnv(ex.RULES, opponents="random")
    for seed in range(5):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            a = policy.greedy(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][a] == 1
            obs, _, done, _, _ = env.step(a)
