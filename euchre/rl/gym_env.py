"""A Gymnasium single-agent environment: one seat learns, the other seats are bots by name.

The other seats are :func:`euchre.bots.make_bot` players (``BOT_NAMES``: ``random``, ``rule``,
...), seeded from the environment's generator at each reset so an episode replays from its seed.
Observations, actions, modes and rewards are those of the PettingZoo environment
(:mod:`euchre.rl.pettingzoo_env`): ``{"observation", "action_mask"}`` from the learning seat's
view, with the mask also in ``info["action_mask"]``. Bots see only their own view. A game the bots
finish without the learning seat acting is carried into the next episode's first reward, never
dropped (dropping it would bias the averages).

An illegal action raises :class:`~euchre.errors.IllegalActionError` by default; with
``illegal_action="lose"`` it ends the episode with reward ``-illegal_penalty`` instead, which is
what generic tools that sample unmasked actions (``gymnasium``'s env checker) need.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsFloat

import gymnasium as gym
from gymnasium import spaces

from euchre import actions as A
from euchre.bots import make_bot
from euchre.bots.base import Bot
from euchre.errors import IllegalActionError
from euchre.match import Match
from euchre.rl.encoding import action_mask, encode
from euchre.rl.pettingzoo_env import Mode, Reward, observation_space, resolve_rules
from euchre.rl.pettingzoo_env import win_rewards as _win_rewards
from euchre.rules import Rules
from euchre.seats import Seat, side_of

Obs = dict[str, Any]


class EuchreGymEnv(gym.Env[Obs, Any]):
    """One learning seat against bots; see the module docstring."""


    def __init__(
        self,
        rules: Rules | str | None = None,
        opponents: str | Sequence[str] = "random",
        seat: Seat = 0,
        mode: Mode = "hand",
        reward: Reward | None = None,
        illegal_action: Literal["raise", "lose"] = "raise",
        illegal_penalty: float = 1.0,
    ) -> None:
        """``opponents``: one bot name for every other seat, or one name per other seat in seat
        order (the partner included, with four players)."""
        self.rules = resolve_rules(rules, mode)
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"give one bot name, or {n - 1} (one per other seat), "
                             f"not {len(names)}")
        for name in names:
            make_bot(name, 0)  # an unknown name fails here, listing the known ones
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', not {illegal_action!r}")
        self.seat = seat
        self.bot_names = names
        self.mode = mode
        self.reward_kind: Reward = reward or ("points" if mode == "hand" else "win")
        if self.reward_kind not in ("points", "win"):
            raise ValueError(f"reward must be 'points' or 'win', not {reward!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.observation_space = observation_space()
        self.action_space: spaces.Space[Any] = spaces.Discrete(A.NUM_ACTIONS)
        self.game: Match | None = None
        self.bots: dict[int, Bot] = {}
        self._hands_seen = 0
        self._carried = 0.0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """A new hand (or match), played by the bots up to the learning seat's first decision.

        A game the bots finish alone (the learning seat's partner went alone before it bid) is
        not dropped, which would bias every average: its reward is carried into the first
        step's reward (``info["carried_reward"]`` says how much) and another game is dealt."""
        super().reset(seed=seed)
        rng = self.np_random
        others = [s for s in range(self.rules.players) if s != self.seat]
        self._carried = 0.0
        while True:
            self.game = Match(self.rules, seed=int(rng.integers(2**63)))
            self.bots = {s: make_bot(name, int(rng.integers(2**63)))
                         for s, name in zip(others, self.bot_names, strict=True)}
            self._hands_seen = 0
            reward = self._play_bots()
            if not self.game.is_terminal():
                break
            if self.reward_kind == "win":
                assert self.game.winner is not None
                reward += _win_rewards(self.game.winner, self.rules.players)[self.seat]
            self._carried += reward
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"], "carried_reward": self._carried}

    def step(self, action: int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self._game()
        if game.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        try:
            game.apply_action(int(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            obs = self._obs()
            return obs, -self.illegal_penalty, True, False, {"action_mask": obs["action_mask"],
                                                             "illegal": True}
        reward = self._carried + self._hand_reward() + self._play_bots()
        self._carried = 0.0
        done = game.is_terminal()
        if done and self.reward_kind == "win":
            assert game.winner is not None
            reward += _win_rewards(game.winner, self.rules.players)[self.seat]
        obs = self._obs()
        return obs, reward, done, False, {"action_mask": obs["action_mask"]}

    # -----------------------------------------------------------------------------------------

    def _play_bots(self) -> float:
        """Let the bots act until the learning seat is to act or the game ends; the points
        reward of any hand that ended meanwhile."""
        game = self._game()
        reward = 0.0
        while not game.is_terminal() and game.current_player != self.seat:
            seat = game.current_player
            game.apply_action(self.bots[seat].choose(game.view(seat)))
            reward += self._hand_reward()
        return reward

    def _hand_reward(self) -> float:
        game = self._game()
        if len(game.finished) == self._hands_seen:
            return 0.0
        self._hands_seen = len(game.finished)
        if self.reward_kind != "points":
            return 0.0
        pts = game.finished[-1].points
        mine = pts[side_of(self.seat, self.rules.players)]
        return float(mine - (sum(pts) - mine) / (len(pts) - 1))

    def _obs(self) -> Obs:
        view = self._game().view(self.seat)
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def _game(self) -> Match:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game
