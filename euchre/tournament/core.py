"""Duplicate-deal matches between two players: what one unit of work plays, and its result.

A *unit* is one deal played from every seating (hands mode), or one game to the target played
from every seating on the same sequence of deals (games mode). Every seed a unit uses (the
deck, the first dealer, each bot's own generator) derives from the master seed and the unit's
index only, so a unit gives the same result whichever process or machine plays it, and a
tournament gives the same result for any number of workers or either backend.

Seatings (``seatings``):
- four players: the two partnerships swap seats, so each side holds the other's cards;
- two players: the two swap seats;
- three players (cutthroat): each player alone in each seat against the other twice, which is
  six seatings in which each player sits in each seat equally often.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from euchre.bots import make_bot
from euchre.bots.base import Bot
from euchre.bots.protocol import BotFault, command_words, tell_game_over, tell_hand_over
from euchre.bots.registry import CMD_PREFIX, OPENSPIEL_PREFIX, is_level, openspiel_peer_name
from euchre.match import Match
from euchre.phases import BID1, BID2, PHASE_NAMES, PLAY
from euchre.rules import Rules
from euchre.seats import Seat, position_name, side_of
from euchre.state import HandState

#: The name that puts OpenSpiel's ISMCTS bot (through its own game as referee) in a seat.
PEER_ISMCTS = "openspiel-ismcts"
#: OpenSpiel's MCTS bot searching worlds sampled from the seat's view (determinized MCTS).
PEER_MCTS = "openspiel-mcts"
#: Every OpenSpiel peer: players that play inside OpenSpiel's euchre, not bots of ours.
PEERS = (PEER_ISMCTS, PEER_MCTS)


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player by spec with keyword options: ``search:think=100,samples=50``,
    ``my_pkg.bots:make:depth=3``, ``cmd:node bot.js`` (no options), ``openspiel:ismcts:sims=50``.

    The options are passed to ``make_bot(name, seed, **options)``; values read as int, then
    float, else text."""

    name: str
    options: tuple[tuple[str, int | float | str], ...] = ()

    @property
    def label(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options)

    @property
    def is_peer(self) -> bool:
        return self.name in PEERS

    @property
    def is_program(self) -> bool:
        """A ``cmd:`` bot: a program speaking the bot protocol."""
        return self.name.startswith(CMD_PREFIX)

    def make(self, seed: int, think: object = None, move_time: float | None = None) -> Bot:
        """A fresh bot of ours (raises ValueError for an unknown name or options). ``think``
        is the budget when the player names none itself; ``move_time`` a ``cmd:`` bot's time
        limit per decision."""
        options: dict[str, object] = dict(self.options)
        if think is not None:
            options.setdefault("think", think)
        if move_time is not None and self.is_program:
            options.setdefault("move_time", move_time)
        return make_bot(self.name, seed, **options)


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _options(text: str, rest: str) -> tuple[tuple[str, int | float | str], ...]:
    options: list[tuple[str, int | float | str]] = []
    for item in rest.split(","):
        key, eq, val = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not key.isidentifier() or not val.strip():
            raise ValueError(
                f"{text!r}: options are KEY=VALUE separated by commas, not {item!r}")
        options.append((key, _value(val.strip())))
    return tuple(options)


def parse_player(text: str) -> PlayerSpec:
    """A player spec (see :class:`PlayerSpec`); raises ValueError saying what is wrong."""
    text = text.strip()
    if text.startswith(CMD_PREFIX):
        command_words(text[len(CMD_PREFIX):])
        return PlayerSpec(text)
    if text.startswith(OPENSPIEL_PREFIX):
        bot, sep, rest = text[len(OPENSPIEL_PREFIX):].partition(":")
        if not bot.strip():
            raise ValueError(f"{text!r}: name one of OpenSpiel's bots, e.g. openspiel:ismcts")
        peer = openspiel_peer_name(OPENSPIEL_PREFIX + bot)
        assert peer is not None
        return PlayerSpec(peer, _options(text, rest) if sep else ())
    name, sep, rest = text.partition(":")
    name = name.strip()
    attr = rest.partition(":")[0].strip()
    # package.module:factory[:KEY=VALUE,...], and a top-level module:factory too: what follows
    # the first colon names a factory (an identifier) unless the name before it is a level,
    # whose options are KEY=VALUE.
    if sep and ("." in name or (attr.isidentifier() and not is_level(name))):
        attr, sep, rest = rest.partition(":")
        name = f"{name}:{attr.strip()}"
    if not name:
        raise ValueError(f"{text!r}: a player is NAME or NAME:KEY=VALUE,...")
    return PlayerSpec(name, _options(text, rest) if sep else ())


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """Everything that decides a tournament's results (and nothing that does not)."""

    players: tuple[PlayerSpec, PlayerSpec]
    rules: Rules
    seed: int = 0
    games: bool = False
    """False: each unit is one deal (one hand per seating); True: one game to the target."""
    think: str | None = None
    """Both players' thinking budget (``make_bot``'s ``think``: ``"200"`` deals or ``"0.5s"``)
    where a player's own ``think=`` option does not set one."""
    paired_seeds: bool = False
    """Each seat's bot keeps its seed in every seating of a unit. Two players that decide alike
    (``search`` and ``pimc-naive`` share their card play) then play the same hand in both
    seatings wherever their decisions agree, so only the decisions that differ move the margin
    and far fewer hands show it. Off, every seating draws fresh bot seeds."""
    move_time: float | None = field(default=None, compare=False)
    """Seconds a ``cmd:`` bot may take per decision before it forfeits the unit (None: the
    protocol's default)."""
    clock: str = field(default="wall", compare=False)
    """How decisions are timed: ``"wall"`` clock, or ``"cpu"`` time of the deciding thread,
    which other programs on a busy shared machine do not inflate. Timing never changes a
    result, so it stays out of ``==``."""

    @property
    def seatings(self) -> list[tuple[int, ...]]:
        return seatings(self.rules.players)

    def bot_seed(self, index: int, seating: int, seat: Seat) -> int:
        """The seed of the bot in ``seat`` in seating number ``seating`` of unit ``index``."""
        if self.paired_seeds:
            return derive_seed(self.seed, "bot", index, "paired", seat)
        return derive_seed(self.seed, "bot", index, seating, seat)

    def bots(self, index: int, k: int) -> list[Bot]:
        """Fresh bots of ours for seating ``k`` of unit ``index``, one per seat."""
        return [self.players[e].make(self.bot_seed(index, k, s), self.think, self.move_time)
                for s, e in enumerate(self.seatings[k])]


def seatings(players: int) -> list[tuple[int, ...]]:
    """Each seating as the player (0 or 1) in each seat; see the module docstring."""
    if players == 4:
        return [(0, 1, 0, 1), (1, 0, 1, 0)]
    if players == 2:
        return [(0, 1), (1, 0)]
    if players == 3:
        alone = [tuple(0 if s == k else 1 for s in range(3)) for k in range(3)]
        return alone + [tuple(1 - e for e in row) for row in alone]
    raise ValueError(f"players must be 2, 3 or 4, not {players}")


def derive_seed(master: int, *parts: object) -> int:
    """A 63-bit seed from the master seed and a path of names and indices.

    A cryptographic hash (not ``hash()``, which is salted per process) gives every process and
    machine the same seed, and unrelated streams for neighbouring indices."""
    text = "/".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


@dataclass(frozen=True, slots=True)
class UnitResult:
    """One unit's outcome. ``points[e]`` is player e's points summed over the seatings (within a
    seating, the mean over the seats e holds); ``wins[e]`` counts games e won (games mode)."""

    index: int
    hands: int
    points: tuple[float, float]
    wins: tuple[int, int] = (0, 0)
    games: int = 0
    # Thinking time is measured, not decided: it differs between runs and stays out of ==.
    forfeits: tuple[int, int] = (0, 0)
    """Units player e forfeited (its bot broke down: see :func:`forfeit`)."""
    fault: str = ""
    """The one-line diagnosis of a forfeit."""
    decisions: tuple[int, int] = field(default=(0, 0), compare=False)
    times: tuple[tuple[float, ...], tuple[float, ...]] = field(default=((), ()), compare=False)
    """Seconds each of player e's decisions took, in order; the runner folds them into the
    outcome's histograms and keeps the unit without them (see ``runner.run``)."""
    split: str = field(default="", compare=False)
    """Where the deal's two seatings first differed (:func:`first_difference`): "" where not
    recorded (games, three seatings, the OpenSpiel peers)."""

    @property
    def margin(self) -> float:
        """Player 0's points per hand minus player 1's, in this unit."""
        return (self.points[0] - self.points[1]) / self.hands

    def per_hand(self, e: int) -> float:
        return self.points[e] / self.hands

    def to_dict(self) -> dict[str, Any]:
        out = {"index": self.index, "hands": self.hands, "points": list(self.points),
               "wins": list(self.wins), "games": self.games}
        if self.fault:
            out.update(forfeits=list(self.forfeits), fault=self.fault)
        if self.split:
            out["split"] = self.split
        return out


#: The timers ``TournamentSpec.clock`` names.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


class DecisionClock:
    """Every decision's thinking time, per player, over a unit."""

    def __init__(self, clock: str = "wall") -> None:
        try:
            self.timer = CLOCKS[clock]
        except KeyError:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock!r}") from None
        self.times: tuple[list[float], list[float]] = ([], [])

    def choose(self, who: Seat, bot: Bot, view: Any) -> int:
        return self.timed(who, bot.choose, view)

    def timed(self, who: Seat, decide: Callable[[Any], int], arg: Any) -> int:
        """``decide(arg)``, its time counted as one decision of player ``who``."""
        t0 = self.timer()
        action = decide(arg)
        self.times[who].append(self.timer() - t0)
        return action

    def result(self, index: int, hands: int, points: Sequence[float], wins: Sequence[int] = (0, 0),
               games: int = 0, forfeits: tuple[int, int] = (0, 0),
               fault: str = "", split: str = "") -> UnitResult:
        return UnitResult(
            index=index, hands=hands, points=(points[0], points[1]), wins=(wins[0], wins[1]),
            games=games, forfeits=forfeits, fault=fault,
            decisions=(len(self.times[0]), len(self.times[1])),
            times=(tuple(self.times[0]), tuple(self.times[1])), split=split,
        )


class Forfeit(Exception):
    """A bot of player ``who`` broke down (a protocol bot's fault) during a unit."""

    def __init__(self, who: Seat, fault: BotFault) -> None:
        super().__init__(str(fault))
        self.who = who


def forfeit(spec: TournamentSpec, index: int, clock: DecisionClock, lost: Forfeit) -> UnitResult:
    """The unit scored as lost by the player whose bot broke down: the other player takes
    every seating as if by a march (games mode: wins every game, by the target), so a bot
    gains nothing by failing, and the run carries on with the next unit."""
    n = len(spec.seatings)
    winner = 1 - lost.who
    points = [0.0, 0.0]
    wins = [0, 0]
    if spec.games:
        points[winner] = float(spec.rules.target * n)
        wins[winner] = n
    else:
        points[winner] = float(spec.rules.scoring.march * n)
    forfeits = (1, 0) if lost.who == 0 else (0, 1)
    return clock.result(index, n, points, wins, games=n if spec.games else 0,
                        forfeits=forfeits, fault=str(lost))


def _decide(clock: DecisionClock, who: Seat, bot: Bot, view: Any) -> int:
    try:
        return clock.choose(who, bot, view)
    except BotFault as fault:
        raise Forfeit(who, fault) from None


def _tell_hand_over(bots: Sequence[Bot], h: HandState, scores: tuple[int, ...] = ()) -> None:
    for seat, bot in enumerate(bots):
        if hasattr(bot, "hand_over"):
            tell_hand_over(bot, h.view(seat, scores))


def _entrant_points(points: Sequence[int], side_of: Sequence[int],
                    seating: Sequence[int]) -> list[float]:
    """Each player's points in one seating: the mean over the seats it holds."""
    out = []
    for e in (0, 1):
        seats = [s for s, who in enumerate(seating) if who == e]
        out.append(sum(points[side_of[s]] for s in seats) / len(seats))
    return out


def _side_of(players: int) -> list[int]:
    return [side_of(s, players) for s in range(players)]


#: What the split calls a decision of each phase (the rest by the phase's own word).
_SPLIT_PHASES = {BID1: "round one", BID2: "round two"}
SAME = "played alike"
"""The split of a deal whose seatings made every decision alike (with paired seeds, two
players that decide alike there; its margin is zero unless the bots' choices vary)."""

Step = tuple[int, int, int, int]
"""One decision of a hand as the split records it: (phase, seat, tricks done, the action).
Only the decision where two seatings part gets a label (:func:`step_label`), so a tournament
of fast bots pays a tuple a decision for the split, not a string."""


def step_label(phase: int, seat: Seat, tricks: int, dealer: Seat, players: int) -> str:
    """A decision labelled by its phase and the seat's place from the dealer: "round one,
    third", "trick 2, dealer"."""
    what = f"trick {tricks + 1}" if phase == PLAY else _SPLIT_PHASES.get(phase, PHASE_NAMES[phase])
    return f"{what}, {position_name(seat, dealer, players)}"


def first_difference(a: Sequence[Step], b: Sequence[Step], dealer: Seat, players: int) -> str:
    """Where two seatings of one deal first took different actions: the label of that
    decision (the same position in both, since everything before it was alike), or
    :data:`SAME`. Binning margins by it says which decisions an edge comes from."""
    for (phase, seat, tricks, x), (_, _, _, y) in zip(a, b, strict=False):
        if x != y:
            return step_label(phase, seat, tricks, dealer, players)
    return SAME


def play_deal(spec: TournamentSpec, index: int) -> UnitResult:
    """Deal ``index`` played once from every seating."""
    rules = spec.rules
    n = rules.players
    rng = random.Random(derive_seed(spec.seed, "deal", index))
    deck = HandState.deal(rules, index % n, rng).deck
    side_of = _side_of(n)
    clock = DecisionClock(spec.clock)
    totals = [0.0, 0.0]
    steps: list[list[Step]] = []
    try:
        for k, seating in enumerate(spec.seatings):
            bots = spec.bots(index, k)
            h = HandState(rules, index % n, deck)
            mine: list[Step] = []
            steps.append(mine)
            while not h.is_terminal():
                seat = h.cur
                action = _decide(clock, seating[seat], bots[seat], h.view(seat))
                mine.append((h.phase, seat, len(h.tricks), action))
                h.apply_action(action)
            _tell_hand_over(bots, h)
            for seat, bot in enumerate(bots):
                tell_game_over(bot, seat, h.points, None)
            for e, p in enumerate(_entrant_points(h.points, side_of, seating)):
                totals[e] += p
    except Forfeit as lost:
        return forfeit(spec, index, clock, lost)
    split = first_difference(steps[0], steps[1], index % n, n) if len(steps) == 2 else ""
    return clock.result(index, len(spec.seatings), totals, split=split)


def play_game_set(spec: TournamentSpec, index: int) -> UnitResult:
    """Game ``index`` to the target, once from every seating, on the same deals: the match
    seed is shared, so hand k of each replay has the same dealer and deck."""
    rules = spec.rules
    side_of = _side_of(rules.players)
    match_seed = derive_seed(spec.seed, "game", index)
    clock = DecisionClock(spec.clock)
    totals = [0.0, 0.0]
    wins = [0, 0]
    hands = 0
    try:
        for k, seating in enumerate(spec.seatings):
            bots = spec.bots(index, k)
            m = Match(rules, seed=match_seed)
            while not m.is_terminal():
                seat = m.current_player
                h, before = m.hand, tuple(m.scores)
                m.apply_action(_decide(clock, seating[seat], bots[seat], m.view(seat)))
                if h.is_terminal():
                    _tell_hand_over(bots, h, before)
            for seat, bot in enumerate(bots):
                tell_game_over(bot, seat, tuple(m.scores), m.winner)
            for e, p in enumerate(_entrant_points(m.scores, side_of, seating)):
                totals[e] += p
            hands += len(m.finished)
            if m.winner is not None and m.winner >= 0:
                winners = {seating[s] for s in range(rules.players) if side_of[s] == m.winner}
                for e in winners:
                    wins[e] += 1
    except Forfeit as lost:
        return forfeit(spec, index, clock, lost)
    return clock.result(index, hands, totals, wins, games=len(spec.seatings))
