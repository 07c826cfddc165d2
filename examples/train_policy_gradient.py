"""Train a small Euchre agent on CPU in about a minute, then show it beats the random bot.

REINFORCE with a baseline, a linear softmax policy over the observation vector
(:mod:`euchre.rl.encoding`), numpy only. Training runs in the numba batch simulator
(:mod:`euchre.rl.batch`): the agent holds seat 0 of every hand, uniformly random players hold
seats 1-3, and the policy callback sees only the acting seat's observation and action mask.
Evaluation then plays the trained policy, greedily, through the Gymnasium environment
(:class:`euchre.rl.gym_env.EuchreGymEnv`, i.e. the rules engine) against the ``random`` bot
for seats 1-3, and prints the mean points per hand with a 95% confidence interval next to the
same figure for a random agent in seat 0 on the same deals.

    python examples/train_policy_gradient.py               # about a minute of CPU
    python examples/train_policy_gradient.py --iterations 3 --hands 64 --eval-hands 50
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from euchre.rl.batch import BatchSim
from euchre.rl.encoding import STANDARD_SIZE
from euchre.rl.gym_env import EuchreGymEnv
from euchre.rules import Rules

RULES = Rules()
USED_ACTIONS = 93
"""The batch simulator's actions are ids 0..92 (plays, discards, bids, defend alone)."""
OBS_SIZE = STANDARD_SIZE
"""The observation fields the standard game uses: the rest (rows, renege fixes) are always 0
here, so the policy reads only these."""

Floats = npt.NDArray[np.float32]


@dataclass
class LinearPolicy:
    """Logits = W @ observation, masked to the legal actions."""

    w: Floats

    @classmethod
    def zeros(cls) -> LinearPolicy:
        return cls(np.zeros((USED_ACTIONS, OBS_SIZE), dtype=np.float32))

    def probs(self, obs: Floats, masks: npt.NDArray[np.int8]) -> Floats:
        logits = obs[:, :OBS_SIZE] @ self.w.T
        logits = np.where(masks[:, :USED_ACTIONS] == 1, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        out: Floats = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        return out

    def greedy(self, obs: Floats, masks: npt.NDArray[np.int8]) -> int:
        return int(np.argmax(self.probs(obs[None, :], masks[None, :])[0]))


@dataclass(frozen=True)
class Estimate:
    mean: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.mean:+.3f} points/hand (95% CI {self.low:+.3f} .. {self.high:+.3f})"


def estimate(values: list[float]) -> Estimate:
    a = np.asarray(values, dtype=np.float64)
    half = 1.96 * a.std(ddof=1) / math.sqrt(len(a)) if len(a) > 1 else float("inf")
    return Estimate(float(a.mean()), float(a.mean() - half), float(a.mean() + half))


def train(iterations: int, hands: int, seed: int = 0, lr: float = 0.05,
          log: bool = False) -> LinearPolicy:
    """``iterations`` batches of ``hands`` hands; one policy-gradient step per batch."""
    policy = LinearPolicy.zeros()
    rng = np.random.default_rng(seed)
    obs_log: list[Floats] = []
    act_log: list[npt.NDArray[np.int64]] = []
    hand_log: list[npt.NDArray[np.int64]] = []
    prob_log: list[Floats] = []

    def act(obs: Floats, masks: npt.NDArray[np.int8], seats: npt.NDArray[np.int64],
            hand_ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        # Random players for seats 1-3; the learner samples from its policy at seat 0.
        u = rng.random(masks.shape) * masks
        actions = np.argmax(u, axis=1).astype(np.int64)
        mine = np.flatnonzero(seats == 0)
        if len(mine):
            p = policy.probs(obs[mine], masks[mine])
            cum = p.cumsum(axis=1)
            draw = rng.random((len(mine), 1))
            chosen = np.minimum((cum < draw).sum(axis=1), USED_ACTIONS - 1)
            actions[mine] = chosen
            obs_log.append(obs[mine, :OBS_SIZE])
            act_log.append(chosen)
            prob_log.append(p)
            hand_log.append(hand_ids[mine])
        return actions

    for it in range(iterations):
        sim = BatchSim(RULES, hands, seed=seed * 100_003 + it)
        for log_list in (obs_log, act_log, hand_log, prob_log):
            log_list.clear()
        while True:
            unfinished = sim.unfinished()
            if len(unfinished) == 0:
                break
            obs, masks = sim.observe(unfinished)
            sim.step(act(obs, masks, sim.current_players[unfinished], unfinished), unfinished)
        points = sim.points
        ret = (points[:, 0] - points[:, 1]).astype(np.float32)  # seat 0's side
        if not obs_log:
            continue
        x = np.concatenate(obs_log)
        a = np.concatenate(act_log)
        p = np.concatenate(prob_log)
        adv = ret[np.concatenate(hand_log)] - ret.mean()
        grad = -p
        grad[np.arange(len(a)), a] += 1.0
        grad *= adv[:, None]
        policy.w += (lr / hands) * (grad.T @ x)
        if log and (it % 10 == 0 or it == iterations - 1):
            print(f"iteration {it:4d}: seat 0 side {ret.mean():+.3f} points/hand "
                  "(sampling, in training)")
    return policy


def evaluate(policy: LinearPolicy | None, hands: int, seed: int = 1) -> Estimate:
    """Seat 0's points per hand through the Gymnasium environment against random bots
    (``policy`` None: a random agent, the baseline), greedy actions."""
    env = EuchreGymEnv(RULES, opponents="random", seat=0, mode="hand")
    rng = np.random.default_rng(seed)
    results = []
    for h in range(hands):
        obs, _ = env.reset(seed=seed * 1_000_003 + h)  # the same deals for both agents
        done = False
        reward = 0.0
        while not done:
            mask = obs["action_mask"]
            if policy is None:
                a = int(rng.choice(np.flatnonzero(mask)))
            else:
                a = policy.greedy(obs["observation"], mask)
            obs, r, done, _, _ = env.step(a)
            reward += float(r)
        results.append(reward)
    return estimate(results)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--hands", type=int, default=1000, help="hands per training batch")
    ap.add_argument("--eval-hands", type=int, default=2000)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    policy = train(args.iterations, args.hands, args.seed, args.lr, log=True)
    t1 = time.perf_counter()
    print(f"trained on {args.iterations * args.hands:,} hands in {t1 - t0:.0f}s")
    trained = evaluate(policy, args.eval_hands, args.seed + 1)
    baseline = evaluate(None, args.eval_hands, args.seed + 1)
    print(f"against random bots, {args.eval_hands:,} hands through the Gymnasium env:")
    print(f"  trained agent in seat 0: {trained}")
    print(f"  random agent in seat 0:  {baseline}")
    print(f"evaluation took {time.perf_counter() - t1:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
