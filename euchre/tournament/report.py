"""A tournament's figures: as text for people, as JSON for scripts, as a running-margin plot.

JSON schema (``"schema": "euchre-tournament/1"``; every mean comes as
``{"mean", "low", "high", "n"}``, a 95% interval over ``n`` duplicate sets)::

    {
      "schema": "euchre-tournament/1",
      "players": ["rule", "random"],          # player 0, player 1, as given
      "rules": {...},                         # Rules.to_dict(): fields that differ from defaults
      "seed": 0,
      "mode": "hands" | "games",
      "requested_units": 5000,                # deals (hands mode) or games (games mode)
      "units": 5000,                          # finished (fewer when interrupted)
      "seatings": 2,                          # each unit is played once per seating
      "hands": 10000,                         # hands played in all
      "complete": true, "interrupted": false,
      "sides": [                              # one entry per player, in order
        {"player": "rule", "points_per_hand": {...}, "games": 0, "games_won": 0,
         "win_rate": {...} | null,            # games mode: the share of games won
         "decisions": 123,                    # decisions timed, by "clock"
         "think_ms_mean": 0.01, "think_ms_p50": 0.01, "think_ms_p95": 0.02, "think_ms_max": 0.4,
         "forfeits": 0}                       # units lost because its bot broke down
      ],
      "think": "0.5s" | null,                 # --think: both players' budget unless their own
      "paired_seeds": false,
      "clock": "wall" | "cpu",                # how decisions were timed
      "faults": ["bot 'x' (cmd:...) exited ..."],  # the first few forfeits' diagnoses
      "margin": {...},                        # player 0 minus player 1, points per hand
      "significant": true,                    # the margin's interval excludes 0
      "leader": "rule" | null,                # the significantly stronger player
      "backend": "processes", "workers": 2, "seconds": 12.3,
      "split": [                              # hands mode, two seatings, our bots only:
        {"where": "round one, dealer",        # where a deal's two seatings first differed
         "deals": 217, "margin": {...},       # the margin per hand on those deals
         "contribution": 0.031}               # their share of the whole margin (sums to it)
      ] | null
    }
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from euchre.tournament.core import SAME
from euchre.tournament.runner import Outcome
from euchre.tournament.stats import MeanCI, mean_ci, running_mean_ci

SCHEMA = "euchre-tournament/1"
#: The split's bin for deals a bot forfeited (it broke down before they were played out).
FORFEITED = "forfeited"


@dataclass(frozen=True, slots=True)
class Summary:
    """The statistics of an outcome (None where no unit finished)."""

    per_hand: tuple[MeanCI, MeanCI] | None
    margin: MeanCI | None
    win_rate: tuple[MeanCI, MeanCI] | None
    hands: int
    games: int
    wins: tuple[int, int]

    @property
    def leader(self) -> int | None:
        """The player the margin's interval favours, or None when it includes 0."""
        if self.margin is None or not self.margin.excludes_zero:
            return None
        return 0 if self.margin.mean > 0 else 1


def summarize(outcome: Outcome) -> Summary:
    rs = outcome.results
    hands = sum(r.hands for r in rs)
    games = sum(r.games for r in rs)
    wins = (sum(r.wins[0] for r in rs), sum(r.wins[1] for r in rs))
    if not rs:
        return Summary(None, None, None, 0, 0, (0, 0))
    per_hand = (mean_ci([r.per_hand(0) for r in rs]), mean_ci([r.per_hand(1) for r in rs]))
    win_rate = None
    if outcome.spec.games:
        win_rate = (mean_ci([r.wins[0] / r.games for r in rs]),
                    mean_ci([r.wins[1] / r.games for r in rs]))
    return Summary(per_hand, mean_ci([r.margin for r in rs]), win_rate, hands, games, wins)


@dataclass(frozen=True, slots=True)
class ThinkTimes:
    """One player's decision times in milliseconds (all 0 when it took no decision)."""

    decisions: int
    mean: float
    p50: float
    p95: float
    max: float

    def __str__(self) -> str:
        return (f"decisions p50 {self.p50:.3f} ms, p95 {self.p95:.3f} ms, "
                f"max {self.max:.1f} ms, mean {self.mean:.3f} ms over {self.decisions}")


def think_times(outcome: Outcome, e: int) -> ThinkTimes:
    """Player ``e``'s decision times over every finished unit (percentiles to 1%: see
    :class:`~euchre.tournament.stats.TimeHistogram`)."""
    h = outcome.times[e]
    if not h.n:
        return ThinkTimes(0, 0.0, 0.0, 0.0, 0.0)
    return ThinkTimes(h.n, 1000 * h.mean, 1000 * h.quantile(0.5), 1000 * h.quantile(0.95),
                      1000 * h.max)


#: Forfeit diagnoses a report quotes (the rest are counted).
FAULTS_SHOWN = 3


def forfeits(outcome: Outcome) -> tuple[tuple[int, int], list[str]]:
    """Units each player forfeited (its bot broke down), and the first diagnoses."""
    rs = outcome.results
    counts = (sum(r.forfeits[0] for r in rs), sum(r.forfeits[1] for r in rs))
    return counts, [r.fault for r in rs if r.fault][:FAULTS_SHOWN]


@dataclass(frozen=True, slots=True)
class SplitRow:
    """The deals whose two seatings first differed at ``where``, and their margin."""

    where: str
    margin: MeanCI
    contribution: float
    """Their margin summed, over every deal finished: the rows add up to the whole margin."""

    def to_dict(self) -> dict[str, Any]:
        return {"where": self.where, "deals": self.margin.n, "margin": self.margin.to_dict(),
                "contribution": self.contribution}


def split(outcome: Outcome) -> list[SplitRow] | None:
    """The margin binned by where each deal's seatings first differed, the largest share of
    the margin first (deals played alike last): which decisions an edge comes from. None
    where the units carry no split (games, cutthroat's six seatings, the OpenSpiel peers)."""
    rs = outcome.results
    bins: dict[str, list[float]] = {}
    for r in rs:
        where = r.split or (FORFEITED if r.fault else "")
        if not where:
            return None
        bins.setdefault(where, []).append(r.margin)
    if not bins:
        return None
    rows = [SplitRow(where, mean_ci(ms), math.fsum(ms) / len(rs)) for where, ms in bins.items()]
    rows.sort(key=lambda row: (row.where == SAME, -abs(row.contribution), row.where))
    return rows


def split_text(rows: list[SplitRow], names: list[str]) -> list[str]:
    """The split as lines under the margin."""
    width = max(len(row.where) for row in rows)
    lines = [f"  where the two seatings first differed (margin {names[0]} - {names[1]} per "
             "hand on those deals; its share of the whole margin):"]
    for row in rows:
        m = row.margin
        deals = f"{m.n} deal{'s' if m.n != 1 else ''}"
        lines.append(f"    {row.where:<{width}}  {deals:>11}  {m.mean:+.3f} "
                     f"({m.low:+.3f} .. {m.high:+.3f})  share {row.contribution:+.4f}")
    return lines


def to_json(outcome: Outcome) -> dict[str, Any]:
    s = summarize(outcome)
    lost, faults = forfeits(outcome)
    spec = outcome.spec
    sides = []
    for e, p in enumerate(spec.players):
        t = think_times(outcome, e)
        sides.append({
            "player": p.label,
            "points_per_hand": s.per_hand[e].to_dict() if s.per_hand else None,
            "games": s.games,
            "games_won": s.wins[e],
            "win_rate": s.win_rate[e].to_dict() if s.win_rate else None,
            "decisions": t.decisions,
            "think_ms_mean": t.mean,
            "think_ms_p50": t.p50,
            "think_ms_p95": t.p95,
            "think_ms_max": t.max,
            "forfeits": lost[e],
        })
    leader = s.leader
    return {
        "schema": SCHEMA,
        "players": [p.label for p in spec.players],
        "rules": spec.rules.to_dict(),
        "seed": spec.seed,
        "mode": "games" if spec.games else "hands",
        "requested_units": outcome.requested,
        "units": len(outcome.results),
        "seatings": len(spec.seatings),
        "hands": s.hands,
        "complete": outcome.complete,
        "interrupted": outcome.interrupted,
        "sides": sides,
        "think": spec.think,
        "paired_seeds": spec.paired_seeds,
        "clock": spec.clock,
        "faults": faults,
        "margin": s.margin.to_dict() if s.margin else None,
        "significant": leader is not None,
        "leader": spec.players[leader].label if leader is not None else None,
        "backend": outcome.backend,
        "workers": outcome.workers,
        "seconds": outcome.seconds,
        "split": [row.to_dict() for row in rows] if (rows := split(outcome)) else None,
    }


def to_text(outcome: Outcome, with_split: bool = False) -> str:
    """The result as a few lines a person reads (``with_split``: and :func:`split`)."""
    s = summarize(outcome)
    spec = outcome.spec
    names = [p.label for p in spec.players]
    unit = "games" if spec.games else "deals"
    lines = [
        f"{names[0]} vs {names[1]}: {len(outcome.results)} {unit}"
        f"{'' if outcome.complete else f' of {outcome.requested} (interrupted)'}, "
        f"each played from {len(spec.seatings)} seatings: {s.hands} hands "
        f"in {outcome.seconds:.1f} s ({outcome.backend}, {outcome.workers} "
        f"worker{'s' if outcome.workers != 1 else ''}, seed {spec.seed})",
    ]
    if s.per_hand is None or s.margin is None:
        lines.append("No deal finished: nothing to report.")
        return "\n".join(lines)
    width = max(len(n) for n in names)
    for e, name in enumerate(names):
        ci = s.per_hand[e]
        line = (f"  {name:<{width}}  {ci.mean:6.3f} points/hand "
                f"(95% CI {ci.low:.3f} .. {ci.high:.3f})")
        if spec.games:
            line += f"  games won {s.wins[e]} of {s.games}"
        lines.append(line)
    m = s.margin
    verdict = (f"significant: {names[s.leader]} is stronger" if s.leader is not None
               else "not significant: the interval includes 0")
    lines.append(f"  margin {names[0]} - {names[1]}: {m.mean:+.3f} points/hand "
                 f"(95% CI {m.low:+.3f} .. {m.high:+.3f}), {verdict}")
    rows = split(outcome) if with_split else None
    if rows:
        lines += split_text(rows, names)
    setup = [f"think {spec.think}"] if spec.think else []
    setup += ["paired seeds"] if spec.paired_seeds else []
    lines.append(f"  time per decision ({spec.clock} clock"
                 f"{'; ' + ', '.join(setup) if setup else ''}):")
    for e, name in enumerate(names):
        t = think_times(outcome, e)
        if t.decisions:
            lines.append(f"    {name:<{width}}  {t}")
    lost, faults = forfeits(outcome)
    if any(lost):
        unit1 = unit[:-1]
        lines.append("  forfeits (a bot broke down; the other player took the "
                     f"{unit1}): " + ", ".join(f"{names[e]} {lost[e]}" for e in (0, 1)))
        lines += [f"    {fault}" for fault in faults]
    return "\n".join(lines)


def plot(outcome: Outcome, path: str) -> None:
    """The running margin (player 0 minus player 1, points per hand) after each duplicate set,
    with its 95% band, against hands played. Needs matplotlib (the ``plot`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rs = outcome.results
    if not rs:
        raise ValueError("no deal finished: nothing to plot")
    means, lows, highs = running_mean_ci([r.margin for r in rs])
    x: list[int] = []
    hands = 0
    for r in rs:
        hands += r.hands
        x.append(hands)
    names = [p.label for p in outcome.spec.players]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.fill_between(x, lows, highs, alpha=0.3, label="95% confidence interval")
    ax.plot(x, means, label=f"margin {names[0]} - {names[1]}")
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("hands played (duplicate)")
    ax.set_ylabel("points per hand")
    last = means[-1]
    half = (highs[-1] - lows[-1]) / 2
    ax.set_title(f"{names[0]} vs {names[1]}: {last:+.3f} ± {half:.3f} points/hand")
    if len(x) > 1 and math.isfinite(half):
        ax.set_xlim(x[0], x[-1])
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
