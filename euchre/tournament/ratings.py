"""One rating scale for people and computer players: a partnership game's ratings.

**The model.** Weng and Lin's Bayesian rating for teams (the Bradley-Terry "full pairing"
model of the ``openskill`` library; Weng & Lin, *A Bayesian Approximation Method for Online
Ranking*, JMLR 2011), because Euchre is played by partnerships: a team's strength is the sum
of its players', each player's rating is a mean ``mu`` with an uncertainty ``sigma``, and a
finished game moves each player's rating by its share of the surprise, the least known players
the most. Glicko-2, lichess's system, rates one player against one; rating partnerships with it
needs a convention (a composite opponent) that this model does not.

**The scale.** Ratings start at 1500 ± 350, as on lichess. Settled, the model's odds follow
Elo's convention for a player on each side alike: a partnership whose two players are each
``d`` points above the other's two wins ``1 / (1 + 10 ** (-d / 400))`` of its games (100
points: 64%, 200: 76%, 400: 91%); that fixes ``BETA``. The computer levels' ratings come
from a calibration run between them (``euchre rate --levels``), anchored so that the ``club``
level, a good table player's habits, is 1500: the rating a newcomer starts at.

**Uncertainty.** Every rating carries its ``sigma``; it is shown as a 95% interval
(``1640 ± 35``: ``mu ± 1.96 sigma``) and called provisional while ``sigma`` is above
:data:`PROVISIONAL_SIGMA`, about the first 50 games of a person. ``TAU`` widens a person's
``sigma`` a little at every game, so a rating follows a player who improves.

Everything here is a pure function of values (no storage, no clock): the site stores
:class:`Rating` values (:meth:`Rating.to_dict`) and calls :func:`rate_game` when a rated game
ends; ``euchre rate`` estimates a bot's rating from duplicate games against the rated levels
(:func:`rating_from_games`), on the same scale.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from euchre.seats import Seat
from euchre.tournament.stats import Z95, MeanCI

#: Where every rating starts: the mean and the uncertainty of a player nobody has seen play.
MU0 = 1500.0
SIGMA0 = 350.0
#: Rating points per unit of log-odds: Elo's 400 points for odds of 10 to 1.
ELO_SCALE = 400 / math.log(10)
#: The model's performance spread. A team's strength is the sum of its two players', so a
#: difference of ``d`` a player is ``2 d`` between the partnerships, and the settled odds
#: ``exp(2 d / c)`` with ``c = sqrt(2) * BETA`` are Elo's ``10 ** (d / 400)`` when ``c`` is
#: twice the Elo scale.
BETA = ELO_SCALE * math.sqrt(2)
#: Uncertainty added to a player's rating at every game (squared, to its variance), so a
#: rating keeps following a player whose play changes: a hundredth of the starting one, as the
#: model's authors suggest.
TAU = SIGMA0 / 100
#: A rating is provisional while its sigma is above this: a 95% interval wider than about
#: ± 300 points, some 50 games of a person at a table with settled players.
PROVISIONAL_SIGMA = 150.0

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: the mean ``mu``, its uncertainty ``sigma`` (a standard deviation), and the rated
    games behind it. A plain value: stored as :meth:`to_dict`, never changed in place."""

    mu: float = MU0
    sigma: float = SIGMA0
    games: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.mu, bool) or not isinstance(self.mu, int | float) \
                or not math.isfinite(self.mu):
            raise ValueError(f"a rating's mu is a finite number, not {self.mu!r}")
        if isinstance(self.sigma, bool) or not isinstance(self.sigma, int | float) \
                or not math.isfinite(self.sigma) or self.sigma <= 0:
            raise ValueError(f"a rating's sigma is a positive number, not {self.sigma!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise ValueError(f"a rating's games are a whole number from 0, not {self.games!r}")

    @property
    def provisional(self) -> bool:
        """Still too uncertain to mean much (see :data:`PROVISIONAL_SIGMA`)."""
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def half_width(self) -> float:
        """Half the 95% interval: the ``35`` of ``1640 ± 35``."""
        return Z95 * self.sigma

    @property
    def low(self) -> float:
        return self.mu - self.half_width

    @property
    def high(self) -> float:
        return self.mu + self.half_width

    def __str__(self) -> str:
        text = f"{self.mu:.0f} ± {self.half_width:.0f}"
        return text + " (provisional)" if self.provisional else text

    def to_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rating:
        """The rating :meth:`to_dict` wrote; ValueError, saying what is wrong, for anything
        else."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a rating is a mapping with mu, sigma and games, not {data!r}")
        unknown = set(data) - {"mu", "sigma", "games"}
        if unknown:
            raise ValueError(f"a rating has mu, sigma and games, not {', '.join(sorted(unknown))}")
        return cls(data.get("mu", MU0), data.get("sigma", SIGMA0), data.get("games", 0))


def _c(sides: Sequence[Sequence[Rating]]) -> float:
    return math.sqrt(2 * BETA ** 2 + sum(r.sigma ** 2 for side in sides for r in side))


def win_probability(side: Sequence[Rating], other: Sequence[Rating]) -> float:
    """The chance that ``side`` wins a game against ``other``, by the model's own (logistic)
    link: uncertain ratings predict less confidently than settled ones."""
    if not side or not other:
        raise ValueError("each side has at least one player")
    diff = sum(r.mu for r in side) - sum(r.mu for r in other)
    return 1 / (1 + math.exp(-diff / _c((side, other))))


def _model(tau: float) -> Any:
    from openskill.models import BradleyTerryFull

    return BradleyTerryFull(mu=MU0, sigma=SIGMA0, beta=BETA, tau=tau)


def rate_game(sides: Sequence[Sequence[K]], ratings: Mapping[K, Rating], winner: Seat,
              fixed: frozenset[K] | set[K] = frozenset(), tau: float = TAU,
              shares: Sequence[Sequence[float]] | None = None) -> dict[K, Rating]:
    """The new ratings after one finished game: ``sides`` lists each side's players (ids into
    ``ratings``; one missing there is new, at :class:`Rating`'s defaults), ``winner`` is the
    index of the side that won (the others share second place). Returns a rating for every
    player of the game but those in ``fixed`` (ratings that must not move: the anchors of a
    measurement, or a computer that stood in for part of a game).

    A player may appear more than once (a computer level in both partnerships, or a bot in both
    seats of one): each appearance is rated as a player of its own, and the evidence of the
    appearances is added up (their precisions and precision-weighted means, as Gaussian
    beliefs combine), so a level on both sides of a game ends about where it was.

    ``shares`` (the same shape as ``sides``; 1 each if not given) is each appearance's part of
    the game, above 0 and at most 1: two players who held one seat in turn, say 0.75 and 0.25.
    This is partial play as TrueSkill models it: a side's performance is the sum of its
    appearances' skills each times its share, so a partial player's rating moves by its share
    of what a whole game would move it. OpenSkill's own ``weights`` are something else (a
    player's contribution to a win, rescaled within the team, a loss divided by it), so the
    model is given each appearance's skill scaled by its share (mean and uncertainty alike),
    which is exactly that linear model, and its answer is scaled back."""
    if len(sides) < 2 or any(not side for side in sides):
        raise ValueError("a game has at least two sides, each of at least one player")
    if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(sides):
        raise ValueError(f"winner is the index of a side, 0..{len(sides) - 1}, not {winner!r}")
    if not tau >= 0:
        raise ValueError(f"tau is a number from 0, not {tau!r}")
    if shares is None:
        shares = [[1.0] * len(side) for side in sides]
    if len(shares) != len(sides) or any(len(w) != len(side) or not all(
            isinstance(x, int | float) and not isinstance(x, bool) and 0 < x <= 1 for x in w)
            for w, side in zip(shares, sides, strict=False)):
        raise ValueError("shares: a number above 0 and at most 1 for each player of each "
                         f"side, not {shares!r}")
    model = _model(0.0)  # the priors are widened by tau here, once per player
    before = {k: ratings.get(k, Rating()) for side in sides for k in side}
    widened = {k: math.sqrt(r.sigma ** 2 + tau ** 2) for k, r in before.items()}
    teams = [[model.rating(mu=w * before[k].mu, sigma=w * widened[k])
              for k, w in zip(side, ws, strict=True)] for side, ws in zip(sides, shares,
                                                                           strict=True)]
    ranks = [0 if i == winner else 1 for i in range(len(sides))]
    result = model.rate(teams, ranks=ranks)
    # Each appearance adds what it learned: its posterior's natural parameters (precision and
    # precision times mean) less those of the prior it started from, widened by tau (once per
    # game, so tau is not counted twice for a player seen twice).
    precision = {k: 1 / s ** 2 for k, s in widened.items()}
    weighted = {k: before[k].mu / s ** 2 for k, s in widened.items()}
    for side, ws, rated in zip(sides, shares, result, strict=True):
        for k, w, r in zip(side, ws, rated, strict=True):
            p0 = 1 / widened[k] ** 2
            mu, sigma = r.mu / w, r.sigma / w
            precision[k] += 1 / sigma ** 2 - p0
            weighted[k] += mu / sigma ** 2 - before[k].mu * p0
    out: dict[K, Rating] = {}
    for k, prior in before.items():
        if k in fixed:
            continue
        total = max(precision[k], 1 / widened[k] ** 2)
        out[k] = Rating(weighted[k] / total, math.sqrt(1 / total), prior.games + 1)
    return out


# ---------------------------------------------------------------------------------------------
# Ratings measured from duplicate games: `euchre rate` and the ladder's calibration


@dataclass(frozen=True, slots=True)
class Score:
    """A player's share of games won against one opponent, over duplicate sets (a game to the
    target from every seating on the same deals): the mean share of a set, its 95% interval's
    half width, and the games behind it."""

    mean: float
    half_width: float
    games: int

    def __post_init__(self) -> None:
        if not 0 <= self.mean <= 1 or not self.half_width >= 0 or self.games < 1:
            raise ValueError(f"a score is a share of at least one game, not {self!r}")

    @classmethod
    def of(cls, win_rate: MeanCI, games: int) -> Score:
        """From a tournament's games-mode win rate (:func:`euchre.tournament.summarize`)."""
        return cls(win_rate.mean, win_rate.half_width, games)

    def difference(self) -> tuple[float, float]:
        """The rating difference (the player's minus the opponent's) this share of wins means on
        the scale, and its standard error.

        The share is pulled half a game towards even (so a clean sweep is a large finite
        difference, not an infinite one), and its error is never taken below half the
        binomial one: duplicate sets cancel much of the luck (the measured spread is about a
        third of the binomial variance), but a sample with no spread at all says nothing
        about it."""
        q = (self.mean * self.games + 0.5) / (self.games + 1)
        se = max(self.half_width / Z95, math.sqrt(q * (1 - q) / self.games) / 2)
        return ELO_SCALE * math.log(q / (1 - q)), ELO_SCALE * se / (q * (1 - q))


@dataclass(frozen=True, slots=True)
class Matchup:
    """A player's games against one rated opponent."""

    opponent: str
    rating: Rating
    """The opponent's rating."""
    score: Score

    def estimate(self) -> tuple[float, float]:
        """(the player's rating, its variance) from these games alone: the opponent's rating
        plus the difference, the opponent's own uncertainty added to the games'."""
        d, se = self.score.difference()
        return self.rating.mu + d, se ** 2 + self.rating.sigma ** 2


def rating_from_games(matchups: Sequence[Matchup]) -> Rating:
    """A player's rating from its games against rated opponents: each opponent's estimate
    weighted by how precise it is (inverse variance). The interval counts the opponents' own
    uncertainty, so it is never narrower than the ladder's."""
    if not matchups:
        raise ValueError("no games to rate from")
    weights = 0.0
    total = 0.0
    for m in matchups:
        mu, var = m.estimate()
        weights += 1 / var
        total += mu / var
    return Rating(total / weights, math.sqrt(1 / weights), sum(m.score.games for m in matchups))


@dataclass(frozen=True, slots=True)
class PairResult:
    """Duplicate games between two levels of the ladder (``a``'s score)."""

    a: str
    b: str
    score: Score
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "games": self.score.games,
                "a_won": self.score.mean, "half_width": self.score.half_width,
                "difference": self.score.difference()[0], "seconds": round(self.seconds, 1)}


def fit_ladder(pairs: Sequence[PairResult], anchor: str,
               anchor_rating: float = MU0) -> dict[str, Rating]:
    """Every level's rating from games between pairs of them: the differences the pairs show,
    fitted by weighted least squares (each pair weighted by its precision), with ``anchor``
    fixed at ``anchor_rating``. A level's ``sigma`` is its standard error relative to the
    anchor (whose own is taken as nil: the scale is defined by it), from the fit's covariance;
    ``games`` counts the games it played."""
    names = sorted({p.a for p in pairs} | {p.b for p in pairs} | {anchor})
    reached = {anchor}
    grew = True
    while grew:
        grew = False
        for p in pairs:
            if (p.a in reached) != (p.b in reached):
                reached |= {p.a, p.b}
                grew = True
    if len(reached) < len(names):
        lost = ", ".join(n for n in names if n not in reached)
        raise ValueError(f"no games connect {lost} to the anchor of the ladder, {anchor}")
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    size = len(free)
    normal = [[0.0] * size for _ in range(size)]
    rhs = [0.0] * size
    for p in pairs:
        d, se = p.score.difference()
        w = 1 / se ** 2
        ia, ib = index.get(p.a), index.get(p.b)
        # a - b = d, with the anchor's rating a known constant.
        const = (anchor_rating if p.b == anchor else 0.0) - \
            (anchor_rating if p.a == anchor else 0.0)
        for i, sign in ((ia, 1.0), (ib, -1.0)):
            if i is None:
                continue
            rhs[i] += sign * w * (d + const)
            for j, sign2 in ((ia, 1.0), (ib, -1.0)):
                if j is not None:
                    normal[i][j] += sign * sign2 * w
    covariance = _inverse(normal, free)
    solution = [sum(covariance[i][j] * rhs[j] for j in range(size)) for i in range(size)]
    games = {n: 0 for n in names}
    for p in pairs:
        games[p.a] += p.score.games
        games[p.b] += p.score.games
    out = {anchor: Rating(anchor_rating, 1e-9, games[anchor])}
    for n, i in index.items():
        out[n] = Rating(solution[i], math.sqrt(covariance[i][i]), games[n])
    return out


def _inverse(m: list[list[float]], names: list[str]) -> list[list[float]]:
    """A small symmetric matrix's inverse by Gauss-Jordan elimination (the normal equations
    of a connected ladder, which are never singular)."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:  # pragma: no cover - connectedness is checked first
            raise ValueError(f"the ladder's fit is singular at {names[col]}")
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


# ---------------------------------------------------------------------------------------------
# The ladder file

LADDER_SCHEMA = "euchre-ladder/1"


@dataclass(frozen=True, slots=True)
class Ladder:
    """The calibration run's result (``euchre rate --levels``), as the package ships it in
    ``euchre/bots/data/ladder.json``::

        {"schema": "euchre-ladder/1", "date": "2026-12-06", "command": "euchre rate --levels",
         "seconds": 1234.5, "workers": 2, "seed": 0, "anchor": "club", "anchor_rating": 1500,
         "levels": {"club": {"mu": 1500, "sigma": 1e-9, "games": 4000}, ...},
         "pairs": [{"a": "club", "b": "casual", "games": 2000, "a_won": 0.8,
                    "half_width": 0.016, "difference": 240.1, "seconds": 21.3}, ...]}
    """

    levels: dict[str, Rating]
    pairs: tuple[PairResult, ...]
    anchor: str
    anchor_rating: float
    date: str
    command: str
    seconds: float
    workers: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        order = sorted(self.levels, key=lambda n: self.levels[n].mu)
        return {"schema": LADDER_SCHEMA, "date": self.date, "command": self.command,
                "seconds": round(self.seconds, 1), "workers": self.workers, "seed": self.seed,
                "anchor": self.anchor, "anchor_rating": self.anchor_rating,
                "levels": {n: self.levels[n].to_dict() for n in order},
                "pairs": [p.to_dict() for p in self.pairs]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ladder:
        if data.get("schema") != LADDER_SCHEMA:
            raise ValueError(f"not a ladder file of schema {LADDER_SCHEMA}")
        pairs = tuple(PairResult(p["a"], p["b"], Score(p["a_won"], p["half_width"], p["games"]),
                                 p.get("seconds", 0.0)) for p in data["pairs"])
        return cls({n: Rating.from_dict(r) for n, r in data["levels"].items()}, pairs,
                   data["anchor"], data["anchor_rating"], data["date"], data["command"],
                   data["seconds"], data["workers"], data["seed"])


def load_ladder(path: str | Path | None = None) -> Ladder:
    """The shipped ladder (or the one at ``path``); ValueError saying what is wrong."""
    from euchre.bots.registry import LADDER_FILE

    file = Path(path) if path is not None else LADDER_FILE
    try:
        return Ladder.from_dict(json.loads(file.read_text(encoding="utf-8")))
    except OSError as exc:
        raise ValueError(f"cannot read the ladder {file}: {exc.strerror or exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{file} is not a ladder file: {exc}") from None


def level_rating(name: str) -> Rating | None:
    """A computer level's rating as the calibration measured it (``rule`` is ``club``'s), to
    seed it on a site that has not rated it yet; None for a level that was not calibrated."""
    from euchre.bots.registry import ladder_rating

    found = ladder_rating(name)
    return None if found is None else Rating(found.mu, found.sigma, found.games)
