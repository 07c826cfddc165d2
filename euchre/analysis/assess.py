"""The one evaluation service behind hints, reviews and advice: every option of a decision
valued for a named objective, with its standard error, and settled or called a close call.
Its numbers come from the valuation pipeline the search player decides with
(:mod:`euchre.bots.valuation`).

Every option is valued on the same sampled deals (common random numbers, see
:mod:`euchre.analysis.values`), so two options are compared by their paired difference, whose
error is far below either value's. Deals are drawn a chunk at a time, and the answer is looked
at after every chunk from :data:`FIRM_FLOOR` deals on; it is *firm* once the best option leads
every other beyond an always-valid confidence sequence for their difference
(:func:`firm_z`), which holds however many times it is looked at: a true tie is called firm in
at most :data:`FIRM_ALPHA` of the asks, whenever the sampling stops (a test measures it). Past
the deal or time budget the answer is a *close call*, not a winner. Stopping only once the lead
is clear leaves the winner's values slightly optimistic, which is why a review measures losses
on deals of their own (:mod:`euchre.analysis.review`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from euchre.analysis.values import (
    OBJECTIVES,
    Z95,
    Objective,
    OptionValue,
    Values,
    default_objective,
    evaluate,
)
from euchre.cards import EFFECTIVE_SUIT, POWER, deck_cards
from euchre.phases import Phase
from euchre.solver import solvable
from euchre.view import SeatView
from euchre.words import option_words

__all__ = [
    "FIRM_ALPHA",
    "FIRM_FLOOR",
    "SEPARATION",
    "Assessment",
    "OptionValue",
    "amount",
    "assess",
    "assessment_words",
    "equivalent_cards",
    "firm",
    "firm_z",
    "hint",
    "hint_assessment",
    "objectives_differ",
    "option_words",
    "score_stakes",
    "signed",
    "span",
]

#: Standard errors by which one option leads another in a single look at a fixed number of
#: deals (the reference set's separations): about a 2.5% chance that a tie looks separated.
SEPARATION = 2.0
#: The most a true tie may be called firm, over every look at it (two-sided, either option).
FIRM_ALPHA = 0.05
#: No answer is firm on fewer deals than this (a few deals tell little of a value's spread).
FIRM_FLOOR = 48
#: The deal count at which the firm boundary is tightest: about what the hint's time allows.
FIRM_TUNED = 128
#: Deals before the first look at whether the answer is firm.
MIN_DEALS = FIRM_FLOOR
#: The most deals one assessment draws, and its default time budget in seconds.
MAX_DEALS = 2000
SECONDS = 0.4


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
    def settled(self) -> bool:
        """The best option leads every other firmly (:func:`firm`), but those that came to the
        same on every deal (equivalent cards, which no number of deals tells apart)."""
        return all(o.firm or _same(o) for o in self.options[1:])

    @property
    def close(self) -> bool:
        """Some option that is not the best's equal is within the error of the best: a close
        call, not a winner."""
        return not self.settled

    @property
    def equal(self) -> bool:
        """The best two options came to the same on every deal (equivalent cards)."""
        return len(self.options) >= 2 and _same(self.options[1])

    @property
    def z(self) -> float:
        """Standard errors of a difference that make it firm here (:func:`firm_z`)."""
        return firm_z(self.values.n_eff)

    @property
    def objective_words(self) -> str:
        return OBJECTIVES[self.objective]


def _same(o: OptionValue) -> bool:
    return o.behind == 0.0 and o.behind_se == 0.0


def firm_z(n: float) -> float:
    """How many standard errors a paired difference must lead by, after ``n`` (effective)
    deals, to be firm at every look at once: the Gaussian-mixture boundary of an asymptotic
    confidence sequence (Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas, "Time-uniform central
    limit theory and asymptotic confidence sequences", Annals of Statistics 52, 2024, eq. 8),
    with its mixing width tuned for :data:`FIRM_TUNED` deals (Howard, Ramdas, McAuliffe and
    Sekhon, Annals of Statistics 49, 2021, eq. 3.4). About 3.1 from 48 to 1,000 deals: at
    any single count a tie crosses it far less often than :data:`FIRM_ALPHA`, and over every
    count together at most that often."""
    alpha = FIRM_ALPHA
    rho2 = (-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / FIRM_TUNED
    t = max(n, 1.0) * rho2
    return math.sqrt(2 * (t + 1) / t * math.log(math.sqrt(t + 1) / alpha))


def firm(gap: float, se: float, deals: int, n_eff: float) -> bool:
    """``gap`` (one option's lead over another, paired, with standard error ``se``, after
    ``deals`` deals worth ``n_eff`` unweighted ones) is firm: at least :data:`FIRM_FLOOR`
    deals, and beyond the always-valid bound (:func:`firm_z`)."""
    return deals >= FIRM_FLOOR and gap > firm_z(n_eff) * se


def _ranked(values: Values, objective: Objective) -> list[int]:
    est = {a: values.mean_se(a, objective)[0] for a in values.samples}
    pts = {a: values.mean_se(a, "points")[0] for a in values.samples}
    return sorted(est, key=lambda a: (-round(est[a], 9), -round(pts[a], 9), a))


def equivalent_cards(view: SeatView) -> dict[int, int]:
    """Each lawful card of a card play mapped to the strongest card of its class: cards of one
    hand and one suit with no card still in play ranked between them (only cards of finished
    tricks are out of play for certain) win and lose the same tricks on every deal, so the
    solver values them the same and no number of deals tells them apart."""
    if view.phase != Phase.PLAY or view.trump >= 4:
        return {}
    suit_of, power = EFFECTIVE_SUIT[view.trump], POWER[view.trump]
    gone = {c for _, cards, _ in view.tricks for _, c in cards}
    lawful = set(view.lawful_cards())
    out: dict[int, int] = {}
    live = sorted((c for c in deck_cards(view.rules.deck) if c not in gone),
                  key=lambda c: (suit_of[c], -power[c]))
    head = -1
    for i, c in enumerate(live):
        if i and suit_of[c] != suit_of[live[i - 1]]:
            head = -1
        if c in lawful:
            head = c if head < 0 else head
            out[c] = head
        else:
            head = -1
    return out


def _settled(view: SeatView, objective: Objective) -> Callable[[Values], bool]:
    same = equivalent_cards(view)

    def settled(values: Values) -> bool:
        order = _ranked(values, objective)
        top = order[0]
        for a in order[1:]:
            if a in same and same[a] == same.get(top):
                continue  # equivalent cards: more deals would not tell them apart
            gap, se = values.diff_se(top, a, objective)
            if not firm(gap, se, values.deals, values.n_eff):
                return False  # within the error, or the same on every deal so far
        return True
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
    settled = _settled(view, obj)
    values = evaluate(view, max_deals, random.Random(seed), options=options, seconds=seconds,
                      min_deals=min(min_deals, max_deals),
                      until=settled)
    return valued(view, values, obj)


def valued(view: SeatView, values: Values, objective: Objective) -> Assessment:
    """An :class:`Assessment` of values already sampled."""
    order = _ranked(values, objective)
    top = order[0]
    out = []
    n_eff = values.n_eff
    for a in order:
        v, se = values.mean_se(a, objective)
        gap, gse = (0.0, 0.0) if a == top else values.diff_se(top, a, objective)
        out.append(replace(values.option(a), value=v, se=se, behind=gap, behind_se=gse,
                           firm=a != top and firm(gap, gse, values.deals, n_eff)))
    return Assessment(view, objective, tuple(out), values.deals, values)


def signed(x: float, digits: int = 1) -> str:
    """A number with a true minus sign: '+0.4', '−0.9'."""
    if abs(x) < 0.5 * 10 ** -digits:
        x = 0.0  # no "−0.0"
    return f"{x:+.{digits}f}".replace("-", "−")


def amount(x: float, se: float, objective: Objective, sign: bool = False) -> str:
    """``x`` ± its 95% half-width, in the objective's unit."""
    ci = 1.96 * se
    if objective == "win":
        d = 1 if 100 * ci < 1 else 0
        return f"{100 * x:.{d}f}% ± {100 * ci:.{d}f}%" if ci < 1 else f"{100 * x:.0f}%"
    num = signed(x) if sign else f"{x:.1f}"
    return f"{num} ± {ci:.1f}" if ci < 10 else num


def _digits(width: float, objective: Objective) -> int:
    """Decimals that show a range of ``width`` (in the objective's unit) without false
    precision: 1% or 0.1 points, one more for a narrower range."""
    step = 0.01 if objective == "win" else 0.1
    return 1 if width < 2 * step else 0


def _fmt(x: float, objective: Objective, digits: int) -> str:
    if objective == "win":
        return f"{100 * x:.{digits}f}%"
    return f"{x:.{digits + 1}f}"


def span(o: OptionValue, z: float, objective: Objective) -> str:
    """How much worse than the best ``o`` is, as the range the verdict rests on (``z``
    standard errors either way): "2% to 8% less" when it is firmly behind, "from 1% more to
    4% less" when it may be as good."""
    half = z * o.behind_se
    unit = "" if objective == "win" else " points"
    if not math.isfinite(half):
        return "too few deals to say by how much"
    lo, hi = o.behind - half, o.behind + half
    if half == 0.0:
        return f"{_fmt(o.behind, objective, 1)}{unit} less on every deal"
    d = _digits(hi - lo, objective)
    if lo > 0:
        low = d
        while _fmt(lo, objective, low).strip("0.%") == "" and low < d + 2:
            low += 1  # a firm gap never reads as "0 to ..."
        return f"{_fmt(lo, objective, low)} to {_fmt(hi, objective, d)}{unit} less"
    more = _fmt(-lo, objective, d)
    if more.strip("0.%") == "":
        return f"up to {_fmt(hi, objective, d)}{unit} less"
    return f"from {more}{unit} more to {_fmt(hi, objective, d)} less"


def _listed(names: Sequence[str]) -> str:
    """'9♦', '9♦ and 10♦', '9♦, 10♦ and Q♦'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def weighted(values: Values) -> bool:
    """The deals were weighted by the bidding (some weigh more than others): the answer reads
    the other players' bids."""
    ws = values.weights
    return any(w != ws[0] for w in ws)


def models_differ(a: Assessment) -> list[Objective]:
    """The objectives by which the best option's value read from the bids differs from its
    value with every deal as likely beyond the error of that difference (same deals), and
    enough to show in the numbers' digits."""
    if not weighted(a.values):
        return []
    out: list[Objective] = []
    for obj in dict.fromkeys((a.objective, "points")):
        gap, se = a.values.model_gap(a.best.action, obj)
        read, read_se = a.values.mean_se(a.best.action, obj)
        flat = read - gap
        shown = amount(read, read_se, obj, True) != amount(flat, read_se, obj, True)
        if abs(gap) > Z95 * se and shown:
            out.append(obj)
    return out


def model_basis(a: Assessment) -> str:
    """Which model of the unseen cards the numbers use, in words (for the basis sentence)."""
    if weighted(a.values):
        return "each weighted by how likely the others' bids made it"
    return "every one as likely (no other player's bid to read)"


def assessment_words(a: Assessment, you: str = "you", basis: bool = True) -> str:
    """The answer in words: what the best option is expected to bring (a result, not a cost),
    the other options as firmly worse or too close to call, each by one range, and (with
    ``basis``) by which objective over how many deals, and which model of the unseen cards.
    Where the bids move the best option's value beyond the error, both models are shown."""
    best = a.best
    v = a.values
    label = option_words(best.action, a.view)
    pts = amount(best.points, best.points_se, "points", True)
    head = f"{label}: "
    if a.objective == "win":
        head += f"{amount(best.value, best.se, 'win')} to win the game; "
    head += f"{you} expect {pts} points this hand"
    differ = models_differ(a)
    if differ:
        flat = []
        if a.objective == "win":
            w, wse = v.mean_se(best.action, "win", weighted=False)
            flat.append(f"{amount(w, wse, 'win')} to win the game")
        p, pse = v.mean_se(best.action, "points", weighted=False)
        flat.append(f"{amount(p, pse, 'points', True)} points")
        head += (f", reading the others' bids (with every deal {you} could face as likely: "
                 f"{', '.join(flat)})")
    sentences = [head + "."]
    z = a.z
    same = [o for o in a.options[1:] if _same(o)]
    far = [o for o in a.options[1:] if o.firm]
    near = [o for o in a.options[1:] if not o.firm and not _same(o)]

    def each(os: list[OptionValue]) -> str:
        """Options with their ranges; those with the same range (equivalent cards) as one."""
        groups: dict[str, list[str]] = {}
        for o in os:
            groups.setdefault(span(o, z, a.objective), []).append(
                option_words(o.action, a.view))
        return ", ".join(f"{_listed(names)} ({gap})" for gap, names in groups.items())

    if far:
        sentences.append(f"Clearly worse: {each(far)}.")
    if near:
        sentences.append(f"A close call with {each(near)}: within the error.")
    if same:
        names = " and ".join(option_words(o.action, a.view) for o in same)
        sentences.append(f"{names} {'comes' if len(same) == 1 else 'come'} to the same on "
                         "every deal.")
    why = objectives_differ(a.view, v, best.action, a.objective)
    if why:
        sentences.append(why)
    if basis:
        sentences.append(f"Judged by {a.objective_words}, over {a.deals} deals, "
                         f"{model_basis(a)}.")
    return " ".join(sentences)


def score_stakes(view: SeatView) -> str:
    """What the score makes of this hand's points, in words ('any point the other side scores
    ends the game'), or '' where nothing is at stake but the average."""
    sc, target = view.scores, view.rules.target
    if len(sc) != 2:
        return ""
    mine = view.side_of()
    need, theirs = target - sc[mine], target - sc[1 - mine]
    out = []
    if need <= 1:
        out.append("any point you score wins the game")
    elif need <= 2:
        out.append("a march or a euchre wins you the game")
    if theirs <= 1:
        out.append("any point the other side scores ends the game")
    elif theirs <= 2:
        out.append("a march or a euchre by the other side ends the game")
    return " and ".join(out)


def objectives_differ(view: SeatView, values: Values, best: int, objective: Objective) -> str:
    """Why the best option by ``objective`` is not the best by the other one, in words, when the
    other ranks another option ahead beyond its error; else ''. Near the end of a game some
    points win or save it and others are worth nothing, so the game and the hand's average
    may disagree."""
    other: Objective = "points" if objective == "win" else "win"
    if len(values.samples) < 2 or (other == "win" and not values.wins):
        return ""
    top = max(values.samples, key=lambda a: (values.mean_se(a, other)[0], -a))
    if top == best:
        return ""
    gap, se = values.diff_se(top, best, other)
    if not firm(gap, se, values.deals, values.n_eff):
        return ""
    sc = view.scores
    mine = view.side_of()
    at = f"{sc[mine]}-{sc[1 - mine]}"
    stakes = score_stakes(view)
    stakes = f"{stakes}: " if stakes else ""
    if other == "points":
        p_top, p_best = values.mean_se(top, "points")[0], values.mean_se(best, "points")[0]
        return (f"On points alone {option_words(top, view)} is ahead ({signed(p_top)} against "
                f"{signed(p_best)} this hand), but at {at} {stakes}the points that win or "
                "save the game are what count.")
    w_top, w_best = values.mean_se(top, "win")[0], values.mean_se(best, "win")[0]
    reason = score_stakes(view) or "some points count more than others"
    return (f"For the game {option_words(top, view)} has the better chance ({100 * w_top:.0f}% "
            f"against {100 * w_best:.0f}%): at {at} {reason}.")


def hint(view: SeatView, seed: int = 0, think: object = None) -> tuple[int, str] | None:
    """(the option to play, why in words) for the seat to move: the terminal's and the
    browser's hint. ``think`` is the search players' budget (deals, or a time such as '0.5s');
    by default :data:`SECONDS`. None where the service cannot value the decision (a renege
    claim, which the rules decide; rows, which the solver cannot play): ask a player then."""
    if view.phase == Phase.CLAIM or not solvable(view.rules) or not view.legal_actions:
        return None
    lawful = view.lawful_cards() if view.phase == Phase.PLAY else list(view.legal_actions)
    if len(lawful) == 1:
        (only,) = lawful
        return only, f"{option_words(only, view)} is your only lawful choice."
    a = hint_assessment(view, seed, think)
    return a.best.action, assessment_words(a)


def hint_assessment(view: SeatView, seed: int = 0, think: object = None) -> Assessment:
    """The assessment behind :func:`hint` (its budget, its objective), for a caller that wants
    the numbers rather than the words."""
    from euchre.bots.search import parse_think

    if think is None:
        return assess(view, seed=seed)
    t = parse_think(think)
    if t.seconds is not None:
        return assess(view, seed=seed, seconds=t.seconds)
    # a deal count: deterministic for a seed
    return assess(view, seed=seed, seconds=None, max_deals=max(2 * t.samples, 8),
                  min_deals=max(2 * t.samples, 8))
