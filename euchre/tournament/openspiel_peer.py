"""The peer match: a bot of ours inside OpenSpiel's own euchre against OpenSpiel's ISMCTS bot.

OpenSpiel's state is the referee: every action goes to it, and the hand's score is its
``returns()``. Our bot never sees that state. A mirror :class:`~euchre.state.HandState` is kept
in step through :mod:`euchre.compat.openspiel` (whose translation the conformance tests check
move by move), and our bot gets only ``mirror.view(seat)``: its own cards, the up-card and the
public acts, never another hand, the kitty or another player's discard.

Two faults of OpenSpiel 2.0.2 would bias the match, and this module corrects both for the
ISMCTS side (``openspiel-ismcts``, the default), with OpenSpiel's own Python ``ISMCTSBot``
(``open_spiel.python.algorithms.ismcts``, a port of the C++ bot that takes a resampler):

- ``ResampleFromInfostate`` never moves the three kitty cards nor the dealer's discard, so each
  sampled world leaves exactly the real out-of-play cards out: ISMCTS would know which four
  cards nobody holds, information a player does not have (it flatters ISMCTS). The resampler
  here is :class:`euchre.sampling.DealSampler` on the mirror's view of the searching seat:
  uniform over every deal consistent with what the seat saw (kitty and discard included).
- Its information-state string drops trump when the eldest names it in round two, so ISMCTS
  would merge tree nodes of different trump suits (it hurts ISMCTS). Node keys here add the
  trump suit read from the history.

``openspiel-ismcts:native=1`` plays OpenSpiel's C++ ``ISMCTSBot`` unchanged (its resampler and
keys), to measure what the two faults are worth. Both use a random-rollout evaluator, UCT
constant 2 (``uct=``), unlimited world samples and the most-visited action;
``sims=`` sets the simulations per decision (1,000 by default).

``openspiel-mcts`` is determinized MCTS, the other classic way to search a game of hidden
cards: ``worlds=`` (20) deals drawn by the same honest resampler (every card the seat has not
seen, the kitty and the dealer's discard dealt again uniformly, shown voids kept), OpenSpiel's
C++ ``MCTSBot`` (random rollouts, MCTS-Solver, UCT constant ``uct=``) searching each world as
a game of perfect information with ``sims / worlds`` simulations, and the action with the most
visits over all worlds. ``ms=`` instead of ``sims=`` picks the simulation count whose mean
decision takes that long on this machine (:func:`sims_for_time`, measured before the run), so
the peer can be given the same thinking time as its opponent.
"""

from __future__ import annotations

import random
from typing import Any

from euchre.cards import cards_of
from euchre.compat.openspiel import (
    OS_SUIT_BASE,
    card_to_os,
    deal_from_os_history,
    deck_for_deal,
    from_os_action,
    load_game,
    rules_for,
    to_os_action,
)
from euchre.rules import Rules
from euchre.sampling import DealSampler
from euchre.seats import Seat
from euchre.state import DISCARD, HandState
from euchre.tournament.core import (
    PEER_ISMCTS,
    PEER_MCTS,
    DecisionClock,
    PlayerSpec,
    TournamentSpec,
    UnitResult,
    derive_seed,
)

DEAL_STEPS = 22  # the dealer, 20 cards, the up-card
DEFAULT_SIMS = 1000
DEFAULT_UCT = 2.0
DEFAULT_WORLDS = 20
_OPTIONS = {PEER_ISMCTS: {"sims", "uct", "native"}, PEER_MCTS: {"sims", "uct", "worlds", "ms"}}
_USAGE = {PEER_ISMCTS: "sims=N, uct=C, native=0|1", PEER_MCTS: "sims=N or ms=T, worlds=N, uct=C"}


def os_parameters(rules: Rules) -> dict[str, bool] | None:
    """OpenSpiel's game parameters equal to ``rules``, or None when no setting is."""
    for lone in (False, True):
        for stick in (True, False):
            if rules_for(lone, stick) == rules:
                return {"allow_lone_defender": lone, "stick_the_dealer": stick}
    return None


def check_peer(player: PlayerSpec, rules: Rules) -> str | None:
    """Why this peer cannot play under ``rules``, or None."""
    name = player.name
    opts = dict(player.options)
    unknown = set(opts) - _OPTIONS[name]
    if unknown:
        return f"{name} options are {_USAGE[name]}, not {', '.join(sorted(unknown))}"
    sims = opts.get("sims", DEFAULT_SIMS)
    if not isinstance(sims, int) or sims < 1:
        return f"{name}: sims must be a whole number of at least 1, not {sims!r}"
    uct = opts.get("uct", DEFAULT_UCT)
    if not isinstance(uct, int | float) or not uct > 0:
        return f"{name}: uct must be a positive number, not {uct!r}"
    if opts.get("native", 0) not in (0, 1):
        return f"{name}: native is 0 or 1, not {opts['native']!r}"
    worlds = opts.get("worlds", DEFAULT_WORLDS)
    if not isinstance(worlds, int) or not 1 <= worlds <= 1000:
        return f"{name}: worlds must be a whole number 1..1000, not {worlds!r}"
    if "ms" in opts:
        ms = opts["ms"]
        if "sims" in opts:
            return f"{name}: give sims=N or ms=T (a time per decision), not both"
        if not isinstance(ms, int | float) or not 0.1 <= ms <= 60_000:
            return f"{name}: ms must be a time per decision of 0.1..60000 milliseconds, not {ms!r}"
    if os_parameters(rules) is None:
        return (f"{name} plays OpenSpiel's euchre: use --preset openspiel (with "
                "--defend-alone --defend-alone-vs-partners and/or --no-stick-the-dealer for "
                "its parameters), and no other rules flag")
    try:
        import numpy  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError:
        return f"{name} needs OpenSpiel: pip install open-spiel (in the test extra)"
    return None


def mirror_of(rules: Rules, history: list[int]) -> HandState:
    """Our hand state for an OpenSpiel euchre history (the deal done): the referee's whole
    truth, from which each seat gets only its view."""
    return _mirror_and_discard(rules, history)[0]


def _mirror_and_discard(rules: Rules, history: list[int]) -> tuple[HandState, int]:
    """The mirror, and where in ``history`` the dealer's discard is (-1: not yet)."""
    dealer, hands, upcard = deal_from_os_history(history)
    state = HandState(rules, dealer, deck_for_deal(dealer, hands, upcard))
    where = -1
    for i in range(DEAL_STEPS, len(history)):
        if state.phase == DISCARD:
            where = i
        state.apply_action(from_os_action(state, history[i]))
    return state, where


def os_chance(seed: int, dealer: Seat) -> list[int]:
    """OpenSpiel's chance actions for a random deal from ``seed``: the dealer, 20 cards, the
    up-card."""
    cards = list(range(24))
    random.Random(seed).shuffle(cards)
    return [dealer, *cards[:21]]


def os_deal_of(state: HandState) -> list[int]:
    """OpenSpiel's 22 chance actions that deal ``state``'s hands and up-card: the dealer, then
    card k to seat ``(dealer + k) % 4``, then the up-card."""
    dealer = state.dealer
    hands = [iter(cards_of(h)) for h in state.initial_hands]
    out = [dealer]
    out += [card_to_os(next(hands[(dealer + k) % 4])) for k in range(20)]
    out.append(card_to_os(state.upcard))
    return out


def trump_named(history: list[int]) -> int:
    """The trump suit named so far (from OpenSpiel's history), or -1 while bidding."""
    for a in history[DEAL_STEPS:]:
        if OS_SUIT_BASE <= a < OS_SUIT_BASE + 4:
            return a - OS_SUIT_BASE
    return -1


class ConsistentResampler:
    """ISMCTS's world sampler: a uniform deal consistent with the searching seat's view.

    A sampled world differs from the real one only in the cards (hands, kitty) and in the
    dealer's face-down discard; the acts are the same. So its OpenSpiel history is a new deal
    followed by the real acts with the discard replaced. The analysis of the view is kept for
    the root being searched, since every simulation of one decision resamples that root."""

    def __init__(self, game: Any, rules: Rules, seed: int) -> None:
        self.game = game
        self.rules = rules
        self.rng = random.Random(seed)
        self._key: tuple[int, tuple[int, ...]] | None = None
        self._sampler: DealSampler | None = None
        self._acts: list[int] = []
        self._discard_at = -1

    def __call__(self, state: Any, player: int) -> Any:
        history = state.history()
        key = (player, tuple(history))
        if key != self._key or self._sampler is None:
            mirror, where = _mirror_and_discard(self.rules, history)
            self._sampler = DealSampler(mirror.view(player))
            self._acts = history[DEAL_STEPS:]
            self._discard_at = where - DEAL_STEPS if where >= 0 else -1
            self._key = key
        world = self._sampler.sample(self.rng)
        acts = self._acts
        if self._discard_at >= 0:
            acts = list(acts)
            acts[self._discard_at] = card_to_os(world.discarded)
        out = self.game.new_initial_state()
        for a in os_deal_of(world):
            out.apply_action(a)
        for a in acts:
            out.apply_action(a)
        return out


class RandomRollouts:
    """OpenSpiel's random-rollout evaluator (uniform prior, one uniformly random playout to
    the end) with Python's generator instead of a numpy call per step, which made the
    rollouts most of ISMCTS's time."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        s = state.clone()
        rnd = self.rng.random
        while not s.is_terminal():
            legal = s.legal_actions()  # chance outcomes here are uniform, like its deal
            s.apply_action(legal[int(rnd() * len(legal))])
        return np.array(s.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _python_ismcts(game: Any, rules: Rules, sims: int, uct: float, seed: int) -> Any:
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    class TrumpKeyedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """OpenSpiel's ISMCTS with the trump suit in every node key (see the module doc)."""

        def get_state_key(self, state: Any) -> Any:
            return (state.current_player(), state.information_state_string(),
                    trump_named(state.history()))

    rs = np.random.RandomState(seed % 2**32)
    bot = TrumpKeyedISMCTS(
        game, RandomRollouts(seed + 1), uct, sims, random_state=rs,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    bot.set_resampler(ConsistentResampler(game, rules, seed))
    return bot


def _native_ismcts(sims: int, uct: float, seed: int) -> Any:
    import pyspiel

    s = seed % 2**31
    return pyspiel.ISMCTSBot(s, pyspiel.RandomRolloutEvaluator(1, s), uct, sims, -1,
                             pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)


class DeterminizedMCTS:
    """OpenSpiel's C++ ``MCTSBot`` over worlds sampled from the seat's view (module doc).

    Each world is a full OpenSpiel state whose hidden cards are a uniform deal consistent with
    what the seat saw, so the bot searching it sees cards the seat does not, but they are
    drawn as honestly as the seat could draw them; voting over many worlds is what makes it a
    player of the real game."""

    def __init__(self, game: Any, rules: Rules, sims: int, worlds: int, uct: float,
                 seed: int) -> None:
        import pyspiel

        self.worlds = worlds
        self.resample = ConsistentResampler(game, rules, seed)
        per_world = max(1, sims // worlds)
        s = seed % 2**31
        self.bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, s), uct, per_world,
                                   1000, True, s, False)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        player = state.current_player()
        visits = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            root = self.bot.mcts_search(self.resample(state, player))
            for child in root.children:
                visits[child.action] += child.explore_count
        # Most visits; a tie goes to the lowest action id, so a seed replays exactly.
        return int(max(legal, key=lambda a: (visits[a], -a)))


def make_peer(player: PlayerSpec, game: Any, rules: Rules, seed: int) -> Any:
    """A peer bot with ``player``'s options: ``.step(os_state)`` gives its action."""
    opts = dict(player.options)
    sims = int(opts.get("sims", DEFAULT_SIMS))
    uct = float(opts.get("uct", DEFAULT_UCT))
    if player.name == PEER_MCTS:
        if "ms" in opts:
            raise ValueError(f"{PEER_MCTS}:ms=... is resolved to sims=N before the run "
                             "(resolve_time_budget)")
        return DeterminizedMCTS(game, rules, sims, int(opts.get("worlds", DEFAULT_WORLDS)),
                                uct, seed)
    if opts.get("native", 0):
        return _native_ismcts(sims, uct, seed)
    return _python_ismcts(game, rules, sims, uct, seed)


def mean_decision_seconds(player: PlayerSpec, rules: Rules, hands: int, seed: int = 0) -> float:
    """The peer's mean time per decision (wall clock) over ``hands`` hands in which it holds
    every seat: the figure :func:`sims_for_time` scales."""
    import time

    game = _game(rules)
    times: list[float] = []
    for i in range(hands):
        state = game.new_initial_state()
        for a in os_chance(derive_seed(seed, "calibrate", i), i % 4):
            state.apply_action(a)
        bots = [make_peer(player, game, rules, derive_seed(seed, "calibrate", i, s))
                for s in range(4)]
        while not state.is_terminal():
            t0 = time.perf_counter()
            a = bots[state.current_player()].step(state)
            times.append(time.perf_counter() - t0)
            state.apply_action(a)
    return sum(times) / len(times)


def sims_for_time(player: PlayerSpec, rules: Rules, ms: float, hands: int = 6) -> int:
    """The simulation count at which ``player`` (an ``openspiel-mcts`` spec, other options
    kept) takes ``ms`` milliseconds a decision on average here: its time measured at two
    counts and fitted by a straight line (a fixed cost for the resampling plus a cost per
    simulation)."""
    opts = {k: v for k, v in player.options if k not in ("ms", "sims")}
    worlds = int(opts.get("worlds", DEFAULT_WORLDS))
    low, high = worlds * 10, worlds * 100
    t_low = mean_decision_seconds(
        PlayerSpec(player.name, (*opts.items(), ("sims", low))), rules, hands)
    t_high = mean_decision_seconds(
        PlayerSpec(player.name, (*opts.items(), ("sims", high))), rules, hands)
    per_sim = max((t_high - t_low) / (high - low), 1e-9)
    fixed = max(t_low - per_sim * low, 0.0)
    return max(worlds, round((ms / 1000 - fixed) / per_sim))


def resolve_time_budget(player: PlayerSpec, rules: Rules) -> PlayerSpec:
    """``player`` with ``ms=T`` replaced by the ``sims=N`` that takes that long here (the
    count is fixed before the run, so every worker plays the same peer and a seed replays)."""
    opts = dict(player.options)
    if player.name != PEER_MCTS or "ms" not in opts:
        return player
    sims = sims_for_time(player, rules, float(opts["ms"]))
    rest = tuple((k, v) for k, v in player.options if k != "ms")
    return PlayerSpec(player.name, (*rest, ("sims", sims)))


_GAMES: dict[tuple[bool, bool], Any] = {}


def _game(rules: Rules) -> Any:
    params = os_parameters(rules)
    if params is None:
        raise ValueError("these rules are not OpenSpiel's euchre")
    key = (params["allow_lone_defender"], params["stick_the_dealer"])
    if key not in _GAMES:
        _GAMES[key] = load_game(*key)
    return _GAMES[key]


def play_peer_deal(spec: TournamentSpec, index: int) -> UnitResult:
    """Deal ``index`` refereed by OpenSpiel, once with each side holding each pair of hands."""
    rules = spec.rules
    game = _game(rules)
    chance = os_chance(derive_seed(spec.seed, "deal", index), index % 4)
    clock = DecisionClock(spec.clock)
    totals = [0.0, 0.0]
    for k, seating in enumerate(spec.seatings):
        players = [spec.players[e] for e in seating]
        bots = [p.make(spec.bot_seed(index, k, s), spec.think) if not p.is_peer
                else make_peer(p, game, rules, spec.bot_seed(index, k, s))
                for s, p in enumerate(players)]
        referee = game.new_initial_state()
        for a in chance:
            referee.apply_action(a)
        mirror = mirror_of(rules, referee.history())
        while not referee.is_terminal():
            seat = referee.current_player()
            assert seat == mirror.cur, "the mirror is out of step with OpenSpiel"
            if players[seat].is_peer:
                os_action = int(clock.timed(seating[seat], bots[seat].step, referee))
                action = from_os_action(mirror, os_action)
            else:
                action = clock.choose(seating[seat], bots[seat], mirror.view(seat))
                os_action = to_os_action(mirror, action)
            referee.apply_action(os_action)
            mirror.apply_action(action)
        assert mirror.is_terminal()
        returns = referee.returns()
        # OpenSpiel's returns are zero-sum (+points for the scoring side's seats, the negative
        # for the others); points scored are their positive part, as our engine counts them.
        side_points = [max(0.0, returns[0]), max(0.0, returns[1])]
        assert tuple(int(p) for p in side_points) == mirror.points, "scores disagree"
        for e in (0, 1):
            seats = [s for s in range(4) if seating[s] == e]
            totals[e] += sum(side_points[s & 1] for s in seats) / len(seats)
    return clock.result(index, len(spec.seatings), totals)
