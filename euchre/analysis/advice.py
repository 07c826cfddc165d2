"""Bidding advice: what each bid is worth for a hand, a seat, an up-card and a score.

A player asks "should I order this up?" before any card is played. :func:`advise` builds the
position the question describes (the seats before this one have passed), then values every
legal bid on the same sampled deals (:func:`euchre.analysis.values.evaluate`): each deal is
drawn among those consistent with what the seat sees, weighted by how likely the passes before
it made the deal, and played out from each bid by the honest rollout policy that the search
player bids with. Round two is answered too: the position where every seat passed the up-card
and the seats before this one passed again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from euchre import actions as A
from euchre.analysis.assess import Assessment, valued
from euchre.analysis.values import Objective, OptionValue, default_objective, evaluate
from euchre.cards import JOKER, Card, card_symbol, deck_cards
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.state import BID1, BID2, DECLARE, HandState, seat_name
from euchre.view import SeatView
from euchre.words import option_words

__all__ = ["Advice", "RoundAdvice", "advice_to_json", "advise", "bidding_view"]

#: The default time budget in seconds for all rounds together (the command answers in under
#: 2 s with start-up included).
DEFAULT_SECONDS = 0.8
#: The most deals a round looks at.
MAX_DEALS = 20_000


class AdviceError(ValueError):
    """A position that cannot be: the message names what is wrong and what is allowed."""


@dataclass(frozen=True, slots=True)
class RoundAdvice:
    round: int
    view: SeatView
    options: tuple[OptionValue, ...]
    """Best first, by ``objective``."""
    deals: int
    objective: Objective = "points"
    """What the options were ranked by: the chance to win the game when the score is known."""
    close: bool = False
    """The best option does not lead the next beyond its error (paired on the same deals)."""
    assessment: Assessment | None = field(default=None, compare=False, repr=False)
    """The evaluation service's answer these options come from (errors of both objectives,
    the words), when the advice was worked out rather than built by hand."""


@dataclass(frozen=True, slots=True)
class Advice:
    rules: Rules
    hand: tuple[Card, ...]
    upcard: Card
    seat: Seat
    dealer: Seat
    scores: tuple[int, ...]
    """Match score by side (the engine's side order), or () when not given."""
    rounds: tuple[RoundAdvice, ...]


def _deck_for(rules: Rules, hand: Sequence[Card], upcard: Card, seat: Seat, dealer: Seat
              ) -> list[int]:
    """A deck order that deals ``hand`` to ``seat`` and turns up ``upcard`` (the other cards
    anywhere: the sampler redraws them)."""
    n = rules.players
    full = list(deck_cards(rules.deck))
    probe = HandState(rules, dealer, full)
    rest = [c for c in full if c not in hand and c != upcard]
    mine = iter(hand)
    deck: list[Card] = []
    for owner in probe.deal_seats:
        deck.append(next(mine) if owner == seat else rest.pop())
    deck.append(upcard)
    deck.extend(rest)
    assert len(deck) == len(full) and len(deck) >= 5 * n + 1
    return deck


def bidding_view(rules: Rules, hand: Sequence[Card], upcard: Card, seat: Seat, dealer: Seat,
                 round_: int = 1, scores: tuple[int, ...] = ()) -> SeatView:
    """``seat``'s view when its bid in ``round_`` comes and every seat before it passed (and,
    in round two, every seat passed the up-card). Declarations before the bidding are
    declined. Raises AdviceError naming the problem."""
    n = rules.players
    if not 0 <= seat < n or not 0 <= dealer < n:
        raise AdviceError(f"seat and dealer must be seats 0..{n - 1}")
    full = set(deck_cards(rules.deck))
    if len(hand) != 5 or len(set(hand)) != 5:
        raise AdviceError("a hand is five different cards, e.g. \"JH JD AH KS 9C\"")
    bad = [card_symbol(c) for c in [*hand, upcard] if c not in full]
    if bad:
        raise AdviceError(f"{' '.join(bad)} is not in the {rules.deck}-card deck")
    if upcard in hand:
        raise AdviceError(f"the up-card {card_symbol(upcard)} cannot also be in the hand")
    st = HandState(rules, dealer, _deck_for(rules, hand, upcard, seat, dealer))
    while st.phase == DECLARE:
        st.apply_action(A.PASS)
    target_phase = BID1 if round_ == 1 else BID2
    if round_ == 2 and upcard == JOKER:
        raise AdviceError("a turned-up Joker is named by the dealer in round one; "
                          "there is no round two")
    while not (st.phase == target_phase and st.cur == seat):
        if st.phase not in (BID1, BID2) or A.PASS not in st.legal_actions():
            who = seat_name(st.cur, n)
            raise AdviceError(f"{seat_name(seat, n)} never bids in round {round_} here: "
                              f"{who} may not pass before it")
        st.apply_action(A.PASS)
    return st.view(seat, scores)


def advise(rules: Rules, hand: Sequence[Card], upcard: Card, seat: Seat, dealer: Seat,
           scores: tuple[int, ...] = (), deals: int = MAX_DEALS, seed: int = 0,
           rounds: Sequence[int] = (1, 2), seconds: float | None = None,
           objective: Objective | None = None) -> Advice:
    """Every legal bid of each round in ``rounds``, valued over ``deals`` sampled deals per
    round, or as many as fit in ``seconds`` in all (shared by the rounds in proportion to
    their options, so every option gets about the same number of rollouts), and ranked by
    ``objective`` (by default the chance to win the game when ``scores`` is given, else
    points), as the hint and the review judge."""
    if scores and (len(scores) != rules.num_sides
                   or not all(0 <= s < rules.target for s in scores)):
        raise AdviceError(f"a score is {rules.num_sides} numbers 0..{rules.target - 1}, one "
                          "per side, like 6-8")
    views = [(r, bidding_view(rules, hand, upcard, seat, dealer, r, scores))
             for r in rounds if not (r == 2 and upcard == JOKER)]
    total_opts = sum(len(v.legal_actions) for _, v in views)
    out = []
    for r, view in views:
        rng = random.Random(seed * 1000 + r)
        share = None if seconds is None else seconds * len(view.legal_actions) / total_opts
        values = evaluate(view, deals, rng, seconds=share)
        obj = objective or default_objective(view)
        judged = valued(view, values, obj)
        est = {e.action: e for e in values.ranked()}
        out.append(RoundAdvice(r, view, tuple(est[o.action] for o in judged.options),
                               values.deals, obj, judged.close, judged))
    return Advice(rules, tuple(hand), upcard, seat, dealer, tuple(scores), tuple(out))


def advice_to_json(adv: Advice) -> dict[str, object]:
    """The documented JSON form (docs/analysis.md, schema ``advice.schema.json``)."""
    from euchre.cards import card_str

    rounds = []
    for r in adv.rounds:
        rounds.append({
            "round": r.round,
            "deals": r.deals,
            "objective": r.objective,
            "close_call": r.close,
            "best": A.action_to_str(r.options[0].action),
            "options": [
                {
                    "action": A.action_to_str(o.action),
                    "label": option_words(o.action, r.view),
                    "points": round(o.points, 4),
                    "ci95": round(o.ci95, 4) if math.isfinite(o.ci95) else None,
                    "win": None if o.win is None else round(o.win, 4),
                }
                for o in r.options
            ],
        })
    return {
        "format": "euchre-advice",
        "version": 1,
        "rules": adv.rules.to_dict(),
        "hand": [card_str(c) for c in adv.hand],
        "up": card_str(adv.upcard),
        "seat": adv.seat,
        "dealer": adv.dealer,
        "score": list(adv.scores) if adv.scores else None,
        "rounds": rounds,
    }
