"""Ratings measured by playing: a bot against the rated ladder (``euchre rate SPEC``), and the
calibration run between the ladder's levels (``euchre rate --levels``).

Both play duplicate games (each game to the target from both seatings on the same deals, so the
luck of the cards cancels) with the tournament's own machinery (:func:`euchre.tournament.run`:
every core, or Ray), and read the share of games won as a rating difference on the scale of
:mod:`euchre.tournament.ratings`. A game, not a hand, is what a rating predicts, so a rating
measured here means on a site what it means here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from euchre.bots.registry import levels
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.tournament.core import PlayerSpec, TournamentSpec, derive_seed
from euchre.tournament.ratings import (
    ELO_SCALE,
    MU0,
    Ladder,
    Matchup,
    PairResult,
    Rating,
    Score,
    fit_ladder,
    rating_from_games,
)
from euchre.tournament.report import forfeits
from euchre.tournament.runner import run

RATE_SCHEMA = "euchre-rate/1"
#: The calibration: which levels play which, and how many duplicate sets (two games each).
#: Neighbours on the ladder play most (their games say the most about the gap between them);
#: a few pairs one step further apart check that the gaps add up. The sets are fewer where
#: ``expert`` (the search player, some 25 ms a decision) plays: about seven seconds a set on
#: a 2-core machine, against milliseconds for the rest.
CALIBRATION: tuple[tuple[str, str, int], ...] = (
    ("beginner", "random", 1000),
    ("casual", "beginner", 1000),
    ("club", "casual", 1000),
    ("casual", "random", 300),
    ("club", "beginner", 500),
    ("expert", "club", 160),
)
#: The level the scale is anchored at, and its rating: ``club``, a good table player's
#: habits, is the 1500 a newcomer starts at.
ANCHOR = "club"
#: Duplicate sets a batch of ``euchre rate`` plays at least, and at most.
MIN_BATCH = 8
MAX_BATCH = 512


def same_player(spec: str, level: str) -> bool:
    """Whether ``spec`` names the player ``level`` is (``rule`` is ``club``): a level is not
    rated against itself."""
    found = levels()
    a, b = found.get(spec), found.get(level)
    if a is None or b is None:
        return False
    return (a.same_as or a.name) == (b.same_as or b.name)


@dataclass
class RateResult:
    """What ``euchre rate`` measured: the rating and the games behind each part of it."""

    player: str
    rating: Rating | None
    matchups: list[Matchup]
    ladder: dict[str, Rating]
    precision: float
    seconds: float = 0.0
    interrupted: bool = False
    forfeits: int = 0
    faults: list[str] = field(default_factory=list)
    itself: frozenset[str] = frozenset()
    """The levels that are the rated player itself (never played, nor a place on the ladder)."""

    @property
    def reached(self) -> bool:
        """The interval is as narrow as asked."""
        return self.rating is not None and self.rating.half_width <= self.precision

    def place(self) -> str:
        """Where the rating falls among the levels: "between casual and club"."""
        if self.rating is None:
            return "not rated"
        order = sorted(((n, r) for n, r in self.ladder.items() if n not in self.itself),
                       key=lambda kv: kv[1].mu)
        below = [n for n, r in order if r.mu <= self.rating.mu]
        above = [n for n, r in order if r.mu > self.rating.mu]
        other = " other" if self.itself else ""  # search is not placed against expert
        if not below:
            return f"below {above[0]}, the weakest{other} level"
        if not above:
            return f"above {below[-1]}, the strongest{other} level"
        return f"between {below[-1]} and {above[0]}"

    def to_json(self) -> dict[str, Any]:
        r = self.rating
        return {
            "schema": RATE_SCHEMA, "player": self.player,
            "rating": None if r is None else {
                "mu": r.mu, "sigma": r.sigma, "low": r.low, "high": r.high, "games": r.games,
                "provisional": r.provisional},
            "place": self.place(), "precision": self.precision, "reached": self.reached,
            "games": sum(m.score.games for m in self.matchups),
            "against": [{"level": m.opponent, "level_rating": m.rating.to_dict(),
                         "games": m.score.games, "won": m.score.mean,
                         "rating": m.estimate()[0], "sigma": math.sqrt(m.estimate()[1])}
                        for m in self.matchups],
            "forfeits": self.forfeits, "faults": self.faults,
            "seconds": self.seconds, "interrupted": self.interrupted,
        }

    def to_text(self) -> str:
        games = sum(m.score.games for m in self.matchups)
        head = f"{self.player}: "
        if self.rating is None:
            return head + "no game finished: not rated"
        lines = [head + f"{self.rating.mu:.0f} ± {self.rating.half_width:.0f} (95%), "
                 f"{self.place()}: {games} games in {self.seconds:.1f} s"
                 + ("" if self.reached else
                    f" (not yet ± {self.precision:g}: play more with --max-games)")
                 + (" (interrupted)" if self.interrupted else "")]
        for m in self.matchups:
            mu, var = m.estimate()
            lines.append(f"  against {m.opponent} ({m.rating.mu:.0f} ± {m.rating.half_width:.0f})"
                         f": won {100 * m.score.mean:.1f}% of {m.score.games} games, "
                         f"{mu:.0f} ± {1.96 * math.sqrt(var):.0f}")
        if self.forfeits:
            lines.append(f"  forfeits: {self.forfeits} (the bot broke down)")
            lines += [f"    {f}" for f in self.faults]
        return "\n".join(lines)


@dataclass
class _Games:
    """The games so far against one level (sums over the batches)."""

    sets: list[float] = field(default_factory=list)
    """Each duplicate set's share of games won."""

    def score(self) -> Score:
        from euchre.tournament.stats import mean_ci

        ci = mean_ci(self.sets)
        return Score(ci.mean, ci.half_width, 2 * len(self.sets))


Progress = Callable[[str], None]


def _play(player: PlayerSpec, opponent: str, sets: int, seed: int, rules: Rules,
          workers: int, backend: str, address: str | None,
          move_time: float | None) -> tuple[list[float], int, list[str], bool, float]:
    """``sets`` duplicate sets of ``player`` against ``opponent``: each set's share of games
    won, the forfeits and their first diagnoses, whether it was interrupted, and its time."""
    spec = TournamentSpec((player, PlayerSpec(opponent)), rules, seed, games=True,
                          move_time=move_time)
    outcome = run(spec, sets, workers=workers, backend=backend, address=address)
    shares = [r.wins[0] / r.games for r in outcome.results]
    lost, faults = forfeits(outcome)
    return shares, lost[0], faults, outcome.interrupted, outcome.seconds


def rate(player: PlayerSpec, ladder: dict[str, Rating], *, precision: float = 35.0,
         max_games: int = 2000, seed: int = 0, workers: int = 1, backend: str = "processes",
         address: str | None = None, move_time: float | None = None,
         rules: Rules | None = None, progress: Progress | None = None) -> RateResult:
    """Play ``player`` against the ladder's levels until its rating's 95% interval is within
    ± ``precision`` or it played ``max_games`` games.

    Each batch plays the level nearest the rating so far (first ``club``, the middle), taking
    the nearest level above and the nearest below in turn once the rating lies between two, so
    the estimate rests on both sides of it; a level is never played against itself. A batch's
    size is what the interval so far says is still needed (at least :data:`MIN_BATCH` sets),
    and depends on results only, not on timing, so a seed gives the same run on any
    machine."""
    rules = rules or Rules()
    # The same level with options of its own (search:think=8) is another player.
    itself = frozenset(n for n in ladder if not player.options and same_player(player.name, n))
    candidates = {n: r for n, r in ladder.items() if n not in itself}
    if not candidates:
        raise ValueError("no level of the ladder to play against")
    played: dict[str, _Games] = {}
    result = RateResult(player.label, None, [], dict(ladder), precision, itself=itself)
    t0 = time.perf_counter()
    batch = 0
    turn = 0
    while True:
        games = sum(2 * len(g.sets) for g in played.values())
        current = result.rating
        if current is not None and (result.reached or games >= max_games):
            break
        if games >= max_games:
            break
        target = current.mu if current is not None else ladder.get(ANCHOR, Rating()).mu
        opponent = _next_opponent(candidates, target, turn)
        turn += 1
        sets = _batch_size(current, precision, games, workers)
        sets = max(1, min(sets, (max_games - games + 1) // 2))
        if progress is not None:
            progress(f"{sets} duplicate sets against {opponent}"
                     + (f" (so far {current})" if current is not None else ""))
        shares, lost, faults, interrupted, _ = _play(
            player, opponent, sets, derive_seed(seed, "rate", batch), rules, workers, backend,
            address, move_time)
        batch += 1
        played.setdefault(opponent, _Games()).sets.extend(shares)
        result.forfeits += lost
        result.faults = (result.faults + faults)[:3]
        result.matchups = [Matchup(n, ladder[n], g.score())
                           for n, g in sorted(played.items(), key=lambda kv: ladder[kv[0]].mu)
                           if g.sets]
        if result.matchups:
            result.rating = rating_from_games(result.matchups)
        if interrupted:
            result.interrupted = True
            break
    result.seconds = time.perf_counter() - t0
    return result


def _next_opponent(candidates: dict[str, Rating], target: float, turn: Seat) -> str:
    """The level nearest ``target``; with levels on both sides, the nearest above and the
    nearest below in turn."""
    below = [n for n, r in candidates.items() if r.mu <= target]
    above = [n for n, r in candidates.items() if r.mu > target]
    nearest_below = max(below, key=lambda n: candidates[n].mu, default=None)
    nearest_above = min(above, key=lambda n: candidates[n].mu, default=None)
    if nearest_below is None or nearest_above is None:
        return nearest_below or nearest_above  # type: ignore[return-value]
    # Only a level that a game can tell from the target brackets it: beyond 600 points either
    # way the games are all won or all lost, and say little.
    near = [n for n in (nearest_below, nearest_above) if abs(candidates[n].mu - target) < 600]
    if len(near) == 1:
        return near[0]
    return (nearest_below, nearest_above)[turn % 2]


def _batch_size(current: Rating | None, precision: float, games: int, workers: int) -> int:
    """Duplicate sets for the next batch: a first look (``MIN_BATCH`` a worker), then about
    what the interval so far says is still needed (the width shrinks with the square root of
    the games), never more than doubling the games so far."""
    if current is None or games == 0:
        return MIN_BATCH * max(1, workers) // 2 + MIN_BATCH // 2
    ratio = (current.half_width / precision) ** 2
    needed = math.ceil(games / 2 * max(0.0, ratio - 1) * 1.1)
    return max(MIN_BATCH, min(MAX_BATCH, needed, max(MIN_BATCH, games // 2)))


def calibrate(plan: Sequence[tuple[str, str, int]] = CALIBRATION, *, anchor: str = ANCHOR,
              anchor_rating: float = MU0, seed: int = 0, workers: int = 1,
              backend: str = "processes", address: str | None = None, command: str = "",
              progress: Progress | None = None) -> Ladder:
    """Play each pair of the plan (duplicate sets of games) and fit every level's rating
    (:func:`euchre.tournament.ratings.fit_ladder`), anchored at ``anchor``."""
    t0 = time.perf_counter()
    pairs: list[PairResult] = []
    for k, (a, b, sets) in enumerate(plan):
        if progress is not None:
            progress(f"{a} against {b}: {sets} duplicate sets")
        shares, _, _, interrupted, seconds = _play(
            PlayerSpec(a), b, sets, derive_seed(seed, "ladder", k), Rules(), workers, backend,
            address, None)
        if interrupted:
            raise KeyboardInterrupt
        g = _Games(shares)
        pairs.append(PairResult(a, b, g.score(), seconds))
        if progress is not None:
            d = g.score().difference()
            progress(f"  {a} won {100 * g.score().mean:.1f}% of {2 * sets} games: "
                     f"{d[0]:+.0f} ± {1.96 * d[1]:.0f} in {seconds:.0f} s")
    fitted = fit_ladder(pairs, anchor, anchor_rating)
    return Ladder(fitted, tuple(pairs), anchor, anchor_rating, time.strftime("%Y-%m-%d"),
                  command, time.perf_counter() - t0, workers, seed)


__all__ = ["ANCHOR", "CALIBRATION", "ELO_SCALE", "RATE_SCHEMA", "RateResult", "calibrate",
           "rate", "same_player"]
