"""The one evaluation service behind hints, reviews and advice: every option of a decision
valued for a named objective, with its standard error, and settled or called a close call.

Every option is valued on the same sampled deals (common random numbers, see
:mod:`euchre.analysis.values`), so two options are compared by their paired difference, whose
error is far below either value's. Deals are drawn a chunk at a time until the best option
leads the next by more than :data:`SEPARATION` standard errors of that difference, or the deal
or time budget runs out; then the answer is a *close call*, not a winner. Stopping only once
the lead is clear leaves the winner's values slightly optimistic, which is why a review
measures losses on deals of their own (:mod:`euchre.analysis.review`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from euchre import actions as A
from euchre.analysis.values import OBJECTIVES, Objective, Values, default_objective, evaluate
from euchre.cards import card_symbol
from euchre.view import SeatView

__all__ = [
    "SEPARATION",
    "Assessment",
    "OptionValue",
    "assess",
    "assessment_words",
    "hint",
    "option_label",
    "signed",
]

#: Standard errors of the paired difference by which the best option must lead the next to
#: be called the best (about a 2.5% chance that a true tie looks settled).
SEPARATION = 2.0
#: Deals before the first look at whether the answer is settled.
MIN_DEALS = 24
#: The most deals one assessment draws, and its default time budget in seconds.
MAX_DEALS = 2000
SECONDS = 0.4


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option under the assessment's objective."""

    action: int
    value: float
    """The chance to win the game (0..1) or net points this hand, as the objective says."""
    se: float
    """Standard error of ``value``."""
    points: float
    """Expected net points this hand, whatever the objective (an expected result, not a cost)."""
    points_se: float
    behind: float
    """How much worse than the best option (0 for the best), paired deal by deal."""
    behind_se: float


@dataclass(frozen=True, slots=True)
class Assessment:
    view: SeatView
    objective: Objective
    options: tuple[OptionValue, ...]
    """Best first."""
    deals: int
    values: Values

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    @property
    def close(self) -> bool:
        """The best option does not lead the next beyond its error."""
        if len(self.options) < 2:
            return False
        nxt = self.options[1]
        return not nxt.behind > SEPARATION * nxt.behind_se

    @property
    def equal(self) -> bool:
        """The best two options came to the same on every deal (equivalent cards)."""
        return len(self.options) >= 2 and self.options[1].behind_se == 0.0 \
            and self.options[1].behind == 0.0

    @property
    def objective_words(self) -> str:
        return OBJECTIVES[self.objective]


def bid_phrase(a: int, view: SeatView) -> str:
    """A bid in words: 'Order up', 'Pick it up alone' (the dealer), 'Call ♥', 'Pass'."""
    dealer = view.seat == view.dealer
    if a == A.ORDER:
        return "Pick it up" if dealer else "Order up"
    if a == A.ORDER_ALONE:
        return "Pick it up alone" if dealer else "Order up alone"
    if A.CALL_BASE <= a < A.CALL_BASE + 4:
        from euchre.cards import SUIT_SYMBOLS

        return f"Call {SUIT_SYMBOLS[a - A.CALL_BASE]}"
    if A.CALL_ALONE_BASE <= a < A.CALL_ALONE_BASE + 4:
        from euchre.cards import SUIT_SYMBOLS

        return f"Call {SUIT_SYMBOLS[a - A.CALL_ALONE_BASE]} alone"
    if a == A.PASS:
        return "Pass"
    label = A.action_label(a)
    return label[:1].upper() + label[1:]


def option_label(a: int, view: SeatView) -> str:
    """An option as a player reads it: '9♦', 'Bury K♣', 'Order up', 'Call ♥ alone'."""
    if A.is_play(a):
        return card_symbol(a)
    if A.is_discard(a):
        return f"Bury {card_symbol(a - A.DISCARD_BASE)}"
    return bid_phrase(a, view)


def _ranked(values: Values, objective: Objective) -> list[int]:
    est = {a: values.mean_se(a, objective)[0] for a in values.samples}
    pts = {a: values.mean_se(a, "points")[0] for a in values.samples}
    return sorted(est, key=lambda a: (-round(est[a], 9), -round(pts[a], 9), a))


def _settled(objective: Objective) -> Callable[[Values], bool]:
    def settled(values: Values) -> bool:
        order = _ranked(values, objective)
        if len(order) < 2:
            return True
        gap, se = values.diff_se(order[0], order[1], objective)
        # The same result on every deal so far: equivalent cards (the 9 and 10 of a suit that
        # cannot win a trick), which more deals would not tell apart.
        return gap > SEPARATION * se or se == 0.0
    return settled


def assess(view: SeatView, objective: Objective | None = None, *, seed: int = 0,
           seconds: float | None = SECONDS, max_deals: int = MAX_DEALS,
           min_deals: int = MIN_DEALS, options: Sequence[int] | None = None) -> Assessment:
    """Every option of ``view``'s decision (or only ``options``) for ``objective`` (by default
    the game when the score is known, else points), sampled until the best is settled or
    ``max_deals``/``seconds`` run out. The same view, seed and deal budget (no ``seconds``)
    give the same answer."""
    obj = objective or default_objective(view)
    if obj == "win" and default_objective(view) != "win":
        raise ValueError("the chance to win the game needs a two-sided game with a known "
                         "score; value points instead")
    settled = _settled(obj)
    values = evaluate(view, max_deals, random.Random(seed), options=options, seconds=seconds,
                      min_deals=min(min_deals, max_deals),
                      until=settled)
    return valued(view, values, obj)


def valued(view: SeatView, values: Values, objective: Objective) -> Assessment:
    """An :class:`Assessment` of values already sampled."""
    order = _ranked(values, objective)
    top = order[0]
    out = []
    for a in order:
        v, se = values.mean_se(a, objective)
        p, pse = values.mean_se(a, "points")
        gap, gse = (0.0, 0.0) if a == top else values.diff_se(top, a, objective)
        out.append(OptionValue(a, v, se, p, pse, gap, gse))
    return Assessment(view, objective, tuple(out), values.deals, values)


def signed(x: float, digits: int = 1) -> str:
    """A number with a true minus sign: '+0.4', '−0.9'."""
    return f"{x:+.{digits}f}".replace("-", "−")


def _amount(x: float, se: float, objective: Objective, sign: bool = False) -> str:
    """``x`` ± its 95% half-width, in the objective's unit."""
    ci = 1.96 * se
    if objective == "win":
        d = 1 if 100 * ci < 1 else 0
        return f"{100 * x:.{d}f}% ± {100 * ci:.{d}f}%" if ci < 1 else f"{100 * x:.0f}%"
    num = signed(x) if sign else f"{x:.1f}"
    return f"{num} ± {ci:.1f}" if ci < 10 else num


def assessment_words(a: Assessment, you: str = "you") -> str:
    """The answer in words: what the best option is expected to bring (a result, not a cost),
    how much worse each other option is, or that the options are too close to call, and by
    which objective over how many deals."""
    best = a.best
    label = option_label(best.action, a.view)
    hand = (f"{you} expect {_amount(best.points, best.points_se, 'points', True)} points this "
            "hand")
    rest = a.options[1:]
    if a.objective == "win":
        head = (f"{label}: {_amount(best.value, best.se, 'win')} to win the game; {hand}")
    else:
        head = f"{label}: {hand}"
    unit = " points" if a.objective == "points" else ""
    if not rest:
        body = f"{head}."
    elif a.equal:
        body = (f"{head}; {option_label(rest[0].action, a.view)} comes to the same on every "
                "deal.")
    else:
        worse = [f"{option_label(o.action, a.view)} is "
                 f"{_amount(o.behind, o.behind_se, a.objective)}{unit} worse" for o in rest]
        body = (f"{head}; a close call: {worse[0]}, within the error"
                + "".join(f", {w}" for w in worse[1:]) + "." if a.close
                else f"{head}; {', '.join(worse)}.")
    return f"{body}{_points_disagree(a)} Judged by {a.objective_words}, over {a.deals} deals."


def _points_disagree(a: Assessment) -> str:
    """Why the game's best option is not the hand's, when the points rank another first: near
    the end of a game some points win or save it and others are worth nothing."""
    if a.objective != "win" or len(a.options) < 2:
        return ""
    top = max(a.options, key=lambda o: o.points)
    if top is a.best or top.points - a.best.points <= 2 * top.points_se:
        return ""
    sc = a.view.scores
    mine = a.view.side_of()
    at = f"{sc[mine]}-{sc[1 - mine]}"
    return (f" On points alone {option_label(top.action, a.view)} is ahead "
            f"({signed(top.points)} against {signed(a.best.points)} this hand), but at {at} "
            "the points that win or save the game are what count.")


def hint(view: SeatView, seed: int = 0, think: object = None) -> tuple[int, str] | None:
    """(the option to play, why in words) for the seat to move: the terminal's and the
    browser's hint. ``think`` is the search players' budget (deals, or a time such as '0.5s');
    by default :data:`SECONDS`. None where the service cannot value the decision (a renege
    claim, which the rules decide; rows, which the solver cannot play): ask a player then."""
    if view.phase == "claim" or view.rules.rows or not view.legal_actions:
        return None
    lawful = view.lawful_cards() if view.phase == "play" else list(view.legal_actions)
    if len(lawful) == 1:
        (only,) = lawful
        return only, f"{option_label(only, view)} is your only lawful choice."
    from euchre.bots.search import parse_think

    if think is None:
        a = assess(view, seed=seed)
    else:
        t = parse_think(think)
        if t.seconds is not None:
            a = assess(view, seed=seed, seconds=t.seconds)
        else:  # a deal count: deterministic for a seed
            a = assess(view, seed=seed, seconds=None, max_deals=max(2 * t.samples, 8),
                       min_deals=max(2 * t.samples, 8))
    return a.best.action, assessment_words(a)
