"""Our Euchre, every variant, as an OpenSpiel Python game (``python_euchre``).

``import euchre.rl.openspiel_game`` registers the game with ``pyspiel.register_game``; then
``pyspiel.load_game("python_euchre", {"preset": "cutthroat", "rules": '{"deck": 32}'})`` loads
any rules: ``preset`` names a preset (``standard``), ``rules`` is a JSON object of options laid
over it (``Rules.to_dict`` keys). OpenSpiel's algorithms (CFR family, MCTS, ISMCTS, ...) then run
on it, as they do on OpenSpiel's own euchre, which has only the ``openspiel`` preset's rules.

One game is one hand, like OpenSpiel's euchre. Chance deals first: the dealer (one outcome per
seat), then the deck order card by card from the top (each remaining card equally likely), so a
hand is one replayable list of ints; the state then is a :class:`~euchre.state.HandState` and the
player actions are the engine's action ids (``euchre.actions``). A thrown-in hand or a misdeal
call ends the game at 0 for everyone (OpenSpiel's own all-pass ending). Returns are
``HandState.returns()``: zero-sum, a side's points minus the mean of the other sides'.

Information states and observations are built from the seat's :class:`~euchre.view.SeatView`
only: the string is the view's fields, the tensor is :func:`euchre.rl.encoding.encode`.
:func:`resampler` turns :func:`euchre.sampling.sample_hand_states` into the callback OpenSpiel's
Python ISMCTS takes (``bot.set_resampler``), sampling worlds exactly consistent with a view.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from euchre import actions as A
from euchre.cards import Card, deck_cards
from euchre.rl.encoding import OBS_SIZE, encode
from euchre.rules import Rules, preset
from euchre.sampling import sample_hand_states
from euchre.state import HandState
from euchre.variants import variant_for
from euchre.view import SeatView

GAME_NAME = "python_euchre"
DEFAULT_PARAMS: dict[str, Any] = {"preset": "standard", "rules": "{}"}


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The Rules a game's parameters describe (a clear RulesError for bad ones)."""
    base = preset(str(params.get("preset", "standard")))
    text = str(params.get("rules", "{}"))
    try:
        overrides = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the 'rules' parameter must be a JSON object of options: {exc}") from None
    if not isinstance(overrides, dict):
        raise ValueError(f"the 'rules' parameter must be a JSON object of options, not {text!r}")
    return Rules.from_dict({**base.to_dict(), **overrides})


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Euchre (euchre package, every variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def _game_info(rules: Rules) -> pyspiel.GameInfo:
    sc = rules.scoring
    top = float(max(sc.make, sc.march, sc.lone_march, sc.euchre, sc.euchre_lone_defender,
                    sc.renege, sc.renege_lone, 1))
    return pyspiel.GameInfo(
        num_distinct_actions=A.NUM_ACTIONS,
        max_chance_outcomes=33,
        num_players=rules.players,
        min_utility=-top,
        max_utility=top,
        utility_sum=0.0,
        max_game_length=1 + rules.deck + max_player_moves(rules),
    )


def max_player_moves(rules: Rules) -> int:
    """A bound on the players' moves in one hand: at most 19 acts other than card plays (see
    ``encoding.MAX_ACTS``) and the card plays; with ``renege_fix`` each trick may also see up
    to ``n - 1`` fixes, each taking back and replaying at most ``n - 1`` cards, and a round of
    at most ``n - 1`` fix questions before each fix and after the last."""
    n = rules.players
    tricks = variant_for(rules).tricks_per_hand
    per_trick = n + ((n - 1) * (n - 1) + n * (n - 1) if rules.renege_fix else 0)
    return 19 + tricks * per_trick


class EuchreGame(pyspiel.Game):  # type: ignore[misc]
    """The game object OpenSpiel loads; see the module docstring for its parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = {**DEFAULT_PARAMS, **(params or {})}
        self.rules = rules_from_params(full)
        super().__init__(_GAME_TYPE, _game_info(self.rules), full)

    def new_initial_state(self) -> EuchreState:
        return EuchreState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> EuchreObserver:
        return EuchreObserver(params)


class EuchreState(pyspiel.State):  # type: ignore[misc]
    """Chance deals the dealer and the deck; then a HandState plays the hand."""

    def __init__(self, game: EuchreGame) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.dealer = -1
        self.deck: list[Card] = []
        self.hand: HandState | None = None

    # --- OpenSpiel API -----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.hand.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.hand.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None and player == self.hand.current_player
        return self.hand.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer < 0:
            n = self.rules.players
            return [(s, 1.0 / n) for s in range(n)]
        left = sorted(set(deck_cards(self.rules.deck)) - set(self.deck))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.hand is not None:
            self.hand.apply_action(action)
            return
        if self.dealer < 0:
            self.dealer = int(action)
            return
        self.deck.append(int(action))
        if len(self.deck) == self.rules.deck:
            self.hand = HandState(self.rules, self.dealer, self.deck)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            from euchre.cards import card_str

            return f"dealer {action}" if self.dealer < 0 else f"deal {card_str(action)}"
        return A.action_to_str(action)

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.is_terminal()

    def returns(self) -> list[float]:
        if self.hand is None:
            return [0.0] * self.rules.players
        return self.hand.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EuchreState:
        """A state drawn uniformly among those ``player_id`` cannot tell from this one (our
        exact sampler, seeded from OpenSpiel's sampler)."""
        seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else 0
        return state_from_hand(self.get_game(), self._sampled(player_id, random.Random(seed)))

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealing: dealer {self.dealer}, {len(self.deck)} cards placed"
        return repr(self.hand)

    # -----------------------------------------------------------------------------------------

    def view(self, player: int) -> SeatView:
        if self.hand is None:
            raise ValueError("the deal is not finished: no seat sees anything yet")
        return self.hand.view(player)

    def _sampled(self, player: int, rng: random.Random) -> HandState:
        return sample_hand_states(self.view(player), rng, 1)[0]


def state_from_hand(game: EuchreGame, hand: HandState) -> EuchreState:
    """An OpenSpiel state at ``hand``'s position: its deal as chance actions, then its acts."""
    st = game.new_initial_state()
    st.apply_action(hand.dealer)
    for c in hand.deck:
        st.apply_action(c)
    for _, a in hand.history:
        st.apply_action(a)
    return st


def view_string(view: SeatView) -> str:
    """The information-state string: every field of the seat's view that the seat knows."""
    hist = " ".join(f"{s}:{a}" for s, a in view.history)
    # With rows each seat's row is public as dealt (face-down cards as -1 until turned up).
    rows = f" rows {[list(r) for r in view.rows]}" if view.rows else ""
    return (f"seat {view.seat} dealer {view.dealer} phase {view.phase} to_act "
            f"{view.current_player} hand {list(view.hand)} up {view.upcard} "
            f"({view.upcard_status}) trump {view.trump} maker {view.maker} alone {view.alone} "
            f"lone_defender {view.lone_defender} discard {view.discard} swapped "
            f"{list(view.swapped_out)} swapper {view.swapper}{rows} history {hist}")


class EuchreObserver:
    """OpenSpiel's PyObserver: the tensor is :func:`encode`, the string :func:`view_string`.
    The view holds the whole public history, so both serve as information state."""

    def __init__(self, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EuchreState, player: int) -> None:
        if state.hand is None:
            self.tensor.fill(0.0)
            return
        encode(state.hand.view(player), self.tensor)

    def string_from(self, state: EuchreState, player: int) -> str:
        if state.hand is None:
            return f"seat {player}: dealing"
        return view_string(state.hand.view(player))


def resampler(seed: int = 0) -> Any:
    """A callback for ISMCTS's ``set_resampler``: ``(state, player) -> sampled state``."""
    rng = random.Random(seed)

    def cb(state: EuchreState, player: int) -> EuchreState:
        return state_from_hand(state.get_game(), state._sampled(player, rng))

    return cb


pyspiel.register_game(_GAME_TYPE, EuchreGame)
