"""Game review: what every decision of a finished game cost against the best choice.

For each decision (bids, the dealer's discard, declarations, card plays) the reviewer rebuilds
the deciding seat's :class:`~euchre.view.SeatView` at that moment, so a decision is judged on
what the player could know, never on the cards that were actually out. Card plays are solved
double-dummy over deals consistent with the view; bids and discards are played out by the
rollout policy (see :mod:`euchre.analysis.values` for why the two judges differ).

Right at every budget. Each decision is judged in two steps on deals apart from each other:

1. **The pick**: the evaluation service (:func:`euchre.analysis.assess.assess`, the hint's own
   judge and stopping rule) values every option on deals of its own, at most
   :data:`PICK_DEALS`, seeded by the decision alone: the same pick whatever the review's
   budget and seed.
2. **The measure**: where the pick is not the choice, the pick is measured against the choice
   on the review's budget of fresh deals (``play_deals``/``bid_deals``), paired deal by deal.

Because the pick never depends on the deals it is measured on, the loss has no winner's curse
(a best picked on a sample looks better on that sample than it is), and because it never
depends on the budget either, a review with 12 deals and one with 400 estimate the same
totals: the mean over seeds at any budget is the large budget's total, and each total's error
bar is the spread between seeds (both tested). A loss may come out below zero when the choice
was as good; the totals add the signed estimates. A decision is a *clear* mistake only when
both samples say so: the pick leads the choice firmly on its own deals (the hint's rule) and
the fresh deals confirm a loss beyond its 95% interval.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace

from euchre import actions as A
from euchre.analysis.assess import (
    Assessment,
    amount,
    assess,
    objectives_differ,
    span,
)
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
    "hand_starts",
    "match_objective",
    "measure",
    "pick",
    "play_context",
    "review_match",
    "review_to_json",
    "unreviewable",
]

#: Default deals per decision on which a loss is measured: card play (solved) and bids
#: (played out).
PLAY_DEALS = 24
BID_DEALS = 24
#: The most deals the best option is picked on (the service stops sooner once it is firm).
PICK_DEALS = 96
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
    """The fresh deals the loss was measured on, every option valued (None where the pick
    was the choice: nothing to measure)."""
    pick_deals: int = 0
    """Deals the best option was picked on (those ``options`` are valued on)."""
    pick_firm: bool = False
    """On the picking deals the best led the choice firmly (the hint's rule)."""
    pick_values: Values | None = field(default=None, repr=False, compare=False)
    """The picking deals' per-deal results."""

    @property
    def clear(self) -> bool:
        """A clear mistake: the picking deals and the fresh ones both say so (the pick leads
        firmly on its deals, and the loss on the fresh ones is beyond its 95% interval)."""
        return self.pick_firm and self.loss > 0 and self.loss > self.ci95

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


def hand_starts(match: Match) -> dict[int, tuple[HandState, tuple[int, ...]]]:
    """Hand number -> (its state as dealt, its actions): where each decision of a review
    replays from."""
    return {no: (st, actions) for no, st, actions, _ in _hands(match)}


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


def _pick_seed(hand_no: int, index: int) -> int:
    """The picking deals' seed: the decision's place in the game and nothing else."""
    text = f"pick {hand_no} {index}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def pick(view: SeatView, hand_no: int, index: int, objective: Objective,
         options: Sequence[int] | None = None) -> Assessment:
    """The best option of a decision as the service sees it on deals of its own (the first
    step of a review): the same whatever the review's budget and seed, so it is worked out
    once (a game reviewed again, at another budget or seed, picks from memory)."""
    return _pick(view, hand_no, index, objective, None if options is None else tuple(options))


@functools.lru_cache(maxsize=512)
def _pick(view: SeatView, hand_no: int, index: int, objective: Objective,
          options: tuple[int, ...] | None) -> Assessment:
    return assess(view, objective, seed=_pick_seed(hand_no, index), seconds=None,
                  max_deals=PICK_DEALS, options=options)


def measure(view: SeatView, better: int, choice: int, deals: int, rng: random.Random,
            objective: Objective, options: Sequence[int] | None = None
            ) -> tuple[float, float, Values]:
    """(loss, standard error, the values) of ``choice`` against ``better`` on ``deals`` fresh
    deals, paired: what the choice gave up (the second step of a review)."""
    values = evaluate(view, deals, rng, options=options)
    loss, se = values.diff_se(better, choice, objective)
    return loss, se, values


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
                opts = _options(view, a)
                picked = pick(view, hand_no, j, objective, opts)
                deals = play_deals if view.phase == Phase.PLAY else bid_deals
                rng = random.Random(seed * 1_000_003 + hand_no * 1000 + j)
                out.append(_decision(hand_no, j, seat, names[seat], view, a, picked,
                                     objective, deals, rng, opts))
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


def _decision(hand_no: int, index: int, seat: Seat, name: str, view: SeatView, choice: int,
              picked: Assessment, objective: Objective, deals: int, rng: random.Random,
              options: Sequence[int] | None) -> Decision:
    by = {o.action: o for o in picked.options}
    best = picked.best.action
    mine = by[choice]
    if best == choice or (mine.behind == 0.0 and mine.behind_se == 0.0):
        # the choice is the pick, or comes to the same on every deal (equivalent cards)
        best, est, se, fresh = choice, 0.0, 0.0, None
    else:
        est, se, fresh = measure(view, best, choice, deals, rng, objective, options)
    loss, ci = (est, Z95 * se) if est > 0 else (0.0, 0.0)
    return Decision(hand_no, index, seat, name, view.phase, _when(view), choice, best,
                    loss, ci, picked.values.kind, 0 if fresh is None else fresh.deals,
                    picked.options,
                    *_why(view, picked, choice, best, seat_name(seat, view.players), loss, ci,
                          objective, est, 0 if fresh is None else fresh.deals,
                          best != choice and mine.firm),
                    view, est, se, fresh, picked.deals, best != choice and mine.firm,
                    picked.values)


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


def _why(view: SeatView, picked: Assessment, choice: int, best: int, name: str,
         loss: float, ci: float, objective: Objective, estimate: float, deals: int,
         pick_firm: bool) -> tuple[str, str]:
    """A sentence a player can read, with one gap for the one comparison: the best choice and
    how it compares with the next (a choice that was best), or what the choice gave up against
    the best, measured on deals of its own, and whether that is a clear mistake (both samples
    say so) or a close call; and why the two objectives disagree where they do."""
    values = picked.values
    if values.kind == "play":
        basis = (f"solved double-dummy over deals consistent with what {name} saw")
    else:
        basis = f"played out by sound players over deals {name} could face"

    def worth(a: int) -> str:
        o = next(x for x in picked.options if x.action == a)
        if objective == "win":
            return amount(o.value, o.se, "win") + " to win the game"
        return amount(o.points, o.points_se, "points", True) + " points this hand"

    differ = objectives_differ(view, values, best, objective)
    tail = f" {differ}" if differ else ""
    if best == choice:
        alts = [o for o in picked.options if o.action != choice][:1]
        nxt = ""
        if alts:
            o = alts[0]
            how = "clearly worse" if o.firm else "a close call"
            nxt = (f"; next best {option_words(o.action, view)}, {how} "
                   f"({span(o, picked.z, objective)})")
        short = f"Best choice: {worth(choice)}{nxt}."
        return (f"{short[:-1]}, {basis}, {picked.deals} deals.{tail}", f"{short}{tail}")
    lead = play_context(view, choice, best) if values.kind == "play" else ""
    given = (f"{100 * estimate:.1f}% ± {100 * ci:.1f}% of the chance to win given up"
             if objective == "win" else f"{estimate:.2f} ± {ci:.2f} points given up")
    if estimate <= 0:
        kept = (f"{100 * -estimate:.1f}% more of the chance to win" if objective == "win"
                else f"{-estimate:.2f} more points")
        short = (f"{lead}{option_words(best, view)} looked best on the deals that picked it, "
                 f"but on {deals} fresh deals {option_words(choice, view)} kept {kept}: no "
                 "loss to show")
        return (f"{short}; {basis}, {picked.deals} deals to pick the best.{tail}",
                f"{short}.{tail}")
    if pick_firm and loss > ci:
        verdict = "a clear mistake: the deals that picked it and fresh ones both say so"
    elif loss > ci:
        verdict = ("beyond the error on the fresh deals, but the deals that picked it did not "
                   "separate the two firmly: a close call")
    else:
        verdict = "within the error: a close call"
    short = (f"{lead}{option_words(best, view)} instead of {option_words(choice, view)}: "
             f"{given} on {deals} fresh deals, {verdict}")
    return (f"{short}; {basis}, {picked.deals} deals to pick the best.{tail}",
            f"{short}.{tail}")


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
                "pick_deals": d.pick_deals,
                "pick_firm": d.pick_firm,
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
