"""Game review: what every decision of a finished game cost against the best choice.

For each decision (bids, the dealer's discard, declarations, card plays) the reviewer rebuilds
the deciding seat's :class:`~euchre.view.SeatView` at that moment, so a decision is judged on
what the player could know, never on the cards that were actually out. Card plays are solved
double-dummy over deals consistent with the view; bids and discards are played out by the
rollout policy (see :mod:`euchre.analysis.values` for why the two judges differ).

No winner's curse: the best option picked on a sample looks better on that sample than it is,
so a loss measured on the deals that picked it grows as the deals shrink. The deals of each
decision are split in two; the best option picked on one half is measured against the choice
on the other half, and the other way round (cross-fitting), and the two measurements are
averaged. That estimate is unbiased, so it may come out below zero on a good choice, and the
totals add it signed: the same game reviewed with few or many deals gives totals that agree
within their error bars. A decision's shown loss is that estimate when positive, else 0; a
*clear* mistake is one whose loss exceeds its 95% interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace

from euchre import actions as A
from euchre.analysis.assess import amount, objectives_differ
from euchre.analysis.values import (
    Z95,
    Objective,
    OptionValue,
    Values,
    evaluate,
    game_objective,
    lawful_cards,
)
from euchre.bots import rollout
from euchre.cards import EFFECTIVE_SUIT, STRENGTH, card_str, card_symbol
from euchre.match import Match
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.solver import solvable
from euchre.state import HandState, seat_name
from euchre.view import SeatView
from euchre.words import option_words

__all__ = [
    "Decision",
    "Review",
    "combine",
    "count_decisions",
    "cross_fitted_loss",
    "match_objective",
    "play_context",
    "review_match",
    "review_to_json",
    "unreviewable",
]

#: Default deals per decision: card play (solved) and bids (played out).
PLAY_DEALS = 24
BID_DEALS = 24
#: Farmer's swaps valued besides the one chosen (the cheapest by the policy's habit).
MAX_SWAPS = 3


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision."""

    hand: int
    """1-based hand number in the match."""
    index: int
    """0-based index of the action in the hand's action list."""
    seat: Seat
    seat_name: str
    phase: Phase
    when: str
    choice: int
    best: int
    loss: float
    """Expected points given up against ``best`` (0 when the choice was best): ``estimate``
    when positive."""
    ci95: float
    kind: str
    """'play' (solved double-dummy) or 'rollout' (played out)."""
    deals: int
    options: tuple[OptionValue, ...]
    """Every option valued, best first by the review's objective."""
    why: str
    """What the best choice was worth against the one made, and how that was measured."""
    short: str
    """``why`` without how it was measured (the terminal table says that once)."""
    view: SeatView = field(repr=False, compare=False)
    estimate: float = 0.0
    """The unbiased loss, measured on deals apart from those that picked the best; may be
    below zero when the choice was as good (what the totals add)."""
    se: float = 0.0
    """Standard error of ``estimate``."""
    values: Values | None = field(default=None, repr=False, compare=False)
    """The per-deal results the decision was judged on (another choice can be measured on
    them the same way, :func:`cross_fitted_loss`)."""

    @property
    def clear(self) -> bool:
        """A clear mistake: the loss is beyond its 95% interval."""
        return self.loss > 0 and self.loss > self.ci95

    @property
    def choice_label(self) -> str:
        return option_words(self.choice, self.view)

    @property
    def best_label(self) -> str:
        return option_words(self.best, self.view)


@dataclass(frozen=True, slots=True)
class Review:
    players: tuple[str, ...]
    decisions: tuple[Decision, ...]
    """Worst first."""
    play_deals: int
    bid_deals: int
    seconds: float
    objective: Objective = "points"
    seats: tuple[int, ...] | None = None
    """The seats reviewed, when not every seat."""

    def seat_totals(self) -> list[dict[str, object]]:
        """Per seat: decisions reviewed, total loss (the signed, unbiased estimates added) with
        its 95% half-width, clear mistakes."""
        out: list[dict[str, object]] = []
        for s, name in enumerate(self.players):
            if self.seats is not None and s not in self.seats:
                continue
            mine = [d for d in self.decisions if d.seat == s]
            se = math.sqrt(sum(d.se * d.se for d in mine))
            out.append({"seat": s, "name": name, "decisions": len(mine),
                        "loss": round(sum(d.estimate for d in mine), 4),
                        "loss_ci95": _num(Z95 * se),
                        "mistakes": sum(1 for d in mine if d.clear)})
        return out



def _when(view: SeatView) -> str:
    if view.phase == Phase.PLAY:
        k = len(view.tricks) + 1
        pos = len(view.current_trick)
        return f"trick {k}, " + ("lead" if pos == 0 else f"card {pos + 1}")
    return {Phase.BID1: "round 1", Phase.BID2: "round 2", Phase.DISCARD: "discard",
            Phase.DECLARE: "declare", Phase.ALONE: "alone?", Phase.DEFEND: "defend",
            Phase.DEALER_TAKE: "take?"}.get(view.phase, str(view.phase))


def _reviewable(st: HandState, view: SeatView, action: int) -> bool:
    if view.phase == Phase.CLAIM:
        return False  # a claim is decided by the rules of the game, not judged here
    if view.phase == Phase.PLAY:
        lawful = lawful_cards(view)
        return action in lawful and len(lawful) > 1
    return len(view.legal_actions) > 1


def _options(view: SeatView, action: int) -> list[int] | None:
    """The options to value: all of them, but only a few farmer's swaps."""
    if view.phase != Phase.DECLARE:
        return None
    legal = list(view.legal_actions)
    swaps = sorted((a for a in legal if a >= A.SWAP_BASE),
                   key=lambda a: rollout.swap_cost(a, view.upcard))[:MAX_SWAPS]
    keep = {a for a in legal if a < A.SWAP_BASE} | set(swaps) | {action}
    return [a for a in legal if a in keep]


def _hands(match: Match) -> list[tuple[int, HandState, tuple[int, ...], tuple[int, ...]]]:
    """(hand number, fresh state, actions, scores before) of every hand with actions."""
    out = []
    scores = tuple([0] * match.rules.num_sides)
    for i, f in enumerate(match.finished, 1):
        out.append((i, HandState(match.rules, f.dealer, f.deck), f.actions, scores))
        scores = f.scores_after
    if not match.is_terminal() and match.hand.history:
        h = match.hand
        out.append((len(match.finished) + 1, HandState(match.rules, h.dealer, h.deck),
                    tuple(a for _, a in h.history), tuple(match.scores)))
    return out


def unreviewable(rules: Rules) -> str | None:
    """Why a game under ``rules`` cannot be reviewed, or None when it can: the review values
    card plays with the double-dummy solver, which plays five-card hands, so the rows of
    two-handed Euchre are out of its reach (the replay still shows such a game)."""
    if not solvable(rules):
        return ("this is two-handed with rows, which the review cannot analyse yet (its "
                "double-dummy solver plays five-card hands)")
    return None


def match_objective(match: Match) -> Objective:
    """The objective a review of ``match`` judges by unless told: the hint's,
    :func:`~euchre.analysis.values.default_objective` (every decision of a match shares it)."""
    return game_objective(match.rules, match.scores)


def count_decisions(match: Match, seats: Collection[int] | None = None) -> int:
    """How many decisions :func:`review_match` will value (for a progress bar)."""
    total = 0
    for _, st, actions, scores in _hands(match):
        for a in actions:
            if (seats is None or st.cur in seats) and _reviewable(st, st.view(st.cur, scores),
                                                                  a):
                total += 1
            st.apply_action(a)
    return total


def review_match(match: Match, play_deals: int = PLAY_DEALS, bid_deals: int = BID_DEALS,
                 seed: int = 0, players: list[str] | None = None,
                 progress: Callable[[], None] | None = None,
                 objective: Objective | None = None, seats: Collection[int] | None = None,
                 hands: Collection[int] | None = None) -> Review:
    """Value every decision of ``match`` (finished hands and the one in progress) by
    ``objective``: by default, as the hint judges, the chance to win the game in a game with
    its score known (:func:`match_objective`), else points a hand; only ``seats``' decisions
    when given, and only those of the (1-based) ``hands`` when given: a decision is valued the
    same whether its hand is reviewed alone or with the game, so hands may be reviewed apart
    and put together."""
    import time

    start = time.perf_counter()
    if objective is None:
        objective = match_objective(match)
    elif objective == "win" and match_objective(match) != "win":
        raise ValueError("the chance to win the game needs a two-sided game with a known "
                         "score; value points instead")
    n = match.rules.players
    names = tuple(
        f"{seat_name(s, n)} ({players[s]})" if players and len(players) == n
        else seat_name(s, n) for s in range(n))
    out: list[Decision] = []
    for hand_no, st, actions, scores in _hands(match):
        if hands is not None and hand_no not in hands:
            continue
        for j, a in enumerate(actions):
            seat = st.cur
            view = st.view(seat, scores)
            if (seats is None or seat in seats) and _reviewable(st, view, a):
                rng = random.Random(seed * 1_000_003 + hand_no * 1000 + j)
                deals = play_deals if view.phase == Phase.PLAY else bid_deals
                values = evaluate(view, deals, rng, options=_options(view, a))
                out.append(_decision(hand_no, j, seat, names[seat], view, a, values,
                                     objective))
                if progress is not None:
                    progress()
            st.apply_action(a)
    out.sort(key=_worst_first)
    return Review(names, tuple(out), play_deals, bid_deals, time.perf_counter() - start,
                  objective, None if seats is None else tuple(sorted(seats)))


def _worst_first(d: Decision) -> tuple[float, int, int]:
    return -d.loss, d.hand, d.index


def combine(parts: Sequence[Review]) -> Review:
    """One review of the hands that ``parts`` (reviews of the same game, each of other hands,
    by ``review_match(..., hands=...)``) reviewed apart: the same as reviewing them together."""
    first = parts[0]
    decisions = sorted((d for p in parts for d in p.decisions), key=_worst_first)
    return replace(first, decisions=tuple(decisions), seconds=sum(p.seconds for p in parts))


#: Standard errors by which an option must lead the choice on the picking half to be picked:
#: on a dozen deals a leader made by noise is picked often, and measured on other deals it
#: comes out worse than the choice, a "loss" that says nothing about the player.
PICK_SE = 1.0


def _top(values: Values, objective: Objective, deals: slice) -> int:
    """The best option on ``deals`` only (ties to the lower action id)."""
    ws = values.weights[deals]
    total = sum(ws)

    def mean(a: int) -> float:
        xs = values.series(a, objective)[deals]
        return sum(w * x for w, x in zip(ws, xs, strict=True)) / total

    return min(values.samples, key=lambda a: (-round(mean(a), 9), a))


def cross_fitted_loss(values: Values, choice: int, objective: Objective = "points"
                      ) -> tuple[float, float, int]:
    """(loss, standard error, the best option picked) of ``choice``, free of the winner's
    curse: the best picked on each half of the deals is measured against the choice on the
    other half, and the two measurements averaged. When a half keeps the choice (nothing led
    it by :data:`PICK_SE` errors) its measurement is 0, with the error the leader's would
    have had: the review could not tell, which is not the same as knowing."""
    n = values.deals
    if n < 4:
        raise ValueError(f"a review needs at least 4 deals a decision, not {n}")
    halves = (slice(0, n // 2), slice(n // 2, n))
    parts: list[tuple[float, float]] = []
    picks: list[int] = []
    for pick_on, measure_on in (halves, halves[::-1]):
        top = _top(values, objective, pick_on)
        if top == choice:
            parts.append((0.0, 0.0))
            continue
        lead, lead_se = values.diff_se(top, choice, objective, pick_on)
        gap, se = values.diff_se(top, choice, objective, measure_on)
        if lead > PICK_SE * lead_se:
            picks.append(top)
            parts.append((gap, se))
        else:
            parts.append((0.0, se))
    est = (parts[0][0] + parts[1][0]) / 2
    se = math.sqrt(parts[0][1] ** 2 + parts[1][1] ** 2) / 2
    picked = next((p for p in picks if p != choice), choice)
    return est, se, picked


def _decision(hand_no: int, index: int, seat: Seat, name: str, view: SeatView, choice: int,
              values: Values, objective: Objective) -> Decision:
    est_of = {e.action: e for e in values.ranked()}
    ranked = [est_of[a] for a in _by(values, objective)]
    est, se, picked = cross_fitted_loss(values, choice, objective)
    if est > 0 and picked != choice:
        best, loss, ci = picked, est, Z95 * se
    else:
        best, loss, ci = choice, 0.0, 0.0
    return Decision(hand_no, index, seat, name, view.phase, _when(view), choice, best,
                    loss, ci, values.kind, values.deals, tuple(ranked),
                    *_why(view, values, choice, best, seat_name(seat, view.players), loss, ci,
                          objective),
                    view, est, se, values)


def _partner_winning(view: SeatView) -> int:
    """The card of this seat's partner that is winning the current trick, or -1."""
    if not view.current_trick or view.players != 4 or view.trump >= 4:
        return -1
    st = STRENGTH[view.trump][view.led_suit]
    win_seat, win_card = view.current_trick[0]
    for s, c in view.current_trick[1:]:
        if st[c] > st[win_card]:
            win_seat, win_card = s, c
    return win_card if win_seat == view.partner() else -1


def play_context(view: SeatView, choice: int, best: int) -> str:
    """A sentence on why ``best`` beats ``choice`` in a card play, where a simple pattern
    shows it (trumping a partner's winning card, spending a trump, ducking a trick), else ''."""
    if view.trump >= 4:
        return ""
    partner = _partner_winning(view)
    eff = EFFECTIVE_SUIT[view.trump]
    st = STRENGTH[view.trump][view.led_suit] if view.current_trick else None
    if partner >= 0 and st is not None and st[choice] > st[partner] and st[best] < st[partner]:
        verb = "trumping" if eff[choice] == view.trump else "overtaking"
        return (f"The partner's {card_symbol(partner)} was already winning the trick: "
                f"{verb} it with the {card_symbol(choice)} spends a card that could take a "
                "later trick. ")
    if eff[choice] == view.trump and eff[best] != view.trump:
        return f"The {card_symbol(choice)} spends a trump that {card_symbol(best)} saves. "
    if st is not None and st[best] > st[choice]:
        return f"The {card_symbol(best)} takes or fights for this trick. "
    return ""


def _why(view: SeatView, values: Values, choice: int, best: int, name: str,
         loss: float = 0.0, ci: float = 0.0, objective: Objective = "points"
         ) -> tuple[str, str]:
    """A sentence a player can read: what the best choice was worth against the one made, in
    the objective's unit (a value is an expected result, not a cost; the loss is what the
    choice gave up), and why the two objectives disagree where they do."""
    if values.kind == "play":
        basis = (f"solved double-dummy over {values.deals} deals consistent with what "
                 f"{name} saw")
    else:
        basis = f"played out by sound players over {values.deals} deals {name} could face"

    def worth(a: int, unit: bool = True) -> str:
        v, se = values.mean_se(a, objective)
        if objective == "win":
            return amount(v, se, "win") + (" to win the game" if unit else "")
        return amount(v, se, "points", True) + (" points this hand" if unit else "")

    differ = objectives_differ(view, values, best, objective)
    tail = f" {differ}" if differ else ""
    if best == choice:
        alts = [a for a in _by(values, objective) if a != choice][:1]
        nxt = f"; next best {option_words(alts[0], view)}, {worth(alts[0])}" if alts else ""
        short = f"Best choice: {worth(choice)}{nxt}."
        return f"{short[:-1]}, {basis}.{tail}", f"{short}{tail}"
    lead = play_context(view, choice, best) if values.kind == "play" else ""
    verdict = "beyond the error" if loss > ci else "within the error: a close call"
    given = (f"{100 * loss:.1f}% ± {100 * ci:.1f}% of the chance to win given up"
             if objective == "win" else f"{loss:.2f} ± {ci:.2f} points given up")
    short = (f"{lead}{option_words(best, view)}: {worth(best)} against "
             f"{worth(choice, False)} for {option_words(choice, view)}; measured on deals apart "
             f"from those that picked it, {given}, {verdict}")
    return f"{short}, {basis}.{tail}", f"{short}.{tail}"


def _by(values: Values, objective: Objective) -> list[int]:
    """The options best first by ``objective`` (ties to the lower action id)."""
    return sorted(values.samples, key=lambda a: (-round(values.mean_se(a, objective)[0], 9), a))


def _num(x: float) -> float | None:
    """A JSON number, or null for an interval too wide to state (too few deals)."""
    return round(x, 4) if math.isfinite(x) else None


def _action_json(a: int) -> str:
    return A.action_to_str(a)


def review_to_json(rev: Review) -> dict[str, object]:
    """The documented JSON form (docs/analysis.md, schema ``review.schema.json``)."""
    return {
        "format": "euchre-review",
        "version": 1,
        "players": list(rev.players),
        "play_deals": rev.play_deals,
        "bid_deals": rev.bid_deals,
        "objective": rev.objective,
        "seat_totals": rev.seat_totals(),
        "decisions": [
            {
                "hand": d.hand,
                "index": d.index,
                "seat": d.seat,
                "phase": d.phase.value,
                "when": d.when,
                "hand_cards": [card_str(c) for c in d.view.hand],
                "choice": _action_json(d.choice),
                "choice_label": d.choice_label,
                "best": _action_json(d.best),
                "best_label": d.best_label,
                "loss": round(d.loss, 4),
                "ci95": _num(d.ci95),
                "estimate": round(d.estimate, 4),
                "clear": d.clear,
                "judge": d.kind,
                "deals": d.deals,
                "why": d.why,
                "options": [
                    {"action": _action_json(o.action),
                     "label": option_words(o.action, d.view),
                     "points": round(o.points, 4), "ci95": _num(o.ci95)}
                    for o in d.options
                ],
            }
            for d in rev.decisions
        ],
    }
