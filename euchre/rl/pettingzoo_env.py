"""A PettingZoo AEC environment: every rules option, preset and player count.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). Each observation is
``{"observation": encode(view), "action_mask": mask}`` built from ``state.view(seat)`` only, with
seats rotated so the observing seat comes first (:mod:`euchre.rl.encoding`). Actions are the
engine's action ids (``Discrete(euchre.actions.NUM_ACTIONS)``); an illegal one raises
:class:`~euchre.errors.IllegalActionError` and changes nothing, as the engine does.

Two modes: ``"match"`` plays hands until a side reaches the rules' target (the deal passing
left); ``"hand"`` plays one hand to its score (a misdealt hand is redealt, as at the table).
Rewards: ``"points"`` gives, at the end of each hand, each seat its side's points minus the mean
of the other sides' (zero-sum; ``HandState.returns``); ``"win"`` gives +1 to the winning side's
seats at the end of the match and -1/(sides-1) to the others. The default is ``"points"`` for a
hand and ``"win"`` for a match.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from euchre import actions as A
from euchre.match import Match
from euchre.rl.encoding import OBS_SIZE, action_mask, encode
from euchre.rules import Rules, preset
from euchre.seats import Seat, side_of
from euchre.state import TERMINAL

Mode = Literal["match", "hand"]
Reward = Literal["points", "win"]


def observation_space() -> spaces.Dict:
    """The space of one agent's observation (the same for every variant)."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), dtype=np.int8),
    })


def resolve_rules(rules: Rules | str | None, mode: str) -> Rules:
    """A Rules object from a preset name, a Rules, or None (standard); checks the mode."""
    if mode not in ("match", "hand"):
        raise ValueError(f"mode must be 'match' or 'hand', not {mode!r}")
    r = preset(rules) if isinstance(rules, str) else (rules or Rules())
    if not isinstance(r, Rules):
        raise TypeError(f"rules must be a Rules object or a preset name, not {rules!r}")
    return r.replace(single_hand=True) if mode == "hand" else r


def win_rewards(winner: Seat, players: int) -> list[float]:
    """+1 to the winning side's seats, -1/(sides-1) to the rest (zero-sum); 0 for a draw."""
    sides = 2 if players == 4 else players
    if winner < 0:
        return [0.0] * players
    return [1.0 if side_of(s, players) == winner else -1.0 / (sides - 1) for s in range(players)]


class EuchreAECEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Euchre as a PettingZoo AEC game; see the module docstring for modes and rewards."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "euchre_v0", "render_modes": ["ansi"], "is_parallelizable": False,
    }

    def __init__(self, rules: Rules | str | None = None, mode: Mode = "match",
                 reward: Reward | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = resolve_rules(rules, mode)
        self.mode = mode
        self.reward_kind: Reward = reward or ("points" if mode == "hand" else "win")
        if self.reward_kind not in ("points", "win"):
            raise ValueError(f"reward must be 'points' or 'win', not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.game: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -----------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match (or hand). ``seed`` fixes it and every later reset without a seed."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        match_seed = int(self._seeds.integers(2**63))
        self.game = Match(self.rules, seed=match_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._hands_seen = 0
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._game()
        view = game.view(self.agent_name_mapping[agent])
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        game.apply_action(int(action))
        n = self.rules.players
        self.rewards = dict.fromkeys(self.agents, 0.0)
        finished = len(game.finished)
        if self.reward_kind == "points" and finished > self._hands_seen:
            pts = game.finished[-1].points
            total = sum(pts)
            sides = len(pts)
            for s, a in enumerate(self.possible_agents):
                mine = pts[side_of(s, n)]
                self.rewards[a] = float(mine - (total - mine) / (sides - 1))
        self._hands_seen = finished
        if game.is_terminal():
            if self.reward_kind == "win":
                assert game.winner is not None
                for a, r in zip(self.possible_agents, win_rewards(game.winner, n), strict=True):
                    self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The public history of the hand in play, as text (render_mode ``"ansi"``)."""
        if self.render_mode is None or self.game is None:
            return None
        h = self.game.hand
        acts = ", ".join(f"{s}:{A.action_to_str(a) if a >= 0 else 'discard'}"
                         for s, a in h.view(0).history)
        who = "over" if self.game.current_player == TERMINAL else f"to act {h.cur}"
        return f"scores {self.game.scores} {who}; {acts}"

    def close(self) -> None:
        pass

    def _game(self) -> Match:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


def env(rules: Rules | str | None = None, mode: Mode = "match", reward: Reward | None = None,
        render_mode: str | None = None) -> EuchreAECEnv:
    """PettingZoo's usual constructor name: ``euchre.rl.pettingzoo_env.env("tournament")``."""
    return EuchreAECEnv(rules, mode, reward, render_mode)
